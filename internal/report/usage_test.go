package report

import (
	"strings"
	"testing"

	"github.com/parleyhq/parley/internal/debate"
	"github.com/parleyhq/parley/internal/llm"
)

func TestUsageTable(t *testing.T) {
	s := &debate.State{Turns: map[string]*debate.Turn{}}
	add := func(id, agent, model string, u llm.Usage, noLLM bool) {
		s.Turns[id] = &debate.Turn{TurnRef: debate.TurnRef{ID: id, Agent: agent}, Status: debate.TurnDone, Model: model, Usage: u, NoLLM: noLLM}
		s.Done = append(s.Done, id)
	}
	add("a", "performance-advocate", "anthropic/claude-sonnet-4-5", llm.Usage{InputTokens: 1000, OutputTokens: 100}, false)
	add("b", "moderator", "openai/my-model", llm.Usage{InputTokens: 2000, OutputTokens: 10}, false)
	add("c", "data", "", llm.Usage{}, true)
	var b strings.Builder
	UsageTable(&b, s, "## Tokens and cost", AgentName, "moderator")
	out := b.String()
	for _, want := range []string{
		"| Moderator | openai/my-model | 1 | 2,000 | 0 | 10 | unknown (no price for openai/my-model) |",
		"| Data | data-only (no LLM) | 1 | 0 | 0 | 0 | — |",
		"| Performance Advocate | anthropic/claude-sonnet-4-5 | 1 | 1,000 | 0 | 100 | $0.0045 |",
		"The cost is unknown: no price for openai/my-model.",
	} {
		if !strings.Contains(out, want) {
			t.Errorf("table lacks %q:\n%s", want, out)
		}
	}
	if strings.Index(out, "| Moderator") > strings.Index(out, "| Data") || strings.Index(out, "| Data") > strings.Index(out, "| Performance") {
		t.Errorf("rows out of order (given first, then by id):\n%s", out)
	}
}
