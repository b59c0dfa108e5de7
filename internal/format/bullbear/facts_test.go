package bullbear_test

import (
	"math"
	"strings"
	"testing"

	"github.com/parleyhq/parley/internal/format/bullbear"
)

func TestCitedAttributesNumbersToFigures(t *testing.T) {
	cases := []struct {
		text   string
		figure string
		value  float64
	}{
		{"Revenue grew 40% (10-K 2024)", "revenue_growth", 40},
		{"Revenue of $215.9B in FY2026", "revenue", 215.9e9},
		{"revenue reached $215,938M", "revenue", 215_938e6},
		{"Net income was $120.1 billion", "net_income", 120.1e9},
		{"Gross margin of 71.1% shows pricing power", "gross_margin", 71.1},
		{"a gross-margin of 71%", "gross_margin", 71},
		{"Debt-to-equity of 0.05x", "debt_to_equity", 0.05},
		{"The current ratio stands at 3.9x.", "current_ratio", 3.9},
		{"Free cash flow margin of 44.8%", "fcf_margin", 44.8},
		{"free cash flow of $96.7B", "free_cash_flow", 96.7e9},
	}
	for _, c := range cases {
		got := bullbear.Cited(c.text)
		if len(got) != 1 || got[0].Figure != c.figure || math.Abs(got[0].Value-c.value) > 1e-6*math.Abs(c.value) {
			t.Errorf("Cited(%q) = %+v, want %s = %v", c.text, got, c.figure, c.value)
		}
	}
	// Numbers that measure something else are not attributed.
	for _, text := range []string{
		"Top 5 hyperscalers = 40% of revenue",
		"Revenue concentration: the top customer is 12%",
		"Data center revenue share of 88%",
		"Valuation at 70x P/E",
		"Operating margin change of -2.0 pts",
		"Revenue grew 65% to $215.9B",        // $215.9B follows another number
		"Q4 revenue rose 12% sequentially",   // a quarter, not the year
		"70% of the evidence weight favours", // no figure named
	} {
		for _, c := range bullbear.Cited(text) {
			if !(text == "Revenue grew 65% to $215.9B" && c.Figure == "revenue_growth") {
				t.Errorf("Cited(%q) attributed %+v", text, c)
			}
		}
	}
}

func TestQuotes(t *testing.T) {
	text := "> Gross margin of 71%\n> shows pricing power\n\nThe bull says \"growth cannot last forever here\" and calls it a \"moat\"."
	got := bullbear.Quotes(text)
	want := []string{"Gross margin of 71% shows pricing power", "growth cannot last forever here"}
	if strings.Join(got, "|") != strings.Join(want, "|") {
		t.Errorf("Quotes = %q, want %q", got, want)
	}
	corpus := "- Gross margin of **71%** shows pricing power (10-K FY2026)\n- Growth cannot last forever, here or anywhere."
	if _, err := bullbear.CheckQuotes(text, corpus, "bull"); err != nil {
		t.Errorf("CheckQuotes: %v", err)
	}
	if _, err := bullbear.CheckQuotes(`He said "gross margin … pricing power" again.`, corpus, "bull"); err != nil {
		t.Errorf("an elided quote was refused: %v", err)
	}
	if _, err := bullbear.CheckQuotes(`He said "pricing power shows gross margin" again.`, corpus, "bull"); err == nil {
		t.Error("a reordered quote was accepted")
	}
}
