package app

import (
	"fmt"

	"github.com/parleyhq/parley/internal/debate"
	"github.com/parleyhq/parley/internal/llm"
	"github.com/parleyhq/parley/internal/report"
)

// tokensText is a usage as every front-end's closing lines say it, counts
// with thousands separators as the documents' tables write them: "13,779
// input tokens (0 cached), 1,100 output tokens".
// A server that sent no counts for some calls (llm.Usage.Unreported) makes
// the counts a lower bound, or unknown when none was sent: never a "0" that
// reads as free.
//
// Prompt tokens written to the provider's cache (Anthropic bills them above
// the input rate) are said too: without them a follow-up that sends the
// whole debate read "73 input tokens (0 cached)".
func tokensText(u llm.Usage) string {
	cache := report.Thousands(u.CacheReadTokens) + " cached"
	if u.CacheWriteTokens > 0 {
		cache += ", " + report.Thousands(u.CacheWriteTokens) + " written to the cache"
	}
	counts := fmt.Sprintf("%s input tokens (%s), %s output tokens",
		report.Thousands(u.InputTokens), cache, report.Thousands(u.OutputTokens))
	switch {
	case u.Unreported && u.Total() == 0:
		return "tokens unknown (the server sent no counts)"
	case u.Unreported:
		return "at least " + counts + " (some calls' counts unknown)"
	}
	return counts
}

// DebateTotals is the closing line's account of a debate: its turns, tokens
// and cost ("16 turns, 13,779 input tokens (0 cached), 1,100 output tokens,
// cost $0.0364"). A debate no model took part in says so, without token
// counts that can only be zero.
func DebateTotals(st *debate.State) string {
	sp := report.Total(report.Usage(st)).Spend()
	turns := fmt.Sprintf("%d turns", len(st.Done))
	if len(st.Done) == 1 {
		turns = "1 turn"
	}
	if sp.LLMTurns == 0 && st.Usage == (llm.Usage{}) {
		return turns + ", " + sp.Text("cost")
	}
	return turns + ", " + tokensText(st.Usage) + ", " + sp.Text("cost")
}

// TurnTotals is the closing line's account of one turn, a follow-up
// answer: its tokens and cost ("1,200 input tokens (0 cached), 80 output
// tokens, cost $0.0012"), the cost said unknown for a model without a price.
func TurnTotals(tc debate.TurnCompleted) string {
	return tokensText(tc.Usage) + ", " + report.TurnSpend(tc.Model, tc.Usage, tc.CostUSD, tc.NoLLM, tc.Priced).Text("cost")
}
