package factcheck

import "testing"

// TestYearCountedBackFromLastYear: "the year before" after "last year"
// counts back from it. "Last year" that opens the sentence is the latest
// fiscal year, as alone; after a figure of the latest it is the year
// before, and "the year before" then the year before that. Each relative
// year was counted from the latest alone, and a right figure corrected.
// Alphabet's diluted EPS: $10.81 in 2025, $8.04 in 2024, $5.80 in 2023;
// NVIDIA's revenue $215.9B in fiscal 2026, $130.5B in 2025, $60.9B in 2024.
func TestYearCountedBackFromLastYear(t *testing.T) {
	ts := tables(t)
	checkStatuses(t, []statusCase{
		{ts["GOOGL"], "Last year's EPS of $10.81 was up 34% from $8.04 the year before.", []Status{Verified, Verified, Verified}},
		{ts["GOOGL"], "Last year's EPS of $8.04 was up 39% from $5.80 the year before.", []Status{Corrected, Corrected, Corrected}},
		{ts["NVDA"], "Revenue last year was $215.9 billion, up from $130.5 billion the year before.", []Status{Verified, Verified}},
		{ts["GOOGL"], "EPS was $10.81, compared with $8.04 last year and $5.80 the year before.", []Status{Verified, Verified, Verified}},
		{ts["GOOGL"], "EPS was $10.81, compared with $8.04 last year and $8.04 the year before.", []Status{Verified, Verified, Corrected}},
	})
}
