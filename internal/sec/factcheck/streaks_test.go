package factcheck

import "testing"

// TestLongStreaks: a streak of ten years or more ("for 12 consecutive
// years", "a decade of dividend increases", "ten years in a row", "every
// year for the past decade") is held as a shorter one is: corrected when
// a year the filings hold moved the other way, verified when they hold
// every year counted, unverified when they stop short. Only counts to
// nine were read, in digits or words; a longer streak, right or wrong,
// gave no finding at all. By the companyfacts JSON: Alphabet's revenue
// grew in each of 2016-2025 and its net income fell in 2022; NVIDIA's
// revenue fell in fiscal 2020; Apple's fell in fiscal 2023.
func TestLongStreaks(t *testing.T) {
	ts := tables(t)
	checkOne(t, []oneCase{
		{ts["GOOGL"], "Alphabet's revenue has grown for ten consecutive years.", Verified},
		{ts["GOOGL"], "Alphabet has grown revenue 10 years in a row.", Verified},
		{ts["GOOGL"], "Alphabet's revenue has grown every year for the past decade.", Verified},
		{ts["GOOGL"], "Alphabet's revenue has increased in each of the last ten years.", Verified},
		{ts["GOOGL"], "Alphabet has posted ten straight years of revenue growth.", Verified},
		// The filings Parley holds reach back ten years of growth.
		{ts["GOOGL"], "Alphabet's revenue has grown for 12 consecutive years.", Unverified},
		{ts["GOOGL"], "Alphabet has posted 12 consecutive years of revenue growth.", Unverified},
		{ts["GOOGL"], "Alphabet's net income has grown for ten straight years.", Corrected},
		{ts["NVDA"], "NVIDIA's revenue has grown for 11 straight years.", Corrected},
		{ts["NVDA"], "NVIDIA's revenue has grown for a decade straight.", Corrected},
		{ts["NVDA"], "NVIDIA has posted ten straight years of revenue growth.", Corrected},
		{ts["AAPL"], "Apple's revenue has grown for more than ten consecutive years.", Corrected},
		{ts["AAPL"], "Apple has posted five consecutive years of revenue growth.", Corrected},
		{ts["AAPL"], "Apple has delivered three consecutive years of net income declines.", Corrected},
		{ts["AAPL"], "Apple's R&D spending has increased every year for the last decade.", Verified},
		// The dividend a share is held for the last five years only (a
		// split restates it): a longer streak is unverified.
		{ts["AAPL"], "Apple has delivered a decade of dividend increases.", Unverified},
		{ts["AAPL"], "Apple has delivered ten straight annual dividend hikes.", Unverified},
		{ts["NVDA"], "NVIDIA has been profitable for 12 consecutive years.", Unverified},
		{ts["GOOGL"], "Alphabet has been profitable for ten straight years.", Verified},
	})
	checkStatuses(t, []statusCase{
		// No streak: growth over a decade, a count of quarters, a streak
		// that ended.
		{ts["AAPL"], "Apple's revenue grew for a decade.", nil},
		{ts["GOOGL"], "Alphabet's streak of 12 years of revenue growth ended in 2009.", nil},
		{ts["GOOGL"], "Alphabet has not grown revenue for 12 consecutive years.", nil},
	})
}
