package xbrl

import (
	"bytes"
	"testing"
)

// BenchmarkParse parses each company's companyfacts document (NVIDIA's is
// 4 MB). Parse alone is not what a debate pays: see BenchmarkParseAndAnalyze
// in internal/sec/analysis for Parse plus the tags an analysis reads.
func BenchmarkParse(b *testing.B) {
	for _, ticker := range []string{"NVDA", "AAPL", "GOOGL"} {
		b.Run(ticker, func(b *testing.B) {
			data := fixtureBytes(b, ticker)
			b.SetBytes(int64(len(data)))
			b.ReportAllocs()
			for b.Loop() {
				if _, err := Parse(bytes.NewReader(data)); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}

// BenchmarkResolveAllConcepts resolves every known concept for NVIDIA.
func BenchmarkResolveAllConcepts(b *testing.B) {
	cf := fixture(b, "NVDA")
	b.ReportAllocs()
	for b.Loop() {
		for _, c := range Concepts() {
			if _, err := cf.Series(c); err != nil {
				b.Fatal(err)
			}
		}
	}
}

// BenchmarkSkipOutline bracket-matches all of NVIDIA's document: the part of
// Parse that reads every byte.
func BenchmarkSkipOutline(b *testing.B) {
	data := fixtureBytes(b, "NVDA")
	b.SetBytes(int64(len(data)))
	for b.Loop() {
		r := &reader{data: data}
		if err := r.skipOutline(); err != nil || r.pos != len(data) {
			b.Fatal(r.pos, err)
		}
	}
}
