package factcheck

import "testing"

// TestSplitBasisStated: a figure a share stated on the basis it names is
// held to that basis. "Split-adjusted" is the basis the check holds (and
// the facts tool gives): no adjusted, non-GAAP measure, which left it
// unverified right or wrong. "As reported" or "before the split" is the
// figure as its filing stated it: NVIDIA's fiscal 2022 diluted EPS of
// $3.85, filed before its 2024 10-for-1 split, is right so stated (it was
// corrected to $0.39), and a figure right on neither basis is corrected.
// Stated with no basis, the as-filed figure stays corrected, naming the
// split.
func TestSplitBasisStated(t *testing.T) {
	nv := tables(t)["NVDA"]
	for _, tc := range []struct {
		text string
		want Status
	}{
		{"NVIDIA's split-adjusted diluted EPS was $0.39 in fiscal 2022.", Verified},
		{"NVIDIA's split-adjusted diluted EPS was $3.85 in fiscal 2022.", Corrected},
		{"NVIDIA's diluted EPS was $3.85 in fiscal 2022 (as reported, before the 2024 split).", Verified},
		{"NVIDIA's diluted EPS was $3.85 in fiscal 2022 on a pre-split basis.", Verified},
		{"NVIDIA's diluted EPS was $4.50 in fiscal 2022 as reported before the split.", Corrected},
		{"NVIDIA's diluted EPS was $0.39 in fiscal 2022 as reported before the split.", Verified},
		{"NVIDIA's diluted EPS was $3.85 in fiscal 2022.", Corrected},
		// An adjusted measure is still one.
		{"NVIDIA's adjusted diluted EPS was $0.39 in fiscal 2022.", Unverified},
	} {
		fs := nv.Check(tc.text)
		if len(fs) != 1 || fs[0].Status != tc.want {
			t.Errorf("%q → %s, want one %s", tc.text, describe(fs), tc.want)
		}
	}
}
