package debate_test

import (
	"context"
	"errors"
	"strings"
	"testing"

	"github.com/parleyhq/parley/internal/debate"
	"github.com/parleyhq/parley/internal/llm"
	"github.com/parleyhq/parley/internal/llm/script"
)

// A hint typed while a turn runs is appended at once, leaves that turn
// alone, and reaches the target agent's next turn.
func TestHintDuringRun(t *testing.T) {
	e := newEnv(t, script.Rule{Tag: "b", Reply: text("beta")})
	e.create("d", testLimits())
	var hintErr error
	e.runner.Cast.Responders = map[string]debate.Responder{"alpha": responderFunc(func(ctx context.Context, s *debate.State, _ debate.TurnSpec) (string, error) {
		_, hintErr = e.runner.Hint(ctx, "beta", "mention the migration cost")
		return "alpha's turn", nil
	})}
	p := stepsProto(func(s *debate.State) debate.Step {
		switch {
		case s.Completed("a") == nil:
			return debate.Step{Turns: []debate.TurnSpec{turn("a", "alpha", 1)}}
		case s.Completed("b") == nil:
			tb := turn("b", "beta", 1)
			for _, h := range s.PendingHints("beta") {
				tb.Hints = append(tb.Hints, h.ID)
				tb.Messages = append(tb.Messages, llm.Message{Role: llm.RoleUser, Text: "Hint: " + h.Text})
			}
			return debate.Step{Turns: []debate.TurnSpec{tb}}
		}
		return debate.Step{Done: true, Verdict: "ok"}
	})
	s, err := e.runner.Run(context.Background(), "d", p)
	if err != nil || hintErr != nil {
		t.Fatalf("run: %v, hint: %v", err, hintErr)
	}
	if len(s.Hints) != 1 || s.Hints[0].Applied != "b" || s.Turns["a"].Text != "alpha's turn" {
		t.Errorf("hints %+v, turn a %q", s.Hints, s.Turns["a"].Text)
	}
	reqs := e.requests("b")
	if len(reqs) != 1 || !strings.Contains(reqs[0].Messages[len(reqs[0].Messages)-1].Text, "mention the migration cost") {
		t.Errorf("turn b's request does not carry the hint: %+v", reqs)
	}
	if _, err := e.runner.Hint(context.Background(), "beta", "late"); !errors.Is(err, debate.ErrNotRunning) {
		t.Errorf("hint after the run: %v, want ErrNotRunning", err)
	}
}

// A hint for every agent, typed while the first agent speaks, reaches the
// next turn of each agent: it stays pending for an agent until one of that
// agent's own turns applies it, however many turns other agents take first.
func TestHintForAllReachesEveryAgent(t *testing.T) {
	e := newEnv(t,
		script.Rule{Tag: "b", Reply: text("beta")},
		script.Rule{Tag: "b2", Reply: text("beta again")})
	e.create("d", testLimits())
	var hintErr error
	e.runner.Cast.Responders = map[string]debate.Responder{"alpha": responderFunc(func(ctx context.Context, s *debate.State, t debate.TurnSpec) (string, error) {
		if t.ID == "a" {
			_, hintErr = e.runner.Hint(ctx, debate.HintAll, "mention the migration cost")
		}
		return "alpha's turn", nil
	})}
	withHints := func(s *debate.State, id, agent string) debate.TurnSpec {
		tt := turn(id, agent, 1)
		for _, h := range s.PendingHints(agent) {
			tt.Hints = append(tt.Hints, h.ID)
			tt.Messages = append(tt.Messages, llm.Message{Role: llm.RoleUser, Text: "Hint: " + h.Text})
		}
		return tt
	}
	// alpha speaks (and the hint is typed), then alpha again, then beta
	// twice: the second alpha turn must not use the hint up for beta.
	order := []struct{ id, agent string }{{"a", "alpha"}, {"a2", "alpha"}, {"b", "beta"}, {"b2", "beta"}}
	p := stepsProto(func(s *debate.State) debate.Step {
		for _, o := range order {
			if s.Completed(o.id) == nil {
				return debate.Step{Turns: []debate.TurnSpec{withHints(s, o.id, o.agent)}}
			}
		}
		return debate.Step{Done: true, Verdict: "ok"}
	})
	// alpha's turns are answered by its responder, beta's by the model.
	s, err := e.runner.Run(context.Background(), "d", p)
	if err != nil || hintErr != nil {
		t.Fatalf("run: %v, hint: %v", err, hintErr)
	}
	if len(s.Hints) != 1 {
		t.Fatalf("hints %+v", s.Hints)
	}
	h := s.Hints[0]
	if h.Applied != "a2" || h.AppliedBy["alpha"] != "a2" || h.AppliedBy["beta"] != "b" {
		t.Errorf("hint applied in %q, by %v; want first a2, alpha in a2, beta in b", h.Applied, h.AppliedBy)
	}
	if got := s.Turns["a2"].Hints; len(got) != 1 {
		t.Errorf("turn a2 applied hints %v, want the hint", got)
	}
	reqB := e.requests("b")
	if len(reqB) != 1 || !strings.Contains(reqB[0].Messages[len(reqB[0].Messages)-1].Text, "mention the migration cost") {
		t.Errorf("beta's turn after alpha applied the hint does not carry it: %+v", reqB)
	}
	if reqB2 := e.requests("b2"); len(reqB2) != 1 || len(reqB2[0].Messages) != 1 {
		t.Errorf("beta's second turn carries the hint again: %+v", reqB2)
	}
	if p := s.PendingHints("gamma"); len(p) != 1 {
		t.Errorf("an agent that has not spoken yet has %d pending hints, want the hint for all", len(p))
	}
}
