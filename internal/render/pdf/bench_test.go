package pdf_test

import (
	"io"
	"os"
	"strings"
	"testing"

	"github.com/parleyhq/parley/internal/render/pdf"
)

// BenchmarkRender lays out a full bull vs. bear export, and one ten times
// as long, as a PDF: the fonts are parsed and subset on every call. The
// long-line cases are a model's reply of 256 KB in one paragraph and on one
// line of code, whose cost grew with the square of their length, and lists
// nested on one line ("1. 1. 1. …"), which goldmark parses in more than
// linear time unless textsafe.Shallow bounds them, and an HTML block of
// 64 KB, printed as text in one fpdf call (14 s), not in pieces.
func BenchmarkRender(b *testing.B) {
	md, err := os.ReadFile("testdata/bullbear.full.md")
	if err != nil {
		b.Fatal(err)
	}
	for _, c := range []struct {
		name string
		doc  string
	}{{"export", string(md)}, {"export-x10", strings.Repeat(string(md)+"\n", 10)},
		{"long-paragraph", strings.Repeat("word ", 256<<10/5)}, {"long-code-line", "```\n" + strings.Repeat("code/", 256<<10/5) + "\n```\n"},
		{"nested-lists", strings.Repeat("1. ", 64<<10/3) + "deep"}, {"html-block", strings.Repeat("<div>\n", 64<<10/6)}} {
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
