package factcheck

import (
	"strings"
	"testing"
)

// TestWrongPeriodIsNearby: a wrong figure is called another period's
// ("right figure, wrong period") only of a period within the years the
// table holds in full around it; with the whole history held, a growth
// rate a decade before that matched by chance was named. Apple's net
// income grew 19.5% in fiscal 2025, not "about a third" (it grew 35.1% in
// fiscal 2015); its revenue was $391.0 billion in fiscal 2024.
func TestWrongPeriodIsNearby(t *testing.T) {
	ts := tables(t)
	for _, tc := range []struct {
		text, reason string
		wrongPeriod  bool
	}{
		{"Apple's net income rose by about a third in fiscal 2025.", "FY2015", false},
		{"Apple's revenue was $391.0 billion in fiscal 2025.", "FY2024", true},
	} {
		fs := ts["AAPL"].Check(tc.text)
		if len(fs) != 1 || fs[0].Status != Corrected || strings.Contains(fs[0].Reason, tc.reason) != tc.wrongPeriod {
			t.Errorf("%q → %s; want one correction naming %s: %v", tc.text, describe(fs), tc.reason, tc.wrongPeriod)
		}
	}
}
