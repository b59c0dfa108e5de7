package apierr

import "github.com/parleyhq/parley/internal/llm"

// MaxCount bounds a token count one call can have: far above any model's
// context window (the largest hold a few million tokens) and its output,
// and far enough below the largest int that sums of many calls' counts do
// not overflow.
const MaxCount = 1 << 30

// Counts returns u, or u with its counts unknown (llm.Usage.Unreported,
// the counts 0) when one of them is no call's: below 0, or above
// MaxCount. A server that sent such counts (a hostile one, or a broken
// relay's) would otherwise lower the usage and the cost the budgets hold
// (a negative count), or make their sums overflow. What the server said
// the call cost is kept: it is read on its own (see llm.Usage).
func Counts(u llm.Usage) llm.Usage {
	for _, n := range []int{u.InputTokens, u.OutputTokens, u.CacheReadTokens, u.CacheWriteTokens} {
		if n < 0 || n > MaxCount {
			return llm.Usage{Unreported: true, ServerCostUSD: u.ServerCostUSD, ServerCost: u.ServerCost}
		}
	}
	return u
}
