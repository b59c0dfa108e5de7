package debate_test

import (
	"context"
	"iter"
	"strings"
	"testing"

	"github.com/parleyhq/parley/internal/debate"
	"github.com/parleyhq/parley/internal/llm"
	"github.com/parleyhq/parley/internal/llm/script"
)

// A reply cut at the token limit is not taken as the answer, even when the
// protocol would parse it: it is asked for again, shorter, once, and marked
// invalid if it is cut again.
func TestMaxTokensIsNotAnAnswer(t *testing.T) {
	p := &toyProto{steps: []toyStep{turns(turn("a", "alpha", 1))}}
	t.Run("asked again", func(t *testing.T) {
		e := newEnv(t, script.Rule{Tag: "a", Replies: []script.Reply{{Text: "The answer is", StopReason: llm.StopMaxTokens}, {Text: "Short answer."}}})
		e.create("d", testLimits())
		s, err := e.runner.Run(context.Background(), "d", p)
		if err != nil {
			t.Fatal(err)
		}
		a := s.Turns["a"]
		if a.Text != "Short answer." || a.Invalid != "" || len(a.Repairs) != 1 || a.Repairs[0].Text != "The answer is" || !strings.Contains(a.Repairs[0].Error, "token limit") {
			t.Errorf("turn a = text %q invalid %q repairs %+v", a.Text, a.Invalid, a.Repairs)
		}
		reqs := e.requests("a")
		if len(reqs) != 2 {
			t.Fatalf("%d requests, want 2", len(reqs))
		}
		msgs := reqs[1].Messages
		if last := msgs[len(msgs)-1]; last.Role != llm.RoleUser || !strings.Contains(last.Text, "cut off") || !strings.Contains(last.Text, "shorter") {
			t.Errorf("second request ends with %+v", last)
		}
	})
	t.Run("cut twice", func(t *testing.T) {
		e := newEnv(t, script.Rule{Tag: "a", Reply: &script.Reply{Text: "The answer is", StopReason: llm.StopMaxTokens}})
		e.create("d", testLimits())
		s, err := e.runner.Run(context.Background(), "d", p)
		if err != nil {
			t.Fatal(err)
		}
		a := s.Turns["a"]
		if a.Status != debate.TurnDone || a.Move != nil || !strings.Contains(a.Invalid, "token limit") {
			t.Errorf("turn a = status %s move %s invalid %q", a.Status, a.Move, a.Invalid)
		}
		if n := len(e.requests("a")); n != 2 {
			t.Errorf("%d requests, want 2", n)
		}
	})
	t.Run("cut at the context window", func(t *testing.T) {
		// Asked again, the prompt with the cut reply in it would not fit
		// the window the reply filled: the turn is invalid at once,
		// saying what to change.
		e := newEnv(t, script.Rule{Tag: "a", Replies: []script.Reply{{Text: "The answer is", StopReason: llm.StopContextWindow}, {Text: "Short answer."}}})
		e.create("d", testLimits())
		s, err := e.runner.Run(context.Background(), "d", p)
		if err != nil {
			t.Fatal(err)
		}
		a := s.Turns["a"]
		if a.Status != debate.TurnDone || a.Move != nil || a.Text != "The answer is" || len(a.Repairs) != 0 ||
			!strings.Contains(a.Invalid, "context window") || !strings.Contains(a.Invalid, "--max-rounds") || strings.Contains(a.Invalid, "token limit") {
			t.Errorf("turn a = status %s move %s text %q invalid %q repairs %+v", a.Status, a.Move, a.Text, a.Invalid, a.Repairs)
		}
		if n := len(e.requests("a")); n != 1 {
			t.Errorf("%d requests, want 1", n)
		}
	})
	t.Run("empty cut reply", func(t *testing.T) {
		// A reasoning model can spend the whole limit thinking and send no
		// text: the repair must not send an empty assistant message, which
		// the APIs refuse.
		e := newEnv(t, script.Rule{Tag: "a", Reply: text("Done.")})
		calls := 0
		e.runner.Cast.Default.Provider = chunksProvider{Provider: e.prov, first: func() bool { calls++; return calls == 1 }}
		e.create("d", testLimits())
		s, err := e.runner.Run(context.Background(), "d", p)
		if err != nil {
			t.Fatal(err)
		}
		if a := s.Turns["a"]; a.Text != "Done." {
			t.Errorf("turn a = %q invalid %q", a.Text, a.Invalid)
		}
		for _, m := range e.requests("a")[0].Messages {
			if m.Role == llm.RoleAssistant && m.Text == "" && len(m.ToolCalls) == 0 {
				t.Errorf("empty assistant message sent: %+v", e.requests("a")[0].Messages)
			}
		}
	})
}

