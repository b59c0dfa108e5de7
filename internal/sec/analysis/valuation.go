package analysis

import (
	"errors"
	"fmt"
	"math"
	"slices"
	"strings"
	"time"

	"github.com/parleyhq/parley/internal/sec/xbrl"
)

// Price is a share price with where and when it was observed, from a market
// data provider.
type Price struct {
	Symbol   string  `json:"symbol"`
	Value    float64 `json:"value"`
	Currency string  `json:"currency"`
	// Date is the trading day the price closed (YYYY-MM-DD).
	Date string `json:"date"`
	// Source names the provider ("Yahoo Finance chart API") and URL the
	// request; both are cited with every figure built on the price.
	Source string `json:"source"`
	URL    string `json:"url,omitempty"`
}

// Valuation bases.
const (
	BasisMarketPrice = "market price"
	BasisPublicFloat = "public float"
)

// ValueInput is one figure a valuation is built on, with its provenance.
type ValueInput struct {
	Name  string  `json:"name"`
	Label string  `json:"label"`
	Value float64 `json:"value"`
	Unit  string  `json:"unit"`
	// Date is the date the figure is measured at (a balance-sheet date, a
	// trading day) or the end of the period it covers.
	Date string `json:"date"`
	// Period is "TTM to 2026-04-26", "FY2026", "instant" and the like.
	Period string `json:"period,omitempty"`
	// Source cites it: the XBRL tag with form, accession and filing date, or
	// the market data provider.
	Source    string `json:"source"`
	Accession string `json:"accession,omitempty"`
	Note      string `json:"note,omitempty"`
}

// ValueFigure is one valuation figure (market cap, P/E, ...).
type ValueFigure struct {
	Name    string  `json:"name"`
	Label   string  `json:"label"`
	Value   float64 `json:"value"`
	Unit    string  `json:"unit"` // a currency ("USD", "EUR"), "times", "ratio"
	Display string  `json:"display"`
	Formula string  `json:"formula"`
	// Date is the date of the price (or public float) the figure rests on.
	Date string `json:"date"`
	// Source names where its market value came from, e.g. "public float,
	// 10-K 0001045810-26-000021" or "Yahoo Finance chart API close".
	Source string `json:"source"`
	Note   string `json:"note,omitempty"`
}

// Valuation is market value against reported figures.
type Valuation struct {
	Company string `json:"company"`
	Basis   string `json:"basis"` // BasisMarketPrice or BasisPublicFloat
	// Price is the market price used (nil on the public-float basis).
	Price   *Price        `json:"price,omitempty"`
	Figures []ValueFigure `json:"figures"`
	Inputs  []ValueInput  `json:"inputs"`
	Notes   []string      `json:"notes,omitempty"`
}

// Figure returns the figure named name.
func (v *Valuation) Figure(name string) (ValueFigure, bool) {
	i := slices.IndexFunc(v.Figures, func(f ValueFigure) bool { return f.Name == name })
	if i < 0 {
		return ValueFigure{}, false
	}
	return v.Figures[i], true
}

// ErrNoMarketValue means neither a price nor a public float is available.
var ErrNoMarketValue = errors.New("no market value")

