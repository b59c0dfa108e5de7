package report

import (
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/parleyhq/parley/internal/debate"
	"github.com/parleyhq/parley/internal/llm"
)

func TestUsageTable(t *testing.T) {
	s := &debate.State{Turns: map[string]*debate.Turn{}}
	add := func(id, agent, model string, u llm.Usage, usd float64, noLLM bool) {
		s.Turns[id] = &debate.Turn{TurnRef: debate.TurnRef{ID: id, Agent: agent}, Status: debate.TurnDone, Model: model, Usage: u, CostUSD: usd, Priced: usd > 0, NoLLM: noLLM}
		s.Done = append(s.Done, id)
	}
	add("a", "performance-advocate", "anthropic/claude-sonnet-4-5", llm.Usage{InputTokens: 1000, OutputTokens: 100}, 0.0045, false)
	add("b", "moderator", "openai/my-model", llm.Usage{InputTokens: 2000, OutputTokens: 10}, 0, false)
	add("c", "data", "", llm.Usage{}, 0, true)
	var b strings.Builder
	UsageTable(&b, s, "## Tokens and cost", AgentName, "moderator")
	out := b.String()
	for _, want := range []string{
		"| Moderator | openai/my-model | 1 | 2,000 | 0 | 10 | unknown |",
		"| Data | data-only (no LLM) | 1 | 0 | 0 | 0 | no model |",
		"| Performance Advocate | anthropic/claude-sonnet-4-5 | 1 | 1,000 | 0 | 100 | $0.0045 |",
		"| **Total** | | **3** | **3,000** | **0** | **110** | **≥ $0.0045** |",
		"Costs marked ≥ leave out the turns of models without a known price (openai/my-model): the cost is at least that.",
	} {
		if !strings.Contains(out, want) {
			t.Errorf("table lacks %q:\n%s", want, out)
		}
	}
	// The models without a price are named once, in the note, not in cells.
	if n := strings.Count(out, "openai/my-model"); n != 2 {
		t.Errorf("openai/my-model named %d times, want 2 (its row's model and the note):\n%s", n, out)
	}
	if strings.Index(out, "| Moderator") > strings.Index(out, "| Data") || strings.Index(out, "| Data") > strings.Index(out, "| Performance") {
		t.Errorf("rows out of order (given first, then by id):\n%s", out)
	}
}

func TestUsageTableAllUnpriced(t *testing.T) {
	s := &debate.State{Turns: map[string]*debate.Turn{}}
	for i, agent := range []string{"pro", "con"} {
		id := string(rune('a' + i))
		s.Turns[id] = &debate.Turn{TurnRef: debate.TurnRef{ID: id, Agent: agent}, Status: debate.TurnDone, Model: "vendor/x-" + agent, Usage: llm.Usage{InputTokens: 10, OutputTokens: 10}}
		s.Done = append(s.Done, id)
	}
	var b strings.Builder
	UsageTable(&b, s, "## Tokens and cost", AgentName)
	out := b.String()
	for _, want := range []string{
		"| Con | vendor/x-con | 1 | 10 | 0 | 10 | unknown |",
		"| **Total** | | **2** | **20** | **0** | **20** | **unknown** |",
		"The cost is unknown: no price for vendor/x-con, vendor/x-pro.",
	} {
		if !strings.Contains(out, want) {
			t.Errorf("table lacks %q:\n%s", want, out)
		}
	}
}

// A server that sent no token counts leaves its cells unknown, or "≥" the
// counts of the turns that had them, not 0: a column of zeros reads as a
// debate that cost nothing.
func TestUsageTableUnreported(t *testing.T) {
	s := &debate.State{Turns: map[string]*debate.Turn{}}
	add := func(id, agent string, u llm.Usage) {
		s.Turns[id] = &debate.Turn{TurnRef: debate.TurnRef{ID: id, Agent: agent}, Status: debate.TurnDone, Model: "openai/local", Usage: u}
		s.Done = append(s.Done, id)
	}
	add("a", "pro", llm.Usage{Unreported: true})
	add("b", "con", llm.Usage{InputTokens: 1200, OutputTokens: 30})
	add("c", "con", llm.Usage{Unreported: true})
	var b strings.Builder
	UsageTable(&b, s, "## Tokens and cost", AgentName)
	out := b.String()
	for _, want := range []string{
		"| Pro | openai/local | 1 | unknown | unknown | unknown | unknown |",
		"| Con | openai/local | 2 | ≥ 1,200 | unknown | ≥ 30 | unknown |",
		"| **Total** | | **3** | **≥ 1,200** | **unknown** | **≥ 30** | **unknown** |",
	} {
		if !strings.Contains(out, want) {
			t.Errorf("table lacks %q:\n%s", want, out)
		}
	}
}

