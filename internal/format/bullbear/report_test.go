package bullbear_test

import (
	"math"
	"strings"
	"testing"

	"github.com/parleyhq/parley/internal/debate"
	"github.com/parleyhq/parley/internal/format/bullbear"
	"github.com/parleyhq/parley/internal/llm"
	"github.com/parleyhq/parley/internal/llm/pricing"
)

func stateWithTurns(turns ...*debate.Turn) *debate.State {
	s := &debate.State{ID: "DEB-r", Format: bullbear.Name, Topic: "NVDA", Status: debate.StatusCompleted, Turns: map[string]*debate.Turn{}}
	for _, t := range turns {
		t.Status = debate.TurnDone
		s.Turns[t.ID] = t
		s.Done = append(s.Done, t.ID)
		s.Usage = s.Usage.Add(t.Usage)
	}
	return s
}

func turn(id, agent, model string, u llm.Usage, cost float64) *debate.Turn {
	return &debate.Turn{TurnRef: debate.TurnRef{ID: id, Agent: agent, Role: agent}, Model: model, Usage: u, CostUSD: cost, NoLLM: model == "data-only"}
}

// pricedTurn is a turn as the runner records it: priced at turn time by the
// built-in table (reports count a turn at its recorded cost, never price it
// again when read).
func pricedTurn(t *testing.T, id, agent, model string, u llm.Usage) *debate.Turn {
	t.Helper()
	provider, name, _ := strings.Cut(model, "/")
	cost, ok := pricing.Default().CostFor(provider, name, u)
	if !ok {
		t.Fatalf("no built-in price for %s", model)
	}
	tr := turn(id, agent, model, u, cost)
	tr.Priced = true
	return tr
}

func TestUsageReport(t *testing.T) {
	sonnet := "anthropic/claude-sonnet-4-5"
	s := stateWithTurns(
		pricedTurn(t, "research/bull", "bull", sonnet, llm.Usage{InputTokens: 1000, OutputTokens: 200, CacheWriteTokens: 500}),
		pricedTurn(t, "opening/bull", "bull", sonnet, llm.Usage{InputTokens: 400, OutputTokens: 300, CacheReadTokens: 3000}),
		turn("research/bear", "bear", sonnet, llm.Usage{InputTokens: 900, OutputTokens: 100}, 0.5), // a recorded cost wins
		turn("opening/bear", "bear", "data-only", llm.Usage{}, 0),
		turn("synthesis/moderator", "moderator", "openai/my-finetune", llm.Usage{InputTokens: 2000, OutputTokens: 400}, 0),
		pricedTurn(t, "ask/1/bull", "bull", sonnet, llm.Usage{InputTokens: 50, OutputTokens: 100, CacheReadTokens: 3000}),
	)
	rows := bullbear.UsageReport(s)
	if len(rows) != 3 || rows[0].Agent != "bull" || rows[1].Agent != "bear" || rows[2].Agent != "moderator" {
		t.Fatalf("rows %+v", rows)
	}
	bull := rows[0]
	if bull.Turns != 3 || bull.Usage != (llm.Usage{InputTokens: 1450, OutputTokens: 600, CacheReadTokens: 6000, CacheWriteTokens: 500}) {
		t.Errorf("bull %+v", bull)
	}
	// Sonnet 4.5: $3 input, $15 output, $0.30 cache read, $3.75 cache write per million.
	want := (1450*3.0 + 600*15.0 + 6000*0.3 + 500*3.75) / 1e6
	if !bull.CostKnown() || math.Abs(bull.CostUSD-want) > 1e-9 {
		t.Errorf("bull cost %v (known %v), want %v", bull.CostUSD, bull.CostKnown(), want)
	}
	if bear := rows[1]; bear.CostUSD != 0.5 || bear.NoLLM != 1 || !bear.CostKnown() {
		t.Errorf("bear %+v", bear)
	}
	if mod := rows[2]; mod.CostKnown() {
		t.Errorf("a model without a price has a known cost: %+v", mod)
	}

	doc, err := bullbear.Format{}.Render(s, debate.RenderOptions{Summary: true})
	if err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{
		"## 💰 TOKENS AND COST",
		"| Agent | Model | Turns | Input | Cached input | Output | Cost |",
		"| Bull | anthropic/claude-sonnet-4-5 | 3 | 1,450 | 6,000 | 600 | $0.0170 |",
		"| Bear | anthropic/claude-sonnet-4-5 (+1 data-only) | 2 | 900 | 0 | 100 | $0.5000 |",
		"| Moderator | openai/my-finetune | 1 | 2,000 | 0 | 400 | unknown |",
		"| **Total** | | **6** | **4,350** | **6,000** | **1,100** | **≥ $0.5170** |",
		"Costs marked ≥ leave out the turns of models without a known price (openai/my-finetune): the cost is at least that.",
		"(55% of all prompt tokens)", "500 prompt tokens were written to the cache",
	} {
		if !strings.Contains(doc, want) {
			t.Errorf("report lacks %q:\n%s", want, doc)
		}
	}
}
