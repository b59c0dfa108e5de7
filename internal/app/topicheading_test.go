package app

import (
	"context"
	"strings"
	"testing"
)

// TestTopicHeadingReadsAsTyped: a topic placed in a document's heading (or
// crux's "Topic:" line) is the user's words, not Markdown: its "*", "[…](…)",
// "`", "<b>" and "#" show as typed in every document (the Markdown export,
// the decision document, the PDF's title, the dashboard's report), rather
// than as emphasis, a link, code, HTML or the heading's end.
func TestTopicHeadingReadsAsTyped(t *testing.T) {
	const topic = "Is *bold* or __strong__ a [link](http://example.com), `code` or <b>HTML</b> in C #"
	a := testApp(t, map[string]string{"OPENAI_API_KEY": "k"})
	for format, want := range map[string]string{
		"perspectives": "Decision: " + topic,
		"formal":       `Debate: "` + topic + `"`,
		"council":      "Council: " + topic,
		"crux":         topic, // its "**Topic:**" line's, read as a heading's
	} {
		req := request(format, topic)
		req.Models.Model = "m"
		s, err := a.Start(context.Background(), req)
		if err != nil {
			t.Fatalf("%s: %v", format, err)
		}
		st, f, err := a.Load(context.Background(), s.ID)
		if err != nil {
			t.Fatal(err)
		}
		doc, err := RenderDoc(f, st, false)
		if err != nil {
			t.Fatal(err)
		}
		if format == "crux" {
			for line := range strings.Lines(doc) {
				if v, ok := strings.CutPrefix(line, "**Topic:** "); ok {
					doc = "# " + strings.TrimSuffix(strings.TrimSuffix(v, "\n"), "\\")
				}
			}
		}
		if got := firstHeading(doc); got != want {
			t.Errorf("%s: the heading reads %q, want %q; the document:\n%s", format, got, want, doc)
		}
	}
}
