package anthropic_test

import (
	"context"
	"encoding/json"
	"strings"
	"testing"
	"time"

	"github.com/parleyhq/parley/internal/llm"
	"github.com/parleyhq/parley/internal/llm/anthropic"
	"github.com/parleyhq/parley/internal/llm/fakellm"
	"github.com/parleyhq/parley/internal/llm/script"
)

// body decodes the recorded request body.
func body(t *testing.T, r fakellm.Request) map[string]any {
	t.Helper()
	var m map[string]any
	if err := json.Unmarshal(r.Body, &m); err != nil {
		t.Fatal(err)
	}
	return m
}

func TestRequestShape(t *testing.T) {
	srv := fakellm.Start(script.MustNew(script.Rule{Reply: &script.Reply{JSON: json.RawMessage(`{"ok":true}`)}}), fakellm.WithAPIKey("k"))
	defer srv.Close()
	temp := 0.3
	req := llm.Request{Model: "claude-sonnet-5-5", System: "sys", Temperature: &temp, Tag: "t",
		Messages: []llm.Message{{Role: llm.RoleUser, Text: "hi"}},
		Schema:   &llm.Schema{Name: "answer", JSON: json.RawMessage(`{"type":"object","properties":{"ok":{"type":"boolean"}},"required":["ok"]}`)}}

	for _, mode := range []anthropic.StructuredMode{anthropic.StructuredOutputFormat, anthropic.StructuredForcedTool} {
		p, err := anthropic.New(anthropic.Config{APIKey: "k", BaseURL: srv.AnthropicURL(), Structured: mode, MaxTokens: 1234})
		if err != nil {
			t.Fatal(err)
		}
		r, err := llm.Collect(p.Stream(context.Background(), req))
		if err != nil || r.Text != `{"ok":true}` {
			t.Fatalf("%s: %+v %v", mode, r, err)
		}
		reqs := srv.Requests()
		got := body(t, reqs[len(reqs)-1])
		if got["max_tokens"] != float64(1234) {
			t.Errorf("%s: max_tokens = %v, want the configured default", mode, got["max_tokens"])
		}
		if _, ok := got["temperature"]; ok {
			t.Errorf("%s: temperature sent; the 2026-10-21 API rejects sampling parameters", mode)
		}
		switch mode {
		case anthropic.StructuredOutputFormat:
			if _, ok := got["output_config"]; !ok || got["tool_choice"] != nil {
				t.Errorf("output_format mode: body %v", got)
			}
		case anthropic.StructuredForcedTool:
			tc, _ := got["tool_choice"].(map[string]any)
			if tc["type"] != "tool" || tc["name"] != "answer" {
				t.Errorf("forced_tool mode: tool_choice %v", got["tool_choice"])
			}
		}
		h := reqs[len(reqs)-1].Header
		// SDK v2 sends the key as a Bearer token (API version 2026-10-21).
		if h.Get("Authorization") != "Bearer k" || h.Get("Anthropic-Version") == "" || h.Get("X-Parley-Turn") != "t" {
			t.Errorf("%s: headers %v", mode, h)
		}
	}
}

func TestConfig(t *testing.T) {
	if _, err := anthropic.New(anthropic.Config{}); err == nil || !strings.Contains(err.Error(), "ANTHROPIC_API_KEY") {
		t.Errorf("no key: %v", err)
	}
	if _, err := anthropic.New(anthropic.Config{APIKey: "k", Structured: "json"}); err == nil {
		t.Error("bad structured mode accepted")
	}
	env := map[string]string{"ANTHROPIC_API_KEY": "key", "ANTHROPIC_BASE_URL": "http://x"}
	if c := anthropic.ConfigFromEnv(func(k string) string { return env[k] }); c.APIKey != "key" || c.BaseURL != "http://x" {
		t.Errorf("ConfigFromEnv = %+v", c)
	}
	p, _ := anthropic.New(anthropic.Config{APIKey: "k"})
	if _, err := llm.Collect(p.Stream(context.Background(), llm.Request{Model: "m"})); err == nil || llm.IsRetryable(err) || !strings.Contains(err.Error(), "no messages") {
		t.Errorf("empty request: %v", err)
	}
}

// BenchmarkStream measures a 200-word streamed reply through the SDK against
// the fake server, with and without per-event latency.
func BenchmarkStream(b *testing.B) {
	for _, d := range []time.Duration{0, 100 * time.Microsecond} {
		b.Run(d.String(), func(b *testing.B) {
			srv := fakellm.Start(script.MustNew(script.Rule{Reply: &script.Reply{Text: strings.Repeat("word ", 200)}}), fakellm.WithTokenDelay(d))
			defer srv.Close()
			p, err := anthropic.New(anthropic.Config{APIKey: "k", BaseURL: srv.AnthropicURL()})
			if err != nil {
				b.Fatal(err)
			}
			req := llm.Request{Model: "m", Messages: []llm.Message{{Role: llm.RoleUser, Text: "go"}}}
			b.ReportAllocs()
			for b.Loop() {
				if _, err := llm.Collect(p.Stream(context.Background(), req)); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}
