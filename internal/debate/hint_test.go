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
