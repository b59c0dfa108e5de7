package report

import (
	"encoding/json"
	"fmt"
	"slices"
	"strings"

	"github.com/parleyhq/parley/internal/debate"
)

// Follow-up questions asked after a debate, in every format that has no
// follow-ups of its own: a question is recorded as a note of kind NoteAsk
// and its answer as the completed turn the note names ("ask/N/AGENT"),
// appended together once the answer is in.

// NoteAsk is the kind of the note that records a follow-up question.
const NoteAsk = "ask"

// AskTurnPrefix starts the ids of follow-up turns.
const AskTurnPrefix = "ask/"

// AskData is the data of a follow-up question's note.
type AskData struct {
	Turn     string `json:"turn"`
	Agent    string `json:"agent"`
	Question string `json:"question"`
}

// FollowUp is a question put to one agent after the debate, and its answer.
type FollowUp struct {
	AskData
	Answer *debate.Turn // nil when the log has the question only
}

// FollowUps lists a debate's follow-up questions (notes of kind NoteAsk) in
// the order they were asked, each with its answer.
func FollowUps(s *debate.State) []FollowUp {
	var out []FollowUp
	for _, n := range s.Notes {
		if n.Kind != NoteAsk {
			continue
		}
		var d AskData
		if json.Unmarshal(n.Data, &d) != nil {
			continue
		}
		out = append(out, FollowUp{AskData: d, Answer: s.Completed(d.Turn)})
	}
	return out
}

// IsAsk reports whether a turn answers a follow-up question rather than
// being part of the debate.
func IsAsk(t *debate.Turn) bool { return strings.HasPrefix(t.ID, AskTurnPrefix) }

// FollowUpSection writes the follow-up questions and their answers under
// heading, with name giving each agent's display name; nothing when there
// are none.
func FollowUpSection(b *strings.Builder, s *debate.State, heading string, name func(agent string) string) {
	fus := FollowUps(s)
	if len(fus) == 0 {
		return
	}
	fmt.Fprintf(b, "\n%s\n", heading)
	for i, fu := range fus {
		fmt.Fprintf(b, "\n**Q%d (to %s):** %s\n", i+1, name(fu.Agent), oneLine(fu.Question))
		if fu.Answer == nil {
			b.WriteString("\n_(no answer recorded)_\n")
			continue
		}
		by := fu.Answer.Model
		if by == "" {
			by = "unknown model"
		}
		// The answer is model text under the section's heading, as a turn is.
		fmt.Fprintf(b, "\n**%s answers Q%d** (%s):\n\n%s\n", name(fu.Agent), i+1, by, Nested(strings.TrimSpace(fu.Answer.Text), 3))
		if fu.Answer.Invalid != "" {
			// Cut at the token limit, or declined: not the whole answer.
			fmt.Fprintf(b, "\n*Not a complete answer: %s*\n", Item(fu.Answer.Invalid))
		}
	}
}

// HintSection writes the hints a person gave the agents while the debate
// ran, each with the turns that applied it, under heading; nothing when
// there are none. They steered the debate: the documents of every format
// but bull vs. bear (which has its own list) left them out, so a reader
// could not tell the transcript had been coached, or by what.
func HintSection(b *strings.Builder, s *debate.State, heading string, name func(agent string) string) {
	if len(s.Hints) == 0 {
		return
	}
	fmt.Fprintf(b, "\n%s\n\n", heading)
	for _, h := range s.Hints {
		to := name(h.Target)
		if h.Target == debate.HintAll {
			to = "every agent"
		}
		var in []string
		for _, id := range h.AppliedBy {
			in = append(in, id)
		}
		if len(in) == 0 && h.Applied != "" {
			in = append(in, h.Applied)
		}
		slices.Sort(in)
		applied := "not applied"
		if len(in) > 0 {
			applied = "applied in " + strings.Join(slices.Compact(in), ", ")
		}
		fmt.Fprintf(b, "- To %s: %s (%s)\n", Item(to), Item(h.Text), applied)
	}
}

func oneLine(s string) string { return strings.Join(strings.Fields(s), " ") }
