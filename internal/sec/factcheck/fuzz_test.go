package factcheck

import (
	"os"
	"strings"
	"testing"
)

// FuzzCheck: no text makes the reader fail; a figure read inside another
// ("9m" of "$1.9M") crashed it. Seeded with every labelled sentence.
func FuzzCheck(f *testing.F) {
	for _, path := range []string{"testdata/corpus.tsv", "testdata/heldout.tsv", "testdata/shapes.tsv",
		"testdata/phrasings.tsv", "testdata/phrasings_heldout.tsv"} {
		b, err := os.ReadFile(path)
		if err != nil {
			f.Fatal(err)
		}
		for _, line := range strings.Split(string(b), "\n") {
			if p := strings.SplitN(line, "\t", 4); len(p) == 4 && !strings.HasPrefix(line, "#") {
				f.Add(p[3])
			}
		}
	}
	f.Add("Revenue was $1.9M in FY2024, with 9m of runway.")
	f.Add("| Metric | FY2024 | YoY |\n|---|---|---|\n| Revenue | $391.0B | +2% |\n| Net income | -$1.2B | n/a |\n")
	f.Add("| a | b |\n| 1 |\n|---|\n||\n|")
	tb := lossTable()
	f.Fuzz(func(t *testing.T, text string) {
		for _, fd := range tb.Check(text) {
			if fd.Status == "" {
				t.Fatalf("%q: a finding without a status: %+v", text, fd)
			}
		}
	})
}
