package openai_test

import (
	"context"
	"strings"
	"testing"

	"github.com/parleyhq/parley/internal/llm"
	"github.com/parleyhq/parley/internal/llm/fakellm"
	"github.com/parleyhq/parley/internal/llm/openai"
	"github.com/parleyhq/parley/internal/llm/script"
)

// Servers that report token counts in their own fields are read as
// OpenAI's are: DeepSeek's cached tokens in prompt_cache_hit_tokens,
// Moonshot's counts inside the finish chunk's choice with its own
// cached_tokens, a Gemini model's thinking left out of completion_tokens.
// The cached prefix is counted (and so priced) as a cache read, not as
// input; the thinking as output; and the counts are known, not
// unreported.
func TestUsageShapes(t *testing.T) {
	// Two calls that share a long system prompt: the second reads it
	// from the server's (automatic) prompt cache.
	calls := func(t *testing.T, shape fakellm.UsageShape) []llm.Usage {
		srv := fakellm.Start(script.MustNew(script.Rule{Reply: &script.Reply{Text: "Redis, for its speed."}}), fakellm.WithUsageShape(shape))
		defer srv.Close()
		p, err := openai.New(openai.Config{Name: "deepseek", BaseURL: srv.OpenAIURL()})
		if err != nil {
			t.Fatal(err)
		}
		var out []llm.Usage
		for _, q := range []string{"Which cache?", "Which cache, again?"} {
			r, err := llm.Collect(p.Stream(context.Background(), llm.Request{Model: "deepseek-chat", System: strings.Repeat("You judge databases. ", 400),
				Messages: []llm.Message{{Role: llm.RoleUser, Text: q}}}))
			if err != nil {
				t.Fatal(err)
			}
			out = append(out, r.Usage)
		}
		return out
	}
	want := calls(t, fakellm.UsageOpenAI)
	if want[1].CacheReadTokens == 0 || want[1].Unreported {
		t.Fatalf("OpenAI's shape: %+v, want the second call's prefix read from the cache", want)
	}
	for name, shape := range map[string]fakellm.UsageShape{"DeepSeek": fakellm.UsageDeepSeek, "Moonshot": fakellm.UsageMoonshot, "Gemini": fakellm.UsageGemini} {
		t.Run(name, func(t *testing.T) {
			got := calls(t, shape)
			for i := range want {
				if got[i] != want[i] {
					t.Errorf("call %d: %+v, want %+v as OpenAI's shape gives", i+1, got[i], want[i])
				}
			}
		})
	}
}

// Counts with more cached tokens than prompt tokens cannot be OpenAI's, in
// which prompt_tokens holds the cached ones: a proxy in front of
// Anthropic's API passed its uncached input_tokens on as prompt_tokens.
// They are read so, rather than the input clamped to 0.
func TestPromptTokensWithoutTheCache(t *testing.T) {
	body := func(usage string) string {
		return chunk(c1) + chunk(c2) + chunk(stop) + chunk(`{"id":"c","object":"chat.completion.chunk","model":"m","choices":[],"usage":`+usage+`}`) + done
	}
	for name, c := range map[string]struct {
		usage string
		want  llm.Usage
	}{
		"cache apart":    {`{"prompt_tokens":40,"completion_tokens":2,"total_tokens":42,"prompt_tokens_details":{"cached_tokens":3000}}`, llm.Usage{InputTokens: 40, CacheReadTokens: 3000, OutputTokens: 2}},
		"OpenAI's":       {`{"prompt_tokens":3040,"completion_tokens":2,"total_tokens":3042,"prompt_tokens_details":{"cached_tokens":3000}}`, llm.Usage{InputTokens: 40, CacheReadTokens: 3000, OutputTokens: 2}},
		"all of it read": {`{"prompt_tokens":3000,"completion_tokens":2,"total_tokens":3002,"prompt_tokens_details":{"cached_tokens":3000}}`, llm.Usage{CacheReadTokens: 3000, OutputTokens: 2}},
	} {
		r, err := ask(rawServer(t, sse(body(c.usage))))
		if err != nil || r.Usage != c.want {
			t.Errorf("%s: %+v %v, want %+v", name, r.Usage, err, c.want)
		}
	}
}

// A usage object whose counts are all 0 (LocalAI's for a request with
// tools, one-api's for every stream it relays) was never filled in: no
// call reads no prompt. The counts are unknown, as when none are sent,
// not a free call that budgets and costs would take at its word; the
// same reply with real counts keeps them.
func TestZeroCountsAreUnreported(t *testing.T) {
	call := func(t *testing.T, opts ...fakellm.Option) llm.Usage {
		srv := fakellm.Start(script.MustNew(script.Rule{Reply: &script.Reply{Text: "Redis, for its speed."}}), opts...)
		defer srv.Close()
		p, err := openai.New(openai.Config{Name: "localai", BaseURL: srv.OpenAIURL()})
		if err != nil {
			t.Fatal(err)
		}
		r, err := llm.Collect(p.Stream(context.Background(), llm.Request{Model: "qwen3", Messages: []llm.Message{{Role: llm.RoleUser, Text: "Which cache?"}}}))
		if err != nil || r.Text != "Redis, for its speed." {
			t.Fatalf("%+v %v", r, err)
		}
		return r.Usage
	}
	for name, opts := range map[string][]fakellm.Option{
		"streamed":      {fakellm.WithUsageShape(fakellm.UsageZeros)},
		"sent whole":    {fakellm.WithUsageShape(fakellm.UsageZeros), fakellm.WithoutStreaming()},
		"no usage sent": {fakellm.WithoutUsage()},
	} {
		if got := call(t, opts...); got != (llm.Usage{Unreported: true}) {
			t.Errorf("%s: %+v, want the counts unknown", name, got)
		}
	}
	if got := call(t); got.Unreported || got.InputTokens == 0 || got.OutputTokens == 0 {
		t.Errorf("real counts: %+v", got)
	}
}
