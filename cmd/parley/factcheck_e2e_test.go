package main_test

import (
	"strings"
	"testing"

	"github.com/parleyhq/parley/internal/llm/script"
)

// TestPlantedFiguresCaughtEndToEnd: debaters state planted figures in prose
// over the OpenAI wire; the report catches each wrong one, quoting the
// agent with the filing's figure, leaves the right ones alone, and the
// synthesis's repetition of a wrong figure is corrected inline.
func TestPlantedFiguresCaughtEndToEnd(t *testing.T) {
	planted := loadScript(t, "bullbear_planted.yaml")
	base := loadScript(t, "bullbear.yaml")
	sc, err := script.New(append(planted.Rules, append(base.Rules,
		script.Rule{TagPrefix: "reconcile/", Reply: &script.Reply{Text: "I correct my figure to the 10-K's."}})...)...)
	if err != nil {
		t.Fatal(err)
	}
	_, dir, env := fakeOpenAI(t, sc)
	r := mustParley(t, dir, env, "", "debate", "NVDA", "--snapshot", "--model", "test-model")
	out := r.stdout
	for _, want := range []string{
		"## 🔎 FACT CHECK",
		"3 corrected",
		`Bull said: "- NVIDIA's revenue reached $215.9 billion in fiscal 2025, a record (10-K 0001045810-26-000021)"`,
		"right figure, wrong period",
		"per the filing, revenue FY2025 was $130.5B",
		"stated as a decline, but it rose",
		"per the filing, net income FY2026 was $120.1B",
		"[Fact check: $112.5 billion is wrong",
	} {
		if !strings.Contains(out, want) {
			t.Errorf("the report lacks %q:\n%s", want, out)
		}
	}
	// In the decision, every wrong figure the synthesis states is followed
	// by its correction (the fact-check lists quote the agents on purpose).
	_, decision, _ := strings.Cut(out, "═══ Decision ═══")
	for _, line := range strings.Split(decision, "\n") {
		if strings.Contains(line, "$112.5 billion") && !strings.Contains(line, "[Fact check:") && !strings.Contains(line, " said: ") && !strings.Contains(line, " cited ") {
			t.Errorf("a wrong figure is repeated uncorrected: %s", line)
		}
	}
	for _, right := range []string{"$62.5 billion is wrong", "71.1% is wrong"} {
		if strings.Contains(out, right) {
			t.Errorf("a right figure was flagged: %s", right)
		}
	}
}
