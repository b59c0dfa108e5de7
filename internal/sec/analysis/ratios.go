package analysis

import (
	"fmt"
	"strings"

	"github.com/parleyhq/parley/internal/sec/xbrl"
)

// Format says how a value should be shown.
type Format uint8

// Formats.
const (
	// Percent is a fraction shown as a percentage (0.655 → "65.5%").
	Percent Format = iota
	// Points is a change in a fraction shown in percentage points.
	Points
	// Multiple is a ratio shown as "1.23x".
	Multiple
	// USD is an amount of money, in the currency of the filer's figures
	// (the unit of the inputs: dollars for most filers, euros for a filer
	// reporting in euros); FormatValue writes it in dollars, Ratio.Display
	// in the currency of its inputs.
	USD
	// Number is a plain score.
	Number
)

// FormatValue renders v in format f.
func FormatValue(v float64, f Format) string {
	switch f {
	case Percent:
		return fmt.Sprintf("%.1f%%", v*100)
	case Points:
		return fmt.Sprintf("%+.1f pts", v*100)
	case Multiple:
		return fmt.Sprintf("%.2fx", v)
	case USD:
		return FormatMoney(v, "USD")
	}
	return fmt.Sprintf("%.2f", v)
}

// Ratio is one computed metric with the facts it was computed from.
type Ratio struct {
	// Name is a stable identifier, e.g. "revenue_growth".
	Name       string
	Label      string
	FiscalYear int
	Value      float64
	Format     Format
	// Formula names the inputs, e.g. "Revenue FY2026 / Revenue FY2025 - 1".
	Formula string
	// Inputs are the facts in the order Formula names them.
	Inputs []xbrl.Fact
	// Note flags something a reader should know (mixed tags, fallbacks).
	Note string
}

// Display renders the value; an amount in the currency of its inputs
// ("€10.1B" for a filer reporting in euros).
func (r Ratio) Display() string {
	if r.Format == USD && len(r.Inputs) > 0 {
		return FormatMoney(r.Value, Currency(r.Inputs[0].Unit))
	}
	return FormatValue(r.Value, r.Format)
}

// Citations flattens the sources of all inputs.
func (r Ratio) Citations() []xbrl.Source {
	var out []xbrl.Source
	for _, in := range r.Inputs {
		out = append(out, in.Sources...)
	}
	return out
}

// Gap is a metric that could not be computed, and why.
type Gap struct {
	Name   string
	Reason string
}

// RatioNames lists the ratios Ratios computes, in order.
func RatioNames() []string {
	return []string{
		"revenue_growth", "net_income_growth", "gross_margin", "gross_margin_change",
		"operating_margin", "operating_margin_change", "net_margin", "roa", "roe",
		"debt_to_equity", "leverage", "current_ratio", "free_cash_flow", "fcf_margin",
		"cash_conversion", "rd_intensity", "asset_turnover",
	}
}

// Ratios computes every ratio for f.FiscalYear. A ratio whose inputs are
// missing or meaningless (a negative denominator) is reported as a Gap.
//
// Balance-sheet ratios use year-end balances, not averages, so that each
// ratio cites exactly one balance sheet; the Piotroski score follows its own
// paper's definitions instead.
func Ratios(f *Financials) ([]Ratio, []Gap) {
	var rs []Ratio
	var gaps []Gap
	t := f.FiscalYear
	add := func(r Ratio, err error) {
		if err != nil {
			gaps = append(gaps, Gap{Name: r.Name, Reason: err.Error()})
			return
		}
		r.FiscalYear = t
		r.Note = joinNotes(r.Note, mixedTags(r.Inputs))
		rs = append(rs, r)
	}
	add(growth(f, "revenue_growth", "Revenue growth (YoY)", xbrl.Revenue, t))
	add(growth(f, "net_income_growth", "Net income growth (YoY)", xbrl.NetIncome, t))
	add(quotient(f, "gross_margin", "Gross margin", Percent, t, xbrl.GrossProfit, xbrl.Revenue))
	add(marginChange(f, "gross_margin_change", "Gross margin change (YoY)", xbrl.GrossProfit, t))
	add(quotient(f, "operating_margin", "Operating margin", Percent, t, xbrl.OperatingIncome, xbrl.Revenue))
	add(marginChange(f, "operating_margin_change", "Operating margin change (YoY)", xbrl.OperatingIncome, t))
	add(quotient(f, "net_margin", "Net margin", Percent, t, xbrl.NetIncome, xbrl.Revenue))
	add(quotient(f, "roa", "Return on assets", Percent, t, xbrl.NetIncome, xbrl.TotalAssets))
	add(quotient(f, "roe", "Return on equity", Percent, t, xbrl.NetIncome, xbrl.StockholdersEquity))
	add(debtToEquity(f, t))
	add(quotient(f, "leverage", "Liabilities to assets", Percent, t, xbrl.TotalLiabilities, xbrl.TotalAssets))
	add(quotient(f, "current_ratio", "Current ratio", Multiple, t, xbrl.CurrentAssets, xbrl.CurrentLiabilities))
	add(freeCashFlow(f, t))
	add(fcfMargin(f, t))
	add(quotient(f, "cash_conversion", "Cash conversion (OCF / net income)", Multiple, t, xbrl.OperatingCashFlow, xbrl.NetIncome))
	add(quotient(f, "rd_intensity", "R&D to revenue", Percent, t, xbrl.ResearchAndDevelopment, xbrl.Revenue))
	add(quotient(f, "asset_turnover", "Asset turnover", Multiple, t, xbrl.Revenue, xbrl.TotalAssets))
	return rs, gaps
}

