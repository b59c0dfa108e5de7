package anthropic_test

import (
	"context"
	"testing"

	"github.com/parleyhq/parley/internal/llm"
	"github.com/parleyhq/parley/internal/llm/anthropic"
	"github.com/parleyhq/parley/internal/llm/fakellm"
	"github.com/parleyhq/parley/internal/llm/script"
)

// The SSE spec lets a server end lines with "\r\n" or a lone "\r" as
// well as "\n": each stream is read whole and the same.
func TestLineEnds(t *testing.T) {
	for _, eol := range []string{"\r\n", "\r"} {
		srv := fakellm.Start(script.MustNew(script.Rule{Reply: &script.Reply{Text: "Hello there, friend"}}), fakellm.WithAPIKey("k"), fakellm.WithLineEnd(eol))
		defer srv.Close()
		p, err := anthropic.New(anthropic.Config{APIKey: "k", BaseURL: srv.AnthropicURL()})
		if err != nil {
			t.Fatal(err)
		}
		r, err := llm.Collect(p.Stream(context.Background(), llm.Request{Model: "claude-x", Tag: "t", Messages: []llm.Message{{Role: llm.RoleUser, Text: "hi"}}}))
		if err != nil || r.Text != "Hello there, friend" || r.StopReason != llm.StopEnd || r.Usage.Unreported || r.Usage.InputTokens == 0 {
			t.Errorf("%q: %+v %v", eol, r, err)
		}
	}
}
