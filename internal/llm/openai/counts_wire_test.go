package openai_test

import (
	"testing"

	"github.com/parleyhq/parley/internal/llm"
)

// Counts no call can have (below 0, or past any context window) are
// unknown, not read: a negative count lowered the usage and the cost the
// budgets hold, and a count near the largest int made their sums
// overflow. The reply itself stands.
func TestCountsNoCallCanHave(t *testing.T) {
	for name, u := range map[string]string{
		"negative prompt tokens":     `{"prompt_tokens":-500,"completion_tokens":2,"total_tokens":-498}`,
		"negative completion tokens": `{"prompt_tokens":11,"completion_tokens":-2,"total_tokens":9}`,
		"negative cached tokens":     `{"prompt_tokens":11,"completion_tokens":2,"total_tokens":13,"prompt_tokens_details":{"cached_tokens":-40}}`,
		"past any context window":    `{"prompt_tokens":5000000000,"completion_tokens":2,"total_tokens":5000000002}`,
		"past the largest int":       `{"prompt_tokens":1e30,"completion_tokens":99999999999999999999,"total_tokens":5}`,
	} {
		t.Run(name, func(t *testing.T) {
			r, err := ask(rawServer(t, sse(chunk(c1)+chunk(c2)+chunk(stop)+chunk(`{"choices":[],"usage":`+u+`}`)+done)))
			if err != nil || r.Text != "Hello" || r.Usage != (llm.Usage{Unreported: true}) {
				t.Fatalf("got %+v, %v; want the reply with its counts unknown", r, err)
			}
		})
	}
}
