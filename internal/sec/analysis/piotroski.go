package analysis

import (
	"errors"
	"fmt"
	"math"
	"strconv"
	"strings"

	"github.com/parleyhq/parley/internal/sec/xbrl"
)

// Criterion is one test of a scoring framework.
type Criterion struct {
	// Name is a stable identifier, e.g. "roa_positive".
	Name string
	// Test states the rule, e.g. "ROA > 0".
	Test string
	Pass bool
	// Missing is true when an input was not reported; the criterion then
	// scores 0 and Note names what is missing.
	Missing bool
	// Current and Prior are the compared values (Prior is unused by level
	// tests such as "ROA > 0").
	Current, Prior float64
	Inputs         []xbrl.Fact
	Note           string
}

// PiotroskiResult is the Piotroski F-score for one fiscal year.
type PiotroskiResult struct {
	FiscalYear int
	// Score counts passed criteria (0-9).
	Score int
	// Evaluated counts criteria whose inputs were all reported; a criterion
	// with missing data fails, so Score is a lower bound when Evaluated < 9.
	Evaluated int
	Criteria  [9]Criterion
}

// Name implements FrameworkResult.
func (PiotroskiResult) Name() string { return "piotroski" }

// Summary renders the score and each criterion on its own line.
func (p PiotroskiResult) Summary() string {
	var b strings.Builder
	fmt.Fprintf(&b, "Piotroski F-score FY%d: %d/9 (%d of 9 criteria had complete data)\n", p.FiscalYear, p.Score, p.Evaluated)
	for i, c := range p.Criteria {
		mark := "FAIL"
		if c.Pass {
			mark = "PASS"
		}
		if c.Missing {
			mark = "N/A "
		}
		fmt.Fprintf(&b, "%d. [%s] %s", i+1, mark, c.Test)
		if !c.Missing {
			fmt.Fprintf(&b, ": %s", c.figure(c.Current))
			if c.Prior != 0 || strings.Contains(c.Test, "vs") {
				fmt.Fprintf(&b, " vs %s", c.figure(c.Prior))
			}
		}
		if c.Note != "" {
			fmt.Fprintf(&b, " (%s)", c.Note)
		}
		b.WriteByte('\n')
	}
	return b.String()
}

// figure writes a compared value: a ratio to four significant digits; an
// amount the criterion compares as reported (operating cash flow, net
// income, shares outstanding) in millions of its unit, as the reports'
// key figures are written ("$102,718M", "€11,167M", "24,300M shares"), where %g wrote
// "1.027e+11" for the reader and the agents to decode.
func (c Criterion) figure(v float64) string {
	unit := ""
	for i, in := range c.Inputs {
		if i > 0 && in.Unit != unit {
			unit = ""
			break
		}
		unit = in.Unit
	}
	cur := Currency(unit)
	if math.Abs(v) < 1e6 || (cur == "" && unit != "shares") {
		return fmt.Sprintf("%.4g", v)
	}
	m := math.Round(v / 1e6)
	sign := ""
	if m < 0 {
		sign, m = "-", -m
	}
	digits := strconv.FormatFloat(m, 'f', 0, 64)
	for i := len(digits) - 3; i > 0; i -= 3 {
		digits = digits[:i] + "," + digits[i:]
	}
	if cur != "" {
		return sign + CurrencyPrefix(cur) + digits + "M"
	}
	return sign + digits + "M shares"
}

// firstGap names the first criterion that lacked data and why, e.g.
// "roa_improving: missing [TotalAssets FY2022]: no data", as one short
// reason for a score too incomplete to use; "" when none lacked data.
func (p PiotroskiResult) firstGap() string {
	for _, c := range p.Criteria {
		if c.Missing {
			return c.Name + ": " + c.Note
		}
	}
	return ""
}

