package council_test

import (
	"fmt"
	"strings"
	"testing"

	"github.com/parleyhq/parley/internal/format/council"
	"github.com/parleyhq/parley/internal/llm/fakellm"
	"github.com/parleyhq/parley/internal/llm/script"
)

// TestTokensSharePrefixes runs the longest council debate (five rounds, no
// consensus) with 400-word analyses and 150-word positions: every request
// repeats the shared context and the debate so far as a prefix of the next,
// and rounds older than the last one or two are condensed, so a request grows
// by a few lines per round. (The ratio to a full-transcript resend is logged,
// not asserted: in five rounds the spec's 2,000-character analyses, which a
// resend carries too, are most of every request.)
func TestTokensSharePrefixes(t *testing.T) {
	var rules []script.Rule
	for _, id := range three {
		rules = append(rules, script.Rule{Tag: "analysis/" + id, Reply: &script.Reply{Text: strings.Repeat("Phase 1 analysis by "+id+": the evidence in my domain is mixed. ", 50)}})
	}
	for r := 1; r <= council.MaxMaxRounds; r++ {
		for i, id := range three {
			position := []string{"GO", "NOGO", "GO"}[i]
			rationale := fmt.Sprintf("rationale-r%d-%s: ", r, id) + strings.Repeat(fmt.Sprintf("round %d evidence from %s weighs on the thesis. ", r, id), 20)
			rep := pos(position, 0.7, rationale, "", "the weakest point of another agent")
			rules = append(rules, script.Rule{Tag: fmt.Sprintf("r%d/%s", r, id), Reply: &rep})
		}
	}
	f := newFixture(t, council.Options{MaxRounds: council.MaxMaxRounds}, rules...)
	f.MustRun()
	rep := f.Tokens()
	t.Log(rep)
	// Round 5 sees rounds 1 and 2 condensed, rounds 3 and 4 in full.
	pr := f.prompt("r5/valuation")
	if !strings.Contains(pr, "rationale-r1-search: round 1 evidence") || strings.Contains(pr, strings.Repeat("round 1 evidence from search weighs on the thesis. ", 6)) {
		t.Error("round 1 is not condensed in round 5's prompt")
	}
	if !strings.Contains(pr, strings.Repeat("round 4 evidence from search weighs on the thesis. ", 19)) {
		t.Error("round 4 is not in full in round 5's prompt")
	}
	first, last := f.Requests("r1/search")[0], f.Requests("r5/search")[0]
	perRound := (fakellm.InputTokens(last) - fakellm.InputTokens(first)) / 4
	if full := fakellm.Tokens(strings.Repeat("round 4 evidence from search weighs on the thesis. ", 20)) * 3; perRound >= full {
		t.Errorf("a request grows by %d tokens a round, want less than a round of positions in full (%d)", perRound, full)
	}
	if rep.Shared() < 0.8 {
		t.Errorf("%.1f%% of request bytes repeat an earlier prefix, want at least 80%%: %v", 100*rep.Shared(), rep)
	}
}
