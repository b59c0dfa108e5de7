package factcheck

import "testing"

// TestCalendarYearTotals: a flow stated of a calendar year that is not one
// of the filer's fiscal years ("Apple's revenue in calendar 2024") is the
// sum of the four fiscal quarters ending in it, reported or derived, and
// its growth is over the calendar year before; it was unverified, right or
// wrong. A margin or a rate of two flows is the ratio of their totals.
// With a quarter missing, or of a line that does not add up over quarters
// (EPS, the diluted share count), it stays unverified, never corrected. Truth from the companyfacts JSON: Apple's calendar 2024
// revenue $395.760B and net income $96.150B, calendar 2025 revenue
// $435.617B (+10.1%), calendar 2023 $385.706B (its fiscal 2023 fourth
// quarter derived from a 53-week year's 279-day nine months); the
// synthetic March filer's calendar 2025 revenue $5.22B (+5.5% on calendar
// 2024's $4.95B) and net income $870M; its calendar 2023 lacks a quarter,
// as do the June filer's years (10-Qs of two quarters only).
func TestCalendarYearTotals(t *testing.T) {
	ts := tables(t)
	march := syntheticTable(t, "marchfy_CIK0009000024.json")
	june := syntheticTable(t, "june_CIK0009000004.json")
	for _, tc := range []struct {
		tb   *Table
		text string
		want Status
	}{
		{ts["AAPL"], "Apple's revenue in calendar 2024 was $395.8 billion.", Verified},
		{ts["AAPL"], "Apple's calendar 2024 revenue was $391.0 billion.", Corrected},
		{ts["AAPL"], "Apple's revenue in calendar 2024 was $420 billion.", Corrected},
		{ts["AAPL"], "Apple's net income in calendar 2024 was $96.2 billion.", Verified},
		{ts["AAPL"], "Apple's revenue in calendar 2025 was $435.6 billion.", Verified},
		{ts["AAPL"], "Apple's revenue in calendar 2023 was $385.7 billion.", Verified},
		{ts["AAPL"], "Apple's revenue grew 10% in calendar 2025.", Verified},
		{ts["AAPL"], "Apple's revenue grew 3% in calendar 2025.", Corrected},
		// The year before its name: read as the bare year, the fiscal one,
		// a right total was corrected.
		{ts["AAPL"], "Apple's revenue for the 2024 calendar year was $395.8 billion.", Verified},
		{ts["AAPL"], "Apple's 2024 calendar-year revenue was $391.0 billion.", Corrected},
		{ts["AAPL"], "Apple's CY2024 revenue was $395.8 billion.", Verified},
		{ts["AAPL"], "Apple's diluted EPS in calendar 2024 was $6.30.", Unverified},
		// A margin or a rate of two flows: the ratio of their totals
		// (Apple's calendar 2024 gross margin 46.52%, net 24.30%,
		// operating 31.76%, tax 23.54%).
		{ts["AAPL"], "Apple's gross margin in calendar 2024 was 46.5%.", Verified},
		{ts["AAPL"], "Apple's net margin in calendar 2024 was 24.3%.", Verified},
		{ts["AAPL"], "Apple's operating margin in calendar 2024 was 31.6%.", Corrected},
		{ts["AAPL"], "Apple's effective tax rate in calendar 2024 was 24%.", Verified},
		{march, "Northwind's revenue in calendar 2025 was $5.22 billion.", Verified},
		{march, "Northwind's revenue in calendar 2025 was $5.29 billion.", Corrected},
		{march, "Northwind's revenue in calendar 2024 was $4.95 billion.", Verified},
		{march, "Northwind's revenue grew 5.5% in calendar 2025.", Verified},
		{march, "Northwind's net income in calendar 2025 was $870 million.", Verified},
		{march, "Northwind's net income in calendar 2025 was $900 million.", Corrected},
		{march, "Northwind's revenue in calendar 2023 was $4.6 billion.", Unverified},
		{march, "Northwind's net margin in calendar 2025 was 16.7%.", Verified},
		{march, "Northwind's payout ratio in calendar 2025 was 40%.", Verified},
		{march, "Northwind's payout ratio in calendar 2025 was 45%.", Corrected},
		// No quarter's pretax income in its filings: no calendar tax rate.
		{march, "Northwind's effective tax rate in calendar 2025 was 25%.", Unverified},
		{march, "Northwind's diluted share count in calendar 2025 was 400 million.", Unverified},
		{june, "Revenue in calendar 2024 was $250 billion.", Unverified},
	} {
		fs := tc.tb.Check(tc.text)
		if len(fs) != 1 || fs[0].Status != tc.want {
			t.Errorf("%q → %s, want one %s", tc.text, describe(fs), tc.want)
		}
	}
}