// Piotroski computes the nine-point F-score of Piotroski (2000), "Value
// Investing: The Use of Historical Financial Statement Information to
// Separate Winners from Losers", for fiscal year t = f.FiscalYear:
//
//  1. ROA > 0, ROA = net income / total assets at the start of the year
//  2. operating cash flow > 0
//  3. ΔROA > 0 (ROA of t vs ROA of t-1, each on opening assets)
//  4. accruals: operating cash flow > net income (both over opening assets)
//  5. ΔLEVER < 0: long-term debt / average total assets fell (passes also
//     when the company had no long-term debt in either year)
//  6. ΔLIQUID > 0: current ratio rose
//  7. no equity issued: shares outstanding at year end did not rise
//  8. ΔMARGIN > 0: gross margin rose
//  9. ΔTURN > 0: revenue / opening total assets rose
//
// It needs total assets for three year ends (t, t-1, t-2). A criterion whose
// inputs are missing fails and says so.
func Piotroski(f *Financials) PiotroskiResult {
	t := f.FiscalYear
	res := PiotroskiResult{FiscalYear: t}
	res.Criteria[0] = pioROA(f, t)
	res.Criteria[1] = pioCFO(f, t)
	res.Criteria[2] = pioDeltaROA(f, t)
	res.Criteria[3] = pioAccruals(f, t)
	res.Criteria[4] = pioLeverage(f, t)
	res.Criteria[5] = pioLiquidity(f, t)
	res.Criteria[6] = pioShares(f, t)
	res.Criteria[7] = pioMargin(f, t)
	res.Criteria[8] = pioTurnover(f, t)
	for _, c := range res.Criteria {
		if !c.Missing {
			res.Evaluated++
		}
		if c.Pass {
			res.Score++
		}
	}
	return res
}

// missing builds a failed criterion that names its missing inputs.
func missing(name, test string, err error) Criterion {
	return Criterion{Name: name, Test: test, Missing: true, Note: err.Error()}
}

// roaOn is net income of fy over total assets at the end of fy-1.
func roaOn(f *Financials, fy int) (float64, []xbrl.Fact, error) {
	ni, err := f.need(fy, xbrl.NetIncome)
	if err != nil {
		return 0, nil, err
	}
	ta, err := f.need(fy-1, xbrl.TotalAssets)
	if err != nil {
		return 0, nil, err
	}
	if ta[0].Value <= 0 {
		return 0, nil, fmt.Errorf("TotalAssets FY%d is not positive", fy-1)
	}
	return ni[0].Value / ta[0].Value, []xbrl.Fact{ni[0], ta[0]}, nil
}

func pioROA(f *Financials, t int) Criterion {
	const name, test = "roa_positive", "ROA > 0 (net income / opening total assets)"
	roa, in, err := roaOn(f, t)
	if err != nil {
		return missing(name, test, err)
	}
	return Criterion{Name: name, Test: test, Pass: roa > 0, Current: roa, Inputs: in}
}

func pioCFO(f *Financials, t int) Criterion {
	const name, test = "cfo_positive", "Operating cash flow > 0"
	in, err := f.need(t, xbrl.OperatingCashFlow)
	if err != nil {
		return missing(name, test, err)
	}
	return Criterion{Name: name, Test: test, Pass: in[0].Value > 0, Current: in[0].Value, Inputs: in}
}

func pioDeltaROA(f *Financials, t int) Criterion {
	const name, test = "roa_improving", "ROA this year vs last year (higher passes)"
	cur, in1, err := roaOn(f, t)
	if err != nil {
		return missing(name, test, err)
	}
	prev, in2, err := roaOn(f, t-1)
	if err != nil {
		return missing(name, test, err)
	}
	return Criterion{Name: name, Test: test, Pass: cur > prev, Current: cur, Prior: prev, Inputs: append(in1, in2...)}
}

func pioAccruals(f *Financials, t int) Criterion {
	const name, test = "accruals", "Operating cash flow vs net income (cash flow higher passes)"
	in, err := f.need(t, xbrl.OperatingCashFlow, xbrl.NetIncome)
	if err != nil {
		return missing(name, test, err)
	}
	// Both terms are scaled by the same opening assets in the paper, so
	// comparing the raw amounts gives the same answer without needing them.
	return Criterion{Name: name, Test: test, Pass: in[0].Value > in[1].Value, Current: in[0].Value, Prior: in[1].Value, Inputs: in,
		Note: "compared as amounts; both sides share the opening-assets denominator"}
}

