package debate_test

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"iter"
	"reflect"
	"slices"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/parleyhq/parley/internal/debate"
	"github.com/parleyhq/parley/internal/llm"
	"github.com/parleyhq/parley/internal/llm/script"
	"github.com/parleyhq/parley/internal/tool"
)

// threeTurns is the toy debate most tests use: a and b together, then c.
func threeTurns() *toyProto {
	return &toyProto{steps: []toyStep{
		{label: "openings", turns: []debate.TurnSpec{turn("a", "alpha", 1), turn("b", "beta", 1)}},
		{label: "closing", turns: []debate.TurnSpec{turn("c", "gamma", 1)}},
	}}
}

func threeReplies() []script.Rule {
	return []script.Rule{
		{Tag: "a", Reply: text("alpha opens")},
		{Tag: "b", Reply: text("beta opens")},
		{Tag: "c", Reply: text("gamma closes")},
	}
}

func pausedErr(t *testing.T, err error, reason string) *debate.PausedError {
	t.Helper()
	var pe *debate.PausedError
	if !errors.As(err, &pe) {
		t.Fatalf("Run error = %v, want a *PausedError (%s)", err, reason)
	}
	if pe.Reason != reason {
		t.Fatalf("paused with reason %q (%s), want %q", pe.Reason, pe.Detail, reason)
	}
	return pe
}

func TestRunToyProtocol(t *testing.T) {
	e := newEnv(t, threeReplies()...)
	// a and b must both be in flight before either answers: proof that the
	// step's turns run concurrently.
	bar := newBarrier(2)
	var overlapped atomic.Bool
	overlapped.Store(true)
	hp := &hookProvider{Provider: e.prov, before: func(ctx context.Context, req llm.Request) {
		if req.Tag == "a" || req.Tag == "b" {
			if !bar.arrive(req.Tag, 5*time.Second) {
				overlapped.Store(false)
			}
		}
	}}
	e.runner = e.newRunner(hp)
	e.create("d1", testLimits())

	s, err := e.runner.Run(context.Background(), "d1", threeTurns())
	if err != nil {
		t.Fatalf("Run: %v", err)
	}
	if !overlapped.Load() {
		t.Error("turns a and b did not run concurrently")
	}
	evs := e.events("d1")
	for i, ev := range evs {
		if ev.Seq != int64(i+1) {
			t.Fatalf("event %d has seq %d", i, ev.Seq)
		}
		if !ev.Time.Equal(t0) {
			t.Errorf("event %d (%s) time %v, want the runner's clock %v", ev.Seq, ev.Type, ev.Time, t0)
		}
	}
	// Order: both openings complete before c starts; verdict then completed last.
	cStart := index(evs, debate.TypeTurnStarted, "c")
	for _, id := range []string{"a", "b"} {
		if st, done := index(evs, debate.TypeTurnStarted, id), index(evs, debate.TypeTurnCompleted, id); st < 0 || done < st || done > cStart {
			t.Errorf("turn %s: started at %d, completed at %d, c started at %d\n%s", id, st, done, cStart, types(evs))
		}
	}
	n := len(evs)
	if evs[0].Type != debate.TypeCreated || evs[1].Type != debate.TypePhase || evs[n-2].Type != debate.TypeVerdict || evs[n-1].Type != debate.TypeCompleted {
		t.Errorf("unexpected event order:\n%s", types(evs))
	}
	phases := decodeAll[debate.PhaseChanged](t, evs)
	if len(phases) != 2 || phases[0].Label != "openings" || phases[1].Label != "closing" {
		t.Errorf("phases = %+v", phases)
	}

	// The returned state is the fold of the stored log.
	folded := e.fold("d1")
	if !reflect.DeepEqual(folded, s) {
		t.Errorf("returned state differs from the fold of the log:\n got %+v\nwant %+v", s, folded)
	}
	if s.Status != debate.StatusCompleted || s.LastSeq != int64(n) {
		t.Errorf("status %s, last seq %d", s.Status, s.LastSeq)
	}
	var v toyVerdict
	if err := json.Unmarshal(s.Verdict, &v); err != nil {
		t.Fatal(err)
	}
	want := []string{"a=alpha opens", "b=beta opens", "c=gamma closes"}
	if !slices.Equal(v.Turns, want) {
		t.Errorf("verdict turns = %q, want %q", v.Turns, want)
	}
	if got := s.Done[len(s.Done)-1]; got != "c" {
		t.Errorf("last completed turn %s, want c", got)
	}
	c := s.Turns["c"]
	if c.Model != "scripted/test-model" || c.Attempts != 1 || c.Usage.OutputTokens != 2 {
		t.Errorf("turn c = %+v", c)
	}
	var mv toyMove
	if err := json.Unmarshal(c.Move, &mv); err != nil || mv.Text != "gamma closes" {
		t.Errorf("move of c = %s (%v)", c.Move, err)
	}
	if s.Usage.OutputTokens != 6 {
		t.Errorf("debate usage %+v, want 6 output tokens", s.Usage)
	}

	// A completed debate is not run again.
	before := len(e.prov.Requests())
	if _, err := e.runner.Run(context.Background(), "d1", threeTurns()); err != nil {
		t.Fatal(err)
	}
	if len(e.prov.Requests()) != before || len(e.events("d1")) != n {
		t.Error("running a completed debate again made requests or appended events")
	}
}

func TestRetryRateLimitHonoursRetryAfter(t *testing.T) {
	e := newEnv(t,
		script.Rule{Tag: "a", Times: 1, Reply: &script.Reply{Fault: &script.Fault{Status: 429, RetryAfter: "7"}}},
		script.Rule{Tag: "a", Reply: text("alpha after the wait")},
		script.Rule{Tag: "b", Reply: text("beta")},
		script.Rule{Tag: "c", Reply: text("gamma")},
	)
	e.create("d", testLimits())
	s, err := e.runner.Run(context.Background(), "d", threeTurns())
	if err != nil {
		t.Fatal(err)
	}
	sleeps := e.clock.Sleeps()
	if len(sleeps) != 1 || sleeps[0] < 7*time.Second {
		t.Fatalf("slept %v, want one wait of at least the 7s Retry-After", sleeps)
	}
	a := s.Turns["a"]
	if len(a.Failures) != 1 || !a.Failures[0].Retryable || a.Failures[0].RetryIn < 7*time.Second || a.Attempts != 2 {
		t.Errorf("turn a: failures %+v, attempts %d", a.Failures, a.Attempts)
	}
	if a.Text != "alpha after the wait" || len(e.requests("a")) != 2 {
		t.Errorf("turn a text %q after %d requests", a.Text, len(e.requests("a")))
	}
}

func TestRetryServerErrorThenSuccess(t *testing.T) {
	e := newEnv(t,
		script.Rule{Tag: "c", Times: 2, Reply: &script.Reply{Fault: &script.Fault{Status: 500}}},
		script.Rule{Tag: "c", Reply: text("gamma at last")},
		script.Rule{Tag: "a", Reply: text("alpha")},
		script.Rule{Tag: "b", Reply: text("beta")},
	)
	e.create("d", testLimits())
	s, err := e.runner.Run(context.Background(), "d", threeTurns())
	if err != nil {
		t.Fatal(err)
	}
	c := s.Turns["c"]
	if c.Text != "gamma at last" || c.Attempts != 3 || len(c.Failures) != 2 {
		t.Errorf("turn c: text %q, attempts %d, failures %+v", c.Text, c.Attempts, c.Failures)
	}
	// Exponential backoff: the second wait is longer than the first (base
	// 100ms, multiplier 1.5, randomisation ±50%: 50-150ms then 75-225ms).
	sl := e.clock.Sleeps()
	if len(sl) != 2 || sl[0] < 50*time.Millisecond || sl[0] > 150*time.Millisecond || sl[1] < 75*time.Millisecond || sl[1] > 225*time.Millisecond {
		t.Errorf("backoff waits %v", sl)
	}
}