// quotient is num/den for one year. Denominators must be positive: a margin
// on negative revenue or a return on negative equity has no meaning.
func quotient(f *Financials, name, label string, format Format, fy int, num, den xbrl.Concept) (Ratio, error) {
	r := Ratio{Name: name, Label: label, Format: format,
		Formula: fmt.Sprintf("%s FY%d / %s FY%d", num, fy, den, fy)}
	in, err := f.need(fy, num, den)
	if err != nil {
		return r, err
	}
	if in[1].Value <= 0 {
		return r, fmt.Errorf("%s FY%d is %s, not positive, so %s is not meaningful", den, fy, FormatMoney(in[1].Value, Currency(in[1].Unit)), lowerFirst(label))
	}
	r.Value, r.Inputs = in[0].Value/in[1].Value, in
	return r, nil
}

func growth(f *Financials, name, label string, c xbrl.Concept, fy int) (Ratio, error) {
	r := Ratio{Name: name, Label: label, Format: Percent,
		Formula: fmt.Sprintf("%s FY%d / %s FY%d - 1", c, fy, c, fy-1)}
	cur, err := f.need(fy, c)
	if err != nil {
		return r, err
	}
	prev, err := f.need(fy-1, c)
	if err != nil {
		return r, err
	}
	if prev[0].Value <= 0 {
		return r, fmt.Errorf("%s FY%d is %s; growth from a non-positive base is undefined", c, fy-1, FormatMoney(prev[0].Value, Currency(prev[0].Unit)))
	}
	r.Value = cur[0].Value/prev[0].Value - 1
	r.Inputs = []xbrl.Fact{cur[0], prev[0]}
	return r, nil
}

func marginChange(f *Financials, name, label string, c xbrl.Concept, fy int) (Ratio, error) {
	r := Ratio{Name: name, Label: label, Format: Points,
		Formula: fmt.Sprintf("%s/Revenue FY%d - %s/Revenue FY%d", c, fy, c, fy-1)}
	cur, err := f.need(fy, c, xbrl.Revenue)
	if err != nil {
		return r, err
	}
	prev, err := f.need(fy-1, c, xbrl.Revenue)
	if err != nil {
		return r, err
	}
	if cur[1].Value <= 0 || prev[1].Value <= 0 {
		return r, fmt.Errorf("revenue is not positive in FY%d or FY%d", fy, fy-1)
	}
	r.Value = cur[0].Value/cur[1].Value - prev[0].Value/prev[1].Value
	r.Inputs = append(cur, prev...)
	return r, nil
}

func debtToEquity(f *Financials, fy int) (Ratio, error) {
	r := Ratio{Name: "debt_to_equity", Label: "Debt to equity", Format: Multiple,
		Formula: fmt.Sprintf("(LongTermDebt + LongTermDebtCurrent) FY%d / StockholdersEquity FY%d", fy, fy)}
	in, err := f.need(fy, xbrl.LongTermDebt, xbrl.StockholdersEquity)
	if err != nil {
		return r, err
	}
	if in[1].Value <= 0 {
		return r, fmt.Errorf("StockholdersEquity FY%d is %s; debt to equity is undefined for non-positive equity", fy, FormatMoney(in[1].Value, Currency(in[1].Unit)))
	}
	debt := in[0].Value
	r.Inputs = in
	if cur, ok := f.Annual(xbrl.LongTermDebtCurrent, fy); ok {
		debt += cur.Value
		r.Inputs = append(r.Inputs, cur)
	} else {
		r.Note = "no current portion of long-term debt reported; non-current debt only"
	}
	r.Value = debt / in[1].Value
	return r, nil
}

func freeCashFlow(f *Financials, fy int) (Ratio, error) {
	r := Ratio{Name: "free_cash_flow", Label: "Free cash flow", Format: USD,
		Formula: fmt.Sprintf("OperatingCashFlow FY%d - CapitalExpenditure FY%d", fy, fy)}
	in, err := f.need(fy, xbrl.OperatingCashFlow, xbrl.CapitalExpenditure)
	if err != nil {
		return r, err
	}
	r.Value, r.Inputs = in[0].Value-in[1].Value, in
	return r, nil
}

func fcfMargin(f *Financials, fy int) (Ratio, error) {
	r := Ratio{Name: "fcf_margin", Label: "Free cash flow margin", Format: Percent,
		Formula: fmt.Sprintf("(OperatingCashFlow - CapitalExpenditure) FY%d / Revenue FY%d", fy, fy)}
	in, err := f.need(fy, xbrl.OperatingCashFlow, xbrl.CapitalExpenditure, xbrl.Revenue)
	if err != nil {
		return r, err
	}
	if in[2].Value <= 0 {
		return r, fmt.Errorf("revenue FY%d is not positive", fy)
	}
	r.Value, r.Inputs = (in[0].Value-in[1].Value)/in[2].Value, in
	return r, nil
}

// mixedTags notes when the same concept was read from different tags in
// different years, because a growth rate across a tag change may compare
// differently defined figures.
func mixedTags(in []xbrl.Fact) string {
	seen := map[xbrl.Concept]string{}
	for _, f := range in {
		if f.Derived() || len(f.Sources) == 0 {
			continue
		}
		tag := f.Sources[0].Tag
		if prev, ok := seen[f.Concept]; ok && prev != tag {
			return fmt.Sprintf("%s read from different tags (%s, %s) in different years", f.Concept, prev, tag)
		}
		seen[f.Concept] = tag
	}
	return ""
}

func joinNotes(notes ...string) string {
	var keep []string
	for _, n := range notes {
		if n != "" {
			keep = append(keep, n)
		}
	}
	return strings.Join(keep, "; ")
}
