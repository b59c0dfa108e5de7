package cli

import (
	"errors"
	"math"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/parleyhq/parley/internal/app"
	"github.com/parleyhq/parley/internal/llm"
)

// writeConfig writes a config file and a prices file beside it, and
// returns the loaded config.
func writeConfig(t *testing.T, config, pricesFile string, env map[string]string) (*Config, func(string) string) {
	t.Helper()
	dir := t.TempDir()
	path := filepath.Join(dir, "config.yaml")
	if err := os.WriteFile(path, []byte(config), 0o600); err != nil {
		t.Fatal(err)
	}
	if pricesFile != "" {
		if err := os.WriteFile(filepath.Join(dir, "prices.yaml"), []byte(pricesFile), 0o600); err != nil {
			t.Fatal(err)
		}
	}
	getenv := func(k string) string {
		if k == "PARLEY_CONFIG" {
			return path
		}
		return strings.ReplaceAll(env[k], "$DIR", dir)
	}
	c, err := loadConfig(getenv, app.DefaultFormats())
	if err != nil {
		t.Fatalf("loadConfig: %v", err)
	}
	return c, getenv
}

func TestPriceTableLayers(t *testing.T) {
	config := `
prices_file: prices.yaml
prices:
  openai/test-model: {input: 2, output: 8, cache_read: 0.5}
  claude-opus-4-8: {input: 4, output: 20}
`
	file := "openai/test-model: {input: 100}\nfile-only: {output: 1}\nenv-wins: {input: 1}\n"
	c, env := writeConfig(t, config, file, nil)
	table, settings, err := priceTable(c, env)
	if err != nil {
		t.Fatal(err)
	}
	u := llm.Usage{InputTokens: 1_000_000, OutputTokens: 1_000_000, CacheReadTokens: 1_000_000}
	for _, tc := range []struct {
		provider, model string
		want            float64
	}{
		{"openai", "test-model", 2 + 8 + 0.5},    // the prices: block beats prices_file
		{"anthropic", "claude-opus-4-8", 4 + 20}, // a stale list price corrected
		{"openai", "file-only", 1},               // prices_file read, relative to the config
		{"openai", "gpt-4o", 2.5 + 10 + 1.25},    // the rest of the built-in table kept
	} {
		got, known := table.CostFor(tc.provider, tc.model, u)
		if !known || math.Abs(got-tc.want) > 1e-9 {
			t.Errorf("%s/%s: %v, %v; want %v", tc.provider, tc.model, got, known, tc.want)
		}
	}
	text := settingsText(settings)
	for _, want := range []string{
		"prices_file | " + filepath.Join(filepath.Dir(c.path), "prices.yaml") + " (3 models) | config file " + c.path,
		"prices.openai/test-model | input $2, output $8, cache read $0.5 per million tokens | config file " + c.path + "\n",
		"prices.file-only | input $0, output $1 per million tokens | config file " + c.path + " (" + filepath.Join(filepath.Dir(c.path), "prices.yaml") + ")",
	} {
		if !strings.Contains(text, want) {
			t.Errorf("settings lack %q:\n%s", want, text)
		}
	}
	if strings.Count(text, "prices.openai/test-model") != 1 {
		t.Errorf("a model priced twice is listed twice:\n%s", text)
	}

	// PARLEY_PRICES_FILE takes prices_file's place and ranks above the
	// prices: block.
	c, env = writeConfig(t, config, "openai/test-model: {input: 7}\n", map[string]string{pricesEnv: "$DIR/prices.yaml"})
	c.PricesFile = "does-not-exist.yaml" // replaced, so never read
	table, settings, err = priceTable(c, env)
	if err != nil {
		t.Fatal(err)
	}
	if got, _ := table.CostFor("openai", "test-model", u); got != 7 {
		t.Errorf("the environment's file does not win: %v", got)
	}
	if text := settingsText(settings); !strings.Contains(text, "prices.openai/test-model | input $7, output $0 per million tokens | environment PARLEY_PRICES_FILE") {
		t.Errorf("settings:\n%s", text)
	}
}

func TestPriceTableDefault(t *testing.T) {
	c, env := writeConfig(t, "model: x\n", "", nil)
	table, settings, err := priceTable(c, env)
	if err != nil {
		t.Fatal(err)
	}
	if text := settingsText(settings); text != "prices | (built-in list prices) | default\n" {
		t.Errorf("settings: %q", text)
	}
	if _, known := table.CostFor("openai", "test-model", llm.Usage{}); known {
		t.Error("an unlisted model has a price")
	}
}

func TestPriceTableErrors(t *testing.T) {
	for _, tc := range []struct {
		name, config, file string
		env                map[string]string
		want               []string
	}{
		{"unknown key", "prices:\n  my-model: {input: 1, ouput: 2}\n", "", nil,
			[]string{"prices: model my-model", `unknown field "ouput"`, "the keys are input, output, cache_read, cache_write"}},
		{"negative", "prices:\n  my-model: {input: 1, output: -2}\n", "", nil,
			[]string{"prices: model my-model: output is -2: give a price of 0 or more"}},
		{"not a number", "prices:\n  my-model: {input: free}\n", "", nil,
			[]string{"prices: model my-model", `input is "free", not a number`}},
		{"not a map", "prices: [my-model]\n", "", nil,
			[]string{"prices:", "want model: {input"}},
		{"missing file", "prices_file: nowhere.yaml\n", "", nil,
			[]string{"prices file", "nowhere.yaml", "fix it, or the prices_file setting"}},
		{"bad file", "prices_file: prices.yaml\n", "m: {input: -1}\n", nil,
			[]string{"prices.yaml: model m: input is -1"}},
		{"bad env file", "", "m: {cache_reads: 1}\n", map[string]string{pricesEnv: "$DIR/prices.yaml"},
			[]string{"environment PARLEY_PRICES_FILE: prices file", `unknown field "cache_reads"`, "or unset PARLEY_PRICES_FILE"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			c, env := writeConfig(t, tc.config, tc.file, tc.env)
			_, _, err := priceTable(c, env)
			var ue *UsageError
			if !errors.As(err, &ue) {
				t.Fatalf("err = %v, want a usage error", err)
			}
			for _, want := range tc.want {
				if !strings.Contains(err.Error(), want) {
					t.Errorf("error %q lacks %q", err, want)
				}
			}
			// A debate stops on it before it starts, and so does config.
			if _, err := applyConfig(c, defaultDebateOptions(), nil, env); err == nil {
				t.Error("applyConfig accepted it")
			}
		})
	}
	// An unknown top-level key is the config file's own error.
	dir := t.TempDir()
	path := filepath.Join(dir, "config.yaml")
	if err := os.WriteFile(path, []byte("price: {}\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	if _, err := loadConfig(func(k string) string {
		if k == "PARLEY_CONFIG" {
			return path
		}
		return ""
	}, app.DefaultFormats()); err == nil || !strings.Contains(err.Error(), "price") || !strings.Contains(err.Error(), "prices_file") {
		t.Errorf("unknown key: %v", err)
	}
}

func settingsText(settings []setting) string {
	var b strings.Builder
	for _, s := range settings {
		b.WriteString(s.key + " | " + s.value + " | " + s.source + "\n")
	}
	return b.String()
}
