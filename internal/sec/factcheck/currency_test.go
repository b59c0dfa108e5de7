package factcheck

import (
	"fmt"
	"strings"
	"testing"

	"github.com/parleyhq/parley/internal/sec/analysis"
	"github.com/parleyhq/parley/internal/sec/xbrl"
)

// dkkTable is the table of a small IFRS filer reporting in Danish kroner,
// as a 20-F states it: revenue and profit for two December years.
func dkkTable(t *testing.T) *Table {
	t.Helper()
	fact := func(y int, v float64) string {
		return fmt.Sprintf(`{"start":"%d-01-01","end":"%d-12-31","val":%.0f,"accn":"0009000024-25-000003","fy":2024,"fp":"FY","form":"20-F","filed":"2025-02-05"}`, y, y, v)
	}
	doc := `{"cik":9000024,"entityName":"SYNTHETIC PHARMA A/S","facts":{"ifrs-full":{` +
		`"Revenue":{"label":"Revenue","units":{"DKK":[` + fact(2023, 232261e6) + `,` + fact(2024, 290403e6) + `]}},` +
		`"ProfitLossAttributableToOwnersOfParent":{"label":"Profit","units":{"DKK":[` + fact(2023, 83683e6) + `,` + fact(2024, 100988e6) + `]}}}}}`
	cf, err := xbrl.ParseBytes([]byte(doc))
	if err != nil {
		t.Fatal(err)
	}
	tb, err := BuildTable(cf, "SPHA", 0, 0)
	if err != nil {
		t.Fatal(err)
	}
	return tb
}