// leverOn is long-term debt at the end of fy over average total assets of
// fy and fy-1.
func leverOn(f *Financials, fy int) (float64, []xbrl.Fact, error) {
	in, err := f.need(fy, xbrl.LongTermDebt, xbrl.TotalAssets)
	if err != nil {
		return 0, nil, err
	}
	prev, err := f.need(fy-1, xbrl.TotalAssets)
	if err != nil {
		return 0, nil, err
	}
	avg := (in[1].Value + prev[0].Value) / 2
	if avg <= 0 {
		return 0, nil, fmt.Errorf("average TotalAssets FY%d is not positive", fy)
	}
	return in[0].Value / avg, append(in, prev[0]), nil
}

func pioLeverage(f *Financials, t int) Criterion {
	const name, test = "leverage_falling", "Long-term debt / average total assets vs last year (lower passes)"
	cur, in1, err := leverOn(f, t)
	if err != nil {
		return missing(name, test, err)
	}
	prev, in2, err := leverOn(f, t-1)
	if err != nil {
		return missing(name, test, err)
	}
	c := Criterion{Name: name, Test: test, Pass: cur < prev, Current: cur, Prior: prev, Inputs: append(in1, in2...)}
	if cur == 0 && prev == 0 {
		c.Pass, c.Note = true, "no long-term debt in either year"
	}
	return c
}

func pioLiquidity(f *Financials, t int) Criterion {
	return ratioRising(f, t, "liquidity_rising", "Current ratio vs last year (higher passes)",
		xbrl.CurrentAssets, xbrl.CurrentLiabilities, "CurrentLiabilities not positive")
}

// ratioRising is a criterion that passes when num/den rose from last year.
func ratioRising(f *Financials, t int, name, test string, num, den xbrl.Concept, notPositive string) Criterion {
	cur, err := f.need(t, num, den)
	if err != nil {
		return missing(name, test, err)
	}
	prev, err := f.need(t-1, num, den)
	if err != nil {
		return missing(name, test, err)
	}
	if cur[1].Value <= 0 || prev[1].Value <= 0 {
		return missing(name, test, errors.New(notPositive))
	}
	a, b := cur[0].Value/cur[1].Value, prev[0].Value/prev[1].Value
	return Criterion{Name: name, Test: test, Pass: a > b, Current: a, Prior: b, Inputs: append(cur, prev...)}
}

func pioShares(f *Financials, t int) Criterion {
	const name, test = "no_dilution", "Shares outstanding at year end vs last year (not higher passes)"
	// Year-end shares outstanding is the closest reported proxy for "did not
	// issue common equity"; weighted diluted shares stand in when a filer
	// does not tag the balance-sheet share count.
	for _, c := range []xbrl.Concept{xbrl.SharesOutstanding, xbrl.DilutedSharesWeighted} {
		cur, err1 := f.need(t, c)
		prev, err2 := f.need(t-1, c)
		if err1 != nil || err2 != nil {
			continue
		}
		now, before, note := f.sameFiling(cur[0], prev[0])
		cr := Criterion{Name: name, Test: test, Pass: now.Value <= before.Value, Current: now.Value, Prior: before.Value,
			Inputs: []xbrl.Fact{now, before}, Note: note}
		if c == xbrl.DilutedSharesWeighted {
			cr.Note = strings.TrimPrefix(cr.Note+"; year-end shares outstanding not reported; used weighted average diluted shares", "; ")
		}
		return cr
	}
	return missing(name, test, fmt.Errorf("missing SharesOutstanding and DilutedSharesWeighted for FY%d and FY%d: %w", t, t-1, xbrl.ErrNoData))
}

