package report

import (
	"testing"

	"github.com/yuin/goldmark"
	"github.com/yuin/goldmark/ast"
	"github.com/yuin/goldmark/text"
)

// headings are the levels of the headings a Markdown parser finds in s.
func headings(s string) []int {
	var out []int
	doc := goldmark.DefaultParser().Parse(text.NewReader([]byte(s)))
	_ = ast.Walk(doc, func(n ast.Node, entering bool) (ast.WalkStatus, error) {
		if h, ok := n.(*ast.Heading); ok && entering {
			out = append(out, h.Level)
		}
		return ast.WalkContinue, nil
	})
	return out
}

// TestSetextHeadings: model text that underlines a line with "===" or
// "---" makes it a heading of level 1 or 2 as surely as "# " does; nested
// or prose, it opens no section of the document's own, and the words and
// the thematic breaks of the text stay.
func TestSetextHeadings(t *testing.T) {
	in := "Intro line\nRecommendation\n===\n\nSome text\n  Buy now\n  ---\n\n---\n\nAfter a break\n\n```\ncode\n===\n```\n- item\n--"
	for name, got := range map[string]string{"Nested": Nested(in, 3), "Prose": Prose(in)} {
		for _, lv := range headings(got) {
			if lv < 3 {
				t.Errorf("%s: a heading of level %d is left in:\n%s", name, lv, got)
			}
		}
	}
	if h := headings(in); len(h) < 2 {
		t.Fatalf("the input has %v headings: the test proves nothing", h)
	}
	want := "Intro line\nRecommendation\n\\===\n\nSome text\n  Buy now\n  \\---\n\n---\n\nAfter a break\n\n```\ncode\n===\n```\n- item\n\\--"
	if got := Nested(in, 3); got != want {
		t.Errorf("Nested =\n%q\nwant\n%q", got, want)
	}
	if got := Nested("a - b = c", 3); got != "a - b = c" {
		t.Errorf("Nested of plain text = %q", got)
	}
}
