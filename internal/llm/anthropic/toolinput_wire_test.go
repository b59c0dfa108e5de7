package anthropic_test

import (
	"errors"
	"testing"

	"github.com/parleyhq/parley/internal/llm"
)

// A tool call's input in the shapes compatible layers send is the call's
// arguments, an object: sent whole in content_block_start as a string
// holding the object (it was passed over, and the call made with {}),
// streamed encoded twice, or null (no arguments, {}). Input of another
// type (a list) fails as arguments that are not an object.
func TestToolInputShapes(t *testing.T) {
	call := func(input, streamed string) string {
		s := start + ev("content_block_start", `{"type":"content_block_start","index":0,"content_block":{"type":"tool_use","id":"t1","name":"search","input":`+input+`}}`)
		if streamed != "" {
			s += ev("content_block_delta", `{"type":"content_block_delta","index":0,"delta":{"type":"input_json_delta","partial_json":`+streamed+`}}`)
		}
		return s + ev("content_block_stop", `{"type":"content_block_stop","index":0}`) + delta("tool_use") + stopEv
	}
	for name, tc := range map[string]struct{ body, args string }{
		"a string in the start":   {call(`"{\"q\":1}"`, ""), `{"q":1}`},
		"streamed, encoded twice": {call(`{}`, `"\"{\\\"q\\\":1}\""`), `{"q":1}`},
		"streamed null":           {call(`{}`, `"null"`), `{}`},
		"an object in the start":  {call(`{"q":1}`, ""), `{"q":1}`},
	} {
		t.Run(name, func(t *testing.T) {
			r, err := ask(rawServer(t, sse(tc.body)))
			if err != nil || len(r.ToolCalls) != 1 || string(r.ToolCalls[0].Args) != tc.args {
				t.Fatalf("got %+v, %v; want a call with %s", r.ToolCalls, err, tc.args)
			}
		})
	}
	_, err := ask(rawServer(t, sse(call(`[1,2]`, ""))))
	var e *llm.Error
	if !errors.As(err, &e) || e.Kind != llm.ErrMalformed {
		t.Errorf("a list as the input: %v; want arguments that are not an object", err)
	}
}
