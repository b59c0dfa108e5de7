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
	DividendsPerShare        Concept = "DividendsPerShare"
	DividendsPaid            Concept = "DividendsPaid"
	ShareRepurchases         Concept = "ShareRepurchases"
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
	// A monetary unit stands for the filer's reporting currency:
	// CompanyFacts.Resolve reads "USD" as "EUR" and "USD/shares" as
	// "EUR/shares" for a filer reporting in euros (see Currency).
	Unit string
	// Instant is true for balances (measured at a date) and false for flows
	// (measured over a period).
	Instant bool
	// Average is true for a figure averaged over its period rather than
	// summed (the weighted average diluted share count): a year's is no
	// sum of its quarters, so no quarter is worked out as the difference
	// of two year-to-date figures and no trailing twelve months as a sum
	// of quarters. A fourth quarter's average is the 10-K's to state, and
	// it states the year's only.
	Average bool
	// NonAdditive is true for a flow over an average (EPS: net income over
	// the weighted shares): the year's less nine months' is a quarter's
	// only when the shares did not move, and a split, an issuance or
	// buybacks move them, so no quarter is worked out as the difference of
	// two year-to-date figures and no trailing twelve months as a sum of
	// quarters. A reported three-month figure is returned as is.
	NonAdditive bool
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

// TaxonomyIFRS is the IFRS taxonomy a foreign private issuer's 20-F uses.
const TaxonomyIFRS = "ifrs-full"

