package openai_test

import (
	"errors"
	"net/http"
	"strings"
	"testing"

	"github.com/parleyhq/parley/internal/llm"
)

// A delta's content (or refusal, or a tool call's name) of another JSON
// type than a string fails the call as malformed, naming the field and
// the type, asked once more: the SDK read it as its raw JSON, which was
// passed on as the model's words ("content": {"text": "B"} became the
// answer {"text":"B"}, "content": 42 the answer 42). A reply sent whole
// with such a message.content is read the same.
func TestContentOfAnotherType(t *testing.T) {
	delta := func(d string) string {
		return chunk(`{"id":"c","object":"chat.completion.chunk","model":"m","choices":[{"index":0,"delta":` + d + `,"finish_reason":null}]}`)
	}
	streamed := func(d string) http.HandlerFunc { return sse(chunk(c1) + delta(d) + chunk(stop) + chunk(use) + done) }
	whole := func(msg string) http.HandlerFunc {
		return func(w http.ResponseWriter, r *http.Request) {
			w.Header().Set("Content-Type", "application/json")
			_, _ = w.Write([]byte(`{"id":"x","object":"chat.completion","model":"m","choices":[{"index":0,"message":` + msg +
				`,"finish_reason":"stop"}],"usage":{"prompt_tokens":3,"completion_tokens":1,"total_tokens":4}}`))
		}
	}
	for name, tc := range map[string]struct {
		h          http.HandlerFunc
		field, typ string
	}{
		"content object":         {streamed(`{"content":{"text":"B"}}`), `"content"`, "an object"},
		"content number":         {streamed(`{"content":42}`), `"content"`, "a number"},
		"content true":           {streamed(`{"content":true}`), `"content"`, "true or false"},
		"content list of text":   {streamed(`{"content":["B"]}`), `"content"`, "a list"},
		"part whose text is not": {streamed(`{"content":[{"type":"text","text":{"v":"B"}}]}`), `"content"`, "a list"},
		"refusal object":         {streamed(`{"refusal":{"why":"no"}}`), `"refusal"`, "an object"},
		"tool call name object":  {streamed(`{"tool_calls":[{"index":0,"id":"a","function":{"name":{"n":"f"},"arguments":"{}"}}]}`), `function.name"`, "an object"},
		"finish_reason number":   {sse(chunk(c1) + chunk(`{"choices":[{"index":0,"delta":{},"finish_reason":1}]}`) + chunk(use) + done), `"finish_reason"`, "a number"},
		"whole content object":   {whole(`{"role":"assistant","content":{"text":"B"}}`), `"content"`, "an object"},
		"whole content number":   {whole(`{"role":"assistant","content":42}`), `"content"`, "a number"},
	} {
		t.Run(name, func(t *testing.T) {
			r, err := ask(rawServer(t, tc.h))
			var e *llm.Error
			if !errors.As(err, &e) || e.Kind != llm.ErrMalformed || e.Tries != 2 {
				t.Fatalf("got %q, %v; want a malformed chunk, asked once more", r.Text, err)
			}
			if msg := err.Error(); !strings.Contains(msg, tc.field) || !strings.Contains(msg, " is "+tc.typ+", not ") {
				t.Errorf("error %q does not name the field %s and its type (%s)", msg, tc.field, tc.typ)
			}
		})
	}
	// A list of parts as Mistral sends it, and a null content, are read.
	for name, d := range map[string]string{
		"parts": `{"content":[{"type":"thinking","thinking":[{"type":"text","text":"hmm"}]},{"type":"text","text":"lo"}]}`,
		"null":  `{"content":null}`,
	} {
		r, err := ask(rawServer(t, sse(chunk(c1)+delta(d)+chunk(stop)+chunk(use)+done)))
		if want := map[string]string{"parts": "Hello", "null": "Hel"}[name]; err != nil || r.Text != want {
			t.Errorf("%s: %q, %v; want %q", name, r.Text, err, want)
		}
	}
}

// A delta's tool_calls of another type than a list (one call as an
// object) fails as malformed: the SDK read it as absent, and a reply
// that ended with "stop" stood without the call it made.
func TestToolCallsOfAnotherType(t *testing.T) {
	one := chunk(`{"id":"c","object":"chat.completion.chunk","model":"m","choices":[{"index":0,"delta":{"tool_calls":{"index":0,"id":"a","function":{"name":"f","arguments":"{}"}}},"finish_reason":null}]}`)
	r, err := ask(rawServer(t, sse(chunk(c1)+one+chunk(stop)+chunk(use)+done)))
	var e *llm.Error
	if !errors.As(err, &e) || e.Kind != llm.ErrMalformed || !strings.Contains(err.Error(), `"tool_calls"`) {
		t.Fatalf("got %q %+v, %v; want a malformed chunk naming tool_calls", r.Text, r.ToolCalls, err)
	}
}

// A tool call's arguments "null" (a model's for a tool without
// parameters) are no arguments, {}: a call's Args is an object, and
// "null" was passed on as it came.
func TestToolArgumentsNull(t *testing.T) {
	call := chunk(`{"id":"c","object":"chat.completion.chunk","model":"m","choices":[{"index":0,"delta":{"tool_calls":[{"index":0,"id":"a","function":{"name":"f","arguments":"null"}}]},"finish_reason":"tool_calls"}]}`)
	r, err := ask(rawServer(t, sse(call+chunk(use)+done)))
	if err != nil || len(r.ToolCalls) != 1 || string(r.ToolCalls[0].Args) != "{}" {
		t.Fatalf("got %+v, %v; want a call with {}", r.ToolCalls, err)
	}
}
