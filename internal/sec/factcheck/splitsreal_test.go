package factcheck

import (
	"testing"
)

// TestSplitsOfTheShippedFilers: the splits read from the three shipped
// filers' own restatements are the splits they made, and nothing else: not
// Apple's 2009 restatement for its change of revenue recognition (EPS
// moved by half again, the share counts not), nor NVIDIA's 2009-2011
// counts tagged in thousands in one filing and in units in another.
func TestSplitsOfTheShippedFilers(t *testing.T) {
	want := map[string][]string{
		"AAPL":  {"7-for-1 split", "4-for-1 split"},
		"GOOGL": {"20-for-1 split"},
		"NVDA":  {"4-for-1 split", "10-for-1 split"},
	}
	for tk, names := range want {
		var got []string
		for _, s := range stockSplits(companyFacts(t, tk), "") {
			got = append(got, s.String())
		}
		if len(got) != len(names) {
			t.Errorf("%s: splits %v, want %v", tk, got, names)
			continue
		}
		for i := range got {
			if got[i] != names[i] {
				t.Errorf("%s: splits %v, want %v", tk, got, names)
			}
		}
	}
	for _, tc := range []struct{ r, want float64 }{{10.2, 10}, {0.25, 0.25}, {1.5, 1.5}, {1.2, 0}, {1000, 0}, {0.001, 0}, {-4, 0}} {
		if got := splitRatio(tc.r); got != tc.want {
			t.Errorf("splitRatio(%v) = %v, want %v", tc.r, got, tc.want)
		}
	}
}
