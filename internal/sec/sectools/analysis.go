package sectools

import "context"

// The computations over XBRL company facts live in other packages; the tools
// depend only on these small interfaces, which those packages (or thin
// adapters over them) satisfy. Each receives the companyfacts JSON document
// exactly as EDGAR serves it: the Body of the Source's answer, which the Set
// keeps for its later calls and never modifies, so an implementation may
// keep references into it (bullbear.Analyzer does).
//
// Errors the model caused (an unknown concept, a fiscal year without data)
// should wrap tool.ErrBadArgs, so that the model is told and can try again.

// FactQuery asks for reported values of XBRL concepts.
type FactQuery struct {
	// Concepts are us-gaap (or dei) concept names, such as "Revenues" or
	// "us-gaap:NetIncomeLoss".
	Concepts []string
	// Period is "annual" (10-K, full fiscal years), "quarterly" or "" for both.
	Period string
	// Limit is the number of most recent values wanted per concept.
	Limit int
}

// Fact is one reported value with the provenance an agent needs to cite it.
type Fact struct {
	Concept      string  `json:"concept"`
	Label        string  `json:"label,omitempty"`
	Unit         string  `json:"unit"`
	Value        float64 `json:"value"`
	Start        string  `json:"start,omitempty"` // YYYY-MM-DD; empty for instants
	End          string  `json:"end"`             // YYYY-MM-DD
	FiscalYear   int     `json:"fy,omitempty"`
	FiscalPeriod string  `json:"fp,omitempty"` // FY, Q1, ...
	Form         string  `json:"form"`         // the filing that reported it
	Filed        string  `json:"filed"`
	Accession    string  `json:"accession"`
	Frame        string  `json:"frame,omitempty"` // e.g. CY2025
	// Basis says on what footing a figure a share or a share count is
	// stated when the filer has split its stock: "split-adjusted" (Value
	// restated for the splits after its filing, AsReported the figure as
	// filed) or "as reported" (no split since). Empty for other figures.
	Basis      string  `json:"basis,omitempty"`
	AsReported float64 `json:"as_reported,omitempty"`
}

// FactFinder looks up reported facts.
type FactFinder interface {
	Facts(ctx context.Context, companyfacts []byte, q FactQuery) ([]Fact, error)
}

// FactFinderFunc adapts a function to FactFinder.
type FactFinderFunc func(ctx context.Context, companyfacts []byte, q FactQuery) ([]Fact, error)

// Facts implements FactFinder.
func (f FactFinderFunc) Facts(ctx context.Context, companyfacts []byte, q FactQuery) ([]Fact, error) {
	return f(ctx, companyfacts, q)
}

// Ratio is one computed financial ratio and the facts it came from.
type Ratio struct {
	Name       string  `json:"name"`           // "gross_margin", "current_ratio", ...
	Value      float64 `json:"value"`          // as a fraction or multiple, per Unit
	Unit       string  `json:"unit,omitempty"` // "ratio", "percent", "times", "days"
	Formula    string  `json:"formula,omitempty"`
	FiscalYear int     `json:"fy,omitempty"`
	PeriodEnd  string  `json:"period_end,omitempty"`
	Inputs     []Fact  `json:"inputs,omitempty"`
	Note       string  `json:"note,omitempty"`
	// NotAvailable, when set, is why the ratio could not be computed
	// (missing inputs, a loss or negative equity under it); Value is then
	// meaningless. The ratios tool lists such ratios apart, so that a model
	// can tell "not available because X" from "not computed".
	NotAvailable string `json:"-"`
}

// Unavailable is a ratio that could not be computed, and why.
type Unavailable struct {
	Name   string `json:"name"`
	Reason string `json:"reason"`
}

// RatioCalculator computes ratios for a fiscal year (0: the latest with
// data), including those it cannot compute, with NotAvailable saying why.
type RatioCalculator interface {
	Ratios(ctx context.Context, companyfacts []byte, fiscalYear int) ([]Ratio, error)
}

// RatioCalculatorFunc adapts a function to RatioCalculator.
type RatioCalculatorFunc func(ctx context.Context, companyfacts []byte, fiscalYear int) ([]Ratio, error)

// Ratios implements RatioCalculator.
func (f RatioCalculatorFunc) Ratios(ctx context.Context, companyfacts []byte, fiscalYear int) ([]Ratio, error) {
	return f(ctx, companyfacts, fiscalYear)
}

// Framework names a scoring framework.
type Framework string

// Frameworks the framework tool offers.
const (
	Piotroski Framework = "piotroski" // Piotroski F-score, 0–9
	Altman    Framework = "altman"    // Altman Z-score
)

// Criterion is one test or component of a framework score.
type Criterion struct {
	Name     string   `json:"name"`
	Value    *float64 `json:"value,omitempty"`  // the computed quantity, if any
	Passed   *bool    `json:"passed,omitempty"` // for pass/fail tests (Piotroski)
	Points   float64  `json:"points"`           // contribution to the score
	Detail   string   `json:"detail,omitempty"`
	Evidence []Fact   `json:"evidence,omitempty"`
}

// FrameworkResult is a framework's score with its workings.
type FrameworkResult struct {
	Framework  Framework   `json:"framework"`
	Score      float64     `json:"score"`
	MaxScore   float64     `json:"max_score,omitempty"` // 9 for Piotroski; 0 when unbounded
	Verdict    string      `json:"verdict,omitempty"`   // "strong", "distress zone", ...
	FiscalYear int         `json:"fy,omitempty"`
	Criteria   []Criterion `json:"criteria"`
	Notes      []string    `json:"notes,omitempty"` // "<criterion> not available: <why>", substitutions
}

// FrameworkScorer scores a framework for a fiscal year (0: the latest with
// data).
type FrameworkScorer interface {
	Score(ctx context.Context, companyfacts []byte, f Framework, fiscalYear int) (*FrameworkResult, error)
}

// FrameworkScorerFunc adapts a function to FrameworkScorer.
type FrameworkScorerFunc func(ctx context.Context, companyfacts []byte, f Framework, fiscalYear int) (*FrameworkResult, error)

// Score implements FrameworkScorer.
func (f FrameworkScorerFunc) Score(ctx context.Context, companyfacts []byte, fw Framework, fiscalYear int) (*FrameworkResult, error) {
	return f(ctx, companyfacts, fw, fiscalYear)
}
