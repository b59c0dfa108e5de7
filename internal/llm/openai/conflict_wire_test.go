package openai_test

import (
	"context"
	"errors"
	"testing"

	"github.com/parleyhq/parley/internal/llm"
	"github.com/parleyhq/parley/internal/llm/anthropic"
	"github.com/parleyhq/parley/internal/llm/fakellm"
	"github.com/parleyhq/parley/internal/llm/openai"
	"github.com/parleyhq/parley/internal/llm/script"
)

// A 409 is a request that met a lock on the server's side, which the
// official SDKs retry: it is retried, not failed as a request to fix.
func TestConflictIsRetried(t *testing.T) {
	srv := fakellm.Start(script.MustNew(script.Rule{Reply: &script.Reply{Fault: &script.Fault{Status: 409, Message: "Another request is being processed for this conversation."}}}))
	defer srv.Close()
	o, err := openai.New(openai.Config{BaseURL: srv.OpenAIURL()})
	if err != nil {
		t.Fatal(err)
	}
	a, err := anthropic.New(anthropic.Config{APIKey: "k", BaseURL: srv.AnthropicURL()})
	if err != nil {
		t.Fatal(err)
	}
	for _, p := range []llm.Provider{o, a} {
		_, err := llm.Collect(p.Stream(context.Background(), limited("m")))
		var e *llm.Error
		if !errors.As(err, &e) || e.StatusCode != 409 || !e.Retryable() {
			t.Errorf("%s: %v, want a retryable 409", p.Name(), err)
		}
	}
}
