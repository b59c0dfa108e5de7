package analysis

import (
	"errors"
	"math"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/parleyhq/parley/internal/sec/xbrl"
)

// fixtureFacts parses a fixture of ../xbrl/testdata/synthetic (see its README).
func fixtureFacts(t *testing.T, name string) *xbrl.CompanyFacts {
	t.Helper()
	b, err := os.ReadFile(filepath.Join("..", "xbrl", "testdata", "synthetic", name))
	if err != nil {
		t.Fatal(err)
	}
	cf, err := xbrl.ParseBytes(b)
	if err != nil {
		t.Fatal(err)
	}
	return cf
}

func finite(v float64) bool { return !math.IsNaN(v) && !math.IsInf(v, 0) }

// TestNoNaNOrInf: for losses, negative equity, zero revenue and zero cash
// flow, every ratio, score and valuation figure is a finite number or
// absent with a reason; none is NaN or ±Inf, and none prints so.
func TestNoNaNOrInf(t *testing.T) {
	for _, file := range []string{"loss_CIK0009000006.json", "bank_CIK0009000001.json", "smallbank_CIK0009000002.json",
		"tagswitch_CIK0009000003.json", "june_CIK0009000004.json", "retail_CIK0009000005.json"} {
		cf := fixtureFacts(t, file)
		for fy := 2014; fy <= 2025; fy++ {
			rep, err := Analyze(cf, Options{FiscalYear: fy})
			if err != nil {
				t.Fatalf("%s FY%d: %v", file, fy, err)
			}
			for _, r := range rep.Ratios {
				if !finite(r.Value) || strings.Contains(r.Display(), "NaN") || strings.Contains(r.Display(), "Inf") {
					t.Errorf("%s FY%d %s = %v (%s)", file, fy, r.Name, r.Value, r.Display())
				}
			}
			for _, g := range rep.Gaps {
				if g.Reason == "" {
					t.Errorf("%s FY%d gap %s without a reason", file, fy, g.Name)
				}
			}
			for _, c := range rep.Piotroski.Criteria {
				if !finite(c.Current) || !finite(c.Prior) {
					t.Errorf("%s FY%d Piotroski %s: %v / %v", file, fy, c.Name, c.Current, c.Prior)
				}
			}
			if !rep.Altman.Missing && !finite(rep.Altman.Score) {
				t.Errorf("%s FY%d Altman = %v", file, fy, rep.Altman.Score)
			}
			for _, text := range []string{rep.Piotroski.Summary(), rep.Altman.Summary()} {
				if strings.Contains(text, "NaN") || strings.Contains(text, "Inf") {
					t.Errorf("%s FY%d summary: %s", file, fy, text)
				}
			}
		}
		for _, price := range []*Price{nil, {Symbol: "X", Value: 12.5, Currency: "USD", Date: "2025-06-02", Source: "test"}} {
			v, err := Value(cf, price)
			if errors.Is(err, ErrNoMarketValue) {
				continue
			}
			if err != nil {
				t.Fatalf("%s: Value: %v", file, err)
			}
			for _, f := range v.Figures {
				if !finite(f.Value) || strings.Contains(f.Display, "NaN") || strings.Contains(f.Display, "Inf") {
					t.Errorf("%s %s = %v (%s)", file, f.Name, f.Value, f.Display)
				}
			}
		}
	}
}

