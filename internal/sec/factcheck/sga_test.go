package factcheck

import "testing"

// TestSGA: selling, general and administrative expense is read from
// SellingGeneralAndAdministrativeExpense: its amount, growth and share of
// revenue, right verified and wrong corrected; unread, each passed as "a
// figure the check does not read". Alphabet states no such line (its
// selling and general expenses are apart): a figure of it is unverified.
// Apple's fiscal 2025 SG&A was $27.601B (+5.8%, 6.6% of $416.2B); NVIDIA's
// fiscal 2026 $4.579B (+31.2%).
func TestSGA(t *testing.T) {
	ts := tables(t)
	for _, tc := range []struct {
		co, text string
		want     Status
	}{
		{"AAPL", "Apple's SG&A was $27.6 billion in fiscal 2025.", Verified},
		{"AAPL", "Apple's SG&A was $29.6 billion in fiscal 2025.", Corrected},
		{"AAPL", "Apple's SG&A was 6.6% of revenue in fiscal 2025.", Verified},
		{"AAPL", "Apple's SG&A was 8.6% of revenue in fiscal 2025.", Corrected},
		{"AAPL", "Apple's selling, general and administrative expenses grew 5.8% in fiscal 2025.", Verified},
		{"NVDA", "NVIDIA's SG&A expense was $4.6 billion in fiscal 2026.", Verified},
		{"NVDA", "NVIDIA's SG&A expense was $5.6 billion in fiscal 2026.", Corrected},
		{"NVDA", "NVIDIA's SG&A rose 31% in fiscal 2026.", Verified},
		{"NVDA", "NVIDIA's SG&A rose 21% in fiscal 2026.", Corrected},
		{"GOOGL", "Alphabet's SG&A was $40.0 billion in 2025.", Unverified},
	} {
		fs := ts[tc.co].Check(tc.text)
		if len(fs) != 1 || fs[0].Status != tc.want {
			t.Errorf("%s %q → %s; want %s", tc.co, tc.text, describe(fs), tc.want)
		}
	}
}
