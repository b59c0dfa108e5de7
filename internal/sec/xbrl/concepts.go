package xbrl

// Concept is an economic quantity that filers report under one of several
// tags, for example Revenue.
type Concept string

// The concepts this package knows how to find. Their tags are listed by
// Definition.
const (
	Revenue                  Concept = "Revenue"
	CostOfRevenue            Concept = "CostOfRevenue"
	GrossProfit              Concept = "GrossProfit"
	ResearchAndDevelopment   Concept = "ResearchAndDevelopment"
	OperatingIncome          Concept = "OperatingIncome"
	EBIT                     Concept = "EBIT"
	InterestExpense          Concept = "InterestExpense"
	PretaxIncome             Concept = "PretaxIncome"
	IncomeTax                Concept = "IncomeTax"
	NetIncome                Concept = "NetIncome"
	EPSDiluted               Concept = "EPSDiluted"
	EPSBasic                 Concept = "EPSBasic"
	DividendsPaid            Concept = "DividendsPaid"
	OperatingCashFlow        Concept = "OperatingCashFlow"
	CapitalExpenditure       Concept = "CapitalExpenditure"
	DepreciationAmortization Concept = "DepreciationAmortization"
	Cash                     Concept = "Cash"
	CurrentAssets            Concept = "CurrentAssets"
	TotalAssets              Concept = "TotalAssets"
	CurrentLiabilities       Concept = "CurrentLiabilities"
	TotalLiabilities         Concept = "TotalLiabilities"
	LongTermDebt             Concept = "LongTermDebt"
	LongTermDebtCurrent      Concept = "LongTermDebtCurrent"
	StockholdersEquity       Concept = "StockholdersEquity"
	RetainedEarnings         Concept = "RetainedEarnings"
	SharesOutstanding        Concept = "SharesOutstanding"
	DilutedSharesWeighted    Concept = "DilutedSharesWeighted"
	PublicFloat              Concept = "PublicFloat"
)

// Tag is a taxonomy-qualified XBRL element name.
type Tag struct {
	Taxonomy string
	Name     string
}

func (t Tag) String() string { return t.Taxonomy + ":" + t.Name }

// ConceptDef says where to find a concept.
type ConceptDef struct {
	Concept Concept
	// Label is a human-readable name.
	Label string
	// Unit is the companyfacts unit key ("USD", "shares", "USD/shares").
	Unit string
	// Instant is true for balances (measured at a date) and false for flows
	// (measured over a period).
	Instant bool
	// Tags are the candidate tags in order of preference. Resolve prefers the
	// tag whose data reaches furthest forward and uses the order only to
	// break ties; see CompanyFacts.Resolve.
	Tags []Tag
	// Fallback are tags that measure something close to but not the same as
	// the concept (a bank's gross interest income for its revenue, net
	// income including noncontrolling interests for net income). They are
	// read only for a filer that reports none of Tags, or has stopped (see
	// Resolve), and then only for periods no tag of Tags reports: ranked
	// with Tags by coverage, a narrower tag that a filer reports in every
	// 10-Q would displace the concept's own tag, reported in the 10-K only.
	Fallback []Tag
	// Note explains a choice that a reader of the figures should know about.
	Note string
}

func gaap(names ...string) []Tag {
	tags := make([]Tag, len(names))
	for i, n := range names {
		tags[i] = Tag{Taxonomy: TaxonomyUSGAAP, Name: n}
	}
	return tags
}

