package analysis

import (
	"math"
	"strings"
	"testing"

	"github.com/parleyhq/parley/internal/sec/xbrl"
)

// TestValueFromPublicFloat checks the valuation arithmetic on NVIDIA's
// recorded company facts: the public float of the FY2026 10-K (cover value at
// 2025-07-25) against the trailing twelve months to 2026-04-26.
func TestValueFromPublicFloat(t *testing.T) {
	cf := companyFacts(t, "NVDA")
	v, err := Value(cf, nil)
	if err != nil {
		t.Fatal(err)
	}
	if v.Basis != BasisPublicFloat {
		t.Fatalf("basis %q", v.Basis)
	}
	in := map[string]ValueInput{}
	for _, x := range v.Inputs {
		in[x.Name] = x
	}
	// Reported values (10-Q 0001045810-26-000052 for the balance sheet).
	if in["public_float"].Value != 4e12 || in["public_float"].Date != "2025-07-25" ||
		in["cash"].Value != 13_237_000_000 || in["long_term_debt"].Value != 7_470_000_000 || in["current_debt"].Value != 1e9 {
		t.Errorf("inputs = %+v", in)
	}
	// Less the current debt securities, tagged DebtSecuritiesCurrent.
	if got, want := in["net_debt"].Value, 7_470_000_000+1e9-13_237_000_000-37_098_000_000; got != want || in["short_term_investments"].Value != 37_098_000_000 {
		t.Errorf("net debt = %v, want %v", got, want)
	}
	pe, _ := v.Figure("pe_ttm")
	if want := 4e12 / in["net_income_ttm"].Value; pe.Value != want || pe.Display != "25.1x" {
		t.Errorf("P/E = %+v, want %v", pe, want)
	}
	ev, _ := v.Figure("enterprise_value")
	if ev.Value != 4e12+in["net_debt"].Value || ev.Display != "$3.96T" {
		t.Errorf("EV = %+v", ev)
	}
	fcf, _ := v.Figure("fcf_yield_ttm")
	if want := (in["operating_cash_flow_ttm"].Value - in["capex_ttm"].Value) / 4e12; fcf.Value != want {
		t.Errorf("FCF yield = %v, want %v", fcf.Value, want)
	}
	if !strings.Contains(in["revenue_ttm"].Period, "TTM to 2026-04-26") {
		t.Errorf("revenue period = %q", in["revenue_ttm"].Period)
	}
}

func TestValueWithPriceAndNoShares(t *testing.T) {
	cf := companyFacts(t, "GOOGL")
	v, err := Value(cf, &Price{Symbol: "GOOGL", Value: 200, Date: "2026-07-07", Source: "Test"})
	if err != nil {
		t.Fatal(err)
	}
	mc, _ := v.Figure("market_cap")
	// Alphabet reports its cover share counts by class only: the balance-sheet count is used, and said so.
	if mc.Value != 200*12_116_000_000 || !strings.Contains(strings.Join(v.Notes, " "), "us-gaap:CommonStockSharesOutstanding") {
		t.Errorf("market cap %+v notes %q", mc, v.Notes)
	}
	if moneyShort(-2.5e9, "USD") != "-$2.5B" || moneyShort(8.12e8, "USD") != "$812.0M" || moneyShort(2.5e11, "EUR") != "€250.0B" {
		t.Error("moneyShort")
	}
}

// TestNetDebtAt: net debt at any balance-sheet date, as the valuation
// computes it at the latest: the September loss-maker's fiscal 2025 year
// end (long-term debt $6.6B less cash $1.1B), and a bank with no debt
// reported has none.
func TestNetDebtAt(t *testing.T) {
	cf := fixtureFacts(t, "septloss_CIK0009000018.json")
	var cash []xbrl.Source
	for _, s := range cf.Reported(xbrl.TaxonomyUSGAAP, "CashAndCashEquivalentsAtCarryingValue", "USD") {
		if s.End.String() == "2025-09-27" {
			cash = append(cash, s)
		}
	}
	if len(cash) == 0 {
		t.Fatal("no cash at 2025-09-27")
	}
	nd := NetDebtAt(cf, cash[0])
	if !nd.HaveDebt || math.Abs(nd.Value-5.5e9) > 1 {
		t.Errorf("net debt at 2025-09-27 = %+v, want 5.5e9 with debt", nd)
	}
	v, err := Value(cf, &Price{Symbol: "X", Value: 10, Currency: "USD", Date: "2025-11-20", Source: "test"})
	if err != nil {
		t.Fatal(err)
	}
	for _, in := range v.Inputs {
		if in.Name == "net_debt" && math.Abs(in.Value-5.5e9) > 1 {
			t.Errorf("the valuation's net debt %v, want NetDebtAt's 5.5e9", in.Value)
		}
	}
}
