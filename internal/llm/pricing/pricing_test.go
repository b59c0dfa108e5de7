package pricing

import (
	"math"
	"os"
	"path/filepath"
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

func TestLoad(t *testing.T) {
	dir := t.TempDir()
	good := filepath.Join(dir, "prices.yaml")
	if err := os.WriteFile(good, []byte("my-model: {input: 1.5, output: 6, cache_read: 0.15}\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	tbl, err := Default().Load(good)
	if err != nil {
		t.Fatal(err)
	}
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
		if _, err := Default().Load(p); err == nil {
			t.Errorf("%s: no error", name)
		}
	}
}
