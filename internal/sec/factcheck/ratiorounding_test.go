package factcheck

import (
	"fmt"
	"math"
	"testing"
)

// TestRatioRounding: a ratio or a score is held to its rounding at the
// digit it is stated to, as a rate is, not to a whole unit of that digit:
// "0.8" of a current ratio of 0.893, or "2.5" of an Altman Z of 2.43, is
// wrong, where a whole unit either way let them pass. Each rounded the
// usual way (half up, at one or two decimals) is verified; the tenth on
// the same side of the value but past half a tenth (and the allowance for
// rounded inputs) is corrected. The values are each table's own, so the
// cases follow whatever the filings say.
func TestRatioRounding(t *testing.T) {
	phrases := map[Metric]string{CurrentRatio: "current ratio", DebtToEquity: "debt-to-equity ratio", AssetTurnover: "asset turnover",
		AltmanZ: "Altman Z-score", AltmanZDoublePrime: "Altman Z'' score"}
	wrongTried := 0
	for _, tk := range []string{"NVDA", "AAPL", "GOOGL"} {
		tab := tables(t)[tk]
		for fy := tab.LatestFY - 2; fy <= tab.LatestFY; fy++ {
			for m, phrase := range phrases {
				f, ok := tab.Lookup(m, Period{FY: fy})
				if !ok {
					continue
				}
				v := f.Value
				say := func(x string) string { return fmt.Sprintf("The company's %s was %s in fiscal %d.", phrase, x, fy) }
				for _, right := range []string{fmt.Sprintf("%.2f", v), fmt.Sprintf("%.1f", v)} {
					if fs := tab.Check(say(right)); len(fs) != 1 || fs[0].Status != Verified {
						t.Errorf("%s %s of %.4f: %q → %s, want verified", tk, m, v, say(right), describe(fs))
					}
				}
				// The other tenth on the value's side: within a whole
				// tenth, past half of one and the allowance.
				r := math.Round(v*10) / 10
				w := r + 0.1
				if v < r {
					w = r - 0.1
				}
				if d := math.Abs(w - v); d <= 0.05+math.Min(0.05, ratioAllowance*v)+1e-9 || d > 0.1 || w <= 0 {
					continue
				}
				wrongTried++
				fs := tab.Check(say(fmt.Sprintf("%.1f", w)))
				if len(fs) != 1 || fs[0].Status != Corrected {
					t.Errorf("%s %s of %.4f: %q → %s, want corrected", tk, m, v, say(fmt.Sprintf("%.1f", w)), describe(fs))
				}
			}
		}
	}
	if wrongTried < 5 {
		t.Fatalf("only %d wrong figures within a tenth tried; the case does not test the rounding", wrongTried)
	}
	// A Piotroski score stated as a bare count ("an F-score of 8") is read
	// and held exactly, as one over nine is.
	ap := tables(t)["AAPL"]
	f, ok := ap.Lookup(PiotroskiF, Period{FY: ap.LatestFY})
	if !ok {
		t.Fatal("no F-score for Apple's latest year")
	}
	for _, tc := range []struct {
		score int
		want  Status
	}{{int(f.Value), Verified}, {int(f.Value+1) % 10, Corrected}, {int(f.Value+8) % 10, Corrected}} {
		text := fmt.Sprintf("Apple's Piotroski F-score is %d in fiscal %d.", tc.score, ap.LatestFY)
		if fs := ap.Check(text); len(fs) != 1 || fs[0].Status != tc.want || fs[0].Metric != PiotroskiF {
			t.Errorf("%q → %s, want one %s F-score", text, describe(fs), tc.want)
		}
	}
}
