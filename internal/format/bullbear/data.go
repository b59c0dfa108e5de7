package bullbear

import (
	"cmp"
	"context"
	"crypto/sha256"
	"errors"
	"fmt"
	"math"
	"slices"
	"strings"
	"sync"

	"github.com/parleyhq/parley/internal/sec/analysis"
	"github.com/parleyhq/parley/internal/sec/factcheck"
	"github.com/parleyhq/parley/internal/sec/sectools"
	"github.com/parleyhq/parley/internal/sec/xbrl"
	"github.com/parleyhq/parley/internal/tool"
)

// Analyzer adapts the xbrl and analysis packages to the sectools
// interfaces (FactFinder, RatioCalculator, FrameworkScorer). It parses each
// companyfacts document once and keeps the result: two agents researching the
// same company share one 4 MB parse. It is safe for concurrent use.
//
// A companyfacts document given to any of its methods must not be modified
// afterwards, for as long as the Analyzer is used: the parse keeps
// references into those bytes (it reads a tag's facts only when they are
// first asked for) instead of a 4 MB copy, and is kept for every later call
// with the same content, whichever slice that call passes. Parley's callers
// pass an edgar.Raw's Body, which nothing writes to: a fresh read of an
// HTTP body or of the snapshot's decompressed file.
type Analyzer struct {
	// SIC selects the Altman model (0: unknown).
	SIC int

	mu     sync.Mutex
	parsed map[[32]byte]*xbrl.CompanyFacts
}

var (
	_ sectools.FactFinder      = (*Analyzer)(nil)
	_ sectools.RatioCalculator = (*Analyzer)(nil)
	_ sectools.FrameworkScorer = (*Analyzer)(nil)
)

// Parse returns the parsed companyfacts document, parsing it at most once.
// The document must not be modified after the call (see Analyzer).
func (a *Analyzer) Parse(companyfacts []byte) (*xbrl.CompanyFacts, error) {
	key := sha256.Sum256(companyfacts)
	a.mu.Lock()
	defer a.mu.Unlock()
	if cf, ok := a.parsed[key]; ok {
		return cf, nil
	}
	cf, err := xbrl.ParseBytes(companyfacts)
	if err != nil {
		return nil, err
	}
	if a.parsed == nil {
		a.parsed = map[[32]byte]*xbrl.CompanyFacts{}
	}
	a.parsed[key] = cf
	return cf, nil
}

// Report analyses a fiscal year (0: the latest with annual data).
func (a *Analyzer) Report(companyfacts []byte, fiscalYear int) (*analysis.Report, error) {
	cf, err := a.Parse(companyfacts)
	if err != nil {
		return nil, err
	}
	return analysis.Analyze(cf, analysis.Options{FiscalYear: fiscalYear, SIC: a.SIC})
}

// Facts implements sectools.FactFinder. A concept is a us-gaap tag
// ("Revenues", "us-gaap:NetIncomeLoss") or one of Parley's concepts
// ("Revenue"), which resolves across the tags filers use.
func (a *Analyzer) Facts(ctx context.Context, companyfacts []byte, q sectools.FactQuery) ([]sectools.Fact, error) {
	cf, err := a.Parse(companyfacts)
	if err != nil {
		return nil, err
	}
	splits := factcheck.SplitsOf(cf)
	var out []sectools.Fact
	for _, name := range q.Concepts {
		s, err := a.series(cf, name)
		if err != nil {
			return nil, err
		}
		var keep []xbrl.Fact
		for _, f := range s.Facts() {
			fp := f.Period.FiscalPeriod
			switch q.Period {
			case "annual":
				if fp != "FY" {
					continue
				}
			case "quarterly":
				if !strings.HasPrefix(fp, "Q") {
					continue
				}
			}
			if fp == "" {
				continue
			}
			keep = append(keep, f)
		}
		if q.Limit > 0 && len(keep) > q.Limit {
			keep = keep[len(keep)-q.Limit:]
		}
		slices.Reverse(keep) // newest first
		for _, f := range keep {
			out = append(out, splitBasis(splits, toolFact(name, s.Def.Label, f), f))
		}
	}
	return out, nil
}