func pioMargin(f *Financials, t int) Criterion {
	c := ratioRising(f, t, "gross_margin_rising", "Gross margin vs last year (higher passes)",
		xbrl.GrossProfit, xbrl.Revenue, "revenue not positive")
	if !c.Missing && (c.Inputs[0].Derived() || c.Inputs[2].Derived()) {
		c.Note = "gross profit derived as revenue minus cost of revenue"
	}
	return c
}

func pioTurnover(f *Financials, t int) Criterion {
	const name, test = "asset_turnover_rising", "Revenue / opening total assets vs last year (higher passes)"
	turn := func(fy int) (float64, []xbrl.Fact, error) {
		rev, err := f.need(fy, xbrl.Revenue)
		if err != nil {
			return 0, nil, err
		}
		ta, err := f.need(fy-1, xbrl.TotalAssets)
		if err != nil {
			return 0, nil, err
		}
		if ta[0].Value <= 0 {
			return 0, nil, fmt.Errorf("TotalAssets FY%d is not positive", fy-1)
		}
		return rev[0].Value / ta[0].Value, []xbrl.Fact{rev[0], ta[0]}, nil
	}
	a, in1, err := turn(t)
	if err != nil {
		return missing(name, test, err)
	}
	b, in2, err := turn(t - 1)
	if err != nil {
		return missing(name, test, err)
	}
	return Criterion{Name: name, Test: test, Pass: a > b, Current: a, Prior: b, Inputs: append(in1, in2...)}
}

// sameFiling is the two counts cur and prev, of a year and the year
// before, as one filing states both, when they come from different filings
// and one does: the latest such filing. A split between two filings
// restates every count of the later one: NVIDIA's fiscal 2023 year-end
// shares were last stated (2.47B) before its 2024 10-for-1 split, its
// fiscal 2024 ones (24.6B) after it, and the year read as a tenfold
// issuance. The note says when the counts were so taken, and differ from
// the latest statements.
func (f *Financials) sameFiling(cur, prev xbrl.Fact) (xbrl.Fact, xbrl.Fact, string) {
	if f.cf == nil || len(cur.Sources) != 1 || len(prev.Sources) != 1 || cur.Sources[0].Accession == prev.Sources[0].Accession {
		return cur, prev, ""
	}
	c, p := cur.Sources[0], prev.Sources[0]
	type pair struct{ cur, prev *xbrl.Source }
	by := map[string]*pair{}
	for _, s := range f.cf.Reported(c.Taxonomy, c.Tag, c.Unit) {
		if !periodicForm(s.Form) {
			continue // a proxy or a registration statement repeats figures
		}
		b := by[s.Accession]
		if b == nil {
			b = &pair{}
			by[s.Accession] = b
		}
		switch {
		case s.Start == c.Start && s.End == c.End:
			b.cur = &s
		case s.Start == p.Start && s.End == p.End:
			b.prev = &s
		}
	}
	var best *pair
	for _, b := range by {
		if b.cur != nil && b.prev != nil && (best == nil || b.cur.Filed > best.cur.Filed) {
			best = b
		}
	}
	if best == nil || best.cur.Value == cur.Value && best.prev.Value == prev.Value {
		return cur, prev, ""
	}
	oc, op := cur, prev
	oc.Value, oc.Sources = best.cur.Value, []xbrl.Source{*best.cur}
	op.Value, op.Sources = best.prev.Value, []xbrl.Source{*best.prev}
	return oc, op, fmt.Sprintf("both years as one filing states them (%s %s): the latest statements of the two are in different filings, "+
		"on different footings (a split or a restatement between them)", best.cur.Form, best.cur.Accession)
}

// periodicForm reports whether form is a periodic report's (10-K, 10-Q,
// 20-F, 40-F, 6-K and their amendments).
func periodicForm(form string) bool {
	switch strings.TrimSuffix(form, "/A") {
	case "10-K", "10-KT", "10-Q", "20-F", "40-F", "6-K":
		return true
	}
	return false
}
