package openai_test

import (
	"context"
	"strings"
	"testing"

	"github.com/parleyhq/parley/internal/llm"
	"github.com/parleyhq/parley/internal/llm/fakellm"
	"github.com/parleyhq/parley/internal/llm/openai"
	"github.com/parleyhq/parley/internal/llm/pricing"
	"github.com/parleyhq/parley/internal/llm/script"
)

// OpenRouter says in usage.cost what a call cost, in USD. The call's
// usage carries it, so that a model without a price costs that rather
// than "unknown".
func TestServerReportedCost(t *testing.T) {
	srv := fakellm.Start(script.MustNew(script.Rule{Reply: &script.Reply{Text: "Redis, for its speed."}}), fakellm.WithUsageShape(fakellm.UsageOpenRouter))
	defer srv.Close()
	p, err := openai.New(openai.Config{Name: "openrouter", BaseURL: srv.OpenAIURL()})
	if err != nil {
		t.Fatal(err)
	}
	r, err := llm.Collect(p.Stream(context.Background(), llm.Request{Model: "qwen/qwen3-235b", System: strings.Repeat("You judge databases. ", 40),
		Messages: []llm.Message{{Role: llm.RoleUser, Text: "Which cache?"}}}))
	if err != nil {
		t.Fatal(err)
	}
	tokens := r.Usage
	tokens.ServerCost, tokens.ServerCostUSD = "", 0
	want := fakellm.OpenRouterCost(tokens)
	if usd, ok := r.Usage.ReportedCost(); !ok || usd != want || want == 0 {
		t.Fatalf("usage %+v: want a reported cost of %v", r.Usage, want)
	}
	if usd, known := pricing.Default().CostFor("openai", "qwen/qwen3-235b", r.Usage); !known || usd != want {
		t.Errorf("CostFor: %v %v, want the server's %v", usd, known, want)
	}
	// A price given wins over the server's figure.
	priced := pricing.Default().With(map[string]pricing.Price{"qwen/qwen3-235b": {Input: 1000, Output: 1000}})
	if usd, known := priced.CostFor("openai", "qwen/qwen3-235b", r.Usage); !known || usd == want {
		t.Errorf("CostFor with a price: %v %v, want the price's", usd, known)
	}
}

// What is not a cost in USD for the whole call is not taken for one.
func TestServerReportedCostShapes(t *testing.T) {
	body := func(usage string) string {
		return chunk(c1) + chunk(c2) + chunk(stop) +
			chunk(`{"id":"c","object":"chat.completion.chunk","model":"m","choices":[],"usage":{"prompt_tokens":11,"completion_tokens":2,"total_tokens":13`+usage+`}}`) + done
	}
	cases := []struct {
		name  string
		usage string
		usd   float64
		ok    bool
	}{
		{"cost", `,"cost":0.0012,"is_byok":false,"cost_details":{"upstream_inference_cost":null}`, 0.0012, true},
		{"free model", `,"cost":0`, 0, true},
		// With the user's own key, cost is OpenRouter's fee; the
		// provider charged upstream_inference_cost besides.
		{"own key", `,"cost":0.0001,"is_byok":true,"cost_details":{"upstream_inference_cost":0.002}`, 0.0021, true},
		{"own key, upstream unknown", `,"cost":0.0001,"is_byok":true,"cost_details":{"upstream_inference_cost":null}`, 0, false},
		{"own key, no details", `,"cost":0.0001,"is_byok":true`, 0, false},
		{"no cost", ``, 0, false},
		{"null", `,"cost":null`, 0, false},
		{"a string", `,"cost":"0.0012"`, 0, false},
		{"negative", `,"cost":-1`, 0, false},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			r, err := ask(rawServer(t, sse(body(c.usage))))
			if err != nil {
				t.Fatal(err)
			}
			usd, ok := r.Usage.ReportedCost()
			if ok != c.ok || (ok && (usd < c.usd-1e-12 || usd > c.usd+1e-12)) {
				t.Errorf("%+v: cost %v %v, want %v %v", r.Usage, usd, ok, c.usd, c.ok)
			}
			if r.Usage.InputTokens != 11 || r.Usage.OutputTokens != 2 {
				t.Errorf("tokens %+v", r.Usage)
			}
		})
	}
}