// Definition returns where to find concept c. It builds a fresh value on
// every call, so callers may modify the result (for example to try other
// tags with Resolve) without affecting anyone else.
func Definition(c Concept) (ConceptDef, bool) {
	d := ConceptDef{Concept: c, Unit: "USD"}
	switch c {
	case Revenue:
		d.Label = "Revenue"
		// Revenues is the generic element; ASC 606 (2018) introduced
		// RevenueFromContractWithCustomer...; SalesRevenueNet is pre-2018.
		// RevenuesNetOfInterestExpense is a bank's total net revenue. Goods
		// or services sales alone, and a bank's gross interest and dividend income
		// (what many small banks tag, with no revenue total), are read
		// only where no total is reported.
		d.Tags = gaap("Revenues",
			"RevenueFromContractWithCustomerExcludingAssessedTax",
			"RevenueFromContractWithCustomerIncludingAssessedTax",
			"SalesRevenueNet",
			"RevenuesNetOfInterestExpense")
		d.Fallback = gaap("SalesRevenueGoodsNet", "SalesRevenueServicesNet", "InterestAndDividendIncomeOperating")
	case CostOfRevenue:
		d.Label = "Cost of revenue"
		d.Tags = gaap("CostOfRevenue", "CostOfGoodsAndServicesSold", "CostOfGoodsSold", "CostOfServices")
	case GrossProfit:
		d.Label = "Gross profit"
		d.Tags = gaap("GrossProfit")
		d.Note = "Some filers (e.g. Alphabet) do not report gross profit; analysis derives it as revenue minus cost of revenue."
	case ResearchAndDevelopment:
		d.Label = "Research and development expense"
		d.Tags = gaap("ResearchAndDevelopmentExpense",
			"ResearchAndDevelopmentExpenseExcludingAcquiredInProcessCost")
	case OperatingIncome:
		d.Label = "Operating income"
		d.Tags = gaap("OperatingIncomeLoss")
	case EBIT:
		d.Label = "EBIT"
		// us-gaap has no EBIT element. Operating income is the usual proxy;
		// pretax income plus interest expense would need InterestExpense,
		// which several filers stopped tagging (NVIDIA after 2024).
		d.Tags = gaap("OperatingIncomeLoss")
		d.Note = "EBIT is operating income (us-gaap has no EBIT element)."
	case InterestExpense:
		d.Label = "Interest expense"
		d.Tags = gaap("InterestExpense", "InterestExpenseNonoperating", "InterestExpenseDebt")
	case PretaxIncome:
		d.Label = "Income before income taxes"
		d.Tags = gaap("IncomeLossFromContinuingOperationsBeforeIncomeTaxesExtraordinaryItemsNoncontrollingInterest",
			"IncomeLossFromContinuingOperationsBeforeIncomeTaxesMinorityInterestAndIncomeLossFromEquityMethodInvestments")
	case IncomeTax:
		d.Label = "Income tax expense"
		d.Tags = gaap("IncomeTaxExpenseBenefit")
	case NetIncome:
		d.Label = "Net income"
		// ProfitLoss includes noncontrolling interests and the amount
		// available to common holders excludes preferred dividends: both
		// only where NetIncomeLoss is not reported.
		d.Tags = gaap("NetIncomeLoss")
		d.Fallback = gaap("ProfitLoss", "NetIncomeLossAvailableToCommonStockholdersBasic")
	case EPSDiluted:
		d.Label = "Diluted EPS"
		d.Unit = "USD/shares"
		// A filer without dilutive securities may report one figure for
		// both (EarningsPerShareBasicAndDiluted): the same quantity.
		d.Tags = gaap("EarningsPerShareDiluted", "EarningsPerShareBasicAndDiluted")
	case EPSBasic:
		d.Label = "Basic EPS"
		d.Unit = "USD/shares"
		d.Tags = gaap("EarningsPerShareBasic", "EarningsPerShareBasicAndDiluted")
	case DividendsPaid:
		d.Label = "Dividends paid"
		d.Tags = gaap("PaymentsOfDividends", "PaymentsOfDividendsCommonStock")
	case OperatingCashFlow:
		d.Label = "Operating cash flow"
		d.Tags = gaap("NetCashProvidedByUsedInOperatingActivities",
			"NetCashProvidedByUsedInOperatingActivitiesContinuingOperations")
	case CapitalExpenditure:
		d.Label = "Capital expenditure"
		d.Tags = gaap("PaymentsToAcquirePropertyPlantAndEquipment",
			"PaymentsToAcquireProductiveAssets",
			"PaymentsToAcquirePropertyPlantAndEquipmentAndIntangibleAssets")
	case DepreciationAmortization:
		d.Label = "Depreciation and amortization"
		d.Tags = gaap("DepreciationDepletionAndAmortization", "DepreciationAmortizationAndAccretionNet",
			"DepreciationAndAmortization")
	case Cash:
		d.Label = "Cash and cash equivalents"
		d.Instant = true
		d.Tags = gaap("CashAndCashEquivalentsAtCarryingValue")
		d.Fallback = gaap("CashCashEquivalentsRestrictedCashAndRestrictedCashEquivalents")
	case CurrentAssets:
		d.Label = "Current assets"
		d.Instant = true
		d.Tags = gaap("AssetsCurrent")
	case TotalAssets:
		d.Label = "Total assets"
		d.Instant = true
		d.Tags = gaap("Assets")
	case CurrentLiabilities:
		d.Label = "Current liabilities"
		d.Instant = true
		d.Tags = gaap("LiabilitiesCurrent")
	case TotalLiabilities:
		d.Label = "Total liabilities"
		d.Instant = true
		d.Tags = gaap("Liabilities")
	case LongTermDebt:
		d.Label = "Long-term debt (non-current)"
		d.Instant = true
		// LongTermDebt includes the current portion; it is the last resort
		// for filers that tag nothing narrower.
		d.Tags = gaap("LongTermDebtNoncurrent", "LongTermDebtAndCapitalLeaseObligations")
		d.Fallback = gaap("LongTermDebt")
	case LongTermDebtCurrent:
		d.Label = "Current portion of long-term debt"
		d.Instant = true
		d.Tags = gaap("LongTermDebtCurrent", "DebtCurrent")
	case StockholdersEquity:
		d.Label = "Stockholders' equity"
		d.Instant = true
		d.Tags = gaap("StockholdersEquity")
		d.Fallback = gaap("StockholdersEquityIncludingPortionAttributableToNoncontrollingInterest")
	case RetainedEarnings:
		d.Label = "Retained earnings (accumulated deficit)"
		d.Instant = true
		d.Tags = gaap("RetainedEarningsAccumulatedDeficit")
	case SharesOutstanding:
		d.Label = "Common shares outstanding"
		d.Unit = "shares"
		d.Instant = true
		d.Tags = gaap("CommonStockSharesOutstanding")
	case DilutedSharesWeighted:
		d.Label = "Weighted average diluted shares"
		d.Unit = "shares"
		d.Tags = gaap("WeightedAverageNumberOfDilutedSharesOutstanding")
	case PublicFloat:
		d.Label = "Public float (market value held by non-affiliates)"
		d.Instant = true
		d.Tags = []Tag{{Taxonomy: TaxonomyDEI, Name: "EntityPublicFloat"}}
		d.Note = "Measured at the end of the second fiscal quarter, as reported on the 10-K cover page."
	default:
		return ConceptDef{}, false
	}
	return d, true
}

// Concepts lists every concept Definition knows, in a fixed order.
func Concepts() []Concept {
	return []Concept{
		Revenue, CostOfRevenue, GrossProfit, ResearchAndDevelopment, OperatingIncome, EBIT,
		InterestExpense, PretaxIncome, IncomeTax, NetIncome, EPSDiluted, EPSBasic, DividendsPaid,
		OperatingCashFlow, CapitalExpenditure, DepreciationAmortization,
		Cash, CurrentAssets, TotalAssets, CurrentLiabilities, TotalLiabilities,
		LongTermDebt, LongTermDebtCurrent, StockholdersEquity, RetainedEarnings,
		SharesOutstanding, DilutedSharesWeighted, PublicFloat,
	}
}
