package openai_test

import (
	"context"
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
