package openai_test

import (
	"context"
	"errors"
	"testing"
	"time"

	"github.com/parleyhq/parley/internal/llm"
	"github.com/parleyhq/parley/internal/llm/fakellm"
	"github.com/parleyhq/parley/internal/llm/openai"
	"github.com/parleyhq/parley/internal/llm/script"
)

// A stream that waits for its model with keep-alive comments (DeepSeek,
// OpenRouter) yields the reply when it comes; one that waits past the
// caller's deadline, with keep-alives or in silence, before its first
// event or after it, ends at the deadline as a timeout, which is retried,
// rather than hang or be taken for a reply.
func TestKeepAliveAndStall(t *testing.T) {
	sc := script.MustNew(
		script.Rule{Tag: "soon", Reply: &script.Reply{Text: "Redis, for its speed.", Delay: script.Duration(150 * time.Millisecond)}},
		script.Rule{Tag: "never", Reply: &script.Reply{Text: "late", Delay: script.Duration(time.Minute)}},
	)
	call := func(t *testing.T, srv *fakellm.Server, tag string, deadline time.Duration) (llm.Reply, time.Duration, error) {
		p, err := openai.New(openai.Config{Name: "deepseek", BaseURL: srv.OpenAIURL()})
		if err != nil {
			t.Fatal(err)
		}
		ctx, cancel := context.WithTimeout(context.Background(), deadline)
		defer cancel()
		req := limited("deepseek-chat")
		req.Tag = tag
		start := time.Now()
		r, err := llm.Collect(p.Stream(ctx, req))
		return r, time.Since(start), err
	}
	timedOut := func(t *testing.T, took time.Duration, err error) {
		t.Helper()
		var e *llm.Error
		if !errors.As(err, &e) || e.Kind != llm.ErrTimeout || !e.Retryable() {
			t.Errorf("%v, want a retryable timeout", err)
		}
		if took > 3*time.Second {
			t.Errorf("took %s to end a call with a 100ms deadline", took)
		}
	}
	srv := fakellm.Start(sc, fakellm.WithKeepAlive(10*time.Millisecond))
	defer srv.Close()
	if r, _, err := call(t, srv, "soon", 10*time.Second); err != nil || r.Text != "Redis, for its speed." || r.StopReason != llm.StopEnd {
		t.Errorf("keep-alives, then the reply: %+v %v", r, err)
	}
	_, took, err := call(t, srv, "never", 100*time.Millisecond)
	timedOut(t, took, err)

	// Silence after the first event.
	stalled := fakellm.Start(sc, fakellm.WithTokenDelay(time.Minute))
	defer stalled.Close()
	_, took, err = call(t, stalled, "soon", 300*time.Millisecond)
	timedOut(t, took, err)
}
