package anthropic_test

import (
	"testing"

	"github.com/parleyhq/parley/internal/llm"
	"github.com/parleyhq/parley/internal/llm/anthropic"
	"github.com/parleyhq/parley/internal/llm/fakellm"
	"github.com/parleyhq/parley/internal/llm/script"
)

// A reply that filled the context window (stop_reason
// model_context_window_exceeded) is incomplete, and says it stopped at
// the window rather than at max_tokens: a higher max_tokens would not
// help, and the runner does not ask again with the cut reply in a prompt
// that no longer fits.
func TestContextWindowExceeded(t *testing.T) {
	srv := fakellm.Start(script.MustNew(script.Rule{Reply: &script.Reply{Text: "The answer is", StopReason: llm.StopContextWindow}}))
	defer srv.Close()
	p, err := anthropic.New(anthropic.Config{APIKey: "k", BaseURL: srv.AnthropicURL()})
	if err != nil {
		t.Fatal(err)
	}
	r, err := ask(p)
	if err != nil || r.Text != "The answer is" || r.StopReason != llm.StopContextWindow || !llm.Incomplete(r.StopReason) {
		t.Fatalf("%+v %v, want the text cut at the context window", r, err)
	}
}