// Value computes market cap, enterprise value, P/E (TTM), P/S (TTM),
// EV/EBIT (TTM) and FCF yield (TTM).
//
// With a price, market cap is price × shares outstanding, the shares taken
// from dei:EntityCommonStockSharesOutstanding (the cover-page count), or the
// balance-sheet us-gaap:CommonStockSharesOutstanding when the filer reports
// no cover count in company facts (multi-class filers report it by class).
// Without a price, the market value is dei:EntityPublicFloat: the filer's
// own figure for the market value of shares held by non-affiliates at the
// end of its second fiscal quarter, from the 10-K cover. It is older and
// smaller than the market cap, and every figure built on it says so.
//
// Net debt is debt (long-term debt, its current portion, commercial paper)
// less cash and short-term investments, all at the latest balance-sheet date
// that reports cash. Flows are the trailing twelve months to the latest
// quarter (the latest fiscal year when quarters do not add up).
//
// Every amount is in the filer's reporting currency (cf.Currency). A price
// or public float in another currency (an ADR's dollar price against a
// euro filer's statements) is set aside with a note saying so: a market
// value in one currency over flows in another is no multiple at all, and
// Parley does not convert currencies.
func Value(cf *xbrl.CompanyFacts, price *Price) (*Valuation, error) {
	v := &Valuation{Company: cf.EntityName}
	cur := cmpOr(cf.Currency(), "USD")
	var mcap float64
	var mdate, msrc string
	noPrice := "no price source is configured"
	if price != nil && price.Value > 0 && !strings.EqualFold(cmpOr(price.Currency, "USD"), cur) {
		noPrice = fmt.Sprintf("the price of %s is in %s, not %s like the filings' figures (Parley does not convert currencies)", price.Symbol, cmpOr(price.Currency, "USD"), currencyName(cur))
		v.Notes = append(v.Notes, "The market price is not used: "+noPrice+".")
		price = nil
	}
	if price != nil && price.Value > 0 {
		shares, ok := latest(cf, xbrl.TaxonomyDEI, "EntityCommonStockSharesOutstanding", "shares")
		label := "Shares outstanding (cover page)"
		if !ok {
			shares, ok = latest(cf, xbrl.TaxonomyUSGAAP, "CommonStockSharesOutstanding", "shares")
			label = "Shares outstanding (balance sheet)"
			if ok {
				v.Notes = append(v.Notes, "The filer reports no dei:EntityCommonStockSharesOutstanding in company facts (multi-class filers report it by class); shares are us-gaap:CommonStockSharesOutstanding at "+shares.End.String()+".")
			}
		}
		if !ok {
			return nil, fmt.Errorf("%w: the filer reports no shares outstanding", ErrNoMarketValue)
		}
		v.Basis = BasisMarketPrice
		v.Price = price
		mcap = price.Value * shares.Value
		mdate = price.Date
		msrc = fmt.Sprintf("%s close %s", price.Source, price.Date)
		v.Inputs = append(v.Inputs,
			ValueInput{Name: "price", Label: "Share price (" + price.Symbol + ")", Value: price.Value, Unit: cmpOr(price.Currency, "USD"),
				Date: price.Date, Source: price.Source + cmpSuffix(price.URL), Note: "market data, not from a filing"},
			input("shares_outstanding", label, shares, "instant"))
		v.Figures = append(v.Figures, ValueFigure{Name: "market_cap", Label: "Market capitalisation", Value: mcap, Unit: cur,
			Display: moneyShort(mcap, cur), Formula: "price × shares outstanding", Date: mdate, Source: msrc})
	} else {
		pf, ok := latest(cf, xbrl.TaxonomyDEI, "EntityPublicFloat", cur)
		if !ok {
			for _, u := range cf.UnitsOf(xbrl.TaxonomyDEI, "EntityPublicFloat") {
				if u != cur {
					return nil, fmt.Errorf("%w: %s, and the filer's public float (dei:EntityPublicFloat) is in %s while its statements are in %s (Parley does not convert currencies)",
						ErrNoMarketValue, noPrice, u, cur)
				}
			}
			return nil, fmt.Errorf("%w: %s and the filer reports no dei:EntityPublicFloat", ErrNoMarketValue, noPrice)
		}
		v.Basis = BasisPublicFloat
		mcap = pf.Value
		mdate = pf.End.String()
		msrc = fmt.Sprintf("public float, %s %s", pf.Form, pf.Accession)
		v.Inputs = append(v.Inputs, input("public_float", "Public float (market value held by non-affiliates)", pf, "instant"))
		v.Figures = append(v.Figures, ValueFigure{Name: "market_value", Label: "Market value (public float)", Value: mcap, Unit: cur,
			Display: moneyShort(mcap, cur), Formula: "dei:EntityPublicFloat", Date: mdate, Source: msrc,
			Note: "not a market price: the non-affiliates' market value at " + mdate + " as the filer reported it"})
		v.Notes = append(v.Notes, fmt.Sprintf("No market price source is configured: every multiple uses the public float of %s as of %s "+
			"(dei:EntityPublicFloat, the market value of shares held by non-affiliates at the end of the second fiscal quarter, from the cover of %s %s filed %s). "+
			"It is not today's market capitalisation and leaves out affiliates' shares.",
			moneyShort(pf.Value, cur), mdate, pf.Form, pf.Accession, pf.Filed))
	}

	// Balance sheet: net debt at the latest date with cash.
	cash, ok := latest(cf, xbrl.TaxonomyUSGAAP, "CashAndCashEquivalentsAtCarryingValue", cur)
	if !ok {
		if s, err := cf.Series(xbrl.Cash); err == nil {
			if f, ok2 := s.Latest(); ok2 && len(f.Sources) > 0 {
				cash, ok = f.Sources[0], true
			}
		}
	}
	var netDebt float64
	if ok {
		nd := netDebtAt(cf, cash)
		netDebt = nd.Value
		v.Inputs = append(v.Inputs, nd.Inputs...)
		if !nd.HaveDebt {
			v.Notes = append(v.Notes, "No debt is reported at "+cash.End.String()+"; net debt counts cash and investments only.")
		}
		v.Inputs = append(v.Inputs, ValueInput{Name: "net_debt", Label: "Net debt (debt less cash and short-term investments)", Value: netDebt,
			Unit: cur, Date: cash.End.String(), Period: "instant", Source: "sum of the balance-sheet inputs above"})
	} else {
		v.Notes = append(v.Notes, "No cash balance is reported: enterprise value is not computed.")
	}

	flows := map[string]ValueInput{}
	for _, fl := range []struct {
		name, label string
		c           xbrl.Concept
	}{
		{"revenue_ttm", "Revenue", xbrl.Revenue}, {"net_income_ttm", "Net income", xbrl.NetIncome},
		{"ebit_ttm", "EBIT (operating income)", xbrl.OperatingIncome}, {"operating_cash_flow_ttm", "Operating cash flow", xbrl.OperatingCashFlow},
		{"capex_ttm", "Capital expenditure", xbrl.CapitalExpenditure},
	} {
		in, note, ok := ttm(cf, fl.c)
		if !ok {
			v.Notes = append(v.Notes, fl.label+": "+note)
			continue
		}
		in.Name, in.Label = fl.name, fl.label
		flows[fl.name] = in
		v.Inputs = append(v.Inputs, in)
	}

	basisNote := ""
	if v.Basis == BasisPublicFloat {
		basisNote = "on the public float as of " + mdate + ", not a market price"
	}
	add := func(name, label, unit, formula string, num, den float64, okNum, okDen bool, why string) {
		if !okNum || !okDen {
			return
		}
		if den <= 0 {
			v.Notes = append(v.Notes, fmt.Sprintf("%s is not meaningful: %s", label, why))
			return
		}
		val := num / den
		f := ValueFigure{Name: name, Label: label, Value: val, Unit: unit, Formula: formula, Date: mdate, Source: msrc, Note: basisNote}
		if unit == "ratio" {
			f.Display = FormatValue(val, Percent)
		} else {
			f.Display = fmt.Sprintf("%.1fx", val)
		}
		v.Figures = append(v.Figures, f)
	}
	mcName := "market cap"
	if v.Basis == BasisPublicFloat {
		mcName = "public float"
	}
	rev, okRev := flows["revenue_ttm"]
	ni, okNI := flows["net_income_ttm"]
	ebit, okEBIT := flows["ebit_ttm"]
	ocf, okOCF := flows["operating_cash_flow_ttm"]
	capex, okCapex := flows["capex_ttm"]
	add("pe_ttm", "P/E (TTM)", "times", mcName+" ÷ net income (TTM)", mcap, ni.Value, true, okNI, "net income (TTM) is not positive")
	add("ps_ttm", "P/S (TTM)", "times", mcName+" ÷ revenue (TTM)", mcap, rev.Value, true, okRev, "revenue (TTM) is not positive")
	if ok {
		ev := mcap + netDebt
		v.Figures = append(v.Figures, ValueFigure{Name: "enterprise_value", Label: "Enterprise value", Value: ev, Unit: cur,
			Display: moneyShort(ev, cur), Formula: mcName + " + net debt", Date: mdate, Source: msrc, Note: basisNote})
		add("ev_ebit_ttm", "EV/EBIT (TTM)", "times", "enterprise value ÷ EBIT (TTM)", ev, ebit.Value, true, okEBIT, "EBIT (TTM) is not positive")
	}
	if okOCF && okCapex {
		fcf := ocf.Value - math.Abs(capex.Value)
		v.Inputs = append(v.Inputs, ValueInput{Name: "free_cash_flow_ttm", Label: "Free cash flow", Value: fcf, Unit: cur, Date: ocf.Date,
			Period: ocf.Period, Source: "operating cash flow − capital expenditure"})
		if mcap > 0 {
			y := fcf / mcap
			v.Figures = append(v.Figures, ValueFigure{Name: "fcf_yield_ttm", Label: "FCF yield (TTM)", Value: y, Unit: "ratio",
				Display: FormatValue(y, Percent), Formula: "free cash flow (TTM) ÷ " + mcName, Date: mdate, Source: msrc, Note: basisNote})
		}
	}
	return v, nil
}

