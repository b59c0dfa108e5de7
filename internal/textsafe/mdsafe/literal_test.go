package mdsafe

import (
	"strings"
	"testing"
)

// TestLiteral: a topic placed in a heading, or after a label, reads as
// typed: the heading holds its text and nothing else (no emphasis, link,
// code, HTML or character reference of the topic's), it stays one
// heading, and what follows it is not taken in. Inert, which every
// document goes through, changes none of it.
func TestLiteral(t *testing.T) {
	attr := strings.NewReplacer("&", "&amp;", "<", "&lt;", ">", "&gt;", `"`, "&quot;")
	for _, topic := range []string{
		"Should we use Redis or PostgreSQL?",
		"# x",
		"*bold* and __strong__ and _em_",
		"[link](http://example.com) ![img](http://example.com/a.png)",
		"<b>bold</b> <!-- hidden --> <https://example.com>",
		"`code` and ~~struck~~ and a|b",
		"Is it C #",
		"ends with a backslash \\",
		"&amp; &#x202E; &copy; R&D",
		"1. not a list",
		"- nor this",
		"snake_case_name and 2*3*4",
		"a \\*pre-escaped\\* star",
		`C:\svc\*`,
	} {
		for _, doc := range []string{"# Decision: " + Literal(topic) + "\n\nNext.\n", "**Topic:** " + Literal(topic) + "\\\n**Debate ID:** DEB-1\n"} {
			for _, src := range []string{doc, Inert(doc)} {
				got := page(t, src)
				var want string
				if strings.HasPrefix(doc, "#") {
					want = "<h1>Decision: " + attr.Replace(topic) + "</h1>\n<p>Next.</p>\n"
				} else {
					want = "<p><strong>Topic:</strong> " + attr.Replace(topic) + "<br>\n<strong>Debate ID:</strong> DEB-1</p>\n"
				}
				if got != want {
					t.Errorf("topic %q as %q:\n got %q\nwant %q", topic, src, got, want)
				}
			}
		}
	}
	if got := Literal("two\nlines\t and  spaces "); got != "two lines and spaces" {
		t.Errorf("Literal kept the text's breaks: %q", got)
	}
}