// ifrs lists IFRS tags. They follow a concept's us-gaap tags: a filer
// reports one taxonomy or the other, and its figures are read in its
// reporting currency either way (dollars, euros, Taiwan dollars: see
// CompanyFacts.Currency).
func ifrs(names ...string) []Tag {
	tags := make([]Tag, len(names))
	for i, n := range names {
		tags[i] = Tag{Taxonomy: TaxonomyIFRS, Name: n}
	}
	return tags
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
		d.Tags = append(d.Tags, ifrs("Revenue", "RevenueFromContractsWithCustomers")...)
		d.Fallback = gaap("SalesRevenueGoodsNet", "SalesRevenueServicesNet", "InterestAndDividendIncomeOperating")
	case CostOfRevenue:
		d.Label = "Cost of revenue"
		d.Tags = append(gaap("CostOfRevenue", "CostOfGoodsAndServicesSold", "CostOfGoodsSold", "CostOfServices"), ifrs("CostOfSales")...)
	case GrossProfit:
		d.Label = "Gross profit"
		d.Tags = append(gaap("GrossProfit"), ifrs("GrossProfit")...)
		d.Note = "Some filers (e.g. Alphabet) do not report gross profit; analysis derives it as revenue minus cost of revenue."
	case ResearchAndDevelopment:
		d.Label = "Research and development expense"
		d.Tags = gaap("ResearchAndDevelopmentExpense",
			"ResearchAndDevelopmentExpenseExcludingAcquiredInProcessCost")
		d.Tags = append(d.Tags, ifrs("ResearchAndDevelopmentExpense")...)
	case OperatingIncome:
		d.Label = "Operating income"
		d.Tags = append(gaap("OperatingIncomeLoss"), ifrs("ProfitLossFromOperatingActivities")...)
	case EBIT:
		d.Label = "EBIT"
		// us-gaap has no EBIT element. Operating income is the usual proxy;
		// pretax income plus interest expense would need InterestExpense,
		// which several filers stopped tagging (NVIDIA after 2024).
		d.Tags = append(gaap("OperatingIncomeLoss"), ifrs("ProfitLossFromOperatingActivities")...)
		d.Note = "EBIT is operating income (us-gaap has no EBIT element)."
	case InterestExpense:
		d.Label = "Interest expense"
		d.Tags = append(gaap("InterestExpense", "InterestExpenseNonoperating", "InterestExpenseDebt"), ifrs("InterestExpense")...)
		// IFRS finance costs include more than interest (lease interest,
		// unwinding of discounts): read only where no interest is tagged.
		d.Fallback = ifrs("FinanceCosts")
	case PretaxIncome:
		d.Label = "Income before income taxes"
		d.Tags = gaap("IncomeLossFromContinuingOperationsBeforeIncomeTaxesExtraordinaryItemsNoncontrollingInterest",
			"IncomeLossFromContinuingOperationsBeforeIncomeTaxesMinorityInterestAndIncomeLossFromEquityMethodInvestments")
		d.Tags = append(d.Tags, ifrs("ProfitLossBeforeTax")...)
	case IncomeTax:
		d.Label = "Income tax expense"
		d.Tags = append(gaap("IncomeTaxExpenseBenefit"), ifrs("IncomeTaxExpenseContinuingOperations")...)
	case NetIncome:
		d.Label = "Net income"
		// ProfitLoss includes noncontrolling interests and the amount
		// available to common holders excludes preferred dividends: both
		// only where NetIncomeLoss is not reported.
		// IFRS alike: profit attributable to the parent's owners, else
		// profit including noncontrolling interests.
		d.Tags = append(gaap("NetIncomeLoss"), ifrs("ProfitLossAttributableToOwnersOfParent")...)
		d.Fallback = append(gaap("ProfitLoss", "NetIncomeLossAvailableToCommonStockholdersBasic"), ifrs("ProfitLoss")...)
	case EPSDiluted:
		d.Label = "Diluted EPS"
		d.Unit = "USD/shares"
		d.NonAdditive = true
		// A filer without dilutive securities may report one figure for
		// both (EarningsPerShareBasicAndDiluted): the same quantity.
		d.Tags = append(gaap("EarningsPerShareDiluted", "EarningsPerShareBasicAndDiluted"),
			ifrs("DilutedEarningsLossPerShare", "BasicAndDilutedEarningsLossPerShare")...)
	case EPSBasic:
		d.Label = "Basic EPS"
		d.Unit = "USD/shares"
		d.NonAdditive = true
		d.Tags = append(gaap("EarningsPerShareBasic", "EarningsPerShareBasicAndDiluted"),
			ifrs("BasicEarningsLossPerShare", "BasicAndDilutedEarningsLossPerShare")...)
	case DividendsPerShare:
		// What a debater states as "dividends of $0.98 per share": the
		// dividends declared a share in the period (as a split restates
		// EPS, it restates these); the amount paid a share only where
		// no declared amount is reported.
		d.Label = "Dividends declared per share"
		d.Unit = "USD/shares"
		d.Tags = append(gaap("CommonStockDividendsPerShareDeclared"), ifrs("DividendsRecognisedAsDistributionsToOwnersPerShare")...)
		d.Fallback = gaap("CommonStockDividendsPerShareCashPaid")
	case DividendsPaid:
		d.Label = "Dividends paid"
		d.Tags = append(gaap("PaymentsOfDividends", "PaymentsOfDividendsCommonStock"),
			ifrs("DividendsPaidClassifiedAsFinancingActivities", "DividendsPaid", "DividendsPaidClassifiedAsOperatingActivities")...)
	case ShareRepurchases:
		// The cash paid for the company's own common stock, as the cash
		// flow statement reports it: what "bought back $90.7 billion of
		// stock" states.
		d.Label = "Share repurchases"
		d.Tags = append(gaap("PaymentsForRepurchaseOfCommonStock"),
			ifrs("PaymentsToAcquireOrRedeemEntitysShares")...)
	case OperatingCashFlow:
		d.Label = "Operating cash flow"
		d.Tags = gaap("NetCashProvidedByUsedInOperatingActivities",
			"NetCashProvidedByUsedInOperatingActivitiesContinuingOperations")
		d.Tags = append(d.Tags, ifrs("CashFlowsFromUsedInOperatingActivities")...)
	case CapitalExpenditure:
		d.Label = "Capital expenditure"
		d.Tags = gaap("PaymentsToAcquirePropertyPlantAndEquipment",
			"PaymentsToAcquireProductiveAssets",
			"PaymentsToAcquirePropertyPlantAndEquipmentAndIntangibleAssets")
		d.Tags = append(d.Tags, ifrs("PurchaseOfPropertyPlantAndEquipmentClassifiedAsInvestingActivities", "PurchaseOfPropertyPlantAndEquipment")...)
	case DepreciationAmortization:
		d.Label = "Depreciation and amortization"
		d.Tags = gaap("DepreciationDepletionAndAmortization", "DepreciationAmortizationAndAccretionNet",
			"DepreciationAndAmortization")
		// IFRS filers often tag it only as the cash flow statement's
		// adjustment: the same amount.
		d.Tags = append(d.Tags, ifrs("DepreciationAndAmortisationExpense", "AdjustmentsForDepreciationAndAmortisationExpense")...)
	case Cash:
		d.Label = "Cash and cash equivalents"
		d.Instant = true
		d.Tags = append(gaap("CashAndCashEquivalentsAtCarryingValue"), ifrs("CashAndCashEquivalents")...)
		d.Fallback = gaap("CashCashEquivalentsRestrictedCashAndRestrictedCashEquivalents")
	case CurrentAssets:
		d.Label = "Current assets"
		d.Instant = true
		d.Tags = append(gaap("AssetsCurrent"), ifrs("CurrentAssets")...)
	case TotalAssets:
		d.Label = "Total assets"
		d.Instant = true
		d.Tags = append(gaap("Assets"), ifrs("Assets")...)
	case CurrentLiabilities:
		d.Label = "Current liabilities"
		d.Instant = true
		d.Tags = append(gaap("LiabilitiesCurrent"), ifrs("CurrentLiabilities")...)
	case TotalLiabilities:
		d.Label = "Total liabilities"
		d.Instant = true
		d.Tags = append(gaap("Liabilities"), ifrs("Liabilities")...)
	case LongTermDebt:
		d.Label = "Long-term debt (non-current)"
		d.Instant = true
		// LongTermDebt includes the current portion; it is the last resort
		// for filers that tag nothing narrower.
		d.Tags = append(gaap("LongTermDebtNoncurrent", "LongTermDebtAndCapitalLeaseObligations"),
			ifrs("NoncurrentPortionOfNoncurrentBorrowings", "LongtermBorrowings")...)
		d.Fallback = gaap("LongTermDebt")
	case LongTermDebtCurrent:
		d.Label = "Current portion of long-term debt"
		d.Instant = true
		d.Tags = append(gaap("LongTermDebtCurrent", "DebtCurrent"), ifrs("CurrentPortionOfNoncurrentBorrowings")...)
	case StockholdersEquity:
		d.Label = "Stockholders' equity"
		d.Instant = true
		d.Tags = append(gaap("StockholdersEquity"), ifrs("EquityAttributableToOwnersOfParent")...)
		d.Fallback = append(gaap("StockholdersEquityIncludingPortionAttributableToNoncontrollingInterest"), ifrs("Equity")...)
	case RetainedEarnings:
		d.Label = "Retained earnings (accumulated deficit)"
		d.Instant = true
		d.Tags = append(gaap("RetainedEarningsAccumulatedDeficit"), ifrs("RetainedEarnings")...)
	case SharesOutstanding:
		d.Label = "Common shares outstanding"
		d.Unit = "shares"
		d.Instant = true
		d.Tags = append(gaap("CommonStockSharesOutstanding"), ifrs("NumberOfSharesOutstanding")...)
	case DilutedSharesWeighted:
		d.Label = "Weighted average diluted shares"
		d.Unit = "shares"
		d.Average = true
		d.Tags = append(gaap("WeightedAverageNumberOfDilutedSharesOutstanding"), ifrs("AdjustedWeightedAverageShares")...)
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
		InterestExpense, PretaxIncome, IncomeTax, NetIncome, EPSDiluted, EPSBasic, DividendsPerShare, DividendsPaid, ShareRepurchases,
		OperatingCashFlow, CapitalExpenditure, DepreciationAmortization,
		Cash, CurrentAssets, TotalAssets, CurrentLiabilities, TotalLiabilities,
		LongTermDebt, LongTermDebtCurrent, StockholdersEquity, RetainedEarnings,
		SharesOutstanding, DilutedSharesWeighted, PublicFloat,
	}
}
