package anthropic_test

import (
	"errors"
	"net/http"
	"strings"
	"testing"

	"github.com/parleyhq/parley/internal/llm"
)

// Tool input and thinking are held until their block or the message ends
// (thinking for a paused turn), not passed on as text is (which its reader
// bounds): more than 16 MB of them in one message fails as too large, not
// retried, rather than grow without end until the call's deadline, as a
// hostile server's did.
func TestHeldPartsAreBounded(t *testing.T) {
	piece := strings.Repeat("x", 1<<20)
	for name, c := range map[string]struct{ block, delta string }{
		"thinking":   {`{"type":"thinking","thinking":"","signature":""}`, `{"type":"thinking_delta","thinking":"` + piece + `"}`},
		"tool input": {`{"type":"tool_use","id":"toolu_1","name":"search","input":{}}`, `{"type":"input_json_delta","partial_json":"` + piece + `"}`},
	} {
		t.Run(name, func(t *testing.T) {
			p := rawServer(t, func(w http.ResponseWriter, r *http.Request) {
				w.Header().Set("Content-Type", "text/event-stream")
				_, _ = w.Write([]byte(start + ev("content_block_start", `{"type":"content_block_start","index":0,"content_block":`+c.block+`}`)))
				for range 20 {
					if _, err := w.Write([]byte(ev("content_block_delta", `{"type":"content_block_delta","index":0,"delta":`+c.delta+`}`))); err != nil {
						return
					}
				}
				_, _ = w.Write([]byte(ev("content_block_stop", `{"type":"content_block_stop","index":0}`) + text + delta("end_turn") + stopEv))
			})
			r, err := ask(p)
			var e *llm.Error
			if !errors.As(err, &e) || e.Kind != llm.ErrTooLarge || e.Retryable() || !strings.Contains(err.Error(), "16 MB") {
				t.Fatalf("got %d calls, %q, %v; want a too-large error", len(r.ToolCalls), r.Text, err)
			}
		})
	}
}
