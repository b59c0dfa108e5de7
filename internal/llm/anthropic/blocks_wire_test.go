package anthropic_test

import (
	"errors"
	"strings"
	"testing"

	"github.com/parleyhq/parley/internal/llm"
)

// Tool blocks out of the API's order lose no call silently: a block
// started at the index of a tool block still open ends that one (its call
// was replaced, and lost); tool input for a block no tool_use started
// (or that had ended), whose call is unknown, and a tool call without a
// name fail as malformed.
func TestToolBlocksOutOfOrder(t *testing.T) {
	tool := func(i, id, name string) string {
		return ev("content_block_start", `{"type":"content_block_start","index":`+i+`,"content_block":{"type":"tool_use","id":"`+id+`","name":"`+name+`","input":{}}}`)
	}
	input := func(i, js string) string {
		return ev("content_block_delta", `{"type":"content_block_delta","index":`+i+`,"delta":{"type":"input_json_delta","partial_json":`+js+`}}`)
	}
	stop := func(i string) string { return ev("content_block_stop", `{"type":"content_block_stop","index":`+i+`}`) }
	r, err := ask(rawServer(t, sse(start+tool("0", "t1", "search")+input("0", `"{\"q\":1}"`)+tool("0", "t2", "fetch")+input("0", `"{\"u\":2}"`)+stop("0")+delta("tool_use")+stopEv)))
	if err != nil || len(r.ToolCalls) != 2 || r.ToolCalls[0].Name != "search" || string(r.ToolCalls[0].Args) != `{"q":1}` || r.ToolCalls[1].Name != "fetch" || string(r.ToolCalls[1].Args) != `{"u":2}` {
		t.Errorf("two tool blocks at index 0: %+v, %v; want both calls, in order", r.ToolCalls, err)
	}
	for name, tc := range map[string]struct{ body, says string }{
		"input without its block": {start + input("3", `"{\"q\":1}"`) + delta("tool_use") + stopEv, "no tool_use content_block_start opened"},
		"input after its block":   {start + tool("0", "t1", "search") + stop("0") + input("0", `"{\"q\":1}"`) + delta("tool_use") + stopEv, "no tool_use content_block_start opened, or which had ended"},
		"call without a name":     {start + tool("0", "t1", "") + stop("0") + delta("tool_use") + stopEv, "without the tool's name"},
	} {
		t.Run(name, func(t *testing.T) {
			r, err := ask(rawServer(t, sse(tc.body)))
			var e *llm.Error
			if !errors.As(err, &e) || e.Kind != llm.ErrMalformed || !strings.Contains(err.Error(), tc.says) {
				t.Fatalf("got %+v, %v; want a malformed reply saying %q", r, err, tc.says)
			}
		})
	}
}

// Text outside a text block is read or refused, not passed over: a
// content_block_delta without its type, or with its block's ("text"),
// is a text delta; text in a block or delta of a type the API sends no
// text in fails as malformed, saying so.
func TestTextOutsideTextBlocks(t *testing.T) {
	blockStart := ev("content_block_start", `{"type":"content_block_start","index":0,"content_block":{"type":"text","text":""}}`)
	a := ev("content_block_delta", `{"type":"content_block_delta","index":0,"delta":{"type":"text_delta","text":"A"}}`)
	end := ev("content_block_stop", `{"type":"content_block_stop","index":0}`) + delta("end_turn") + stopEv
	for _, d := range []string{`{"text":"B"}`, `{"type":"text","text":"B"}`} {
		r, err := ask(rawServer(t, sse(start+blockStart+a+ev("content_block_delta", `{"type":"content_block_delta","index":0,"delta":`+d+`}`)+end)))
		if err != nil || r.Text != "AB" {
			t.Errorf("delta %s: %q, %v; want \"AB\"", d, r.Text, err)
		}
	}
	for name, body := range map[string]string{
		"delta of another type": start + blockStart + a + ev("content_block_delta", `{"type":"content_block_delta","index":0,"delta":{"type":"output_text_delta","text":"B"}}`) + end,
		"block of another type": start + ev("content_block_start", `{"type":"content_block_start","index":0,"content_block":{"type":"output_text","text":"B"}}`) + end,
	} {
		t.Run(name, func(t *testing.T) {
			r, err := ask(rawServer(t, sse(body)))
			var e *llm.Error
			if !errors.As(err, &e) || e.Kind != llm.ErrMalformed || !strings.Contains(err.Error(), "output_text") || !strings.Contains(err.Error(), `"B"`) {
				t.Fatalf("got %q, %v; want a malformed reply naming the type and quoting the text", r.Text, err)
			}
		})
	}
}