// TestLossesAndNegativeEquity: ratios over a non-positive denominator are
// gaps that say so; a loss gives no P/E, and the valuation says why; with
// no dei shares outstanding the balance sheet's count is used and named.
func TestLossesAndNegativeEquity(t *testing.T) {
	cf := fixtureFacts(t, "loss_CIK0009000006.json")
	rep, err := Analyze(cf, Options{})
	if err != nil {
		t.Fatal(err)
	}
	if rep.Financials.FiscalYear != 2024 {
		t.Fatalf("fiscal year %d", rep.Financials.FiscalYear)
	}
	gap := func(name string) string {
		for _, g := range rep.Gaps {
			if g.Name == name {
				return g.Reason
			}
		}
		return ""
	}
	for name, want := range map[string]string{
		"roe":             "not positive",
		"debt_to_equity":  "non-positive equity",
		"cash_conversion": "not positive",
		"current_ratio":   "missing",
	} {
		if r, ok := rep.Ratio(name); ok {
			t.Errorf("%s = %v, want a gap", name, r.Display())
		}
		if g := gap(name); !strings.Contains(g, want) {
			t.Errorf("%s gap %q, want %q", name, g, want)
		}
	}
	if r, ok := rep.Ratio("net_margin"); !ok || math.Abs(r.Value-(-0.16)) > 1e-9 {
		t.Errorf("net margin = %v, want -16%%", r)
	}
	// Growth from a zero base is undefined.
	rep23, err := Analyze(cf, Options{FiscalYear: 2023})
	if err != nil {
		t.Fatal(err)
	}
	if r, ok := rep23.Ratio("revenue_growth"); ok {
		t.Errorf("FY2023 revenue growth from zero = %v", r.Display())
	}

	v, err := Value(cf, &Price{Symbol: "LOSS", Value: 12.5, Currency: "USD", Date: "2025-06-02", Source: "test"})
	if err != nil {
		t.Fatal(err)
	}
	if _, ok := v.Figure("pe_ttm"); ok {
		t.Error("a P/E on a loss")
	}
	notes := strings.Join(v.Notes, " ")
	for _, want := range []string{"P/E (TTM) is not meaningful", "no dei:EntityCommonStockSharesOutstanding"} {
		if !strings.Contains(notes, want) {
			t.Errorf("notes lack %q: %s", want, notes)
		}
	}
	if mc, ok := v.Figure("market_cap"); !ok || mc.Value != 12.5*190e6 {
		t.Errorf("market cap %v, want price × balance-sheet shares", mc)
	}
}

// TestPriceInAnotherCurrency: a price in TWD is not multiplied into a
// "USD" market value; the public float is used, and the valuation says why.
func TestPriceInAnotherCurrency(t *testing.T) {
	cf := fixtureFacts(t, "loss_CIK0009000006.json")
	v, err := Value(cf, &Price{Symbol: "2330.TW", Value: 1085, Currency: "TWD", Date: "2025-06-02", Source: "test"})
	if err != nil {
		t.Fatal(err)
	}
	if v.Basis != BasisPublicFloat || v.Price != nil {
		t.Errorf("basis %s with price %v, want the public float", v.Basis, v.Price)
	}
	if !strings.Contains(strings.Join(v.Notes, " "), "in TWD, not US dollars") {
		t.Errorf("notes: %v", v.Notes)
	}
}

// TestUnreadableFilers: a filer with no financial facts is thin data that
// says why.
func TestUnreadableFilers(t *testing.T) {
	for file, want := range map[string]string{
		"nofacts_CIK0009000009.json": "no financial-statement facts",
		"empty_CIK0009000010.json":   "no financial-statement facts",
	} {
		_, err := Analyze(fixtureFacts(t, file), Options{})
		if !errors.Is(err, ErrThinData) || !strings.Contains(err.Error(), want) {
			t.Errorf("%s: err = %v, want ErrThinData saying %q", file, err, want)
		}
	}
}

