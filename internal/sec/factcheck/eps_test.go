package factcheck

import (
	"math"
	"strings"
	"testing"
)

// quarterly is a calendar-year filer's 2025 as its filings state it: a
// 10-Q for each of the first three quarters (three months, and the year to
// date), and a 10-K for the year, with 2024 beside it. Net income is ni a
// quarter, the weighted diluted shares sh a quarter (pre the 10-Qs' count
// before a split the 10-K restates by split), each year-to-date count the
// day-weighted average of its quarters', and EPS net income over shares,
// rounded to the cent, as a filer computes them. Net income and dividends
// paid of 2024 are ni2024 and div2024.
func quarterly(t *testing.T, ni, sh [4]float64, split, ni2024, div2024 float64) *Table {
	t.Helper()
	return quarterlyWith(t, ni, sh, split, ni2024, div2024, 0, true)
}

// quarterlyWith is quarterly with preferred dividends of pref a quarter
// (tagged, and taken from net income before EPS, as the two-class method
// does), and with the weighted share counts tagged or not (shares).
func quarterlyWith(t *testing.T, ni, sh [4]float64, split, ni2024, div2024, pref float64, shares bool) *Table {
	t.Helper()
	ends := []string{"2025-03-31", "2025-06-30", "2025-09-30", "2025-12-31"}
	starts := []string{"2025-01-01", "2025-04-01", "2025-07-01", "2025-10-01"}
	days := []float64{90, 91, 92, 92}
	cents := func(v float64) float64 { return math.Round(v*100) / 100 }
	var fs []xf
	add := func(tag, unit, start, end string, v float64, form, filed, accn string) {
		if !shares && strings.HasPrefix(tag, "WeightedAverage") {
			return
		}
		fs = append(fs, xf{tag: tag, unit: unit, start: start, end: end, val: v, form: form, filed: filed, accn: accn})
	}
	for q := range 4 {
		form, filed, accn := "10-Q", []string{"2025-05-01", "2025-08-01", "2025-11-01"}[min(q, 2)], "0009000090-25-00000"+string(rune('1'+q))
		qShares := sh[q]
		if q == 3 {
			form, filed, accn = "10-K", "2026-02-15", "0009000090-26-000001"
		}
		// The year to date, and the quarter alone (a 10-Q's).
		var niYTD, shDays, d float64
		for k := 0; k <= q; k++ {
			niYTD += ni[k]
			s := sh[k]
			if q == 3 {
				s *= split // the 10-K restates every count for the split
			}
			shDays += s * days[k]
			d += days[k]
		}
		shYTD := shDays / d
		add("NetIncomeLoss", "USD", starts[0], ends[q], niYTD, form, filed, accn)
		add("WeightedAverageNumberOfDilutedSharesOutstanding", "shares", starts[0], ends[q], math.Round(shYTD/1e3)*1e3, form, filed, accn)
		add("EarningsPerShareDiluted", "USD/shares", starts[0], ends[q], cents((niYTD-pref*float64(q+1))/shYTD), form, filed, accn)
		if pref > 0 {
			add("PreferredStockDividendsIncomeStatementImpact", "USD", starts[0], ends[q], pref*float64(q+1), form, filed, accn)
		}
		add("Revenues", "USD", starts[0], ends[q], 10*niYTD, form, filed, accn)
		if q > 0 && q < 3 {
			add("NetIncomeLoss", "USD", starts[q], ends[q], ni[q], form, filed, accn)
			add("WeightedAverageNumberOfDilutedSharesOutstanding", "shares", starts[q], ends[q], qShares, form, filed, accn)
			add("EarningsPerShareDiluted", "USD/shares", starts[q], ends[q], cents((ni[q]-pref)/qShares), form, filed, accn)
			add("Revenues", "USD", starts[q], ends[q], 10*ni[q], form, filed, accn)
		}
	}
	k := "0009000090-26-000001"
	add("NetIncomeLoss", "USD", "2024-01-01", "2024-12-31", ni2024, "10-K", "2026-02-15", k)
	add("Revenues", "USD", "2024-01-01", "2024-12-31", 30e9, "10-K", "2026-02-15", k)
	add("PaymentsOfDividends", "USD", "2024-01-01", "2024-12-31", div2024, "10-K", "2026-02-15", k)
	add("PaymentsOfDividends", "USD", "2025-01-01", "2025-12-31", div2024, "10-K", "2026-02-15", k)
	return cfTable(t, "SYNTHETIC BUYBACK CORP", fs)
}