func cmpOr(a, b string) string {
	if a != "" {
		return a
	}
	return b
}

func cmpSuffix(u string) string {
	if u == "" {
		return ""
	}
	return " (" + u + ")"
}

func input(name, label string, s xbrl.Source, period string) ValueInput {
	return ValueInput{Name: name, Label: label, Value: s.Value, Unit: s.Unit, Date: s.End.String(), Period: period,
		Source: fmt.Sprintf("%s:%s, %s %s filed %s", s.Taxonomy, s.Tag, s.Form, s.Accession, s.Filed), Accession: s.Accession}
}

// NetDebt is net debt at a balance-sheet date, as the valuation computes
// it: Value with the inputs it sums; HaveDebt false when no debt is
// reported then (net debt is then minus the cash and investments).
type NetDebt struct {
	Value    float64
	Inputs   []ValueInput
	HaveDebt bool
}

// NetDebtAt is net debt at the balance-sheet date of the cash balance
// cash (a fact of us-gaap:CashAndCashEquivalentsAtCarryingValue or the
// Cash concept's): debt (long-term debt, its current portion, commercial
// paper or short-term borrowings) less cash and short-term investments,
// each as reported at that date. The valuation uses it at the latest
// date; the fact check at each fiscal year end, so that a debater's net
// debt is held to the very definition the valuation tool states it with.
func NetDebtAt(cf *xbrl.CompanyFacts, cash xbrl.Source) NetDebt { return netDebtAt(cf, cash) }