// chunksProvider answers its first call with no text, cut at the token
// limit, and passes later calls on.
type chunksProvider struct {
	llm.Provider
	first func() bool
}

func (p chunksProvider) Stream(ctx context.Context, req llm.Request) iter.Seq2[llm.Chunk, error] {
	if p.first() {
		return func(yield func(llm.Chunk, error) bool) {
			yield(llm.Chunk{Usage: &llm.Usage{InputTokens: 5, OutputTokens: 100}, StopReason: llm.StopMaxTokens}, nil)
		}
	}
	return p.Provider.Stream(ctx, req)
}

func TestRefusalIsNotAnAnswer(t *testing.T) {
	e := newEnv(t, script.Rule{Tag: "a", Reply: &script.Reply{Text: "I can't help with that.", StopReason: llm.StopRefusal}})
	e.create("d", testLimits())
	s, err := e.runner.Run(context.Background(), "d", &toyProto{steps: []toyStep{turns(turn("a", "alpha", 1))}})
	if err != nil {
		t.Fatal(err)
	}
	a := s.Turns["a"]
	if a.Text != "I can't help with that." || a.Move != nil || !strings.Contains(a.Invalid, "declined") {
		t.Errorf("turn a = text %q move %s invalid %q", a.Text, a.Move, a.Invalid)
	}
	if n := len(e.requests("a")); n != 1 {
		t.Errorf("%d requests, want 1", n)
	}
	// What the server said of the refusal is said with it, and what to
	// change.
	e = newEnv(t, script.Rule{Tag: "a", Reply: text("unused")})
	e.runner.Cast.Default.Provider = refusing{Provider: e.prov, detail: "category cyber: This request was declined."}
	e.create("d", testLimits())
	s, err = e.runner.Run(context.Background(), "d", &toyProto{steps: []toyStep{turns(turn("a", "alpha", 1))}})
	if err != nil {
		t.Fatal(err)
	}
	if a := s.Turns["a"]; !strings.Contains(a.Invalid, "category cyber: This request was declined.") || !strings.Contains(a.Invalid, "--model-for") {
		t.Errorf("turn a invalid %q, want the refusal's detail and what to change", a.Invalid)
	}
}

// refusing declines every call, with detail.
type refusing struct {
	llm.Provider
	detail string
}

func (p refusing) Stream(ctx context.Context, req llm.Request) iter.Seq2[llm.Chunk, error] {
	return func(yield func(llm.Chunk, error) bool) {
		if yield(llm.Chunk{Text: "I can't help with that."}, nil) {
			yield(llm.Chunk{Usage: &llm.Usage{InputTokens: 5, OutputTokens: 7}, StopReason: llm.StopRefusal, StopDetail: p.detail}, nil)
		}
	}
}

// endless streams text for ever, counting what it sent, and reports whether
// its consumer stopped it.
type endless struct {
	llm.Provider
	sent    int
	stopped bool
}

func (p *endless) Stream(ctx context.Context, req llm.Request) iter.Seq2[llm.Chunk, error] {
	return func(yield func(llm.Chunk, error) bool) {
		piece := strings.Repeat("é", 4000) // 2-byte runes: a cut can split one
		for ctx.Err() == nil {
			p.sent += len(piece)
			if !yield(llm.Chunk{Text: piece}, nil) {
				p.stopped = true
				return
			}
		}
	}
}