// TestEPSNotAdditive: a quarter's or a TTM's EPS the filings do not state
// is worked out as the filer works it, net income over weighted shares,
// not as the year's EPS less nine months' (or a sum of EPS over shares
// that moved): EPS is not additive. A filer buying back a fifth of its
// shares within the year earns $1.25 a share in a fourth quarter whose
// year's less nine months' is $1.23 ($4.39 - $3.16): $1.25 was held to
// $1.23 with two cents of slack, and $1.21, wrong, was verified. Where a
// split within the year leaves the 10-Qs' counts before it and the 10-K's
// after it, no quarter can be worked out: the fourth's is unverified,
// saying so, where the difference ($4.00 - $30.00) corrected any figure.
func TestEPSNotAdditive(t *testing.T) {
	ni := [4]float64{1e9, 1e9, 1e9, 1e9}
	buyback := quarterly(t, ni, [4]float64{1000e6, 950e6, 900e6, 800e6}, 1, 3e9, 1e9)
	split := quarterly(t, ni, [4]float64{100e6, 100e6, 100e6, 100e6}, 10, 3e9, 1e9)
	// A loss in the fourth quarter: no security dilutes then, so the
	// year's diluted count is no average of the quarters' alike.
	turn := quarterly(t, [4]float64{1e9, 1e9, 1e9, -0.5e9}, [4]float64{1000e6, 1000e6, 1000e6, 1000e6}, 1, 3e9, 1e9)
	for _, tc := range []struct {
		tb     *Table
		text   string
		want   Status
		reason string
	}{
		{buyback, "Diluted EPS was $1.25 in Q4 2025.", Verified, ""},
		{buyback, "Diluted EPS was $1.23 in Q4 2025.", Corrected, ""},
		{buyback, "Diluted EPS was $1.21 in Q4 2025.", Corrected, ""},
		{buyback, "Diluted EPS was $4.39 in 2025.", Verified, ""},
		{buyback, "Diluted EPS was $1.05 in Q2 2025.", Verified, ""},
		// The TTM to the year's end: the four quarters' sum ($4.41) as
		// data services state it, or the year's as the 10-K does.
		{buyback, "TTM diluted EPS was $4.41.", Verified, ""},
		{buyback, "TTM diluted EPS was $4.39.", Verified, ""},
		{buyback, "TTM diluted EPS was $4.30.", Corrected, ""},
		{split, "Diluted EPS was $1.00 in Q4 2025.", Unverified, "a split or a large issuance within the year"},
		{split, "Diluted EPS was $4.00 in 2025.", Verified, ""},
		{turn, "Diluted EPS was -$0.50 in Q4 2025.", Unverified, "changed sign within the year"},
		{split, "TTM diluted EPS was $4.00.", Verified, ""},
	} {
		fs := tc.tb.Check(tc.text)
		if len(fs) != 1 || fs[0].Status != tc.want || !strings.Contains(fs[0].Reason, tc.reason) {
			t.Errorf("%q → %s, want one %s (%q)", tc.text, describe(fs), tc.want, tc.reason)
		}
	}
}

