package xbrl

import (
	"math"
	"testing"
)

// TestEPSNotAdditive: no quarter of EPS is worked out as the difference of
// two year-to-date figures, and no TTM as a sum of quarters: EPS is net
// income over weighted shares, and the shares move (Apple's fiscal 2025
// fourth quarter earned $1.85 a share; its year's $7.46 less nine months'
// $5.62 is $1.84). A reported three-month figure stands, and net income,
// a flow, is still derived. The quarter's average share count the
// year-to-date averages imply, weighted by days (QuarterAverage), puts
// Apple's fourth quarter at $1.85.
func TestEPSNotAdditive(t *testing.T) {
	cf := fixture(t, "AAPL")
	eps, ni, sh := mustSeries(t, cf, EPSDiluted), mustSeries(t, cf, NetIncome), mustSeries(t, cf, DilutedSharesWeighted)
	if f, ok := eps.Quarter(2025, 4); ok {
		t.Errorf("EPS Q4 FY2025 = %v (%s), want none: not additive", f.Value, f.Method)
	}
	if f, err := eps.TTM(); err == nil {
		t.Errorf("EPS TTM = %v, want an error", f.Value)
	}
	if f, ok := eps.Quarter(2025, 3); !ok || f.Derived() || f.Value != 1.57 {
		t.Errorf("EPS Q3 FY2025 = %+v, want the reported $1.57", f)
	}
	q4, ok := ni.Quarter(2025, 4)
	if !ok || !q4.Derived() {
		t.Fatalf("net income Q4 FY2025 = %+v, want derived", q4)
	}
	s4, ok := sh.QuarterAverage(2025, 4)
	if !ok || !s4.Derived() {
		t.Fatalf("diluted shares Q4 FY2025 = %+v, want derived", s4)
	}
	if got := math.Round(q4.Value/s4.Value*100) / 100; got != 1.85 {
		t.Errorf("Q4 FY2025 EPS from net income over the implied shares = %.2f, want 1.85 (Apple's own)", got)
	}
	if f, ok := sh.QuarterAverage(2025, 3); !ok || f.Derived() {
		t.Errorf("diluted shares Q3 FY2025 = %+v, want the reported three months'", f)
	}
}
