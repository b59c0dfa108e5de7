// Package factcheck checks the figures a debater states against a company's
// filings. Figures come two ways: structured claims a debater declares with
// its prose (metric, period, value, unit), and the prose itself, read by a
// backstop that finds every financial figure in every sentence and attributes
// it to a metric and a period. Both are compared with a Table of reference
// facts built from the XBRL data, with a tolerance that follows the
// precision the figure was stated with.
//
// Every figure ends in one of five states: verified (it matches the filing
// for the period stated), corrected (it does not: wrong value, wrong period,
// wrong scale or wrong direction, with what the filing says), unverified (a
// figure the filings cannot settle: no metric or period could be read, or the
// period is not in the data), market data (prices, market values and
// multiples, which no filing states) or web (taken from a web search result,
// not checked against filings). Given what the debate recorded (Recorded), a
// market figure is verified or corrected against the recorded valuation,
// with its source and date. Nothing is dropped silently.
package factcheck

import (
	"fmt"
	"math"
	"slices"
	"sort"
	"strings"

	"github.com/parleyhq/parley/internal/sec/analysis"
	"github.com/parleyhq/parley/internal/sec/xbrl"
)

// Metric names what a figure measures.
type Metric string

// The metrics the check covers. Each base metric has a growth metric
// (Metric + "_growth"), the change from the same period a year earlier.
const (
	Revenue           Metric = "revenue"
	CostOfRevenue     Metric = "cost_of_revenue"
	GrossProfit       Metric = "gross_profit"
	OperatingIncome   Metric = "operating_income"
	NetIncome         Metric = "net_income"
	EPSDiluted        Metric = "eps_diluted"
	EPSBasic          Metric = "eps_basic"
	OperatingCashFlow Metric = "operating_cash_flow"
	Capex             Metric = "capex"
	FreeCashFlow      Metric = "free_cash_flow"
	RandD             Metric = "research_and_development"
	SGA               Metric = "sga"
	OperatingExpenses Metric = "operating_expenses"
	Dividends         Metric = "dividends"
	Repurchases       Metric = "share_repurchases"
	Cash              Metric = "cash"
	LongTermDebt      Metric = "long_term_debt"
	Shares            Metric = "shares_outstanding"
	// DilutedShares is the weighted average diluted share count, the
	// denominator of diluted EPS: an average over its period, so held for
	// the years and the quarters a 10-Q reports, never for a fourth
	// quarter or a TTM worked out from them (xbrl.ConceptDef.Average).
	DilutedShares Metric = "diluted_shares"
	// BasicShares is the weighted average basic share count, basic EPS's
	// denominator, held as DilutedShares is.
	BasicShares     Metric = "basic_shares"
	GrossMargin     Metric = "gross_margin"
	OperatingMargin Metric = "operating_margin"
	NetMargin       Metric = "net_margin"
	FCFMargin       Metric = "fcf_margin"
	// The balance sheet's totals, the tax line and the dividend a share:
	// among the figures a debater states most (a bank's or an insurer's
	// size is its total assets, its book its equity).
	TotalAssets       Metric = "total_assets"
	TotalLiabilities  Metric = "total_liabilities"
	Equity            Metric = "stockholders_equity"
	PretaxIncome      Metric = "pretax_income"
	IncomeTax         Metric = "income_tax"
	EffectiveTaxRate  Metric = "effective_tax_rate"
	DividendsPerShare Metric = "dividends_per_share"
	// PayoutRatio is the dividends paid over net income, as a debater
	// states "a payout ratio of 14%"; payoutRatioPerShare, the dividend
	// declared a share over diluted EPS, is the other way to state it and
	// right by either. None on a loss: a payout of a loss means nothing.
	PayoutRatio         Metric = "payout_ratio"
	payoutRatioPerShare Metric = "payout_ratio_per_share"
	// StatutoryTaxRate is the federal statutory rate the filing's tax note
	// reconciles from (21% for a US filer since 2018), which a debater
	// sets beside the effective rate: a rate of the law, not of the
	// company's year, so a figure of it is verified when the filing states
	// it and never corrected (another jurisdiction's statutory rate is not
	// wrong). A "tax rate" not named effective or statutory is held to
	// the effective rate unless it is this one (taxRate).
	StatutoryTaxRate Metric = "statutory_tax_rate"
	taxRate          Metric = "tax_rate"
	// NetDebt is net debt at a balance-sheet date as the valuation
	// computes it (analysis.NetDebtAt): debt less cash and short-term
	// investments. netDebtOfCash is debt less cash alone, which a debater
	// may state as net debt as well.
	NetDebt       Metric = "net_debt"
	netDebtOfCash Metric = "net_debt_of_cash"
	// NetCash is net debt's opposite ("net cash of $34 billion", "a net
	// cash position"): cash and short-term investments less debt. Stated
	// less cash alone (netCashOfCash), or counting the marketable
	// securities held past a year too (netCashWithSecurities, as Apple
	// states its own net cash), it is right by either.
	NetCash               Metric = "net_cash"
	netCashOfCash         Metric = "net_cash_of_cash"
	netCashWithSecurities Metric = "net_cash_with_securities"
	// CashAndInvestments is cash with the short-term investments the
	// valuation counts against debt ("cash and marketable securities");
	// cashWithLongTermSecurities counts those held past a year too, as
	// Apple states its own.
	CashAndInvestments         Metric = "cash_and_investments"
	cashWithLongTermSecurities Metric = "cash_and_investments_with_noncurrent"
	// bareCash is "cash" named alone ("ended the year with $132 billion
	// in cash"), which names no one line: cash and cash equivalents (its
	// value), with restricted cash (cashWithRestricted, the cash flow
	// statement's ending balance), with short-term investments or with
	// every marketable security. A balance right by any is right
	// (alternatesOf), one right by none is held to cash and equivalents.
	bareCash           Metric = "cash_bare"
	cashWithRestricted Metric = "cash_with_restricted"
)

