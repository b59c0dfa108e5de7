package anthropic_test

import (
	"errors"
	"net/http"
	"strings"
	"testing"

	"github.com/parleyhq/parley/internal/llm"
)

// A reply labelled Content-Encoding: gzip that is not gzip (a proxy that
// labels what it passes on wrongly) fails as malformed, saying so, and is
// asked once more; it failed as a network fault, "gzip: invalid header",
// retried as often as one.
func TestContentEncodingThatIsNot(t *testing.T) {
	r, err := ask(rawServer(t, func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "text/event-stream")
		w.Header().Set("Content-Encoding", "gzip")
		_, _ = w.Write([]byte(start + text + delta("end_turn") + stopEv))
	}))
	var e *llm.Error
	if !errors.As(err, &e) || e.Kind != llm.ErrMalformed || e.Tries != 2 || !strings.Contains(err.Error(), "Content-Encoding") {
		t.Errorf("%+v, %v; want a malformed reply naming Content-Encoding", r, err)
	}
}
