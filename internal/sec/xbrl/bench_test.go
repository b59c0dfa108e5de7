package xbrl

import (
	"bytes"
	"testing"
)

// BenchmarkParseNVDA parses NVIDIA's 4 MB companyfacts document.
func BenchmarkParseNVDA(b *testing.B) {
	data := fixtureBytes(b, "NVDA")
	b.SetBytes(int64(len(data)))
	b.ReportAllocs()
	for b.Loop() {
		if _, err := Parse(bytes.NewReader(data)); err != nil {
			b.Fatal(err)
		}
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
