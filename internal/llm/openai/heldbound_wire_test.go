package openai_test

import (
	"errors"
	"net/http"
	"strconv"
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
	// Calls opened at new indexes, empty, cost what holding them does:
	// the k-th chunk opens 1<<14 of them.
	opened := func(k int) string {
		var b strings.Builder
		for i := range 1 << 14 {
			if i > 0 {
				b.WriteString(",")
			}
			b.WriteString(`{"index":` + strconv.Itoa(1+k<<14+i) + `}`)
		}
		return `{"tool_calls":[` + b.String() + `]}`
	}
	for name, delta := range map[string]func(k int) string{
		"tool call arguments":        func(int) string { return `{"tool_calls":[{"index":0,"function":{"arguments":"` + piece + `"}}]}` },
		"refusal":                    func(int) string { return `{"refusal":"` + piece + `"}` },
		"empty calls at new indexes": opened,
	} {
		t.Run(name, func(t *testing.T) {
			p := rawServer(t, func(w http.ResponseWriter, r *http.Request) {
				w.Header().Set("Content-Type", "text/event-stream")
				_, _ = w.Write([]byte(chunk(`{"choices":[{"index":0,"delta":{"tool_calls":[{"index":0,"id":"call_1","type":"function","function":{"name":"search","arguments":"{\"q\":\""}}]}}]}`)))
				for k := range 20 {
					if _, err := w.Write([]byte(chunk(`{"choices":[{"index":0,"delta":` + delta(k) + `}]}`))); err != nil {
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