func TestRetryGivesUpAfterMaxAttempts(t *testing.T) {
	e := newEnv(t, script.Rule{Tag: "a", Reply: &script.Reply{Fault: &script.Fault{Status: 503}}})
	lim := testLimits()
	lim.MaxAttempts = 3
	e.create("d", lim)
	p := &toyProto{steps: []toyStep{turns(turn("a", "alpha", 1))}}
	_, err := e.runner.Run(context.Background(), "d", p)
	pe := pausedErr(t, err, debate.PauseError)
	if !strings.Contains(pe.Detail, "failed 3 times") || len(e.requests("a")) != 3 {
		t.Errorf("detail %q after %d requests", pe.Detail, len(e.requests("a")))
	}
	fails := decodeAll[debate.TurnFailed](t, e.events("d"))
	if len(fails) != 3 || fails[2].RetryIn != 0 || fails[0].RetryIn == 0 {
		t.Errorf("failures %+v: the last one must not announce a retry", fails)
	}
}

// A failure whose error bounds its tries (a server's invalid JSON, asked
// once more: llm.Error.Tries) is tried that many times, fewer than the
// limit, each try being a paid call.
func TestRetryStopsAtTheErrorsBound(t *testing.T) {
	e := newEnv(t, script.Rule{Tag: "a", Reply: &script.Reply{Text: "one two three", Fault: &script.Fault{Stream: "malformed", After: 1}}})
	lim := testLimits()
	lim.MaxAttempts = 4
	e.create("d", lim)
	p := &toyProto{steps: []toyStep{turns(turn("a", "alpha", 1))}}
	_, err := e.runner.Run(context.Background(), "d", p)
	pe := pausedErr(t, err, debate.PauseError)
	if !strings.Contains(pe.Detail, "failed 2 times") || len(e.requests("a")) != 2 {
		t.Errorf("detail %q after %d requests, want 2", pe.Detail, len(e.requests("a")))
	}
	fails := decodeAll[debate.TurnFailed](t, e.events("d"))
	if len(fails) != 2 || fails[1].RetryIn != 0 || fails[0].RetryIn == 0 {
		t.Errorf("failures %+v: the last one must not announce a retry", fails)
	}
}

func TestNonRetryableErrorPausesResumably(t *testing.T) {
	e := newEnv(t,
		script.Rule{Tag: "a", Reply: text("alpha")},
		script.Rule{Tag: "b", Reply: text("beta")},
		script.Rule{Tag: "c", Reply: &script.Reply{Fault: &script.Fault{Status: 401, Message: "invalid x-api-key"}}},
	)
	e.create("d", testLimits())
	_, err := e.runner.Run(context.Background(), "d", threeTurns())
	pe := pausedErr(t, err, debate.PauseError)
	if !strings.Contains(pe.Detail, "invalid x-api-key") || !strings.Contains(pe.Detail, "auth") {
		t.Errorf("detail %q does not say what failed", pe.Detail)
	}
	var le *llm.Error
	if !errors.As(err, &le) || le.Kind != llm.ErrAuth {
		t.Errorf("PausedError does not wrap the provider's auth error: %v", err)
	}
	if n := len(e.requests("c")); n != 1 {
		t.Errorf("a 401 was tried %d times, want once", n)
	}
	if len(e.clock.Sleeps()) != 0 {
		t.Errorf("slept %v before giving up on a non-retryable error", e.clock.Sleeps())
	}
	s := e.fold("d")
	if s.Status != debate.StatusPaused || s.Pauses[0].Reason != debate.PauseError {
		t.Fatalf("status %s, pauses %+v", s.Status, s.Pauses)
	}

	// The key is fixed: resume finishes the debate without redoing a or b.
	e.withScript(script.Rule{Tag: "c", Reply: text("gamma with a good key")})
	s, err = e.runner.Run(context.Background(), "d", threeTurns())
	if err != nil {
		t.Fatalf("resume: %v", err)
	}
	if s.Status != debate.StatusCompleted || s.Turns["c"].Text != "gamma with a good key" {
		t.Errorf("after resume: status %s, c %q", s.Status, s.Turns["c"].Text)
	}
	if got := len(e.prov.Requests()); got != 1 {
		t.Errorf("resume made %d requests, want 1 (only c)", got)
	}
}

func TestStreamCutKeepsPartialAndReruns(t *testing.T) {
	e := newEnv(t,
		script.Rule{Tag: "a", Times: 1, Reply: &script.Reply{Text: "one two three four five", Fault: &script.Fault{Stream: "cut", After: 3}}},
		script.Rule{Tag: "a", Reply: text("the whole answer")},
	)
	e.create("d", testLimits())
	p := &toyProto{steps: []toyStep{turns(turn("a", "alpha", 1))}}
	s, err := e.runner.Run(context.Background(), "d", p)
	if err != nil {
		t.Fatal(err)
	}
	a := s.Turns["a"]
	if a.Text != "the whole answer" {
		t.Errorf("final text %q", a.Text)
	}
	if !slices.Equal(a.Superseded, []string{"one two three "}) {
		t.Errorf("superseded %q, want the partial text of the cut attempt", a.Superseded)
	}
	if len(a.Failures) != 1 || !a.Failures[0].Retryable || a.Attempts != 2 {
		t.Errorf("failures %+v attempts %d", a.Failures, a.Attempts)
	}
	// The partial text is in the log, before the failure.
	evs := e.events("d")
	deltas := decodeAll[debate.TurnDelta](t, evs)
	if len(deltas) < 2 || deltas[0].Text != "one two three " {
		t.Errorf("deltas %+v", deltas)
	}
	var mv toyMove
	_ = json.Unmarshal(a.Move, &mv)
	if mv.Text != "the whole answer" {
		t.Errorf("move parsed from %q", mv.Text)
	}
}

func TestCallTimeoutRetries(t *testing.T) {
	e := newEnv(t,
		script.Rule{Tag: "a", Times: 1, Reply: &script.Reply{Text: "too late", Delay: script.Duration(time.Minute)}},
		script.Rule{Tag: "a", Reply: text("in time")},
	)
	lim := testLimits()
	lim.CallTimeout = 20 * time.Millisecond
	e.create("d", lim)
	p := &toyProto{steps: []toyStep{turns(turn("a", "alpha", 1))}}
	s, err := e.runner.Run(context.Background(), "d", p)
	if err != nil {
		t.Fatal(err)
	}
	a := s.Turns["a"]
	if a.Text != "in time" || len(a.Failures) != 1 {
		t.Fatalf("text %q failures %+v", a.Text, a.Failures)
	}
	if f := a.Failures[0]; !f.Retryable || !strings.Contains(f.Error, "timed out after 20ms") {
		t.Errorf("failure %+v", f)
	}
}

