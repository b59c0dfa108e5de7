package analysis

import (
	"strings"
	"testing"
)

func TestCheckMarket(t *testing.T) {
	v, err := Value(companyFacts(t, "NVDA"), nil) // public float basis: P/E 25.1x, FCF yield 3.0%
	if err != nil {
		t.Fatal(err)
	}
	price := &Price{Symbol: "NVDA", Value: 160.4, Date: "2026-07-07", Source: "Yahoo Finance chart API"}
	for _, tc := range []struct {
		sentence, figure string // the figure as written in the sentence
		value, step      float64
		unit             string
		name             string
		match, ok        bool
	}{
		{"The stock trades at a P/E (TTM) of 25.1x on the public float", "25.1x", 25.1, 0.1, UnitTimes, "pe_ttm", true, true},
		{"a price-to-earnings multiple of 40x", "40x", 40, 1, UnitTimes, "pe_ttm", false, true},
		{"it trades at 25x earnings", "25x", 25, 1, UnitTimes, "pe_ttm", true, true},
		{"FCF yield of 3.0% is thin", "3.0%", 3.0, 0.1, UnitPercent, "fcf_yield_ttm", true, true},
		{"EV/EBIT of 24.6x", "24.6x", 24.6, 0.1, UnitTimes, "ev_ebit_ttm", true, true},
		{"a market value of $4 trillion", "$4 trillion", 4e12, 1e12, UnitUSD, "market_value", true, true},
		{"the share price closed at $160.40", "$160.40", 160.4, 0.01, UnitPerShare, "price", true, true},
		{"the share price closed at $171.00", "$171.00", 171, 0.01, UnitPerShare, "price", false, true},
		// Two figures in one sentence: each is read by the cue nearest it.
		{"P/E of 25.1x and EV/EBIT of 30.0x", "30.0x", 30, 0.1, UnitTimes, "ev_ebit_ttm", false, true},
		{"P/E of 25.1x and EV/EBIT of 30.0x", "25.1x", 25.1, 0.1, UnitTimes, "pe_ttm", true, true},
		{"a market value of $4.00T, 15.8x sales", "15.8x", 15.8, 0.1, UnitTimes, "ps_ttm", true, true},
		// Not the recorded figure: another basis, a forecast, a peer group.
		{"a forward P/E of 30x", "30x", 30, 1, UnitTimes, "", false, false},
		{"the sector's average P/E of 20x", "20x", 20, 1, UnitTimes, "", false, false},
		{"revenue of $215.9 billion", "$215.9 billion", 215.9e9, 0.1e9, UnitUSD, "", false, false},
		// A percentage near a multiple's cue is not that multiple.
		{"P/E fell 12%", "12%", 12, 1, UnitPercent, "", false, false},
	} {
		start := strings.Index(tc.sentence, tc.figure)
		if start < 0 {
			t.Fatalf("%q is not in %q", tc.figure, tc.sentence)
		}
		m := MarketMention{Sentence: tc.sentence, Start: start, End: start + len(tc.figure), Value: tc.value, Step: tc.step, Unit: tc.unit}
		got, ok := CheckMarket(v.Figures, price, m)
		if ok != tc.ok || ok && (got.Figure.Name != tc.name || got.Match != tc.match) {
			t.Errorf("%q in %q: %+v %v, want %s match=%v ok=%v", tc.figure, tc.sentence, got, ok, tc.name, tc.match, tc.ok)
		}
		if ok && (got.Figure.Source == "" || got.Figure.Date == "" || got.Figure.Display == "") {
			t.Errorf("%q: figure without source, date or display: %+v", tc.sentence, got.Figure)
		}
	}
	// A bound agrees with any value on its side; "about" widens to 3%.
	for _, tc := range []struct {
		sentence, figure string
		value, step      float64
		approx           bool
		bound            int
		match            bool
	}{
		{"a P/E above 20x", "20x", 20, 1, false, 1, true},
		{"a P/E below 20x", "20x", 20, 1, false, -1, false},
		{"a P/E of about 24.5x", "24.5x", 24.5, 0.1, true, 0, true},
		{"a P/E of 24.5x", "24.5x", 24.5, 0.1, false, 0, false},
	} {
		start := strings.Index(tc.sentence, tc.figure)
		m := MarketMention{Sentence: tc.sentence, Start: start, End: start + len(tc.figure), Value: tc.value, Step: tc.step,
			Unit: UnitTimes, Approx: tc.approx, Bound: tc.bound}
		if got, ok := CheckMarket(v.Figures, nil, m); !ok || got.Figure.Name != "pe_ttm" || got.Match != tc.match {
			t.Errorf("%q: %+v %v, want pe_ttm match=%v", tc.sentence, got, ok, tc.match)
		}
	}
	// Without a recorded price, a price is not checked.
	m := MarketMention{Sentence: "the share price closed at $160.40", Start: 26, End: 33, Value: 160.4, Step: 0.01, Unit: UnitPerShare}
	if got, ok := CheckMarket(v.Figures, nil, m); ok {
		t.Errorf("a price was checked with no price recorded: %+v", got)
	}
}

// TestMarketMultipleRounding: a multiple is held to the precision it is
// written with, half a unit of its last digit (or 1% when looser): "a P/E
// of 35" is a P/E of 35.4 rounded, not of 35.6 or 38, and "35.0x" is not
// 35.4.
func TestMarketMultipleRounding(t *testing.T) {
	for _, tc := range []struct {
		sentence, figure string
		value, step      float64
		actual           float64
		match            bool
	}{
		{"a P/E of 35", "35", 35, 1, 35.4, true},
		{"a P/E of 35x", "35x", 35, 1, 35.4, true},
		{"a P/E of 35x", "35x", 35, 1, 38, false},
		{"a P/E of 35", "35", 35, 1, 35.6, false},
		{"a P/E of 35.0x", "35.0x", 35, 0.1, 35.4, false},
		{"a P/E of 35.4x", "35.4x", 35.4, 0.1, 35.43, true},
		{"a P/E of 250x", "250x", 250, 1, 252, true}, // 1% of 252
	} {
		figs := []ValueFigure{{Name: "pe_ttm", Label: "P/E (TTM)", Value: tc.actual, Unit: "times", Display: "x", Date: "2026-07-07", Source: "test"}}
		start := strings.Index(tc.sentence, tc.figure)
		m := MarketMention{Sentence: tc.sentence, Start: start, End: start + len(tc.figure), Value: tc.value, Step: tc.step, Unit: UnitTimes}
		got, ok := CheckMarket(figs, nil, m)
		if !ok || got.Match != tc.match {
			t.Errorf("%q against %v: match=%v ok=%v, want match=%v", tc.sentence, tc.actual, got.Match, ok, tc.match)
		}
	}
}
