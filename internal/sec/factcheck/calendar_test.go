package factcheck

import "testing"

// TestCalendarQuarters: a quarter written with a bare year ("Q4 2023",
// "the fourth quarter of 2023") of a filer whose fiscal year is not the
// calendar year may be its fiscal quarter or the calendar one; a figure
// right in either is verified, wrong in both corrected, and a quarter of
// a year named calendar is the filer's quarter ending with it. By the
// companyfacts JSON: Apple's fiscal Q4 2023 (to 2023-09-30) revenue was
// $89.498B, its Q1 FY2024 (to 2023-12-30) $119.575B; NVIDIA's Q4 FY2024
// (to 2024-01-28) $22.103B. Read as the fiscal quarter alone, Apple's
// right calendar Q4 2023 was corrected, even when "calendar" was written.
func TestCalendarQuarters(t *testing.T) {
	ts := tables(t)
	checkOne(t, []oneCase{
		{ts["AAPL"], "Revenue in Q4 2023 was $89.5 billion.", Verified},
		{ts["AAPL"], "Revenue in Q4 2023 was $119.6 billion.", Verified},
		{ts["AAPL"], "Apple's fourth quarter of 2023 revenue was $119.6 billion.", Verified},
		{ts["AAPL"], "Revenue in Q4 of calendar 2023 was $119.6 billion.", Verified},
		{ts["AAPL"], "Revenue in Q4 of calendar 2023 was $89.5 billion.", Corrected},
		{ts["AAPL"], "Revenue in Q4 2023 was $100 billion.", Corrected},
		// Named fiscal, the quarter is the fiscal one only.
		{ts["AAPL"], "Apple's revenue in fiscal Q4 2023 was $119.6 billion.", Corrected},
		{ts["AAPL"], "Apple's revenue in Q4 FY2023 was $119.6 billion.", Corrected},
		{ts["AAPL"], "Apple's fiscal first-quarter 2026 net income was $36.3 billion.", Corrected},
		// A calendar-year filer's quarters are the calendar's.
		{ts["GOOGL"], "Alphabet's Q4 2025 revenue was $102.3 billion.", Corrected},
		// A year ending late in January: its quarter ending a month after
		// the calendar quarter.
		{ts["NVDA"], "NVIDIA's Q4 2023 revenue was $22.1 billion.", Verified},
		{ts["NVDA"], "NVIDIA's revenue in Q4 of calendar 2023 was $22.1 billion.", Verified},
		// A quarter and its year in one token ("4Q24", "Q1'26") is read
		// as the quarter of a bare year. NVIDIA's Q1 FY2027, to
		// 2026-04-26, $81.615B; its Q1 FY2026 $44.062B.
		{ts["AAPL"], "4Q24 revenue was $124.3 billion.", Verified},
		{ts["AAPL"], "Apple's 4Q24 revenue was $94.9 billion.", Verified},
		{ts["AAPL"], "Apple's 4Q24 revenue was $104.9 billion.", Corrected},
		{ts["NVDA"], "1Q26 revenue was $81.6 billion.", Verified},
		{ts["NVDA"], "Q1'26 revenue was $44.1 billion.", Verified},
		{ts["NVDA"], "1Q26 revenue was $57.0 billion.", Corrected},
		// Wrong in the calendar reading, unknown in the fiscal one (the
		// table holds no Q4 FY2023): unsettled.
		{ts["NVDA"], "NVIDIA's Q4 2023 revenue was $15.0 billion.", Unverified},
	})
	// The year before a quarter read either way is read the same way.
	// A quarter named by its month with its year after it, "of" left
	// out, is one period for every figure of the sentence: the second
	// took the year alone (Apple's Q1 FY2025 EPS $2.40 as FY2024's).
	checkStatuses(t, []statusCase{
		{ts["AAPL"], "Apple's December-quarter 2024 net income was $36.3 billion, or $2.40 per diluted share.", []Status{Verified, Verified}},
		{ts["AAPL"], "Apple's December quarter 2024 revenue was $124.3 billion, up 4% from a year earlier.", []Status{Verified, Verified}},
		{ts["AAPL"], "Apple's Q4 2023 revenue was $119.6 billion, up 2% from $117.2 billion a year earlier.", []Status{Verified, Verified, Verified}},
	})
}

// TestThisYear: "this year" is the latest fiscal year or, when the latest
// filing is a 10-Q of the year after it, that year so far: a figure right
// in either is verified. Each filer's latest filing is such a 10-Q, of the
// year's first quarter (Apple's Q1 FY2026 revenue $143.756B, Alphabet's
// Q1 2026 $109.896B). Read as the latest fiscal year alone, the right
// year-to-date figure was corrected.
func TestThisYear(t *testing.T) {
	ts := tables(t)
	checkOne(t, []oneCase{
		{ts["AAPL"], "This year revenue was $143.8 billion.", Verified},
		{ts["AAPL"], "So far this year revenue is $143.8 billion.", Verified},
		{ts["AAPL"], "Apple earned $112.0 billion this year.", Verified},
		{ts["AAPL"], "This year revenue was $500 billion.", Corrected},
		{ts["GOOGL"], "Revenue this year was $109.9 billion.", Verified},
		{ts["GOOGL"], "Revenue in the current fiscal year was $402.8 billion.", Verified},
		{ts["GOOGL"], "Revenue in the current fiscal year was $350.0 billion.", Corrected},
	})
}

// TestYearsAgo: "two years ago" standing alone is counted from the year
// the latest filing is in (the year after the latest fiscal year), as
// "last year" alone is the latest fiscal year, or from the latest fiscal
// year itself: a figure right in either reading is verified, one wrong in
// both corrected. Counted from the latest year alone, Apple's right
// fiscal 2024 revenue ($391.0B) "two years ago" was corrected. Beside a
// figure of the latest year it counts back from it.
func TestYearsAgo(t *testing.T) {
	ts := tables(t)
	checkOne(t, []oneCase{
		{ts["AAPL"], "Two years ago Apple's revenue was $391.0 billion.", Verified},
		{ts["AAPL"], "Two years ago Apple's revenue was $383.3 billion.", Verified},
		{ts["AAPL"], "Two years ago Apple's revenue was $365.8 billion.", Corrected},
		{ts["AAPL"], "Apple's net income two years ago grew 3%.", Corrected},
		{ts["GOOGL"], "Two years ago Alphabet's revenue was $350.0 billion.", Verified},
	})
	checkStatuses(t, []statusCase{
		{ts["AAPL"], "Revenue was $416.2 billion, up from $383.3 billion two years ago.", []Status{Verified, Verified}},
		{ts["AAPL"], "Revenue was $416.2 billion, up from $391.0 billion two years ago.", []Status{Verified, Corrected}},
	})
}
