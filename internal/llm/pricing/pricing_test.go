package pricing

import (
	"math"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/parleyhq/parley/internal/llm"
)

func near(a, b float64) bool { return math.Abs(a-b) < 1e-9 }

func TestCost(t *testing.T) {
	cases := []struct {
		model string
		u     llm.Usage
		want  float64
		known bool
	}{
		{"claude-opus-4-8", llm.Usage{InputTokens: 1_000_000, OutputTokens: 1_000_000}, 30, true},
		{"claude-opus-4-8", llm.Usage{CacheReadTokens: 1_000_000, CacheWriteTokens: 1_000_000}, 0.5 + 6.25, true},
		{"claude-haiku-4-5-20251001", llm.Usage{InputTokens: 2_000_000}, 2, true}, // date suffix
		{"CLAUDE-SONNET-5-5", llm.Usage{OutputTokens: 100_000}, 1, true},
		{"gpt-4o-2024-08-06", llm.Usage{InputTokens: 1_000_000, CacheReadTokens: 1_000_000}, 2.5 + 1.25, true},
		{"ollama/llama3.3", llm.Usage{InputTokens: 5_000_000, OutputTokens: 1}, 0, true},
		{"no-such-model", llm.Usage{InputTokens: 10}, 0, false},
		// Haiku 5.5 long-prompt band: every token at the higher rate.
		{"claude-haiku-5-5", llm.Usage{InputTokens: 100_000, OutputTokens: 1_000_000}, 0.01 + 0.5, true},
		{"claude-haiku-5-5", llm.Usage{InputTokens: 100_001, OutputTokens: 1_000_000}, 100_001*0.5/1e6 + 2.5, true},
	}
	for _, c := range cases {
		got, known := Cost(c.model, c.u)
		if known != c.known || !near(got, c.want) {
			t.Errorf("Cost(%s, %+v) = %v, %v; want %v, %v", c.model, c.u, got, known, c.want, c.known)
		}
	}
}

func TestOverrides(t *testing.T) {
	base := Default()
	tbl := base.With(map[string]Price{"my-model": {Input: 1, Output: 2}, "gpt-4o": {Input: 100}})
	if got, ok := tbl.Cost("my-model", llm.Usage{InputTokens: 1_000_000, OutputTokens: 1_000_000}); !ok || !near(got, 3) {
		t.Errorf("override: %v, %v", got, ok)
	}
	if got, _ := tbl.Cost("gpt-4o", llm.Usage{InputTokens: 1_000_000}); !near(got, 100) {
		t.Errorf("replaced price: %v, want 100", got)
	}
	if got, _ := base.Cost("gpt-4o", llm.Usage{InputTokens: 1_000_000}); !near(got, 2.5) {
		t.Errorf("With changed the original table: %v", got)
	}
	free := base.Free("lab")
	if got, ok := free.CostFor("lab", "anything", llm.Usage{InputTokens: 99}); !ok || got != 0 {
		t.Errorf("free provider: %v, %v", got, ok)
	}
	if _, ok := base.CostFor("lab", "anything", llm.Usage{}); ok {
		t.Errorf("Free changed the original table")
	}
	if got, ok := base.CostFor("ollama", "qwen3:8b", llm.Usage{InputTokens: 99}); !ok || got != 0 {
		t.Errorf("ollama should be free: %v, %v", got, ok)
	}
}

