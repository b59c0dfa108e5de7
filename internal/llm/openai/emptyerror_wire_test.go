package openai_test

import (
	"errors"
	"net/http"
	"strings"
	"testing"

	"github.com/parleyhq/parley/internal/llm"
)

// An error status of no standard's (Anthropic's 529, Groq's 498,
// Cloudflare's 520) with an empty body says that the server gave no
// reason, rather than end in "(HTTP 529): " as if its words were lost.
func TestErrorStatusWithoutABody(t *testing.T) {
	for _, c := range []struct {
		status int
		kind   llm.ErrorKind
	}{{529, llm.ErrOverloaded}, {498, llm.ErrOverloaded}, {520, llm.ErrServer}, {503, llm.ErrOverloaded}} {
		p := rawServer(t, func(w http.ResponseWriter, r *http.Request) { w.WriteHeader(c.status) })
		_, err := ask(p)
		var e *llm.Error
		if !errors.As(err, &e) || e.Kind != c.kind || !e.Retryable() || strings.HasSuffix(err.Error(), ": ") ||
			!strings.Contains(err.Error(), map[bool]string{true: http.StatusText(c.status), false: "the server gave no reason"}[http.StatusText(c.status) != ""]) {
			t.Errorf("HTTP %d: %v, want a retryable %s error that says why or that the server did not", c.status, err, c.kind)
		}
	}
}