// The ratios the analysis computes (analysis.Ratios) beyond the margins
// above, named as the analysis names them: the check takes their annual
// values from the analysis itself, so that a figure is held to the very
// definition the data-only agents and the ratio tool state it with.
const (
	ROE                   Metric = "roe"
	ROA                   Metric = "roa"
	DebtToEquity          Metric = "debt_to_equity"
	Leverage              Metric = "leverage"
	CurrentRatio          Metric = "current_ratio"
	CashConversion        Metric = "cash_conversion"
	RDIntensity           Metric = "rd_intensity"
	AssetTurnover         Metric = "asset_turnover"
	GrossMarginChange     Metric = "gross_margin_change"
	OperatingMarginChange Metric = "operating_margin_change"
	// The analysis states no change of the net and free cash flow margins;
	// the check computes it, as it does any margin change the table lacks
	// (a quarter's), from the margins of the two periods.
	NetMarginChange Metric = "net_margin_change"
	FCFMarginChange Metric = "fcf_margin_change"
	// The returns on the year's average balance (of its start and end),
	// as analysts and many filers state "return on average equity": the
	// analysis's ROE and ROA are on the year-end balance.
	ROAE Metric = "roe_average"
	ROAA Metric = "roa_average"
	// The returns on common equity, on the year-end and on the average
	// balance: the same as on all equity for a filer with no preferred
	// stock, and held only for one (preferredStock), since the check
	// does not read what a preferred share's claim is worth.
	ROCE  Metric = "roe_common"
	ROACE Metric = "roe_average_common"
)

// The scores of the analysis's frameworks. AltmanZ is the score of the
// variant the analysis applies to the company (the original Z for a
// manufacturer with a public float, else Z”), as its evidence names it;
// AltmanZDoublePrime is Z” whatever the industry, for a figure that names
// that variant.
const (
	PiotroskiF         Metric = "piotroski_f_score"
	AltmanZ            Metric = "altman_z"
	AltmanZDoublePrime Metric = "altman_z_double_prime"
)

// Growth is the growth metric of m.
func Growth(m Metric) Metric { return m + "_growth" }

// shareMetric is the metric of part as a percentage of whole ("capex as a
// share of revenue"), computed from the two lines; "" when either is not
// an amount the table holds, or they are one line.
func shareMetric(part, whole Metric) Metric {
	if part == whole || UnitOf(part) != USD || UnitOf(whole) != USD || labels[part] == "" || labels[whole] == "" {
		return ""
	}
	return part + "_share_of_" + whole
}

// shareParts is the part and the whole of a share metric.
func (m Metric) shareParts() (part, whole Metric, ok bool) {
	p, w, ok := strings.Cut(string(m), "_share_of_")
	return Metric(p), Metric(w), ok
}

// Base is the metric a growth metric measures the growth of, and whether m
// is a growth metric.
func (m Metric) Base() (Metric, bool) {
	b, ok := strings.CutSuffix(string(m), "_growth")
	return Metric(b), ok
}

// Label is how a metric reads in a report.
func (m Metric) Label() string {
	if b, ok := m.Base(); ok {
		return b.Label() + " growth"
	}
	if l, ok := labels[m]; ok {
		return l
	}
	if p, w, ok := m.shareParts(); ok {
		return p.Label() + " as a share of " + w.Label()
	}
	return strings.ReplaceAll(string(m), "_", " ")
}

var labels = map[Metric]string{
	Revenue: "revenue", CostOfRevenue: "cost of revenue", GrossProfit: "gross profit", OperatingIncome: "operating income",
	NetIncome: "net income", EPSDiluted: "diluted EPS", EPSBasic: "basic EPS", OperatingCashFlow: "operating cash flow",
	Capex: "capital expenditure", FreeCashFlow: "free cash flow", RandD: "R&D expense", SGA: "SG&A expense", OperatingExpenses: "operating expenses", Dividends: "dividends paid",
	Repurchases: "share repurchases", TotalAssets: "total assets", TotalLiabilities: "total liabilities",
	Equity: "stockholders' equity", PretaxIncome: "pretax income", IncomeTax: "income tax expense",
	EffectiveTaxRate: "effective tax rate", DividendsPerShare: "dividends per share",
	PayoutRatio: "dividend payout ratio", payoutRatioPerShare: "dividend payout ratio (dividends a share over diluted EPS)",
	StatutoryTaxRate: "federal statutory tax rate", taxRate: "tax rate",
	NetDebt: "net debt", netDebtOfCash: "net debt (debt less cash)",
	CashAndInvestments: "cash and short-term investments", cashWithLongTermSecurities: "cash and all marketable securities",
	NetCash: "net cash", netCashOfCash: "net cash (cash less debt)", netCashWithSecurities: "net cash (cash and all marketable securities less debt)",
	Cash: "cash and equivalents", bareCash: "cash", cashWithRestricted: "cash, cash equivalents and restricted cash", LongTermDebt: "long-term debt", Shares: "shares outstanding", DilutedShares: "weighted average diluted shares", BasicShares: "weighted average basic shares", GrossMargin: "gross margin",
	OperatingMargin: "operating margin", NetMargin: "net margin", FCFMargin: "free cash flow margin",
	ROE: "return on equity", ROA: "return on assets", DebtToEquity: "debt to equity", Leverage: "liabilities to assets",
	CurrentRatio: "current ratio", CashConversion: "cash conversion", RDIntensity: "R&D to revenue",
	AssetTurnover: "asset turnover", GrossMarginChange: "gross margin change", OperatingMarginChange: "operating margin change",
	NetMarginChange: "net margin change", FCFMarginChange: "free cash flow margin change",
	ROAE: "return on average equity", ROAA: "return on average assets",
	ROCE: "return on common equity", ROACE: "return on average common equity",
	PiotroskiF: "Piotroski F-score", AltmanZ: "Altman score", AltmanZDoublePrime: "Altman Z'' score",
	CashTaxesPaid: "income taxes paid (cash)", ForeignTax: "foreign income tax expense", DomesticTax: "domestic income tax expense",
	ForeignPretax: "foreign pretax income", DomesticPretax: "domestic pretax income",
	InterestIncome: "interest and dividend income", NetInterestIncome: "net interest income", NoninterestIncome: "noninterest income",
}

// Unit is what a value counts.
type Unit string

// Units.
const (
	// USD is an amount of money and USDPerShare an amount a share, in the
	// filer's reporting currency (Table.Currency): dollars for most
	// filers, euros for one reporting in euros. The names stay for the
	// recorded debates and claims that use them.
	USD         Unit = "usd"
	USDPerShare Unit = "usd_per_share"
	SharesUnit  Unit = "shares"
	Percent     Unit = "percent"  // margins and growth, in percent (65.5)
	Multiple    Unit = "multiple" // a ratio of two amounts (0.86 for 0.86x)
	Points      Unit = "points"   // a change in a margin, in percentage points (-2.0)
	Score       Unit = "score"    // a framework's score: Piotroski's count of 9, Altman's Z
)

