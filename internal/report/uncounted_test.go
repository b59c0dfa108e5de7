package report

import (
	"testing"

	"github.com/parleyhq/parley/internal/llm"
)

func TestSpendWhyUnknown(t *testing.T) {
	sp := Spend{USD: 0.5, Turns: 3, LLMTurns: 3, Unpriced: []string{"openai/x", "openai/gpt-5.5"}, Uncounted: []string{"openai/gpt-5.5"}}
	want := "cost ≥ $0.5000 (no price for openai/x; no token counts from the server for openai/gpt-5.5)"
	if got := sp.Text("cost"); got != want {
		t.Errorf("Text = %q, want %q", got, want)
	}
	only := Spend{Turns: 1, LLMTurns: 1, Unpriced: []string{"openai/gpt-5.5"}, Uncounted: []string{"openai/gpt-5.5"}}
	if got, want := only.UnpricedNote(), "The cost is unknown: no token counts from the server for openai/gpt-5.5."; got != want {
		t.Errorf("UnpricedNote = %q, want %q", got, want)
	}
	if got := only.Add(Spend{Turns: 1, LLMTurns: 1}); len(got.Uncounted) != 1 || got.Known() {
		t.Errorf("Add lost the uncounted model: %+v", got)
	}
}

// TestTurnSpendUncounted: one turn whose server sent no token counts (a
// follow-up's cost line) is unknown, and says why, though its model has a
// price; as the report's table and the summaries count it.
func TestTurnSpendUncounted(t *testing.T) {
	const model = "anthropic/claude-sonnet-4-5"
	sp := TurnSpend(model, llm.Usage{Unreported: true}, 0, false, false)
	if want := "cost unknown (no token counts from the server for " + model + ")"; sp.Known() || sp.Text("cost") != want {
		t.Errorf("unreported turn: %q (known %v), want %q", sp.Text("cost"), sp.Known(), want)
	}
	if sp := TurnSpend(model, llm.Usage{InputTokens: 10}, 0.01, false, true); !sp.Known() || len(sp.Uncounted) != 0 {
		t.Errorf("counted turn: %+v", sp)
	}
}