func (a *Analyzer) series(cf *xbrl.CompanyFacts, name string) (*xbrl.Series, error) {
	tag := strings.TrimSpace(name)
	taxonomies := []string{xbrl.TaxonomyUSGAAP, xbrl.TaxonomyIFRS}
	for _, tx := range taxonomies {
		if t, ok := strings.CutPrefix(tag, tx+":"); ok {
			tag, taxonomies = t, []string{tx}
		}
	}
	for _, c := range xbrl.Concepts() {
		if strings.EqualFold(string(c), tag) {
			s, err := cf.Series(c)
			if err != nil {
				return nil, fmt.Errorf("%w: %s: %v", tool.ErrBadArgs, name, err)
			}
			return s, nil
		}
	}
	// Amounts in the filer's reporting currency (Resolve reads "USD" so).
	cur := cmp.Or(cf.Currency(), "USD")
	for _, tx := range taxonomies {
		for _, unit := range []string{cur, cur + "/shares", "shares", "pure"} {
			reported := cf.Reported(tx, tag, unit)
			if len(reported) == 0 {
				continue
			}
			def := xbrl.ConceptDef{Concept: xbrl.Concept(tag), Label: tag, Unit: unit,
				Tags: []xbrl.Tag{{Taxonomy: tx, Name: tag}}}
			// A tag reported at instants (balances) is resolved as an instant.
			def.Instant = reported[0].Start == 0
			s, err := cf.Resolve(def)
			if err != nil {
				return nil, fmt.Errorf("%w: %s: %v", tool.ErrBadArgs, name, err)
			}
			return s, nil
		}
	}
	return nil, fmt.Errorf("%w: the company reported no us-gaap or ifrs-full %q; try Revenues, NetIncomeLoss, OperatingIncomeLoss, Assets, or one of Parley's concepts: %v",
		tool.ErrBadArgs, name, xbrl.Concepts())
}

// splitBasis states a figure a share or a share count of a filer that has
// split its stock on the fact check's basis: restated for every split after
// the filing that stated it (as the later filings state the years they
// cover), with the figure as filed beside it. Shown as filed, NVIDIA's
// fiscal 2022 EPS ($3.85, before its 2024 10-for-1 split) stood beside
// fiscal 2023's restated $0.17, and a debater quoting it was corrected.
func splitBasis(splits factcheck.Splits, tf sectools.Fact, f xbrl.Fact) sectools.Fact {
	shares := f.Unit == "shares"
	if !splits.Any() || !shares && !strings.HasSuffix(f.Unit, "/shares") || len(f.Sources) != 1 {
		return tf
	}
	adj, note, ok := splits.Restate(f.Value, shares, f.Sources[0].Filed)
	switch {
	case !ok:
		tf.Basis = "as reported, in a filing made while a stock split took effect: before or after it cannot be told"
	case note == "":
		tf.Basis = "as reported (no stock split since its filing)"
	default:
		tf.Basis = "split-adjusted: " + note
		tf.AsReported, tf.Value = tf.Value, adj
	}
	return tf
}

func toolFact(concept, label string, f xbrl.Fact) sectools.Fact {
	tf := sectools.Fact{Concept: concept, Label: label, Unit: f.Unit, Value: f.Value, End: f.Period.End.String(),
		FiscalYear: f.Period.FiscalYear, FiscalPeriod: f.Period.FiscalPeriod}
	if f.Period.Start != 0 {
		tf.Start = f.Period.Start.String()
	}
	if len(f.Sources) > 0 {
		src := f.Sources[0]
		tf.Form, tf.Filed, tf.Accession = src.Form, src.Filed.String(), src.Accession
		if f.Derived() {
			tf.Concept = concept + " (" + f.Method + ")"
		}
	}
	return tf
}

