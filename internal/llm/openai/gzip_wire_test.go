package openai_test

import (
	"bytes"
	"compress/gzip"
	"errors"
	"net/http"
	"strings"
	"testing"

	"github.com/parleyhq/parley/internal/llm"
)

// A reply labelled Content-Encoding: gzip that is not gzip (a proxy that
// labels what it passes on wrongly) fails as malformed, saying so, and is
// asked once more; it failed as a network fault, "gzip: invalid header",
// retried as often as one. A gzip stream is read as any other.
func TestContentEncodingThatIsNot(t *testing.T) {
	body := chunk(c1) + chunk(c2) + chunk(stop) + chunk(use) + done
	var zipped bytes.Buffer
	zw := gzip.NewWriter(&zipped)
	_, _ = zw.Write([]byte(body))
	_ = zw.Close()
	corrupt := append(append([]byte{}, zipped.Bytes()[:10]...), bytes.Repeat([]byte{0xff}, 64)...)
	serve := func(b []byte) http.HandlerFunc {
		return func(w http.ResponseWriter, r *http.Request) {
			w.Header().Set("Content-Type", "text/event-stream")
			w.Header().Set("Content-Encoding", "gzip")
			_, _ = w.Write(b)
		}
	}
	if r, err := ask(rawServer(t, serve(zipped.Bytes()))); err != nil || r.Text != "Hello" {
		t.Fatalf("gzip: %+v, %v; want the reply", r, err)
	}
	for name, b := range map[string][]byte{"not gzip": []byte(body), "corrupt gzip": corrupt} {
		r, err := ask(rawServer(t, serve(b)))
		var e *llm.Error
		if !errors.As(err, &e) || e.Kind != llm.ErrMalformed || e.Tries != 2 || !strings.Contains(err.Error(), "Content-Encoding") {
			t.Errorf("%s: %+v, %v; want a malformed reply naming Content-Encoding", name, r, err)
		}
	}
}
