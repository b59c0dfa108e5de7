package analysis

import (
	"cmp"
	"fmt"
	"math"
	"slices"
	"strings"

	"github.com/parleyhq/parley/internal/sec/xbrl"
)

// Side is the case a metric supports.
type Side uint8

// Sides.
const (
	Bull Side = iota
	Bear
)

func (s Side) String() string {
	if s == Bull {
		return "bull"
	}
	return "bear"
}

// Rule turns a metric into a verdict. A metric supports the bull case when it
// is strictly beyond Threshold in the favourable direction, and the bear case
// otherwise.
type Rule struct {
	Metric string
	// Bucket groups related rules ("growth", "profitability", ...).
	Bucket string
	// HigherIsBull is true when larger values favour the bull.
	HigherIsBull bool
	Threshold    float64
	// Scale is the unit of distance to the threshold: |Threshold| when it is
	// non-zero, otherwise a documented typical size of a move.
	Scale float64
	// Weight is the metric's share of the conviction score.
	Weight float64
	// Why justifies the threshold.
	Why string
}

// Rules returns the scoring table, in a fixed order. Thresholds are generic,
// not sector-adjusted; they separate "good business" from "ordinary" for a
// large listed company. Weights favour what equity theses usually turn on:
// growth, operating profitability, cash generation and the composite
// quality score count most (2, 1.5); single-line ratios count 1; metrics
// that largely restate another count 0.5.
func Rules() []Rule {
	return []Rule{
		{"revenue_growth", "growth", true, 0.05, 0.05, 2, "growth above 5% outpaces inflation and nominal GDP"},
		{"net_income_growth", "growth", true, 0.05, 0.05, 1, "earnings growth above 5%"},
		{"gross_margin", "profitability", true, 0.40, 0.40, 0.5, "gross margin above 40% signals pricing power"},
		{"gross_margin_change", "profitability", true, 0, 0.02, 0.5, "expanding gross margin (distance measured in 2-point steps)"},
		{"operating_margin", "profitability", true, 0.15, 0.15, 1.5, "operating margin above 15%"},
		{"operating_margin_change", "profitability", true, 0, 0.02, 1, "expanding operating margin (distance measured in 2-point steps)"},
		{"net_margin", "profitability", true, 0.10, 0.10, 0.5, "net margin above 10%"},
		{"roe", "returns", true, 0.15, 0.15, 1, "return on equity above 15% beats a typical cost of equity"},
		{"roa", "returns", true, 0.05, 0.05, 0.5, "return on assets above 5%"},
		{"fcf_margin", "cash flow", true, 0.10, 0.10, 1.5, "free cash flow above 10% of revenue"},
		{"cash_conversion", "cash flow", true, 1.0, 1.0, 1, "operating cash flow at least matching net income means earnings are backed by cash"},
		{"debt_to_equity", "balance sheet", false, 1.0, 1.0, 1, "debt below equity"},
		{"current_ratio", "balance sheet", true, 1.0, 1.0, 0.5, "current assets cover current liabilities"},
		{"piotroski_f_score", "quality scores", true, 5.5, 5.5, 2, "F-score of 6 or more (of 9) marks improving fundamentals"},
		{"altman_z", "quality scores", true, 0, 0, 1.5, "Altman score in the safe zone (cut-off depends on the model)"},
	}
}

// Metric is a scored piece of evidence.
type Metric struct {
	Name  string
	Label string
	Value float64
	// Display is Value formatted for people ("65.5%", "8/9").
	Display    string
	FiscalYear int
	Side       Side
	Rule       Rule
	// Threshold is the effective cut-off (the Altman one depends on the model).
	Threshold float64
	// Distance is |Value - Threshold| / Scale: how far the metric is from
	// flipping sides, in units comparable across metrics.
	Distance  float64
	Formula   string
	Citations []xbrl.Source
	Note      string
}

