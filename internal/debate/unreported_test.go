package debate_test

import (
	"context"
	"strings"
	"testing"

	"github.com/parleyhq/parley/internal/debate"
	"github.com/parleyhq/parley/internal/llm"
	"github.com/parleyhq/parley/internal/llm/pricing"
	"github.com/parleyhq/parley/internal/llm/script"
)

// A call whose server reported no token counts has an unknown cost, not the
// $0 its zero counts price at.
func TestUnreportedUsageCostsUnknown(t *testing.T) {
	const model = "claude-fable-5"
	if _, known := pricing.Default().CostFor("anthropic", model, llm.Usage{}); !known {
		t.Fatalf("%s has no built-in price; pick a priced model", model)
	}
	e := newEnv(t, script.Rule{Tag: "a", Reply: &script.Reply{Text: "hi", Usage: &llm.Usage{Unreported: true}}})
	e.runner.Cast = debate.Cast{Default: debate.Model{Provider: e.prov, Name: model}}
	e.runner.Price = func(m string, u llm.Usage) (float64, bool) {
		provider, name, _ := strings.Cut(m, "/")
		return pricing.Default().CostFor(provider, name, u)
	}
	e.create("d", testLimits())
	if _, err := e.runner.Run(context.Background(), "d", &toyProto{steps: []toyStep{turns(turn("a", "alpha", 1))}}); err != nil {
		t.Fatal(err)
	}
	var sum debate.Summary
	for _, ev := range e.events("d") {
		debate.Project(&sum, ev)
	}
	if len(sum.Unpriced) != 1 || sum.CostUSD != 0 {
		t.Errorf("summary cost %v unpriced %v, want the cost unknown", sum.CostUSD, sum.Unpriced)
	}
}
