package factcheck

import (
	"os"
	"strings"
	"testing"
)

// BenchmarkCheckDebate checks the text of a whole debate: every sentence of
// the corpus (about 190 sentences, 280 figures), roughly what the research
// notes, openings, rebuttals, reconciliations and synthesis of a deep
// bull vs. bear debate hold.
func BenchmarkCheckDebate(b *testing.B) {
	ts := tables(b)
	var texts = map[string]*strings.Builder{"NVDA": {}, "AAPL": {}, "GOOGL": {}}
	for _, name := range []string{"testdata/corpus.tsv", "testdata/heldout.tsv"} {
		data, err := os.ReadFile(name)
		if err != nil {
			b.Fatal(err)
		}
		for _, line := range strings.Split(string(data), "\n") {
			if p := strings.SplitN(line, "\t", 4); len(p) == 4 && !strings.HasPrefix(line, "#") {
				texts[p[1]].WriteString(p[3] + " ")
			}
		}
	}
	b.ReportAllocs()
	for b.Loop() {
		for tk, text := range texts {
			_ = ts[tk].Check(text.String())
		}
	}
}

// BenchmarkCheckRunOn checks a run-on text with no sentence stops (a table
// pasted without its line breaks, a list of figures): 2,000 bytes, 200
// figures. Every figure's cues were read over the whole text, 0.4 s here.
func BenchmarkCheckRunOn(b *testing.B) {
	tb := lossTable()
	text := strings.Repeat("revenue 5% ", 200)
	b.ReportAllocs()
	for b.Loop() {
		_ = tb.Check(text)
	}
}

// BenchmarkCheckRunOnWords is BenchmarkCheckRunOn with the figures in words
// and each growth over a span of years, which is read near each figure.
func BenchmarkCheckRunOnWords(b *testing.B) {
	tb := lossTable()
	text := strings.Repeat("revenue more than doubled and grew sixty five percent between 2022 and 2024, ", 200)
	b.ReportAllocs()
	for b.Loop() {
		_ = tb.Check(text)
	}
}

// BenchmarkCheckRunOnMoves is BenchmarkCheckRunOn with moves stated with
// no figure ("revenue rose in 2024"), each read with the words after it.
func BenchmarkCheckRunOnMoves(b *testing.B) {
	tb := lossTable()
	text := strings.Repeat("revenue rose in 2024 and net income hit a record in 2025 then ", 200)
	b.ReportAllocs()
	for b.Loop() {
		_ = tb.Check(text)
	}
}
