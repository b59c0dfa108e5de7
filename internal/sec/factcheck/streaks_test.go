package factcheck

import "testing"

// TestLongStreaks: a streak of ten years or more ("for 12 consecutive
// years", "a decade of dividend increases", "ten years in a row", "every
// year for the past decade") is held as a shorter one is: corrected when
// a year the filings hold moved the other way, verified when they hold
// every year counted, unverified when they stop short. Only counts to
// nine were read, in digits or words; a longer streak, right or wrong,
// gave no finding at all; then only ten years back were held, and the
// dividend a share five. By the companyfacts JSON: Alphabet's revenue
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
		// The whole history of the companyfacts is read: Alphabet's
		// reaches back to 2013, so twelve years of growth (2014-2025)
		// are held to it, thirteen are not.
		{ts["GOOGL"], "Alphabet's revenue has grown for 12 consecutive years.", Verified},
		{ts["GOOGL"], "Alphabet has posted 12 consecutive years of revenue growth.", Verified},
		{ts["GOOGL"], "Alphabet's revenue has grown for 13 consecutive years.", Unverified},
		{ts["AAPL"], "Apple's revenue has grown every year since 2009.", Corrected},
		{ts["GOOGL"], "Alphabet's net income has grown for ten straight years.", Corrected},
		{ts["NVDA"], "NVIDIA's revenue has grown for 11 straight years.", Corrected},
		{ts["NVDA"], "NVIDIA's revenue has grown for a decade straight.", Corrected},
		{ts["NVDA"], "NVIDIA has posted ten straight years of revenue growth.", Corrected},
		{ts["AAPL"], "Apple's revenue has grown for more than ten consecutive years.", Corrected},
		{ts["AAPL"], "Apple has posted five consecutive years of revenue growth.", Corrected},
		{ts["AAPL"], "Apple has delivered three consecutive years of net income declines.", Corrected},
		{ts["AAPL"], "Apple's R&D spending has increased every year for the last decade.", Verified},
		// The dividend a share's growth in each year is read from one
		// report's two years, which a split restates alike: Apple's rose
		// in every fiscal year from 2013 to 2025 (from nothing in 2011);
		// NVIDIA's was flat in fiscal 2021 to 2024.
		{ts["AAPL"], "Apple has delivered a decade of dividend increases.", Verified},
		{ts["AAPL"], "Apple has delivered ten straight annual dividend hikes.", Verified},
		{ts["AAPL"], "Apple has raised its dividend for 12 straight years.", Verified},
		{ts["AAPL"], "Apple has raised its dividend every year since 2013.", Verified},
		{ts["AAPL"], "Apple has raised its dividend for 15 straight years.", Unverified},
		{ts["NVDA"], "NVIDIA has raised its dividend for 12 straight years.", Corrected},
		// NVIDIA made a loss in fiscal 2010 and profits since.
		{ts["NVDA"], "NVIDIA has been profitable for 12 consecutive years.", Verified},
		{ts["NVDA"], "NVIDIA has been profitable for 16 consecutive years.", Verified},
		{ts["NVDA"], "NVIDIA has been profitable for 17 consecutive years.", Corrected},
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

// TestCashReturnStreaks: buybacks or dividends stated of every year of a
// span ("has bought back stock every year since 2013", "has paid
// dividends for 13 straight years") are held to the cash paid in each
// year to the latest; unread, they passed, right or wrong. By the
// companyfacts JSON: Apple repurchased none in fiscal 2012 and some in
// every year since; Alphabet none in 2013-2014, and paid its first
// dividend in 2024; NVIDIA repurchased none in fiscal 2020-2022 and paid
// dividends in every year from fiscal 2013.
func TestCashReturnStreaks(t *testing.T) {
	ts := tables(t)
	checkOne(t, []oneCase{
		{ts["AAPL"], "Apple has repurchased shares every year since 2013.", Verified},
		{ts["AAPL"], "Apple has repurchased shares every year since 2012.", Corrected},
		{ts["AAPL"], "Apple has bought back stock for 13 consecutive years.", Verified},
		{ts["GOOGL"], "Alphabet has bought back stock every year since 2015.", Verified},
		{ts["GOOGL"], "Alphabet has bought back stock every year since 2013.", Corrected},
		{ts["GOOGL"], "Alphabet has paid a dividend every year since 2020.", Corrected},
		{ts["NVDA"], "NVIDIA has bought back stock every year since fiscal 2013.", Corrected},
		{ts["NVDA"], "NVIDIA has bought back stock every year since fiscal 2023.", Verified},
		{ts["NVDA"], "NVIDIA has paid dividends for 13 straight years.", Verified},
		{ts["NVDA"], "NVIDIA has paid dividends in each of the last ten years.", Verified},
	})
	checkStatuses(t, []statusCase{
		{ts["NVDA"], "NVIDIA has not bought back stock every year since fiscal 2013.", nil},
	})
}
