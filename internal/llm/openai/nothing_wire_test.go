package openai_test

import (
	"errors"
	"strings"
	"testing"

	"github.com/parleyhq/parley/internal/llm"
)

// A stream that ends with "data: [DONE]" and nothing before it that a
// reply is made of, not even a finish_reason (what proxies send when the
// server behind them failed), is no reply: it fails retryably rather than
// stand as an empty answer. An empty reply the model ended, with its
// finish_reason, is read as ever.
func TestDoneWithoutAnyReply(t *testing.T) {
	for name, body := range map[string]string{
		"[DONE] alone":                   done,
		"a role, then [DONE]":            chunk(`{"choices":[{"index":0,"delta":{"role":"assistant","content":""}}]}`) + done,
		"counts, then [DONE]":            chunk(use) + done,
		"null content and keep-alives":   ": ping\n\n" + chunk(`{"choices":[{"index":0,"delta":{"role":"assistant","content":null},"finish_reason":null}]}`) + ": ping\n\n" + chunk(use) + done,
		"Azure's filter results, [DONE]": chunk(`{"choices":[],"prompt_filter_results":[{"prompt_index":0,"content_filter_results":{}}]}`) + done,
	} {
		r, err := ask(rawServer(t, sse(body)))
		var e *llm.Error
		if !errors.As(err, &e) || !e.Retryable() || !strings.Contains(err.Error(), "without any reply") {
			t.Errorf("%s: got %+v, %v; want a retryable error saying no reply came", name, r, err)
		}
	}
	for name, body := range map[string]string{
		"an empty reply the model ended": chunk(`{"choices":[{"index":0,"delta":{"role":"assistant","content":""}}]}`) + chunk(stop) + chunk(use) + done,
		"text without a finish_reason":   chunk(c1) + chunk(c2) + done,
	} {
		if _, err := ask(rawServer(t, sse(body))); err != nil {
			t.Errorf("%s: %v", name, err)
		}
	}
}
