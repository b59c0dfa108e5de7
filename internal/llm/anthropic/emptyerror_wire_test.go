package anthropic_test

import (
	"errors"
	"fmt"
	"net/http"
	"strings"
	"testing"

	"github.com/parleyhq/parley/internal/llm"
)

// A 529 (or another status of no standard's) with an empty body says that
// the server gave no reason, rather than end in "(HTTP 529): " as if its
// words were lost.
func TestErrorStatusWithoutABody(t *testing.T) {
	for _, c := range []struct {
		status int
		kind   llm.ErrorKind
	}{{529, llm.ErrOverloaded}, {520, llm.ErrServer}} {
		p := rawServer(t, func(w http.ResponseWriter, r *http.Request) { w.WriteHeader(c.status) })
		_, err := ask(p)
		var e *llm.Error
		if !errors.As(err, &e) || e.Kind != c.kind || !e.Retryable() || !strings.HasSuffix(err.Error(), fmt.Sprintf("(HTTP %d): the server gave no reason", c.status)) {
			t.Errorf("HTTP %d: %v, want a retryable %s error saying the server gave no reason", c.status, err, c.kind)
		}
	}
}
