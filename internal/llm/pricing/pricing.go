// Package pricing turns token usage into dollars.
//
// The built-in table holds list prices in USD per million tokens for current
// Claude and OpenAI models, as published by the vendors (checked November
// 2026). Prices change: override them with a file (ReadFile) or a map (Table.With)
// rather than trusting the table for billing. Local models (Ollama, llama.cpp,
// vLLM, LM Studio) cost nothing: use Table.Free, or a price of all zeros.
//
// Usage follows Parley's convention: InputTokens excludes cached tokens, which
// are priced separately as cache reads and cache writes (5-minute writes for
// Anthropic; OpenAI does not charge for writes).
package pricing

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"maps"
	"math"
	"os"
	"regexp"
	"strconv"
	"strings"
	"sync"

	"go.yaml.in/yaml/v4"

	"github.com/parleyhq/parley/internal/llm"
)

// Price is what a model costs, in USD per million tokens.
type Price struct {
	Input      float64 `json:"input"`
	Output     float64 `json:"output"`
	CacheRead  float64 `json:"cache_read"`
	CacheWrite float64 `json:"cache_write"`
	// LongPrompt, when set, replaces the whole price for a request whose
	// prompt (input plus cache reads and writes) exceeds LongPromptTokens.
	LongPrompt       *Price `json:"long_prompt,omitempty"`
	LongPromptTokens int    `json:"long_prompt_tokens,omitempty"`
}

// Table maps model names to prices. Look-ups also try the name without a
// date suffix ("claude-haiku-4-5-20251001" → "claude-haiku-4-5"), so one row
// covers an alias and its snapshots. A Table is immutable; With returns a copy.
type Table struct {
	prices map[string]Price
	free   map[string]bool // provider prefixes whose models cost nothing
	// qualified is whether any name is "provider/model": without one,
	// CostFor skips that look-up, which every priced turn and an old store's
	// backfill would otherwise pay for nothing.
	qualified bool
}

// builtin is the list price table. Sources: platform.claude.com pricing and
// model pages, and OpenAI's pricing page, as of November 2026.
var builtin = map[string]Price{
	// Anthropic: cache writes are the 5-minute rate (1.25× input).
	"claude-fable-5-1":  {Input: 10, Output: 50, CacheRead: 0.25, CacheWrite: 12.5},
	"claude-mythos-5-1": {Input: 10, Output: 50, CacheRead: 0.25, CacheWrite: 12.5},
	"claude-fable-5":    {Input: 10, Output: 50, CacheRead: 1, CacheWrite: 12.5},
	"claude-mythos-5":   {Input: 10, Output: 50, CacheRead: 1, CacheWrite: 12.5},
	"claude-opus-5-5":   {Input: 4, Output: 20, CacheRead: 0.2, CacheWrite: 5},
	"claude-opus-5":     {Input: 5, Output: 25, CacheRead: 0.5, CacheWrite: 6.25},
	"claude-opus-4-8":   {Input: 5, Output: 25, CacheRead: 0.5, CacheWrite: 6.25},
	"claude-opus-4-7":   {Input: 5, Output: 25, CacheRead: 0.5, CacheWrite: 6.25},
	"claude-opus-4-6":   {Input: 5, Output: 25, CacheRead: 0.5, CacheWrite: 6.25},
	"claude-opus-4-5":   {Input: 5, Output: 25, CacheRead: 0.5, CacheWrite: 6.25},
	"claude-sonnet-5-5": {Input: 2, Output: 10, CacheRead: 0.1, CacheWrite: 2.5},
	"claude-sonnet-5":   {Input: 2, Output: 10, CacheRead: 0.2, CacheWrite: 2.5},
	"claude-sonnet-4-6": {Input: 3, Output: 15, CacheRead: 0.3, CacheWrite: 3.75},
	"claude-sonnet-4-5": {Input: 3, Output: 15, CacheRead: 0.3, CacheWrite: 3.75},
	"claude-haiku-5-5": {Input: 0.1, Output: 0.5, CacheRead: 0.01, CacheWrite: 0.125,
		LongPromptTokens: 100_000, LongPrompt: &Price{Input: 0.5, Output: 2.5, CacheRead: 0.05, CacheWrite: 0.625}},
	"claude-haiku-4-5": {Input: 1, Output: 5, CacheRead: 0.1, CacheWrite: 1.25},

	// OpenAI: no charge for cache writes.
	"gpt-5.5":      {Input: 5, Output: 30, CacheRead: 0.5},
	"gpt-5.5-pro":  {Input: 30, Output: 180},
	"gpt-5.4":      {Input: 2.5, Output: 15, CacheRead: 0.25},
	"gpt-5.4-pro":  {Input: 30, Output: 180},
	"gpt-5.4-mini": {Input: 0.75, Output: 4.5, CacheRead: 0.075},
	"gpt-5.4-nano": {Input: 0.2, Output: 1.25, CacheRead: 0.02},
	"gpt-5.1":      {Input: 1.25, Output: 10, CacheRead: 0.125},
	"gpt-5":        {Input: 1.25, Output: 10, CacheRead: 0.125},
	"gpt-5-mini":   {Input: 0.25, Output: 2, CacheRead: 0.025},
	"gpt-5-nano":   {Input: 0.05, Output: 0.4, CacheRead: 0.005},
	"gpt-4.1":      {Input: 2, Output: 8, CacheRead: 0.5},
	"gpt-4.1-mini": {Input: 0.4, Output: 1.6, CacheRead: 0.1},
	"gpt-4o":       {Input: 2.5, Output: 10, CacheRead: 1.25},
	"gpt-4o-mini":  {Input: 0.15, Output: 0.6, CacheRead: 0.075},
}