// Bullet renders the metric as a cited bullet point, e.g.
// "Revenue growth (YoY) of 65.5% in FY2026 (10-K 0001045810-26-000021)".
func (m Metric) Bullet() string {
	var accns []string
	for _, c := range m.Citations {
		ref := c.Form + " " + c.Accession
		if !slices.Contains(accns, ref) {
			accns = append(accns, ref)
		}
	}
	return fmt.Sprintf("%s of %s in FY%d (%s)", m.Label, m.Display, m.FiscalYear, strings.Join(accns, "; "))
}

// condition states what would flip the metric, e.g. "operating margin falls
// to 15.0% or below".
func (m Metric) condition() string {
	th, now := m.formatThreshold(), m.Display
	if strings.HasPrefix(now, th) {
		now = fmt.Sprintf("%.4g", m.Value) // e.g. 0.995x displays as the 1.00x cut-off
	}
	up := m.Side == Bear
	if m.Rule.HigherIsBull == up {
		return fmt.Sprintf("%s rises above %s (now %s)", lowerFirst(m.Label), th, now)
	}
	return fmt.Sprintf("%s falls to %s or below (now %s)", lowerFirst(m.Label), th, now)
}

func (m Metric) formatThreshold() string {
	switch m.Name {
	case "piotroski_f_score":
		return "5/9"
	case "altman_z":
		return fmt.Sprintf("%.2f", m.Threshold)
	}
	for _, r := range ratioFormats() {
		if r.name == m.Name {
			return FormatValue(m.Threshold, r.format)
		}
	}
	return fmt.Sprintf("%.4g", m.Threshold)
}

type nameFormat struct {
	name   string
	format Format
}

func ratioFormats() []nameFormat {
	return []nameFormat{
		{"revenue_growth", Percent}, {"net_income_growth", Percent}, {"gross_margin", Percent},
		{"gross_margin_change", Points}, {"operating_margin", Percent}, {"operating_margin_change", Points},
		{"net_margin", Percent}, {"roe", Percent}, {"roa", Percent}, {"fcf_margin", Percent},
		{"cash_conversion", Multiple}, {"debt_to_equity", Multiple}, {"current_ratio", Multiple},
	}
}

// Contention is a pair of metrics that pull in opposite directions.
type Contention struct {
	Topic string
	Bull  Metric
	Bear  Metric
}

// String renders "Growth vs margins: Bull cites revenue growth of 65.5%; Bear cites ...".
func (c Contention) String() string {
	return fmt.Sprintf("%s: Bull cites %s of %s; Bear cites %s of %s", c.Topic,
		lowerFirst(c.Bull.Label), c.Bull.Display, lowerFirst(c.Bear.Label), c.Bear.Display)
}

// contentionPairs are the pairs of metrics whose disagreement is worth
// debating, with the question each disagreement raises.
func contentionPairs() [][3]string {
	return [][3]string{
		{"Growth vs margins", "revenue_growth", "operating_margin_change"},
		{"Top line vs bottom line", "revenue_growth", "net_income_growth"},
		{"Earnings quality", "net_margin", "cash_conversion"},
		{"Returns vs leverage", "roe", "debt_to_equity"},
		{"Pricing power vs gross margin trend", "gross_margin", "gross_margin_change"},
		{"Profitability vs liquidity", "operating_margin", "current_ratio"},
		{"Improving fundamentals vs solvency", "piotroski_f_score", "altman_z"},
		{"Cash generation vs growth", "fcf_margin", "revenue_growth"},
	}
}

// Bucket totals the weight each side holds within one group of rules.
type Bucket struct {
	Name                   string
	BullWeight, BearWeight float64
}

// Favours is the side with more weight, and false when they tie.
func (b Bucket) Favours() (Side, bool) {
	switch {
	case b.BullWeight > b.BearWeight:
		return Bull, true
	case b.BearWeight > b.BullWeight:
		return Bear, true
	}
	return Bull, false
}

