package factcheck

import (
	"fmt"
	"testing"
)

// TestBalanceTaxAndDividendLines: total assets, total liabilities,
// stockholders' equity, pretax income, the tax expense, the effective tax
// rate and the dividend a share are held to the filings. Each was a line
// the check did not read, so a wrong one passed unverified. A figure of
// taxes paid stays unverified: it is not the expense. The statutory 21%
// is not the effective rate: it is verified against the statutory rate
// the filing reconciles from (TestPayoutAndTaxRates). Apple fiscal
// 2024: total assets $365.0B, liabilities $308.0B, equity $57.0B, pretax
// income $123.5B, tax $29.7B (24.1%, fiscal 2023 14.7%), dividends
// declared $0.98 a share (fiscal 2025 $1.02).
func TestBalanceTaxAndDividendLines(t *testing.T) {
	ts := tables(t)
	for _, tc := range []struct {
		ticker, text string
		want         []Status
	}{
		{"AAPL", "Apple's total assets were $364.98 billion at the end of fiscal 2024.", []Status{Verified}},
		{"AAPL", "Apple's total assets were $464.98 billion at the end of fiscal 2024.", []Status{Corrected}},
		{"AAPL", "Total liabilities were $308.03 billion at the end of fiscal 2024.", []Status{Verified}},
		{"AAPL", "Total liabilities were $208.03 billion at the end of fiscal 2024.", []Status{Corrected}},
		{"AAPL", "Shareholders' equity was $56.95 billion at the end of fiscal 2024.", []Status{Verified}},
		{"AAPL", "Shareholders' equity was $66.95 billion at the end of fiscal 2024.", []Status{Corrected}},
		{"AAPL", "Total assets rose to $359.2 billion in fiscal 2025.", []Status{Corrected}},
		// Equity named alone is the balance sheet's; a stake, an offering
		// or investments are not.
		{"AAPL", "Apple's equity was $73.7 billion at the end of fiscal 2025.", []Status{Verified}},
		{"AAPL", "Apple's equity was $83.7 billion at the end of fiscal 2025.", []Status{Corrected}},
		{"AAPL", "Apple raised $5 billion in an equity offering in fiscal 2025.", []Status{Unverified}},
		{"GOOGL", "Alphabet's equity investments were worth $37.9 billion at the end of 2025.", []Status{Unverified}},
		{"AAPL", "Return on equity was 151.9% in fiscal 2025.", []Status{Verified}},
		{"AAPL", "Apple's pretax income was $123.5 billion in fiscal 2024.", []Status{Verified}},
		{"AAPL", "Apple's pretax income was $113.5 billion in fiscal 2024.", []Status{Corrected}},
		{"AAPL", "Apple's provision for income taxes was $29.7 billion in fiscal 2024.", []Status{Verified}},
		{"AAPL", "Apple's provision for income taxes was $19.7 billion in fiscal 2024.", []Status{Corrected}},
		{"AAPL", "The effective tax rate was 24.1% in fiscal 2024.", []Status{Verified}},
		{"AAPL", "The effective tax rate was 14.7% in fiscal 2024.", []Status{Corrected}},
		{"NVDA", "NVIDIA's effective tax rate was 13.3% in fiscal 2025.", []Status{Verified}},
		// The rate's level moved, as a margin's: from fiscal 2024's 24.1%.
		{"AAPL", "Apple's effective tax rate dropped to 15.6% in fiscal 2025 from 24.1%.", []Status{Verified, Verified}},
		{"AAPL", "Apple's effective tax rate rose to 15.6% in fiscal 2025.", []Status{Corrected}},
		{"AAPL", "Apple paid dividends of $0.98 per share in fiscal 2024.", []Status{Verified}},
		{"AAPL", "Apple paid dividends of $1.98 per share in fiscal 2024.", []Status{Corrected}},
		{"AAPL", "Apple's dividend per share rose to $1.12 in fiscal 2025.", []Status{Corrected}},
		{"AAPL", "Dividends per share rose 4% to $1.02 in fiscal 2025.", []Status{Verified, Verified}},
		{"AAPL", "Dividends per share rose 14% to $1.02 in fiscal 2025.", []Status{Corrected, Verified}},
		{"AAPL", "Apple paid $15.2 billion in dividends in fiscal 2024.", []Status{Verified}},
		{"AAPL", "Apple paid $26.1 billion in income taxes in fiscal 2024.", []Status{Unverified}},
		{"AAPL", "The statutory tax rate of 21% applied in fiscal 2024.", []Status{Verified}},
		{"AAPL", "Apple pays a quarterly dividend of $0.26 per share.", []Status{Unverified}},
	} {
		if got := statusesOf(ts[tc.ticker].Check(tc.text)); !equalStatuses(got, tc.want) {
			t.Errorf("%s %q → %s, want %v", tc.ticker, tc.text, describe(ts[tc.ticker].Check(tc.text)), tc.want)
		}
	}
	aapl := ts["AAPL"]
	for _, tc := range []struct {
		c    Claim
		want Status
	}{
		{Claim{Metric: "total_assets", Period: "FY2024", Value: "364.98", Scale: "billion"}, Verified},
		{Claim{Metric: "assets", Period: "FY2024", Value: "464.98", Scale: "billion"}, Corrected},
		{Claim{Metric: "shareholders_equity", Period: "FY2024", Value: "56.95", Scale: "billion"}, Verified},
		{Claim{Metric: "effective_tax_rate", Period: "FY2024", Value: "24.1", Unit: "percent"}, Verified},
		{Claim{Metric: "tax_rate", Period: "FY2024", Value: "14.7", Unit: "percent"}, Corrected},
		{Claim{Metric: "dividends_per_share", Period: "FY2025", Value: "1.02", Unit: "usd_per_share"}, Verified},
		{Claim{Metric: "dps", Period: "FY2025", Value: "0.98", Unit: "usd_per_share"}, Corrected},
	} {
		if f := aapl.CheckClaim(tc.c); f.Status != tc.want {
			t.Errorf("%+v → %s %s (%s), want %s", tc.c, f.Status, f.Period, f.Reason, tc.want)
		}
	}
}

