package openai_test

import (
	"errors"
	"net/http"
	"strings"
	"testing"

	"github.com/parleyhq/parley/internal/llm"
)

// What less well-behaved OpenAI-compatible servers (vLLM, llama.cpp,
// Ollama, LM Studio, LiteLLM) send that the other tests do not script:
// each ends in the whole reply, byte for byte.
func TestCompatibleStreams(t *testing.T) {
	long := strings.Repeat("a", 1<<20+100)
	cases := []struct{ name, body, want string }{
		{"a first chunk with the role alone", chunk(`{"choices":[{"index":0,"delta":{"role":"assistant"},"finish_reason":null}]}`) + chunk(c1) + chunk(c2) + chunk(stop) + done, "Hello"},
		{"content null in the first chunk, absent in the last", chunk(`{"choices":[{"index":0,"delta":{"role":"assistant","content":null}}]}`) + chunk(c1) + chunk(c2) +
			chunk(`{"choices":[{"index":0,"finish_reason":"stop"}]}`) + done, "Hello"},
		{"usage only in the last chunk, empty choices, no [DONE]", chunk(c1) + chunk(c2) + chunk(stop) + chunk(use), "Hello"},
		// The provider hands model output on as it came; the runner makes
		// it storable (NUL dropped, bytes not UTF-8 replaced) and the
		// front-ends escape it when they show it.
		{"NUL, escape and C1 control sequences", chunk(`{"choices":[{"index":0,"delta":{"content":"Hel\u0000\u001b[2J\u009b31m"}}]}`) + chunk(c2) + chunk(stop) + done,
			"Hel\x00\x1b[2J\u009b31mlo"},
		{"bytes that are not UTF-8", chunk("{\"choices\":[{\"index\":0,\"delta\":{\"content\":\"Hel\xff\xfe\"}}]}") + chunk(c2) + chunk(stop) + done, "Hel\xff\xfelo"},
		{"a lone surrogate escape", chunk(`{"choices":[{"index":0,"delta":{"content":"Hel\ud800"}}]}`) + chunk(c2) + chunk(stop) + done, "Hel\uFFFDlo"},
		{"a content line over 1 MB", chunk(`{"choices":[{"index":0,"delta":{"content":"`+long+`"}}]}`) + chunk(stop) + done, long},
		{"a comment line over 1 MB", ": " + long + "\n\n" + chunk(c1) + chunk(c2) + chunk(stop) + done, "Hello"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			r, err := ask(rawServer(t, sse(c.body)))
			if err != nil || r.Text != c.want || r.StopReason != llm.StopEnd {
				t.Errorf("got %.80q %s, %v; want %.80q end", r.Text, r.StopReason, err, c.want)
			}
		})
	}
}

// What such servers send instead of a reply ends in a clear error, typed
// for the runner's retries.
func TestCompatibleFailures(t *testing.T) {
	cases := []struct {
		name string
		h    http.HandlerFunc
		kind llm.ErrorKind
		want string
	}{
		{"a JSON error with status 200", func(w http.ResponseWriter, r *http.Request) {
			w.Header().Set("Content-Type", "application/json")
			_, _ = w.Write([]byte(`{"error":{"message":"model overloaded","type":"server_error","code":503}}`))
		}, llm.ErrOverloaded, "model overloaded"},
		{"an HTML 502 page", func(w http.ResponseWriter, r *http.Request) {
			w.Header().Set("Content-Type", "text/html")
			w.WriteHeader(http.StatusBadGateway)
			_, _ = w.Write([]byte("<html><body><h1>502 Bad Gateway</h1>\x1b[2J</body></html>"))
		}, llm.ErrServer, "502"},
		{"an error object after text", sse(chunk(c1) + chunk(`{"error":{"message":"CUDA out of memory","type":"InternalServerError","code":500}}`)), llm.ErrServer, "CUDA out of memory"},
		{"a line that is not JSON", sse(chunk(c1) + chunk(`Internal Server Error`) + chunk(c2) + chunk(stop) + done), llm.ErrMalformed, "invalid JSON in a stream chunk"},
		{"control bytes raw in a JSON string", sse(chunk("{\"choices\":[{\"index\":0,\"delta\":{\"content\":\"Hel\x1b[2J\"}}]}") + chunk(stop) + done), llm.ErrMalformed, "invalid JSON in a stream chunk"},
		// The server's fault, not a stream cut on the way (see
		// apierr.NoContent).
		{"an empty body", sse(""), llm.ErrServer, "answered 200 OK with an empty body"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			r, err := ask(rawServer(t, c.h))
			var e *llm.Error
			if !errors.As(err, &e) || e.Kind != c.kind || !strings.Contains(err.Error(), c.want) || strings.Contains(err.Error(), "\x1b") {
				t.Errorf("got %+v, %v; want a %s error saying %q, without control characters", r, err, c.kind, c.want)
			}
		})
	}
}

// A stream line longer than any reply (apierr.MaxLine), or a body that
// never ends its line, fails as too large, not retried: the server is
// broken, and asked again it sends the same. Parley does not hold it.
func TestLineTooLarge(t *testing.T) {
	huge := strings.Repeat("a", 17<<20)
	for name, h := range map[string]http.HandlerFunc{
		"a content line": sse(chunk(c1) + chunk(`{"choices":[{"index":0,"delta":{"content":"`+huge+`"}}]}`) + chunk(stop) + done),
		"a comment line": sse(chunk(c1) + ": " + huge + "\n\n" + chunk(stop) + done),
		"no line end": func(w http.ResponseWriter, r *http.Request) {
			w.Header().Set("Content-Type", "text/event-stream")
			_, _ = w.Write([]byte("data: " + huge))
		},
		"a reply sent whole": func(w http.ResponseWriter, r *http.Request) {
			w.Header().Set("Content-Type", "application/json")
			_, _ = w.Write([]byte(`{"id":"x","object":"chat.completion","choices":[{"index":0,"message":{"role":"assistant","content":"` + huge + `"},"finish_reason":"stop"}]}`))
		},
	} {
		r, err := ask(rawServer(t, h))
		var e *llm.Error
		if !errors.As(err, &e) || e.Kind != llm.ErrTooLarge || e.Retryable() || !strings.Contains(err.Error(), "16 MB") {
			t.Errorf("%s: got %d bytes, %v; want a too_large error, not retried", name, len(r.Text), err)
		}
	}
}