// UnitOf is the unit a metric's values are in.
func UnitOf(m Metric) Unit {
	if _, ok := m.Base(); ok {
		return Percent
	}
	if _, _, ok := m.shareParts(); ok {
		return Percent
	}
	switch m {
	case EPSDiluted, EPSBasic, DividendsPerShare:
		return USDPerShare
	case Shares, DilutedShares, BasicShares:
		return SharesUnit
	case GrossMargin, OperatingMargin, NetMargin, FCFMargin, ROE, ROA, ROAE, ROAA, ROCE, ROACE, Leverage, RDIntensity, EffectiveTaxRate,
		PayoutRatio, payoutRatioPerShare, StatutoryTaxRate, taxRate:
		return Percent
	case DebtToEquity, CurrentRatio, CashConversion, AssetTurnover:
		return Multiple
	case GrossMarginChange, OperatingMarginChange, NetMarginChange, FCFMarginChange:
		return Points
	case PiotroskiF, AltmanZ, AltmanZDoublePrime:
		return Score
	}
	return USD
}

// Period is a fiscal year, a fiscal quarter, or the trailing twelve months
// ending with a fiscal quarter (or year).
type Period struct {
	FY  int  `json:"fy"`
	Q   int  `json:"q,omitempty"` // 1-4; 0 for the whole year
	TTM bool `json:"ttm,omitempty"`
}

func (p Period) String() string {
	switch {
	case p.TTM:
		return "TTM"
	case p.Q == calendarYearQ:
		return fmt.Sprintf("calendar %d", p.FY)
	case p.Q > 0:
		return fmt.Sprintf("Q%d FY%d", p.Q, p.FY)
	}
	return fmt.Sprintf("FY%d", p.FY)
}

// calendarYearQ is the Q of a Period that is calendar year FY, not a
// fiscal one: a flow's total over the four fiscal quarters ending in it,
// computed for a figure stated of it (Table.calendarYear), never held in
// the table.
const calendarYearQ = -2

// Fact is one reference value.
type Fact struct {
	Metric Metric  `json:"metric"`
	Period Period  `json:"period"`
	Value  float64 `json:"value"`
	// Source names the filing: "10-K 0001045810-26-000021", or the
	// filings a derived value was computed from.
	Source string `json:"source"`
	// Slack is how far the company's own figure may lie from Value: a
	// per-share figure computed from others (a fourth quarter's EPS as the
	// year's less nine months', a TTM as four quarters' sum) adds figures
	// each rounded to the cent, and shares weighted over other spans, so
	// the quarter's EPS as reported may differ by a cent or two.
	Slack float64 `json:"slack,omitempty"`
	// AsFiled is a per-share figure's or a count's value as its filing
	// stated it before a stock split restated it (Value), 0 when none did:
	// a figure that is it is named as the figure before the split.
	AsFiled float64 `json:"as_filed,omitempty"`
}

// Table is the reference facts of one company.
type Table struct {
	Company string `json:"company"`
	// Name is the registrant's name ("NVIDIA CORP"): a word of it before a
	// metric names the company, not a part of it.
	Name     string `json:"name,omitempty"`
	LatestFY int    `json:"latest_fy"`
	// FYEndMonth is the month the fiscal year ends (1 for NVIDIA's late
	// January): a bare calendar year then also names the fiscal year that
	// ends early in the next one.
	FYEndMonth int `json:"fy_end_month"`
	// FYNamedForStart is true when the filer names a fiscal year ending
	// early in a calendar year for the year before (a retailer's year to
	// February 2025 is its fiscal 2024): a bare calendar year is then that
	// fiscal year only.
	FYNamedForStart bool `json:"fy_named_for_start,omitempty"`
	// FYEndDay is the day of the month the fiscal year ends (3 for a year
	// to the Saturday nearest 31 December that ended on 3 January): a year
	// ending in a month's first week is, for its quarters' months, a year
	// ending the month before ("the December quarter"). 0 when unknown.
	FYEndDay int `json:"fy_end_day,omitempty"`
	// Currency is the ISO code of the currency the filer reports its
	// amounts in, when it is not the US dollar ("EUR", "TWD"): every
	// amount of Facts is in it, and a figure stated in another currency is
	// not held to them. "" for dollars (and for tables recorded before
	// Parley read other currencies, which were all in dollars).
	Currency string `json:"currency,omitempty"`
	Facts    []Fact `json:"facts"`
	// Gaps are figures the table holds no fact of, with why (Gap).
	Gaps []Gap `json:"gaps,omitempty"`
}

// Lookup returns the fact of m for p.
func (t *Table) Lookup(m Metric, p Period) (Fact, bool) {
	for _, f := range t.Facts {
		if f.Metric == m && f.Period == p {
			return f, true
		}
	}
	return Fact{}, false
}

// Of returns every fact of m, latest period first.
func (t *Table) Of(m Metric) []Fact {
	var out []Fact
	for _, f := range t.Facts {
		if f.Metric == m {
			out = append(out, f)
		}
	}
	sort.SliceStable(out, func(i, j int) bool {
		a, b := out[i].Period, out[j].Period
		if a.FY != b.FY {
			return a.FY > b.FY
		}
		return a.Q > b.Q
	})
	return out
}

