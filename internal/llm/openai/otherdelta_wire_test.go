package openai_test

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/parleyhq/parley/internal/llm"
)

// A chunk's choice with no delta but the reply in another field is read:
// a "message" (a server that streams chat.completion objects), whole or
// holding the text so far, or the legacy Completions API's "text". Passed
// over as a choice with no delta, its text was lost and the reply stood
// as empty.
func TestChoiceWithoutDelta(t *testing.T) {
	choice := func(c string) string {
		return chunk(`{"id":"c","object":"chat.completion.chunk","model":"m","choices":[` + c + `]}`)
	}
	for name, body := range map[string]string{
		"one whole message":     choice(`{"index":0,"message":{"role":"assistant","content":"Hello"},"finish_reason":"stop"}`) + chunk(use) + done,
		"messages, new text":    choice(`{"index":0,"message":{"role":"assistant","content":"Hel"}}`) + choice(`{"index":0,"message":{"content":"lo"}}`) + chunk(stop) + done,
		"messages, text so far": choice(`{"index":0,"message":{"role":"assistant","content":"Hel"}}`) + choice(`{"index":0,"message":{"content":"Hello"}}`) + chunk(stop) + done,
		"completions text":      choice(`{"index":0,"text":"Hel"}`) + choice(`{"index":0,"text":"lo","finish_reason":"stop"}`) + done,
	} {
		t.Run(name, func(t *testing.T) {
			r, err := ask(rawServer(t, sse(body)))
			if err != nil || r.Text != "Hello" {
				t.Fatalf("got %q, %v; want \"Hello\"", r.Text, err)
			}
		})
	}
	// A tool call in a message sent so is a call.
	r, err := ask(rawServer(t, sse(choice(`{"index":0,"message":{"role":"assistant","content":null,"tool_calls":[{"id":"call_1","type":"function","function":{"name":"search","arguments":"{\"q\":1}"}}]},"finish_reason":"tool_calls"}`)+done)))
	if err != nil || len(r.ToolCalls) != 1 || r.ToolCalls[0].Name != "search" || string(r.ToolCalls[0].Args) != `{"q":1}` {
		t.Errorf("tool call in a message: %+v, %v", r.ToolCalls, err)
	}
}

// Messages streamed in place of deltas hold new text or the whole text so
// far, and one alone does not say which: the reading is decided once per
// stream (see messageText). A model that repeats a word, each message
// starting with the one before, is not cut to one word, as when each
// message was read by prefix alone; a server that resends the text so far
// is read once, and passed on as it grows, not held to the end.
func TestMessagesSoFarOrNew(t *testing.T) {
	msg := func(content string) string {
		c, _ := json.Marshal(content)
		return chunk(`{"id":"c","object":"chat.completion.chunk","model":"m","choices":[{"index":0,"message":{"role":"assistant","content":` + string(c) + `}}]}`)
	}
	last := func(content string) string {
		c, _ := json.Marshal(content)
		return chunk(`{"id":"c","object":"chat.completion.chunk","model":"m","choices":[{"index":0,"message":{"role":"assistant","content":` + string(c) + `},"finish_reason":"stop"}]}`)
	}
	delta := func(content string) string {
		return chunk(`{"id":"c","object":"chat.completion.chunk","model":"m","choices":[{"index":0,"delta":{"content":"` + content + `"}}]}`)
	}
	soFar := func(words ...string) (body string) {
		for i := range words {
			body += msg(strings.Join(words[:i+1], ""))
		}
		return body
	}
	sentence := []string{"The quick ", "brown fox ", "jumps over ", "the lazy dog, ", "and then ", "the quick ", "brown fox ", "jumps again."}
	cases := []struct {
		name, body, want string
		passedEarly      bool // some text passed on before the reply's end
	}{
		{"a repeated word, new text", msg("ha") + msg("ha") + msg("ha") + chunk(stop) + done, "hahaha", false},
		{"a repeated word, the last with the finish", msg("no") + msg("no") + last("no") + done, "nonono", false},
		{"a repeated word, then a delta", msg("ha") + msg("ha") + delta("!") + chunk(stop) + done, "haha!", false},
		{"a repeated word, then other words", msg("no") + msg("no") + msg(" way") + msg("no") + chunk(stop) + done, "nono wayno", true},
		{"words, new text", msg("no") + msg(" no") + msg(" no") + chunk(stop) + done, "no no no", true},
		{"the text so far, short", msg("Hel") + msg("Hello") + chunk(stop) + done, "Hello", false},
		{"the text so far, sent again with the finish", msg("Hel") + msg("Hello") + last("Hello") + done, "Hello", false},
		{"the text so far, long", soFar(sentence...) + chunk(stop) + done, strings.Join(sentence, ""), true},
		{"the text so far, long, repeating itself", soFar(sentence...) + last(strings.Join(sentence, "")) + done, strings.Join(sentence, ""), true},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			deltas, r, err := collectChunks(rawServer(t, sse(c.body)), llm.Request{Model: "m", Tag: "t", Messages: []llm.Message{{Role: llm.RoleUser, Text: "hi"}}})
			if err != nil || r.Text != c.want {
				t.Fatalf("got %q, %v; want %q", r.Text, err, c.want)
			}
			if early := len(deltas) > 1; early != c.passedEarly {
				t.Errorf("text passed on in %d pieces %q; want it passed on before the end: %v", len(deltas), deltas, c.passedEarly)
			}
		})
	}
}

// A byte order mark at the start of any line, not only of the body (a
// proxy that writes each event with one), is dropped: the SDK read the
// line as a field named "\uFEFFdata", and the event's text was lost.
func TestByteOrderMarkOnEachLine(t *testing.T) {
	r, err := ask(rawServer(t, sse("\ufeff"+chunk(c1)+"\ufeff"+chunk(c2)+"\ufeff"+chunk(stop)+chunk(use)+done)))
	if err != nil || r.Text != "Hello" {
		t.Fatalf("got %q, %v; want \"Hello\"", r.Text, err)
	}
}
