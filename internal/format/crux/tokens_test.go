package crux_test

import (
	"fmt"
	"strings"
	"testing"

	"github.com/parleyhq/parley/internal/format/crux"
	"github.com/parleyhq/parley/internal/format/formattest"
	"github.com/parleyhq/parley/internal/llm/script"
)

// TestTokensSharePrefixes runs a debate of the default length (the locked
// crux, then the default twelve EVIDENCE messages of about 100 words): both
// personas' requests start with one system prompt and the transcript, which
// only grows at its end; the volatile status (commitments, steelmans,
// falsifiers) and the turn come last. So most of every request repeats a
// prefix of an earlier one, refused moves' repairs included.
func TestTokensSharePrefixes(t *testing.T) {
	var rules []script.Rule
	for _, r := range lockedCruxRules() {
		if n := r.Tag; n < "m11" || strings.HasPrefix(n, "moderator/") {
			rules = append(rules, r)
		}
	}
	opts := lockedCruxOptions()
	opts.EvidenceBudget = crux.DefaultEvidenceBudget
	for i := range crux.DefaultEvidenceBudget {
		n, who := 11+i, []string{"saylor", "hayes"}[i%2]
		content := fmt.Sprintf("Evidence %d: ", n) + formattest.Prose(fmt.Sprintf("in drawdown %d", n), 70, strings.Fields("ETF flows funding rates "+
			"moved together halving miners reserve treasury inflation hedge liquidity leverage custody volatility drawdown")...) + "."
		rules = append(rules, rule(fmt.Sprintf("m%02d/%s", n, who), mv(map[string]any{"move": "PROVIDE_EVIDENCE", "content": content})))
	}
	f := newFixture(t, opts, rules...)
	f.MustRun()
	rep := f.Tokens()
	t.Log(rep)
	if rep.Shared() < 0.8 {
		t.Errorf("%.1f%% of request bytes repeat an earlier prefix, want at least 80%%: %v", 100*rep.Shared(), rep)
	}
}