// Default returns the built-in table. Local providers ("ollama/", "local/",
// "llamacpp/", "vllm/", "lmstudio/" model prefixes) are free.
func Default() Table { return defaultTable() }

// defaultTable is built once: a Table never changes its maps (With and Free
// copy them), so every caller can share it, and pricing a summary's turns
// when a list is read does not copy the table for each.
var defaultTable = sync.OnceValue(func() Table {
	return Table{prices: maps.Clone(builtin), free: map[string]bool{"ollama": true, "local": true, "llamacpp": true, "vllm": true, "lmstudio": true}}
})

// With returns a copy of t with prices added or replaced.
func (t Table) With(prices map[string]Price) Table {
	out := Table{prices: maps.Clone(t.prices), free: maps.Clone(t.free), qualified: t.qualified}
	if out.prices == nil {
		out.prices = map[string]Price{}
	}
	for k, v := range prices {
		k = strings.ToLower(strings.TrimSpace(k))
		out.prices[k] = v
		out.qualified = out.qualified || strings.Contains(k, "/")
	}
	return out
}

// Free returns a copy of t in which every model of the named provider
// ("ollama") costs nothing; Cost matches "provider/model" names and, through
// CostFor, calls made by that provider.
func (t Table) Free(provider string) Table {
	out := t.With(nil)
	if out.free == nil {
		out.free = map[string]bool{}
	}
	out.free[strings.ToLower(provider)] = true
	return out
}

// ReadFile reads price overrides from a YAML or JSON file of the form
//
//	claude-sonnet-5-5: {input: 2, output: 10, cache_read: 0.1, cache_write: 2.5}
//	my-finetune:       {input: 1, output: 4}
//	openrouter/my-gw:  {input: 0.5, output: 1.5}
//
// (see Decode); Table.With applies them. The errors are os.ReadFile's and
// Decode's as they are, for the caller to say where the path came from.
func ReadFile(path string) (map[string]Price, error) {
	data, err := os.ReadFile(path)
	if err != nil {
		return nil, err
	}
	return Decode(data)
}

