package formal_test

import (
	"testing"
	"time"

	"github.com/parleyhq/parley/internal/debate"
	"github.com/parleyhq/parley/internal/format/formal"
	"github.com/parleyhq/parley/internal/format/formattest"
	"github.com/parleyhq/parley/internal/llm/script"
)

const topic = "Should we migrate the monolith to microservices?"

var created = time.Date(2026, 3, 2, 9, 0, 0, 0, time.UTC)

// mv is a move as a debater sends it.
func mv(act, repliesTo, statement string, premises ...string) formal.MoveIn {
	if premises == nil {
		premises = []string{}
	}
	return formal.MoveIn{Act: act, RepliesTo: repliesTo, Statement: statement, Premises: premises, Explanation: "Because " + act + " " + repliesTo + "."}
}

// moves is a debater reply.
func moves(ms ...formal.MoveIn) *script.Reply {
	if ms == nil {
		ms = []formal.MoveIn{}
	}
	return &script.Reply{JSON: formattest.JSON(formal.Reply{Moves: ms})}
}

func closing(final string, ms ...formal.MoveIn) *script.Reply {
	if ms == nil {
		ms = []formal.MoveIn{}
	}
	return &script.Reply{JSON: formattest.JSON(formal.Reply{Moves: ms, FinalStatement: final})}
}

func rule(tag string, r *script.Reply) script.Rule { return script.Rule{Tag: tag, Reply: r} }

func rules(tag string, rs ...*script.Reply) script.Rule {
	out := script.Rule{Tag: tag}
	for _, r := range rs {
		out.Replies = append(out.Replies, *r)
	}
	return out
}

func classify(rel ...formal.Class) *script.Reply {
	if rel == nil {
		rel = []formal.Class{}
	}
	return &script.Reply{JSON: formattest.JSON(formal.Classification{Relations: rel, Rejected: []formal.Rejection{}})}
}

func verdictReply(rationale string) *script.Reply {
	return &script.Reply{JSON: formattest.JSON(formal.Judgment{
		Rationale:   rationale,
		ValidPoints: []formal.Point{{ID: "A2", Point: "Migration risk is real for a team this size."}},
		Consensus:   "Extract the deploy-blocking billing module first, behind a stable interface; keep the rest modular.",
		Revisit:     []string{"Deploy queue exceeds one hour again", "The team grows past five squads"},
		Unaddressed: []string{"What does the on-call load of ten services cost?"},
		Biases:      "PRO leaned on delivery speed, OPP on risk; both were weighed by argument strength.",
		Focus:       "",
	})}
}

// fixture is one formal debate on the script provider and a memstore.
type fixture struct{ *formattest.Debate }

func newFixture(t *testing.T, opts formal.Options, rs ...script.Rule) *fixture {
	t.Helper()
	return &fixture{formattest.New(t, formattest.Setup{Format: formal.Format{}, ID: "DEB-formal1", Topic: topic, Created: created, Options: opts}, rs...)}
}

func result(t *testing.T, s *debate.State) formal.Result {
	t.Helper()
	return formattest.Verdict[formal.Result](t, s)
}

func notes(s *debate.State, kind string) []debate.NoteEvent { return formattest.Notes(s, kind) }
