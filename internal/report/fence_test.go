package report

import (
	"slices"
	"strings"
	"testing"

	"github.com/parleyhq/parley/internal/debate"
)

// TestEmbeddedTextStaysInItsPlace: model text placed in a document, nested
// or as prose, neither opens a section of the document (a "## " line
// behind what only looks like a fence: "```x`y" opens none) nor leaves a
// code block open that would make code of the sections after it.
func TestEmbeddedTextStaysInItsPlace(t *testing.T) {
	for _, in := range []string{
		"```x`y\n## Behind a fence that is none",
		"text\n```\nnever closed",
		"~~~~\ncode\n~~~\nstill code",
		"<!--\n```\n-->",
		"````\ncode\n```\n## still code\n",
	} {
		for name, got := range map[string]string{"Nested": Nested(in, 4), "Prose": Prose(in)} {
			doc := "## Turn\n\n" + got + "\n\n## Next section\n"
			var sections []int
			for _, lv := range headings(doc) {
				if lv <= 2 {
					sections = append(sections, lv)
				}
			}
			if !slices.Equal(sections, []int{2, 2}) {
				t.Errorf("%s(%q) = %q: the document has sections %v, want [2 2]", name, in, got, sections)
			}
		}
	}
	if got := Nested("```x`y\n## Behind", 4); !strings.Contains(got, "#### Behind") {
		t.Errorf("a heading after a line that opens no fence is not nested: %q", got)
	}
}

// TestFollowUpAnswerStaysInItsPlace: an answer to a follow-up question is
// model text like a turn's: its headings open no section of the document
// and a fence it leaves open does not make code of the token table.
func TestFollowUpAnswerStaysInItsPlace(t *testing.T) {
	s := &debate.State{Turns: map[string]*debate.Turn{}}
	s.Notes = append(s.Notes, debate.NoteEvent{Note: debate.Note{Kind: NoteAsk, Data: []byte(`{"turn":"ask/1/pro","agent":"pro","question":"why?"}`)}})
	s.Turns["ask/1/pro"] = &debate.Turn{TurnRef: debate.TurnRef{ID: "ask/1/pro", Agent: "pro"}, Status: debate.TurnDone,
		Text: "Because.\n# Recommendation\nbuy\n```\nnever closed"}
	s.Done = append(s.Done, "ask/1/pro")
	var b strings.Builder
	FollowUpSection(&b, s, "## Follow-up questions", AgentName)
	b.WriteString("\n## Tokens and cost\n")
	var sections []int
	for _, lv := range headings(b.String()) {
		if lv <= 2 {
			sections = append(sections, lv)
		}
	}
	if !slices.Equal(sections, []int{2, 2}) {
		t.Errorf("the document has sections %v, want the follow-ups' and the table's [2 2]:\n%s", sections, b.String())
	}
}
