package bullbear

import (
	"strings"

	"github.com/parleyhq/parley/internal/debate"
	"github.com/parleyhq/parley/internal/report"
)

// AgentUsage is one agent's line of the token and cost report.
type AgentUsage = report.AgentUsage

// UsageReport is the spec's token and cost report: per agent, the input
// tokens (uncached), the cached input tokens, the output tokens and the cost,
// for bull, bear and moderator in that order (follow-up answers count
// towards their agent).
func UsageReport(s *debate.State) []AgentUsage {
	return report.Usage(s, AgentBull, AgentBear, AgentModerator)
}

// writeReport writes the token and cost report as a Markdown table.
func writeReport(b *strings.Builder, s *debate.State) {
	if allNoLLM(s) && !hasAsk(s) && len(UsageReport(s)) > 0 {
		b.WriteString("\n## 💰 TOKENS AND COST\n\nNo LLM was used: no tokens, no cost.\n")
		return
	}
	report.UsageTable(b, s, "## 💰 TOKENS AND COST", title, AgentBull, AgentBear, AgentModerator)
}

func hasAsk(s *debate.State) bool {
	for _, t := range s.CompletedTurns() {
		if isAsk(t) && !t.NoLLM {
			return true
		}
	}
	return false
}
