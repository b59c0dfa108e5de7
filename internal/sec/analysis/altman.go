package analysis

import (
	"fmt"
	"strings"

	"github.com/parleyhq/parley/internal/sec/xbrl"
)

// Altman model variants.
const (
	// AltmanZ is the original 1968 model for public manufacturers.
	AltmanZ = "Z"
	// AltmanZDoublePrime is the 1995 Z'' model for non-manufacturers and
	// emerging-market firms; it drops the sales/assets term, which varies
	// too much across industries, and uses book equity.
	AltmanZDoublePrime = "Z''"
)

// Zone is an Altman distress zone.
type Zone string

// Zones.
const (
	ZoneSafe     Zone = "safe"
	ZoneGrey     Zone = "grey"
	ZoneDistress Zone = "distress"
)

// Component is one weighted term of an Altman score.
type Component struct {
	Name        string // "X1"
	Description string // "working capital / total assets"
	Coefficient float64
	Value       float64
	Inputs      []xbrl.Fact
}

// AltmanResult is an Altman Z or Z” score.
type AltmanResult struct {
	FiscalYear int
	// Variant is AltmanZ or AltmanZDoublePrime.
	Variant string
	// Why explains the choice of variant.
	Why        string
	Score      float64
	Zone       Zone
	Components []Component
	// SafeAbove and DistressBelow are the zone cut-offs of the variant.
	SafeAbove, DistressBelow float64
	// Missing is set when the score could not be given: a required input was
	// not reported or is not positive, or the model does not apply to the
	// filer (a bank or insurer). Score is then meaningless and Note says why.
	Missing bool
	Note    string
}

// Name implements FrameworkResult.
func (AltmanResult) Name() string { return "altman" }

// Summary renders the score, zone and components.
func (a AltmanResult) Summary() string {
	var b strings.Builder
	if a.Missing {
		fmt.Fprintf(&b, "Altman %s FY%d: not available (%s)\n", a.Variant, a.FiscalYear, a.Note)
		return b.String()
	}
	fmt.Fprintf(&b, "Altman %s FY%d: %.2f, %s zone (safe above %.2f, distress below %.2f). %s\n",
		a.Variant, a.FiscalYear, a.Score, a.Zone, a.SafeAbove, a.DistressBelow, a.Why)
	for _, c := range a.Components {
		fmt.Fprintf(&b, "  %s = %s = %.4f (x %.2f = %.3f)\n", c.Name, c.Description, c.Value, c.Coefficient, c.Coefficient*c.Value)
	}
	if a.Note != "" {
		fmt.Fprintf(&b, "  Note: %s\n", a.Note)
	}
	return b.String()
}

// isManufacturer reports whether an SIC code is in Division D,
// Manufacturing (2000-3999), the population of Altman's original sample.
func isManufacturer(sic int) bool { return sic >= 2000 && sic <= 3999 }

// isFinancial reports whether an SIC code is a bank, lender, broker or
// insurer (6000-6399). Their balance sheets have no working capital and
// leverage is their business, so neither Z nor Z” measures their distress:
// Altman's samples excluded them.
func isFinancial(sic int) bool { return sic >= 6000 && sic <= 6399 }

