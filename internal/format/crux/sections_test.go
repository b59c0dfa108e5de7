package crux_test

import (
	"regexp"
	"slices"
	"strings"
	"testing"

	"github.com/parleyhq/parley/internal/debate"
	"github.com/parleyhq/parley/internal/format/crux"
	"github.com/parleyhq/parley/internal/format/formattest"
	"github.com/parleyhq/parley/internal/llm/script"
)

// TestModelFieldsOpenNoSection: the fields of the agents' moves and of the
// moderator's crystallisation that the report prints (the question, a top
// claim, a falsifier, the summary) are model output: their line breaks,
// headings and open fences open no section of the report, which the
// dashboard folds at its "## " headings, and make no code of the rest.
func TestModelFieldsOpenNoSection(t *testing.T) {
	headings := func(forged string) []string {
		t.Helper()
		rules := []script.Rule{
			rule("m01/saylor", mv(map[string]any{"move": "CLAIM", "content": "Fixed supply makes Bitcoin the hardest money."})),
			rule("m02/hayes", mv(map[string]any{"move": "PROPOSE_QUESTION", "question": "Will Bitcoin fall" + forged + strings.TrimPrefix(question, "Will Bitcoin fall"), "content": "Crash behaviour is where we split."})),
			rule("m03/saylor", commit("NO", "Bitcoin is a store of value"+forged)),
			rule("m04/hayes", commit("YES", "Bitcoin is a liquidity trade")),
			rule("m05/saylor", steelman("hayes")),
			rule("m06/hayes", grade("ACCURATE")),
			rule("m07/saylor", falsifier("BTC drawdown"+forged, "> 50%", "2028-12-31")),
			rule("m08/hayes", steelman("saylor")),
			rule("m09/saylor", grade("ACCURATE")),
			rule("m10/hayes", falsifier("Spot BTC ETF AUM", ">= $100B", "2027-12-31")),
			rule("m11/saylor", mv(map[string]any{"move": "PROVIDE_EVIDENCE", "content": "In March 2020 BTC fell 50% but recovered."})),
			rule("m12/hayes", mv(map[string]any{"move": "CHALLENGE", "target": "saylor", "content": "Recovery is not a hedge."})),
			rule("m13/saylor", mv(map[string]any{"move": "CONCEDE", "content": "Granted.", "top_claim_changed": false})),
			rule("moderator/crystallise", script.Reply{JSON: formattest.JSON(map[string]any{
				"summary": "They disagree on crash behaviour." + forged,
				"counterfactual": []map[string]any{
					{"agent": "saylor", "would_flip": true, "reasoning": "crash behaviour"},
					{"agent": "hayes", "would_flip": true, "reasoning": "liquidity"},
				},
			})}),
		}
		s := newFixture(t, lockedCruxOptions(), rules...).MustRun()
		doc, err := crux.Format{}.Render(s, debate.RenderOptions{})
		if err != nil {
			t.Fatal(err)
		}
		hs := regexp.MustCompile(`(?m)^#{1,3} .*$`).FindAllString(doc, -1)
		if len(hs) > 0 && strings.HasPrefix(hs[0], "# Crux: ") {
			hs[0] = "# Crux" // the question, forged text folded into it
		}
		return hs
	}
	want := headings("")
	if got := headings("\n\n## Forged section\n\n```\n"); !slices.Equal(got, want) {
		t.Errorf("the report's headings are\n%q\nwant\n%q", got, want)
	}
}

// TestRecordedNamesOpenNoSection: a debate recorded with a persona whose
// name breaks the line (a personas file's or a cast's, before the bounds)
// renders with the name on one line: it opens no section of the report.
func TestRecordedNamesOpenNoSection(t *testing.T) {
	s := newFixture(t, lockedCruxOptions(), lockedCruxRules()...).MustRun()
	want := regexp.MustCompile(`(?m)^#{1,3} .*$`).FindAllString(mustRender(t, s), -1)
	s.Options = []byte(strings.Replace(string(s.Options), `"name":"Saylor"`, `"name":"Saylor\n\n## Forged section\n\nBuy"`, 1))
	doc := mustRender(t, s)
	if !strings.Contains(doc, "Saylor ## Forged section Buy") {
		t.Fatalf("the report does not hold the recorded name on one line:\n%s", doc)
	}
	if got := regexp.MustCompile(`(?m)^#{1,3} .*$`).FindAllString(doc, -1); !slices.Equal(got, want) {
		t.Errorf("the report's headings are\n%q\nwant\n%q", got, want)
	}
}

func mustRender(t *testing.T, s *debate.State) string {
	t.Helper()
	doc, err := crux.Format{}.Render(s, debate.RenderOptions{})
	if err != nil {
		t.Fatal(err)
	}
	return doc
}
