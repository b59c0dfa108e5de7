package anthropic_test

import (
	"context"
	"encoding/json"
	"fmt"
	"testing"

	"github.com/parleyhq/parley/internal/llm"
	"github.com/parleyhq/parley/internal/llm/anthropic"
	"github.com/parleyhq/parley/internal/llm/fakellm"
	"github.com/parleyhq/parley/internal/llm/script"
)

// A compatible server or proxy that sends no content_block_stop (it goes
// from a block's last delta to the next block, or to message_delta) ends
// each block all the same: its tool calls, and a forced tool's document,
// come whole and in order, and a text block's text is the reply's. They were lost, the reply a
// tool_use with no call or an empty document.
func TestBlocksWithoutStops(t *testing.T) {
	sc := script.MustNew(
		script.Rule{Tag: "tools", Reply: &script.Reply{ToolCalls: []script.ToolCall{
			{ID: "toolu_a", Name: "lookup", Args: json.RawMessage(`{"q":"redis latency"}`)},
			{ID: "toolu_b", Name: "lookup", Args: json.RawMessage(`{"q":"postgres latency"}`)},
		}}},
		script.Rule{Tag: "doc", Reply: &script.Reply{JSON: json.RawMessage(`{"verdict":"redis"}`)}},
	)
	srv := fakellm.Start(sc, fakellm.WithoutBlockStops())
	defer srv.Close()
	tools := []llm.ToolSpec{{Name: "lookup", Description: "Look up", Schema: json.RawMessage(`{"type":"object","properties":{"q":{"type":"string"}}}`)}}
	for _, mode := range []anthropic.StructuredMode{anthropic.StructuredOutputFormat, anthropic.StructuredForcedTool} {
		p, err := anthropic.New(anthropic.Config{APIKey: "k", BaseURL: srv.AnthropicURL(), Structured: mode})
		if err != nil {
			t.Fatal(err)
		}
		r, err := llm.Collect(p.Stream(context.Background(), llm.Request{Model: "claude-x", Tag: "tools", Tools: tools,
			Messages: []llm.Message{{Role: llm.RoleUser, Text: "Which is faster?"}}}))
		if err != nil || r.StopReason != llm.StopToolUse || len(r.ToolCalls) != 2 ||
			r.ToolCalls[0].ID != "toolu_a" || string(r.ToolCalls[1].Args) != `{"q":"postgres latency"}` {
			t.Errorf("%s: tool calls: %+v %v", mode, r, err)
		}
		r, err = llm.Collect(p.Stream(context.Background(), llm.Request{Model: "claude-x", Tag: "doc",
			Messages: []llm.Message{{Role: llm.RoleUser, Text: "Which?"}},
			Schema:   &llm.Schema{Name: "verdict", JSON: json.RawMessage(`{"type":"object","properties":{"verdict":{"type":"string"}},"required":["verdict"],"additionalProperties":false}`)}}))
		if err != nil || r.Text != `{"verdict":"redis"}` {
			t.Errorf("%s: document: %+v %v", mode, r, err)
		}
	}
}

// A proxy that opens tool blocks at once and interleaves their deltas,
// each ended by its own content_block_stop (and one stopped twice, as
// LiteLLM has sent it), yields each call whole, once.
func TestInterleavedToolBlocks(t *testing.T) {
	open := func(i int, id string) string {
		return ev("content_block_start", fmt.Sprintf(`{"type":"content_block_start","index":%d,"content_block":{"type":"tool_use","id":%q,"name":"lookup","input":{}}}`, i, id))
	}
	part := func(i int, s string) string {
		b, _ := json.Marshal(s)
		return ev("content_block_delta", fmt.Sprintf(`{"type":"content_block_delta","index":%d,"delta":{"type":"input_json_delta","partial_json":%s}}`, i, b))
	}
	stopBlock := func(i int) string {
		return ev("content_block_stop", fmt.Sprintf(`{"type":"content_block_stop","index":%d}`, i))
	}
	body := open(0, "toolu_a") + open(1, "toolu_b") + part(0, `{"q":`) + part(1, `{"q":`) + part(1, `"pg"}`) + part(0, `"redis"}`) +
		stopBlock(1) + stopBlock(0) + stopBlock(0)
	r, err := ask(rawServer(t, sse(start+body+delta("tool_use")+stopEv)))
	if err != nil || len(r.ToolCalls) != 2 {
		t.Fatalf("%+v %v", r, err)
	}
	got := map[string]string{}
	for _, c := range r.ToolCalls {
		got[c.ID] = string(c.Args)
	}
	if got["toolu_a"] != `{"q":"redis"}` || got["toolu_b"] != `{"q":"pg"}` {
		t.Errorf("calls %v", got)
	}
}
