package pdf_test

import (
	"io"
	"os"
	"strings"
	"testing"

	"github.com/parleyhq/parley/internal/render/pdf"
)

// BenchmarkRender lays out a full bull vs. bear export, and one ten times
// as long, as a PDF: the fonts are parsed and subset on every call.
func BenchmarkRender(b *testing.B) {
	md, err := os.ReadFile("testdata/bullbear.full.md")
	if err != nil {
		b.Fatal(err)
	}
	for _, c := range []struct {
		name string
		doc  string
	}{{"export", string(md)}, {"export-x10", strings.Repeat(string(md)+"\n", 10)}} {
		b.Run(c.name, func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				if err := pdf.Render(io.Discard, "NVDA Bull vs. Bear Debate", c.doc); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}
