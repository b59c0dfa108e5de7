package report

import "testing"

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
