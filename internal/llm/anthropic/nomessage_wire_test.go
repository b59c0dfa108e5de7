package anthropic_test

import (
	"net/http"
	"strings"
	"testing"
)

// An error without a message, in the stream or as the response, says that
// the server gave no reason, with the type it sent; it ended in "error
// event in stream: ", or quoted "{}" or the error's JSON, as if the
// server's words were lost.
func TestErrorWithoutAMessage(t *testing.T) {
	cases := []struct {
		name string
		h    http.HandlerFunc
		want string
	}{
		{"overloaded_error without a message", sse(start + text + ev("error", `{"type":"error","error":{"type":"overloaded_error"}}`)), "error event in stream: the server gave no reason (type overloaded_error)"},
		{"an empty error", sse(start + text + ev("error", `{"type":"error","error":{}}`)), "error event in stream: the server gave no reason"},
		{"data {}", sse(start + text + ev("error", `{}`)), "error event in stream: the server gave no reason"},
		{"no data", sse(start + text + "event: error\ndata: \n\n"), "error event in stream: the server gave no reason"},
		{"a 400 with a type alone", func(w http.ResponseWriter, r *http.Request) {
			w.WriteHeader(400)
			_, _ = w.Write([]byte(`{"type":"error","error":{"type":"invalid_request_error"}}`))
		}, "the server gave no reason (type invalid_request_error)"},
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

// An error body whose JSON says why in a field of its own (FastAPI's
// validation list, from a compatible server) is still quoted, not said
// to give no reason.
func TestErrorBodyWithItsOwnFields(t *testing.T) {
	_, err := ask(rawServer(t, func(w http.ResponseWriter, r *http.Request) {
		w.WriteHeader(422)
		_, _ = w.Write([]byte(`{"detail":[{"loc":["body","output_config"],"msg":"Extra inputs are not permitted","type":"extra_forbidden"}]}`))
	}))
	if err == nil || !strings.Contains(err.Error(), "Extra inputs are not permitted") {
		t.Errorf("%v, want the server's words quoted", err)
	}
}