func TestReadFile(t *testing.T) {
	dir := t.TempDir()
	good := filepath.Join(dir, "prices.yaml")
	if err := os.WriteFile(good, []byte("my-model: {input: 1.5, output: 6, cache_read: 0.15}\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	prices, err := ReadFile(good)
	if err != nil {
		t.Fatal(err)
	}
	tbl := Default().With(prices)
	if got, ok := tbl.Cost("my-model", llm.Usage{InputTokens: 1_000_000, CacheReadTokens: 1_000_000}); !ok || !near(got, 1.65) {
		t.Errorf("loaded price: %v, %v", got, ok)
	}
	for name, body := range map[string]string{
		"typo.yaml":     "m: {inptu: 1}\n",
		"negative.json": `{"m": {"input": -1}}`,
		"broken.yaml":   "m: [",
	} {
		p := filepath.Join(dir, name)
		if err := os.WriteFile(p, []byte(body), 0o600); err != nil {
			t.Fatal(err)
		}
		if _, err := ReadFile(p); err == nil {
			t.Errorf("%s: no error", name)
		}
	}
}

func TestProviderQualifiedPrice(t *testing.T) {
	tbl := Default().With(map[string]Price{
		"gateway/claude-opus-4-8": {Input: 1},
		"ollama/paid-model":       {Output: 2},
		"my-model":                {Input: 3},
	})
	u := llm.Usage{InputTokens: 1_000_000, OutputTokens: 1_000_000}
	for _, c := range []struct {
		provider, model string
		want            float64
		known           bool
	}{
		{"gateway", "claude-opus-4-8", 1, true},          // the qualified price wins over the model's
		{"gateway", "claude-opus-4-8-20261101", 1, true}, // and covers its dated snapshots
		{"anthropic", "claude-opus-4-8", 30, true},       // other providers keep the list price
		{"ollama", "paid-model", 2, true},                // a price given beats a free provider
		{"ollama", "other", 0, true},                     // the rest of it stays free
		{"openai", "my-model", 3, true},                  // a bare name covers every provider
		{"gateway", "unknown-model", 0, false},
	} {
		got, known := tbl.CostFor(c.provider, c.model, u)
		if known != c.known || !near(got, c.want) {
			t.Errorf("CostFor(%s, %s) = %v, %v; want %v, %v", c.provider, c.model, got, known, c.want, c.known)
		}
	}
}

func TestDecode(t *testing.T) {
	got, err := Decode([]byte("my-model: {input: 1.5, output: 6}\nvendor/x:\n  cache_read: 0.1\n  long_prompt_tokens: 1000\n  long_prompt: {input: 2}\n"))
	if err != nil {
		t.Fatal(err)
	}
	if got["my-model"].Input != 1.5 || got["my-model"].Output != 6 || got["vendor/x"].CacheRead != 0.1 || got["vendor/x"].LongPrompt.Input != 2 {
		t.Errorf("Decode = %+v", got)
	}
	if got, err := Decode([]byte(`{"free-model": {}}`)); err != nil || got["free-model"] != (Price{}) {
		t.Errorf("an empty price is free: %+v, %v", got, err)
	}
	for body, want := range map[string]string{
		"m: {inptu: 1}":          `model m: json: unknown field "inptu"`,
		"m: {input: -1}":         "model m: input is -1: give a price of 0 or more",
		"m: {cache_write: -0.5}": "model m: cache_write is -0.5",
		"m: {input: .inf}":       "model m:",
		"m: {input: cheap}":      `model m: input is "cheap", not a number`,
		"m: {long_prompt_tokens: 9, long_prompt: {output: [1]}}": `model m: long_prompt.output is "[1]", not a number`,
		"m: 3":                         `model m: the price is "3", not a map`,
		"m:":                           "model m: the price is empty, not a map",
		"m: {long_prompt: {input: 1}}": "model m: long_prompt without long_prompt_tokens",
		"m: {long_prompt_tokens: 9, long_prompt: {output: -2}}": "model m: long_prompt: output is -2",
		"M: {}\nm: {}": "models M and m are one name",
		"[1, 2]":       "want model: {input",
	} {
		_, err := Decode([]byte(body))
		if err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("Decode(%q) = %v; want an error containing %q", body, err, want)
		}
	}
}

func TestPriceString(t *testing.T) {
	p := Price{Input: 1.5, Output: 6, CacheRead: 0.15, LongPromptTokens: 200_000, LongPrompt: &Price{Input: 3, Output: 12}}
	want := "input $1.5, output $6, cache read $0.15 per million tokens; over 200000 prompt tokens input $3, output $12 per million tokens"
	if got := p.String(); got != want {
		t.Errorf("String() = %q, want %q", got, want)
	}
}

// A model without a price costs what the server reported for the call
// (OpenRouter's usage.cost); a price, or a free provider, comes first; a
// cost reported for only some of the calls summed is no cost.
func TestCostForReportedCost(t *testing.T) {
	reported := llm.Usage{InputTokens: 1_000_000, ServerCostUSD: 0.42, ServerCost: llm.ServerCostReported}
	cases := []struct {
		name            string
		provider, model string
		u               llm.Usage
		want            float64
		known           bool
	}{
		{"no price", "openai", "qwen/qwen3-235b", reported, 0.42, true},
		{"no price, no counts", "openai", "qwen/qwen3-235b", llm.Usage{Unreported: true, ServerCostUSD: 0.42, ServerCost: llm.ServerCostReported}, 0.42, true},
		{"partial", "openai", "qwen/qwen3-235b", llm.Usage{InputTokens: 1_000_000, ServerCostUSD: 0.42, ServerCost: llm.ServerCostPartial}, 0, false},
		{"not reported", "openai", "qwen/qwen3-235b", llm.Usage{InputTokens: 1_000_000}, 0, false},
		{"a price", "openai", "gpt-4o", reported, 2.5, true},
		{"free", "ollama", "qwen3", reported, 0, true},
	}
	for _, c := range cases {
		got, known := Default().CostFor(c.provider, c.model, c.u)
		if known != c.known || !near(got, c.want) {
			t.Errorf("%s: CostFor(%s, %s, %+v) = %v, %v; want %v, %v", c.name, c.provider, c.model, c.u, got, known, c.want, c.known)
		}
	}
}
