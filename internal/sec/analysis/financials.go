// Package analysis computes financial ratios and scoring frameworks (Piotroski
// F-score, Altman Z) from XBRL facts, and turns them into the evidence that
// the data-only bull and bear agents argue from.
//
// Everything here is deterministic arithmetic over xbrl.Fact values; every
// number keeps the reported facts it came from so that an agent can cite the
// filing (form, accession, filing date, tag, period).
package analysis

import (
	"errors"
	"fmt"
	"slices"

	"github.com/parleyhq/parley/internal/sec/xbrl"
)

// Options selects what to analyse.
type Options struct {
	// FiscalYear is the year to analyse; 0 means the latest fiscal year with
	// annual revenue (or, failing that, net income).
	FiscalYear int
	// SIC is the filer's Standard Industrial Classification code from EDGAR
	// submissions; it decides which Altman model applies. 0 means unknown.
	SIC int
}

// Financials is the annual view of one company's facts that ratios and
// frameworks read.
type Financials struct {
	Company    string
	CIK        int64
	FiscalYear int
	SIC        int
	// Currency is the ISO code of the currency the filer's amounts are in
	// ("USD", "EUR", "TWD"): every amount of the analysis is in it, and
	// no amount in another currency is combined with them.
	Currency string
	// CurrencyNote says which currency was read for a filer that reports
	// in several, and that the others' figures are left out; "" otherwise.
	CurrencyNote string
	series       map[xbrl.Concept]*xbrl.Series
	// cf is the facts the series were resolved from, for a figure as one
	// filing states it (pioShares).
	cf *xbrl.CompanyFacts
}

// ErrThinData is wrapped when a company has too little reported data to
// analyse (no annual revenue or net income).
var ErrThinData = errors.New("insufficient annual data")

// Load resolves every known concept once and picks the fiscal year.
func Load(cf *xbrl.CompanyFacts, opts Options) (*Financials, error) {
	if cf == nil {
		return nil, errors.New("analysis: nil company facts")
	}
	f := &Financials{Company: cf.EntityName, CIK: cf.CIK, SIC: opts.SIC, Currency: cf.Currency(), CurrencyNote: cf.CurrencyNote(),
		series: make(map[xbrl.Concept]*xbrl.Series), cf: cf}
	for _, c := range xbrl.Concepts() {
		s, err := cf.Series(c)
		if errors.Is(err, xbrl.ErrNoData) {
			continue // absent concepts show up as gaps where they are needed
		}
		if err != nil {
			return nil, fmt.Errorf("analysis: load %s: %w", c, err)
		}
		f.series[c] = s
	}
	f.FiscalYear = opts.FiscalYear
	if f.FiscalYear == 0 {
		for _, c := range []xbrl.Concept{xbrl.Revenue, xbrl.NetIncome} {
			if s := f.series[c]; s != nil {
				if fact, ok := s.LatestAnnual(); ok {
					f.FiscalYear = fact.Period.FiscalYear
					break
				}
			}
		}
	}
	if f.FiscalYear == 0 {
		if why := cf.Unavailable(); why != "" {
			return nil, fmt.Errorf("analysis: %s (CIK %d): %w: %s", cf.EntityName, cf.CIK, ErrThinData, why)
		}
		return nil, fmt.Errorf("analysis: %s (CIK %d): %w: no annual revenue or net income in any 10-K; "+
			"analysis needs at least one annual report", cf.EntityName, cf.CIK, ErrThinData)
	}
	return f, nil
}

// Annual returns concept c for fiscal year fy (a full-year flow or a
// year-end balance). Gross profit falls back to revenue minus cost of
// revenue for filers, such as Alphabet, that do not report it.
func (f *Financials) Annual(c xbrl.Concept, fy int) (xbrl.Fact, bool) {
	if s := f.series[c]; s != nil {
		if fact, ok := s.Annual(fy); ok {
			return fact, true
		}
	}
	if c == xbrl.GrossProfit {
		rev, ok1 := f.Annual(xbrl.Revenue, fy)
		cost, ok2 := f.Annual(xbrl.CostOfRevenue, fy)
		if ok1 && ok2 {
			return xbrl.Fact{
				Concept: xbrl.GrossProfit,
				Value:   rev.Value - cost.Value,
				Unit:    rev.Unit,
				Period:  rev.Period,
				Method:  "Revenue - CostOfRevenue",
				Sources: append(slices.Clone(rev.Sources), cost.Sources...),
			}, true
		}
	}
	return xbrl.Fact{}, false
}

// Series returns the resolved series of a concept, or nil if the filer never
// reported it.
func (f *Financials) Series(c xbrl.Concept) *xbrl.Series { return f.series[c] }

// need fetches the named concepts for fy, or reports which are missing.
func (f *Financials) need(fy int, cs ...xbrl.Concept) ([]xbrl.Fact, error) {
	out := make([]xbrl.Fact, len(cs))
	var missing []string
	for i, c := range cs {
		fact, ok := f.Annual(c, fy)
		if !ok {
			missing = append(missing, fmt.Sprintf("%s FY%d", c, fy))
			continue
		}
		out[i] = fact
	}
	if len(missing) > 0 {
		return nil, fmt.Errorf("missing %v: %w", missing, xbrl.ErrNoData)
	}
	return out, nil
}