func netDebtAt(cf *xbrl.CompanyFacts, cash xbrl.Source) NetDebt {
	var nd NetDebt
	d := cash.End
	nd.Inputs = append(nd.Inputs, input("cash", "Cash and cash equivalents", cash, "instant"))
	nd.Value -= cash.Value
	if inv, ok := firstAt(cf, d, cash.Unit, "CashCashEquivalentsAndShortTermInvestments"); ok && inv.Value >= cash.Value {
		// A combined line replaces cash alone.
		nd.Value += cash.Value
		nd.Inputs[len(nd.Inputs)-1] = input("cash", "Cash, cash equivalents and short-term investments", inv, "instant")
		nd.Value -= inv.Value
	} else if inv, ok := firstAt(cf, d, cash.Unit, "MarketableSecuritiesCurrent", "ShortTermInvestments", "AvailableForSaleSecuritiesDebtSecuritiesCurrent",
		// The newer tag for current debt securities (NVIDIA's 10-Qs from
		// fiscal 2027): unread, its net debt counted cash alone.
		"DebtSecuritiesCurrent"); ok {
		nd.Inputs = append(nd.Inputs, input("short_term_investments", "Short-term investments / marketable securities", inv, "instant"))
		nd.Value -= inv.Value
	}
	if ltd, ok := firstAt(cf, d, cash.Unit, "LongTermDebtNoncurrent", "LongTermDebtAndCapitalLeaseObligations", "NoncurrentPortionOfNoncurrentBorrowings", "LongtermBorrowings"); ok {
		nd.Inputs = append(nd.Inputs, input("long_term_debt", "Long-term debt (non-current)", ltd, "instant"))
		nd.Value += ltd.Value
		nd.HaveDebt = true
		if cur, ok := firstAt(cf, d, cash.Unit, "LongTermDebtCurrent", "DebtCurrent", "CurrentPortionOfNoncurrentBorrowings"); ok {
			nd.Inputs = append(nd.Inputs, input("current_debt", "Current portion of debt", cur, "instant"))
			nd.Value += cur.Value
		}
	} else if ltd, ok := firstAt(cf, d, cash.Unit, "LongTermDebt"); ok {
		nd.Inputs = append(nd.Inputs, input("long_term_debt", "Long-term debt (including current portion)", ltd, "instant"))
		nd.Value += ltd.Value
		nd.HaveDebt = true
	}
	if cp, ok := firstAt(cf, d, cash.Unit, "CommercialPaper", "ShortTermBorrowings", "ShorttermBorrowings"); ok && cp.Value > 0 {
		nd.Inputs = append(nd.Inputs, input("short_term_borrowings", "Commercial paper / short-term borrowings", cp, "instant"))
		nd.Value += cp.Value
	}
	return nd
}