// TestPayoutOfALoss: a payout ratio of a year of losses has no meaning,
// and a figure of it is unverified saying so, where it was "the filings
// give no payout ratio", as though one were missing.
func TestPayoutOfALoss(t *testing.T) {
	loss := quarterly(t, [4]float64{1e9, 1e9, 1e9, 1e9}, [4]float64{1000e6, 1000e6, 1000e6, 1000e6}, 1, -5e8, 1e9)
	for _, tc := range []struct {
		tb     *Table
		text   string
		want   Status
		reason string
	}{
		{loss, "The payout ratio was 25% in 2025.", Verified, ""},
		{loss, "The payout ratio was 35% in 2025.", Corrected, ""},
		{loss, "The payout ratio was 200% in 2024.", Unverified, "not meaningful in FY2024: net income was -$500M (a loss)"},
		{loss, "Dividends were 200% of net income in 2024.", Unverified, "not meaningful"},
		// A filer stating dividends a share only, with a loss a share.
		{syntheticTable(t, "septloss_CIK0009000018.json"), "The dividend payout ratio was 40% in fiscal 2025.", Unverified, "not meaningful in FY2025: diluted EPS was"},
	} {
		fs := tc.tb.Check(tc.text)
		if len(fs) != 1 || fs[0].Status != tc.want || !strings.Contains(fs[0].Reason, tc.reason) {
			t.Errorf("%q → %s, want one %s (%q)", tc.text, describe(fs), tc.want, tc.reason)
		}
	}
}

// TestFourthQuarterEPSOfClassesAndPreferred: a fourth quarter's EPS the
// filings do not state is worked out as net income over weighted shares
// only where the filer's EPS is that for the year to date. Alphabet's
// three classes share its earnings alike, so its EPS is net income over
// all its shares, and its derived fourth quarters are the ones its
// earnings releases state ($1.64, $2.15 and $2.82 for 2023 to 2025). Where
// preferred dividends (or income allocated to another class) stand between
// net income and EPS, the quarter is unverified, saying why, whatever it
// states: net income over shares would be too high by the dividends, and
// the year's EPS less nine months' is not the quarter's when the shares
// moved.
func TestFourthQuarterEPSOfClassesAndPreferred(t *testing.T) {
	googl := tables(t)["GOOGL"]
	ni := [4]float64{1e9, 1e9, 1e9, 1e9}
	sh := [4]float64{1000e6, 950e6, 900e6, 800e6}
	pref := quarterlyWith(t, ni, sh, 1, 3e9, 1e9, 0.1e9, true)
	prefUntagged := quarterlyWith(t, ni, sh, 1, 3e9, 1e9, 0.1e9, false)
	for _, tc := range []struct {
		tb     *Table
		text   string
		want   Status
		reason string
	}{
		{googl, "Alphabet's diluted EPS was $2.82 in Q4 2025.", Verified, ""},
		{googl, "Alphabet's diluted EPS was $2.15 in Q4 2024.", Verified, ""},
		{googl, "Alphabet's diluted EPS was $1.64 in Q4 2023.", Verified, ""},
		{googl, "Alphabet's diluted EPS was $2.87 in Q4 2025.", Corrected, ""},
		{googl, "Alphabet's diluted EPS was $2.50 in Q4 2025.", Corrected, ""},
		// Net income over shares is $1.25 and the year's EPS less nine
		// months' $1.11 ($3.95 - $2.84); the preferred-adjusted quarter is
		// $1.13: none is held to.
		{pref, "Diluted EPS was $1.13 in Q4 2025.", Unverified, "preferred dividends or income allocated to another class"},
		{pref, "Diluted EPS was $1.25 in Q4 2025.", Unverified, "preferred dividends or income allocated to another class"},
		{pref, "Diluted EPS was $3.95 in 2025.", Verified, ""},
		{prefUntagged, "Diluted EPS was $1.25 in Q4 2025.", Unverified, "no weighted shares"},
		{prefUntagged, "Diluted EPS was $1.11 in Q4 2025.", Unverified, "no weighted shares"},
	} {
		fs := tc.tb.Check(tc.text)
		if len(fs) != 1 || fs[0].Status != tc.want || !strings.Contains(fs[0].Reason, tc.reason) {
			t.Errorf("%q → %s, want one %s (%q)", tc.text, describe(fs), tc.want, tc.reason)
		}
	}
}
