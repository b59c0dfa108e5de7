package analysis

import (
	"strings"
	"testing"
)

// TestPiotroskiSharesAcrossASplit: the no-dilution criterion compares a
// year's shares with the year before's as one filing states both, when
// the latest statements of the two straddle a split: NVIDIA's fiscal 2024
// year-end count was last stated after its June 2024 10-for-1 split
// (24.6B), fiscal 2023's only before it (2.47B), and fiscal 2024 failed
// as a tenfold issuance; Alphabet's 2021 likewise across its 2022
// 20-for-1. Years whose counts share a footing keep their latest
// statements.
func TestPiotroskiSharesAcrossASplit(t *testing.T) {
	for _, tc := range []struct {
		ticker string
		fy     int
		note   bool
	}{{"NVDA", 2024, true}, {"GOOGL", 2021, true}, {"NVDA", 2026, false}, {"AAPL", 2025, false}} {
		fin, err := Load(companyFacts(t, tc.ticker), Options{})
		if err != nil {
			t.Fatal(err)
		}
		y := *fin
		y.FiscalYear = tc.fy
		c := pioShares(&y, tc.fy)
		if c.Missing || !c.Pass || c.Current > 1.05*c.Prior || strings.Contains(c.Note, "one filing") != tc.note {
			t.Errorf("%s FY%d: pass %v, %v against %v (%q); want a pass on one footing, noted %v", tc.ticker, tc.fy, c.Pass, c.Current, c.Prior, c.Note, tc.note)
		}
	}
}