// Ratios implements sectools.RatioCalculator.
func (a *Analyzer) Ratios(ctx context.Context, companyfacts []byte, fiscalYear int) ([]sectools.Ratio, error) {
	r, err := a.Report(companyfacts, fiscalYear)
	if err != nil {
		return nil, a.yearErr(err)
	}
	if len(r.Ratios) == 0 {
		// A year with nothing to compute is more likely the wrong year
		// than a company worth a list of gaps: ask for another.
		return nil, fmt.Errorf("%w: no ratio could be computed for FY%d: %v", tool.ErrBadArgs, r.Financials.FiscalYear, r.Gaps)
	}
	out := make([]sectools.Ratio, 0, len(r.Ratios)+len(r.Gaps))
	for _, x := range r.Ratios {
		tr := sectools.Ratio{Name: x.Name, Value: x.Value, Formula: x.Formula, FiscalYear: x.FiscalYear, Note: x.Note}
		switch x.Format {
		case analysis.Percent, analysis.Points:
			tr.Unit = "ratio"
		case analysis.Multiple:
			tr.Unit = "times"
		case analysis.USD:
			tr.Unit = cmp.Or(r.Financials.Currency, "USD")
		}
		tr.Note = strings.TrimPrefix(x.Label+" = "+x.Display()+"; "+tr.Note, "; ")
		tr.Note = strings.TrimSuffix(tr.Note, "; ")
		for _, in := range x.Inputs {
			tr.Inputs = append(tr.Inputs, toolFact(string(in.Concept), "", in))
			if tr.PeriodEnd == "" && in.Period.FiscalYear == x.FiscalYear {
				tr.PeriodEnd = in.Period.End.String()
			}
		}
		out = append(out, tr)
	}
	// The gaps go to the model too, each with its reason: left out, a
	// missing ROE reads as "not asked", not "equity is negative".
	for _, g := range r.Gaps {
		out = append(out, sectools.Ratio{Name: g.Name, FiscalYear: r.Financials.FiscalYear, NotAvailable: g.Reason})
	}
	return out, nil
}

func (a *Analyzer) yearErr(err error) error {
	if errors.Is(err, analysis.ErrThinData) {
		return fmt.Errorf("%w: %v", tool.ErrBadArgs, err)
	}
	return err
}

// Score implements sectools.FrameworkScorer.
func (a *Analyzer) Score(ctx context.Context, companyfacts []byte, fw sectools.Framework, fiscalYear int) (*sectools.FrameworkResult, error) {
	r, err := a.Report(companyfacts, fiscalYear)
	if err != nil {
		return nil, a.yearErr(err)
	}
	fy := r.Financials.FiscalYear
	switch fw {
	case sectools.Piotroski:
		p := r.Piotroski
		res := &sectools.FrameworkResult{Framework: fw, Score: float64(p.Score), MaxScore: 9, FiscalYear: fy,
			Verdict: fmt.Sprintf("%d/9", p.Score)}
		for _, c := range p.Criteria {
			pass := c.Pass
			cur := c.Current
			cr := sectools.Criterion{Name: c.Name, Passed: &pass, Detail: c.Test, Points: 0}
			if pass {
				cr.Points = 1
			}
			if !c.Missing {
				cr.Value = &cur
			} else {
				res.Notes = append(res.Notes, c.Name+" not available: "+c.Note)
			}
			for _, in := range c.Inputs {
				cr.Evidence = append(cr.Evidence, toolFact(string(in.Concept), "", in))
			}
			res.Criteria = append(res.Criteria, cr)
		}
		return res, nil
	case sectools.Altman:
		al := r.Altman
		if al.Missing {
			return nil, fmt.Errorf("%w: Altman %s FY%d is not available: %s", tool.ErrBadArgs, al.Variant, fy, al.Note)
		}
		res := &sectools.FrameworkResult{Framework: fw, Score: al.Score, FiscalYear: fy,
			Verdict: string(al.Zone) + " zone", Notes: []string{al.Why}}
		if al.Note != "" {
			res.Notes = append(res.Notes, al.Note)
		}
		for _, c := range al.Components {
			val := c.Value
			cr := sectools.Criterion{Name: c.Name, Value: &val, Points: c.Coefficient * c.Value, Detail: c.Description}
			for _, in := range c.Inputs {
				cr.Evidence = append(cr.Evidence, toolFact(string(in.Concept), "", in))
			}
			res.Criteria = append(res.Criteria, cr)
		}
		return res, nil
	}
	return nil, fmt.Errorf("%w: unknown framework %q", tool.ErrBadArgs, fw)
}

