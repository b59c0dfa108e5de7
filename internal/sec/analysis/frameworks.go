package analysis

import (
	"fmt"
	"strings"

	"github.com/parleyhq/parley/internal/sec/xbrl"
)

// FrameworkResult is the outcome of a framework, printable as context for a
// debate ("Framework Analysis (piotroski): ...").
type FrameworkResult interface {
	// Name is the framework's registry name.
	Name() string
	// Summary is a multi-line plain-text account of the result and its inputs.
	Summary() string
}

// Evaluator is a named scoring framework.
type Evaluator interface {
	Name() string
	Description() string
	Evaluate(f *Financials) (FrameworkResult, error)
}

type piotroskiFramework struct{}

func (piotroskiFramework) Name() string { return "piotroski" }
func (piotroskiFramework) Description() string {
	return "Piotroski F-score: nine pass/fail tests of profitability, leverage/liquidity and efficiency (0-9)"
}
func (piotroskiFramework) Evaluate(f *Financials) (FrameworkResult, error) {
	return Piotroski(f), nil
}

type altmanFramework struct{}

func (altmanFramework) Name() string { return "altman" }
func (altmanFramework) Description() string {
	return "Altman Z (manufacturers) or Z'' (others): bankruptcy-risk score with safe/grey/distress zones"
}
func (altmanFramework) Evaluate(f *Financials) (FrameworkResult, error) {
	a := Altman(f)
	if a.Missing {
		return a, fmt.Errorf("analysis: altman FY%d: %s: %w", a.FiscalYear, a.Note, xbrl.ErrNoData)
	}
	return a, nil
}

// frameworks is the registry, built fresh per call so there is no shared
// mutable table.
func frameworks() []Evaluator {
	return []Evaluator{altmanFramework{}, piotroskiFramework{}}
}

// FrameworkNames lists the registered frameworks, sorted.
func FrameworkNames() []string {
	var names []string
	for _, fw := range frameworks() {
		names = append(names, fw.Name())
	}
	return names
}

// Framework returns the framework registered under name (case-insensitive).
// An unknown name is an error that lists the known ones.
func Framework(name string) (Evaluator, error) {
	for _, fw := range frameworks() {
		if strings.EqualFold(fw.Name(), strings.TrimSpace(name)) {
			return fw, nil
		}
	}
	return nil, fmt.Errorf("analysis: unknown framework %q; known frameworks: %s", name, strings.Join(FrameworkNames(), ", "))
}

// Report is everything computed for one company and fiscal year.
type Report struct {
	Financials *Financials
	Ratios     []Ratio
	// Gaps are ratios that could not be computed.
	Gaps      []Gap
	Piotroski PiotroskiResult
	Altman    AltmanResult
}

// Ratio returns the named ratio.
func (r *Report) Ratio(name string) (Ratio, bool) {
	for _, x := range r.Ratios {
		if x.Name == name {
			return x, true
		}
	}
	return Ratio{}, false
}

// Analyze loads the facts and computes every ratio and framework.
func Analyze(cf *xbrl.CompanyFacts, opts Options) (*Report, error) {
	f, err := Load(cf, opts)
	if err != nil {
		return nil, err
	}
	return AnalyzeFinancials(f), nil
}

// AnalyzeFinancials computes every ratio and framework for loaded financials.
func AnalyzeFinancials(f *Financials) *Report {
	r := &Report{Financials: f}
	r.Ratios, r.Gaps = Ratios(f)
	r.Piotroski = Piotroski(f)
	r.Altman = Altman(f)
	return r
}