// Conviction is the data-weight verdict.
type Conviction struct {
	// Score is 1-10: round(10 × BullShare), clamped to 1..10.
	Score int
	// BullShare is the weight of bull metrics over the weight of all scored
	// metrics.
	BullShare float64
	// Because names the heaviest evidence on each side.
	Because string
	// WouldBe is the score if the opposing metric nearest its threshold
	// flipped (or, when nothing opposes, the thesis-breaker), and If states
	// that condition.
	WouldBe int
	If      string
}

// Stance maps the score to the moderator's labels: 1-3 STRONG BEAR,
// 4 LEAN BEAR, 5 NEUTRAL, 6 LEAN BULL, 7-10 STRONG BULL.
func (c Conviction) Stance() string {
	switch {
	case c.Score <= 3:
		return "STRONG BEAR"
	case c.Score == 4:
		return "LEAN BEAR"
	case c.Score == 5:
		return "NEUTRAL"
	case c.Score == 6:
		return "LEAN BULL"
	}
	return "STRONG BULL"
}

// String is the headline, e.g. "6/10 LEAN BULL".
func (c Conviction) String() string { return fmt.Sprintf("%d/10 %s", c.Score, c.Stance()) }

// Reasoning is "X/10 because .... Would be Y/10 if ...".
func (c Conviction) Reasoning() string {
	s := fmt.Sprintf("%d/10 because %s.", c.Score, c.Because)
	if c.If != "" {
		s += fmt.Sprintf(" Would be %d/10 if %s.", c.WouldBe, c.If)
	}
	return s
}

// ThesisBreaker is the metric supporting the prevailing case that is
// nearest to flipping.
type ThesisBreaker struct {
	// Thesis is the case that breaks.
	Thesis Side
	Metric Metric
}

// String renders "Bull thesis breaks if: operating margin falls to 15.0% or below (now 60.4%)".
func (t ThesisBreaker) String() string {
	name := "Bull"
	if t.Thesis == Bear {
		name = "Bear"
	}
	return fmt.Sprintf("%s thesis breaks if: %s", name, t.Metric.condition())
}

// Evidence is what the data-only agents argue from and what a renderer
// prints as the bull case, bear case, key contentions and synthesis.
type Evidence struct {
	Company    string
	FiscalYear int
	// Bull and Bear hold the metrics favouring each case, heaviest first.
	Bull, Bear []Metric
	// Unscored are rules that could not be applied, and why.
	Unscored    []Gap
	Contentions []Contention
	Buckets     []Bucket
	Conviction  Conviction
	// ThesisBreaker is nil when no metric could be scored.
	ThesisBreaker *ThesisBreaker
	// Frameworks are the framework results the metrics came from.
	Frameworks []FrameworkResult
}

// maxContentions follows the spec's "2-5 key contentions".
const maxContentions = 5

