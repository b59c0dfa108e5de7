package factcheck

import (
	"fmt"
	"math"
	"strings"

	"github.com/parleyhq/parley/internal/sec/xbrl"
)

// Gap is a figure the table holds no fact of for a reason worth stating:
// a figure the filings do not settle (a fourth quarter's EPS when the
// share count moved within the year) or one with no meaning (a payout
// ratio of a loss). A figure stated of it is unverified with the reason,
// where "the filings give no such figure" would mislead.
type Gap struct {
	Metric Metric `json:"metric"`
	Period Period `json:"period"`
	Reason string `json:"reason"`
}

// gap is the reason the table holds no fact of m for p, "" when none was
// recorded.
func (t *Table) gap(m Metric, p Period) string {
	for _, g := range t.Gaps {
		if g.Metric == m && g.Period == p {
			return g.Reason
		}
	}
	return ""
}

// basicSharesConcept is the weighted average basic share count, basic
// EPS's denominator, read by the check alone as sgaConcept is.
var basicSharesConcept = xbrl.ConceptDef{Concept: "BasicSharesWeighted", Label: "Weighted average basic shares", Unit: "shares", Average: true,
	Tags: []xbrl.Tag{{Taxonomy: xbrl.TaxonomyUSGAAP, Name: "WeightedAverageNumberOfSharesOutstandingBasic"},
		{Taxonomy: xbrl.TaxonomyIFRS, Name: "WeightedAverageShares"}}}

// epsShares is the weighted share count each EPS is net income over.
var epsShares = map[Metric]Metric{EPSDiluted: DilutedShares, EPSBasic: BasicShares}

// perShareQuarter is quarter p (Q2-Q4) of an EPS line the filings do not
// state for three months (a 10-K states the year's only). EPS is not
// additive: the year's less nine months' is the quarter's only when the
// shares are the same in both, and a split, an issuance or buybacks move
// them. So it is worked out as the filer works it: the quarter's net
// income (a flow, which adds up) over its weighted shares, those implied by
// the year-to-date averages (xbrl.Series.QuarterAverage). A filer that
// tags no weighted shares has them implied by its own EPS (net income over
// EPS, as precise as a cent of EPS is), unless it has preferred stock,
// whose dividends stand between the two. The quarter is held only when
// the filer's EPS is its net income over its shares for both
// year-to-date periods (no preferred dividends, no income allocated to
// other classes or participating securities), the shares moved by less
// than a quarter within the year, and the shares are known to a
// twentieth; why says otherwise why there is none.
func perShareQuarter(series map[Metric]*xbrl.Series, m Metric, fy, q int, preferred bool) (f Fact, why string) {
	p := Period{FY: fy, Q: q}
	eps, ni, sh := series[m], series[NetIncome], series[epsShares[m]]
	notAdditive := "EPS is not additive (the year's less nine months' is the quarter's only if the shares did not move)"
	if eps == nil || ni == nil || q < 2 {
		return Fact{}, fmt.Sprintf("%s, and the filings Parley has give no net income to work %s's %s out from", notAdditive, p, m.Label())
	}
	niQ, okNI := ni.Quarter(fy, q)
	if !okNI {
		return Fact{}, fmt.Sprintf("%s, and the filings Parley has give no net income of %s to work its %s out from", notAdditive, p, m.Label())
	}
	// The weighted shares of the two year-to-date periods, and how far
	// each may be off as a fraction of it.
	type ytdShares struct {
		v, rel float64
		days   float64
		label  string
		srcs   []xbrl.Source
	}
	var ytd [2]ytdShares
	for i, n := range []int{q, q - 1} {
		e, ok1 := eps.YearToDate(fy, n)
		in, ok2 := ni.YearToDate(fy, n)
		if !ok1 || !ok2 {
			return Fact{}, fmt.Sprintf("%s, and the filings Parley has give no %s and net income for %s's year to date to work it out from", notAdditive, m.Label(), p)
		}
		y := ytdShares{days: float64(e.Period.Days()), label: e.Period.Label(), srcs: in.Sources}
		var s xbrl.Fact
		ok := false
		if sh != nil {
			s, ok = sh.YearToDate(fy, n)
		}
		if ok && s.Value > 0 {
			if math.Abs(in.Value/s.Value-e.Value) > 0.006+1e-4*math.Abs(e.Value) {
				return Fact{}, fmt.Sprintf("the filer's %s is not its net income over its weighted shares (%s: %.2f, against %.3f; preferred dividends or "+
					"income allocated to another class), so %s's cannot be worked out from the year's and the year to date's", m.Label(),
					e.Period.Label(), e.Value, in.Value/s.Value, p)
			}
			y.v, y.rel, y.srcs = s.Value, rounding(s.Value)/2/s.Value, append(y.srcs, s.Sources...)
		} else {
			if preferred || e.Value == 0 || in.Value/e.Value <= 0 {
				return Fact{}, fmt.Sprintf("%s, and the filings Parley has give no weighted shares for %s's year to date to work it out from", notAdditive, p)
			}
			y.v, y.rel, y.srcs = in.Value/e.Value, 0.005/math.Abs(e.Value), append(y.srcs, e.Sources...)
		}
		ytd[i] = y
	}
	if m == EPSDiluted {
		// A loss in part of the year and a profit in the rest changes
		// which securities dilute (none do in a loss), so the year-to-date
		// diluted counts are no averages of the quarters' alike.
		toNI, _ := ni.YearToDate(fy, q)
		fromNI, _ := ni.YearToDate(fy, q-1)
		if (niQ.Value > 0) != (fromNI.Value > 0) || (toNI.Value > 0) != (fromNI.Value > 0) {
			return Fact{}, fmt.Sprintf("%s, and net income changed sign within the year (a loss in part of it), which changes the shares that dilute, "+
				"so %s's %s cannot be worked out from the year's and the year to date's", notAdditive, p, m.Label())
		}
	}
	to, from := ytd[0], ytd[1]
	shQ := (to.v*to.days - from.v*from.days) / (to.days - from.days)
	if r := to.v / from.v; r < 0.8 || r > 1.25 || shQ < 0.75*from.v || shQ > 1.33*from.v {
		return Fact{}, fmt.Sprintf("the weighted shares moved from %s (%s) to %s (%s), a split or a large issuance within the year: EPS is not additive, "+
			"so %s's %s cannot be worked out from the year's and the year to date's", shareCount(from.v), from.label,
			shareCount(to.v), to.label, p, m.Label())
	}
	// The shares of the quarter amplify the imprecision of the two
	// year-to-date counts by about the year's days over the quarter's.
	rel := (to.days*to.v*to.rel + from.days*from.v*from.rel) / ((to.days - from.days) * shQ)
	if rel > 0.05 {
		return Fact{}, fmt.Sprintf("%s, and the shares the filings imply for %s (net income over an EPS stated to the cent) are too imprecise to work its %s out from",
			notAdditive, p, m.Label())
	}
	v := niQ.Value / shQ
	srcs := append(append(append([]xbrl.Source{}, niQ.Sources...), to.srcs...), from.srcs...)
	return Fact{Metric: m, Period: p, Value: v, Source: "net income over weighted shares from " + source(srcs),
		// A thousandth for the weighting (by day or by month), and what
		// the counts' imprecision may move the shares by.
		Slack: math.Abs(v) * (0.001 + rel)}, ""
}

