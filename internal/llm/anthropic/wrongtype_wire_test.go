package anthropic_test

import (
	"errors"
	"net/http"
	"strings"
	"testing"

	"github.com/parleyhq/parley/internal/llm"
)

// A text block's text (in its content_block_start, a text_delta, or a
// Message sent whole) of another JSON type than a string fails the call
// as malformed, naming the field and the type, asked once more: the SDK
// read it as its raw JSON, which was passed on as the model's words
// ("text": {"x": "B"} became the answer {"x":"B"}, "text": 42 the answer
// 42).
func TestTextOfAnotherType(t *testing.T) {
	block := ev("content_block_start", `{"type":"content_block_start","index":0,"content_block":{"type":"text","text":""}}`)
	textDelta := func(v string) string {
		return ev("content_block_delta", `{"type":"content_block_delta","index":0,"delta":{"type":"text_delta","text":`+v+`}}`)
	}
	end := ev("content_block_stop", `{"type":"content_block_stop","index":0}`) + delta("end_turn") + stopEv
	whole := func(v string) http.HandlerFunc {
		return func(w http.ResponseWriter, r *http.Request) {
			w.Header().Set("Content-Type", "application/json")
			_, _ = w.Write([]byte(`{"type":"message","role":"assistant","content":[{"type":"text","text":` + v +
				`}],"stop_reason":"end_turn","usage":{"input_tokens":3,"output_tokens":1}}`))
		}
	}
	for name, tc := range map[string]struct {
		h          http.HandlerFunc
		field, typ string
	}{
		"delta text object": {sse(start + block + textDelta(`"A"`) + textDelta(`{"x":"B"}`) + end), `"delta.text"`, "an object"},
		"delta text number": {sse(start + block + textDelta(`"A"`) + textDelta(`42`) + end), `"delta.text"`, "a number"},
		"delta text list":   {sse(start + block + textDelta(`["B"]`) + end), `"delta.text"`, "a list"},
		"block text object": {sse(start + ev("content_block_start", `{"type":"content_block_start","index":0,"content_block":{"type":"text","text":{"a":1}}}`) + textDelta(`"A"`) + end), `"content_block.text"`, "an object"},
		"stop_reason object": {sse(start + block + textDelta(`"A"`) + ev("content_block_stop", `{"type":"content_block_stop","index":0}`) +
			ev("message_delta", `{"type":"message_delta","delta":{"stop_reason":{"why":"end_turn"}},"usage":{"output_tokens":3}}`) + stopEv), `"delta.stop_reason"`, "an object"},
		"whole text object": {whole(`{"a":"b"}`), `"delta.text"`, "an object"},
		"whole text number": {whole(`42`), `"delta.text"`, "a number"},
	} {
		t.Run(name, func(t *testing.T) {
			r, err := ask(rawServer(t, tc.h))
			var e *llm.Error
			if !errors.As(err, &e) || e.Kind != llm.ErrMalformed || e.Tries != 2 {
				t.Fatalf("got %q, %v; want a malformed event, asked once more", r.Text, err)
			}
			if msg := err.Error(); !strings.Contains(msg, tc.field) || !strings.Contains(msg, " is "+tc.typ+", not ") {
				t.Errorf("error %q does not name the field %s and its type (%s)", msg, tc.field, tc.typ)
			}
		})
	}
	if r, err := ask(rawServer(t, sse(start+block+textDelta(`"A"`)+textDelta(`null`)+end))); err != nil || r.Text != "A" {
		t.Errorf("a null text: %q, %v; want the reply", r.Text, err)
	}
}

// A Message sent whole whose content is a string is read as one text
// block, as the API reads a request's; one whose content is of another
// type fails saying so. Both were reported as "an error event" quoting the
// whole body.
func TestWholeMessageContentShapes(t *testing.T) {
	whole := func(content string) http.HandlerFunc {
		return func(w http.ResponseWriter, r *http.Request) {
			w.Header().Set("Content-Type", "application/json")
			_, _ = w.Write([]byte(`{"type":"message","role":"assistant","content":` + content + `,"stop_reason":"end_turn","usage":{"input_tokens":3,"output_tokens":1}}`))
		}
	}
	if r, err := ask(rawServer(t, whole(`"Hello"`))); err != nil || r.Text != "Hello" || r.StopReason != llm.StopEnd {
		t.Errorf("content a string: %q, %v; want the reply", r.Text, err)
	}
	_, err := ask(rawServer(t, whole(`{"text":"Hello"}`)))
	if err == nil || !strings.Contains(err.Error(), "message whose content is an object, not a list of content blocks") {
		t.Errorf("content an object: %v; want an error saying so", err)
	}
}