func TestSpend(t *testing.T) {
	for _, c := range []struct {
		name       string
		s          Spend
		cell, text string
		note       string
	}{
		{"no turns yet", Spend{}, "—", "no cost yet", ""},
		{"data-only", Spend{Turns: 7}, "no model", "no cost (no model used)", ""},
		{"known price", Spend{USD: 0.01234, Turns: 3, LLMTurns: 3}, "$0.0123", "cost $0.0123", ""},
		{"free local model", Spend{Turns: 2, LLMTurns: 2}, "$0.0000", "cost $0.0000", ""},
		{"data and priced model", Spend{USD: 0.5, Turns: 9, LLMTurns: 2}, "$0.5000", "cost $0.5000", ""},
		{"unknown price", Spend{Turns: 2, LLMTurns: 2, Unpriced: []string{"openai/x"}}, "unknown", "cost unknown (no price for openai/x)",
			"The cost is unknown: no price for openai/x."},
		{"mixed", Spend{USD: 0.02, Turns: 4, LLMTurns: 3, Unpriced: []string{"openai/x", "vendor/y"}}, "≥ $0.0200",
			"cost ≥ $0.0200 (no price for openai/x, vendor/y)",
			"Costs marked ≥ leave out the turns of models without a known price (openai/x, vendor/y): the cost is at least that."},
	} {
		if got := c.s.Cell(); got != c.cell {
			t.Errorf("%s: Cell() = %q, want %q", c.name, got, c.cell)
		}
		if got := c.s.Text("cost"); got != c.text {
			t.Errorf("%s: Text() = %q, want %q", c.name, got, c.text)
		}
		if got := c.s.UnpricedNote(); got != c.note {
			t.Errorf("%s: UnpricedNote() = %q, want %q", c.name, got, c.note)
		}
	}
}

func TestSpendAdd(t *testing.T) {
	// A batch: a data-only debate, a priced one, two with unknown prices.
	var total Spend
	for _, s := range []Spend{
		{Turns: 7},
		{USD: 0.25, Turns: 3, LLMTurns: 3},
		{Turns: 2, LLMTurns: 2, Unpriced: []string{"openai/x"}},
		{Turns: 2, LLMTurns: 2, Unpriced: []string{"openai/x"}},
	} {
		total = total.Add(s)
	}
	if got, want := total.Text("total cost"), "total cost ≥ $0.2500 (no price for openai/x)"; got != want {
		t.Errorf("total %+v: %q, want %q", total, got, want)
	}
	if d := (Spend{Turns: 7}).Add(Spend{Turns: 1}); !d.DataOnly() || d.Cell() != "no model" {
		t.Errorf("two data-only debates add up to %+v (%q), want data-only", d, d.Cell())
	}
}

func TestSummarySpend(t *testing.T) {
	for _, c := range []struct {
		sum  debate.Summary
		want string
	}{
		{debate.Summary{Turns: 7}, "no model"},
		{debate.Summary{Turns: 3, LLMTurns: 3, CostUSD: 0.1}, "$0.1000"},
		{debate.Summary{Turns: 3, LLMTurns: 3, Unpriced: []string{"openai/x"}}, "unknown"},
	} {
		if got := SummarySpend(c.sum).Cell(); got != c.want {
			t.Errorf("%+v: %q, want %q", c.sum, got, c.want)
		}
	}
}

func TestSpendNamesAreInert(t *testing.T) {
	s := Spend{Turns: 1, LLMTurns: 1, Unpriced: []string{"evil/\x1b]8;;http://x\x07m", "long/" + strings.Repeat("x", 200)}}
	text := s.Text("cost")
	if strings.ContainsAny(text, "\x1b\x07") {
		t.Errorf("a control character reached the text: %q", text)
	}
	if len([]rune(text)) > 200 {
		t.Errorf("a 200-character model name was not shortened: %q", text)
	}
}