// rounding is the power of ten a reported count looks rounded to (a
// million for 401000000), at most a ten-thousandth of it: a count is
// stated to four figures at least, and one that ends in zeros by chance
// (12,100,000,000) is not rounded to its hundred millions.
func rounding(v float64) float64 {
	r := 1.0
	for r*10 <= math.Abs(v)/1e4 && math.Mod(v, r*10) == 0 {
		r *= 10
	}
	return r
}

func shareCount(v float64) string {
	switch {
	case math.Abs(v) >= 1e9:
		return fmt.Sprintf("%.2fB", v/1e9)
	case math.Abs(v) >= 1e6:
		return fmt.Sprintf("%.1fM", v/1e6)
	}
	return fmt.Sprintf("%.0f", v)
}

// perShare is an EPS line's figure for p the filings do not state: a
// quarter (perShareQuarter) or the TTM, the sum of the four quarters'
// EPS as data services state it, each as reported or worked out. A TTM
// that ends with the fiscal year is that year, whose EPS the 10-K states:
// either is right.
func (t *Table) perShare(series map[Metric]*xbrl.Series, m Metric, p Period, preferred bool) (Fact, string) {
	if !p.TTM {
		return perShareQuarter(series, m, p.FY, p.Q, preferred)
	}
	// The TTM ends where net income's does: with the latest quarter it
	// has, reported or worked out from year-to-date figures.
	s, ni := series[m], series[NetIncome]
	if ni == nil {
		return Fact{}, ""
	}
	last, ok := ni.Latest()
	if !ok {
		return Fact{}, ""
	}
	fy, q := 0, 0
	for y := last.Period.FiscalYear; y >= last.Period.FiscalYear-1 && q == 0; y-- {
		for n := 4; n >= 1; n-- {
			if _, ok := ni.Quarter(y, n); ok {
				fy, q = y, n
				break
			}
		}
	}
	if q == 0 {
		return Fact{}, ""
	}
	// A TTM to the fiscal year's end is that year, whose EPS the 10-K
	// states, right too as the TTM; and the only one when its quarters
	// cannot be worked out.
	annual, haveAnnual := Fact{}, false
	if q == 4 {
		if a, ok := s.Annual(fy); ok {
			annual, haveAnnual = Fact{Metric: m, Period: p, Value: a.Value, Source: source(a.Sources)}, true
		}
	}
	sum, why := t.sumOfQuarters(series, m, p, fy, q, preferred)
	switch {
	case why != "" && haveAnnual:
		return annual, ""
	case why != "":
		return Fact{}, why
	case haveAnnual:
		sum.Slack = math.Max(sum.Slack, math.Abs(annual.Value-sum.Value))
	}
	return sum, ""
}