// Assess scores a report against Rules.
//
// Conviction is the weighted share of scored evidence favouring the bull:
// score = round(10 × Σ bull weights / Σ all weights), clamped to 1..10, so
// "7/10" means 70% of the evidence weight supports the bull. The prevailing
// case is the bull when that share is at least one half. Its thesis-breaker
// is its supporting metric with the smallest Distance; ties go to the
// heavier metric, then to Rules order.
func Assess(r *Report) *Evidence {
	f := r.Financials
	ev := &Evidence{Company: f.Company, FiscalYear: f.FiscalYear,
		Frameworks: []FrameworkResult{r.Piotroski, r.Altman}}
	var scored []Metric
	for _, rule := range Rules() {
		m, err := metricFor(r, rule)
		if err != nil {
			ev.Unscored = append(ev.Unscored, Gap{Name: rule.Metric, Reason: err.Error()})
			continue
		}
		scored = append(scored, m)
	}

	var bullW, totalW float64
	buckets := map[string]*Bucket{}
	for _, m := range scored {
		b := buckets[m.Rule.Bucket]
		if b == nil {
			b = &Bucket{Name: m.Rule.Bucket}
			buckets[m.Rule.Bucket] = b
			ev.Buckets = append(ev.Buckets, Bucket{Name: m.Rule.Bucket})
		}
		totalW += m.Rule.Weight
		if m.Side == Bull {
			bullW += m.Rule.Weight
			b.BullWeight += m.Rule.Weight
			ev.Bull = append(ev.Bull, m)
		} else {
			b.BearWeight += m.Rule.Weight
			ev.Bear = append(ev.Bear, m)
		}
	}
	for i := range ev.Buckets {
		ev.Buckets[i] = *buckets[ev.Buckets[i].Name]
	}
	heaviest := func(a, b Metric) int { return cmp.Compare(b.Rule.Weight, a.Rule.Weight) }
	slices.SortStableFunc(ev.Bull, heaviest)
	slices.SortStableFunc(ev.Bear, heaviest)
	if totalW == 0 {
		ev.Conviction = Conviction{Score: 5, Because: "no metric could be scored from the reported data"}
		return ev
	}

	ev.Contentions = contentions(scored)
	ev.Conviction = conviction(bullW, totalW, ev.Bull, ev.Bear)
	prevailing, opposing := ev.Bull, ev.Bear
	thesis := Bull
	if ev.Conviction.BullShare < 0.5 {
		prevailing, opposing, thesis = ev.Bear, ev.Bull, Bear
	}
	if m, ok := nearest(prevailing); ok {
		ev.ThesisBreaker = &ThesisBreaker{Thesis: thesis, Metric: m}
	}
	// "Would be Y/10 if": the opposing metric nearest to coming over; if
	// nothing opposes, the thesis-breaker going the other way.
	flip, ok := nearest(opposing)
	if !ok && ev.ThesisBreaker != nil {
		flip, ok = ev.ThesisBreaker.Metric, true
	}
	if ok {
		nb := bullW
		if flip.Side == Bull {
			nb -= flip.Rule.Weight
		} else {
			nb += flip.Rule.Weight
		}
		ev.Conviction.WouldBe = scoreOf(nb / totalW)
		ev.Conviction.If = flip.condition()
	}
	return ev
}

func scoreOf(share float64) int {
	return min(10, max(1, int(math.Round(10*share))))
}

func conviction(bullW, totalW float64, bull, bear []Metric) Conviction {
	c := Conviction{BullShare: bullW / totalW}
	c.Score = scoreOf(c.BullShare)
	top := func(ms []Metric) string {
		var parts []string
		for i, m := range ms {
			if i == 2 {
				break
			}
			parts = append(parts, fmt.Sprintf("%s (%s)", lowerFirst(m.Label), m.Display))
		}
		return strings.Join(parts, " and ")
	}
	pct := fmt.Sprintf("%.0f%% of the evidence weight favours the bull", 100*c.BullShare)
	switch {
	case len(bear) == 0:
		c.Because = fmt.Sprintf("every scored metric favours the bull, led by %s", top(bull))
	case len(bull) == 0:
		c.Because = fmt.Sprintf("every scored metric favours the bear, led by %s", top(bear))
	case c.BullShare >= 0.5:
		c.Because = fmt.Sprintf("%s outweigh %s (%s)", top(bull), top(bear), pct)
	default:
		c.Because = fmt.Sprintf("%s outweigh %s (%s)", top(bear), top(bull), pct)
	}
	return c
}

// nearest returns the metric closest to its threshold: smallest Distance,
// then heaviest weight; ms is in Rules order within equal weights.
func nearest(ms []Metric) (Metric, bool) {
	if len(ms) == 0 {
		return Metric{}, false
	}
	best := ms[0]
	for _, m := range ms[1:] {
		if m.Distance < best.Distance || (m.Distance == best.Distance && m.Rule.Weight > best.Rule.Weight) {
			best = m
		}
	}
	return best, true
}

