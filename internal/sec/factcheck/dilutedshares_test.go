package factcheck

import "testing"

// TestDilutedShares: the weighted average diluted share count is a line
// of the table, held for the years and for the quarters 10-Qs report; a
// fourth quarter's or a TTM's is unverified, saying why, since an average
// cannot be worked out from the year's and the quarters' as a flow's is
// (Alphabet's 2025 fourth quarter came out at 0 shares). It was a measure
// the check did not read: right or wrong, every figure of it passed.
// Truth from the companyfacts JSON (WeightedAverageNumberOfDilutedShares-
// Outstanding): Apple FY2025 15.005B, FY2024 15.408B, Q3 FY2025 14.948B,
// Q1 FY2026 14.810B; NVIDIA FY2026 24.514B, Q1 FY2027 24.391B; Alphabet
// 2025 12.230B, Q1 2025 12.291B; the synthetic March filer FY2026 400M,
// FY2025 410M, Q3 FY2026 398M.
func TestDilutedShares(t *testing.T) {
	ts := tables(t)
	march := syntheticTable(t, "marchfy_CIK0009000024.json")
	for _, tc := range []struct {
		tb   *Table
		text string
		want Status
	}{
		{ts["AAPL"], "Apple's diluted share count was 15.0 billion in fiscal 2025.", Verified},
		{ts["AAPL"], "Apple had 15.0 billion weighted average diluted shares in fiscal 2025.", Verified},
		{ts["AAPL"], "Apple's diluted share count was 15.4 billion in fiscal 2025.", Corrected},
		{ts["AAPL"], "Apple's diluted shares fell 2.6% in fiscal 2025.", Verified},
		{ts["AAPL"], "Apple's diluted shares fell 5% in fiscal 2025.", Corrected},
		{ts["AAPL"], "Apple's diluted share count in the third quarter of fiscal 2025 was 14.95 billion.", Verified},
		{ts["AAPL"], "Apple's diluted share count in the third quarter of fiscal 2025 was 15.35 billion.", Corrected},
		{ts["AAPL"], "Apple's diluted share count was 14.81 billion in Q1 fiscal 2026.", Verified},
		{ts["AAPL"], "Apple's diluted share count in the fourth quarter of fiscal 2025 was 14.9 billion.", Unverified},
		{ts["AAPL"], "Apple's trailing twelve month diluted share count was 14.9 billion.", Unverified},
		{ts["NVDA"], "NVIDIA's diluted share count was 24.5 billion in fiscal 2026.", Verified},
		{ts["NVDA"], "NVIDIA's diluted share count was 24.4 billion in fiscal 2026.", Corrected},
		{ts["GOOGL"], "Alphabet's diluted share count was 12.23 billion in 2025.", Verified},
		{ts["GOOGL"], "Alphabet's diluted share count was 12.3 billion in 2025.", Corrected},
		{ts["GOOGL"], "Alphabet's diluted share count in the fourth quarter of 2025 was 12.2 billion.", Unverified},
		{march, "Northwind's diluted share count was 400 million in fiscal 2026.", Verified},
		{march, "Northwind's diluted share count was 410 million in fiscal 2026.", Corrected},
		{march, "Northwind's diluted share count was 398 million in the third quarter of fiscal 2026.", Verified},
		{march, "Northwind's diluted share count was 408 million in the third quarter of fiscal 2026.", Corrected},
		{march, "Northwind's diluted share count was 396 million in the fourth quarter of fiscal 2026.", Unverified},
		{march, "Northwind's diluted share count fell 2.4% in fiscal 2026.", Verified},
		// The basic count is another figure, which the table does not hold.
		{march, "Northwind's basic share count was 390 million in fiscal 2026.", Unverified},
	} {
		fs := tc.tb.Check(tc.text)
		if len(fs) != 1 || fs[0].Status != tc.want {
			t.Errorf("%q → %s, want one %s", tc.text, describe(fs), tc.want)
		}
	}
	// A structured claim of it.
	for _, tc := range []struct {
		c    Claim
		want Status
	}{
		{Claim{Metric: "diluted_shares", Period: "FY2025", Value: "15.0", Scale: "billion", Unit: "shares"}, Verified},
		{Claim{Metric: "diluted_share_count", Period: "FY2025", Value: "15.4", Scale: "billion", Unit: "shares"}, Corrected},
		{Claim{Metric: "diluted_shares", Period: "Q4 FY2025", Value: "14.9", Scale: "billion", Unit: "shares"}, Unverified},
	} {
		if f := ts["AAPL"].CheckClaim(tc.c); f.Status != tc.want {
			t.Errorf("%+v → %s %s (%s), want %s", tc.c, f.Status, f.Period, f.Reason, tc.want)
		}
	}
}
