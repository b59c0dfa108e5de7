package anthropic_test

import (
	"context"
	"net/http"
	"testing"
	"time"

	"github.com/parleyhq/parley/internal/llm"
)

// A stream held open after the message_delta with the stop_reason by
// events that are not content (the counts sent again and again) ends
// about afterStop (2 s) after it, its reply whole; those events held the
// call to its deadline, where it failed as a timeout and was retried.
func TestHeldOpenAfterTheStop(t *testing.T) {
	again := ev("message_delta", `{"type":"message_delta","delta":{},"usage":{"output_tokens":42}}`)
	p := rawServer(t, func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "text/event-stream")
		_, _ = w.Write([]byte(start + text + delta("end_turn")))
		w.(http.Flusher).Flush()
		for {
			select {
			case <-r.Context().Done():
				return
			case <-time.After(500 * time.Millisecond):
			}
			_, _ = w.Write([]byte(again))
			w.(http.Flusher).Flush()
		}
	})
	ctx, cancel := context.WithTimeout(context.Background(), 8*time.Second)
	defer cancel()
	r, err := llm.Collect(p.Stream(ctx, llm.Request{Model: "claude-x", Messages: []llm.Message{{Role: llm.RoleUser, Text: "hi"}}}))
	if err != nil || r.Text != "Hello" || r.StopReason != llm.StopEnd || r.Usage.OutputTokens != 42 {
		t.Fatalf("got %+v, %v; want the reply whole", r, err)
	}
}