// Decode reads prices from YAML or JSON: a map of model name ("model" or
// "provider/model") to its price in USD per million tokens, with the keys
// input, output, cache_read and cache_write (omitted ones cost 0), and
// optionally long_prompt (a price of the same form) over
// long_prompt_tokens. An unknown key, a value that is not a number or a
// negative price is an error naming the model.
func Decode(data []byte) (map[string]Price, error) {
	var generic map[string]any
	if err := yaml.Unmarshal(data, &generic); err != nil {
		return nil, fmt.Errorf("%w (want model: {input: 1, output: 4, cache_read: 0.1, cache_write: 1.25} in USD per million tokens)", err)
	}
	prices := make(map[string]Price, len(generic))
	for model, v := range generic {
		if strings.TrimSpace(model) == "" {
			return nil, fmt.Errorf("a price without a model name: key each price by the model, as in my-model: {input: 1, output: 4}")
		}
		p, err := decodePrice(v)
		if err != nil {
			return nil, fmt.Errorf("model %s: %w", model, err)
		}
		prices[model] = p
	}
	// Names are matched without case: two spellings of one would leave
	// which price applies to the map's order.
	seen := make(map[string]string, len(prices))
	for model := range prices {
		k := strings.ToLower(strings.TrimSpace(model))
		if other, ok := seen[k]; ok {
			return nil, fmt.Errorf("models %s and %s are one name (case does not count): keep one price", min(model, other), max(model, other))
		}
		seen[k] = model
	}
	return prices, nil
}

// decodePrice reads one model's price from its YAML value through JSON,
// whose decoder refuses unknown fields (a misspelt "inptu" would otherwise
// price the input at $0 without a word).
func decodePrice(v any) (Price, error) {
	if _, ok := v.(map[string]any); !ok {
		return Price{}, fmt.Errorf("the price is %s, not a map: write {input: 1, output: 4, cache_read: 0.1, cache_write: 1.25} in USD per million tokens", describe(v))
	}
	js, err := json.Marshal(v)
	if err != nil {
		return Price{}, fmt.Errorf("%w: give the prices as plain numbers of USD per million tokens", err)
	}
	var p Price
	dec := json.NewDecoder(bytes.NewReader(js))
	dec.DisallowUnknownFields()
	if err := dec.Decode(&p); err != nil {
		// A value of the wrong kind is named with the value given:
		// "json: cannot unmarshal string into Go struct field
		// Price.input of type float64" spoke of Go, not of the file.
		var te *json.UnmarshalTypeError
		if errors.As(err, &te) && te.Field != "" {
			return Price{}, fmt.Errorf("%s is %s, not a number: give it in USD per million tokens, such as 1.5", te.Field, describe(valueAt(v, te.Field)))
		}
		return Price{}, fmt.Errorf("%w: the keys are input, output, cache_read, cache_write (numbers of USD per million tokens), long_prompt and long_prompt_tokens", err)
	}
	return p, p.Validate()
}

// valueAt is the value at a dotted path of keys ("long_prompt.input") in
// a price as read from YAML, nil when there is none.
func valueAt(v any, path string) any {
	for _, k := range strings.Split(path, ".") {
		m, ok := v.(map[string]any)
		if !ok {
			return nil
		}
		v = m[k]
	}
	return v
}

func describe(v any) string {
	if v == nil {
		return "empty"
	}
	return fmt.Sprintf("%q", fmt.Sprint(v))
}

// Validate refuses a negative price (no vendor pays for tokens) and a long
// prompt band without its threshold.
func (p Price) Validate() error {
	for _, f := range []struct {
		name string
		v    float64
	}{{"input", p.Input}, {"output", p.Output}, {"cache_read", p.CacheRead}, {"cache_write", p.CacheWrite}} {
		if f.v < 0 || math.IsNaN(f.v) || math.IsInf(f.v, 0) {
			return fmt.Errorf("%s is %v: give a price of 0 or more USD per million tokens", f.name, f.v)
		}
	}
	switch {
	case p.LongPromptTokens < 0:
		return fmt.Errorf("long_prompt_tokens is %d: give the prompt size above which long_prompt applies, or leave both out", p.LongPromptTokens)
	case p.LongPrompt != nil && p.LongPromptTokens == 0:
		return fmt.Errorf("long_prompt without long_prompt_tokens: give the prompt size above which it applies")
	case p.LongPrompt != nil:
		if p.LongPrompt.LongPrompt != nil {
			return fmt.Errorf("long_prompt has a long_prompt of its own: give one band only")
		}
		if err := p.LongPrompt.Validate(); err != nil {
			return fmt.Errorf("long_prompt: %w", err)
		}
	}
	return nil
}

