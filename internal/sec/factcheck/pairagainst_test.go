package factcheck

import "testing"

// TestFiguresSetAgainst: two figures set against each other after two
// lines compared ("net income grew faster than revenue: 32% against 15%")
// are the two lines' in order; by nearness both were the second line's
// and a right first figure corrected. Alphabet's 2025 net income grew
// 32.1%, its revenue 15.1%; Apple's fiscal 2025 net income 19.5%, its
// revenue 6.4%; NVIDIA's fiscal 2026 revenue 65.5%, net income 64.8%.
func TestFiguresSetAgainst(t *testing.T) {
	ts := tables(t)
	for _, tc := range []struct {
		co, text string
		want     [2]Status
	}{
		{"GOOGL", "Alphabet's net income grew faster than revenue in 2025: 32% against 15%.", [2]Status{Verified, Verified}},
		{"GOOGL", "Alphabet's net income grew faster than revenue in 2025: 15% against 32%.", [2]Status{Corrected, Corrected}},
		{"AAPL", "In fiscal 2025 Apple's net income grew faster than revenue: 19.5% against 6.4%.", [2]Status{Verified, Verified}},
		{"AAPL", "In fiscal 2025 Apple's net income grew faster than revenue: 29.5% against 6.4%.", [2]Status{Corrected, Verified}},
		{"AAPL", "In fiscal 2025 Apple's net income grew faster than revenue: 19.5% compared with 6.4%.", [2]Status{Verified, Verified}},
		{"NVDA", "NVIDIA's revenue grew faster than its net income in fiscal 2026: 65% versus 65%.", [2]Status{Verified, Verified}},
		{"NVDA", "NVIDIA's revenue grew faster than its net income in fiscal 2026: 65% versus 45%.", [2]Status{Verified, Corrected}},
		{"AAPL", "Apple's revenue grew 6.4% in fiscal 2025 against 2.0% in fiscal 2024.", [2]Status{Verified, Verified}},
	} {
		fs := ts[tc.co].Check(tc.text)
		if len(fs) != 2 || fs[0].Status != tc.want[0] || fs[1].Status != tc.want[1] {
			t.Errorf("%s %q → %s; want %s, %s", tc.co, tc.text, describe(fs), tc.want[0], tc.want[1])
		}
	}
}
