package openai_test

import (
	"errors"
	"net/http"
	"strings"
	"testing"

	"github.com/parleyhq/parley/internal/llm"
)

// Tool calls and a refusal are held until the reply ends, not passed on
// as text is (which its reader bounds): more than 16 MB of them in one
// reply fails as too large, not retried, rather than grow without end
// until the call's deadline, as a hostile server's did.
func TestHeldPartsAreBounded(t *testing.T) {
	piece := strings.Repeat("x", 1<<20)
	for name, delta := range map[string]string{
		"tool call arguments": `{"tool_calls":[{"index":0,"function":{"arguments":"` + piece + `"}}]}`,
		"refusal":             `{"refusal":"` + piece + `"}`,
	} {
		t.Run(name, func(t *testing.T) {
			p := rawServer(t, func(w http.ResponseWriter, r *http.Request) {
				w.Header().Set("Content-Type", "text/event-stream")
				_, _ = w.Write([]byte(chunk(`{"choices":[{"index":0,"delta":{"tool_calls":[{"index":0,"id":"call_1","type":"function","function":{"name":"search","arguments":"{\"q\":\""}}]}}]}`)))
				for range 20 {
					if _, err := w.Write([]byte(chunk(`{"choices":[{"index":0,"delta":` + delta + `}]}`))); err != nil {
						return
					}
				}
				_, _ = w.Write([]byte(chunk(`{"choices":[{"index":0,"delta":{"tool_calls":[{"index":0,"function":{"arguments":"\"}"}}]},"finish_reason":"tool_calls"}]}`) + done))
			})
			r, err := ask(p)
			var e *llm.Error
			if !errors.As(err, &e) || e.Kind != llm.ErrTooLarge || e.Retryable() || !strings.Contains(err.Error(), "16 MB") {
				t.Fatalf("got %d calls, %d bytes of text, %v; want a too-large error", len(r.ToolCalls), len(r.Text), err)
			}
		})
	}
}