func TestEndlessReplyIsCut(t *testing.T) {
	e := newEnv(t, script.Rule{Tag: "a", Reply: text("unused")})
	prov := &endless{Provider: e.prov}
	e.runner = e.newRunner(prov)
	e.create("d", testLimits())
	s, err := e.runner.Run(context.Background(), "d", &toyProto{steps: []toyStep{turns(turn("a", "alpha", 1))}})
	if err != nil {
		t.Fatal(err)
	}
	a := s.Turns["a"]
	if !prov.stopped || len(a.Text) > debate.MaxReplyBytes || len(a.Text) < debate.MaxReplyBytes-8 || !strings.Contains(a.Invalid, "cut at") || !a.Usage.Unreported {
		t.Errorf("stopped %v, text %d bytes (valid UTF-8: %v), invalid %q, usage %+v", prov.stopped, len(a.Text), strings.ToValidUTF8(a.Text, "") == a.Text, a.Invalid, a.Usage)
	}
	if strings.ToValidUTF8(a.Text, "") != a.Text {
		t.Error("the cut split a rune")
	}
}

// A Retry-After of hours (a spent daily quota, or a hostile server) stops
// the turn with a message saying so, instead of sleeping for it.
func TestRetryAfterTooLong(t *testing.T) {
	e := newEnv(t,
		script.Rule{Tag: "a", Times: 1, Reply: &script.Reply{Fault: &script.Fault{Status: 429, RetryAfter: "86400"}}},
		script.Rule{Tag: "a", Reply: text("never")},
	)
	e.create("d", testLimits())
	_, err := e.runner.Run(context.Background(), "d", &toyProto{steps: []toyStep{turns(turn("a", "alpha", 1))}})
	if err == nil || !strings.Contains(err.Error(), "asks to wait 24h before") || !strings.Contains(err.Error(), "resume") {
		t.Fatalf("err = %v", err)
	}
	if sl := e.clock.Sleeps(); len(sl) != 0 {
		t.Errorf("slept %v", sl)
	}
	if n := len(e.requests("a")); n != 1 {
		t.Errorf("%d requests, want 1", n)
	}
}

// A Retry-After no rate limit means (10^12 seconds, 31,709 years, more
// than a time.Duration holds) is said in years and given up on at once:
// it read "asks to wait 2562047h47m16s ... resume the debate after that".
func TestRetryAfterAbsurd(t *testing.T) {
	e := newEnv(t,
		script.Rule{Tag: "a", Times: 1, Reply: &script.Reply{Fault: &script.Fault{Status: 429, RetryAfter: "1000000000000"}}},
		script.Rule{Tag: "a", Reply: text("never")},
	)
	e.create("d", testLimits())
	_, err := e.runner.Run(context.Background(), "d", &toyProto{steps: []toyStep{turns(turn("a", "alpha", 1))}})
	if err == nil || !strings.Contains(err.Error(), "asks to wait more than 292 years before trying again, which no rate limit means") || strings.Contains(err.Error(), "2562047h") {
		t.Fatalf("err = %v", err)
	}
	if sl := e.clock.Sleeps(); len(sl) != 0 {
		t.Errorf("slept %v", sl)
	}
	if n := len(e.requests("a")); n != 1 {
		t.Errorf("%d requests, want 1", n)
	}
}

// Model text is stored as text: a NUL (which PostgreSQL's text refuses)
// is dropped and bytes that are not UTF-8 are replaced.
func TestModelTextIsStorable(t *testing.T) {
	e := newEnv(t, script.Rule{Tag: "a", Reply: text("unused")})
	e.runner.Cast.Default.Provider = rawText{Provider: e.prov, text: "a\x00b\xffc"}
	e.create("d", testLimits())
	s, err := e.runner.Run(context.Background(), "d", &toyProto{steps: []toyStep{turns(turn("a", "alpha", 1))}})
	if err != nil {
		t.Fatal(err)
	}
	if got := s.Turns["a"].Text; got != "ab\uFFFDc" {
		t.Errorf("text %q", got)
	}
	for _, ev := range e.events("d") {
		if strings.Contains(string(ev.Data), `\u0000`) {
			t.Errorf("event %s holds a NUL: %s", ev.Type, ev.Data)
		}
	}
}

// rawText answers every call with text as is.
type rawText struct {
	llm.Provider
	text string
}

func (p rawText) Stream(ctx context.Context, req llm.Request) iter.Seq2[llm.Chunk, error] {
	return func(yield func(llm.Chunk, error) bool) {
		if yield(llm.Chunk{Text: p.text}, nil) {
			yield(llm.Chunk{Usage: &llm.Usage{InputTokens: 1, OutputTokens: 1}, StopReason: llm.StopEnd}, nil)
		}
	}
}