// base metrics read from XBRL concepts.
var concepts = []struct {
	m Metric
	c xbrl.Concept
}{
	{Revenue, xbrl.Revenue}, {CostOfRevenue, xbrl.CostOfRevenue}, {GrossProfit, xbrl.GrossProfit},
	{OperatingIncome, xbrl.OperatingIncome}, {NetIncome, xbrl.NetIncome}, {EPSDiluted, xbrl.EPSDiluted},
	{EPSBasic, xbrl.EPSBasic}, {OperatingCashFlow, xbrl.OperatingCashFlow}, {Capex, xbrl.CapitalExpenditure},
	{RandD, xbrl.ResearchAndDevelopment}, {Dividends, xbrl.DividendsPaid}, {Repurchases, xbrl.ShareRepurchases}, {Cash, xbrl.Cash},
	{LongTermDebt, xbrl.LongTermDebt}, {Shares, xbrl.SharesOutstanding}, {DilutedShares, xbrl.DilutedSharesWeighted},
	{TotalAssets, xbrl.TotalAssets}, {TotalLiabilities, xbrl.TotalLiabilities}, {Equity, xbrl.StockholdersEquity},
	{PretaxIncome, xbrl.PretaxIncome}, {IncomeTax, xbrl.IncomeTax}, {DividendsPerShare, xbrl.DividendsPerShare},
	{SGA, sgaConcept.Concept}, {OperatingExpenses, opexConcept.Concept}, {StatutoryTaxRate, statutoryConcept.Concept},
	{BasicShares, basicSharesConcept.Concept}, {CashTaxesPaid, taxConcepts[CashTaxesPaid].Concept},
	{ForeignTax, taxConcepts[ForeignTax].Concept}, {currentForeignTax, taxConcepts[currentForeignTax].Concept},
	{deferredForeignTax, taxConcepts[deferredForeignTax].Concept}, {ForeignPretax, taxConcepts[ForeignPretax].Concept},
	{DomesticPretax, taxConcepts[DomesticPretax].Concept}, {foreignTaxPaid, taxConcepts[foreignTaxPaid].Concept},
	{InterestIncome, taxConcepts[InterestIncome].Concept}, {NetInterestIncome, taxConcepts[NetInterestIncome].Concept},
	{NoninterestIncome, taxConcepts[NoninterestIncome].Concept},
}

// statutoryConcept is the federal statutory income tax rate the tax note
// reconciles from, a fraction ("pure": 0.21), read by the check alone as
// sgaConcept is. Its facts are in percent in the table.
var statutoryConcept = xbrl.ConceptDef{Concept: "StatutoryTaxRate", Label: "Federal statutory income tax rate",
	Unit: "pure", Tags: []xbrl.Tag{{Taxonomy: xbrl.TaxonomyUSGAAP, Name: "EffectiveIncomeTaxRateReconciliationAtFederalStatutoryIncomeTaxRate"}}}

// sgaConcept is selling, general and administrative expense, which the
// xbrl package's concepts (and so the analysis and the data tools) do not
// carry: the check reads it alone. A filer that states its selling and
// its general expenses apart (Alphabet) has no such series, and a figure
// of it stays unverified.
var sgaConcept = xbrl.ConceptDef{Concept: "SellingGeneralAndAdministrative", Label: "Selling, general and administrative expense",
	Unit: "USD", Tags: []xbrl.Tag{{Taxonomy: xbrl.TaxonomyUSGAAP, Name: "SellingGeneralAndAdministrativeExpense"}}}

// opexConcept is the total of the operating expenses below gross profit
// (OperatingExpenses), read by the check alone as sgaConcept is. A filer
// that states only its costs and expenses with the cost of revenue in them
// (Alphabet's CostsAndExpenses) has no such series: a figure of it stays
// unverified, since the two totals differ by the cost of revenue.
var opexConcept = xbrl.ConceptDef{Concept: "OperatingExpenses", Label: "Operating expenses",
	Unit: "USD", Tags: []xbrl.Tag{{Taxonomy: xbrl.TaxonomyUSGAAP, Name: "OperatingExpenses"}}}

// seriesOf is the series of c: of the check's own definition for the
// concepts only it reads.
func seriesOf(cf *xbrl.CompanyFacts, c xbrl.Concept) (*xbrl.Series, error) {
	switch c {
	case sgaConcept.Concept:
		return cf.Resolve(sgaConcept)
	case opexConcept.Concept:
		return cf.Resolve(opexConcept)
	case statutoryConcept.Concept:
		return cf.Resolve(statutoryConcept)
	case basicSharesConcept.Concept:
		return cf.Resolve(basicSharesConcept)
	}
	for _, def := range taxConcepts {
		if def.Concept == c {
			return cf.Resolve(def)
		}
	}
	return cf.Series(c)
}

// Years is how many fiscal years, back from the latest, a Table holds; the
// quarters of the last two years and of the year in progress are held too,
// and the TTM.
const Years = 4

// HistoryYears is how many fiscal years back from the latest the Table
// holds the annual flows of (historyMetrics), their margins and growth:
// a change "over the past decade" or "since fiscal 2016" is held to them.
// Without them such a span was always unverified, however wrong. XBRL
// filing began in 2009, so 25 years take in all a companyfacts file holds:
// a streak ("raised its dividend for 12 straight years") is held to every
// year the filings state, not to the last ten only.
const HistoryYears = 25

// historyMetrics are the lines held for the years before the last Years +
// 1: amounts of a year's flows, which later filings restate little. Per-
// share figures and share counts change with every split (a 2019 EPS is
// stated before and after a 4-for-1 split in the data), and balance-sheet
// lines with their tags: left out, a figure of them for those years is
// unverified.
var historyMetrics = map[Metric]bool{Revenue: true, CostOfRevenue: true, GrossProfit: true, OperatingIncome: true, NetIncome: true,
	OperatingCashFlow: true, Capex: true, RandD: true, SGA: true, OperatingExpenses: true, Dividends: true, Repurchases: true}

