package factcheck

import (
	"fmt"
	"math"
	"slices"
	"strings"

	"github.com/parleyhq/parley/internal/sec/xbrl"
)

// stockSplit is a split (or a reverse split) the filings show: a filing
// restating a per-share figure or a share count of a period an earlier
// filing stated, by a split's ratio. lastPre is the latest filing known to
// state figures before it, firstPost the earliest known to state them
// after it; the split took effect between the two.
type stockSplit struct {
	ratio              float64 // new shares for each old one: 10 for a 10-for-1, 0.1 for a 1-for-10
	lastPre, firstPost xbrl.Date
}

func (s stockSplit) String() string {
	r := s.ratio
	if r < 1 {
		return fmt.Sprintf("1-for-%s reverse split", trimRatio(1/r))
	}
	return fmt.Sprintf("%s-for-1 split", trimRatio(r))
}

func trimRatio(r float64) string {
	if r == math.Trunc(r) {
		return fmt.Sprintf("%.0f", r)
	}
	return fmt.Sprintf("%.1f", r)
}

// splitRatio is the split ratio r is, 0 when it is none: at least 1.4 (a
// 3-for-2) and at most 300 either way, within 3% of a fraction of a denominator up to 4
// (per-share figures are rounded to the cent, so a restated $0.17 of
// $1.74 is 10.2).
func splitRatio(r float64) float64 {
	if r <= 0 {
		return 0
	}
	inv := r < 1
	if inv {
		r = 1 / r
	}
	if r < 1.4 || r > 300 {
		// Past a few hundred it is no split but a scale slip: a count
		// tagged in thousands in one filing and in units in the next
		// (NVIDIA's 2009-2011 filings), a thousandfold either way.
		return 0
	}
	for q := 1.0; q <= 4; q++ {
		p := math.Round(r * q)
		if math.Abs(r-p/q) <= 0.03*r {
			if inv {
				return q / p
			}
			return p / q
		}
	}
	return 0
}

// splitTags are the per-share figures and share counts a split restates,
// by whether the count rises with it (shares) or falls (per share).
var splitTags = []struct {
	tax, tag string
	shares   bool
}{{xbrl.TaxonomyUSGAAP, "EarningsPerShareDiluted", false}, {xbrl.TaxonomyUSGAAP, "EarningsPerShareBasic", false},
	{xbrl.TaxonomyUSGAAP, "EarningsPerShareBasicAndDiluted", false}, {xbrl.TaxonomyUSGAAP, "CommonStockDividendsPerShareDeclared", false},
	{xbrl.TaxonomyUSGAAP, "WeightedAverageNumberOfDilutedSharesOutstanding", true},
	{xbrl.TaxonomyUSGAAP, "WeightedAverageNumberOfSharesOutstandingBasic", true}, {xbrl.TaxonomyUSGAAP, "CommonStockSharesOutstanding", true},
	{xbrl.TaxonomyIFRS, "BasicEarningsLossPerShare", false}, {xbrl.TaxonomyIFRS, "DilutedEarningsLossPerShare", false},
	{xbrl.TaxonomyIFRS, "AdjustedWeightedAverageShares", true}, {xbrl.TaxonomyIFRS, "WeightedAverageShares", true},
	{xbrl.TaxonomyIFRS, "NumberOfSharesOutstanding", true}}