// TestPerShareChanges: the change written after a per-share figure is
// the per-share figure's, though the word before them names the line
// ("earned", "dividends"): Apple's diluted EPS rose 23% in fiscal 2025
// (net income 19.5%), its dividend a share 4% (dividends paid 1%).
func TestPerShareChanges(t *testing.T) {
	aapl := tables(t)["AAPL"]
	for _, tc := range []struct {
		text string
		want []Status
	}{
		{"Apple earned $7.46 per share in fiscal 2025, up 23% from $6.08.", []Status{Verified, Verified, Verified}},
		{"Apple earned $7.46 per share in fiscal 2025, up 33% from $6.08.", []Status{Verified, Corrected, Verified}},
		{"Apple declared dividends of $1.02 per share in fiscal 2025, up 4%.", []Status{Verified, Verified}},
		{"Apple declared dividends of $1.02 per share in fiscal 2025, up 14%.", []Status{Verified, Corrected}},
		// A line named between them is the change's.
		{"Apple earned $7.46 per share in fiscal 2025 while net income rose 19.5%.", []Status{Verified, Verified}},
	} {
		if got := statusesOf(aapl.Check(tc.text)); !equalStatuses(got, tc.want) {
			t.Errorf("%q → %s, want %v", tc.text, describe(aapl.Check(tc.text)), tc.want)
		}
	}
}

// TestDerivedPerShareQuarters: a fourth quarter's EPS is the year's less
// nine months', each rounded to the cent and over shares weighted for
// other spans, so the quarter's EPS as the company reports it may differ
// by a cent or two: the synthetic filer's fourth quarter computes to
// $1.08 ($3.60 less $2.52), and its own $1.07 was corrected. A figure
// further off still is.
func TestDerivedPerShareQuarters(t *testing.T) {
	tb := syntheticTable(t, "split_CIK0009000017.json")
	for _, tc := range []struct {
		text string
		want Status
	}{
		{"Diluted EPS was $1.08 in Q4 FY2025.", Verified},
		{"Diluted EPS was $1.07 in Q4 FY2025.", Verified},
		{"Diluted EPS was $1.05 in Q4 FY2025.", Corrected},
		{"Diluted EPS was $0.98 in Q3 FY2025.", Corrected},
		// A reported quarter's EPS has no slack.
		{"Diluted EPS was $0.88 in Q3 FY2025.", Corrected},
		{"Diluted EPS was $0.89 in Q3 FY2025.", Verified},
	} {
		if fs := tb.Check(tc.text); len(fs) != 1 || fs[0].Status != tc.want {
			t.Errorf("%q → %s, want %s", tc.text, describe(fs), tc.want)
		}
	}
}

