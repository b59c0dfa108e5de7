package openai_test

import (
	"bytes"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/parleyhq/parley/internal/llm"
	"github.com/parleyhq/parley/internal/llm/llmtest"
	"github.com/parleyhq/parley/internal/llm/openai"
)

// dropAfter writes body and then drops the connection (see
// llmtest.DropAfter).
func dropAfter(body string) http.HandlerFunc { return llmtest.DropAfter(body) }

// A finish_reason says the model stopped: the chunk that carries it is the
// reply's last, and after it only the counts (stream_options.include_usage,
// which the API says an interrupted stream may lack) and [DONE] are due. An
// error event or a dropped connection after it cuts nothing: the reply is
// kept, with a warning, its counts unknown when they had not come, rather
// than the call failed and retried, paid for twice. Before the
// finish_reason, or with content after it, the call fails retryably as
// before.
func TestFailureAfterTheFinishReason(t *testing.T) {
	overloaded := chunk(`{"error":{"message":"The server is overloaded","type":"server_error","code":503}}`)
	toolStart := `{"choices":[{"index":0,"delta":{"tool_calls":[{"index":0,"id":"call_1","type":"function","function":{"name":"search","arguments":""}}]}}]}`
	toolArgs := `{"choices":[{"index":0,"delta":{"tool_calls":[{"index":0,"function":{"arguments":"{\"q\":\"x\"}"}}]}}]}`
	toolStop := `{"choices":[{"index":0,"delta":{},"finish_reason":"tool_calls"}]}`
	counted := llm.Usage{InputTokens: 7, CacheReadTokens: 4, OutputTokens: 2}
	unknown := llm.Usage{Unreported: true}
	kept := []struct {
		name  string
		h     http.HandlerFunc
		text  string
		stop  string
		calls int
		usage llm.Usage
	}{
		{"error event after the finish_reason", sse(chunk(c1) + chunk(c2) + chunk(stop) + overloaded), "Hello", llm.StopEnd, 0, unknown},
		{"error event after the counts", sse(chunk(c1) + chunk(c2) + chunk(stop) + chunk(use) + overloaded), "Hello", llm.StopEnd, 0, counted},
		{"connection dropped after the finish_reason", dropAfter(chunk(c1) + chunk(c2) + chunk(stop)), "Hello", llm.StopEnd, 0, unknown},
		{"connection dropped after the counts", dropAfter(chunk(c1) + chunk(c2) + chunk(stop) + chunk(use)), "Hello", llm.StopEnd, 0, counted},
		{"error event after a tool call's finish_reason", sse(chunk(toolStart) + chunk(toolArgs) + chunk(toolStop) + overloaded), "", llm.StopToolUse, 1, unknown},
		{"error event after length", sse(chunk(c1) + chunk(c2) + chunk(strings.Replace(stop, `"stop"`, `"length"`, 1)) + overloaded), "Hello", llm.StopMaxTokens, 0, unknown},
	}
	for _, c := range kept {
		t.Run(c.name, func(t *testing.T) {
			srv := httptest.NewServer(c.h)
			defer srv.Close()
			var logs bytes.Buffer
			p, err := openai.New(openai.Config{Name: "vllm", BaseURL: srv.URL + "/v1", Logger: slog.New(slog.NewTextHandler(&logs, nil))})
			if err != nil {
				t.Fatal(err)
			}
			r, err := ask(p)
			if err != nil || r.Text != c.text || r.StopReason != c.stop || len(r.ToolCalls) != c.calls || r.Usage != c.usage {
				t.Fatalf("got %+v, %v; want the whole reply (%q, %s, %d calls, %+v)", r, err, c.text, c.stop, c.calls, c.usage)
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
	// A finish_reason on every chunk (some servers) says nothing of
	// where the reply ends.
	everyChunk := func(s string) string { return strings.Replace(s, `"finish_reason":null`, `"finish_reason":"stop"`, 1) }
	failed := []struct {
		name string
		h    http.HandlerFunc
	}{
		{"error event before the finish_reason", sse(chunk(c1) + chunk(c2) + overloaded)},
		{"connection dropped before the finish_reason", dropAfter(chunk(c1) + chunk(c2))},
		{"content after a finish_reason, then an error event", sse(chunk(everyChunk(c1)) + chunk(everyChunk(c2)) + overloaded)},
		{"content after a finish_reason, then a dropped connection", dropAfter(chunk(everyChunk(c1)) + chunk(everyChunk(c2)))},
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
