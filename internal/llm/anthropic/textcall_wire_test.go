package anthropic_test

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"strings"
	"testing"

	"github.com/parleyhq/parley/internal/llm"
	"github.com/parleyhq/parley/internal/llm/anthropic"
	"github.com/parleyhq/parley/internal/llm/fakellm"
	"github.com/parleyhq/parley/internal/llm/llmtest"
	"github.com/parleyhq/parley/internal/llm/script"
)

func textCallRequest() llm.Request {
	return llm.Request{Model: "qwen", Tag: "t", MaxTokens: 100,
		Tools: []llm.ToolSpec{
			{Name: "xbrl_facts", Schema: json.RawMessage(`{"type":"object"}`)},
			{Name: "web_search", Schema: json.RawMessage(`{"type":"object"}`)},
		},
		Messages: []llm.Message{{Role: llm.RoleUser, Text: "What was Apple's revenue in 2023?"}}}
}

// An Anthropic-compatible server in front of a model it has no tool-call
// parser for (vLLM's /v1/messages, a proxy) sends the model's calls in
// text blocks, in the model's format: they are read as calls, once
// logged, and none of their text is the answer.
func TestToolCallsInTextAreRead(t *testing.T) {
	for _, form := range []fakellm.ToolTextForm{fakellm.ToolTextHermes, fakellm.ToolTextPythonTag, fakellm.ToolTextLlamaJSON, fakellm.ToolTextJSON, fakellm.ToolTextMistral,
		fakellm.ToolTextFunctionTag, fakellm.ToolTextPythonic, fakellm.ToolTextFence, fakellm.ToolTextLlama4} {
		t.Run(fmt.Sprint(form), func(t *testing.T) {
			sc := script.MustNew(script.Rule{Reply: &script.Reply{ToolCalls: []script.ToolCall{
				{Name: "xbrl_facts", Args: json.RawMessage(`{"cik": "0000320193"}`)},
				{Name: "web_search", Args: json.RawMessage(`{"q": "Apple revenue 2023"}`)},
			}}})
			srv := fakellm.Start(sc, fakellm.WithToolCallsInText(form))
			defer srv.Close()
			var logs llmtest.Logs
			p, err := anthropic.New(anthropic.Config{APIKey: "k", BaseURL: srv.AnthropicURL(), Logger: logs.Logger()})
			if err != nil {
				t.Fatal(err)
			}
			for call := range 2 {
				r, err := llm.Collect(p.Stream(context.Background(), textCallRequest()))
				if err != nil {
					t.Fatal(err)
				}
				if r.Text != "" || r.StopReason != llm.StopToolUse || len(r.ToolCalls) != 2 ||
					r.ToolCalls[0].Name != "xbrl_facts" || r.ToolCalls[1].Name != "web_search" || r.ToolCalls[0].ID == r.ToolCalls[1].ID {
					t.Fatalf("call %d: %+v", call, r)
				}
			}
			if n := logs.Count("WARN", "read as tool calls", "model=qwen"); n != 1 {
				t.Errorf("%d lines, want 1: %q", n, logs.Lines())
			}
		})
	}
}

// Answers about JSON and tools pass unchanged; a call that cannot be read
// exactly fails as a bad request naming the fix.
func TestToolCallsInTextFalsePositivesAndGarbled(t *testing.T) {
	for text, garbled := range map[string]bool{
		`The xbrl_facts tool gives {"name": "Revenues"}; web_search found the 10-K.`: false,
		`{"verdict": "pro"}`: false,
		`<tool_call>{"name": "web_search", "arguments": ["Apple"]}</tool_call>`: true,
	} {
		srv := fakellm.Start(script.MustNew(script.Rule{Reply: &script.Reply{Text: text}}))
		p, err := anthropic.New(anthropic.Config{APIKey: "k", BaseURL: srv.AnthropicURL()})
		if err != nil {
			t.Fatal(err)
		}
		r, err := llm.Collect(p.Stream(context.Background(), textCallRequest()))
		srv.Close()
		var e *llm.Error
		switch {
		case garbled && (!errors.As(err, &e) || e.Kind != llm.ErrBadRequest || !strings.Contains(err.Error(), "--tool-call-parser")):
			t.Errorf("%q: %+v %v", text, r, err)
		case !garbled && (err != nil || r.Text != text || len(r.ToolCalls) != 0):
			t.Errorf("%q: %+v %v", text, r, err)
		}
	}
}