// TestForeignCurrencyAnalysis: a filer reporting in euros or Taiwan
// dollars, under IFRS or US GAAP, is analysed in its own currency: ratios
// are the same arithmetic, amounts are written in its currency (never with
// a dollar sign), and the scores are computed.
func TestForeignCurrencyAnalysis(t *testing.T) {
	for _, tc := range []struct {
		file, currency string
		fy             int
		ratios         map[string]float64
		fcf            string // the free cash flow as displayed
		money          string // an amount of the Piotroski summary
	}{
		{"ifrslitho_CIK0009000021.json", "EUR", 2024, map[string]float64{
			"revenue_growth": 28.263/27.559 - 1, "net_margin": 7.572 / 28.263, "gross_margin": 14.493 / 28.263,
			"roe": 7.572 / 17.7, "current_ratio": 31.0 / 23.0, "debt_to_equity": 3.7 / 17.7,
		}, "€9.1B", "€11,167M"},
		{"ifrstwd_CIK0009000022.json", "TWD", 2024, map[string]float64{
			"revenue_growth": 2.8943/2.1617 - 1, "net_margin": 1.1733 / 2.8943, "roe": 1.1733 / 4.5010, "operating_margin": 1.3220 / 2.8943,
		}, "NT$870.1B", "NT$1,826,200M"},
		{"eur_CIK0009000008.json", "EUR", 2024, map[string]float64{"net_margin": 7.6 / 28.3}, "", ""},
	} {
		rep, err := Analyze(fixtureFacts(t, tc.file), Options{SIC: 3674})
		if err != nil {
			t.Fatalf("%s: %v", tc.file, err)
		}
		if rep.Financials.Currency != tc.currency || rep.Financials.FiscalYear != tc.fy {
			t.Errorf("%s: currency %q FY%d, want %s FY%d", tc.file, rep.Financials.Currency, rep.Financials.FiscalYear, tc.currency, tc.fy)
		}
		for name, want := range tc.ratios {
			if r, ok := rep.Ratio(name); !ok || math.Abs(r.Value-want) > 1e-9 {
				t.Errorf("%s: %s = %v, want %v", tc.file, name, r.Value, want)
			}
		}
		if tc.fcf == "" {
			continue
		}
		if r, ok := rep.Ratio("free_cash_flow"); !ok || r.Display() != tc.fcf {
			t.Errorf("%s: free cash flow %q, want %q", tc.file, r.Display(), tc.fcf)
		}
		sum := rep.Piotroski.Summary()
		if !strings.Contains(sum, tc.money) || strings.Contains(sum, "$1") && tc.currency == "EUR" {
			t.Errorf("%s: Piotroski summary lacks %s or has dollars:\n%s", tc.file, tc.money, sum)
		}
		if rep.Piotroski.Evaluated != 9 || rep.Altman.Missing {
			t.Errorf("%s: Piotroski %d/9 evaluated, Altman missing %v (%s)", tc.file, rep.Piotroski.Evaluated, rep.Altman.Missing, rep.Altman.Note)
		}
	}
}

// TestForeignCurrencyValuation: a euro filer's valuation is in euros with a
// price in euros; an ADR's dollar price is not multiplied into euros (nor
// a Taiwan dollar filer's), and the valuation says why instead of
// mixing currencies.
func TestForeignCurrencyValuation(t *testing.T) {
	cf := fixtureFacts(t, "ifrslitho_CIK0009000021.json")
	v, err := Value(cf, &Price{Symbol: "LITHO.AS", Value: 651, Currency: "EUR", Date: "2025-06-02", Source: "test"})
	if err != nil {
		t.Fatal(err)
	}
	mc, ok := v.Figure("market_cap")
	if !ok || mc.Unit != "EUR" || math.Abs(mc.Value-651*393.0e6) > 1 || mc.Display != "€255.8B" {
		t.Errorf("market cap %+v, want €255.8B", mc)
	}
	ev, _ := v.Figure("enterprise_value")
	if ev.Unit != "EUR" || math.Abs(ev.Value-(651*393.0e6+3.7e9-12.741e9)) > 1 {
		t.Errorf("enterprise value %+v, want market cap + IFRS borrowings - cash", ev)
	}
	if pe, ok := v.Figure("pe_ttm"); !ok || math.Abs(pe.Value-651*393.0e6/7.572e9) > 1e-9 {
		t.Errorf("P/E %+v", pe)
	}
	for _, in := range v.Inputs {
		if in.Name != "price" && in.Name != "shares_outstanding" && in.Unit != "EUR" {
			t.Errorf("input %s in %s, want EUR", in.Name, in.Unit)
		}
	}
	for _, tc := range []struct {
		file  string
		price Price
		want  string
	}{
		{"ifrslitho_CIK0009000021.json", Price{Symbol: "LITHO", Value: 700, Currency: "USD"}, "the price of LITHO is in USD, not EUR"},
		{"ifrstwd_CIK0009000022.json", Price{Symbol: "FNDY", Value: 200, Currency: "USD"}, "the price of FNDY is in USD, not TWD"},
		{"ifrstwd_CIK0009000022.json", Price{Symbol: "FNDY", Value: 200}, "the price of FNDY is in USD, not TWD"},
	} {
		v, err := Value(fixtureFacts(t, tc.file), &tc.price)
		if !errors.Is(err, ErrNoMarketValue) || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%s: Value = %+v, %v; want no market value because %q", tc.file, v, err, tc.want)
		}
	}
	tw, err := Value(fixtureFacts(t, "ifrstwd_CIK0009000022.json"), &Price{Symbol: "2330.TW", Value: 1085, Currency: "TWD", Date: "2025-06-02", Source: "test"})
	if err != nil {
		t.Fatal(err)
	}
	if mc, _ := tw.Figure("market_cap"); mc.Display != "NT$28.14T" || mc.Unit != "TWD" {
		t.Errorf("market cap %+v, want NT$28.14T", mc)
	}
	for _, in := range tw.Inputs {
		if in.Name == "net_income_ttm" && in.Period != "FY2024 (the filer reports annual figures only)" {
			t.Errorf("net income of an annual-only filer: %+v", in)
		}
	}
}

