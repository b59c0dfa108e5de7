package analysis

import (
	"fmt"
	"math"
	"regexp"
	"strings"
	"sync"
)

// MarketCheck is the check of one market figure an agent cited (a multiple,
// a market value, a price) against the valuation recorded for the debate.
type MarketCheck struct {
	// Figure is the recorded figure the cited one was read as, with its
	// source and date.
	Figure ValueFigure
	// Match reports whether the cited value agrees with it, to the
	// precision it was written with (and within 1%).
	Match bool
}

// Units of a cited market figure, as MarketMention.Unit.
const (
	UnitTimes    = "times"     // a multiple: "25.1x"
	UnitPercent  = "percent"   // a yield: "3.0%"
	UnitUSD      = "USD"       // a market value: "$4 trillion"
	UnitPerShare = "USD/share" // a price: "$160.40"
)

// MarketMention is a market figure as an agent wrote it.
type MarketMention struct {
	// Sentence is the sentence the figure is in; Start and End the byte
	// span of the figure in it.
	Sentence   string
	Start, End int
	// Value is in the unit as written: 25.1 for "25.1x", 3.0 for "3.0%",
	// dollars for a market value or a price. Step is the value of one unit
	// of its last digit (0.1 for "25.1x"), 0 when unknown.
	Value, Step float64
	Unit        string
	// Approx marks "about 25x" (3% either way); Bound +1 "more than",
	// -1 "less than", 0 exact.
	Approx bool
	Bound  int
	// Currency is the ISO code of a market value or a price written in a
	// currency other than the dollar ("EUR" for "€250 billion"); "" for
	// dollars. It is held only to a recorded figure in that currency.
	Currency string
}

// marketCues name the valuation figure a phrase cites, most specific first
// (the first of equally near cues wins: "EV/EBIT" over "EV").
// marketCue is a phrase that names a valuation figure.
type marketCue struct {
	re   *regexp.Regexp
	unit string
	name []string // figure names, the first recorded wins
}

var marketCues = sync.OnceValue(func() []marketCue {
	return []marketCue{
		{regexp.MustCompile(`(?i)\bev\s*/\s*ebit\b|enterprise value to ebit\b`), UnitTimes, []string{"ev_ebit_ttm"}},
		{regexp.MustCompile(`(?i)\bfcf yield|free cash flow yield`), UnitPercent, []string{"fcf_yield_ttm"}},
		{regexp.MustCompile(`(?i)\bp\s*/\s*e\b|\bpe ratio|price[ -]to[ -]earnings|price/earnings|earnings multiple|times earnings|x earnings`), UnitTimes, []string{"pe_ttm"}},
		{regexp.MustCompile(`(?i)\bp\s*/\s*s\b|price[ -]to[ -]sales|price/sales|times sales|x sales`), UnitTimes, []string{"ps_ttm"}},
		{regexp.MustCompile(`(?i)enterprise value|\bev\b`), UnitUSD, []string{"enterprise_value"}},
		{regexp.MustCompile(`(?i)market cap|market value|public float`), UnitUSD, []string{"market_cap", "market_value"}},
		{regexp.MustCompile(`(?i)share price|stock price|closed at|closing price|trades? at|traded at|priced at`), UnitPerShare, []string{"price"}},
	}
})

// maxCueGap is how far (in bytes) a cue may be from the figure it names.
const maxCueGap = 48

// otherBasisRe marks a multiple or value of something other than the
// company's trailing figures at the recorded date: a forecast, a target, a
// peer group, an average. Such a figure is not the recorded one, right or
// wrong.
var otherBasisRe = sync.OnceValue(func() *regexp.Regexp {
	return regexp.MustCompile(`(?i)\b(forward|fwd|ntm|next[ -](?:twelve|12|year)|estimated|estimates?|consensus|targets?|peers?|sector|industry|average|median|historical(?:ly)?|s&p|nasdaq|index|if|would|could)\b`)
})

// CheckMarket reads which recorded valuation figure a market figure cites
// (the nearest cue in its sentence that names a figure of the figure's unit)
// and compares the value. ok is false when no cue names a recorded figure,
// or the figure is of another basis (a forward multiple, a peer average, a
// target); a price is checked against price when given.
func CheckMarket(figs []ValueFigure, price *Price, m MarketMention) (MarketCheck, bool) {
	low := strings.ToLower(m.Sentence)
	best, bestDist := -1, maxCueGap+1
	var bestSpan [2]int
	for i, cue := range marketCues() {
		if cue.unit != m.Unit {
			continue
		}
		for _, loc := range cue.re.FindAllStringIndex(low, -1) {
			if d := gap(loc[0], loc[1], m.Start, m.End); d < bestDist {
				best, bestDist, bestSpan = i, d, [2]int{loc[0], loc[1]}
			}
		}
	}
	if best < 0 {
		return MarketCheck{}, false
	}
	lo, hi := min(bestSpan[0], m.Start), max(bestSpan[1], m.End)
	if otherBasisRe().MatchString(low[max(0, lo-24):min(len(low), hi+16)]) {
		return MarketCheck{}, false
	}
	cue := marketCues()[best]
	if cue.unit == UnitPerShare {
		if price == nil {
			return MarketCheck{}, false
		}
		cur := strings.ToUpper(cmpOr(price.Currency, "USD"))
		if cur != cmpOr(m.Currency, "USD") {
			return MarketCheck{}, false // Parley does not convert currencies
		}
		f := ValueFigure{Name: "price", Label: "Share price (" + price.Symbol + ")", Value: price.Value, Unit: cur,
			Display: priceDisplay(price.Value, cur), Date: price.Date, Source: price.Source + " close " + price.Date}
		return MarketCheck{Figure: f, Match: m.agrees(price.Value)}, true
	}
	for _, name := range cue.name {
		for _, f := range figs {
			if f.Name != name {
				continue
			}
			if cue.unit == UnitUSD && !strings.EqualFold(f.Unit, cmpOr(m.Currency, "USD")) {
				// A market value in euros is not held to one in
				// dollars: Parley does not convert currencies.
				return MarketCheck{}, false
			}
			want := f.Value
			if f.Unit == "ratio" {
				want *= 100 // a yield is written as a percentage
			}
			return MarketCheck{Figure: f, Match: m.agrees(want)}, true
		}
	}
	return MarketCheck{}, false
}

// gap is the distance between two spans, 0 when they overlap.
func gap(s1, e1, s2, e2 int) int {
	switch {
	case e1 <= s2:
		return s2 - e1
	case e2 <= s1:
		return s1 - e2
	}
	return 0
}

func priceDisplay(v float64, currency string) string {
	return fmt.Sprintf("%s%.2f", CurrencyPrefix(currency), v)
}

// agrees compares the cited value with the recorded one: within half a
// unit of the cited value's last digit, or 1% when that is looser (a market
// cap of "$4 trillion" for $3.995T), 3% when the figure says "about"; a
// bound ("above 20x") agrees with any value on its side.
func (m MarketMention) agrees(actual float64) bool {
	tol := math.Max(m.Step/2, math.Abs(actual)*0.01)
	if m.Approx {
		tol = math.Max(tol, math.Abs(actual)*0.03)
	}
	tol += 1e-9 * math.Max(1, math.Abs(actual))
	switch m.Bound {
	case 1:
		return actual >= m.Value-tol
	case -1:
		return actual <= m.Value+tol
	}
	return math.Abs(m.Value-actual) <= tol
}