// TestUsagePricedAtZero: a turn priced at $0 when it ran (a price of 0 the
// user gave) is free in the report, as in the summaries: neither re-priced
// from the built-in table nor unknown.
func TestUsagePricedAtZero(t *testing.T) {
	s := &debate.State{Turns: map[string]*debate.Turn{}}
	for i, model := range []string{"anthropic/claude-sonnet-4-5", "gateway/free-model"} {
		id := string(rune('a' + i))
		s.Turns[id] = &debate.Turn{TurnRef: debate.TurnRef{ID: id, Agent: "pro"}, Status: debate.TurnDone, Model: model, Priced: true, Usage: llm.Usage{InputTokens: 1000, OutputTokens: 100}}
		s.Done = append(s.Done, id)
	}
	total := Total(Usage(s)).Spend()
	if total.USD != 0 || !total.Known() || total.Cell() != "$0.0000" {
		t.Errorf("spend %+v (%s), want a known $0", total, total.Cell())
	}
	for _, id := range []string{"a", "b"} {
		if sp := TurnSpend(s.Turns[id].Model, s.Turns[id].Usage, s.Turns[id].CostUSD, s.Turns[id].NoLLM, s.Turns[id].Priced); !sp.Known() {
			t.Errorf("turn %s: unknown", id)
		}
	}
}

// TestUsageAgreesWithSummary: the report's total is the debate's summary
// (what list views show) whatever the turns: recorded costs are not priced
// again, and the models without a price are those debate.Project names. A
// turn recorded at $0 before turns said whether they were priced, of a
// model the built-in table prices, stays $0 (it was priced at $0 when it
// ran, or ran without prices), as in the summary.
func TestUsageAgreesWithSummary(t *testing.T) {
	const id = "d"
	at := time.Date(2025, 1, 2, 3, 4, 5, 0, time.UTC)
	u := llm.Usage{InputTokens: 1000, OutputTokens: 100}
	payloads := []debate.Payload{
		debate.Created{Format: "perspectives", Topic: "t"},
		debate.TurnCompleted{Turn: debate.TurnRef{ID: "a", Agent: "pro"}, Text: "a", Usage: u, Model: "anthropic/claude-sonnet-4-5"},
		debate.TurnCompleted{Turn: debate.TurnRef{ID: "b", Agent: "pro"}, Text: "b", Usage: u, CostUSD: 0.01, Priced: true, Model: "anthropic/claude-sonnet-4-5"},
		debate.TurnCompleted{Turn: debate.TurnRef{ID: "c", Agent: "con"}, Text: "c", Usage: u, Model: "vendor/x-1"},
		debate.TurnCompleted{Turn: debate.TurnRef{ID: "d", Agent: "con"}, Text: "d", Usage: u, Priced: true, Model: "gateway/free"},
		debate.TurnCompleted{Turn: debate.TurnRef{ID: "e", Agent: "data"}, Text: "e", NoLLM: true, Model: debate.DataOnlyModel},
	}
	var (
		events []debate.Event
		sum    debate.Summary
	)
	for i, p := range payloads {
		e, err := debate.NewEvent(id, at.Add(time.Duration(i)*time.Second), p)
		if err != nil {
			t.Fatal(err)
		}
		e.Seq = int64(i + 1)
		events = append(events, e)
		debate.Project(&sum, e)
	}
	st, err := debate.Fold(events)
	if err != nil {
		t.Fatal(err)
	}
	got, want := Total(Usage(st)).Spend(), SummarySpend(sum)
	if got.USD != want.USD || got.Turns != want.Turns || got.LLMTurns != want.LLMTurns || !slices.Equal(got.Unpriced, want.Unpriced) {
		t.Errorf("report %+v, summary %+v: they disagree", got, want)
	}
	if got.USD != 0.01 || !slices.Equal(got.Unpriced, []string{"vendor/x-1"}) {
		t.Errorf("report %+v, want $0.01 with vendor/x-1 unpriced", got)
	}
}

