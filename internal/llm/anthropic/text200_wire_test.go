package anthropic_test

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
	r, err := ask(rawServer(t, func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "text/plain")
		_, _ = w.Write([]byte("upstream request timeout"))
	}))
	var e *llm.Error
	if !errors.As(err, &e) || !e.Retryable() || e.Provider != "anthropic" || !strings.Contains(err.Error(), "upstream request timeout") {
		t.Fatalf("got %+v, %v; want a retryable error quoting the text", r, err)
	}
	if r, err := ask(rawServer(t, sse(": keep-alive\n\n"+start+text+delta("end_turn")+stopEv))); err != nil || r.Text != "Hello" {
		t.Errorf("comment first: %+v %v", r, err)
	}
}
