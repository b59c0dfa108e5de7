package council_test

import (
	"fmt"
	"strings"
	"testing"

	"github.com/parleyhq/parley/internal/format/council"
	"github.com/parleyhq/parley/internal/format/formattest"
	"github.com/parleyhq/parley/internal/llm/fakellm"
	"github.com/parleyhq/parley/internal/llm/script"
)

var roundWords = []string{"one", "two", "three", "four", "five"}

// argument is the prose of a rationale: n sentences without a figure, of
// about ten words each, that differ from round to round and agent to agent
// as real agents' do (repeated text would make the new words each request
// carries look fewer than they are); argument(r, id, k) starts
// argument(r, id, n) for k < n.
func argument(r int, id string, n int) string {
	var b strings.Builder
	for k := range n {
		b.WriteString(sentence(fmt.Sprintf("%s %s %s", roundWords[r-1], id, letters(k)), 6))
	}
	return b.String()
}

// letters names k without a digit (a sentence with a figure is one that
// condensed rounds keep).
func letters(k int) string { return string(rune('a'+k/26)) + string(rune('a'+k%26)) }

// sentence is n words of prose after id, ending with a full stop.
func sentence(id string, n int) string {
	return formattest.Prose(id, n, strings.Fields("churn pricing demand supplier margin sentiment search traffic valuation multiple "+
		"competitor launch retention backlog forecast guidance downside upside moat")...) + ". "
}

// TestTokensSharePrefixes runs the longest council debate (five rounds, no
// consensus) with 550-word analyses and 150-word positions, each with a
// claim, a figure with its source and a challenge: every request repeats the
// shared context and the debate so far as a prefix of the next, and rounds
// older than the last one or two are condensed, so a request grows by a few
// lines per round, without losing a figure, a challenge or a position.
//
// The ratio to a full-transcript resend is logged, not asserted (0.71): it
// cannot reach 0.5 together with the shared prefix without dropping what an
// agent must weigh. The spec gives each agent its own Phase 1 analysis (the
// first 2,000 characters) every round; for the requests to share a prefix,
// all three are in it (1,530 tokens here), which with the system prompt and
// schema (415) and the task (110) is 2,070 tokens of each of the 15 debate
// requests: 31,050, plus 1,100 for the analyses' own requests, against a
// resend total of 84,170, whose half is 42,085. That leaves 9,900 tokens for
// the debate in 15 requests, and from round 2 each agent must at least see
// the other two agents' latest positions in full (about 700 tokens: 8,400 in
// 12 requests, and 1,000 in round 1): 500 tokens would be left for every
// older round and the agent's own last position, so the figures and open
// challenges of older rounds would go. Each agent's own analysis alone, last
// in its request, costs 44,300 tokens (0.53) but leaves 63.5% of the bytes
// in a shared prefix.
func TestTokensSharePrefixes(t *testing.T) {
	var rules []script.Rule
	for _, id := range three {
		var analysis strings.Builder
		for k := range 50 {
			analysis.WriteString(sentence(fmt.Sprintf("analysis %s %s", id, letters(k)), 5))
		}
		rules = append(rules, script.Rule{Tag: "analysis/" + id, Reply: &script.Reply{Text: analysis.String()}})
	}
	for r := 1; r <= council.MaxMaxRounds; r++ {
		for i, id := range three {
			position := []string{"GO", "NOGO", "GO"}[i]
			rationale := fmt.Sprintf("rationale-r%d-%s: the thesis holds on the %s evidence. ", r, id, id) + argument(r, id, 18) +
				figure(r, i)
			rep := pos(position, 0.7, rationale, "", challenge(r, i))
			rules = append(rules, script.Rule{Tag: fmt.Sprintf("r%d/%s", r, id), Reply: &rep})
		}
	}
	f := newFixture(t, council.Options{MaxRounds: council.MaxMaxRounds}, rules...)
	f.MustRun()
	rep := f.Tokens()
	t.Log(rep)
	// Round 5 sees rounds 1 and 2 condensed, rounds 3 and 4 in full.
	pr := f.prompt("r5/valuation")
	if !strings.Contains(pr, "rationale-r1-search: the thesis holds") || strings.Contains(pr, argument(1, "search", 2)) {
		t.Error("round 1 is not condensed in round 5's prompt")
	}
	if !strings.Contains(pr, argument(4, "search", 18)) {
		t.Error("round 4 is not in full in round 5's prompt")
	}
	// Condensed or not, every figure with its source, every challenge and
	// every position is there.
	for r := 1; r <= 4; r++ {
		for i, id := range three {
			for _, want := range []string{figure(r, i), challenge(r, i), fmt.Sprintf("Round %d — %s Agent: %s (70%% confidence)", r, strings.ToUpper(id[:1])+id[1:], []string{"GO", "NOGO", "GO"}[i])} {
				if !strings.Contains(pr, want) {
					t.Errorf("round 5's prompt lacks round %d's %q", r, want)
				}
			}
		}
	}
	first, last := f.Requests("r1/search")[0], f.Requests("r5/search")[0]
	perRound := (fakellm.InputTokens(last) - fakellm.InputTokens(first)) / 4
	if full := fakellm.Tokens(argument(4, "search", 20)) * 3; perRound >= full {
		t.Errorf("a request grows by %d tokens a round, want less than a round of positions in full (%d)", perRound, full)
	}
	if rep.Shared() < 0.8 {
		t.Errorf("%.1f%% of request bytes repeat an earlier prefix, want at least 80%%: %v", 100*rep.Shared(), rep)
	}
}

func figure(r, i int) string {
	return fmt.Sprintf("Revenue grew %d.5%% in fiscal 2025 (10-K, note %d).", 10*r+i, r+i)
}

func challenge(r, i int) string {
	return fmt.Sprintf("The %s Agent's round %s case is the weakest: it ignores that churn rose to %d%% (Q3 survey).", []string{"Valuation", "Search", "Sentiment"}[i], roundWords[max(r-2, 0)], 5+r+i)
}