// BuildTable reads the reference facts of a company from its XBRL data:
// for the latest fiscal year latestFY (0: the latest the data report) and
// the Years before, every base metric, the derived ones (gross profit when
// not reported, free cash flow, margins) and the growth of each against a
// year earlier; for the quarters of the last two years, those of the year
// in progress and the TTM, alike.
// For the fiscal years it adds what the analysis computes: every ratio and
// the Piotroski and Altman scores (sic, the filer's industry code, 0 when
// unknown, picks the Altman variant as it does for the analysis).
func BuildTable(cf *xbrl.CompanyFacts, company string, latestFY, sic int) (*Table, error) {
	series := map[Metric]*xbrl.Series{}
	for _, c := range concepts {
		s, err := seriesOf(cf, c.c)
		if err == nil {
			series[c.m] = s
		}
	}
	// The years are revenue's, else net income's: a bank that tags no
	// revenue total (only net interest and noninterest income) still
	// reports its profit, EPS and balance sheet, which the check holds
	// as the analysis does; its revenue stays unverified.
	anchor := series[Revenue]
	if anchor == nil {
		anchor = series[NetIncome]
	}
	if anchor == nil {
		if why := cf.Unavailable(); why != "" {
			// Say why (another currency, IFRS in another currency, no
			// statements) rather than only that revenue is missing.
			return nil, fmt.Errorf("factcheck: %s: %s", company, why)
		}
		return nil, fmt.Errorf("factcheck: %s reports neither revenue nor net income in XBRL, so no figure of it can be checked", company)
	}
	if latestFY == 0 {
		f, ok := anchor.LatestAnnual()
		if !ok {
			return nil, fmt.Errorf("factcheck: %s reports no annual revenue or net income (no 10-K or 20-F figures), so no figure of it can be checked", company)
		}
		latestFY = f.Period.FiscalYear
	}
	t := &Table{Company: company, Name: cf.EntityName, LatestFY: latestFY, FYEndMonth: int(cf.FiscalYearEnd.Month), FYEndDay: cf.FiscalYearEnd.Day,
		FYNamedForStart: cf.FiscalYearEnd.NamedForStart()}
	if cur := cf.Currency(); cur != "USD" {
		t.Currency = cur
	}
	preferred := preferredStock(cf)
	splits := stockSplits(cf, t.Currency)
	var periods []Period
	for fy := latestFY - HistoryYears; fy < latestFY-Years; fy++ {
		periods = append(periods, Period{FY: fy})
	}
	for fy := latestFY - Years; fy <= latestFY; fy++ {
		periods = append(periods, Period{FY: fy})
		if fy >= latestFY-2 {
			for q := 1; q <= 4; q++ {
				periods = append(periods, Period{FY: fy, Q: q})
			}
		}
	}
	// The quarters reported since the latest 10-K (10-Qs of the year in
	// progress) are the most recent figures a debater cites.
	for q := 1; q <= 3; q++ {
		periods = append(periods, Period{FY: latestFY + 1, Q: q})
	}
	periods = append(periods, Period{FY: latestFY, TTM: true})
	get := func(m Metric, p Period) (xbrl.Fact, bool) {
		s := series[m]
		if s == nil {
			return xbrl.Fact{}, false
		}
		switch {
		case p.TTM:
			f, err := s.TTM()
			return f, err == nil
		case p.Q > 0:
			return s.Quarter(p.FY, p.Q)
		}
		return s.Annual(p.FY)
	}
	for _, p := range periods {
		vals := map[Metric]Fact{}
		for _, c := range concepts {
			if p.FY < latestFY-Years && !historyMetrics[c.m] {
				continue
			}
			f, ok := get(c.m, p)
			if _, eps := epsShares[c.m]; eps && series[c.m] != nil && (p.TTM || p.Q > 1 && (!ok || f.Derived())) {
				// EPS is not additive: a quarter the filings do not state
				// for three months, or a TTM, is worked out from net income
				// and shares (the xbrl series derives none).
				if !ok || f.Derived() {
					fact, why := t.perShare(series, c.m, p, preferred)
					switch {
					case why != "":
						t.Gaps = append(t.Gaps, Gap{Metric: c.m, Period: p, Reason: why})
					case fact != (Fact{}):
						vals[c.m] = fact
					}
					continue
				}
			}
			if !ok {
				continue
			}
			if p.TTM && isInstant(c.m) {
				continue
			}
			fact := Fact{Metric: c.m, Period: p, Value: f.Value, Source: source(f.Sources)}
			if c.m == StatutoryTaxRate {
				if f.Derived() {
					continue // a rate is no difference of year-to-date rates
				}
				fact.Value *= 100
			}
			if restatedBySplits[c.m] && len(f.Sources) == 1 && len(splits) > 0 {
				adj, note, ok := splitAdjust(splits, c.m, f.Value, f.Sources[0].Filed)
				if !ok {
					t.Gaps = append(t.Gaps, Gap{Metric: c.m, Period: p, Reason: fmt.Sprintf("the filings Parley has state %s for %s only in a filing "+
						"made while a stock split took effect, before or after it cannot be told", c.m.Label(), p)})
					continue
				}
				if adj != fact.Value {
					fact.AsFiled = fact.Value
				}
				fact.Value, fact.Source = adj, fact.Source+note
			}
			if f.Derived() && UnitOf(c.m) == USDPerShare {
				// Half a cent for each figure rounded to the cent, and a
				// cent for the shares weighted over other spans.
				fact.Slack = 0.005*float64(len(f.Sources)) + 0.01
			}
			vals[c.m] = fact
		}
		t.Gaps = append(t.Gaps, derive(vals, p, t.Currency)...)
		deriveTaxes(vals, p)
		if !p.TTM {
			if c, ok := get(Cash, p); ok && !c.Derived() && len(c.Sources) == 1 {
				addNetDebt(cf, vals, p, c.Sources[0])
				addBareCash(cf, vals, p, c.Sources[0])
			}
		}
		for _, f := range vals {
			t.Facts = append(t.Facts, f)
		}
	}
	// Growth against the same period a year earlier, of amounts only: the
	// growth of a ratio is not a figure the filings or the analysis state.
	var growth []Fact
	for _, f := range t.Facts {
		if u := UnitOf(f.Metric); u == Percent || u == Multiple || u == Points || u == Score || f.Period.TTM || alternate[f.Metric] {
			continue
		}
		prev := f.Period
		prev.FY--
		// Growth from a loss or from nothing is undefined, as the analysis
		// holds (analysis.Ratios): a figure of it is unverified, not held
		// to a number computed on the loss's size.
		if g, ok := t.Lookup(f.Metric, prev); ok && g.Value > 0 {
			growth = append(growth, Fact{Metric: Growth(f.Metric), Period: f.Period,
				Value: 100 * (f.Value - g.Value) / g.Value, Source: f.Source + "; " + g.Source})
		}
	}
	t.Facts = append(t.Facts, growth...)
	t.addPerShareHistory(cf)
	if err := t.addAnalysis(cf, latestFY, sic); err != nil {
		return nil, err
	}
	t.addRatioGaps(cf)
	for fy := latestFY - Years + 1; fy <= latestFY; fy++ {
		for _, m := range []Metric{ROAE, ROAA} {
			if f, ok := t.averageReturn(m, fy); ok {
				t.Facts = append(t.Facts, f)
			}
		}
	}
	if !preferredStock(cf) {
		// No preferred stock: common equity is all the equity.
		for _, f := range t.Facts {
			if c, ok := map[Metric]Metric{ROE: ROCE, ROAE: ROACE}[f.Metric]; ok {
				f.Metric = c
				t.Facts = append(t.Facts, f)
			}
		}
	}
	sort.SliceStable(t.Facts, func(i, j int) bool {
		a, b := t.Facts[i], t.Facts[j]
		if a.Metric != b.Metric {
			return a.Metric < b.Metric
		}
		if a.Period.FY != b.Period.FY {
			return a.Period.FY > b.Period.FY
		}
		return a.Period.Q > b.Period.Q
	})
	return t, nil
}

