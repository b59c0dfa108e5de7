package factcheck

import "testing"

// TestPayoutAndTaxRates: the payout ratio (dividends paid over net income,
// or the dividend a share over diluted EPS) is a line of the table; it was
// a measure the check did not read, and a wrong one passed. A statutory
// tax rate is verified against the federal one the filing reconciles from
// (EffectiveIncomeTaxRateReconciliationAtFederalStatutoryIncomeTaxRate)
// and never corrected; set beside the effective rate, it was read as the
// effective rate and corrected ("well below the 21% statutory rate"). A
// rate named only a "tax rate" is held to the effective rate unless it is
// the statutory one; it was unread. Named effective, a wrong rate is
// corrected even when it is 21%. Truth from the companyfacts JSON: Apple
// FY2025 dividends $15.421B over net income $112.010B (13.8%), FY2024
// 16.3%, tax $20.719B over pretax $132.729B (15.6%), FY2024 24.1%, the
// statutory rate 21% in each; Alphabet 2025 payout 7.7%; the synthetic
// March filer fiscal 2026 dividends $360M over net income $900M (40%),
// tax $300M over pretax $1.2B (25%), fiscal 2025 38% and 20%.
func TestPayoutAndTaxRates(t *testing.T) {
	ts := tables(t)
	march := syntheticTable(t, "marchfy_CIK0009000024.json")
	split := syntheticTable(t, "split_CIK0009000017.json") // no statutory rate tagged
	for _, tc := range []struct {
		tb   *Table
		text string
		want []Status
	}{
		{ts["AAPL"], "Apple's payout ratio was 14% in fiscal 2025.", []Status{Verified}},
		{ts["AAPL"], "Apple's dividend payout ratio was about 16% in fiscal 2024.", []Status{Verified}},
		{ts["AAPL"], "Apple's payout ratio was 25% in fiscal 2025.", []Status{Corrected}},
		{ts["GOOGL"], "Alphabet's payout ratio was 7.7% in 2025.", []Status{Verified}},
		{ts["GOOGL"], "Alphabet's payout ratio was 20% in 2025.", []Status{Corrected}},
		{march, "Northwind's payout ratio was 38% in fiscal 2025 and 40% in fiscal 2026.", []Status{Verified, Verified}},
		{march, "Northwind's payout ratio was 45% in fiscal 2026.", []Status{Corrected}},
		{march, "Northwind paid $0.90 a share in dividends in fiscal 2026.", []Status{Verified}},
		{march, "Northwind paid $0.95 a share in dividends in fiscal 2026.", []Status{Corrected}},

		{ts["AAPL"], "Apple's effective tax rate of 15.6% in fiscal 2025 was well below the 21% statutory rate.", []Status{Verified, Verified}},
		{ts["AAPL"], "Against the 21% federal statutory rate, Apple's effective rate was 24.1% in fiscal 2024.", []Status{Verified, Verified}},
		{ts["AAPL"], "Apple's effective tax rate was 15.6% in fiscal 2025, against a 12.5% Irish statutory rate.", []Status{Verified, Unverified}},
		{ts["AAPL"], "Apple's effective tax rate was 21% in fiscal 2025.", []Status{Corrected}},
		{ts["AAPL"], "Apple's tax rate was 15.6% in fiscal 2025.", []Status{Verified}},
		{ts["AAPL"], "Apple's income tax rate was 24% in fiscal 2024.", []Status{Verified}},
		{ts["AAPL"], "Apple's tax rate was 21% in fiscal 2025.", []Status{Unverified}},
		{ts["AAPL"], "Apple's tax rate was 30% in fiscal 2025.", []Status{Corrected}},
		{ts["NVDA"], "NVIDIA's tax rate was 18% in fiscal 2026.", []Status{Corrected}},
		{march, "Northwind's tax rate was 25% in fiscal 2026.", []Status{Verified}},
		{march, "Northwind's tax rate was 21% in fiscal 2026.", []Status{Unverified}},
		{march, "Northwind's tax rate was 28% in fiscal 2026.", []Status{Corrected}},
		{march, "Northwind's effective tax rate was 21% in fiscal 2026.", []Status{Corrected}},
		{march, "Northwind's effective tax rate of 25% in fiscal 2026 was well above the 21% federal statutory rate.", []Status{Verified, Verified}},
		// A filer stating no statutory rate: a "tax rate" that is not the
		// effective one may be a statutory rate the check does not know.
		{split, "The tax rate was 19% in fiscal 2025.", []Status{Verified}},
		{split, "The tax rate was 21% in fiscal 2025.", []Status{Unverified}},
		{split, "The effective tax rate was 29% in fiscal 2025.", []Status{Corrected}},
		{ts["AAPL"], "The new 15% global minimum tax will raise Apple's tax rate.", []Status{Unverified}},
	} {
		fs := tc.tb.Check(tc.text)
		if got := statusesOf(fs); !equalStatuses(got, tc.want) {
			t.Errorf("%q → %s, want %v", tc.text, describe(fs), tc.want)
		}
	}
	for _, tc := range []struct {
		c    Claim
		want Status
	}{
		{Claim{Metric: "payout_ratio", Period: "FY2025", Value: "13.8", Unit: "percent"}, Verified},
		{Claim{Metric: "dividend_payout_ratio", Period: "FY2025", Value: "25", Unit: "percent"}, Corrected},
		{Claim{Metric: "statutory_tax_rate", Period: "FY2025", Value: "21", Unit: "percent"}, Verified},
	} {
		if f := ts["AAPL"].CheckClaim(tc.c); f.Status != tc.want {
			t.Errorf("%+v → %s %s (%s), want %s", tc.c, f.Status, f.Period, f.Reason, tc.want)
		}
	}
}