// sumOfQuarters is the TTM of an EPS line as the sum of the four fiscal
// quarters' to quarter q of fiscal year fy, each as reported or worked
// out (perShareQuarter).
func (t *Table) sumOfQuarters(series map[Metric]*xbrl.Series, m Metric, p Period, fy, q int, preferred bool) (Fact, string) {
	s := series[m]
	out := Fact{Metric: m, Period: p}
	var srcs []string
	var lo, hi float64
	y, n := fy, q
	for range 4 {
		// Four quarters on one footing: a split among them restates
		// some in later filings and not others. (Buybacks or an issuance
		// move the shares too, by less, and leave each quarter's EPS
		// right: their sum is the TTM's as data services state it.)
		if sh := series[epsShares[m]]; sh != nil {
			if c, ok := sh.QuarterAverage(y, n); ok && c.Value > 0 {
				if lo == 0 || c.Value < lo {
					lo = c.Value
				}
				hi = math.Max(hi, c.Value)
				if hi > 1.4*lo {
					return Fact{}, fmt.Sprintf("a TTM %s is the sum of four quarters', and the weighted shares moved from %s to %s among them "+
						"(a split or a large issuance), so the quarters' EPS are not on one footing", m.Label(), shareCount(lo), shareCount(hi))
				}
			}
		}
		f, ok := s.Quarter(y, n)
		var qf Fact
		switch {
		case ok && !f.Derived():
			qf = Fact{Value: f.Value, Source: source(f.Sources)}
		default:
			var why string
			if qf, why = perShareQuarter(series, m, y, n, preferred); why != "" {
				return Fact{}, fmt.Sprintf("a TTM %s is the sum of four quarters', and Q%d FY%d's is not known: %s", m.Label(), n, y, why)
			}
			if qf == (Fact{}) {
				return Fact{}, fmt.Sprintf("a TTM %s is the sum of four quarters', and the filings Parley has give no Q%d FY%d", m.Label(), n, y)
			}
			// The filer rounds the quarter it states to the cent.
			qf.Slack += 0.005
		}
		out.Value += qf.Value
		out.Slack += qf.Slack
		srcs = append(srcs, qf.Source)
		if n--; n == 0 {
			y, n = y-1, 4
		}
	}
	out.Source = "sum of four quarters from " + joinSources(srcs)
	return out, ""
}

func joinSources(srcs []string) string {
	seen := map[string]bool{}
	var out string
	for _, s := range srcs {
		if s == "" || seen[s] {
			continue
		}
		seen[s] = true
		if out != "" {
			out += "; "
		}
		out += s
	}
	return out
}

// addRatioGaps records why a ratio the analysis refuses has no figure,
// where the reason is the company's, not missing data: a return on or a
// ratio to negative equity, a current ratio of a filer that does not
// classify its balance sheet (a bank, an insurer: no current assets or
// liabilities in any filing).
func (t *Table) addRatioGaps(cf *xbrl.CompanyFacts) {
	classified := false
	for _, tag := range []struct{ tax, name string }{{xbrl.TaxonomyUSGAAP, "AssetsCurrent"}, {xbrl.TaxonomyIFRS, "CurrentAssets"}} {
		for _, u := range []string{"USD", t.Currency} {
			if u != "" && len(cf.Reported(tag.tax, tag.name, u)) > 0 {
				classified = true
			}
		}
	}
	for fy := t.LatestFY - Years; fy <= t.LatestFY; fy++ {
		p := Period{FY: fy}
		if _, ok := t.Lookup(CurrentRatio, p); !ok && !classified {
			t.Gaps = append(t.Gaps, Gap{Metric: CurrentRatio, Period: p, Reason: "none of the filer's filings Parley has states current assets " +
				"or liabilities (an unclassified balance sheet, as a bank's or an insurer's is), so there is no current ratio to hold the figure to"})
		}
		eq, ok := t.Lookup(Equity, p)
		if !ok || eq.Value > 0 {
			continue
		}
		why := fmt.Sprintf("not meaningful in %s: stockholders' equity was %s (a deficit)", p, t.Display(Equity, eq.Value))
		for _, m := range []Metric{ROE, ROAE, ROCE, ROACE, DebtToEquity} {
			if _, ok := t.Lookup(m, p); !ok {
				t.Gaps = append(t.Gaps, Gap{Metric: m, Period: p, Reason: strings.ToUpper(m.Label()[:1]) + m.Label()[1:] + " is " + why})
			}
		}
	}
}
