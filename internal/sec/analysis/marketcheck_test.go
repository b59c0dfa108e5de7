package analysis

import "testing"

func TestCheckMarket(t *testing.T) {
	v, err := Value(companyFacts(t, "NVDA"), nil) // public float basis: P/E 25.1x, FCF yield 3.0%
	if err != nil {
		t.Fatal(err)
	}
	price := &Price{Symbol: "NVDA", Value: 160.4, Date: "2026-07-07", Source: "Yahoo Finance chart API"}
	for _, tc := range []struct {
		sentence    string
		value, step float64
		name        string
		match, ok   bool
	}{
		{"The stock trades at a P/E (TTM) of 25.1x on the public float", 25.1, 0.1, "pe_ttm", true, true},
		{"a price-to-earnings multiple of 40x", 40, 1, "pe_ttm", false, true},
		{"FCF yield of 3.0% is thin", 3.0, 0.1, "fcf_yield_ttm", true, true},
		{"EV/EBIT of 24.6x", 24.6, 0.1, "ev_ebit_ttm", true, true},
		{"a market value of $4 trillion", 4e12, 1e12, "market_value", true, true},
		{"the share price closed at $160.40", 160.4, 0.01, "price", true, true},
		{"revenue of $215.9 billion", 215.9e9, 0.1e9, "", false, false},
	} {
		got, ok := CheckMarket(v.Figures, price, tc.sentence, tc.value, tc.step)
		if ok != tc.ok || ok && (got.Figure.Name != tc.name || got.Match != tc.match) {
			t.Errorf("%q: %+v %v, want %s match=%v ok=%v", tc.sentence, got, ok, tc.name, tc.match, tc.ok)
		}
		if ok && (got.Figure.Source == "" || got.Figure.Date == "") {
			t.Errorf("%q: figure without source or date: %+v", tc.sentence, got.Figure)
		}
	}
}
