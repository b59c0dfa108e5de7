package anthropic_test

import (
	"bytes"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/parleyhq/parley/internal/llm"
	"github.com/parleyhq/parley/internal/llm/anthropic"
	"github.com/parleyhq/parley/internal/llm/llmtest"
)

// dropAfter writes body and then drops the connection (see
// llmtest.DropAfter).
func dropAfter(body string) http.HandlerFunc { return llmtest.DropAfter(body) }

// The API sends every content block, whole, before the message_delta that
// gives the stop_reason and the final counts; after it only message_stop,
// which carries nothing. An error event (overloaded_error, which the
// streaming docs say may come in the stream) or a dropped connection after
// that delta cuts nothing: the reply is kept, with a warning, rather than
// the call failed and retried, paid for twice. Before that delta, or with
// content after it (off the API's order), the reply is not known whole and
// the call fails retryably as before.
func TestFailureAfterTheStopReason(t *testing.T) {
	overloaded := ev("error", `{"type":"error","error":{"type":"overloaded_error","message":"Overloaded"}}`)
	tool := ev("content_block_start", `{"type":"content_block_start","index":2,"content_block":{"type":"tool_use","id":"toolu_1","name":"search","input":{}}}`) +
		ev("content_block_delta", `{"type":"content_block_delta","index":2,"delta":{"type":"input_json_delta","partial_json":"{\"q\":\"x\"}"}}`) +
		ev("content_block_stop", `{"type":"content_block_stop","index":2}`)
	want := llm.Usage{InputTokens: 10, CacheWriteTokens: 5, CacheReadTokens: 100, OutputTokens: 42}
	kept := []struct {
		name  string
		h     http.HandlerFunc
		stop  string
		calls int
	}{
		{"error event after the stop_reason", sse(start + text + delta("end_turn") + overloaded), llm.StopEnd, 0},
		{"error event after a ping after the stop_reason", sse(start + text + delta("end_turn") + ping + overloaded), llm.StopEnd, 0},
		{"connection dropped after the stop_reason", dropAfter(start + text + delta("end_turn")), llm.StopEnd, 0},
		{"error event after a tool call's stop_reason", sse(start + text + tool + delta("tool_use") + overloaded), llm.StopToolUse, 1},
		{"error event after max_tokens", sse(start + text + delta("max_tokens") + overloaded), llm.StopMaxTokens, 0},
	}
	for _, c := range kept {
		t.Run(c.name, func(t *testing.T) {
			srv := httptest.NewServer(c.h)
			defer srv.Close()
			var logs bytes.Buffer
			p, err := anthropic.New(anthropic.Config{APIKey: "k", BaseURL: srv.URL, Logger: slog.New(slog.NewTextHandler(&logs, nil))})
			if err != nil {
				t.Fatal(err)
			}
			r, err := ask(p)
			if err != nil || r.Text != "Hello" || r.StopReason != c.stop || len(r.ToolCalls) != c.calls || r.Usage != want {
				t.Fatalf("got %+v, %v; want the whole reply (%s, %d calls)", r, err, c.stop, c.calls)
			}
			// Said at Warn once per model, not with every reply.
			if _, err := ask(p); err != nil {
				t.Fatalf("second call: %v", err)
			}
			if n := strings.Count(logs.String(), "level=WARN msg=\"the server failed after the reply was complete"); n != 1 {
				t.Errorf("%d warnings after two calls, want 1: %s", n, logs.String())
			}
		})
	}
	failed := []struct {
		name string
		h    http.HandlerFunc
	}{
		{"error event after the last block, before the stop_reason", sse(start + text + overloaded)},
		{"connection dropped before the stop_reason", dropAfter(start + text)},
		{"content after the stop_reason, then an error event", sse(start + text + delta("end_turn") +
			ev("content_block_delta", `{"type":"content_block_delta","index":1,"delta":{"type":"text_delta","text":" again"}}`) + overloaded)},
	}
	for _, c := range failed {
		t.Run(c.name, func(t *testing.T) {
			r, err := ask(rawServer(t, c.h))
			if !llm.IsRetryable(err) {
				t.Fatalf("got %+v, %v; want a retryable error", r, err)
			}
		})
	}
}
