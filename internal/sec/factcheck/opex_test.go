package factcheck

import "testing"

// TestOperatingExpenses: total operating expenses are read from
// OperatingExpenses (amount, growth, share of revenue), right verified and
// wrong corrected; unread, each passed as "a figure the check does not
// read". Alphabet reports only CostsAndExpenses, which hold its cost of
// revenue: a figure of its operating expenses is unverified. Apple's
// fiscal 2025 operating expenses were $62.151B (R&D $34.550B and SG&A
// $27.601B); NVIDIA's fiscal 2026 from the companyfacts JSON.
func TestOperatingExpenses(t *testing.T) {
	ts := tables(t)
	for _, tc := range []struct {
		co, text string
		want     Status
	}{
		{"AAPL", "Apple's operating expenses were $62.2 billion in fiscal 2025.", Verified},
		{"AAPL", "Apple's operating expenses were $68.2 billion in fiscal 2025.", Corrected},
		{"AAPL", "Apple's opex was 14.9% of revenue in fiscal 2025.", Verified},
		{"AAPL", "Apple's opex was 19.9% of revenue in fiscal 2025.", Corrected},
		{"NVDA", "NVIDIA's operating expenses were $23.1 billion in fiscal 2026.", Verified},
		{"NVDA", "NVIDIA's operating expenses were $33.1 billion in fiscal 2026.", Corrected},
		{"GOOGL", "Alphabet's operating expenses were $90.0 billion in 2025.", Unverified},
	} {
		fs := ts[tc.co].Check(tc.text)
		if len(fs) != 1 || fs[0].Status != tc.want {
			t.Errorf("%s %q → %s; want %s", tc.co, tc.text, describe(fs), tc.want)
		}
	}
}
