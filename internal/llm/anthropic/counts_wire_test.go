package anthropic_test

import (
	"testing"

	"github.com/parleyhq/parley/internal/llm"
)

// Counts no call can have (below 0, or past any context window) are
// unknown, not read: a negative count lowered the usage and the cost the
// budgets hold, and a count near the largest int made their sums
// overflow. The reply itself stands.
func TestCountsNoCallCanHave(t *testing.T) {
	msgStart := func(u string) string {
		return ev("message_start", `{"type":"message_start","message":{"id":"msg_1","type":"message","role":"assistant","model":"claude-x","content":[],"stop_reason":null,"usage":`+u+`}}`)
	}
	msgDelta := func(u string) string {
		return ev("message_delta", `{"type":"message_delta","delta":{"stop_reason":"end_turn"},"usage":`+u+`}`)
	}
	for name, body := range map[string]string{
		"negative input tokens":   msgStart(`{"input_tokens":-500,"output_tokens":1}`) + text + msgDelta(`{"output_tokens":42}`),
		"negative output tokens":  msgStart(`{"input_tokens":10,"output_tokens":1}`) + text + msgDelta(`{"output_tokens":-42}`),
		"negative cache reads":    msgStart(`{"input_tokens":10,"cache_read_input_tokens":-100,"output_tokens":1}`) + text + msgDelta(`{"output_tokens":42}`),
		"past any context window": msgStart(`{"input_tokens":5000000000,"output_tokens":1}`) + text + msgDelta(`{"output_tokens":42}`),
		"near the largest int":    msgStart(`{"input_tokens":9223372036854775807,"output_tokens":1}`) + text + msgDelta(`{"output_tokens":42}`),
	} {
		t.Run(name, func(t *testing.T) {
			r, err := ask(rawServer(t, sse(body+stopEv)))
			if err != nil || r.Text != "Hello" || r.Usage != (llm.Usage{Unreported: true}) {
				t.Fatalf("got %+v, %v; want the reply with its counts unknown", r, err)
			}
		})
	}
}