// restatedBySplits are the lines a stock split restates: the figures a
// share and the share counts.
var restatedBySplits = map[Metric]bool{EPSDiluted: true, EPSBasic: true, DividendsPerShare: true, Shares: true, DilutedShares: true, BasicShares: true}

// perShareLines are the per-share lines whose growth addPerShareHistory
// reads for the years before those the table holds them for.
var perShareLines = []struct {
	m Metric
	c xbrl.Concept
}{{EPSDiluted, xbrl.EPSDiluted}, {EPSBasic, xbrl.EPSBasic}, {DividendsPerShare, xbrl.DividendsPerShare}}

// addPerShareHistory adds the growth of each per-share line for the years
// of the history before those the table holds the line for, each from one
// annual report's figures of the year and the year before. A split
// restates per-share figures, so the latest figure of each year may stand
// on either side of one (Apple's fiscal 2017 dividend was last stated as
// $2.40, before the 2020 four-for-one split, and 2018's as $0.68, after
// it), but one report states its years on one footing. Without them a
// streak of dividend raises (or of EPS growth) longer than the years held
// was unverified however wrong.
func (t *Table) addPerShareHistory(cf *xbrl.CompanyFacts) {
	unit := "USD/shares"
	if t.Currency != "" {
		unit = t.Currency + "/shares"
	}
	for _, l := range perShareLines {
		def, ok := xbrl.Definition(l.c)
		if !ok {
			continue
		}
		g := Growth(l.m)
		type pair struct {
			cur, prev float64
			filed     xbrl.Date
			src       string
		}
		found := map[int]pair{}
		for _, tag := range append(def.Tags, def.Fallback...) {
			byReport := map[string]map[int]xbrl.Source{}
			for _, s := range cf.Reported(tag.Taxonomy, tag.Name, unit) {
				if !annualReport(s.Form) || s.Start == 0 || int(s.End-s.Start) < 350 || int(s.End-s.Start) > 380 {
					continue
				}
				fy, _ := cf.FiscalYearEnd.Label(s.End)
				if byReport[s.Accession] == nil {
					byReport[s.Accession] = map[int]xbrl.Source{}
				}
				byReport[s.Accession][fy] = s
			}
			pairs := map[int]pair{}
			for _, years := range byReport {
				for fy, cur := range years {
					prev, ok := years[fy-1]
					if !ok {
						continue
					}
					if p, seen := pairs[fy]; !seen || cur.Filed > p.filed {
						pairs[fy] = pair{cur.Value, prev.Value, cur.Filed, cur.String() + "; " + prev.String()}
					}
				}
			}
			// A year takes the first tag that states it and the year
			// before in one report: tags are not mixed within a year.
			for fy, p := range pairs {
				if _, ok := found[fy]; !ok {
					found[fy] = p
				}
			}
		}
		for fy, p := range found {
			if fy <= t.LatestFY-HistoryYears || fy > t.LatestFY || p.prev <= 0 {
				continue
			}
			rate := 100 * (p.cur - p.prev) / p.prev
			if i := slices.IndexFunc(t.Facts, func(f Fact) bool { return f.Metric == g && f.Period == (Period{FY: fy}) }); i >= 0 {
				// The growth of figures each rounded to the cent (NVIDIA's
				// fiscal 2023 EPS restated for a split as $0.17, against
				// $0.385: 55.8% down) is also the growth of the two as one
				// report states them ($1.74 against $3.85: 54.8%): either
				// is right.
				t.Facts[i].Slack = math.Max(t.Facts[i].Slack, math.Abs(t.Facts[i].Value-rate))
				continue
			}
			t.Facts = append(t.Facts, Fact{Metric: g, Period: Period{FY: fy}, Value: rate, Source: p.src})
		}
	}
}

// annualReport reports whether form is an annual report's.
func annualReport(form string) bool {
	switch form {
	case "10-K", "10-K/A", "10-KT", "20-F", "20-F/A", "40-F", "40-F/A":
		return true
	}
	return false
}

// addBareCash adds the readings of "cash" named alone at the date of the
// cash balance cash: cash and cash equivalents, and with restricted cash
// when the filing states that total then (the fallback of xbrl.Cash, so
// the balance may be that total already).
func addBareCash(cf *xbrl.CompanyFacts, vals map[Metric]Fact, p Period, cash xbrl.Source) {
	c, ok := vals[Cash]
	if !ok {
		return
	}
	vals[bareCash] = Fact{Metric: bareCash, Period: p, Value: c.Value, Source: c.Source}
	if r, ok := instantAt(cf, cash.End, cash.Unit, "CashCashEquivalentsRestrictedCashAndRestrictedCashEquivalents"); ok && r.Value != c.Value {
		vals[cashWithRestricted] = Fact{Metric: cashWithRestricted, Period: p, Value: r.Value, Source: r.String()}
	}
}