// strictParse accepts only replies that start with "OK".
func strictParse(t debate.TurnSpec, text string) (any, error) {
	if !strings.HasPrefix(text, "OK") {
		return nil, fmt.Errorf("%w: the reply must start with OK, got %q", debate.ErrRepairable, text)
	}
	return toyMove{Text: text}, nil
}

func TestRepairTurn(t *testing.T) {
	p := &toyProto{steps: []toyStep{turns(turn("a", "alpha", 1))}, parse: strictParse}
	t.Run("fixed", func(t *testing.T) {
		e := newEnv(t, script.Rule{Tag: "a", Replies: []script.Reply{{Text: "garbage"}, {Text: "OK fixed"}}})
		e.create("d", testLimits())
		s, err := e.runner.Run(context.Background(), "d", p)
		if err != nil {
			t.Fatal(err)
		}
		reqs := e.requests("a")
		if len(reqs) != 2 {
			t.Fatalf("%d requests, want 2", len(reqs))
		}
		msgs := reqs[1].Messages
		if len(msgs) != 3 || msgs[1].Role != llm.RoleAssistant || msgs[1].Text != "garbage" ||
			msgs[2].Role != llm.RoleUser || !strings.Contains(msgs[2].Text, `must start with OK, got "garbage"`) {
			t.Errorf("repair request messages = %+v", msgs)
		}
		a := s.Turns["a"]
		if a.Text != "OK fixed" || a.Invalid != "" || len(a.Repairs) != 1 || a.Repairs[0].Text != "garbage" {
			t.Errorf("turn a = text %q invalid %q repairs %+v", a.Text, a.Invalid, a.Repairs)
		}
		if a.Attempts != 1 {
			t.Errorf("a repair counted as a new attempt: %d", a.Attempts)
		}
	})
	t.Run("still invalid", func(t *testing.T) {
		e := newEnv(t, script.Rule{Tag: "a", Replies: []script.Reply{{Text: "garbage"}, {Text: "more garbage"}}})
		e.create("d", testLimits())
		s, err := e.runner.Run(context.Background(), "d", p)
		if err != nil {
			t.Fatal(err)
		}
		a := s.Turns["a"]
		if a.Status != debate.TurnDone || a.Text != "more garbage" || !strings.Contains(a.Invalid, "must start with OK") || a.Move != nil {
			t.Errorf("turn a = status %s text %q invalid %q move %s", a.Status, a.Text, a.Invalid, a.Move)
		}
		if n := len(e.requests("a")); n != 2 {
			t.Errorf("%d requests, want exactly one repair", n)
		}
	})
	t.Run("not repairable", func(t *testing.T) {
		e := newEnv(t, script.Rule{Tag: "a", Reply: text("anything")})
		e.create("d", testLimits())
		pp := *p
		pp.parse = func(debate.TurnSpec, string) (any, error) { return nil, errors.New("no move here") }
		s, err := e.runner.Run(context.Background(), "d", &pp)
		if err != nil {
			t.Fatal(err)
		}
		if a := s.Turns["a"]; a.Invalid != "no move here" || len(e.requests("a")) != 1 {
			t.Errorf("invalid %q after %d requests", a.Invalid, len(e.requests("a")))
		}
	})
	t.Run("parser panics", func(t *testing.T) {
		e := newEnv(t, script.Rule{Tag: "a", Reply: text("anything")})
		e.create("d", testLimits())
		pp := *p
		pp.parse = func(debate.TurnSpec, string) (any, error) { panic("boom") }
		s, err := e.runner.Run(context.Background(), "d", &pp)
		if err != nil {
			t.Fatal(err)
		}
		if a := s.Turns["a"]; !strings.Contains(a.Invalid, "panic: boom") {
			t.Errorf("invalid %q", a.Invalid)
		}
	})
}

func TestResumeAfterCancelMidStep(t *testing.T) {
	p := &toyProto{steps: []toyStep{
		turns(turn("a", "alpha", 1)),
		turns(turn("b", "beta", 1), turn("c", "gamma", 1)),
		turns(turn("d", "delta", 1)),
	}}
	e := newEnv(t,
		script.Rule{Tag: "a", Reply: text("alpha")},
		script.Rule{Tag: "b", Reply: text("beta starts a long answer that will be cut off here")},
		script.Rule{Tag: "c", Reply: text("gamma")},
	)
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	cDone := make(chan struct{})
	hp := &hookProvider{Provider: e.prov,
		before: func(_ context.Context, req llm.Request) {
			if req.Tag == "b" {
				<-cDone // c finishes first, so the step is half done
			}
		},
		onChunk: func(req llm.Request, i int, _ llm.Chunk) {
			if req.Tag == "b" && i == 2 {
				cancel() // Ctrl+C three words into b
			}
		},
		after: func(req llm.Request) {
			if req.Tag == "c" {
				close(cDone)
			}
		},
	}
	e.runner = e.newRunner(hp)
	e.create("d", testLimits())
	_, err := e.runner.Run(ctx, "d", p)
	pausedErr(t, err, debate.PauseInterrupted)
	if !errors.Is(err, context.Canceled) {
		t.Errorf("the pause does not wrap the cancellation: %v", err)
	}
	s := e.fold("d")
	if s.Status != debate.StatusPaused || s.Completed("c") == nil || s.Completed("b") != nil {
		t.Fatalf("after cancel: status %s, turns %v\n%s", s.Status, s.Done, types(e.events("d")))
	}
	if b := s.Turns["b"]; b.Status != debate.TurnRunning || b.Text != "beta starts a " {
		t.Fatalf("turn b: status %s, partial %q", b.Status, b.Text)
	}

	// A new process resumes with a fresh Runner on the same store.
	e.withScript(
		script.Rule{Tag: "b", Reply: text("beta, from the start")},
		script.Rule{Tag: "d", Reply: text("delta")},
	)
	s, err = e.runner.Run(context.Background(), "d", p)
	if err != nil {
		t.Fatalf("resume: %v", err)
	}
	for tag, want := range map[string]int{"a": 0, "b": 1, "c": 0, "d": 1} {
		if got := len(e.requests(tag)); got != want {
			t.Errorf("resume requested %s %d times, want %d", tag, got, want)
		}
	}
	b := s.Turns["b"]
	if b.Text != "beta, from the start" || !slices.Equal(b.Superseded, []string{"beta starts a "}) {
		t.Errorf("turn b: text %q superseded %q", b.Text, b.Superseded)
	}
	evs := e.events("d")
	sup := decodeAll[debate.TurnSuperseded](t, evs)
	if len(sup) != 1 || sup[0].Turn != "b" || sup[0].Partial != "beta starts a " {
		t.Errorf("superseded events %+v", sup)
	}
	if res := decodeAll[debate.Resumed](t, evs); len(res) != 1 {
		t.Errorf("resumed events %+v", res)
	}
	if s.Status != debate.StatusCompleted {
		t.Errorf("status %s", s.Status)
	}
}

