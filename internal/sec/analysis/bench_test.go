package analysis

import "testing"

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