// TestFilersInOtherCurrencies: a filer reporting in euros, Taiwan dollars
// or Danish kroner, under IFRS or US GAAP, has its figures checked in its
// own currency, however the currency is written ("€27.6 billion", "EUR
// 27.6bn", "27.6 billion euros", "NT$2.89 trillion", "DKK 290 billion"),
// and corrected in it; an amount in dollars (or any other currency) is
// unverified, with the reason, never corrected: the check does not convert
// currencies. An amount stated with no currency is read in the filer's.
func TestFilersInOtherCurrencies(t *testing.T) {
	litho := syntheticTable(t, "ifrslitho_CIK0009000021.json")
	twd := syntheticTable(t, "ifrstwd_CIK0009000022.json")
	eurGAAP := syntheticTable(t, "eur_CIK0009000008.json")
	dkk := dkkTable(t)
	if litho.Currency != "EUR" || twd.Currency != "TWD" || eurGAAP.Currency != "EUR" || dkk.Currency != "DKK" {
		t.Fatalf("currencies %q %q %q %q", litho.Currency, twd.Currency, eurGAAP.Currency, dkk.Currency)
	}
	const noConversion = "the check does not convert currencies"
	for _, tc := range []struct {
		tb            *Table
		text          string
		want          Status
		reason, shown string // part of the reason; the filing's figure as shown
	}{
		{litho, "Revenue was €27.6 billion in 2023.", Verified, "", ""},
		{litho, "Revenue was EUR 27.6bn in 2023.", Verified, "", ""},
		{litho, "Revenue was 27.6 billion euros in 2023.", Verified, "", ""},
		{litho, "Revenue was EUR27.6bn in 2023.", Verified, "", ""},
		{litho, "Net income was seven point six billion euros in 2024.", Verified, "", ""},
		{litho, "Revenue was 27.6 billion EUR in 2023.", Verified, "", ""},
		{litho, "Revenue was EUR 30.6bn in 2023.", Corrected, "", "€27.6B"},
		{litho, "Revenue was € 27,559 million in fiscal 2023.", Verified, "", ""},
		{litho, "Revenue was 27.6 billion in 2023.", Verified, "", ""},
		{litho, "Revenue was €28.3 billion in 2023.", Corrected, "", "€27.6B"},
		// Ranges, as dollar ranges are read.
		{litho, "Revenue was €27-28 billion in 2023.", Verified, "", ""},
		{litho, "Revenue was between €27 billion and €28 billion in 2023.", Verified, "", ""},
		{litho, "Revenue was EUR 27.5-27.7bn in 2023.", Verified, "", ""},
		{litho, "Revenue was €29-30 billion in 2023.", Corrected, "", "€27.6B"},
		{twd, "Revenue was between NT$2.8 trillion and NT$2.9 trillion in 2024.", Verified, "", ""},
		{litho, "Revenue was $27.6 billion in 2023.", Unverified, "an amount in US dollars: the filer reports its figures in EUR", ""},
		{litho, "Revenue was USD 27.6bn in 2023.", Unverified, noConversion, ""},
		{litho, "Revenue was US$30.1 billion in 2023.", Unverified, noConversion, ""},
		{litho, "Revenue was 27.6 billion dollars in 2023.", Unverified, noConversion, ""},
		{litho, "Revenue was NT$27.6 billion in 2023.", Unverified, "an amount in TWD: the filer reports its figures in EUR", ""},
		{litho, "Net income was €7.6 billion in 2024.", Verified, "", ""},
		{litho, "Net income was €8.6 billion in 2024.", Corrected, "", "€7.6B"},
		{litho, "Diluted EPS was €19.89 in 2023.", Verified, "", ""},
		{litho, "Diluted EPS was €21.00 in 2023.", Corrected, "", "€19.89"},
		{litho, "Diluted EPS was $19.89 in 2023.", Unverified, noConversion, ""},
		{litho, "Total assets were €48.6 billion at the end of 2024.", Verified, "", ""},
		{litho, "Operating cash flow was €11.2 billion in 2024.", Verified, "", ""},
		{litho, "Free cash flow was €9.1 billion in 2024.", Verified, "", ""},
		{litho, "Operating income fell to €9.0 billion in 2024.", Verified, "", ""},
		// Percentages and ratios hold in any currency.
		{litho, "Revenue grew 2.6% in 2024.", Verified, "", ""},
		{litho, "Revenue grew 12% in 2024.", Corrected, "", ""},
		{litho, "Net margin was 26.8% in 2024.", Verified, "", ""},
		{litho, "Gross margin was 51.3% in 2024.", Verified, "", ""},
		{twd, "Revenue was NT$2.89 trillion in 2024.", Verified, "", ""},
		{twd, "Revenue was NT$2,894.3 billion in 2024.", Verified, "", ""},
		{twd, "Revenue was TWD 2.89 trillion in 2024.", Verified, "", ""},
		{twd, "Revenue was 2.89 trillion New Taiwan dollars in 2024.", Verified, "", ""},
		{twd, "Revenue was NT$3.2 trillion in 2024.", Corrected, "", "NT$2.894T"},
		{twd, "Net income was NT$1.17 trillion in 2024.", Verified, "", ""},
		{twd, "Diluted EPS was NT$45.25 in 2024.", Verified, "", ""},
		// "$" may be the Taiwan dollar: right in it, verified; else
		// unverified, not corrected. "US$" and "USD" are US dollars.
		{twd, "Revenue was $90 billion in 2024.", Unverified, "may be US dollars or the filer's TWD", ""},
		{twd, "Revenue was $2.89 trillion in 2024.", Verified, "", ""},
		{twd, "Revenue was US$2.89 trillion in 2024.", Unverified, "an amount in US dollars: the filer reports its figures in TWD", ""},
		{twd, "Revenue was USD 90bn in 2024.", Unverified, "an amount in US dollars: the filer reports its figures in TWD", ""},
		{twd, "Revenue was 2.89 trillion US dollars in 2024.", Unverified, "an amount in US dollars", ""},
		{twd, "Revenue was €2.89 trillion in 2024.", Unverified, noConversion, ""},
		{twd, "Net margin was 40.5% in 2024.", Verified, "", ""},
		{eurGAAP, "Revenue was €28.3 billion in 2024.", Verified, "", ""},
		{eurGAAP, "Revenue was $28.3 billion in 2024.", Unverified, noConversion, ""},
		{dkk, "Revenue was DKK 290 billion in 2024.", Verified, "", ""},
		{dkk, "Revenue was 290.4 billion Danish kroner in 2024.", Verified, "", ""},
		{dkk, "Revenue was 290 billion DKK in 2024.", Verified, "", ""},
		{dkk, "Net profit was DKK 101.0 billion in 2024.", Verified, "", ""},
		{dkk, "Revenue was DKK 310 billion in 2024.", Corrected, "", "DKK 290.4B"},
		{dkk, "Revenue was $42 billion in 2024.", Unverified, noConversion, ""},
		{dkk, "Revenue grew 25% in 2024.", Verified, "", ""},
	} {
		fs := tc.tb.Check(tc.text)
		if len(fs) != 1 || fs[0].Status != tc.want || tc.reason != "" && !strings.Contains(fs[0].Reason, tc.reason) ||
			tc.shown != "" && !strings.Contains(fs[0].Per(), tc.shown) {
			t.Errorf("%q → %s, want one %s (%s %s)", tc.text, describe(fs), tc.want, tc.reason, tc.shown)
			continue
		}
		if fs[0].Status == Corrected && strings.Contains(fs[0].Per(), "$") && tc.tb.Currency != "TWD" {
			t.Errorf("%q: the correction labels the filer's figure in dollars: %s", tc.text, fs[0].Per())
		}
	}
}