func TestResumeAfterSiblingFailsForGood(t *testing.T) {
	e := newEnv(t,
		script.Rule{Tag: "a", Reply: &script.Reply{Text: "alpha never arrives", Delay: script.Duration(time.Minute)}},
		script.Rule{Tag: "b", Reply: &script.Reply{Fault: &script.Fault{Status: 400, Message: "model not found"}}},
	)
	aStarted := make(chan struct{})
	e.runner = e.newRunner(&hookProvider{Provider: e.prov, before: func(_ context.Context, req llm.Request) {
		switch req.Tag {
		case "a":
			close(aStarted)
		case "b":
			<-aStarted // b fails while a is in flight
		}
	}})
	e.create("d", testLimits())
	_, err := e.runner.Run(context.Background(), "d", threeTurns())
	pausedErr(t, err, debate.PauseError)
	s := e.fold("d")
	// The pause reports the failure, not the sibling's cancellation.
	if p := s.Pauses[len(s.Pauses)-1]; !strings.Contains(p.Detail, "model not found") || strings.HasPrefix(p.Detail, "context canceled") {
		t.Errorf("pause detail %q: want the failing turn's cause first", p.Detail)
	}
	if a := s.Turns["a"]; a == nil || a.Status != debate.TurnRunning {
		t.Fatalf("sibling a should be cut off while running: %+v", a)
	}
	e.withScript(threeReplies()...)
	s, err = e.runner.Run(context.Background(), "d", threeTurns())
	if err != nil {
		t.Fatal(err)
	}
	if s.Status != debate.StatusCompleted || s.Turns["a"].Text != "alpha opens" || s.Turns["b"].Text != "beta opens" {
		t.Errorf("status %s, turns %+v", s.Status, s.Done)
	}
}

func TestTurnBudget(t *testing.T) {
	usage := func(out int) *llm.Usage { return &llm.Usage{InputTokens: 5, OutputTokens: out} }
	p := &toyProto{steps: []toyStep{
		turns(turn("a1", "alpha", 1)),
		turns(turn("a2", "alpha", 1)),
		turns(turn("a3", "alpha", 1)),
		turns(turn("b1", "alpha", 2)),
	}}
	e := newEnv(t,
		script.Rule{Tag: "a1", Reply: &script.Reply{Text: "eight", Usage: usage(8)}},
		script.Rule{Tag: "a2", Reply: &script.Reply{Text: "two", Usage: usage(2)}},
		script.Rule{Tag: "a3", Reply: &script.Reply{Text: "three", Usage: usage(3)}},
		script.Rule{Tag: "b1", Reply: &script.Reply{Text: "next round", Usage: usage(3)}},
	)
	lim := testLimits()
	lim.TurnBudget = 10
	e.create("d", lim)
	_, err := e.runner.Run(context.Background(), "d", p)
	pe := pausedErr(t, err, debate.PauseBudget)
	if !strings.Contains(pe.Detail, "alpha") || !strings.Contains(pe.Detail, "--turn-budget") {
		t.Errorf("detail %q", pe.Detail)
	}
	if r := e.requests("a1"); r[0].MaxTokens != 10 {
		t.Errorf("a1 MaxTokens %d, want the whole budget 10", r[0].MaxTokens)
	}
	if r := e.requests("a2"); r[0].MaxTokens != 2 {
		t.Errorf("a2 MaxTokens %d, want the 2 tokens left", r[0].MaxTokens)
	}
	if len(e.requests("a3")) != 0 {
		t.Error("a3 was requested with an exhausted budget")
	}
	warns := decodeAll[debate.BudgetWarning](t, e.events("d"))
	if len(warns) != 1 || warns[0] != (debate.BudgetWarning{Scope: "round 1 / alpha", Used: 8, Budget: 10, Turn: "a1"}) {
		t.Errorf("warnings %+v, want one at 80%%, of turn a1", warns)
	}
	// Logged before the turn's completion, while the views still show
	// the turn: after it, the next turn's heading was up.
	var order []string
	for _, ev := range e.events("d") {
		if ev.Type == debate.TypeBudgetWarning || ev.Type == debate.TypeTurnCompleted {
			order = append(order, ev.Type)
		}
	}
	if len(order) < 2 || order[0] != debate.TypeBudgetWarning || order[1] != debate.TypeTurnCompleted {
		t.Errorf("events %v: want the warning before a1's completion", order)
	}

	// Resume with a larger budget.
	bigger := lim
	bigger.TurnBudget = 100
	e.withScript(
		script.Rule{Tag: "a3", Reply: &script.Reply{Text: "three", Usage: usage(3)}},
		script.Rule{Tag: "b1", Reply: &script.Reply{Text: "next round", Usage: usage(3)}},
	)
	e.runner.Limits = &bigger
	s, err := e.runner.Run(context.Background(), "d", p)
	if err != nil {
		t.Fatalf("resume with a larger budget: %v", err)
	}
	if r := e.requests("a3"); r[0].MaxTokens != 90 {
		t.Errorf("a3 MaxTokens %d, want 90 left of 100", r[0].MaxTokens)
	}
	if r := e.requests("b1"); r[0].MaxTokens != 100 {
		t.Errorf("round 2 MaxTokens %d, want a fresh 100", r[0].MaxTokens)
	}
	if s.Status != debate.StatusCompleted {
		t.Errorf("status %s", s.Status)
	}
}

func TestTurnBudgetKeepsSmallerMaxTokens(t *testing.T) {
	e := newEnv(t, script.Rule{Tag: "a", Reply: text("x")})
	lim := testLimits()
	lim.TurnBudget = 1000
	e.create("d", lim)
	ta := turn("a", "alpha", 1)
	ta.MaxTokens = 300
	tm := turn("m", "moderator", 1)
	tm.Unbudgeted = true
	e.withScript(script.Rule{Tag: "a", Reply: text("x")}, script.Rule{Tag: "m", Reply: text("y")})
	if _, err := e.runner.Run(context.Background(), "d", &toyProto{steps: []toyStep{turns(ta), turns(tm)}}); err != nil {
		t.Fatal(err)
	}
	if got := e.requests("a")[0].MaxTokens; got != 300 {
		t.Errorf("MaxTokens %d, want the turn's own 300", got)
	}
	if got := e.requests("m")[0].MaxTokens; got != 0 {
		t.Errorf("unbudgeted turn got MaxTokens %d", got)
	}
}

func TestDebateBudget(t *testing.T) {
	p := &toyProto{steps: []toyStep{turns(turn("a", "alpha", 1)), turns(turn("b", "beta", 1))}}
	e := newEnv(t,
		script.Rule{Tag: "a", Reply: &script.Reply{Text: "costly", Usage: &llm.Usage{InputTokens: 40, OutputTokens: 20}}},
		script.Rule{Tag: "b", Reply: text("beta")},
	)
	lim := testLimits()
	lim.DebateBudget = 50
	e.create("d", lim)
	_, err := e.runner.Run(context.Background(), "d", p)
	pe := pausedErr(t, err, debate.PauseBudget)
	if !strings.Contains(pe.Detail, "60 of its 50") {
		t.Errorf("detail %q", pe.Detail)
	}
	if len(e.requests("b")) != 0 {
		t.Error("the next step ran over the debate budget")
	}
	warns := decodeAll[debate.BudgetWarning](t, e.events("d"))
	if len(warns) != 1 || warns[0].Scope != "debate" || warns[0].Used != 60 {
		t.Errorf("warnings %+v", warns)
	}
	lim.DebateBudget = 0
	e.withScript(script.Rule{Tag: "b", Reply: text("beta")})
	e.runner.Limits = &lim
	s, err := e.runner.Run(context.Background(), "d", p)
	if err != nil || s.Status != debate.StatusCompleted {
		t.Fatalf("resume with an unlimited budget: %v (%s)", err, s.Status)
	}
}

