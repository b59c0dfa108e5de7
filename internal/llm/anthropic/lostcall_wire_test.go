package anthropic_test

import (
	"errors"
	"strings"
	"testing"

	"github.com/parleyhq/parley/internal/llm"
)

// A message that ends with stop_reason tool_use (or an OpenAI-compatible
// server's tool_calls, passed through) but whose tool_use block never came
// is not an answer: its text is what the model said before the call. It
// fails retryably, saying so, rather than stand as the turn.
func TestToolUseStopWithoutCalls(t *testing.T) {
	for _, stop := range []string{"tool_use", "tool_calls"} {
		r, err := ask(rawServer(t, sse(start+text+delta(stop)+stopEv)))
		var e *llm.Error
		if !errors.As(err, &e) || e.Kind != llm.ErrMalformed || !e.Retryable() || !strings.Contains(err.Error(), "no tool call") {
			t.Errorf("%s: got %+v, %v; want a retryable error saying no call came", stop, r, err)
		}
	}
	call := ev("content_block_start", `{"type":"content_block_start","index":2,"content_block":{"type":"tool_use","id":"toolu_1","name":"lookup","input":{}}}`) +
		ev("content_block_delta", `{"type":"content_block_delta","index":2,"delta":{"type":"input_json_delta","partial_json":"{\"q\":1}"}}`) +
		ev("content_block_stop", `{"type":"content_block_stop","index":2}`)
	if r, err := ask(rawServer(t, sse(start+text+call+delta("tool_use")+stopEv))); err != nil || len(r.ToolCalls) != 1 || r.StopReason != llm.StopToolUse {
		t.Errorf("with its call: %+v %v", r, err)
	}
}