// TestDollarFilerForeignAmounts: for a filer reporting in dollars, an
// amount in another currency is unverified, not compared, and says why.
func TestDollarFilerForeignAmounts(t *testing.T) {
	tb := syntheticTable(t, "loss_CIK0009000006.json")
	for _, text := range []string{"The net loss was €120 million in 2024.", "The net loss was EUR 120m in 2024.", "The net loss was 120 million euros in 2024.",
		"The net loss was one hundred twenty million euros in 2024."} {
		fs := tb.Check(text)
		if len(fs) != 1 || fs[0].Status != Unverified || !strings.Contains(fs[0].Reason, "an amount in EUR: the filer reports its figures in US dollars") {
			t.Errorf("%q → %s", text, describe(fs))
		}
	}
	if fs := tb.Check("The net loss was $120 million in 2024."); len(fs) != 1 || fs[0].Status != Verified {
		t.Errorf("dollars → %s", describe(fs))
	}
	// A ticker or a year after a code is no amount in another currency.
	for _, text := range []string{"COP 2024 results: the net loss was $120 million.", "For EUR 2024 planning, the net loss was $120 million in 2024."} {
		if fs := tb.Check(text); len(fs) != 1 || fs[0].Status != Verified {
			t.Errorf("%q → %s", text, describe(fs))
		}
	}
}

// TestMarketFiguresInOtherCurrencies: a market value stated in the filer's
// currency is held to the recorded valuation in it; one in dollars (an
// ADR's market value) is market data, not held to euros.
func TestMarketFiguresInOtherCurrencies(t *testing.T) {
	tb := syntheticTable(t, "ifrslitho_CIK0009000021.json")
	rec := &Recorded{Valuations: []Valuation{{Basis: analysis.BasisMarketPrice, Figures: []analysis.ValueFigure{
		{Name: "market_cap", Label: "Market capitalisation", Value: 255.8e9, Unit: "EUR", Display: "€255.8B", Date: "2025-06-02", Source: "test close 2025-06-02"},
	}}}}
	for _, tc := range []struct {
		text string
		want Status
	}{
		{"The market cap is €256 billion.", Verified},
		{"The market cap is €300 billion.", Corrected},
		{"The market cap is 256 billion.", Verified},
		{"The market cap is $280 billion.", MarketData},
		{"The market cap is $256 billion.", MarketData},
	} {
		fs := tb.CheckWith(tc.text, rec)
		if len(fs) != 1 || fs[0].Status != tc.want {
			t.Errorf("%q → %s, want %s", tc.text, describe(fs), tc.want)
		}
	}
}

// TestClaimsInOtherCurrencies: a structured claim's amount is in the
// currency its unit names, else in the filer's ("usd" is the claim
// format's kind of value, an amount, which agents write for any filer).
func TestClaimsInOtherCurrencies(t *testing.T) {
	tb := syntheticTable(t, "ifrslitho_CIK0009000021.json")
	for _, tc := range []struct {
		unit string
		want Status
	}{
		{"eur_billions", Verified},
		{"EUR", Verified},
		{"", Verified},
		{"usd_billions", Verified},
		{"usd", Verified},
		{"twd", Unverified},
		{"TWD billions", Unverified},
	} {
		c := Claim{Metric: "revenue", Period: "FY2023", Value: "27.6", Scale: "billion", Unit: tc.unit}
		if f := tb.CheckClaim(c); f.Status != tc.want {
			t.Errorf("unit %q: %s (%s), want %s", tc.unit, f.Status, f.Reason, tc.want)
		}
	}
}

// TestTablesInOtherCurrencies: a Markdown table's bare numbers are amounts
// in the currency its notes state ("(€B)", "(NT$ trillions)", "(EUR)"),
// else in the filer's ("(in billions)"); a table in dollars for a euro
// filer is unverified, not held to its euros.
func TestTablesInOtherCurrencies(t *testing.T) {
	litho := syntheticTable(t, "ifrslitho_CIK0009000021.json")
	twd := syntheticTable(t, "ifrstwd_CIK0009000022.json")
	checkStatuses(t, []statusCase{
		{litho, "| | FY2024 | FY2023 |\n|---|---|---|\n| Revenue (€B) | 28.3 | 27.6 |\n| Net income (€B) | 7.6 | 9.9 |\n", []Status{Verified, Verified, Verified, Corrected}},
		{litho, "| | FY2024 | FY2023 |\n|---|---|---|\n| Revenue (in billions) | 28.3 | 27.6 |\n", []Status{Verified, Verified}},
		{litho, "| | FY2024 | FY2023 |\n|---|---|---|\n| Revenue (EUR bn) | 28.3 | 27.6 |\n| Diluted EPS (€) | 19.25 | 19.89 |\n", []Status{Verified, Verified, Verified, Verified}},
		{litho, "| | FY2024 | FY2023 |\n|---|---|---|\n| Revenue ($B) | 28.3 | 27.6 |\n", []Status{Unverified, Unverified}},
		{twd, "| | FY2024 | FY2023 |\n|---|---|---|\n| Revenue (NT$ trillions) | 2.89 | 2.16 |\n", []Status{Verified, Verified}},
	})
}
