package bullbear

import (
	"fmt"
	"slices"
	"strings"

	"github.com/parleyhq/parley/internal/debate"
	"github.com/parleyhq/parley/internal/llm"
	"github.com/parleyhq/parley/internal/llm/pricing"
)

// AgentUsage is one agent's line of the token and cost report.
type AgentUsage struct {
	Agent  string
	Models []string // "provider/model" of its LLM turns, in first-use order
	Turns  int      // completed turns, follow-up answers included
	NoLLM  int      // of which data-only
	Usage  llm.Usage
	// CostUSD is what the turns cost; CostKnown is false when a model has no
	// price, so that the report says "unknown" rather than a wrong $0.
	CostUSD   float64
	CostKnown bool
}

// UsageReport is the spec's token and cost report: per agent, the input
// tokens (uncached), the cached input tokens, the output tokens and the cost,
// for bull, bear and moderator in that order (follow-up answers count
// towards their agent). A turn's recorded cost is used when it has one;
// otherwise it is priced from the built-in table.
func UsageReport(s *debate.State) []AgentUsage {
	table := pricing.Default()
	byAgent := map[string]*AgentUsage{}
	order := []string{AgentBull, AgentBear, AgentModerator}
	for _, a := range order {
		byAgent[a] = &AgentUsage{Agent: a, CostKnown: true}
	}
	for _, t := range s.CompletedTurns() {
		au := byAgent[t.Agent]
		if au == nil {
			au = &AgentUsage{Agent: t.Agent, CostKnown: true}
			byAgent[t.Agent] = au
			order = append(order, t.Agent)
		}
		au.Turns++
		au.Usage = au.Usage.Add(t.Usage)
		if t.NoLLM {
			au.NoLLM++
			continue
		}
		if t.Model != "" && !slices.Contains(au.Models, t.Model) {
			au.Models = append(au.Models, t.Model)
		}
		cost := t.CostUSD
		if cost == 0 {
			provider, name, _ := strings.Cut(t.Model, "/")
			usd, known := table.CostFor(provider, name, t.Usage)
			cost = usd
			if !known {
				au.CostKnown = false
			}
		}
		au.CostUSD += cost
	}
	var out []AgentUsage
	for _, a := range order {
		if au := byAgent[a]; au.Turns > 0 {
			out = append(out, *au)
		}
	}
	return out
}

// report writes the token and cost report as a Markdown table.
func report(b *strings.Builder, s *debate.State) {
	rows := UsageReport(s)
	if len(rows) == 0 {
		return
	}
	b.WriteString("\n## 💰 TOKENS AND COST\n\n")
	if allNoLLM(s) && !hasAsk(s) {
		b.WriteString("No LLM was used: no tokens, no cost.\n")
		return
	}
	b.WriteString("| Agent | Model | Turns | Input | Cached input | Output | Cost |\n")
	b.WriteString("| --- | --- | ---: | ---: | ---: | ---: | ---: |\n")
	var total AgentUsage
	total.CostKnown = true
	for _, r := range rows {
		model := strings.Join(r.Models, ", ")
		switch {
		case r.NoLLM == r.Turns:
			model = "data-only (no LLM)"
		case r.NoLLM > 0:
			model += fmt.Sprintf(" (+%d data-only)", r.NoLLM)
		}
		fmt.Fprintf(b, "| %s | %s | %d | %s | %s | %s | %s |\n", title(r.Agent), model, r.Turns,
			thousands(r.Usage.InputTokens), thousands(r.Usage.CacheReadTokens), thousands(r.Usage.OutputTokens), dollars(r))
		total.Turns += r.Turns
		total.Usage = total.Usage.Add(r.Usage)
		total.CostUSD += r.CostUSD
		total.CostKnown = total.CostKnown && r.CostKnown
	}
	fmt.Fprintf(b, "| **Total** | | **%d** | **%s** | **%s** | **%s** | **%s** |\n", total.Turns,
		thousands(total.Usage.InputTokens), thousands(total.Usage.CacheReadTokens), thousands(total.Usage.OutputTokens), dollars(total))
	u := total.Usage
	b.WriteString("\nInput counts the prompt tokens billed at the full rate; cached input, those read from the provider's prompt cache")
	if prompt := u.InputTokens + u.CacheReadTokens + u.CacheWriteTokens; prompt > 0 && u.CacheReadTokens > 0 {
		fmt.Fprintf(b, " (%.0f%% of all prompt tokens)", 100*float64(u.CacheReadTokens)/float64(prompt))
	}
	b.WriteString(".")
	if u.CacheWriteTokens > 0 {
		fmt.Fprintf(b, " %s prompt tokens were written to the cache.", thousands(u.CacheWriteTokens))
	}
	if !total.CostKnown {
		b.WriteString(" A model without a known price makes the cost unknown.")
	}
	b.WriteString("\n")
}

func hasAsk(s *debate.State) bool {
	for _, t := range s.CompletedTurns() {
		if isAsk(t) && !t.NoLLM {
			return true
		}
	}
	return false
}

func dollars(r AgentUsage) string {
	switch {
	case r.NoLLM == r.Turns:
		return "—"
	case !r.CostKnown && r.CostUSD > 0:
		return fmt.Sprintf("≥ $%.4f", r.CostUSD)
	case !r.CostKnown:
		return "unknown"
	}
	return fmt.Sprintf("$%.4f", r.CostUSD)
}

// thousands writes n with thousands separators.
func thousands(n int) string {
	s := fmt.Sprint(n)
	if n < 0 {
		return "-" + thousands(-n)
	}
	for i := len(s) - 3; i > 0; i -= 3 {
		s = s[:i] + "," + s[i:]
	}
	return s
}
