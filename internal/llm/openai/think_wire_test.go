package openai_test

import (
	"context"
	"encoding/json"
	"errors"
	"strings"
	"testing"

	"github.com/parleyhq/parley/internal/llm"
	"github.com/parleyhq/parley/internal/llm/fakellm"
	"github.com/parleyhq/parley/internal/llm/openai"
	"github.com/parleyhq/parley/internal/llm/script"
)

// vLLM without --reasoning-parser, as the fake server sends it: a reply
// whose block the model opens is put right at once; one whose template
// opened it fails once, retryably, and is put right from then on.
func TestThinkInTextFake(t *testing.T) {
	for _, form := range []fakellm.ThinkForm{fakellm.ThinkOpen, fakellm.ThinkOrphan} {
		srv := fakellm.Start(script.MustNew(script.Rule{Reply: &script.Reply{Text: "The answer is 42."}}), fakellm.WithThinkInText(form))
		defer srv.Close()
		p, err := openai.New(openai.Config{Name: "vllm", BaseURL: srv.OpenAIURL()})
		if err != nil {
			t.Fatal(err)
		}
		if form == fakellm.ThinkOrphan {
			r, err := ask(p)
			var e *llm.Error
			if !errors.As(err, &e) || !e.Retryable() || !strings.Contains(err.Error(), "--reasoning-parser") {
				t.Fatalf("orphan, first reply %q, %v", r.Text, err)
			}
		}
		for i := range 2 {
			if r, err := llm.Collect(p.Stream(context.Background(), limited("m"))); err != nil || r.Text != "The answer is 42." {
				t.Errorf("form %d, call %d: %q %v", form, i+1, r.Text, err)
			}
		}
	}
}

// A reply that ends normally inside the <think> block it opened has
// reasoning and no answer: taken as the answer it was an empty turn. The
// call fails retryably, saying so; cut at the limit it is a cut reply, and
// a block that closes, or one in the middle of an answer, is as it was.
func TestUnclosedThink(t *testing.T) {
	content := func(s string) string {
		b, _ := json.Marshal(s)
		return chunk(`{"id":"c","object":"chat.completion.chunk","model":"m","choices":[{"index":0,"delta":{"content":` + string(b) + `},"finish_reason":null}]}`)
	}
	finish := func(reason string) string {
		return chunk(`{"id":"c","object":"chat.completion.chunk","model":"m","choices":[{"index":0,"delta":{},"finish_reason":"`+reason+`"}]}`) + done
	}
	r, err := ask(rawServer(t, sse(content("<think>The user asks")+content(" about caches. Redis is")+finish("stop"))))
	var e *llm.Error
	if !errors.As(err, &e) || e.Kind != llm.ErrMalformed || !strings.Contains(err.Error(), "<think>") {
		t.Fatalf("unclosed, ended: %+v %v; want a retryable error saying the reply has no answer", r, err)
	}
	if r, err := ask(rawServer(t, sse(content("<think>The user asks")+finish("length")))); err != nil || r.StopReason != llm.StopMaxTokens || r.Text != "" {
		t.Errorf("unclosed, cut: %+v %v", r, err)
	}
	if r, err := ask(rawServer(t, sse(content("<think>hmm</thi")+content("nk>Redis.")+finish("stop")))); err != nil || r.Text != "Redis." {
		t.Errorf("closed: %+v %v", r, err)
	}
	if r, err := ask(rawServer(t, sse(content("Redis. <think>aside")+finish("stop")))); err != nil || r.Text != "Redis. <think>aside" {
		t.Errorf("in the middle: %+v %v", r, err)
	}
}
