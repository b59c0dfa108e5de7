package anthropic_test

import (
	"context"
	"net/http"
	"net/http/httptest"
	"sync/atomic"
	"testing"

	"github.com/parleyhq/parley/internal/llm"
	"github.com/parleyhq/parley/internal/llm/anthropic"
	"github.com/parleyhq/parley/internal/llm/fakellm"
	"github.com/parleyhq/parley/internal/llm/llmtest"
	"github.com/parleyhq/parley/internal/llm/script"
)

// The API's input_tokens leaves the cached tokens out; a compatible server
// that counts them in it too would have them counted twice. Counts with
// input_tokens below the cached tokens can only mean the API's reading;
// counts that fit both are read the API's way, and that is said once per
// model, so that a doubled cost is not silent.
func TestCacheCountsThatFitBothReadings(t *testing.T) {
	msgStart := func(input, read, write string) string {
		return ev("message_start", `{"type":"message_start","message":{"id":"msg_1","type":"message","role":"assistant","model":"m","content":[],"stop_reason":null,"usage":{"input_tokens":`+input+`,"cache_read_input_tokens":`+read+`,"cache_creation_input_tokens":`+write+`,"output_tokens":1}}}`)
	}
	end := ev("message_delta", `{"type":"message_delta","delta":{"stop_reason":"end_turn"},"usage":{"output_tokens":7}}`) + stopEv
	bodies := map[string]string{
		"both":  msgStart("1200", "1000", "0") + text + end, // a prompt of 1200 with 1000 cached, or of 2200
		"apart": msgStart("30", "1000", "200") + text + end, // only the API's reading: 30 new tokens
		"none":  msgStart("1200", "0", "0") + text + end,
	}
	var (
		logs llmtest.Logs
		body atomic.Value // what the server sends next
	)
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) { sse(body.Load().(string))(w, r) }))
	t.Cleanup(srv.Close)
	p, err := anthropic.New(anthropic.Config{APIKey: "k", BaseURL: srv.URL, Logger: logs.Logger()})
	if err != nil {
		t.Fatal(err)
	}
	call := func(model, sent string, want llm.Usage) {
		t.Helper()
		body.Store(sent)
		r, err := llm.Collect(p.Stream(context.Background(), llm.Request{Model: model, Messages: []llm.Message{{Role: llm.RoleUser, Text: "hi"}}}))
		if err != nil || r.Usage != want {
			t.Fatalf("%s: %+v %v, want usage %+v", model, r, err, want)
		}
	}
	both := llm.Usage{InputTokens: 1200, CacheReadTokens: 1000, OutputTokens: 7}
	call("model-a", bodies["none"], llm.Usage{InputTokens: 1200, OutputTokens: 7})
	call("model-a", bodies["both"], both)
	call("model-a", bodies["both"], both)
	// A model whose server showed the API's reading is not warned about.
	call("model-b", bodies["apart"], llm.Usage{InputTokens: 30, CacheReadTokens: 1000, CacheWriteTokens: 200, OutputTokens: 7})
	call("model-b", bodies["both"], both)
	if n := logs.Count("WARN", "input_tokens", "counted twice", "model=model-a", "input_tokens=1200", "cache_read_input_tokens=1000"); n != 1 || len(logs.Lines()) != 1 {
		t.Errorf("logged %q, want one warning for model-a", logs.Lines())
	}
}

// Counts that are all 0 (a gateway's /v1/messages that never fills them
// in, as one-api's relays do) are unknown, as counts never sent are, not
// a free call; the same reply with real counts keeps them.
func TestZeroCountsAreUnreported(t *testing.T) {
	call := func(t *testing.T, opts ...fakellm.Option) llm.Usage {
		srv := fakellm.Start(script.MustNew(script.Rule{Reply: &script.Reply{Text: "Redis, for its speed."}}), opts...)
		defer srv.Close()
		p, err := anthropic.New(anthropic.Config{APIKey: "k", BaseURL: srv.AnthropicURL()})
		if err != nil {
			t.Fatal(err)
		}
		r, err := llm.Collect(p.Stream(context.Background(), llm.Request{Model: "claude-x", Messages: []llm.Message{{Role: llm.RoleUser, Text: "Which cache?"}}}))
		if err != nil || r.Text != "Redis, for its speed." {
			t.Fatalf("%+v %v", r, err)
		}
		return r.Usage
	}
	for name, opts := range map[string][]fakellm.Option{
		"streamed":   {fakellm.WithUsageShape(fakellm.UsageZeros)},
		"sent whole": {fakellm.WithUsageShape(fakellm.UsageZeros), fakellm.WithoutStreaming()},
	} {
		if got := call(t, opts...); got != (llm.Usage{Unreported: true}) {
			t.Errorf("%s: %+v, want the counts unknown", name, got)
		}
	}
	if got := call(t); got.Unreported || got.InputTokens == 0 || got.OutputTokens == 0 {
		t.Errorf("real counts: %+v", got)
	}
}
