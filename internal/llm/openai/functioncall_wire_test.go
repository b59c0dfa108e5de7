package openai_test

import (
	"context"
	"encoding/json"
	"testing"

	"github.com/parleyhq/parley/internal/llm"
	"github.com/parleyhq/parley/internal/llm/fakellm"
	"github.com/parleyhq/parley/internal/llm/openai"
	"github.com/parleyhq/parley/internal/llm/script"
)

// A server from before tool_calls sends a call in the deprecated
// function_call delta, with finish_reason "function_call": the call is
// read, with an ID of its own. It was dropped, and the reply ended for a
// tool call it did not hold.
func TestLegacyFunctionCall(t *testing.T) {
	args := json.RawMessage(`{"query":"acme margins","limit":3}`)
	srv := fakellm.Start(script.MustNew(script.Rule{Reply: &script.Reply{ToolCalls: []script.ToolCall{{Name: "lookup", Args: args}}}}),
		fakellm.WithFunctionCall())
	defer srv.Close()
	p, err := openai.New(openai.Config{BaseURL: srv.OpenAIURL()})
	if err != nil {
		t.Fatal(err)
	}
	req := limited("m")
	req.Tools = []llm.ToolSpec{{Name: "lookup", Schema: json.RawMessage(`{"type":"object"}`)}}
	r, err := llm.Collect(p.Stream(context.Background(), req))
	if err != nil || r.StopReason != llm.StopToolUse || len(r.ToolCalls) != 1 {
		t.Fatalf("%+v %v, want one tool call", r, err)
	}
	if c := r.ToolCalls[0]; c.Name != "lookup" || string(c.Args) != string(args) || c.ID == "" {
		t.Errorf("call %+v, want lookup %s with an ID", c, args)
	}
}