// USDMillions formats dollars as the 10-K tables do: "$215,938M".
func USDMillions(v float64) string { return MillionsIn(v, "USD") }

// MillionsIn formats an amount in currency (an ISO code) as the annual
// reports' tables do: "$215,938M", "€28,263M", "NT$2,894,300M".
func MillionsIn(v float64, currency string) string {
	m := int64(math.Round(math.Abs(v) / 1e6))
	s := fmt.Sprintf("%d", m)
	var b strings.Builder
	for i, c := range s {
		if i > 0 && (len(s)-i)%3 == 0 {
			b.WriteByte(',')
		}
		b.WriteRune(c)
	}
	sign := ""
	if v < 0 {
		sign = "-"
	}
	return sign + analysis.CurrencyPrefix(currency) + b.String() + "M"
}

func citation(srcs []xbrl.Source) string {
	var refs []string
	for _, s := range srcs {
		ref := s.Form + " " + s.Accession
		if !slices.Contains(refs, ref) {
			refs = append(refs, ref)
		}
	}
	return strings.Join(refs, "; ")
}

// Figures returns the reference figures of a report that the fact check
// holds the agents to: the main income and cash-flow lines for the fiscal
// year and the year before, and the percentage and multiple ratios of both.
func Figures(r *analysis.Report) []Figure {
	f := r.Financials
	cur := ""
	if f.Currency != "USD" {
		cur = f.Currency
	}
	var out []Figure
	lines := []struct {
		name string
		c    xbrl.Concept
	}{
		{"revenue", xbrl.Revenue}, {"net_income", xbrl.NetIncome}, {"operating_income", xbrl.OperatingIncome},
		{"gross_profit", xbrl.GrossProfit}, {"operating_cash_flow", xbrl.OperatingCashFlow},
	}
	for _, fy := range []int{f.FiscalYear, f.FiscalYear - 1} {
		for _, l := range lines {
			fact, ok := f.Annual(l.c, fy)
			if !ok {
				continue
			}
			def, _ := xbrl.Definition(l.c)
			out = append(out, Figure{Name: l.name, Label: def.Label, Kind: KindUSD, FiscalYear: fy, Value: fact.Value,
				Display: MillionsIn(fact.Value, f.Currency), Citation: citation(fact.Sources), Currency: cur})
		}
		ratios := r.Ratios
		if fy != f.FiscalYear {
			prev := *f
			prev.FiscalYear = fy
			ratios, _ = analysis.Ratios(&prev)
		}
		for _, x := range ratios {
			fig := Figure{Name: x.Name, Label: x.Label, FiscalYear: fy, Value: x.Value, Display: x.Display(), Citation: citation(x.Citations())}
			switch x.Format {
			case analysis.Percent:
				fig.Kind = KindPercent
			case analysis.Multiple:
				fig.Kind = KindMultiple
			case analysis.USD:
				fig.Kind, fig.Display, fig.Currency = KindUSD, MillionsIn(x.Value, f.Currency), cur
			default:
				continue
			}
			out = append(out, fig)
		}
	}
	return out
}

var _ sectools.ValuationCalculator = (*Analyzer)(nil)

// Valuation implements sectools.ValuationCalculator.
func (a *Analyzer) Valuation(ctx context.Context, companyfacts []byte, price *analysis.Price) (*analysis.Valuation, error) {
	cf, err := a.Parse(companyfacts)
	if err != nil {
		return nil, err
	}
	v, err := analysis.Value(cf, price)
	if errors.Is(err, analysis.ErrNoMarketValue) {
		return nil, fmt.Errorf("%w: %v", tool.ErrBadArgs, err)
	}
	return v, err
}
