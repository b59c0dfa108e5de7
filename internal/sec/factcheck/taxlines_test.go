package factcheck

import (
	"fmt"
	"strings"
	"testing"
)

// TestTaxAndShareLines: the taxes paid in cash, the tax expense and the
// pretax income split abroad and at home, and the weighted basic share
// count are read where the filings tag them, and a figure of each held to
// its own line: each was unread (the taxes paid, the basic shares) or
// held to the total tax expense, which corrected a right foreign figure.
// Each table's own values, stated to a tenth of a billion, are verified;
// a fifth more is corrected. The federal, state, current and deferred
// parts, which the table does not hold, stay unverified.
func TestTaxAndShareLines(t *testing.T) {
	phrases := map[Metric]string{CashTaxesPaid: "Cash taxes paid were %s", ForeignTax: "Foreign income tax expense was %s",
		DomesticTax: "Domestic income tax expense was %s", ForeignPretax: "Foreign pretax income was %s",
		DomesticPretax: "Domestic pretax income was %s", BasicShares: "Weighted average basic shares were %s"}
	tried := map[Metric]int{}
	for _, tk := range []string{"NVDA", "AAPL", "GOOGL"} {
		tab := tables(t)[tk]
		for m, phrase := range phrases {
			f, ok := tab.Lookup(m, Period{FY: tab.LatestFY})
			if !ok {
				continue
			}
			tried[m]++
			say := func(v float64) string {
				x := fmt.Sprintf("$%.1f billion", v/1e9)
				if m == BasicShares {
					x = fmt.Sprintf("%.2f billion", v/1e9)
				}
				return fmt.Sprintf(phrase, x) + fmt.Sprintf(" in fiscal %d.", tab.LatestFY)
			}
			for _, tc := range []struct {
				v    float64
				want Status
			}{{f.Value, Verified}, {f.Value * 1.2, Corrected}} {
				fs := tab.Check(say(tc.v))
				if len(fs) != 1 || fs[0].Status != tc.want || fs[0].Metric != m {
					t.Errorf("%s: %q → %s, want one %s %s", tk, say(tc.v), describe(fs), tc.want, m)
				}
			}
		}
	}
	for m := range phrases {
		if tried[m] == 0 {
			t.Errorf("no shipped filer has %s: the case tests nothing of it", m)
		}
	}
	ap := tables(t)["AAPL"]
	// Basic EPS by the word after the figure; both counts named together,
	// whose figures the reader cannot tell apart: a right basic count was
	// held to the diluted one, a right basic EPS to diluted EPS.
	eps, _ := ap.Lookup(EPSBasic, Period{FY: ap.LatestFY})
	text := fmt.Sprintf("Apple earned $%.2f per basic share in fiscal %d.", eps.Value, ap.LatestFY)
	if fs := ap.Check(text); len(fs) != 1 || fs[0].Status != Verified || fs[0].Metric != EPSBasic {
		t.Errorf("%q → %s, want one verified basic EPS", text, describe(fs))
	}
	basic, _ := ap.Lookup(BasicShares, Period{FY: ap.LatestFY})
	text = fmt.Sprintf("Basic and diluted shares were %.2f billion and 15.00 billion in fiscal %d.", basic.Value/1e9, ap.LatestFY)
	if fs := ap.Check(text); len(fs) != 2 || fs[0].Status == Corrected || fs[1].Status == Corrected {
		t.Errorf("%q → %s, want neither corrected", text, describe(fs))
	}
	for _, text := range []string{"Apple's federal income tax expense was $9.7 billion in fiscal 2025.",
		"Deferred tax expense was $1.3 billion in fiscal 2025.", "Current income tax expense was $22.1 billion in fiscal 2025.",
		"The foreign income tax rate differential was -6.1% in fiscal 2025.", "Foreign tax credits were $4.7 billion in fiscal 2025."} {
		if fs := ap.Check(text); len(fs) != 1 || fs[0].Status != Unverified {
			t.Errorf("%q → %s, want one unverified", text, describe(fs))
		}
	}
	// The foreign expense from its current and deferred parts where no
	// total is tagged (Alphabet tags the parts only), and a right figure
	// of taxes paid abroad, which the filer discloses too, as a foreign
	// tax "paid".
	googl := tables(t)["GOOGL"]
	f, ok := googl.Lookup(ForeignTax, Period{FY: googl.LatestFY})
	if !ok || !strings.Contains(f.Source, ";") {
		t.Errorf("Alphabet's foreign tax: %+v, want the sum of its two parts", f)
	}
	if paid, ok := googl.Lookup(foreignTaxPaid, Period{FY: googl.LatestFY}); ok {
		text := fmt.Sprintf("Alphabet paid $%.2f billion in foreign taxes in %d.", paid.Value/1e9, googl.LatestFY)
		if fs := googl.Check(text); len(fs) != 1 || fs[0].Status != Verified {
			t.Errorf("%q → %s, want one verified", text, describe(fs))
		}
	} else {
		t.Error("Alphabet's foreign taxes paid are not read")
	}
}
