package openai_test

import (
	"errors"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/parleyhq/parley/internal/llm"
)

// A "data: [DONE]" before the end of the reply (chunks of it come after
// it, the finish_reason with them) fails as malformed, asked once more:
// the SDK stops reading at [DONE], and the text before it stood as the
// whole reply. What comes after the [DONE] of a reply that had its
// finish_reason is not read; nor is a usage chunk, or nothing, after a
// [DONE] without one (servers that send null in every chunk).
func TestDoneBeforeTheEnd(t *testing.T) {
	for name, h := range map[string]http.HandlerFunc{
		"at once": sse(chunk(c1) + done + chunk(c2) + chunk(stop) + chunk(use) + done),
		"the rest later": func(w http.ResponseWriter, req *http.Request) {
			sse(chunk(c1)+done)(w, req)
			time.Sleep(100 * time.Millisecond)
			sse(chunk(c2)+chunk(stop)+chunk(use)+done)(w, req)
		},
	} {
		r, err := ask(rawServer(t, h))
		var e *llm.Error
		if !errors.As(err, &e) || e.Kind != llm.ErrMalformed || e.Tries != 2 || !strings.Contains(err.Error(), "[DONE] before the end of its reply") {
			t.Errorf("%s: got %q, %v; want a malformed reply", name, r.Text, err)
		}
	}
	for name, body := range map[string]string{
		"after the finish":     chunk(c1) + chunk(c2) + chunk(stop) + done + chunk(`{"choices":[{"index":0,"delta":{"content":"!"}}]}`) + done,
		"no finish, nothing":   chunk(c1) + chunk(c2) + done,
		"no finish, the usage": chunk(c1) + chunk(c2) + done + chunk(use),
	} {
		r, err := ask(rawServer(t, sse(body)))
		if err != nil || r.Text != "Hello" {
			t.Errorf("%s: %q, %v; want \"Hello\"", name, r.Text, err)
		}
	}
	// A body held open after a [DONE] without a finish_reason is given
	// its 2 s, not the call's deadline.
	began := time.Now()
	r, err := ask(rawServer(t, func(w http.ResponseWriter, req *http.Request) {
		sse(chunk(c1)+chunk(c2)+done)(w, req)
		<-req.Context().Done()
	}))
	if err != nil || r.Text != "Hello" || time.Since(began) > 10*time.Second {
		t.Errorf("held open: %q, %v after %v", r.Text, err, time.Since(began))
	}
}
