package formal

import (
	"encoding/json"
	"fmt"
	"testing"
	"time"

	"github.com/parleyhq/parley/internal/debate"
)

// longDebate folds a debate of MaxRounds rounds in which every turn makes
// MaxMoves moves: the largest debate the options allow, without the
// moderator's turns.
func longDebate(b *testing.B) (*Protocol, *debate.State) {
	b.Helper()
	p, err := NewProtocol("Should we migrate the monolith to microservices?", Options{Rounds: MaxRounds})
	if err != nil {
		b.Fatal(err)
	}
	at := time.Date(2026, 3, 2, 9, 0, 0, 0, time.UTC)
	raw, _ := json.Marshal(p.opts)
	evs := []debate.Event{}
	add := func(pl debate.Payload) {
		e, err := debate.NewEvent("DEB-bench", at, pl)
		if err != nil {
			b.Fatal(err)
		}
		e.Seq = int64(len(evs) + 1)
		evs = append(evs, e)
	}
	add(debate.Created{Format: Name, Topic: p.topic, Options: raw})
	d := newDialogue()
	last := map[string]string{}
	for _, sl := range p.schedule() {
		tm := TurnMove{Party: sl.party}
		var ins []MoveIn
		switch {
		case sl.stage == stageOpening && sl.party == PRO:
			ins = []MoveIn{{Act: ActClaim, Statement: "We should migrate"}}
		case sl.stage == stageOpening:
			ins = []MoveIn{{Act: ActClaim, RepliesTo: "P1", Statement: "We should not"}}
		case sl.stage == stageArgument:
			for i := range MaxMoves {
				ins = append(ins, MoveIn{Act: ActClaim, RepliesTo: last[other(sl.party)], Statement: fmt.Sprintf("%s counter %d in %s", sl.party, i, sl.id)})
			}
		default:
			tm.FinalStatement = "Final."
		}
		for _, in := range ins {
			m, err := d.apply(sl.party, sl.stage, sl.round, in)
			if err != nil {
				b.Fatalf("%s: %v", sl.id, err)
			}
			tm.Moves = append(tm.Moves, *m)
		}
		for _, m := range tm.Moves {
			last[sl.party] = m.ID
		}
		move, _ := json.Marshal(tm)
		ref := debate.TurnRef{ID: sl.id, Agent: agentOf(sl.party), Role: RoleDebater, Round: sl.round}
		add(debate.TurnStarted{Turn: ref, Attempt: 1})
		add(debate.TurnCompleted{Turn: ref, Move: move})
	}
	s, err := debate.Fold(evs)
	if err != nil {
		b.Fatal(err)
	}
	return p, s
}

func BenchmarkNext(b *testing.B) {
	p, s := longDebate(b)
	b.ReportAllocs()
	for b.Loop() {
		st, err := p.Next(s)
		if err != nil || len(st.Turns) != 1 || st.Turns[0].ID != idClassify {
			b.Fatalf("%+v %v", st, err)
		}
	}
}

func BenchmarkRender(b *testing.B) {
	_, s := longDebate(b)
	b.ReportAllocs()
	for b.Loop() {
		if _, err := (Format{}).Render(s, debate.RenderOptions{}); err != nil {
			b.Fatal(err)
		}
	}
}