// addNetDebt adds net debt at the date of the cash balance cash, as the
// valuation computes it, and debt less cash alone; neither when no debt is
// reported then (a bank's deposits are no debt the check can read).
func addNetDebt(cf *xbrl.CompanyFacts, vals map[Metric]Fact, p Period, cash xbrl.Source) {
	nd := analysis.NetDebtAt(cf, cash)
	lt, haveLT := instantAt(cf, cash.End, cash.Unit, "MarketableSecuritiesNoncurrent", "AvailableForSaleSecuritiesDebtSecuritiesNoncurrent")
	haveLT = haveLT && lt.Value > 0
	// Cash with the securities the valuation counts against debt, when it
	// counts any ("cash and marketable securities of $132 billion"), and
	// with those held past a year too.
	var liquid float64
	var liquidSrcs []string
	withSecurities := false
	for _, in := range nd.Inputs {
		if in.Name == "cash" || in.Name == "short_term_investments" {
			liquid += in.Value
			liquidSrcs = append(liquidSrcs, in.Name+" "+in.Source)
			// A combined line (cash, equivalents and short-term
			// investments) is named so in its label.
			withSecurities = withSecurities || in.Name == "short_term_investments" || strings.Contains(in.Label, "short-term investments")
		}
	}
	if withSecurities {
		src := "cash and short-term investments from " + strings.Join(liquidSrcs, "; ")
		vals[CashAndInvestments] = Fact{Metric: CashAndInvestments, Period: p, Value: liquid, Source: src}
		if haveLT {
			vals[cashWithLongTermSecurities] = Fact{Metric: cashWithLongTermSecurities, Period: p, Value: liquid + lt.Value,
				Source: src + "; long_term_marketable_securities " + lt.String()}
		}
	}
	if !nd.HaveDebt {
		return
	}
	var srcs []string
	ofCash := nd.Value
	for _, in := range nd.Inputs {
		srcs = append(srcs, in.Name+" "+in.Source)
		if in.Name == "short_term_investments" {
			ofCash += in.Value
		}
	}
	src := "net debt from " + strings.Join(srcs, "; ")
	vals[NetDebt] = Fact{Metric: NetDebt, Period: p, Value: nd.Value, Source: src}
	vals[NetCash] = Fact{Metric: NetCash, Period: p, Value: -nd.Value, Source: strings.Replace(src, "net debt", "net cash", 1)}
	if ofCash != nd.Value {
		vals[netDebtOfCash] = Fact{Metric: netDebtOfCash, Period: p, Value: ofCash, Source: src}
		vals[netCashOfCash] = Fact{Metric: netCashOfCash, Period: p, Value: -ofCash, Source: strings.Replace(src, "net debt", "net cash", 1)}
	}
	if haveLT {
		vals[netCashWithSecurities] = Fact{Metric: netCashWithSecurities, Period: p, Value: lt.Value - nd.Value,
			Source: strings.Replace(src, "net debt", "net cash", 1) + "; long_term_marketable_securities " + lt.String()}
	}
}

// preferredStock reports whether the filer reports preferred stock
// outstanding, or preferred dividends, in any period: its common equity
// and the income common holders earn are then less than the totals.
func preferredStock(cf *xbrl.CompanyFacts) bool {
	unit := cf.Currency()
	if unit == "" {
		unit = "USD"
	}
	for _, tag := range []string{"PreferredStockValue", "PreferredStockValueOutstanding", "PreferredStockIncludingAdditionalPaidInCapital",
		"PreferredStockIncludingAdditionalPaidInCapitalNetOfDiscount", "PreferredStockDividendsIncomeStatementImpact", "DividendsPreferredStock",
		"PreferredStockDividendsAndOtherAdjustments", "TemporaryEquityCarryingAmountAttributableToParent"} {
		for _, s := range cf.Reported(xbrl.TaxonomyUSGAAP, tag, unit) {
			if s.Value > 0 {
				return true
			}
		}
	}
	return false
}

// alternate marks the other definitions of a line (alternatesOf's): no
// growth is computed of them, and no figure is read as one.
var alternate = map[Metric]bool{netDebtOfCash: true, netCashOfCash: true, netCashWithSecurities: true, cashWithLongTermSecurities: true,
	bareCash: true, cashWithRestricted: true,
	payoutRatioPerShare: true, foreignTaxPaid: true}

// instantAt is the first of the us-gaap tags reported in unit at date d,
// as the latest filing states it.
func instantAt(cf *xbrl.CompanyFacts, d xbrl.Date, unit string, tags ...string) (xbrl.Source, bool) {
	for _, tag := range tags {
		var best xbrl.Source
		found := false
		for _, s := range cf.Reported(xbrl.TaxonomyUSGAAP, tag, unit) {
			if s.End == d && s.Start == 0 && (!found || s.Filed > best.Filed) {
				best, found = s, true
			}
		}
		if found {
			return best, true
		}
	}
	return xbrl.Source{}, false
}

func isInstant(m Metric) bool {
	switch m {
	case Cash, LongTermDebt, Shares, TotalAssets, TotalLiabilities, Equity, NetDebt, netDebtOfCash, NetCash, netCashOfCash, netCashWithSecurities,
		CashAndInvestments, cashWithLongTermSecurities, bareCash, cashWithRestricted:
		return true
	}
	return false
}