// TestQuarterlyDividendAsTheYears: a dividend a share stated for a year
// that is one quarter's ("NVIDIA paid dividends of $0.01 per share in
// fiscal 2026", its quarterly rate; the year's is $0.04) may be right of
// the quarter, which is how companies state their dividend: unverified,
// saying so, not corrected. A figure neither the year's nor a quarter's
// is corrected.
func TestQuarterlyDividendAsTheYears(t *testing.T) {
	ts := tables(t)
	split := syntheticTable(t, "split_CIK0009000017.json")
	checkOne(t, []oneCase{
		{ts["NVDA"], "NVIDIA paid dividends of $0.01 per share in fiscal 2026.", Unverified},
		{ts["NVDA"], "NVIDIA's dividend per share was $0.04 in fiscal 2026.", Verified},
		{ts["NVDA"], "NVIDIA's dividend per share was $0.40 in fiscal 2026.", Corrected},
		{ts["AAPL"], "Apple's dividend per share was $0.26 in fiscal 2025.", Unverified},
		{ts["AAPL"], "Apple paid dividends of $0.50 per share in fiscal 2025.", Corrected},
		// No quarter held: about a quarter of the year's is one.
		{split, "The company paid dividends of $0.12 per share in fiscal 2025.", Unverified},
		{split, "The company paid dividends of $0.20 per share in fiscal 2025.", Corrected},
	})
}

// TestNewLinesInTables: a Markdown table's rows of the new lines are read
// as prose's are.
func TestNewLinesInTables(t *testing.T) {
	split := syntheticTable(t, "split_CIK0009000017.json")
	for _, tc := range []struct {
		text string
		want []Status
	}{
		{"| Metric | FY2024 | FY2025 |\n|---|---|---|\n| Total assets ($B) | 97 | 105 |\n| Equity ($B) | 51 | 57 |",
			[]Status{Verified, Verified, Verified, Verified}},
		{"| Metric | FY2024 | FY2025 |\n|---|---|---|\n| Total assets ($B) | 97 | 115 |\n| Equity ($B) | 51 | 57 |",
			[]Status{Verified, Corrected, Verified, Verified}},
		{"| Metric | FY2024 | FY2025 |\n|---|---|---|\n| Effective tax rate | 19.0% | 21.0% |\n| Dividends per share | $0.44 | $0.48 |",
			[]Status{Verified, Corrected, Verified, Verified}},
	} {
		if got := statusesOf(split.Check(tc.text)); !equalStatuses(got, tc.want) {
			t.Errorf("%q → %s, want %v", tc.text, describe(split.Check(tc.text)), tc.want)
		}
	}
}

// TestReturnsOnAverageBalances: a return on equity or on assets is right
// computed on the year-end balance (the table's) or on the average of the
// year's opening and closing balances, as analysts and many filers state
// it; a figure right by neither is corrected. Apple fiscal 2025: net
// income $112.0B, equity $73.7B at its end and $57.0B at its start (151.9%
// on year-end equity, 171.4% on the average).
func TestReturnsOnAverageBalances(t *testing.T) {
	aapl := tables(t)["AAPL"]
	p := Period{FY: 2025}
	ni, ok1 := aapl.Lookup(NetIncome, p)
	e1, ok2 := aapl.Lookup(Equity, p)
	e0, ok3 := aapl.Lookup(Equity, Period{FY: 2024})
	a1, ok4 := aapl.Lookup(TotalAssets, p)
	a0, ok5 := aapl.Lookup(TotalAssets, Period{FY: 2024})
	if !ok1 || !ok2 || !ok3 || !ok4 || !ok5 {
		t.Fatal("the table lacks Apple's fiscal 2025 net income or its balances")
	}
	roe := 100 * ni.Value / ((e0.Value + e1.Value) / 2)
	roa := 100 * ni.Value / ((a0.Value + a1.Value) / 2)
	for _, tc := range []struct {
		text string
		want Status
	}{
		{"Return on equity was 151.9% in fiscal 2025.", Verified},
		{fmt.Sprintf("Apple's ROE was about %.0f%% in fiscal 2025.", roe), Verified},
		{fmt.Sprintf("Return on equity was %.1f%% in fiscal 2025.", roe+12), Corrected},
		{fmt.Sprintf("Return on assets was %.1f%% in fiscal 2025.", roa), Verified},
		{fmt.Sprintf("Return on assets was %.1f%% in fiscal 2025.", roa+6), Corrected},
	} {
		if got := aapl.Check(tc.text); len(got) != 1 || got[0].Status != tc.want {
			t.Errorf("%q → %s, want %s", tc.text, describe(got), tc.want)
		}
	}
}
