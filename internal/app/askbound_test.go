package app

import (
	"context"
	"strings"
	"testing"
	"time"

	"github.com/parleyhq/parley/internal/debate"
	"github.com/parleyhq/parley/internal/llm"
	"github.com/parleyhq/parley/internal/llm/script"
)

// TestAskCallsAreBounded: a follow-up's call that stalls is given up
// after the timeout and asked again, as a turn's is; it waited for ever.
// An answer longer than debate.MaxReplyBytes is read no further, and is
// marked cut; it was read without end.
func TestAskCallsAreBounded(t *testing.T) {
	req := llm.Request{Model: "m", Tag: "ask/1/bear", Messages: []llm.Message{{Role: llm.RoleUser, Text: "q"}}}
	stalled := script.Reply{Text: "late", Delay: script.Duration(time.Hour)}
	p := script.NewProvider(script.MustNew(script.Rule{Tag: "ask/1/bear", Replies: []script.Reply{stalled, {Text: "The answer."}}}))
	done := make(chan struct{})
	go func() {
		defer close(done)
		r, err := askWithRetries(context.Background(), p, req, nil, time.Millisecond, 50*time.Millisecond)
		if err != nil || r.Text != "The answer." || len(p.Requests()) != 2 {
			t.Errorf("%q %v after %d calls; want the second call's answer", r.Text, err, len(p.Requests()))
		}
	}()
	select {
	case <-done:
	case <-time.After(10 * time.Second):
		t.Fatal("the follow-up still waits for a stalled call")
	}

	huge := strings.Repeat("word ", debate.MaxReplyBytes/4)
	p = script.NewProvider(script.MustNew(script.Rule{Tag: "ask/1/bear", Reply: &script.Reply{Text: huge}}))
	var shown int
	r, err := askWithRetries(context.Background(), p, req, func(s string) { shown += len(s) }, time.Millisecond, 0)
	if err != nil || !r.oversize || len(r.Text) > debate.MaxReplyBytes || shown > debate.MaxReplyBytes || !r.Usage.Unreported {
		t.Errorf("read %d bytes (shown %d), oversize %v, usage %+v, %v; want at most %d, marked", len(r.Text), shown, r.oversize, r.Usage, err, debate.MaxReplyBytes)
	}
}
