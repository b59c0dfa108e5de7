package anthropic_test

import (
	"context"
	"encoding/json"
	"errors"
	"strings"
	"testing"

	"github.com/parleyhq/parley/internal/llm"
	"github.com/parleyhq/parley/internal/llm/anthropic"
	"github.com/parleyhq/parley/internal/llm/fakellm"
	"github.com/parleyhq/parley/internal/llm/script"
)

// An Anthropic-compatible server in front of a reasoning model without a
// reasoning parser (vLLM's /v1/messages, LiteLLM) sends the model's
// thinking in its text blocks, inside <think> tags: it is dropped, as the
// OpenAI provider drops it from content. A model that opens the block
// itself is put right at once; one whose template opened it in the prompt
// fails its first reply, retryably, and is put right from then on.
func TestThinkInText(t *testing.T) {
	doc := `{"verdict":"bull"}`
	call := script.ToolCall{ID: "toolu_1", Name: "lookup", Args: json.RawMessage(`{"q":"x"}`)}
	s := script.MustNew(
		script.Rule{Tag: "tool", Reply: &script.Reply{ToolCalls: []script.ToolCall{call}}},
		script.Rule{Tag: "json", Reply: &script.Reply{JSON: json.RawMessage(doc)}},
		script.Rule{Reply: &script.Reply{Text: "The answer is 42."}},
	)
	ask := func(p llm.Provider, tag string) (llm.Reply, error) {
		req := llm.Request{Model: "qwen3", Tag: tag, Messages: []llm.Message{{Role: llm.RoleUser, Text: "What is it?"}}}
		if tag == "json" {
			req.Schema = &llm.Schema{Name: "verdict", JSON: json.RawMessage(`{"type":"object"}`)}
		}
		if tag == "tool" {
			req.Tools = []llm.ToolSpec{{Name: "lookup", Schema: json.RawMessage(`{"type":"object"}`)}}
		}
		return llm.Collect(p.Stream(context.Background(), req))
	}
	for _, form := range []fakellm.ThinkForm{fakellm.ThinkOpen, fakellm.ThinkOrphan} {
		srv := fakellm.Start(s, fakellm.WithAPIKey("k"), fakellm.WithThinkInText(form))
		defer srv.Close()
		p, err := anthropic.New(anthropic.Config{APIKey: "k", BaseURL: srv.AnthropicURL()})
		if err != nil {
			t.Fatal(err)
		}
		if form == fakellm.ThinkOrphan {
			r, err := ask(p, "t")
			var e *llm.Error
			if !errors.As(err, &e) || !e.Retryable() || !strings.Contains(err.Error(), "--reasoning-parser") {
				t.Fatalf("orphan, first reply %q, %v: want a retryable error saying what to change", r.Text, err)
			}
		}
		for i := range 2 {
			if r, err := ask(p, "t"); err != nil || r.Text != "The answer is 42." || r.StopReason != llm.StopEnd || r.Usage.OutputTokens == 0 {
				t.Errorf("form %d, call %d: %+v %v", form, i+1, r, err)
			}
		}
		if r, err := ask(p, "json"); err != nil || r.Text != doc {
			t.Errorf("form %d, structured: %q %v", form, r.Text, err)
		}
		if r, err := ask(p, "tool"); err != nil || strings.TrimSpace(r.Text) != "" || len(r.ToolCalls) != 1 || r.StopReason != llm.StopToolUse {
			t.Errorf("form %d, tool call: %+v %v", form, r, err)
		}
		if r, err := ask(p, "t"); err != nil || r.Text != "The answer is 42." {
			t.Errorf("form %d, after a tool call: %q %v", form, r.Text, err)
		}
	}
}

// A compatible server whose reasoning parser found no end of reasoning
// sends the whole answer in thinking blocks and no text: that is the
// reply, rather than nothing. Cut at the limit, it is reasoning cut
// short, and not the answer; a reply with text keeps only the text.
func TestAnswerOnlyInThinking(t *testing.T) {
	only := ev("content_block_start", `{"type":"content_block_start","index":0,"content_block":{"type":"thinking","thinking":"","signature":""}}`) +
		ev("content_block_delta", `{"type":"content_block_delta","index":0,"delta":{"type":"thinking_delta","thinking":"{\"verdict\":"}}`) +
		ev("content_block_delta", `{"type":"content_block_delta","index":0,"delta":{"type":"thinking_delta","thinking":" \"bull\"}"}}`) +
		ev("content_block_stop", `{"type":"content_block_stop","index":0}`)
	if r, err := ask(rawServer(t, sse(start+only+delta("end_turn")+stopEv))); err != nil || r.Text != `{"verdict": "bull"}` || r.StopReason != llm.StopEnd {
		t.Errorf("thinking only: %+v %v", r, err)
	}
	if r, err := ask(rawServer(t, sse(start+only+delta("max_tokens")+stopEv))); err != nil || r.Text != "" || r.StopReason != llm.StopMaxTokens {
		t.Errorf("cut: %+v %v", r, err)
	}
	if r, err := ask(rawServer(t, sse(start+only+text+delta("end_turn")+stopEv))); err != nil || r.Text != "Hello" {
		t.Errorf("with text: %+v %v", r, err)
	}
}

// A compatible server's reply that ends normally inside the <think> block
// it opened has no answer: the call fails retryably rather than yield an
// empty turn.
func TestUnclosedThink(t *testing.T) {
	block := func(s string) string {
		b, _ := json.Marshal(s)
		return ev("content_block_start", `{"type":"content_block_start","index":0,"content_block":{"type":"text","text":""}}`) +
			ev("content_block_delta", `{"type":"content_block_delta","index":0,"delta":{"type":"text_delta","text":`+string(b)+`}}`) +
			ev("content_block_stop", `{"type":"content_block_stop","index":0}`)
	}
	r, err := ask(rawServer(t, sse(start+block("<think>The user asks about caches.")+delta("end_turn")+stopEv)))
	var e *llm.Error
	if !errors.As(err, &e) || e.Kind != llm.ErrMalformed || !strings.Contains(err.Error(), "<think>") {
		t.Fatalf("unclosed, ended: %+v %v; want a retryable error saying the reply has no answer", r, err)
	}
	if r, err := ask(rawServer(t, sse(start+block("<think>The user asks")+delta("max_tokens")+stopEv))); err != nil || r.StopReason != llm.StopMaxTokens {
		t.Errorf("unclosed, cut: %+v %v", r, err)
	}
	if r, err := ask(rawServer(t, sse(start+block("<think>hmm</think>Hello")+delta("end_turn")+stopEv))); err != nil || r.Text != "Hello" {
		t.Errorf("closed: %+v %v", r, err)
	}
}
