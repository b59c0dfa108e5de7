package anthropic_test

import (
	"errors"
	"strings"
	"testing"

	"github.com/parleyhq/parley/internal/llm"
)

// An event whose data is not valid JSON (control bytes raw inside a
// string, which an encoder that does not escape them writes; a line of
// text; an event cut short) fails saying so, on one line, and is asked
// once more rather than as often as a network fault: the server wrote it
// so, and writes it again at the next such character.
func TestInvalidJSONInAnEvent(t *testing.T) {
	open := ev("content_block_start", `{"type":"content_block_start","index":0,"content_block":{"type":"text","text":""}}`)
	cases := []struct {
		name, data string
		hint       string // what the error says of the cause
	}{
		{"SOH raw in a string", "{\"type\":\"content_block_delta\",\"index\":0,\"delta\":{\"type\":\"text_delta\",\"text\":\"l\x01o\"}}", "control character left unescaped"},
		{"escape sequence raw in a string", "{\"type\":\"content_block_delta\",\"index\":0,\"delta\":{\"type\":\"text_delta\",\"text\":\"l\x1b[2Jo\"}}", "control character left unescaped"},
		{"tab raw in a string", "{\"type\":\"content_block_delta\",\"index\":0,\"delta\":{\"type\":\"text_delta\",\"text\":\"l\to\"}}", "control character left unescaped"},
		{"an event cut short", `{"type":"content_block_delta","index":0,"delta":{"type":"text_delta","text":"lo`, "ends inside a string"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			r, err := ask(rawServer(t, sse(start+open+ev("content_block_delta", c.data)+delta("end_turn")+stopEv)))
			var e *llm.Error
			if !errors.As(err, &e) || e.Kind != llm.ErrMalformed || !e.Retryable() || e.Tries != 2 {
				t.Fatalf("got %+v, %v; want a malformed error asked once more", r, err)
			}
			msg := err.Error()
			if !strings.Contains(msg, "the server sent invalid JSON in a stream chunk") || strings.ContainsAny(msg, "\x01\x1b\t\n") {
				t.Errorf("error %q does not name the cause on one clean line", msg)
			}
			if !strings.Contains(msg, c.hint) {
				t.Errorf("error %q does not say %q", msg, c.hint)
			}
		})
	}
}