// derive adds the metrics computed from others for one period, and
// returns the gaps of those that have no meaning for it.
func derive(v map[Metric]Fact, p Period, currency string) []Gap {
	var gaps []Gap
	both := func(a, b Fact) string { return a.Source + "; " + b.Source }
	rev, okRev := v[Revenue]
	if _, ok := v[GrossProfit]; !ok && okRev {
		if c, ok := v[CostOfRevenue]; ok {
			v[GrossProfit] = Fact{Metric: GrossProfit, Period: p, Value: rev.Value - c.Value, Source: both(rev, c)}
		}
	}
	if ocf, ok := v[OperatingCashFlow]; ok {
		if cx, ok := v[Capex]; ok {
			v[FreeCashFlow] = Fact{Metric: FreeCashFlow, Period: p, Value: ocf.Value - cx.Value, Source: both(ocf, cx)}
		}
	}
	// The effective rate is the tax expense over pretax income, as the
	// tax note states it; on a pretax loss it has no meaning a figure
	// could be held to.
	if pre, ok := v[PretaxIncome]; ok && pre.Value > 0 {
		if tax, ok := v[IncomeTax]; ok {
			v[EffectiveTaxRate] = Fact{Metric: EffectiveTaxRate, Period: p, Value: 100 * tax.Value / pre.Value, Source: both(tax, pre)}
		}
	}
	// The payout ratio both ways: dividends paid over net income, and the
	// dividend declared a share over diluted EPS.
	if ni, ok := v[NetIncome]; ok && ni.Value > 0 {
		if d, ok := v[Dividends]; ok {
			v[PayoutRatio] = Fact{Metric: PayoutRatio, Period: p, Value: 100 * d.Value / ni.Value, Source: both(d, ni)}
		}
	}
	// Dividends paid out of a loss: no share of earnings, however large,
	// is what was paid. A payout ratio stated of such a year is not wrong
	// or right but meaningless, and said so.
	var why string
	if ni, ok := v[NetIncome]; ok && ni.Value <= 0 {
		if d, ok := v[Dividends]; ok && d.Value > 0 {
			why = fmt.Sprintf("a payout ratio is not meaningful in %s: net income was %s (a loss), and dividends of %s were paid out of no earnings",
				p, DisplayIn(NetIncome, ni.Value, currency), DisplayIn(Dividends, d.Value, currency))
		}
	}
	if eps, ok := v[EPSDiluted]; ok && eps.Value <= 0 && why == "" {
		if d, ok := v[DividendsPerShare]; ok && d.Value > 0 {
			why = fmt.Sprintf("a payout ratio is not meaningful in %s: diluted EPS was %s (a loss), and dividends of %s a share were declared out of no earnings",
				p, DisplayIn(EPSDiluted, eps.Value, currency), DisplayIn(DividendsPerShare, d.Value, currency))
		}
	}
	if _, ok := v[PayoutRatio]; !ok && why != "" {
		gaps = append(gaps, Gap{Metric: PayoutRatio, Period: p, Reason: why}, Gap{Metric: shareMetric(Dividends, NetIncome), Period: p, Reason: why},
			Gap{Metric: payoutRatioPerShare, Period: p, Reason: why})
	}
	if eps, ok := v[EPSDiluted]; ok && eps.Value > 0 {
		if d, ok := v[DividendsPerShare]; ok {
			v[payoutRatioPerShare] = Fact{Metric: payoutRatioPerShare, Period: p, Value: 100 * d.Value / eps.Value, Source: both(d, eps)}
		}
	}
	if okRev && rev.Value == 0 {
		for _, m := range []Metric{GrossMargin, OperatingMargin, NetMargin, FCFMargin} {
			gaps = append(gaps, Gap{Metric: m, Period: p, Reason: fmt.Sprintf("a margin is not meaningful in %s: revenue was nil", p)})
		}
	}
	if !okRev || rev.Value == 0 {
		return gaps
	}
	for m, num := range map[Metric]Metric{GrossMargin: GrossProfit, OperatingMargin: OperatingIncome, NetMargin: NetIncome, FCFMargin: FreeCashFlow} {
		if n, ok := v[num]; ok {
			v[m] = Fact{Metric: m, Period: p, Value: 100 * n.Value / rev.Value, Source: both(n, rev)}
		}
	}
	return gaps
}

// addAnalysis puts in the table, for every fiscal year it holds, each ratio
// the analysis computes (analysis.Ratios), as the analysis computes it:
// the same inputs (year-end balances), the same refusal of a non-positive
// denominator. Where the table already holds a metric of that name (the
// margins, free cash flow, revenue and net income growth) the analysis's
// value replaces it, so that one definition stands for the annual figure.
// A ratio the analysis cannot compute for a year (an input missing, a
// denominator not positive) is left out, and a figure of it is unverified.
// The analysis computes fiscal years only: quarters and the TTM keep the
// margins derive computes, and have no return or balance-sheet ratio.
// The framework scores are added alike: the Piotroski F-score when all nine
// criteria had data (otherwise it is only a lower bound, which no figure
// can be held to), and the Altman score unless an input is missing.
func (t *Table) addAnalysis(cf *xbrl.CompanyFacts, latestFY, sic int) error {
	fin, err := analysis.Load(cf, analysis.Options{FiscalYear: latestFY})
	if err != nil {
		return fmt.Errorf("factcheck: the ratios of %s for the fact check: %w", t.Company, err)
	}
	type key struct {
		m Metric
		p Period
	}
	at := map[key]int{}
	for i, f := range t.Facts {
		at[key{f.Metric, f.Period}] = i
	}
	put := func(f Fact) {
		if i, ok := at[key{f.Metric, f.Period}]; ok {
			t.Facts[i] = f
			return
		}
		at[key{f.Metric, f.Period}] = len(t.Facts)
		t.Facts = append(t.Facts, f)
	}
	for fy := latestFY - Years; fy <= latestFY; fy++ {
		year := *fin
		year.FiscalYear, year.SIC = fy, sic
		rs, _ := analysis.Ratios(&year)
		for _, r := range rs {
			if f, ok := RatioFact(r); ok {
				put(f)
			}
		}
		p := Period{FY: fy}
		if pio := analysis.Piotroski(&year); pio.Evaluated == len(pio.Criteria) {
			var in []xbrl.Fact
			for _, c := range pio.Criteria {
				in = append(in, c.Inputs...)
			}
			put(Fact{Metric: PiotroskiF, Period: p, Value: float64(pio.Score), Source: source(sourcesOf(in))})
		}
		for _, v := range []struct {
			m   Metric
			sic int
		}{{AltmanZ, sic}, {AltmanZDoublePrime, 0}} {
			// SIC 0 is the analysis's own way to the non-manufacturer Z''.
			year.SIC = v.sic
			if z := analysis.Altman(&year); !z.Missing {
				var in []xbrl.Fact
				for _, c := range z.Components {
					in = append(in, c.Inputs...)
				}
				put(Fact{Metric: v.m, Period: p, Value: z.Score, Source: source(sourcesOf(in))})
			}
		}
	}
	return nil
}

func sourcesOf(in []xbrl.Fact) []xbrl.Source {
	var out []xbrl.Source
	for _, f := range in {
		out = append(out, f.Sources...)
	}
	return out
}

// RatioFact is an analysis ratio as a fact of the check, in the check's
// unit (percent and percentage points, not fractions); false for a ratio
// the check has no metric for.
func RatioFact(r analysis.Ratio) (Fact, bool) {
	m := Metric(r.Name)
	if _, ok := labels[m]; !ok {
		if b, growth := m.Base(); !growth || labels[b] == "" {
			return Fact{}, false
		}
	}
	v := r.Value
	switch r.Format {
	case analysis.Percent, analysis.Points:
		v *= 100
	}
	return Fact{Metric: m, Period: Period{FY: r.FiscalYear}, Value: v, Source: source(sourcesOf(r.Inputs))}, true
}

// source cites the filings a figure came from: "10-K 0001045810-26-000021".
func source(srcs []xbrl.Source) string {
	var parts []string
	seen := map[string]bool{}
	for _, s := range srcs {
		c := s.Form + " " + s.Accession
		if !seen[c] {
			seen[c] = true
			parts = append(parts, c)
		}
	}
	return strings.Join(parts, "; ")
}
