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

// TestFollowUpAnswerChecked: a follow-up answer's figures are checked too.
func TestFollowUpAnswerChecked(t *testing.T) {
	base := loadScript(t, "bullbear.yaml")
	sc, err := script.New(append(base.Rules,
		script.Rule{TagRegexp: `^ask/\d/bear$`, Reply: &script.Reply{Text: "Net income was $112.5 billion in fiscal 2026, so the margin story is weaker than it looks."}})...)
	if err != nil {
		t.Fatal(err)
	}
	_, dir, env := fakeOpenAI(t, sc)
	mustParley(t, dir, env, "", "debate", "NVDA", "--snapshot", "--model", "test-model")
	id := between(parley(t, dir, env, "", "list", "--json").stdout, `"id": "`, `"`)
	r := mustParley(t, dir, env, "", "ask", id, "--agent", "bear", "--model", "test-model", "What would change your mind?")
	if !strings.Contains(r.stderr, "Fact check of the answer: 1 figure: 0 verified, 1 corrected") || !strings.Contains(r.stderr, "per the filing, net income FY2026 was $120.1B") {
		t.Errorf("follow-up answer not checked:\n%s", r.stderr)
	}
}

// TestBalanceAndTaxFiguresCheckedEndToEnd: total assets and the effective
// tax rate an agent states are held to the filings through the binary,
// as every other line: a wrong total is corrected with the filing's, a
// right rate verified. Both were once left unverified however wrong.
func TestBalanceAndTaxFiguresCheckedEndToEnd(t *testing.T) {
	base := loadScript(t, "bullbear.yaml")
	sc, err := script.New(append(base.Rules,
		script.Rule{TagRegexp: `^ask/\d/bull$`, Reply: &script.Reply{Text: "NVIDIA's total assets were $250.0 billion at the end of fiscal 2026, and its effective tax rate was 15.1% in fiscal 2026."}})...)
	if err != nil {
		t.Fatal(err)
	}
	_, dir, env := fakeOpenAI(t, sc)
	mustParley(t, dir, env, "", "debate", "NVDA", "--snapshot", "--model", "test-model")
	id := between(parley(t, dir, env, "", "list", "--json").stdout, `"id": "`, `"`)
	r := mustParley(t, dir, env, "", "ask", id, "--agent", "bull", "--model", "test-model", "How strong is the balance sheet?")
	for _, want := range []string{"Fact check of the answer: 2 figures: 1 verified, 1 corrected", "per the filing, total assets FY2026 was $206.8B"} {
		if !strings.Contains(r.stderr, want) {
			t.Errorf("the answer's check lacks %q:\n%s", want, r.stderr)
		}
	}
}
