package debate_test

import (
	"context"
	"errors"
	"strings"
	"testing"
	"time"

	"github.com/parleyhq/parley/internal/debate"
	"github.com/parleyhq/parley/internal/llm"
	"github.com/parleyhq/parley/internal/llm/script"
)

// appendForeign appends a payload to a debate's log the way another process
// does: straight to the store, not through the runner.
func (e *env) appendForeign(id string, p debate.Payload) {
	e.t.Helper()
	ev, err := debate.NewEvent(id, e.clock.Now(), p)
	if err != nil {
		e.t.Fatal(err)
	}
	if _, err := e.store.Append(context.Background(), id, ev); err != nil {
		e.t.Fatal(err)
	}
}

// hintedProto runs turn a (alpha) then b (beta), giving b beta's pending
// hints.
func hintedProto() debate.Protocol {
	return stepsProto(func(s *debate.State) debate.Step {
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
}

// A hint another process appends while a turn runs (the server, the debate
// running on a worker) reaches the target's next turn; the runner's own
// appends after it keep the log's order, with no gap in its state.
func TestForeignHintReachesNextTurn(t *testing.T) {
	e := newEnv(t, script.Rule{Tag: "a", Reply: text("alpha speaks at length")}, script.Rule{Tag: "b", Reply: text("beta")})
	e.create("d", testLimits())
	e.runner.WatchEvery = -1 // only the appends and the step boundary see it
	e.runner.Cast.Default.Provider = &hookProvider{Provider: e.prov, onChunk: func(req llm.Request, i int, _ llm.Chunk) {
		if req.Tag == "a" && i == 0 {
			e.appendForeign("d", debate.HintQueued{ID: 1, Target: "beta", Text: "mention the migration cost"})
		}
	}}
	s, err := e.runner.Run(context.Background(), "d", hintedProto())
	if err != nil {
		t.Fatalf("run: %v", err)
	}
	if len(s.Hints) != 1 || s.Hints[0].Applied != "b" {
		t.Fatalf("hints %+v: want the foreign hint applied by b", s.Hints)
	}
	reqs := e.requests("b")
	if len(reqs) != 1 || !strings.Contains(reqs[0].Messages[len(reqs[0].Messages)-1].Text, "mention the migration cost") {
		t.Fatalf("turn b's request does not carry the hint: %+v", reqs)
	}
	if folded := e.fold("d"); folded.LastSeq != s.LastSeq || folded.Hints[0].Applied != "b" {
		t.Fatalf("the runner's state (seq %d) and the log (seq %d, hints %+v) differ", s.LastSeq, folded.LastSeq, folded.Hints)
	}
}

// A pause asked by another process in the middle of a long call reaches the
// runner through its watch of the log: the debate pauses with reason
// "pause requested", and the next run goes on (the request is spent).
func TestForeignPauseRequest(t *testing.T) {
	e := newEnv(t, script.Rule{Tag: "a", Reply: text("alpha")}, script.Rule{Tag: "b", Reply: text("beta")})
	e.create("d", testLimits())
	e.runner.WatchEvery = 5 * time.Millisecond
	asked := make(chan struct{})
	e.runner.Cast.Default.Provider = &hookProvider{Provider: e.prov, before: func(ctx context.Context, req llm.Request) {
		if req.Tag != "a" {
			return
		}
		e.appendForeign("d", debate.PauseRequest{})
		close(asked)
		<-ctx.Done() // a call that would not end by itself
	}}
	done := make(chan error, 1)
	go func() {
		_, err := e.runner.Run(context.Background(), "d", hintedProto())
		done <- err
	}()
	<-asked
	select {
	case err := <-done:
		var pe *debate.PausedError
		if !errors.As(err, &pe) || pe.Reason != debate.PauseOnRequest {
			t.Fatalf("run: %v, want a pause with reason %q", err, debate.PauseOnRequest)
		}
	case <-time.After(5 * time.Second):
		t.Fatal("the runner did not honour the pause request")
	}
	if st := e.fold("d"); st.Status != debate.StatusPaused || st.PauseRequested != nil {
		t.Fatalf("after the pause: status %s, request %+v", st.Status, st.PauseRequested)
	}
	e.withScript(script.Rule{Tag: "a", Reply: text("alpha")}, script.Rule{Tag: "b", Reply: text("beta")})
	if s, err := e.runner.Run(context.Background(), "d", hintedProto()); err != nil || s.Status != debate.StatusCompleted {
		t.Fatalf("resume after the pause: %v", err)
	}
}

// A pause asked while no runner runs the debate pauses the next run before
// it does anything; a request for another runner (one that has stopped) is
// ignored.
func TestPauseRequestBetweenRuns(t *testing.T) {
	e := newEnv(t, script.Rule{Tag: "a", Reply: text("alpha")}, script.Rule{Tag: "b", Reply: text("beta")})
	e.create("d", testLimits())
	e.appendForeign("d", debate.PauseRequest{})
	_, err := e.runner.Run(context.Background(), "d", hintedProto())
	var pe *debate.PausedError
	if !errors.As(err, &pe) || pe.Reason != debate.PauseOnRequest {
		t.Fatalf("run with a pending request: %v", err)
	}
	if n := len(e.prov.Requests()); n != 0 {
		t.Fatalf("%d model calls before pausing", n)
	}
	e.appendForeign("d", debate.PauseRequest{Owner: "a-runner-that-stopped"})
	if s, err := e.runner.Run(context.Background(), "d", hintedProto()); err != nil || s.Status != debate.StatusCompleted {
		t.Fatalf("run with a stale request: %v", err)
	}
}

// Handoff stops a run between steps without pausing: the turn running
// completes, the next runner goes on from the log and runs no completed
// turn again.
func TestHandoffBetweenSteps(t *testing.T) {
	e := newEnv(t, script.Rule{Tag: "a", Reply: text("alpha")}, script.Rule{Tag: "b", Reply: text("beta")})
	e.create("d", testLimits())
	handoff := make(chan struct{})
	e.runner.Handoff = handoff
	e.runner.Cast.Default.Provider = &hookProvider{Provider: e.prov, before: func(_ context.Context, req llm.Request) {
		if req.Tag == "a" {
			close(handoff)
		}
	}}
	s, err := e.runner.Run(context.Background(), "d", hintedProto())
	if !errors.Is(err, debate.ErrHandedOff) {
		t.Fatalf("run: %v, want ErrHandedOff", err)
	}
	if s.Completed("a") == nil || s.Status != debate.StatusRunning || len(s.Pauses) != 0 {
		t.Fatalf("after the handoff: a completed %v, status %s, pauses %v", s.Completed("a") != nil, s.Status, s.Pauses)
	}
	if sum, _ := e.store.Get(context.Background(), "d"); sum.Lease != nil {
		t.Fatalf("the lease is still held after the handoff: %+v", sum.Lease)
	}
	e.withScript(script.Rule{Tag: "b", Reply: text("beta")})
	s, err = e.runner.Run(context.Background(), "d", hintedProto())
	if err != nil || s.Status != debate.StatusCompleted {
		t.Fatalf("the next runner: %v", err)
	}
	if n := len(e.requests("a")); n != 0 {
		t.Fatalf("turn a was asked again %d times", n)
	}
	if n := len(decodeAll[debate.TurnStarted](t, e.events("d"))); n != 2 {
		t.Fatalf("%d turn.started events, want 2 (none superseded)", n)
	}
}