// String writes a price as USD per million tokens, for settings listings.
func (p Price) String() string {
	s := fmt.Sprintf("input $%s, output $%s", num(p.Input), num(p.Output))
	if p.CacheRead != 0 {
		s += ", cache read $" + num(p.CacheRead)
	}
	if p.CacheWrite != 0 {
		s += ", cache write $" + num(p.CacheWrite)
	}
	s += " per million tokens"
	if p.LongPrompt != nil {
		s += fmt.Sprintf("; over %d prompt tokens %s", p.LongPromptTokens, p.LongPrompt.String())
	}
	return s
}

func num(v float64) string { return strconv.FormatFloat(v, 'f', -1, 64) }

var dateSuffix = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`-(\d{8}|\d{4}-\d{2}-\d{2})$`) })

// Lookup returns the price of model.
func (t Table) Lookup(model string) (Price, bool) {
	m := strings.ToLower(strings.TrimSpace(model))
	if p, ok := t.prices[m]; ok {
		return p, true
	}
	if prov, _, ok := strings.Cut(m, "/"); ok && t.free[prov] {
		return Price{}, true
	}
	if base := dateSuffix().ReplaceAllString(m, ""); base != m {
		if p, ok := t.prices[base]; ok {
			return p, true
		}
	}
	return Price{}, false
}

// Cost returns what u cost on model, and whether the model's price is known.
// An unknown model costs 0 with known false, so that callers can say "cost
// unknown" instead of showing a wrong $0.
func (t Table) Cost(model string, u llm.Usage) (usd float64, known bool) {
	p, ok := t.Lookup(model)
	if !ok {
		return 0, false
	}
	return p.cost(u), true
}

// CostFor is Cost for a call made through the named provider. A price given
// for "provider/model" comes first (a gateway's name for a model, or one
// provider's negotiated price); then every model of a free provider costs
// 0; then the model's own price.
//
// A model without a price costs what the server said the call cost
// (llm.Usage.ReportedCost: OpenRouter's usage.cost), when it said so for
// every call; a price given wins, since it is what the user chose to
// count.
func (t Table) CostFor(provider, model string, u llm.Usage) (usd float64, known bool) {
	if u.Unreported && !t.free[strings.ToLower(provider)] {
		// The server sent no token counts: whatever the price, the cost
		// is unknown, not the $0 the zero counts would give, unless
		// the server said what the call cost.
		return u.ReportedCost()
	}
	if provider != "" && t.qualified {
		if p, ok := t.exact(provider + "/" + model); ok {
			return p.cost(u), true
		}
	}
	if t.free[strings.ToLower(provider)] {
		return 0, true
	}
	if usd, known := t.Cost(model, u); known {
		return usd, true
	}
	return u.ReportedCost()
}

// exact looks up a name as given or without its date suffix, without the
// free providers.
func (t Table) exact(model string) (Price, bool) {
	m := strings.ToLower(strings.TrimSpace(model))
	if p, ok := t.prices[m]; ok {
		return p, true
	}
	if base := dateSuffix().ReplaceAllString(m, ""); base != m {
		p, ok := t.prices[base]
		return p, ok
	}
	return Price{}, false
}

func (p Price) cost(u llm.Usage) float64 {
	if p.LongPrompt != nil && p.LongPromptTokens > 0 &&
		u.InputTokens+u.CacheReadTokens+u.CacheWriteTokens > p.LongPromptTokens {
		p = *p.LongPrompt
	}
	return (float64(u.InputTokens)*p.Input +
		float64(u.OutputTokens)*p.Output +
		float64(u.CacheReadTokens)*p.CacheRead +
		float64(u.CacheWriteTokens)*p.CacheWrite) / 1e6
}

// Cost prices u with the built-in table.
func Cost(model string, u llm.Usage) (usd float64, known bool) {
	return Default().Cost(model, u)
}
