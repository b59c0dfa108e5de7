package analysis

import (
	"bytes"
	"testing"

	"github.com/parleyhq/parley/internal/sec/xbrl"
)

// BenchmarkAnalyze resolves every concept from parsed facts, then computes
// all ratios, both frameworks and the evidence.
func BenchmarkAnalyze(b *testing.B) {
	cf := companyFacts(b, "NVDA")
	b.ReportAllocs()
	for b.Loop() {
		r, err := Analyze(cf, Options{SIC: sicNVDA})
		if err != nil {
			b.Fatal(err)
		}
		Assess(r)
	}
}

// BenchmarkRatiosAndFrameworks computes all ratios, both frameworks and the
// evidence from already-resolved series.
func BenchmarkRatiosAndFrameworks(b *testing.B) {
	f, err := Load(companyFacts(b, "NVDA"), Options{SIC: sicNVDA})
	if err != nil {
		b.Fatal(err)
	}
	b.ReportAllocs()
	for b.Loop() {
		Assess(AnalyzeFinancials(f))
	}
}

// BenchmarkParseAndAnalyze is what a bull vs. bear debate pays for one
// company's data: parse the companyfacts document, resolve every concept
// (the tags the analysis reads), compute the ratios, both frameworks and the
// evidence. Parse alone (xbrl.BenchmarkParse) decodes only the outline.
func BenchmarkParseAndAnalyze(b *testing.B) {
	for _, tc := range []struct {
		ticker string
		sic    int
	}{{"NVDA", sicNVDA}, {"AAPL", sicAAPL}, {"GOOGL", sicGOOGL}} {
		b.Run(tc.ticker, func(b *testing.B) {
			data := companyFactsJSON(b, tc.ticker)
			b.SetBytes(int64(len(data)))
			b.ReportAllocs()
			for b.Loop() {
				cf, err := xbrl.Parse(bytes.NewReader(data))
				if err != nil {
					b.Fatal(err)
				}
				r, err := Analyze(cf, Options{SIC: tc.sic})
				if err != nil {
					b.Fatal(err)
				}
				Assess(r)
			}
		})
	}
}
