package xbrl

import "testing"

// TestAverageIsNeverDerived: the weighted average diluted share count is an
// average over its period, not a sum, so no fourth quarter is worked out as
// the year's less nine months' and no TTM as four quarters' sum. Derived
// as a flow's, Alphabet's 2025 fourth quarter came out at 0 shares (the
// year's average equals the nine months'), and the synthetic March filer's
// at -1 million. The years and the quarters a 10-Q reports are read as
// reported.
func TestAverageIsNeverDerived(t *testing.T) {
	for _, tc := range []struct {
		name   string
		cf     *CompanyFacts
		fy, q  int // a quarter only a 10-Q reports
		want   float64
		lastFY int // a year whose fourth quarter no filing reports
	}{
		{"GOOGL", fixture(t, "GOOGL"), 2025, 3, 12203000000, 2025},
		{"AAPL", fixture(t, "AAPL"), 2025, 3, 14948179000, 2025},
		{"marchfy", synthetic(t, "marchfy_CIK0009000024.json"), 2026, 3, 398000000, 2026},
	} {
		s := mustSeries(t, tc.cf, DilutedSharesWeighted)
		if !s.Def.Average {
			t.Fatalf("%s: DilutedSharesWeighted is not marked an average", tc.name)
		}
		if f, ok := s.Quarter(tc.fy, tc.q); !ok || f.Value != tc.want || f.Derived() {
			t.Errorf("%s: Q%d FY%d = %v, %v; want %v as reported", tc.name, tc.q, tc.fy, f, ok, tc.want)
		}
		if f, ok := s.Quarter(tc.lastFY, 4); ok {
			t.Errorf("%s: Q4 FY%d = %v; want none (an average is not the year's less nine months')", tc.name, tc.lastFY, f)
		}
		if f, err := s.TTM(); err == nil {
			t.Errorf("%s: TTM = %v; want an error (an average is no sum of quarters)", tc.name, f)
		}
		if f, err := s.TTMAt(tc.fy, tc.q); err == nil {
			t.Errorf("%s: TTMAt = %v; want an error", tc.name, f)
		}
		if _, ok := s.Annual(tc.lastFY); !ok {
			t.Errorf("%s: no FY%d figure", tc.name, tc.lastFY)
		}
	}
}