func checkpointProto() *toyProto {
	return &toyProto{steps: []toyStep{
		turns(turn("a", "alpha", 1)),
		{checkpoint: &debate.CheckpointReached{ID: "r1", Round: 1, Summary: "round 1 done", Options: []string{"continue", "guide", "end"}}},
		turns(turn("b", "beta", 2)),
	}}
}

func TestCheckpoint(t *testing.T) {
	rules := []script.Rule{{Tag: "a", Reply: text("alpha")}, {Tag: "b", Reply: text("beta")}}
	t.Run("no human pauses, resume answers", func(t *testing.T) {
		e := newEnv(t, rules...)
		e.create("d", testLimits())
		_, err := e.runner.Run(context.Background(), "d", checkpointProto())
		// Unanswered, not timed out: no timeout passed.
		pausedErr(t, err, debate.PauseCheckpointUnanswered)
		s := e.fold("d")
		if s.Status != debate.StatusPaused || len(s.Checkpoints) != 1 || s.Checkpoints[0].Answer != nil {
			t.Fatalf("status %s checkpoints %+v", s.Status, s.Checkpoints)
		}
		e.withScript(rules...)
		var seen debate.CheckpointReached
		e.runner.Human = humanFunc(func(ctx context.Context, live *debate.State, c debate.CheckpointReached) (debate.CheckpointAnswered, error) {
			seen = c
			// Resumed at the open checkpoint, the debate stands there
			// while it waits, in every view of it.
			sums, err := e.store.List(ctx, debate.ListFilter{})
			if err != nil || len(sums) != 1 {
				t.Fatalf("list: %v %v", sums, err)
			}
			if st := e.fold("d").Status; live.Status != debate.StatusCheckpoint || st != debate.StatusCheckpoint || sums[0].Status != debate.StatusCheckpoint {
				t.Errorf("waiting for the answer after a resume: status %s (live), %s (folded), %s (summary), want checkpoint", live.Status, st, sums[0].Status)
			}
			return debate.CheckpointAnswered{Action: debate.ActionGuide, Guidance: "be concrete"}, nil
		})
		s, err = e.runner.Run(context.Background(), "d", checkpointProto())
		if err != nil {
			t.Fatal(err)
		}
		if seen.ID != "r1" || seen.Summary != "round 1 done" {
			t.Errorf("human was asked %+v", seen)
		}
		if reached := decodeAll[debate.CheckpointReached](t, e.events("d")); len(reached) != 1 {
			t.Errorf("checkpoint reached %d times in the log, want once", len(reached))
		}
		if !slices.Equal(s.Guidance(), []string{"be concrete"}) || s.Status != debate.StatusCompleted || len(e.requests("a")) != 0 {
			t.Errorf("guidance %q, status %s", s.Guidance(), s.Status)
		}
	})
	t.Run("human never answers", func(t *testing.T) {
		e := newEnv(t, rules...)
		lim := testLimits()
		lim.CheckpointTimeout = 20 * time.Millisecond
		e.create("d", lim)
		e.runner.Human = humanFunc(func(ctx context.Context, _ *debate.State, _ debate.CheckpointReached) (debate.CheckpointAnswered, error) {
			<-ctx.Done()
			return debate.CheckpointAnswered{}, ctx.Err()
		})
		_, err := e.runner.Run(context.Background(), "d", checkpointProto())
		pe := pausedErr(t, err, debate.PauseCheckpoint)
		if !strings.Contains(pe.Detail, "no answer within 20ms") {
			t.Errorf("detail %q", pe.Detail)
		}
		if s := e.fold("d"); s.Status != debate.StatusPaused || len(e.requests("b")) != 0 {
			t.Errorf("status %s", s.Status)
		}
	})
	for _, ans := range []debate.CheckpointAnswered{
		{Action: debate.ActionContinue},
		{Action: debate.ActionGuide, Guidance: "focus on cost"},
		{Action: debate.ActionEnd},
	} {
		t.Run("answer "+ans.Action, func(t *testing.T) {
			e := newEnv(t, rules...)
			e.create("d", testLimits())
			e.runner.Human = humanFunc(func(context.Context, *debate.State, debate.CheckpointReached) (debate.CheckpointAnswered, error) {
				return ans, nil
			})
			s, err := e.runner.Run(context.Background(), "d", checkpointProto())
			if err != nil {
				t.Fatal(err)
			}
			got := decodeAll[debate.CheckpointAnswered](t, e.events("d"))
			want := ans
			want.ID = "r1"
			if len(got) != 1 || got[0] != want {
				t.Errorf("answers %+v, want %+v", got, want)
			}
			ranB := len(e.requests("b")) == 1
			if ranB == (ans.Action == debate.ActionEnd) {
				t.Errorf("answer %s: turn b ran = %v", ans.Action, ranB)
			}
			if s.Status != debate.StatusCompleted {
				t.Errorf("status %s", s.Status)
			}
		})
	}
	t.Run("answer not read", func(t *testing.T) {
		// A terminal whose standard input ended cannot answer: the pause
		// says the checkpoint went unanswered and why, not that a timeout
		// passed.
		e := newEnv(t, rules...)
		e.create("d", testLimits())
		e.runner.Human = humanFunc(func(context.Context, *debate.State, debate.CheckpointReached) (debate.CheckpointAnswered, error) {
			return debate.CheckpointAnswered{}, errors.New("no answer: standard input ended")
		})
		_, err := e.runner.Run(context.Background(), "d", checkpointProto())
		pe := pausedErr(t, err, debate.PauseCheckpointUnanswered)
		if pe.Detail != "no answer: standard input ended" || !strings.Contains(err.Error(), "debate paused (checkpoint unanswered): no answer: standard input ended") {
			t.Errorf("detail %q, error %q", pe.Detail, err)
		}
	})
	t.Run("bad answer", func(t *testing.T) {
		e := newEnv(t, rules...)
		e.create("d", testLimits())
		e.runner.Human = humanFunc(func(context.Context, *debate.State, debate.CheckpointReached) (debate.CheckpointAnswered, error) {
			return debate.CheckpointAnswered{Action: "maybe"}, nil
		})
		_, err := e.runner.Run(context.Background(), "d", checkpointProto())
		if err == nil || !strings.Contains(err.Error(), `"maybe"`) {
			t.Errorf("err = %v", err)
		}
	})
}

// echoTool is a tiny tool that counts its calls.
type echoTool struct{ calls atomic.Int32 }

func (t *echoTool) Spec() llm.ToolSpec {
	return llm.ToolSpec{Name: "echo", Description: "echoes x", Schema: json.RawMessage(`{"type":"object"}`)}
}

func (t *echoTool) Call(_ context.Context, args json.RawMessage) (string, error) {
	t.calls.Add(1)
	var a struct {
		X int `json:"x"`
	}
	if err := json.Unmarshal(args, &a); err != nil || a.X == 0 {
		return "", fmt.Errorf("%w: want {\"x\": n}", tool.ErrBadArgs)
	}
	return fmt.Sprintf("echo %d", a.X), nil
}

func toolTurn(id, agent string) debate.TurnSpec {
	t := turn(id, agent, 1)
	t.UseTools = true
	return t
}

