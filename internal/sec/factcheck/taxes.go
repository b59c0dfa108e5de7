package factcheck

import "github.com/parleyhq/parley/internal/sec/xbrl"

// The tax lines beside the total expense, and the cash paid: a debater
// states "cash taxes of $20.3 billion" or "foreign taxes of $9.5 billion"
// as often as the expense. Held to the total expense, a right figure of
// a part of it was corrected; unread, a wrong one passed.
const (
	// CashTaxesPaid is the income taxes paid in cash, net of refunds
	// (the cash flow statement's supplemental line), not the expense.
	CashTaxesPaid Metric = "income_taxes_paid"
	// ForeignTax and DomesticTax are the income tax expense on foreign
	// and on domestic (for a US filer, federal, state and local)
	// income, current and deferred together, as the tax note splits it;
	// the domestic is the total less the foreign where the filer tags
	// only that.
	ForeignTax  Metric = "foreign_income_tax"
	DomesticTax Metric = "domestic_income_tax"
	// ForeignPretax and DomesticPretax are the pretax income earned
	// abroad and at home, as the tax note splits it.
	ForeignPretax  Metric = "foreign_pretax_income"
	DomesticPretax Metric = "domestic_pretax_income"
	// The current and deferred parts of the foreign expense, which a
	// filer tags when it tags no foreign total (Alphabet): only their sum
	// is a line of the table.
	currentForeignTax  Metric = "current_foreign_tax"
	deferredForeignTax Metric = "deferred_foreign_tax"
	// foreignTaxPaid is the income tax paid in cash abroad, net of
	// refunds, which filers disclose by jurisdiction since ASU 2023-09:
	// "paid $4.9 billion in foreign taxes" may mean it or the expense,
	// and is right by either (alternatesOf).
	foreignTaxPaid Metric = "foreign_income_taxes_paid"
)

// usd is a check-only definition of a flow in the filer's currency.
func usd(concept, label string, tags ...xbrl.Tag) xbrl.ConceptDef {
	return xbrl.ConceptDef{Concept: xbrl.Concept(concept), Label: label, Unit: "USD", Tags: tags}
}

func gaapTag(name string) xbrl.Tag { return xbrl.Tag{Taxonomy: xbrl.TaxonomyUSGAAP, Name: name} }

// A bank's income lines: its interest income (gross, InterestAndDividendIncomeOperating,
// which the revenue concept takes only as a fallback), its net interest income and
// its noninterest income, which a debater states of a bank as it states
// revenue of another company. A company that tags none has none held,
// and a figure of them stays unverified.
const (
	InterestIncome    Metric = "interest_income"
	NetInterestIncome Metric = "net_interest_income"
	NoninterestIncome Metric = "noninterest_income"
)

// taxConcepts are the tax lines' and the bank lines' definitions, read by
// the check alone as sgaConcept is.
var taxConcepts = map[Metric]xbrl.ConceptDef{
	CashTaxesPaid: usd("IncomeTaxesPaid", "Income taxes paid, net", gaapTag("IncomeTaxesPaidNet"), gaapTag("IncomeTaxesPaid"),
		xbrl.Tag{Taxonomy: xbrl.TaxonomyIFRS, Name: "IncomeTaxesPaidRefundClassifiedAsOperatingActivities"},
		xbrl.Tag{Taxonomy: xbrl.TaxonomyIFRS, Name: "IncomeTaxesPaidClassifiedAsOperatingActivities"}),
	ForeignTax:         usd("ForeignIncomeTax", "Foreign income tax expense", gaapTag("ForeignIncomeTaxExpenseBenefitContinuingOperations")),
	currentForeignTax:  usd("CurrentForeignIncomeTax", "Current foreign income tax expense", gaapTag("CurrentForeignTaxExpenseBenefit")),
	deferredForeignTax: usd("DeferredForeignIncomeTax", "Deferred foreign income tax expense", gaapTag("DeferredForeignIncomeTaxExpenseBenefit")),
	foreignTaxPaid:     usd("ForeignIncomeTaxesPaid", "Foreign income taxes paid, net", gaapTag("IncomeTaxPaidForeignAfterRefundReceived")),
	InterestIncome:     usd("InterestIncome", "Interest and dividend income", gaapTag("InterestAndDividendIncomeOperating")),
	NetInterestIncome:  usd("NetInterestIncome", "Net interest income", gaapTag("InterestIncomeExpenseNet")),
	NoninterestIncome:  usd("NoninterestIncome", "Noninterest income", gaapTag("NoninterestIncome")),
	ForeignPretax:      usd("ForeignPretaxIncome", "Foreign pretax income", gaapTag("IncomeLossFromContinuingOperationsBeforeIncomeTaxesForeign")),
	DomesticPretax:     usd("DomesticPretaxIncome", "Domestic pretax income", gaapTag("IncomeLossFromContinuingOperationsBeforeIncomeTaxesDomestic")),
}

// deriveTaxes adds the tax lines worked out from others for one period:
// the foreign expense from its current and deferred parts, the domestic
// expense and pretax income as the total less the foreign. The parts
// themselves are no line of the table.
func deriveTaxes(v map[Metric]Fact, p Period) {
	cur, okC := v[currentForeignTax]
	def, okD := v[deferredForeignTax]
	delete(v, currentForeignTax)
	delete(v, deferredForeignTax)
	if _, ok := v[ForeignTax]; !ok && okC && okD {
		v[ForeignTax] = Fact{Metric: ForeignTax, Period: p, Value: cur.Value + def.Value, Source: cur.Source + "; " + def.Source}
	}
	for _, d := range []struct{ m, total, foreign Metric }{{DomesticTax, IncomeTax, ForeignTax}, {DomesticPretax, PretaxIncome, ForeignPretax}} {
		if _, ok := v[d.m]; ok {
			continue
		}
		tot, ok1 := v[d.total]
		f, ok2 := v[d.foreign]
		if ok1 && ok2 {
			v[d.m] = Fact{Metric: d.m, Period: p, Value: tot.Value - f.Value, Source: tot.Source + "; " + f.Source}
		}
	}
}
