package factcheck

import (
	"strings"
	"testing"
)

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

// TestCorrectionReasons: a wrong figure that is a related line's of the
// period (year-end equity's return stated as the average's, cash and
// securities stated as net cash) or a figure of the same fiscal year (the
// year's margin called its fourth quarter's) is said to be that, not a
// figure of some year long before that happens to match.
func TestCorrectionReasons(t *testing.T) {
	ts := tables(t)
	for _, tc := range []struct {
		tb         *Table
		text, want string
	}{
		{ts["NVDA"], "NVIDIA's return on average equity was 76% in fiscal 2026.", "the filing's return on equity, not its return on average equity"},
		{ts["GOOGL"], "Alphabet ended 2025 with net cash of roughly $127 billion.", "the filing's cash and short-term investments, not its net cash"},
		{ts["NVDA"], "NVIDIA's Q4 FY26 gross margin was 71%.", "it is FY2026's, not Q4 FY2026's"},
		{ts["AAPL"], "Apple's revenue was in the $420-430 billion range in fiscal 2025.", "the figure does not match the filing"},
		{ts["AAPL"], "Apple's revenue was in the $41.0-42.0 billion range in fiscal 2025.", "the scale is wrong"},
	} {
		fs := tc.tb.Check(tc.text)
		if len(fs) != 1 || fs[0].Status != Corrected || !strings.Contains(fs[0].Reason, tc.want) {
			t.Errorf("%q → %s, want corrected: %s", tc.text, describe(fs), tc.want)
		}
	}
}

// TestTotalsOverYears: a flow's amount stated over a span of years is its
// total over them (Apple's buybacks $77.6B + $94.9B + $90.7B = $263.2B over
// fiscal 2023-2025; Alphabet's free cash flow $69.5B + $72.8B + $73.3B =
// $215.5B over 2023-2025), the first year counted or not; it was held to
// the span's first year and a right total corrected. A level a line moved
// from or to over a span stays a level; a noun of change before an amount
// ("an increase of $1.38") makes it a change, as "rose $1.38" does.
func TestTotalsOverYears(t *testing.T) {
	ts := tables(t)
	checkStatuses(t, []statusCase{
		{ts["AAPL"], "Apple spent about $263 billion on buybacks over fiscal 2023 through fiscal 2025.", []Status{Verified}},
		{ts["AAPL"], "Apple spent about $300 billion on buybacks over fiscal 2023 through fiscal 2025.", []Status{Corrected}},
		{ts["GOOGL"], "Alphabet generated about $215 billion of free cash flow in total over 2023-2025.", []Status{Verified}},
		{ts["GOOGL"], "Alphabet generated about $215 billion of free cash flow over the past three years.", []Status{Verified}},
		{ts["GOOGL"], "Alphabet generated about $245 billion of free cash flow over the past three years.", []Status{Corrected}},
		{ts["GOOGL"], "Over 2023-2025 Alphabet's revenue grew from $307.4 billion to $402.8 billion.", []Status{Verified, Verified}},
		{ts["AAPL"], "Apple's diluted EPS was $7.46 in fiscal 2025, an increase of $1.38.", []Status{Verified, Verified}},
		{ts["AAPL"], "Apple's diluted EPS was $7.46 in fiscal 2025, an increase of $1.83.", []Status{Verified, Corrected}},
	})
}

// TestDirectionAdverbsAndShares: a move with an adverb of degree between
// its verb and its year ("fell slightly in 2025") and the share count's
// move are read as other moves with no figure are; each gave no finding,
// right or wrong (Alphabet's free cash flow rose 0.7% in 2025; NVIDIA's
// shares outstanding fell from 24.477B to 24.304B in fiscal 2026).
func TestDirectionAdverbsAndShares(t *testing.T) {
	ts := tables(t)
	checkOne(t, []oneCase{
		{ts["GOOGL"], "Alphabet's free cash flow fell slightly in 2025 despite higher operating cash flow.", Corrected},
		{ts["GOOGL"], "Alphabet's free cash flow rose slightly in 2025.", Verified},
		{ts["GOOGL"], "Alphabet's revenue rose sharply in 2025.", Verified},
		{ts["NVDA"], "NVIDIA's share count fell in fiscal 2026.", Verified},
		{ts["NVDA"], "NVIDIA's shares outstanding rose in fiscal 2026.", Corrected},
	})
}

// TestLastYearAndQuarterGrowth: "last year" standing alone as the period
// of a sentence's only figure of its line is the latest fiscal year (the
// last completed), while beside a figure of the latest it is the year
// before; a growth after a quarter's amount of its line is that quarter's.
// Alphabet's 2025 revenue $402.8B and 2024's $350.0B; NVIDIA's October
// 2025 quarter (Q3 FY2026) $57.0B, +62.5%.
func TestLastYearAndQuarterGrowth(t *testing.T) {
	ts := tables(t)
	checkStatuses(t, []statusCase{
		{ts["GOOGL"], "Alphabet's revenue last year was $402.8 billion.", []Status{Verified}},
		{ts["GOOGL"], "Alphabet's revenue last year was $350.0 billion.", []Status{Corrected}},
		{ts["GOOGL"], "Alphabet's diluted EPS was $10.81, up from $8.04 last year.", []Status{Verified, Verified}},
		{ts["GOOGL"], "Alphabet's revenue was $402.8 billion in 2025, compared with $350.0 billion last year.", []Status{Verified, Verified}},
		{ts["NVDA"], "NVIDIA's October-quarter 2025 revenue of $57.0 billion rose 62% year over year.", []Status{Verified, Verified}},
		{ts["NVDA"], "NVIDIA's October-quarter 2025 revenue of $57.0 billion rose 72% year over year.", []Status{Verified, Corrected}},
	})
}