// stockSplits are the splits the filings show (stockSplit), oldest first.
// Without them a per-share figure or a count last stated before a split
// (NVIDIA's fiscal 2022 EPS of $3.85, $0.385 after its 2024 10-for-1
// split) stood beside later years stated after it, and the growth across
// them was a fall of 96%.
func stockSplits(cf *xbrl.CompanyFacts, currency string) []stockSplit {
	perShare := "USD/shares"
	if currency != "" {
		perShare = currency + "/shares"
	}
	type window struct {
		ratio    float64
		pre, pst xbrl.Date
		shares   bool
	}
	var ws []window
	for _, st := range splitTags {
		unit := perShare
		if st.shares {
			unit = "shares"
		}
		byPeriod := map[[2]xbrl.Date][]xbrl.Source{}
		for _, s := range cf.Reported(st.tax, st.tag, unit) {
			if s.Value != 0 { // a loss a share is restated too
				k := [2]xbrl.Date{s.Start, s.End}
				byPeriod[k] = append(byPeriod[k], s)
			}
		}
		for _, ss := range byPeriod {
			slices.SortFunc(ss, func(a, b xbrl.Source) int { return int(a.Filed - b.Filed) })
			for i := 1; i < len(ss); i++ {
				a, b := ss[i-1], ss[i]
				if a.Filed == b.Filed {
					continue
				}
				r := a.Value / b.Value // per share: old over new
				if st.shares {
					r = b.Value / a.Value
				}
				if k := splitRatio(r); k != 0 {
					ws = append(ws, window{k, a.Filed, b.Filed, st.shares})
				}
			}
		}
	}
	// A split restates the share counts as well as the figures a share; a
	// restatement of earnings restates the figures a share alone (Apple's
	// 2009 change of revenue recognition moved its EPS by half again). So
	// where the filer tags share counts, a move of the figures a share is
	// a split only if the counts moved by its ratio then too.
	var counts []window
	for _, w := range ws {
		if w.shares {
			counts = append(counts, w)
		}
	}
	if len(counts) > 0 {
		ws = slices.DeleteFunc(ws, func(w window) bool {
			return !w.shares && !slices.ContainsFunc(counts, func(c window) bool { return c.ratio == w.ratio && w.pre < c.pst && c.pre < w.pst })
		})
	}
	// One split is every window of its ratio that overlaps the others:
	// it took effect in all of them.
	slices.SortFunc(ws, func(a, b window) int { return int(a.pst - b.pst) })
	var out []stockSplit
	for _, w := range ws {
		merged := false
		for i := range out {
			s := &out[i]
			if s.ratio == w.ratio && w.pre < s.firstPost && s.lastPre < w.pst {
				s.lastPre, s.firstPost = max(s.lastPre, w.pre), min(s.firstPost, w.pst)
				merged = true
				break
			}
		}
		if !merged {
			out = append(out, stockSplit{ratio: w.ratio, lastPre: w.pre, firstPost: w.pst})
		}
	}
	return out
}

// splitAdjust restates a per-share figure or a count stated in a filing
// filed on filed for every split after it, as the later filings state
// the years they cover: ok is false when the filing was filed within a
// split's window, which leaves it unknown whether its figures are before
// the split or after it.
func splitAdjust(splits []stockSplit, m Metric, v float64, filed xbrl.Date) (adj float64, note string, ok bool) {
	adj = v
	for _, s := range splits {
		switch {
		case filed <= s.lastPre:
			if UnitOf(m) == SharesUnit {
				adj *= s.ratio
			} else {
				adj /= s.ratio
			}
			if note != "" {
				note += " and "
			}
			note += fmt.Sprintf("the %s after it (%s stated the figure before it)", s, filed)
		case filed < s.firstPost:
			return v, "", false
		}
	}
	if note != "" {
		note = "; restated for " + note
	}
	return adj, note, true
}

// Splits are the stock splits a filer's filings show, to restate a figure
// a share or a share count as the fact check holds it: as the latest
// filings state the periods they cover. The research tools state such
// figures on this basis too, so that a debater quoting one is not
// corrected for it.
type Splits struct{ splits []stockSplit }

// SplitsOf finds the splits cf's filings show (stockSplits).
func SplitsOf(cf *xbrl.CompanyFacts) Splits {
	cur := cf.Currency()
	if cur == "USD" {
		cur = ""
	}
	return Splits{stockSplits(cf, cur)}
}

// Any reports whether the filings show a split.
func (s Splits) Any() bool { return len(s.splits) > 0 }

// Restate restates v, a figure a share (or a share count, shares) stated
// in a filing filed on filed, for every split after it. note names them
// ("restated for the 10-for-1 split after it (2024-02-21 stated the figure
// before it)"), "" when none is after it; ok is false when the filing was
// made while a split took effect, so its footing cannot be told.
func (s Splits) Restate(v float64, shares bool, filed xbrl.Date) (adj float64, note string, ok bool) {
	m := EPSDiluted
	if shares {
		m = Shares
	}
	adj, note, ok = splitAdjust(s.splits, m, v, filed)
	return adj, strings.TrimPrefix(note, "; "), ok
}
