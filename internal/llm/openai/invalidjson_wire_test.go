package openai_test

import (
	"errors"
	"strings"
	"testing"

	"github.com/parleyhq/parley/internal/llm"
)

// A chunk that is not valid JSON (control bytes raw inside a string, which
// an encoder that does not escape them writes; a line of text; a chunk cut
// short) fails saying so, on one line, and is asked once more rather than
// as often as a network fault: the server wrote it so, and writes it again
// at the next such character.
func TestInvalidJSONInAChunk(t *testing.T) {
	cases := []struct {
		name, body string
		hint       string // what the error says of the cause
	}{
		{"SOH raw in a string", "{\"choices\":[{\"index\":0,\"delta\":{\"content\":\"l\x01o\"}}]}", "control character left unescaped"},
		{"escape sequence raw in a string", "{\"choices\":[{\"index\":0,\"delta\":{\"content\":\"l\x1b[2Jo\"}}]}", "control character left unescaped"},
		{"tab raw in a string", "{\"choices\":[{\"index\":0,\"delta\":{\"content\":\"l\to\"}}]}", "control character left unescaped"},
		{"a line of text", "Internal Server Error", "looking for beginning of value"},
		{"a chunk cut short", `{"choices":[{"index":0,"delta":{"content":"lo`, "ends inside a string"},
		// JSON, but no chunk: not said to be invalid JSON.
		{"a list", `[]`, "the server sent a stream chunk that is JSON but not the API's object"},
		{"a string", `"hi"`, "the server sent a stream chunk that is JSON but not the API's object"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			r, err := ask(rawServer(t, sse(chunk(c1)+chunk(c.body)+chunk(stop)+chunk(use)+done)))
			var e *llm.Error
			if !errors.As(err, &e) || e.Kind != llm.ErrMalformed || !e.Retryable() || e.Tries != 2 {
				t.Fatalf("got %+v, %v; want a malformed error asked once more", r, err)
			}
			msg := err.Error()
			if !strings.Contains(msg, "the server sent ") || !strings.Contains(msg, " stream chunk") || strings.ContainsAny(msg, "\x01\x1b\t\n") {
				t.Errorf("error %q does not name the cause on one clean line", msg)
			}
			if !strings.Contains(c.hint, "JSON but not") && !strings.Contains(msg, "the server sent invalid JSON in a stream chunk") {
				t.Errorf("error %q does not say the chunk is invalid JSON", msg)
			}
			if !strings.Contains(msg, c.hint) {
				t.Errorf("error %q does not say %q", msg, c.hint)
			}
		})
	}
}
