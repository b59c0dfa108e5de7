package app

import (
	"context"
	"math"
	"testing"

	"github.com/parleyhq/parley/internal/llm/pricing"
)

// TestPricesRecordedWithTurns: the App's prices price each model call when
// it is made, and the turn records the cost and that it was priced; a
// price of 0 the user gave is free, not unknown, in the summary and in
// the cost report, whatever prices a reader has.
func TestPricesRecordedWithTurns(t *testing.T) {
	ctx := context.Background()
	price := pricing.Price{Input: 2, Output: 8, CacheRead: 0.5}
	for _, tc := range []struct {
		name  string
		price pricing.Price
	}{{"paid", price}, {"free", pricing.Price{}}} {
		t.Run(tc.name, func(t *testing.T) {
			srv := fakeServer(t, "council.yaml") // its rules are used up by a run
			a := testApp(t, map[string]string{"OPENAI_BASE_URL": srv.OpenAIURL(), "OPENAI_API_KEY": "test-key"})
			table := pricing.Default().With(map[string]pricing.Price{"openai/test-model": tc.price})
			a.Prices = &table
			s, st := runCouncil(ctx, t, a)
			want, llmTurns := 0.0, 0
			for _, t0 := range st.CompletedTurns() {
				if t0.NoLLM {
					continue
				}
				llmTurns++
				u := t0.Usage
				cost := (float64(u.InputTokens)*tc.price.Input + float64(u.OutputTokens)*tc.price.Output + float64(u.CacheReadTokens)*tc.price.CacheRead) / 1e6
				if !t0.Priced || math.Abs(t0.CostUSD-cost) > 1e-12 {
					t.Errorf("turn %s: cost %v priced %v; want %v priced", t0.ID, t0.CostUSD, t0.Priced, cost)
				}
				want += cost
			}
			if llmTurns == 0 || (tc.price != pricing.Price{} && want == 0) {
				t.Fatalf("%d LLM turns costing %v: nothing was priced", llmTurns, want)
			}
			sum, err := a.Store.Get(ctx, s.ID)
			if err != nil {
				t.Fatal(err)
			}
			if math.Abs(sum.CostUSD-want) > 1e-9 || len(sum.Unpriced) != 0 || sum.LLMTurns != llmTurns {
				t.Errorf("summary: cost %v, unpriced %q, LLM turns %d; want %v, none, %d", sum.CostUSD, sum.Unpriced, sum.LLMTurns, want, llmTurns)
			}
		})
	}
}

// TestPriceUnknownModel: without a price the turn records $0, not priced,
// and the summary names the model.
func TestPriceUnknownModel(t *testing.T) {
	ctx := context.Background()
	srv := fakeServer(t, "council.yaml")
	a := testApp(t, map[string]string{"OPENAI_BASE_URL": srv.OpenAIURL(), "OPENAI_API_KEY": "test-key"})
	s, _ := runCouncil(ctx, t, a)
	sum, err := a.Store.Get(ctx, s.ID)
	if err != nil {
		t.Fatal(err)
	}
	if sum.CostUSD != 0 || len(sum.Unpriced) != 1 || sum.Unpriced[0] != "openai/test-model" {
		t.Errorf("summary: cost %v, unpriced %q; want 0 and openai/test-model", sum.CostUSD, sum.Unpriced)
	}
}
