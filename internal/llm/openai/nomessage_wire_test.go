package openai_test

import (
	"net/http"
	"strings"
	"testing"
)

// An error without a message, in the stream or as the response, says that
// the server gave no reason, with the type and code it sent; it quoted
// "{}" or the error's JSON, as if the server's words were lost.
func TestErrorWithoutAMessage(t *testing.T) {
	cases := []struct {
		name string
		h    http.HandlerFunc
		want string
	}{
		{"empty error object in the stream", sse(chunk(c1) + chunk(`{"error":{}}`)), "error event in stream: the server gave no reason"},
		{"null message and a code", sse(chunk(c1) + chunk(`{"error":{"message":null,"code":503}}`)), "the server gave no reason (code 503)"},
		{"empty string", sse(chunk(c1) + chunk(`{"error":""}`)), "error event in stream: the server gave no reason"},
		{"an event named error with {}", sse(chunk(c1) + "event: error\ndata: {}\n\n"), "error event in stream: the server gave no reason"},
		{"a 400 with a type alone", func(w http.ResponseWriter, r *http.Request) {
			w.WriteHeader(400)
			_, _ = w.Write([]byte(`{"error":{"type":"invalid_request_error"}}`))
		}, "(HTTP 400): Bad Request"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			_, err := ask(rawServer(t, c.h))
			if err == nil || !strings.HasSuffix(err.Error(), c.want) || strings.Contains(err.Error(), "{") {
				t.Errorf("%v, want one ending %q", err, c.want)
			}
		})
	}
}
