package factcheck

import "testing"

// TestPhrasings: figures written in the other ways models write them
// (testdata/phrasings.tsv: growth without "%", numbers and multiples in
// words, years named by their end date, TTM and short fiscal years,
// quarters, basis points, parentheses and losses, returns on average
// equity) are caught when wrong, passed when right, and left unverified
// when the filings cannot settle them.
func TestPhrasings(t *testing.T) {
	n := checkLabelled(t, "phrasings.tsv", t.Logf)
	t.Logf("phrasings: %d right (%d not all verified), %d wrong, %d unchecked", n["ok"], n["ok unverified"], n["wrong"], n["unchecked"])
}

// TestPhrasingsHeldOut: the same on sentences written with them and not
// used to tune the reader (testdata/phrasings_heldout.tsv).
func TestPhrasingsHeldOut(t *testing.T) {
	n := checkLabelled(t, "phrasings_heldout.tsv", t.Logf)
	t.Logf("phrasings held out: %d right (%d not all verified), %d wrong, %d unchecked", n["ok"], n["ok unverified"], n["wrong"], n["unchecked"])
}

// TestWordValue: a number in words is read whole or not at all.
func TestWordValue(t *testing.T) {
	for _, tc := range []struct {
		words string
		want  float64
		ok    bool
	}{
		{"sixty five", 65, true},
		{"one hundred thirty two", 132, true},
		{"one hundred and twelve", 112, true},
		{"a hundred", 100, true},
		{"two thousand five hundred", 2500, true},
		{"six point four", 6.4, true},
		{"twelve", 12, true},
		{"one two", 0, false},
		{"twenty thirty", 0, false},
		{"fifteen six", 0, false},
		{"hundred", 0, false},
		{"a twelve", 0, false},
		{"six point", 0, false},
		{"six point twelve", 0, false},
	} {
		v, _, ok := wordValue(tc.words)
		if ok != tc.ok || ok && v != tc.want {
			t.Errorf("wordValue(%q) = %v, %v; want %v, %v", tc.words, v, ok, tc.want, tc.ok)
		}
	}
}
