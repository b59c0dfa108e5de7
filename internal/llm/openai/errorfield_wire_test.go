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

// llama.cpp's server sends an error inside a stream on an "error:" line,
// which the SDK ignores: the error is read, and classified, as the data
// event other servers send, rather than the stream taken for cut.
func TestErrorField(t *testing.T) {
	srv := fakellm.Start(script.MustNew(
		script.Rule{Tag: "long", Reply: &script.Reply{Text: "Hello there", Fault: &script.Fault{Stream: "error", After: 1, Status: 400,
			Type: "exceed_context_size_error", Message: "the request exceeds the available context size, try increasing it"}}},
		script.Rule{Tag: "boom", Reply: &script.Reply{Text: "Hello there", Fault: &script.Fault{Stream: "error", After: 1, Status: 500, Message: "llama_decode failed"}}},
	), fakellm.WithErrorField())
	defer srv.Close()
	p, err := openai.New(openai.Config{Name: "llamacpp", BaseURL: srv.OpenAIURL()})
	if err != nil {
		t.Fatal(err)
	}
	for tag, want := range map[string]struct {
		kind llm.ErrorKind
		text []string
	}{
		"long": {llm.ErrBadRequest, []string{"exceeds the available context size", "context window"}},
		"boom": {llm.ErrServer, []string{"llama_decode failed"}},
	} {
		req := limited("qwen3")
		req.Tag = tag
		_, err := llm.Collect(p.Stream(context.Background(), req))
		var e *llm.Error
		if !errors.As(err, &e) || e.Kind != want.kind {
			t.Errorf("%s: %v, want %s", tag, err, want.kind)
			continue
		}
		for _, s := range want.text {
			if !strings.Contains(err.Error(), s) {
				t.Errorf("%s: %q does not say %q", tag, err, s)
			}
		}
	}
	// Not JSON: its text is the message.
	r, err := ask(rawServer(t, sse(chunk(c1)+"error: model crashed\n\n")))
	if !llm.IsRetryable(err) || !strings.Contains(err.Error(), "model crashed") {
		t.Errorf("text error: %+v %v", r, err)
	}
}
