package openai_test

import (
	"errors"
	"strings"
	"testing"

	"github.com/parleyhq/parley/internal/llm"
)

// A reply that ends with finish_reason tool_calls but whose calls never
// came (a tool-call parser that failed on the model's output, a proxy
// that dropped the deltas) is not an answer: its text is what the model
// said before the call. It fails retryably, saying so, rather than stand
// as the turn; a reply with its calls is read as ever.
func TestToolCallsFinishWithoutCalls(t *testing.T) {
	for _, finish := range []string{"tool_calls", "function_call", "tool_use"} {
		body := chunk(`{"choices":[{"index":0,"delta":{"role":"assistant","content":"Let me look that up."}}]}`) +
			chunk(`{"choices":[{"index":0,"delta":{},"finish_reason":"`+finish+`"}]}`) + chunk(use) + done
		r, err := ask(rawServer(t, sse(body)))
		var e *llm.Error
		if !errors.As(err, &e) || e.Kind != llm.ErrMalformed || !e.Retryable() || !strings.Contains(err.Error(), "no tool call") {
			t.Errorf("%s: got %+v, %v; want a retryable error saying no call came", finish, r, err)
		}
	}
	body := chunk(`{"choices":[{"index":0,"delta":{"role":"assistant","content":"Let me look that up."}}]}`) +
		chunk(`{"choices":[{"index":0,"delta":{"tool_calls":[{"index":0,"id":"a","type":"function","function":{"name":"lookup","arguments":"{}"}}]}}]}`) +
		chunk(`{"choices":[{"index":0,"delta":{},"finish_reason":"tool_calls"}]}`) + chunk(use) + done
	if r, err := ask(rawServer(t, sse(body))); err != nil || len(r.ToolCalls) != 1 || r.StopReason != llm.StopToolUse {
		t.Errorf("with its call: %+v %v", r, err)
	}
}
