package factcheck

import "testing"

// TestParentheticalChanges: a change in parentheses right after an amount
// ("revenue $416.2B (+6%), diluted EPS $7.46 (+23%)", as analysts' notes
// write them) is the growth of that amount's line: read by the nearest
// name after it, Apple's right revenue growth was corrected as its EPS's.
// A rate in parentheses that names its own line keeps it.
func TestParentheticalChanges(t *testing.T) {
	ts := tables(t)
	checkStatuses(t, []statusCase{
		{ts["AAPL"], "Apple FY25: revenue $416.2B (+6%), diluted EPS $7.46 (+23%).", []Status{Verified, Verified, Verified, Verified}},
		{ts["AAPL"], "Apple FY25: revenue $416.2B (+9%), diluted EPS $7.46 (+23%).", []Status{Verified, Corrected, Verified, Verified}},
		{ts["GOOGL"], "Alphabet 2025: revenue $402.8B (up 15%), net income $132.2B (up 32%).", []Status{Verified, Verified, Verified, Verified}},
		{ts["GOOGL"], "Alphabet 2025: revenue $402.8B (up 32%), net income $132.2B (up 15%).", []Status{Verified, Corrected, Verified, Corrected}},
		{ts["NVDA"], "NVIDIA fiscal 2026: revenue $215.9B (71.1% gross margin), net income $120.1B.", []Status{Verified, Verified, Verified}},
	})
}