func TestToolLoop(t *testing.T) {
	call := func(id string, x int) script.ToolCall {
		return script.ToolCall{ID: id, Name: "echo", Args: json.RawMessage(fmt.Sprintf(`{"x":%d}`, x))}
	}
	e := newEnv(t,
		// A reply with tool calls and text: the text answers the call that
		// carries the tool results.
		script.Rule{Tag: "t1", Reply: &script.Reply{Text: "The answer is echo 1.", ToolCalls: []script.ToolCall{call("c1", 1)}}},
		script.Rule{Tag: "t2", Replies: []script.Reply{
			{ToolCalls: []script.ToolCall{call("c2", 2), call("c3", 3), {ID: "c4", Name: "echo", Args: json.RawMessage(`{"y":1}`)}}},
			{Text: "Done with what I have."},
		}},
		script.Rule{Tag: "t3", Reply: text("no tools left")},
	)
	et := &echoTool{}
	reg, err := tool.NewRegistry(et)
	if err != nil {
		t.Fatal(err)
	}
	e.runner.Tools = reg
	lim := testLimits()
	lim.MaxToolCalls = 3
	e.create("d", lim)
	p := &toyProto{steps: []toyStep{turns(toolTurn("t1", "alpha")), turns(toolTurn("t2", "alpha")), turns(toolTurn("t3", "alpha"))}}
	s, err := e.runner.Run(context.Background(), "d", p)
	if err != nil {
		t.Fatal(err)
	}

	// t1: one call, executed, its result sent back.
	r1 := e.requests("t1")
	if len(r1) != 2 || len(r1[0].Tools) != 1 || r1[0].Tools[0].Name != "echo" {
		t.Fatalf("t1 requests %+v", r1)
	}
	m := r1[1].Messages
	if len(m) != 3 || m[1].Role != llm.RoleAssistant || len(m[1].ToolCalls) != 1 || m[1].ToolCalls[0].ID != "c1" ||
		len(m[2].ToolResults) != 1 || m[2].ToolResults[0] != (llm.ToolResult{CallID: "c1", Content: "echo 1"}) {
		t.Errorf("second t1 request messages %+v", m)
	}
	t1 := s.Turns["t1"]
	if len(t1.Tools) != 1 || t1.Tools[0].Result == nil || t1.Tools[0].Result.Content != "echo 1" {
		t.Errorf("t1 tools %+v", t1.Tools)
	}
	if t1.Text != "The answer is echo 1." {
		t.Errorf("t1 text %q", t1.Text)
	}

	// t2: 2 calls left of 3; the third is refused without calling the tool,
	// and a bad-args error goes back to the model.
	if n := et.calls.Load(); n != 3 {
		t.Errorf("tool ran %d times, want 3 (the limit)", n)
	}
	t2 := s.Turns["t2"]
	if len(t2.Tools) != 3 {
		t.Fatalf("t2 tools %+v", t2.Tools)
	}
	if r := t2.Tools[2].Result; r == nil || !r.IsError || !strings.Contains(r.Content, "tool call limit") {
		t.Errorf("third call result %+v, want refused by the limit", r)
	}
	r2 := e.requests("t2")
	if len(r2) != 2 || r2[1].Tools != nil {
		t.Errorf("after the limit the model is still offered tools: %+v", r2[len(r2)-1].Tools)
	}
	// t3: the agent's calls are used up, so no tools are offered.
	if r3 := e.requests("t3"); len(r3) != 1 || r3[0].Tools != nil {
		t.Errorf("t3 offered tools %+v", r3[0].Tools)
	}
	evs := e.events("d")
	called := decodeAll[debate.ToolCalled](t, evs)
	results := decodeAll[debate.ToolResult](t, evs)
	if len(called) != 4 || len(results) != 4 {
		t.Errorf("%d tool.called and %d tool.result events, want 4 each", len(called), len(results))
	}
	for i := range called {
		if results[i].CallID != called[i].Call.ID {
			t.Errorf("result %d answers %s, not %s", i, results[i].CallID, called[i].Call.ID)
		}
	}
}

func TestToolBadArgsReturnedToModel(t *testing.T) {
	e := newEnv(t, script.Rule{Tag: "t", Replies: []script.Reply{
		{ToolCalls: []script.ToolCall{{ID: "c1", Name: "echo", Args: json.RawMessage(`{"y":1}`)}}},
		{ToolCalls: []script.ToolCall{{ID: "c2", Name: "nope"}}},
		{Text: "ok"},
	}})
	reg, _ := tool.NewRegistry(&echoTool{})
	e.runner.Tools = reg
	e.create("d", testLimits())
	s, err := e.runner.Run(context.Background(), "d", &toyProto{steps: []toyStep{turns(toolTurn("t", "alpha"))}})
	if err != nil {
		t.Fatal(err)
	}
	tt := s.Turns["t"]
	if len(tt.Tools) != 2 || !tt.Tools[0].Result.IsError || !strings.Contains(tt.Tools[1].Result.Content, `unknown tool "nope"`) {
		t.Errorf("tools %+v", tt.Tools)
	}
	if tt.Text != "ok" {
		t.Errorf("text %q", tt.Text)
	}
}

func TestCancellationPauses(t *testing.T) {
	e := newEnv(t, script.Rule{Tag: "a", Reply: &script.Reply{Text: "slow", Delay: script.Duration(time.Minute)}})
	ctx, cancel := context.WithCancel(context.Background())
	e.runner = e.newRunner(&hookProvider{Provider: e.prov, before: func(context.Context, llm.Request) { cancel() }})
	e.create("d", testLimits())
	_, err := e.runner.Run(ctx, "d", &toyProto{steps: []toyStep{turns(turn("a", "alpha", 1))}})
	pausedErr(t, err, debate.PauseInterrupted)
	evs := e.events("d")
	if evs[len(evs)-1].Type != debate.TypePaused {
		t.Fatalf("last event %s, want debate.paused\n%s", evs[len(evs)-1].Type, types(evs))
	}
	if len(decodeAll[debate.TurnFailed](t, evs)) != 0 {
		t.Error("a cancelled attempt was recorded as failed")
	}
	sum, err := e.store.Get(context.Background(), "d")
	if err != nil || sum.Status != debate.StatusPaused {
		t.Errorf("summary status %s (%v)", sum.Status, err)
	}
}

// The round timeout is measured with the Runner's clock: a clock frozen in
// the past must not expire every round at once.
func TestRoundTimeoutWithInjectedClock(t *testing.T) {
	e := newEnv(t, threeReplies()...)
	lim := testLimits()
	lim.RoundTimeout = time.Minute
	e.create("d", lim)
	s, err := e.runner.Run(context.Background(), "d", threeTurns())
	if err != nil {
		t.Fatalf("Run: %v", err)
	}
	if s.Status != debate.StatusCompleted {
		t.Errorf("status %s", s.Status)
	}
}

// Turns outside any round (Round 0: a moderator's opening analysis and final
// synthesis) do not share one round clock: the synthesis must not inherit the
// time the analysis started.
func TestRoundTimeoutRoundZeroStepsAreTimedApart(t *testing.T) {
	e := newEnv(t,
		script.Rule{Tag: "analysis", Reply: &script.Reply{Text: "analysed", Delay: script.Duration(120 * time.Millisecond)}},
		script.Rule{Tag: "synthesis", Reply: &script.Reply{Text: "synthesised", Delay: script.Duration(120 * time.Millisecond)}},
	)
	e.runner.Now, e.runner.Sleep = nil, nil // real clock: the timeout is real
	lim := testLimits()
	lim.RoundTimeout = 200 * time.Millisecond
	e.create("d", lim)
	p := &toyProto{steps: []toyStep{turns(turn("analysis", "moderator", 0)), turns(turn("synthesis", "moderator", 0))}}
	s, err := e.runner.Run(context.Background(), "d", p)
	if err != nil {
		t.Fatalf("Run: %v", err)
	}
	if s.Status != debate.StatusCompleted {
		t.Errorf("status %s", s.Status)
	}
}

