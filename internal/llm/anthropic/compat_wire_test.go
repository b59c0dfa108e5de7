package anthropic_test

import (
	"errors"
	"net/http"
	"strings"
	"testing"

	"github.com/parleyhq/parley/internal/llm"
)

// What Anthropic-compatible servers and proxies send that the other tests
// do not script, and what a newer API may: each ends in the whole reply,
// byte for byte.
func TestCompatibleStreams(t *testing.T) {
	block := func(s string) string {
		return ev("content_block_start", `{"type":"content_block_start","index":0,"content_block":{"type":"text","text":""}}`) +
			ev("content_block_delta", `{"type":"content_block_delta","index":0,"delta":{"type":"text_delta","text":"`+s+`"}}`) +
			ev("content_block_stop", `{"type":"content_block_stop","index":0}`)
	}
	long := strings.Repeat("a", 1<<20+100)
	noUsage := ev("message_start", `{"type":"message_start","message":{"id":"msg_1","type":"message","role":"assistant","model":"claude-x","content":[],"stop_reason":null}}`)
	cases := []struct{ name, body, want string }{
		{"an event type the SDK does not know", start + ev("content_block_pause", `{"type":"content_block_pause","index":1}`) + text + delta("end_turn") + stopEv, "Hello"},
		{"a block type and a delta type it does not know", start +
			ev("content_block_start", `{"type":"content_block_start","index":0,"content_block":{"type":"future_block","data":"x"}}`) +
			ev("content_block_delta", `{"type":"content_block_delta","index":0,"delta":{"type":"future_delta","data":"x"}}`) +
			ev("content_block_stop", `{"type":"content_block_stop","index":0}`) + text + delta("end_turn") + stopEv, "Hello"},
		{"message_start without usage, pings", noUsage + ping + text + ping + delta("end_turn") + ping + stopEv, "Hello"},
		{"no message_start at all", text + delta("end_turn") + stopEv, "Hello"},
		// The provider hands model output on as it came; the runner makes
		// it storable (NUL dropped, bytes not UTF-8 replaced) and the
		// front-ends escape it when they show it.
		{"NUL, escape and C1 control sequences", start + block(`Hel\u0000\u001b[2J\u009b31m`) + delta("end_turn") + stopEv, "Hel\x00\x1b[2J\u009b31m"},
		{"bytes that are not UTF-8", start + block("Hel\xff\xfe") + delta("end_turn") + stopEv, "Hel\xff\xfe"},
		{"a text line over 1 MB", start + block(long) + delta("end_turn") + stopEv, long},
		{"a comment line over 1 MB", start + ": " + long + "\n\n" + text + delta("end_turn") + stopEv, "Hello"},
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

// An error event mid-stream, or an error page instead of the stream, ends
// in a clear error typed for the runner's retries: overloaded is retried.
func TestCompatibleFailures(t *testing.T) {
	overloaded := `{"type":"error","error":{"type":"overloaded_error","message":"Overloaded"}}`
	cases := []struct {
		name string
		h    http.HandlerFunc
		kind llm.ErrorKind
		want string
	}{
		{"overloaded_error mid-stream, without its event line", sse(start + text + "data: " + overloaded + "\n\n"), llm.ErrOverloaded, "Overloaded"},
		// After the stop_reason the reply is whole: see
		// TestFailureAfterTheStopReason.
		{"overloaded_error with status 200", func(w http.ResponseWriter, r *http.Request) {
			w.Header().Set("Content-Type", "application/json")
			_, _ = w.Write([]byte(overloaded))
		}, llm.ErrOverloaded, "Overloaded"},
		{"an HTML 502 page", func(w http.ResponseWriter, r *http.Request) {
			w.Header().Set("Content-Type", "text/html")
			w.WriteHeader(http.StatusBadGateway)
			_, _ = w.Write([]byte("<html><body><h1>502 Bad Gateway</h1>\x1b[2J</body></html>"))
		}, llm.ErrServer, "502"},
		{"pings alone", sse(ping + ping), llm.ErrNetwork, "ended before the reply was complete"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			r, err := ask(rawServer(t, c.h))
			var e *llm.Error
			if !errors.As(err, &e) || e.Kind != c.kind || !e.Retryable() || !strings.Contains(err.Error(), c.want) || strings.Contains(err.Error(), "\x1b") {
				t.Errorf("got %+v, %v; want a retryable %s error saying %q, without control characters", r, err, c.kind, c.want)
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
		"a text line":    sse(start + ev("content_block_delta", `{"type":"content_block_delta","index":1,"delta":{"type":"text_delta","text":"`+huge+`"}}`) + delta("end_turn") + stopEv),
		"a comment line": sse(start + ": " + huge + "\n\n" + text + delta("end_turn") + stopEv),
		"no line end": func(w http.ResponseWriter, r *http.Request) {
			w.Header().Set("Content-Type", "text/event-stream")
			_, _ = w.Write([]byte(start + "data: " + huge))
		},
	} {
		r, err := ask(rawServer(t, h))
		var e *llm.Error
		if !errors.As(err, &e) || e.Kind != llm.ErrTooLarge || e.Retryable() || !strings.Contains(err.Error(), "16 MB") {
			t.Errorf("%s: got %d bytes, %v; want a too_large error, not retried", name, len(r.Text), err)
		}
	}
}
