package main_test

import (
	"encoding/json"
	"fmt"
	"math"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
)

// TestConfiguredPrices: a price in the config file for a model the built-in
// table lacks (the fake server's) prices its turns when they run: list,
// list --json, export and show give the figure the usage and the price
// make, not "unknown"; `parley config` says where the price comes from; a
// bad price stops a debate before it starts, naming the model.
func TestConfiguredPrices(t *testing.T) {
	_, dir, env := fakeOpenAI(t, loadScript(t, "perspectives.yaml"))
	cfg := filepath.Join(dir, "config.yaml")
	const input, output, cacheRead = 3.0, 15.0, 0.3 // USD per million tokens
	if err := os.WriteFile(cfg, fmt.Appendf(nil, "prices:\n  openai/test-model: {input: %v, output: %v, cache_read: %v}\n", input, output, cacheRead), 0o600); err != nil {
		t.Fatal(err)
	}
	env = append(env, "PARLEY_CONFIG="+cfg)

	c := mustParley(t, dir, env, "", "config")
	if !regexp.MustCompile(`prices\.openai/test-model\s+input \$3, output \$15, cache read \$0\.3 per million tokens\s+config file ` + regexp.QuoteMeta(cfg)).MatchString(c.stdout) {
		t.Errorf("parley config does not show the price and its source:\n%s", c.stdout)
	}

	mustParley(t, dir, env, "", "debate", redisTopic, "--no-checkpoints", "--model", "test-model")
	var list []struct {
		ID       string   `json:"id"`
		CostUSD  float64  `json:"cost_usd"`
		LLMTurns int      `json:"llm_turns"`
		Unpriced []string `json:"unpriced_models"`
	}
	if err := json.Unmarshal([]byte(mustParley(t, dir, env, "", "list", "--json").stdout), &list); err != nil || len(list) != 1 {
		t.Fatalf("list --json: %v, %d debates", err, len(list))
	}
	got := list[0]
	var e struct {
		CostUSD float64 `json:"cost_usd"`
		Turns   []struct {
			Model string `json:"model"`
			Usage struct {
				Input      int `json:"input_tokens"`
				Output     int `json:"output_tokens"`
				CacheRead  int `json:"cache_read_tokens"`
				CacheWrite int `json:"cache_write_tokens"`
			} `json:"usage"`
			NoLLM bool `json:"no_llm"`
		} `json:"turns"`
	}
	if err := json.Unmarshal([]byte(mustParley(t, dir, env, "", "export", got.ID, "--as", "json").stdout), &e); err != nil {
		t.Fatal(err)
	}
	// The figure the usage and the configured price make, turn by turn.
	want, llmTurns, tokens := 0.0, 0, 0
	for _, turn := range e.Turns {
		if turn.NoLLM {
			continue
		}
		if turn.Model != "openai/test-model" {
			t.Fatalf("a turn of model %q", turn.Model)
		}
		u := turn.Usage
		want += (float64(u.Input)*input + float64(u.Output)*output + float64(u.CacheRead)*cacheRead) / 1e6
		llmTurns++
		tokens += u.Input + u.Output + u.CacheRead + u.CacheWrite
	}
	if llmTurns == 0 || tokens == 0 || want <= 0 {
		t.Fatalf("the debate made no priced model call: %d LLM turns, %d tokens", llmTurns, tokens)
	}
	if math.Abs(got.CostUSD-want) > 1e-9 || got.LLMTurns != llmTurns || len(got.Unpriced) != 0 {
		t.Errorf("list --json: cost_usd %v, llm_turns %d, unpriced %q; want %v, %d, none", got.CostUSD, got.LLMTurns, got.Unpriced, want, llmTurns)
	}
	if math.Abs(e.CostUSD-want) > 1e-9 {
		t.Errorf("export: cost_usd %v, want %v", e.CostUSD, want)
	}
	cell := fmt.Sprintf("$%.4f", want)
	if l := mustParley(t, dir, env, "", "list"); !strings.Contains(l.stdout, " "+cell+" ") || strings.Contains(l.stdout, "unknown") {
		t.Errorf("list: want the cost %s:\n%s", cell, l.stdout)
	}
	if s := mustParley(t, dir, env, "", "show", got.ID); !strings.Contains(s.stdout, cell) || strings.Contains(s.stdout, "unknown") {
		t.Errorf("show: want the cost %s:\n%s", cell, s.stdout)
	}

	// The turns were priced when they ran: a reader without the price (no
	// config file) shows the same figure, not "unknown".
	bare := append(env[:len(env):len(env)], "PARLEY_CONFIG="+os.DevNull)
	if l := mustParley(t, dir, bare, "", "list"); !strings.Contains(l.stdout, " "+cell+" ") {
		t.Errorf("list without the config: want the recorded cost %s:\n%s", cell, l.stdout)
	}

	// A bad price is an error naming it, before anything runs.
	if err := os.WriteFile(cfg, []byte("prices:\n  openai/test-model: {input: 3, output: -15}\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	r := parley(t, dir, env, "", "debate", redisTopic, "--no-checkpoints", "--model", "test-model")
	if r.code != 2 || !strings.Contains(r.stderr, "model openai/test-model: output is -15") {
		t.Errorf("a negative price: exit %d\n%s", r.code, r.stderr)
	}
	if r := parley(t, dir, env, "", "config"); r.code != 2 || !strings.Contains(r.stderr, "config file "+cfg+": prices: model openai/test-model") {
		t.Errorf("config with a negative price: exit %d\n%s", r.code, r.stderr)
	}
	if n := strings.Count(mustParley(t, dir, bare, "", "list", "--json").stdout, `"id"`); n != 1 {
		t.Errorf("%d debates after the refused one, want 1", n)
	}
}

// TestListNamesUnpricedModels: a debate run with a model that has no price
// lists as "unknown", and parley list names that model once, under the
// table (on stderr), rather than leaving "unknown" unexplained.
func TestListNamesUnpricedModels(t *testing.T) {
	_, dir, env := fakeOpenAI(t, loadScript(t, "perspectives.yaml"))
	env = append(env, "PARLEY_CONFIG="+os.DevNull)
	mustParley(t, dir, env, "", "debate", redisTopic, "--no-checkpoints", "--model", "test-model")
	l := mustParley(t, dir, env, "", "list")
	if !strings.Contains(l.stdout, " unknown ") {
		t.Fatalf("list: want the cost unknown (the fake server's model has no price):\n%s", l.stdout)
	}
	if !strings.Contains(l.stderr, "no price for openai/test-model") || strings.Contains(l.stdout, "no price for") {
		t.Errorf("list: want the model without a price named once, on stderr:\nstdout:\n%s\nstderr:\n%s", l.stdout, l.stderr)
	}
}