// latest returns the fact with the latest end date (then the latest filing).
func latest(cf *xbrl.CompanyFacts, taxonomy, tag, unit string) (xbrl.Source, bool) {
	var best xbrl.Source
	found := false
	for _, s := range cf.Reported(taxonomy, tag, unit) {
		if !found || s.End > best.End || s.End == best.End && s.Filed > best.Filed {
			best, found = s, true
		}
	}
	return best, found
}

// firstAt returns the first of the tags reported at date d in unit, the
// latest filing's value. A tag is looked for in us-gaap and in ifrs-full
// (their names differ, so a list can hold both).
func firstAt(cf *xbrl.CompanyFacts, d xbrl.Date, unit string, tags ...string) (xbrl.Source, bool) {
	for _, tag := range tags {
		var best xbrl.Source
		found := false
		for _, taxonomy := range []string{xbrl.TaxonomyUSGAAP, xbrl.TaxonomyIFRS} {
			for _, s := range cf.Reported(taxonomy, tag, unit) {
				if s.End == d && s.Start == 0 && (!found || s.Filed > best.Filed) {
					best, found = s, true
				}
			}
		}
		if found {
			return best, true
		}
	}
	return xbrl.Source{}, false
}

// ttm is a flow's trailing twelve months, or its latest fiscal year.
func ttm(cf *xbrl.CompanyFacts, c xbrl.Concept) (ValueInput, string, bool) {
	s, err := cf.Series(c)
	if err != nil {
		return ValueInput{}, "not reported", false
	}
	f, err := s.TTM()
	period := ""
	if err == nil {
		period = "TTM to " + f.Period.End.String()
	} else {
		var ok bool
		f, ok = s.LatestAnnual()
		if !ok {
			return ValueInput{}, "no quarterly or annual figures", false
		}
		period = fmt.Sprintf("FY%d (quarters do not add up to a TTM)", f.Period.FiscalYear)
		if !hasQuarters(s) {
			// A foreign private issuer's 20-F gives years only.
			period = fmt.Sprintf("FY%d (the filer reports annual figures only)", f.Period.FiscalYear)
		}
	}
	var accs []string
	for _, src := range f.Sources {
		ref := src.Form + " " + src.Accession
		if !slices.Contains(accs, ref) {
			accs = append(accs, ref)
		}
	}
	tag := ""
	if len(f.Sources) > 0 {
		tag = f.Sources[0].Taxonomy + ":" + f.Sources[0].Tag + ", "
	}
	in := ValueInput{Value: f.Value, Unit: f.Unit, Date: f.Period.End.String(), Period: period,
		Source: tag + strings.Join(accs, "; "), Note: f.Method}
	if len(f.Sources) > 0 {
		in.Accession = f.Sources[len(f.Sources)-1].Accession
	}
	return in, "", true
}

// hasQuarters reports whether a flow's series holds any figure shorter
// than a year.
func hasQuarters(s *xbrl.Series) bool {
	for _, f := range s.Facts() {
		if f.Period.Kind == xbrl.Quarter || f.Period.Kind == xbrl.HalfYear || f.Period.Kind == xbrl.NineMonths {
			return true
		}
	}
	return false
}

// Age is how old a dated figure is on day now, in days (0 for a bad date).
func Age(date string, now time.Time) int {
	t, err := time.Parse(time.DateOnly, date)
	if err != nil {
		return 0
	}
	return int(now.Sub(t).Hours() / 24)
}

// moneyShort shows a market value the way valuations are quoted: "$4.00T",
// "$253.5B", "$812.0M", "€253.5B".
func moneyShort(v float64, currency string) string {
	a, sign := math.Abs(v), ""
	if v < 0 {
		sign = "-"
	}
	p := CurrencyPrefix(currency)
	switch {
	case a >= 1e12:
		return fmt.Sprintf("%s%s%.2fT", sign, p, a/1e12)
	case a >= 1e9:
		return fmt.Sprintf("%s%s%.1fB", sign, p, a/1e9)
	}
	return fmt.Sprintf("%s%s%.1fM", sign, p, a/1e6)
}

// currencyName names a currency in a sentence: "US dollars" for USD, the
// ISO code otherwise.
func currencyName(code string) string {
	if code == "USD" {
		return "US dollars"
	}
	return code
}
