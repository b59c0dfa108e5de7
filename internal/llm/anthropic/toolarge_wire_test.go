package anthropic_test

import (
	"context"
	"errors"
	"strings"
	"testing"

	"github.com/parleyhq/parley/internal/llm"
	"github.com/parleyhq/parley/internal/llm/anthropic"
	"github.com/parleyhq/parley/internal/llm/fakellm"
	"github.com/parleyhq/parley/internal/llm/openai"
	"github.com/parleyhq/parley/internal/llm/script"
)

// A 413 says the request's body is larger than the server, or a proxy in
// front of it, takes: it fails at once, saying what to change, rather
// than with the status text alone.
func TestRequestTooLarge(t *testing.T) {
	srv := fakellm.Start(script.MustNew(script.Rule{Reply: &script.Reply{Fault: &script.Fault{Status: 413, Message: "Request exceeds the maximum allowed number of bytes."}}}))
	defer srv.Close()
	a, err := anthropic.New(anthropic.Config{APIKey: "k", BaseURL: srv.AnthropicURL()})
	if err != nil {
		t.Fatal(err)
	}
	o, err := openai.New(openai.Config{BaseURL: srv.OpenAIURL()})
	if err != nil {
		t.Fatal(err)
	}
	for _, p := range []llm.Provider{a, o} {
		_, err := llm.Collect(p.Stream(context.Background(), llm.Request{Model: "m", Messages: []llm.Message{{Role: llm.RoleUser, Text: "hi"}}}))
		var e *llm.Error
		if !errors.As(err, &e) || e.Kind != llm.ErrBadRequest || e.Retryable() {
			t.Fatalf("%s: %v, want a bad request", p.Name(), err)
		}
		for _, want := range []string{"maximum allowed number of bytes", "--context", "client_max_body_size"} {
			if !strings.Contains(err.Error(), want) {
				t.Errorf("%s: %q does not say %q", p.Name(), err, want)
			}
		}
	}
}