// TestUnscoredSayWhy: every rule is either scored or unscored with its own
// reason — a loss, negative equity, a thin Piotroski score and a bank's
// Altman each say which, not a generic "missing data".
func TestUnscoredSayWhy(t *testing.T) {
	for _, tc := range []struct {
		file string
		sic  int
		want map[string]string // unscored metric → part of its reason
	}{
		{"loss_CIK0009000006.json", 7372, map[string]string{
			"roe":               "StockholdersEquity FY2024 is -$300.0M, not positive, so return on equity is not meaningful",
			"debt_to_equity":    "non-positive equity",
			"cash_conversion":   "NetIncome FY2024 is -$120.0M, not positive",
			"net_income_growth": "non-positive base",
			"piotroski_f_score": "only 4 of 9 Piotroski criteria had data (roa_improving: missing [TotalAssets FY2022]",
			"altman_z":          "missing [CurrentAssets FY2024",
		}},
		{"bank_CIK0009000001.json", 6022, map[string]string{
			"altman_z": "the model does not apply to banks, lenders, brokers and insurers (SIC 6022)",
			"roe":      "missing [StockholdersEquity FY2024]",
		}},
	} {
		rep, err := Analyze(fixtureFacts(t, tc.file), Options{SIC: tc.sic})
		if err != nil {
			t.Fatal(err)
		}
		ev := Assess(rep)
		reasons := map[string]string{}
		for _, g := range ev.Unscored {
			if g.Reason == "" {
				t.Errorf("%s: %s unscored without a reason", tc.file, g.Name)
			}
			reasons[g.Name] = g.Reason
		}
		for _, m := range append(ev.Bull, ev.Bear...) {
			reasons[m.Name] = "scored"
		}
		for _, r := range Rules() {
			if _, ok := reasons[r.Metric]; !ok {
				t.Errorf("%s: %s neither scored nor unscored", tc.file, r.Metric)
			}
		}
		for name, want := range tc.want {
			if !strings.Contains(reasons[name], want) {
				t.Errorf("%s: %s reason %q, want it to say %q", tc.file, name, reasons[name], want)
			}
		}
	}
}

// TestAltmanFinancials: a financial SIC gets no Altman score even when every
// input is reported, and a non-financial one with the same facts does.
func TestAltmanFinancials(t *testing.T) {
	cf := companyFacts(t, "GOOGL")
	for sic, wantMissing := range map[int]bool{6021: true, 6311: true, sicGOOGL: false, 6500: false} {
		rep, err := Analyze(cf, Options{SIC: sic})
		if err != nil {
			t.Fatal(err)
		}
		if rep.Altman.Missing != wantMissing {
			t.Errorf("SIC %d: Altman missing = %v (%s), want %v", sic, rep.Altman.Missing, rep.Altman.Note, wantMissing)
		}
		if wantMissing && !strings.Contains(rep.Altman.Summary(), "does not apply") {
			t.Errorf("SIC %d: summary %q does not say why", sic, rep.Altman.Summary())
		}
	}
}