// Altman computes the Altman score for f.FiscalYear. It gives none for a
// financial company (see isFinancial) and says so.
//
// Manufacturers (SIC 2000-3999) get the original Z:
//
//	Z = 1.2 X1 + 1.4 X2 + 3.3 X3 + 0.6 X4 + 1.0 X5, safe > 2.99, distress < 1.81
//
// with X4 = market value of equity / total liabilities. Market value comes
// from the public float on the 10-K cover page (dei:EntityPublicFloat,
// measured mid-year and excluding affiliates' holdings, so it understates
// market capitalisation). Everyone else, and manufacturers without a public
// float, get Z”:
//
//	Z'' = 6.56 X1 + 3.26 X2 + 6.72 X3 + 1.05 X4, safe > 2.60, distress < 1.10
//
// with X4 = book equity / total liabilities. Common terms: X1 = working
// capital / total assets, X2 = retained earnings / total assets, X3 = EBIT
// (operating income) / total assets, X5 = revenue / total assets.
func Altman(f *Financials) AltmanResult {
	t := f.FiscalYear
	res := AltmanResult{FiscalYear: t, Variant: AltmanZDoublePrime}
	manufacturer := isManufacturer(f.SIC)
	var float xbrl.Fact
	var haveFloat bool
	if s := f.Series(xbrl.PublicFloat); s != nil {
		float, haveFloat = s.InFiscalYear(t, xbrl.Instant)
	}
	floatElsewhere := ""
	if haveFloat && Currency(float.Unit) != f.Currency && f.Currency != "" {
		// A market value in dollars over liabilities in euros is no
		// ratio, and Parley does not convert currencies.
		floatElsewhere, haveFloat = Currency(float.Unit), false
	}
	switch {
	case isFinancial(f.SIC):
		res.Missing = true
		res.Note = fmt.Sprintf("the model does not apply to banks, lenders, brokers and insurers (SIC %d): "+
			"they have no working capital and leverage is their business", f.SIC)
		return res
	case f.SIC == 0:
		res.Why = "SIC code unknown, so the non-manufacturer Z'' applies (it does not depend on industry asset turnover)."
	case manufacturer && haveFloat:
		res.Variant = AltmanZ
		res.Why = fmt.Sprintf("SIC %d is manufacturing (2000-3999), so the original Z for public manufacturers applies.", f.SIC)
	case manufacturer && floatElsewhere != "":
		res.Why = fmt.Sprintf("SIC %d is manufacturing, but the public float is in %s and the statements in %s (Parley does not convert currencies), so Z'' (book equity) is used.",
			f.SIC, floatElsewhere, f.Currency)
	case manufacturer:
		res.Why = fmt.Sprintf("SIC %d is manufacturing, but no public float was reported for FY%d, so Z'' (book equity) is used.", f.SIC, t)
	default:
		res.Why = fmt.Sprintf("SIC %d is not manufacturing (2000-3999), so the non-manufacturer Z'' applies.", f.SIC)
	}

	in, err := f.need(t, xbrl.CurrentAssets, xbrl.CurrentLiabilities, xbrl.TotalAssets, xbrl.RetainedEarnings,
		xbrl.EBIT, xbrl.TotalLiabilities)
	if err == nil && res.Variant == AltmanZ {
		var rev []xbrl.Fact
		rev, err = f.need(t, xbrl.Revenue)
		in = append(in, rev...)
	} else if err == nil {
		var eq []xbrl.Fact
		eq, err = f.need(t, xbrl.StockholdersEquity)
		in = append(in, eq...)
	}
	if err != nil {
		res.Missing, res.Note = true, err.Error()
		return res
	}
	ca, cl, ta, re, ebit, tl := in[0], in[1], in[2], in[3], in[4], in[5]
	if ta.Value <= 0 || tl.Value <= 0 {
		res.Missing, res.Note = true, "total assets and total liabilities must be positive"
		return res
	}
	x1 := Component{Name: "X1", Description: "working capital / total assets", Value: (ca.Value - cl.Value) / ta.Value,
		Inputs: []xbrl.Fact{ca, cl, ta}}
	x2 := Component{Name: "X2", Description: "retained earnings / total assets", Value: re.Value / ta.Value,
		Inputs: []xbrl.Fact{re, ta}}
	x3 := Component{Name: "X3", Description: "EBIT (operating income) / total assets", Value: ebit.Value / ta.Value,
		Inputs: []xbrl.Fact{ebit, ta}}
	if res.Variant == AltmanZ {
		rev := in[6]
		x1.Coefficient, x2.Coefficient, x3.Coefficient = 1.2, 1.4, 3.3
		x4 := Component{Name: "X4", Description: "market value of equity (public float) / total liabilities", Coefficient: 0.6,
			Value: float.Value / tl.Value, Inputs: []xbrl.Fact{float, tl}}
		x5 := Component{Name: "X5", Description: "revenue / total assets", Coefficient: 1.0,
			Value: rev.Value / ta.Value, Inputs: []xbrl.Fact{rev, ta}}
		res.Components = []Component{x1, x2, x3, x4, x5}
		res.SafeAbove, res.DistressBelow = 2.99, 1.81
		res.Note = fmt.Sprintf("market value is the public float at %s (excludes affiliates' shares)", float.Period.End)
	} else {
		eq := in[6]
		x1.Coefficient, x2.Coefficient, x3.Coefficient = 6.56, 3.26, 6.72
		x4 := Component{Name: "X4", Description: "book equity / total liabilities", Coefficient: 1.05,
			Value: eq.Value / tl.Value, Inputs: []xbrl.Fact{eq, tl}}
		res.Components = []Component{x1, x2, x3, x4}
		res.SafeAbove, res.DistressBelow = 2.60, 1.10
	}
	for _, c := range res.Components {
		res.Score += c.Coefficient * c.Value
	}
	switch {
	case res.Score > res.SafeAbove:
		res.Zone = ZoneSafe
	case res.Score < res.DistressBelow:
		res.Zone = ZoneDistress
	default:
		res.Zone = ZoneGrey
	}
	return res
}
