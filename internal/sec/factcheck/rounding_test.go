package factcheck

import "testing"

// TestRateRounding: a rate in digits (growth, a margin, a share, a return,
// a tax or payout rate, a change in points) is right when it is the
// filing's rounded to its last digit, give or take rateAllowance; a whole
// unit either way let "grew 5%" pass of 5.8%. Right figures stated with
// normal rounding ("6%", "nearly 6%", "about 6%" of 5.8%, "6.5%" of
// 6.43% worked out from rounded amounts) are verified, and a width the
// words set ("more than doubled") is held whole. Truth from the
// companyfacts JSON: Apple fiscal 2025 revenue growth 6.43%, net income
// growth 19.50%, gross margin 46.91%, operating margin 31.97%, gross
// margin change +0.70 points; Alphabet 2025 revenue growth 15.09%, net
// income growth 32.0%; NVIDIA fiscal 2026 gross margin 71.07%, fiscal 2025
// revenue growth 114.2%; the synthetic March filer fiscal 2026 revenue
// growth 5.80%, net margin 17.01%, dividend a share growth 21.62%, payout
// 40.0%, effective tax rate 25.0%.
func TestRateRounding(t *testing.T) {
	ts := tables(t)
	march := syntheticTable(t, "marchfy_CIK0009000024.json")
	for _, tc := range []struct {
		tb   *Table
		text string
		want Status
	}{
		{ts["AAPL"], "Apple's revenue grew 6% in fiscal 2025.", Verified},
		{ts["AAPL"], "Apple's revenue grew 6.4% in fiscal 2025.", Verified},
		{ts["AAPL"], "Apple's revenue grew 6.5% in fiscal 2025.", Verified},
		{ts["AAPL"], "Apple's revenue grew nearly 6.5% in fiscal 2025.", Verified},
		{ts["AAPL"], "Apple's revenue grew 7% in fiscal 2025.", Corrected},
		{ts["AAPL"], "Apple's revenue grew 6.6% in fiscal 2025.", Corrected},
		{ts["AAPL"], "Apple's net income grew 19.5% in fiscal 2025.", Verified},
		{ts["AAPL"], "Apple's gross margin was 47% in fiscal 2025.", Verified},
		{ts["AAPL"], "Apple's gross margin was 46% in fiscal 2025.", Corrected},
		{ts["AAPL"], "Apple's operating margin was 32% in fiscal 2025.", Verified},
		{ts["AAPL"], "Apple's operating margin was 31% in fiscal 2025.", Corrected},
		{ts["AAPL"], "Apple's gross margin expanded 70 basis points in fiscal 2025.", Verified},
		{ts["GOOGL"], "Alphabet's revenue grew 15% in 2025.", Verified},
		{ts["GOOGL"], "Alphabet's revenue grew 16% in 2025.", Corrected},
		{ts["GOOGL"], "Alphabet's net income grew 33% in 2025.", Corrected},
		{ts["NVDA"], "NVIDIA's gross margin was 71% in fiscal 2026.", Verified},
		{ts["NVDA"], "NVIDIA's gross margin was 72% in fiscal 2026.", Corrected},
		{ts["NVDA"], "NVIDIA's revenue more than doubled in fiscal 2025.", Verified},
		{march, "Northwind's revenue grew 5.8% in fiscal 2026.", Verified},
		{march, "Northwind's revenue grew 6% in fiscal 2026.", Verified},
		{march, "Northwind's revenue grew nearly 6% in fiscal 2026.", Verified},
		{march, "Northwind's revenue grew about 6% in fiscal 2026.", Verified},
		{march, "Northwind's revenue grew 5% in fiscal 2026.", Corrected},
		{march, "Northwind's revenue grew about 5% in fiscal 2026.", Corrected},
		{march, "Northwind's revenue grew 5.5% in fiscal 2026.", Corrected},
		{march, "Northwind's net margin was 17% in fiscal 2026.", Verified},
		{march, "Northwind's net margin was 18% in fiscal 2026.", Corrected},
		{march, "Northwind's dividend per share rose 22% in fiscal 2026.", Verified},
		{march, "Northwind's dividend per share rose 21% in fiscal 2026.", Corrected},
		{march, "Northwind's payout ratio was 41% in fiscal 2026.", Corrected},
		{march, "Northwind's effective tax rate was 24% in fiscal 2026.", Corrected},
	} {
		fs := tc.tb.Check(tc.text)
		if len(fs) != 1 || fs[0].Status != tc.want {
			t.Errorf("%q → %s, want one %s", tc.text, describe(fs), tc.want)
		}
	}
	for _, tc := range []struct {
		c    Claim
		want Status
	}{
		{Claim{Metric: "revenue_growth", Period: "2025", Value: "15", Unit: "percent"}, Verified},
		{Claim{Metric: "revenue_growth", Period: "2025", Value: "16", Unit: "percent"}, Corrected},
	} {
		if f := ts["GOOGL"].CheckClaim(tc.c); f.Status != tc.want {
			t.Errorf("%+v → %s %s (%s), want %s", tc.c, f.Status, f.Period, f.Reason, tc.want)
		}
	}
}
