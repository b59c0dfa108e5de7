package factcheck

import (
	"fmt"
	"strings"
	"testing"
)

// splitFiler is a calendar-year filer with a split of ratio (4 for a
// 4-for-1, 0.1 for a 1-for-10 reverse split) in mid-2024, as its 10-Ks
// state it: the fiscal 2023 10-K (filed 2024-02-20) states fiscal 2021-2023
// before it, the fiscal 2024 and 2025 10-Ks restate the years they cover
// after it. eps are fiscal 2021-2025's EPS (and, times a tenth, dividends
// a share) after the split; shares the diluted and outstanding count after
// it.
func splitFiler(t *testing.T, ratio float64, eps [5]float64, shares float64) *Table {
	t.Helper()
	return cfTable(t, "SYNTHETIC SPLIT CO", splitFacts(ratio, eps, shares))
}

// splitFacts are splitFiler's facts.
func splitFacts(ratio float64, eps [5]float64, shares float64) []xf {
	var fs []xf
	for k, filed := range map[int]string{2023: "2024-02-20", 2024: "2025-02-20", 2025: "2026-02-20"} {
		accn := fmt.Sprintf("0009000091-%d-000001", k%100+1)
		adj := 1.0
		if k == 2023 {
			adj = ratio // before the split: a share earns ratio times more
		}
		for y := k - 2; y <= k; y++ {
			i := y - 2021
			start, end := fmt.Sprintf("%d-01-01", y), fmt.Sprintf("%d-12-31", y)
			ni := eps[i] * shares
			fs = append(fs,
				xf{tag: "Revenues", unit: "USD", start: start, end: end, val: 10e9 + float64(i)*1e9, form: "10-K", filed: filed, accn: accn},
				xf{tag: "NetIncomeLoss", unit: "USD", start: start, end: end, val: ni, form: "10-K", filed: filed, accn: accn},
				xf{tag: "EarningsPerShareDiluted", unit: "USD/shares", start: start, end: end, val: eps[i] * adj, form: "10-K", filed: filed, accn: accn},
				xf{tag: "CommonStockDividendsPerShareDeclared", unit: "USD/shares", start: start, end: end, val: 0.1 * (float64(i) + 1) * adj, form: "10-K", filed: filed, accn: accn},
				xf{tag: "WeightedAverageNumberOfDilutedSharesOutstanding", unit: "shares", start: start, end: end, val: shares / adj, form: "10-K", filed: filed, accn: accn})
			if y >= k-1 {
				fs = append(fs, xf{tag: "CommonStockSharesOutstanding", unit: "shares", end: end, val: shares / adj, form: "10-K", filed: filed, accn: accn})
			}
		}
	}
	return fs
}

// ifrsFacts are facts of us-gaap tags under the IFRS ones that stand for
// them, in euros: a 20-F filer's.
func ifrsFacts(fs []xf) []xf {
	tags := map[string]string{"Revenues": "Revenue", "NetIncomeLoss": "ProfitLossAttributableToOwnersOfParent",
		"EarningsPerShareDiluted": "DilutedEarningsLossPerShare", "CommonStockDividendsPerShareDeclared": "DividendsRecognisedAsDistributionsToOwnersPerShare",
		"WeightedAverageNumberOfDilutedSharesOutstanding": "AdjustedWeightedAverageShares", "CommonStockSharesOutstanding": "NumberOfSharesOutstanding"}
	out := make([]xf, 0, len(fs))
	for _, f := range fs {
		f.tax, f.tag, f.form = "ifrs-full", tags[f.tag], "20-F"
		f.unit = strings.ReplaceAll(f.unit, "USD", "EUR")
		out = append(out, f)
	}
	return out
}

// TestStockSplits: a per-share figure or a share count stated only before
// a split (fiscal 2021's, which no later 10-K restates) is held as the
// later years are, after it: split-adjusted, as a debater states a
// history. Stated as the 10-K did before the split, fiscal 2021's EPS of
// $8.00 beside 2022's $2.50 made EPS fall 69% in 2022; its right $2.00
// was corrected, and so were the dividend, the share counts and the
// growth. A reverse split (1-for-10) alike, on losses.
func TestStockSplits(t *testing.T) {
	fwd := splitFiler(t, 4, [5]float64{2.00, 2.50, 3.00, 3.50, 4.00}, 1000e6)
	rev := splitFiler(t, 0.1, [5]float64{-5.00, -4.00, -3.00, -2.50, -2.00}, 100e6)
	eur := cfTable(t, "SYNTHETIC SPLIT NV", ifrsFacts(splitFacts(4, [5]float64{2.00, 2.50, 3.00, 3.50, 4.00}, 1000e6)))
	for _, tc := range []struct {
		tb     *Table
		text   string
		want   Status
		reason string
	}{
		{fwd, "Diluted EPS was $2.00 in 2021.", Verified, ""},
		{fwd, "Diluted EPS was $8.00 in 2021.", Corrected, "as filed before a stock split; restated for the split"},
		{fwd, "Diluted EPS grew 25% in 2022.", Verified, ""},
		{fwd, "Diluted EPS fell 69% in 2022.", Corrected, ""},
		{fwd, "Dividends per share were $0.10 in 2021.", Verified, ""},
		{fwd, "Dividends per share were $0.40 in 2021.", Corrected, ""},
		{fwd, "Dividends per share rose 100% in 2022.", Verified, ""},
		{fwd, "Weighted average diluted shares were 1.0 billion in 2021.", Verified, ""},
		{fwd, "Shares outstanding were 1.0 billion at the end of 2022.", Verified, ""},
		{fwd, "Shares outstanding were 250 million at the end of 2022.", Corrected, "before a stock split"},
		{fwd, "Diluted EPS was $4.00 in 2025.", Verified, ""},
		{eur, "Diluted EPS was €2.00 in 2021.", Verified, ""},
		{eur, "Diluted EPS was €8.00 in 2021.", Corrected, ""},
		{eur, "Diluted EPS grew 25% in 2022.", Verified, ""},
		{rev, "The loss per share was $5.00 in 2021.", Verified, ""},
		{rev, "The loss per share was $0.50 in 2021.", Corrected, ""},
		{rev, "Weighted average diluted shares were 100 million in 2021.", Verified, ""},
		// NVIDIA's 10-for-1 split of June 2024: fiscal 2022's EPS was
		// last stated, before it, as $3.85, and its fall in fiscal 2023
		// (to $1.74 before the split, $0.17 after) read as 96%.
		{tables(t)["NVDA"], "NVIDIA's diluted EPS was $0.39 in fiscal 2022.", Verified, ""},
		{tables(t)["NVDA"], "NVIDIA's diluted EPS was $3.85 in fiscal 2022.", Corrected, "before a stock split"},
		{tables(t)["NVDA"], "NVIDIA's diluted EPS fell 55% in fiscal 2023.", Verified, ""},
		{tables(t)["NVDA"], "NVIDIA's diluted EPS fell 96% in fiscal 2023.", Corrected, ""},
	} {
		fs := tc.tb.Check(tc.text)
		if len(fs) != 1 || fs[0].Status != tc.want || !strings.Contains(fs[0].Reason, tc.reason) {
			t.Errorf("%q → %s, want one %s (%q)", tc.text, describe(fs), tc.want, tc.reason)
		}
	}
	f, _ := fwd.Lookup(EPSDiluted, Period{FY: 2021})
	if !strings.Contains(f.Source, "restated for the 4-for-1 split") {
		t.Errorf("fiscal 2021's EPS cites %q, want the split it is restated for", f.Source)
	}
}
