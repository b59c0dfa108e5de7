package openai_test

import (
	"testing"
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

// A byte order mark at the start of any line, not only of the body (a
// proxy that writes each event with one), is dropped: the SDK read the
// line as a field named "\uFEFFdata", and the event's text was lost.
func TestByteOrderMarkOnEachLine(t *testing.T) {
	r, err := ask(rawServer(t, sse("\ufeff"+chunk(c1)+"\ufeff"+chunk(c2)+"\ufeff"+chunk(stop)+chunk(use)+done)))
	if err != nil || r.Text != "Hello" {
		t.Fatalf("got %q, %v; want \"Hello\"", r.Text, err)
	}
}