// TestWithUsageNamesAgentsAsTheTranscript: the token table and the
// follow-ups call each agent what its turns' headings did ("PRO · opening"
// → PRO, not "Pro" made from the id "pro"); an agent whose labels name no
// one keeps the name made from its id, and a name that would break the
// table's cells is escaped.
func TestWithUsageNamesAgentsAsTheTranscript(t *testing.T) {
	s := &debate.State{Turns: map[string]*debate.Turn{}}
	add := func(id, agent, label string) {
		s.Turns[id] = &debate.Turn{TurnRef: debate.TurnRef{ID: id, Agent: agent, Label: label}, Status: debate.TurnDone, Model: "openai/m", Usage: llm.Usage{InputTokens: 10, OutputTokens: 1}}
		s.Done = append(s.Done, id)
	}
	add("r0/pro", "pro", "PRO · opening")
	add("r0/opp", "opp", "OPP · opening")
	add("verdict", "moderator", "verdict")
	add("r0/x", "x", "A | B · argument")
	add("ask/1/pro", "pro", "Pro · follow-up")
	s.Notes = append(s.Notes, debate.NoteEvent{Note: debate.Note{Kind: NoteAsk, Data: []byte(`{"turn":"ask/1/pro","agent":"pro","question":"Why?"}`)}})

	out, err := WithUsage(s, "# Doc\n", nil)
	if err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{"| PRO | openai/m | 2 |", "| OPP | openai/m | 1 |", "| Moderator | openai/m | 1 |", `| A \| B | openai/m | 1 |`, "**Q1 (to PRO):** Why?", "**PRO answers Q1**"} {
		if !strings.Contains(out, want) {
			t.Errorf("document lacks %q:\n%s", want, out)
		}
	}
	if strings.Contains(out, "| Pro |") || strings.Contains(out, "| Opp |") {
		t.Errorf("an agent is named from its id, not as the transcript names it:\n%s", out)
	}
}

// TestNested: a turn's headings go under the heading the document gives
// the turn, code blocks are left as written, and text that is not a
// heading is not touched.
func TestNested(t *testing.T) {
	in := "# Big\n## Recommendation\n   ### three\n##### deep\n#hashtag\n    ## indented code\n```\n## in code\n```\ntext ## not a heading\n##"
	want := "##### Big\n##### Recommendation\n   ##### three\n##### deep\n#hashtag\n    ## indented code\n```\n## in code\n```\ntext ## not a heading\n#####"
	if got := Nested(in, 5); got != want {
		t.Errorf("Nested =\n%s\nwant\n%s", got, want)
	}
}

// TestWithUsageListsTheHints: the hints a person gave the agents are in the
// document, with the turns that applied them; every format's document but
// bull vs. bear's left them out.
func TestWithUsageListsTheHints(t *testing.T) {
	s := &debate.State{Turns: map[string]*debate.Turn{}}
	s.Turns["r2/argument/ops"] = &debate.Turn{TurnRef: debate.TurnRef{ID: "r2/argument/ops", Agent: "ops", Label: "Operational Simplicity · argument"}, Status: debate.TurnDone, Model: "openai/m"}
	s.Done = append(s.Done, "r2/argument/ops")
	s.Hints = []debate.Hint{
		{HintQueued: debate.HintQueued{ID: 1, Target: "ops", Text: "think about\n## on-call"}, Applied: "r2/argument/ops"},
		{HintQueued: debate.HintQueued{ID: 2, Target: debate.HintAll, Text: "be brief"}},
	}
	out, err := WithUsage(s, "# Doc\n", nil)
	if err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{"## User hints\n", "- To Operational Simplicity: think about ## on-call (applied in r2/argument/ops)\n", "- To every agent: be brief (not applied)\n"} {
		if !strings.Contains(out, want) {
			t.Errorf("document lacks %q:\n%s", want, out)
		}
	}
}

// TestTableNote: under a list of debates the note explains the cells the
// rows show: a priced debate beside an unpriced one is "$0.0500" and
// "unknown", no cell is marked ≥, and the note does not say there is one.
func TestTableNote(t *testing.T) {
	priced := Spend{USD: 0.05, Turns: 3, LLMTurns: 3}
	unpriced := Spend{Turns: 2, LLMTurns: 2, Unpriced: []string{"openai/x"}}
	mixed := Spend{USD: 0.02, Turns: 4, LLMTurns: 3, Unpriced: []string{"vendor/y"}}
	for _, c := range []struct {
		name string
		rows []Spend
		note string
	}{
		{"priced only", []Spend{priced, {Turns: 7}}, ""},
		{"priced and unknown", []Spend{priced, unpriced}, "The cost is unknown: no price for openai/x."},
		{"a row marked ≥", []Spend{priced, unpriced, mixed},
			"Costs marked ≥ leave out the turns of models without a known price (openai/x, vendor/y): the cost is at least that."},
	} {
		if got := TableNote(c.rows); got != c.note {
			t.Errorf("%s: TableNote() = %q, want %q", c.name, got, c.note)
		}
	}
}