func contentions(scored []Metric) []Contention {
	byName := map[string]Metric{}
	for _, m := range scored {
		byName[m.Name] = m
	}
	var out []Contention
	for _, p := range contentionPairs() {
		a, ok1 := byName[p[1]]
		b, ok2 := byName[p[2]]
		if !ok1 || !ok2 || a.Side == b.Side {
			continue
		}
		if a.Side == Bear {
			a, b = b, a
		}
		out = append(out, Contention{Topic: p[0], Bull: a, Bear: b})
	}
	// Most consequential first: the pair carrying the most weight.
	slices.SortStableFunc(out, func(x, y Contention) int {
		return cmp.Compare(y.Bull.Rule.Weight+y.Bear.Rule.Weight, x.Bull.Rule.Weight+x.Bear.Rule.Weight)
	})
	if len(out) > maxContentions {
		out = out[:maxContentions]
	}
	return out
}

// metricFor applies one rule to the report.
func metricFor(r *Report, rule Rule) (Metric, error) {
	m := Metric{Name: rule.Metric, Rule: rule, Threshold: rule.Threshold, FiscalYear: r.Financials.FiscalYear}
	switch rule.Metric {
	case "piotroski_f_score":
		p := r.Piotroski
		// Fewer than seven evaluable criteria is too little to call.
		if p.Evaluated < 7 {
			return m, fmt.Errorf("only %d of 9 Piotroski criteria had data (%s)", p.Evaluated, p.firstGap())
		}
		m.Label, m.Value, m.Display = "Piotroski F-score", float64(p.Score), fmt.Sprintf("%d/9", p.Score)
		m.Formula = "count of passed Piotroski criteria"
		for _, c := range p.Criteria {
			for _, in := range c.Inputs {
				m.Citations = append(m.Citations, in.Sources...)
			}
		}
		if p.Evaluated < 9 {
			m.Note = fmt.Sprintf("%d criteria lacked data and count as failed", 9-p.Evaluated)
		}
	case "altman_z":
		a := r.Altman
		if a.Missing {
			return m, fmt.Errorf("Altman %s: %s", a.Variant, a.Note)
		}
		m.Label, m.Value, m.Display = "Altman "+a.Variant+" score", a.Score, fmt.Sprintf("%.2f (%s zone)", a.Score, a.Zone)
		m.Threshold = a.SafeAbove
		m.Rule.Scale = a.SafeAbove
		m.Formula = a.Why
		for _, c := range a.Components {
			for _, in := range c.Inputs {
				m.Citations = append(m.Citations, in.Sources...)
			}
		}
		m.Note = a.Note
	default:
		x, ok := r.Ratio(rule.Metric)
		if !ok {
			for _, g := range r.Gaps {
				if g.Name == rule.Metric {
					return m, fmt.Errorf("%s", g.Reason)
				}
			}
			return m, fmt.Errorf("ratio %q not computed", rule.Metric)
		}
		m.Label, m.Value, m.Display, m.Formula, m.Citations, m.Note = x.Label, x.Value, x.Display(), x.Formula, dedupe(x.Citations()), x.Note
	}
	m.Citations = dedupe(m.Citations)
	bull := m.Value > m.Threshold
	if !rule.HigherIsBull {
		bull = m.Value < m.Threshold
	}
	m.Side = Bear
	if bull {
		m.Side = Bull
	}
	m.Distance = math.Abs(m.Value-m.Threshold) / m.Rule.Scale
	return m, nil
}

// lowerFirst lower-cases a label for use mid-sentence, leaving names
// (Piotroski, Altman) and acronyms (R&D) alone.
func lowerFirst(s string) string {
	if len(s) < 2 || strings.HasPrefix(s, "Piotroski") || strings.HasPrefix(s, "Altman") ||
		(s[1] >= 'A' && s[1] <= 'Z') || s[1] == '&' {
		return s
	}
	return strings.ToLower(s[:1]) + s[1:]
}

func dedupe(src []xbrl.Source) []xbrl.Source {
	var out []xbrl.Source
	for _, s := range src {
		if !slices.Contains(out, s) {
			out = append(out, s)
		}
	}
	return out
}
