package factcheck

import "testing"

// TestCashAndSecurities: cash with marketable securities ("cash and
// marketable securities", "cash, cash equivalents and short-term
// investments") is held to cash and the short-term investments the
// valuation counts against debt, or with the securities held past a year
// as well (Apple at the end of fiscal 2025: $35.9B cash, $18.8B current and
// $77.7B non-current securities, $54.7B or $132.4B; NVIDIA at the end of
// fiscal 2026 $10.6B and $39.1B; Alphabet's combined line $126.8B at the
// end of 2025). It was read as no metric, unverified however wrong; cash
// and cash equivalents alone stay the cash line.
func TestCashAndSecurities(t *testing.T) {
	ts := tables(t)
	checkOne(t, []oneCase{
		{ts["AAPL"], "Apple held cash and marketable securities of $132 billion at the end of fiscal 2025.", Verified},
		{ts["AAPL"], "Apple held cash and short-term investments of $54.7 billion at the end of fiscal 2025.", Verified},
		{ts["AAPL"], "Apple held cash and marketable securities of $162 billion at the end of fiscal 2025.", Corrected},
		{ts["AAPL"], "Apple held cash and cash equivalents of $35.9 billion at the end of fiscal 2025.", Verified},
		{ts["AAPL"], "Apple held cash and cash equivalents of $132 billion at the end of fiscal 2025.", Corrected},
		{ts["NVDA"], "NVIDIA's cash, cash equivalents and marketable securities totaled $49.7 billion at the end of fiscal 2026.", Verified},
		{ts["NVDA"], "NVIDIA's cash, cash equivalents and marketable securities totaled $60.6 billion at the end of fiscal 2026.", Corrected},
		{ts["GOOGL"], "Alphabet ended 2025 with $126.8 billion in cash and marketable securities.", Verified},
		{ts["GOOGL"], "Alphabet ended 2025 with $95.7 billion in cash and marketable securities.", Corrected},
	})
}

// TestClaimsOfCashAndCommonReturns: a structured claim of net cash, cash with
// marketable securities or a return on average common equity, by the
// metric names a debater would use, is held as its prose is; each was an
// unknown metric.
func TestClaimsOfCashAndCommonReturns(t *testing.T) {
	ts := tables(t)
	for _, tc := range []struct {
		tb   *Table
		c    Claim
		want Status
	}{
		{ts["NVDA"], Claim{Metric: "net_cash", Period: "FY2025", Value: "34.7", Scale: "billion", Unit: "usd"}, Verified},
		{ts["NVDA"], Claim{Metric: "net cash position", Period: "FY2025", Value: "44.7", Scale: "billion", Unit: "usd"}, Corrected},
		{ts["AAPL"], Claim{Metric: "cash_and_marketable_securities", Period: "FY2025", Value: "132.4", Scale: "billion", Unit: "usd"}, Verified},
		{ts["AAPL"], Claim{Metric: "cash_and_marketable_securities", Period: "FY2025", Value: "35.9", Scale: "billion", Unit: "usd"}, Corrected},
		{ts["AAPL"], Claim{Metric: "roace", Period: "FY2025", Value: "171", Unit: "percent"}, Verified},
		{ts["AAPL"], Claim{Metric: "return_on_average_common_equity", Period: "FY2025", Value: "151.9", Unit: "percent"}, Corrected},
	} {
		if f := tc.tb.CheckClaim(tc.c); f.Status != tc.want {
			t.Errorf("%+v → %s %s, want %s", tc.c, f.Status, f.Reason, tc.want)
		}
	}
}
