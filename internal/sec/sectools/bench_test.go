package sectools

import (
	"context"
	"testing"

	"github.com/parleyhq/parley/internal/sec/edgar"
	"github.com/parleyhq/parley/internal/sec/snapshot"
	"github.com/parleyhq/parley/internal/sec/textsearch"
)

// BenchmarkFilingIndex outlines and indexes NVIDIA's shipped FY2025 10-K
// (2 MB of inline XBRL), the work filing_search does once per filing.
func BenchmarkFilingIndex(b *testing.B) {
	raw, err := snapshot.New().Document(context.Background(), 1045810, "0001045810-25-000023", "nvda-20250126.htm")
	if err != nil {
		b.Fatal(err)
	}
	b.SetBytes(int64(len(raw.Body)))
	b.ReportAllocs()
	for b.Loop() {
		var texts []string
		for _, part := range edgar.Outline(raw.Body, "10-K") {
			texts = append(texts, edgar.Passages(part.Text, passageChars)...)
		}
		textsearch.New(texts)
	}
}

// BenchmarkFilingSearch ranks the passages of that 10-K for one query.
func BenchmarkFilingSearch(b *testing.B) {
	raw, err := snapshot.New().Document(context.Background(), 1045810, "0001045810-25-000023", "nvda-20250126.htm")
	if err != nil {
		b.Fatal(err)
	}
	var texts []string
	for _, part := range edgar.Outline(raw.Body, "10-K") {
		texts = append(texts, edgar.Passages(part.Text, passageChars)...)
	}
	ix := textsearch.New(texts)
	b.ReportAllocs()
	for b.Loop() {
		ix.Search("export controls China data center", 4)
	}
}
