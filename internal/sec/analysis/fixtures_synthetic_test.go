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

// TestUnreadableFilers: a filer under IFRS, in another currency, or with no
// financial facts is thin data that says why, never figures in dollars.
func TestUnreadableFilers(t *testing.T) {
	for file, want := range map[string]string{
		"ifrs_CIK0009000007.json":    "IFRS (ifrs-full) in TWD",
		"eur_CIK0009000008.json":     "in EUR, not US dollars",
		"nofacts_CIK0009000009.json": "no financial-statement facts",
		"empty_CIK0009000010.json":   "no financial-statement facts",
	} {
		_, err := Analyze(fixtureFacts(t, file), Options{})
		if !errors.Is(err, ErrThinData) || !strings.Contains(err.Error(), want) {
			t.Errorf("%s: err = %v, want ErrThinData saying %q", file, err, want)
		}
	}
}