func TestRoundTimeoutPauses(t *testing.T) {
	e := newEnv(t, script.Rule{Tag: "a", Reply: &script.Reply{Text: "slow", Delay: script.Duration(time.Minute)}})
	e.runner.Now, e.runner.Sleep = nil, nil
	lim := testLimits()
	lim.RoundTimeout = 30 * time.Millisecond
	e.create("d", lim)
	_, err := e.runner.Run(context.Background(), "d", &toyProto{steps: []toyStep{turns(turn("a", "alpha", 1))}})
	pe := pausedErr(t, err, debate.PauseRoundTimeout)
	if !strings.Contains(pe.Detail, "round 1") {
		t.Errorf("detail %q", pe.Detail)
	}
}

// A step outside the rounds that times out is named by its phase: it was
// "round 0 ran longer than …", a round the user never saw.
func TestRoundTimeoutNamesAStepOutsideTheRounds(t *testing.T) {
	e := newEnv(t, script.Rule{Tag: "a", Reply: &script.Reply{Text: "slow", Delay: script.Duration(time.Minute)}})
	e.runner.Now, e.runner.Sleep = nil, nil
	lim := testLimits()
	lim.RoundTimeout = 30 * time.Millisecond
	e.create("d", lim)
	analysis := turn("a", "moderator", 0)
	analysis.Phase = "analysis"
	_, err := e.runner.Run(context.Background(), "d", &toyProto{steps: []toyStep{turns(analysis)}})
	pe := pausedErr(t, err, debate.PauseRoundTimeout)
	if !strings.HasPrefix(pe.Detail, "the analysis step ran longer than 30ms") {
		t.Errorf("detail %q", pe.Detail)
	}
}

func TestConcurrencyLimit(t *testing.T) {
	e := newEnv(t, script.Rule{TagPrefix: "t", Reply: &script.Reply{Text: "x", Delay: script.Duration(5 * time.Millisecond)}})
	var inFlight, peak atomic.Int32
	var mu sync.Mutex
	e.runner = e.newRunner(&hookProvider{Provider: e.prov,
		before: func(context.Context, llm.Request) {
			n := inFlight.Add(1)
			mu.Lock()
			peak.Store(max(peak.Load(), n))
			mu.Unlock()
		},
		after: func(llm.Request) { inFlight.Add(-1) },
	})
	lim := testLimits()
	lim.Concurrency = 2
	e.create("d", lim)
	var ts []debate.TurnSpec
	for i := range 6 {
		ts = append(ts, turn(fmt.Sprintf("t%d", i), fmt.Sprintf("agent%d", i), 1))
	}
	if _, err := e.runner.Run(context.Background(), "d", &toyProto{steps: []toyStep{turns(ts...)}}); err != nil {
		t.Fatal(err)
	}
	if p := peak.Load(); p > 2 {
		t.Errorf("%d turns ran at once, limit 2", p)
	}
}

type responderFunc func(ctx context.Context, s *debate.State, t debate.TurnSpec) (string, error)

func (f responderFunc) Respond(ctx context.Context, s *debate.State, t debate.TurnSpec) (string, error) {
	return f(ctx, s, t)
}

func TestResponderTurnIsMarkedNoLLM(t *testing.T) {
	e := newEnv(t, script.Rule{Tag: "a", Reply: text("alpha")})
	e.runner.Cast.Responders = map[string]debate.Responder{"data": responderFunc(func(_ context.Context, s *debate.State, _ debate.TurnSpec) (string, error) {
		return "from data: " + s.Turns["a"].Text, nil
	})}
	e.create("d", testLimits())
	p := &toyProto{steps: []toyStep{turns(turn("a", "alpha", 1)), turns(turn("x", "data", 1))}}
	s, err := e.runner.Run(context.Background(), "d", p)
	if err != nil {
		t.Fatal(err)
	}
	x := s.Turns["x"]
	if !x.NoLLM || x.Text != "from data: alpha" || x.Model != "data-only" || len(e.requests("x")) != 0 {
		t.Errorf("turn x = %+v", x)
	}
}

func TestNoModelFails(t *testing.T) {
	e := newEnv(t, script.Rule{Tag: "a", Reply: text("a")})
	e.runner.Cast = debate.Cast{}
	e.create("d", testLimits())
	_, err := e.runner.Run(context.Background(), "d", &toyProto{steps: []toyStep{turns(turn("a", "alpha", 1))}})
	if !errors.Is(err, debate.ErrNoModel) {
		t.Errorf("err = %v, want ErrNoModel", err)
	}
}

func TestHintsRecordedAsApplied(t *testing.T) {
	e := newEnv(t, script.Rule{Tag: "a", Reply: text("alpha")})
	e.create("d", testLimits())
	if err := appendPayloads(e, "d", debate.HintQueued{ID: 1, Target: "alpha", Text: "mention cost"}); err != nil {
		t.Fatal(err)
	}
	ta := turn("a", "alpha", 1)
	ta.Hints = []int{1}
	s, err := e.runner.Run(context.Background(), "d", &toyProto{steps: []toyStep{turns(ta)}})
	if err != nil {
		t.Fatal(err)
	}
	if s.Hints[0].Applied != "a" || len(s.PendingHints("alpha")) != 0 {
		t.Errorf("hints %+v", s.Hints)
	}
}

func appendPayloads(e *env, id string, ps ...debate.Payload) error {
	for _, p := range ps {
		ev, err := debate.NewEvent(id, t0, p)
		if err != nil {
			return err
		}
		if _, err := e.store.Append(context.Background(), id, ev); err != nil {
			return err
		}
	}
	return nil
}

// stepsProto returns the steps of a function of the state.
type stepsProto func(s *debate.State) debate.Step

func (f stepsProto) Next(s *debate.State) (debate.Step, error) { return f(s), nil }
func (f stepsProto) Parse(*debate.State, debate.TurnSpec, string) (any, error) {
	return nil, nil
}

