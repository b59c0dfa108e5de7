package openai_test

import (
	"errors"
	"net/http"
	"strings"
	"testing"

	"github.com/parleyhq/parley/internal/llm"
)

// A proxy that answers with text and a 200 ("upstream request timeout")
// sent no events: the reply looked cut and its words were lost. The call
// fails retryably, saying what the server sent.
func TestTextWithOK(t *testing.T) {
	for _, ct := range []string{"text/plain", "text/event-stream"} {
		r, err := ask(rawServer(t, func(w http.ResponseWriter, r *http.Request) {
			w.Header().Set("Content-Type", ct)
			_, _ = w.Write([]byte("upstream request timeout\n"))
		}))
		var e *llm.Error
		if !errors.As(err, &e) || !e.Retryable() || e.Provider != "vllm" || !strings.Contains(err.Error(), "upstream request timeout") {
			t.Errorf("%s: got %+v, %v; want a retryable error quoting the text", ct, r, err)
		}
	}
	// Streams that open with a comment, a field or blank lines are read.
	for _, open := range []string{": OPENROUTER PROCESSING\n\n", "\n\n", "id: 1\n", "retry: 100\n\n"} {
		if r, err := ask(rawServer(t, sse(open+chunk(c1)+chunk(c2)+chunk(stop)+done))); err != nil || r.Text != "Hello" {
			t.Errorf("%q: %+v %v", open, r, err)
		}
	}
}
