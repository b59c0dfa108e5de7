package analysis

import (
	"math"
	"regexp"
	"strings"
)

// MarketCheck is the check of one market figure an agent cited (a multiple,
// a market value, a price) against the valuation recorded for the debate.
type MarketCheck struct {
	// Figure is the recorded figure the cited one was read as.
	Figure ValueFigure
	// Match reports whether the cited value agrees with it, to the
	// precision it was written with (and within 1%).
	Match bool
}

// marketCues map the words of a sentence to the valuation figure it cites,
// most specific first.
var marketCues = []struct {
	re   *regexp.Regexp
	name []string // figure names, first found wins
}{
	{regexp.MustCompile(`(?i)\bev\s*/\s*ebit\b|enterprise value to ebit`), []string{"ev_ebit_ttm"}},
	{regexp.MustCompile(`(?i)\bfcf yield|free cash flow yield`), []string{"fcf_yield_ttm"}},
	{regexp.MustCompile(`(?i)\bp\s*/\s*e\b|\bpe ratio|price[ -]to[ -]earnings|price/earnings|earnings multiple`), []string{"pe_ttm"}},
	{regexp.MustCompile(`(?i)\bp\s*/\s*s\b|price[ -]to[ -]sales|price/sales`), []string{"ps_ttm"}},
	{regexp.MustCompile(`(?i)enterprise value|\bev\b`), []string{"enterprise_value"}},
	{regexp.MustCompile(`(?i)market cap|market value|public float`), []string{"market_cap", "market_value"}},
}

var priceCue = regexp.MustCompile(`(?i)share price|stock price|closed at|trades? at \$|priced at`)

// CheckMarket reads which recorded valuation figure a market figure in
// sentence cites and compares the value. value is in the figure's unit as
// written: a multiple (25.1 for "25.1x"), a percentage (3.0 for "3.0%") or
// dollars; step is the value of one unit of its last digit (0.1 for "25.1x"),
// 0 when unknown. ok is false when the sentence names no recorded figure, or
// the figure is not in figs; a price is checked against price when given.
func CheckMarket(figs []ValueFigure, price *Price, sentence string, value, step float64) (MarketCheck, bool) {
	for _, cue := range marketCues {
		if !cue.re.MatchString(sentence) {
			continue
		}
		for _, name := range cue.name {
			for _, f := range figs {
				if f.Name != name {
					continue
				}
				want := f.Value
				if f.Unit == "ratio" {
					want *= 100 // a yield is written as a percentage
				}
				return MarketCheck{Figure: f, Match: agrees(value, want, step)}, true
			}
		}
		return MarketCheck{}, false
	}
	if price != nil && priceCue.MatchString(sentence) {
		f := ValueFigure{Name: "price", Label: "Share price (" + price.Symbol + ")", Value: price.Value, Unit: strings.ToUpper(cmpOr(price.Currency, "USD")),
			Date: price.Date, Source: price.Source}
		return MarketCheck{Figure: f, Match: agrees(value, price.Value, step)}, true
	}
	return MarketCheck{}, false
}

// agrees compares a cited value with the recorded one: within half a unit of
// the cited value's last digit, or 1% when that is looser (a market cap of
// "$4 trillion" for $3.995T).
func agrees(cited, actual, step float64) bool {
	tol := math.Max(step/2, math.Abs(actual)*0.01)
	return math.Abs(cited-actual) <= tol+1e-9
}