func TestEmitOnlySteps(t *testing.T) {
	note := debate.Note{Kind: "toy.flag", Text: "flagged"}
	t.Run("recorded, then the protocol moves on", func(t *testing.T) {
		e := newEnv(t, script.Rule{Tag: "a", Reply: text("alpha")})
		e.create("d", testLimits())
		p := stepsProto(func(s *debate.State) debate.Step {
			switch {
			case len(s.Notes) == 0:
				return debate.Step{Emit: []debate.Payload{note}}
			case s.Completed("a") == nil:
				return debate.Step{Turns: []debate.TurnSpec{turn("a", "alpha", 1)}}
			}
			return debate.Step{Done: true, Verdict: "ok"}
		})
		s, err := e.runner.Run(context.Background(), "d", p)
		if err != nil {
			t.Fatal(err)
		}
		if len(s.Notes) != 1 || s.Status != debate.StatusCompleted {
			t.Errorf("notes %+v status %s", s.Notes, s.Status)
		}
	})
	t.Run("a protocol that only emits fails", func(t *testing.T) {
		e := newEnv(t, script.Rule{Tag: "a", Reply: text("alpha")})
		e.create("d", testLimits())
		p := stepsProto(func(*debate.State) debate.Step { return debate.Step{Emit: []debate.Payload{note}} })
		_, err := e.runner.Run(context.Background(), "d", p)
		if err == nil || !strings.Contains(err.Error(), "only emit events") {
			t.Fatalf("err = %v", err)
		}
		if s := e.fold("d"); s.Status != debate.StatusFailed {
			t.Errorf("status %s", s.Status)
		}
	})
	t.Run("an empty step fails", func(t *testing.T) {
		e := newEnv(t, script.Rule{Tag: "a", Reply: text("alpha")})
		e.create("d", testLimits())
		_, err := e.runner.Run(context.Background(), "d", stepsProto(func(*debate.State) debate.Step { return debate.Step{} }))
		if err == nil || !strings.Contains(err.Error(), "empty step") {
			t.Fatalf("err = %v", err)
		}
	})
}

// With DataPace a data-only reply streams line by line, DataPace apart; cut
// off between two lines, the debate pauses with the partial text, and the
// resumed run writes the whole reply again from its start.
func TestDataPaceStreamsDataOnlyRepliesLineByLine(t *testing.T) {
	const reply = "one\ntwo\nthree\n"
	e := newEnv(t, script.Rule{Tag: "unused", Reply: text("no model turn here")})
	e.create("d", testLimits())
	data := responderFunc(func(context.Context, *debate.State, debate.TurnSpec) (string, error) { return reply, nil })
	p := &toyProto{steps: []toyStep{turns(turn("x", "data", 1))}}

	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	e.runner.Cast.Responders = map[string]debate.Responder{"data": data}
	e.runner.DataPace = 40 * time.Millisecond
	sleeps := 0
	e.runner.Sleep = func(ctx context.Context, d time.Duration) error {
		if sleeps++; sleeps == 2 {
			cancel() // Ctrl+C while the second line is shown
		}
		return e.clock.Sleep(ctx, d)
	}
	_, err := e.runner.Run(ctx, "d", p)
	var pe *debate.PausedError
	if !errors.As(err, &pe) || pe.Reason != debate.PauseInterrupted {
		t.Fatalf("run: %v, want a pause on the interruption", err)
	}
	deltas := decodeAll[debate.TurnDelta](t, e.events("d"))
	if len(deltas) != 2 || deltas[0].Text != "one\n" || deltas[1].Text != "two\n" {
		t.Errorf("deltas before Ctrl+C: %+v, want the first two lines, one each", deltas)
	}
	if got := e.clock.Sleeps(); len(got) != 2 || got[0] != 40*time.Millisecond {
		t.Errorf("sleeps %v, want 40ms between lines", got)
	}

	r := e.newRunner(e.prov)
	r.Cast.Responders = map[string]debate.Responder{"data": data}
	s, err := r.Run(context.Background(), "d", p)
	if err != nil {
		t.Fatal(err)
	}
	if x := s.Turns["x"]; x.Text != reply || len(x.Superseded) != 1 || x.Superseded[0] != "one\ntwo\n" {
		t.Errorf("resumed turn: text %q, superseded %q", x.Text, x.Superseded)
	}
	if all := decodeAll[debate.TurnDelta](t, e.events("d")); len(all) != 3 {
		t.Errorf("without DataPace the reply is one delta; got %d deltas in all, want 2 + 1", len(all))
	}
}

// TestRepairProblemIsBounded: a parse error that quotes a huge reply is cut
// before it is recorded (the repair, the turn's Invalid) and sent back in
// the repair prompt: the reply is model output, up to MaxReplyBytes, and
// was repeated whole in each.
func TestRepairProblemIsBounded(t *testing.T) {
	huge := strings.Repeat("garbage ", 64<<10)
	p := &toyProto{steps: []toyStep{turns(turn("a", "alpha", 1))}, parse: strictParse}
	e := newEnv(t, script.Rule{Tag: "a", Replies: []script.Reply{{Text: huge}, {Text: huge}}})
	e.create("d", testLimits())
	s, err := e.runner.Run(context.Background(), "d", p)
	if err != nil {
		t.Fatal(err)
	}
	a := s.Turns["a"]
	if len(a.Repairs) != 1 || len(a.Repairs[0].Error) > 4<<10 || len(a.Invalid) > 4<<10 {
		t.Fatalf("repairs %d, repair error %d bytes, invalid %d bytes: want each under 4 KB", len(a.Repairs), len(a.Repairs[0].Error), len(a.Invalid))
	}
	if !strings.Contains(a.Invalid, "must start with OK") || !strings.Contains(a.Invalid, "more bytes)") {
		t.Errorf("invalid %.200q… does not say what is wrong and that it was cut", a.Invalid)
	}
	reqs := e.requests("a")
	if n := len(reqs[1].Messages[2].Text); n > 4<<10 {
		t.Errorf("the repair prompt is %d bytes: it quotes the reply whole", n)
	}
	if reqs[1].Messages[1].Text != huge {
		t.Error("the refused reply itself is not sent back whole")
	}
}

// TestConcurrentTurnsFailingAlikeSayItOnce: turns run together that fail
// the same way (every analyst refused the same key) are named together and
// the error said once, in the pause's detail as in the error returned; the
// error still wraps each provider error.
func TestConcurrentTurnsFailingAlikeSayItOnce(t *testing.T) {
	bad := &script.Reply{Fault: &script.Fault{Status: 401, Message: "invalid x-api-key"}}
	e := newEnv(t, script.Rule{Tag: "a", Reply: bad}, script.Rule{Tag: "b", Reply: bad})
	// Both requests are sent before either fails, as concurrent turns
	// against a server that refuses the key are.
	// The first failure cancels the other turn's context: the refusal is
	// already on its way, so the scripted provider answers it regardless.
	e.runner.Cast.Default.Provider = &uncancelled{Provider: e.prov, both: newBarrier(2)}
	e.create("d", testLimits())
	_, err := e.runner.Run(context.Background(), "d", threeTurns())
	pe := pausedErr(t, err, debate.PauseError)
	if n := strings.Count(pe.Detail, "invalid x-api-key"); n != 1 || !strings.Contains(pe.Detail, "turns a, b: ") {
		t.Errorf("detail says the error %d times, want once for turns a, b:\n%s", n, pe.Detail)
	}
	if n := strings.Count(err.Error(), "invalid x-api-key"); n != 1 {
		t.Errorf("error says it %d times:\n%v", n, err)
	}
	var le *llm.Error
	if !errors.As(err, &le) || le.Kind != llm.ErrAuth {
		t.Errorf("the error does not wrap the provider's auth error: %v", err)
	}
}

// uncancelled sends each request once every party has sent one, and
// answers it whatever happens to its context since: requests already on the
// wire get their reply.
type uncancelled struct {
	llm.Provider
	both *barrier
}

func (u *uncancelled) Stream(ctx context.Context, req llm.Request) iter.Seq2[llm.Chunk, error] {
	u.both.arrive(req.Tag, 5*time.Second)
	return u.Provider.Stream(context.WithoutCancel(ctx), req)
}
