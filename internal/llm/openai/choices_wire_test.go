package openai_test

import (
	"strings"
	"testing"

	"github.com/parleyhq/parley/internal/llm"
)

// The reply is one choice, whatever index the server gives it: index 0
// from the API and the servers that copy it, another from some that
// number their only choice otherwise (read at index 0 alone, their reply
// was empty). A server that sends several choices though one was asked
// for sends others of the same prompt, which are not mixed into it.
func TestChoiceIndexes(t *testing.T) {
	at := func(s string, i string) string { return strings.Replace(s, `"index":0`, `"index":`+i, 1) }
	cases := []struct{ name, body string }{
		{"only choice at index 1", chunk(at(c1, "1")) + chunk(at(c2, "1")) + chunk(at(stop, "1")) + chunk(use) + done},
		{"only choice at index 1, no [DONE]", chunk(at(c1, "1")) + chunk(at(c2, "1")) + chunk(at(stop, "1")) + chunk(use)},
		{"no index at all", chunk(`{"choices":[{"delta":{"role":"assistant","content":"Hel"}}]}`) +
			chunk(`{"choices":[{"delta":{"content":"lo"},"finish_reason":"stop"}]}`) + chunk(use) + done},
		{"two choices in every chunk, index 1 first", chunk(`{"choices":[{"index":1,"delta":{"content":"Bye"}},{"index":0,"delta":{"content":"Hel"}}]}`) +
			chunk(`{"choices":[{"index":0,"delta":{"content":"lo"}},{"index":1,"delta":{"content":" now"}}]}`) +
			chunk(`{"choices":[{"index":1,"delta":{},"finish_reason":"length"},{"index":0,"delta":{},"finish_reason":"stop"}]}`) + chunk(use) + done},
		{"the other choice's chunks apart, after", chunk(c1) + chunk(`{"choices":[{"index":1,"delta":{"content":"Bye"}}]}`) + chunk(c2) +
			chunk(`{"choices":[{"index":1,"delta":{},"finish_reason":"length"}]}`) + chunk(stop) + chunk(use) + done},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			r, err := ask(rawServer(t, sse(c.body)))
			if err != nil || r.Text != "Hello" || r.StopReason != llm.StopEnd {
				t.Errorf("got %q %s, %v; want \"Hello\" end", r.Text, r.StopReason, err)
			}
		})
	}
}
