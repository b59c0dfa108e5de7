package factcheck

import (
	"strings"
	"testing"
)

// TestGaps2: five gaps probed with sentences written before each was fixed
// (testdata/gaps2.tsv). Beyond the labels, a sentence whose cause is
// "market" is market data and any other unchecked one is unverified, not
// market data: a filing line named with the word "stock" (stock-based
// compensation) is no price.
func TestGaps2(t *testing.T) {
	n := checkLabelled(t, "gaps2.tsv", t.Logf)
	t.Logf("gaps2: %d right, %d wrong, %d unchecked sentences", n["ok"], n["wrong"], n["unchecked"])
	ts := tables(t)
	for _, s := range loadShapes(t, "gaps2.tsv") {
		if s.label != "unchecked" {
			continue
		}
		tb := ts[s.ticker]
		if strings.HasSuffix(s.ticker, ".json") {
			tb = syntheticTable(t, s.ticker)
		}
		for _, f := range tb.Check(s.text) {
			if (f.Status == MarketData) != (s.cause == "market") {
				t.Errorf("%s %q: %s; want market data only for a market figure", s.ticker, s.text, describe([]Finding{f}))
			}
		}
	}
	// A return to profit denied, or "positive" of no line, states no change
	// of sign: no finding.
	for _, text := range []string{
		"The Other Bets segment has never returned to profitability since 2021.",
		"Alphabet has not yet returned to profitability in its moonshots.",
		"Investor sentiment turned positive in 2025.",
		"Margins swung back to profit growth in 2025.",
	} {
		if fs := ts["GOOGL"].Check(text); len(fs) != 0 {
			t.Errorf("%q → %s; want no finding", text, describe(fs))
		}
	}
}
