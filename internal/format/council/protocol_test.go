package council_test

import (
	"fmt"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/parleyhq/parley/internal/debate"
	"github.com/parleyhq/parley/internal/format/council"
	"github.com/parleyhq/parley/internal/format/formattest"
	"github.com/parleyhq/parley/internal/llm/script"
)

const company = "Acme Corp"

var created = time.Date(2026, 3, 2, 9, 0, 0, 0, time.UTC)

// pos is a scripted debate reply. The rationale names the turn so that tests
// can find it in later prompts.
func pos(position string, conf float64, rationale, persuadedBy string, challenges ...string) script.Reply {
	if challenges == nil {
		challenges = []string{}
	}
	return script.Reply{JSON: formattest.JSON(map[string]any{
		"position": position, "confidence": conf, "rationale": rationale, "challenges": challenges, "persuaded_by": persuadedBy,
	})}
}

func analyses(ids ...string) []script.Rule {
	var out []script.Rule
	for _, id := range ids {
		out = append(out, script.Rule{Tag: "analysis/" + id, Reply: &script.Reply{Text: "Phase 1 analysis by " + id + ": the evidence in my domain."}})
	}
	return out
}

// round scripts one round: positions by agent id, in order.
func round(r int, ids []string, positions ...string) []script.Rule {
	var out []script.Rule
	for i, id := range ids {
		p := positions[i]
		rep := pos(p, 0.7, fmt.Sprintf("rationale-r%d-%s: %s because of my domain.", r, id, p), "", "weakest point of another agent in round "+fmt.Sprint(r))
		out = append(out, script.Rule{Tag: fmt.Sprintf("r%d/%s", r, id), Reply: &rep})
	}
	return out
}

var three = []string{"search", "sentiment", "valuation"}

type fixture struct{ *formattest.Debate }

func newFixture(t *testing.T, opts council.Options, rules ...script.Rule) *fixture {
	t.Helper()
	return &fixture{formattest.New(t, formattest.Setup{Format: council.Format{}, ID: "DEB-council", Topic: company, Created: created, Options: opts}, rules...)}
}

// prompt is the system prompt and all messages of the last request for a tag.
func (f *fixture) prompt(tag string) string {
	f.T.Helper()
	return f.PromptAt(tag, -1)
}

func result(t *testing.T, s *debate.State) council.Result {
	t.Helper()
	return formattest.Verdict[council.Result](t, s)
}

func notes(s *debate.State, kind string) []string {
	var out []string
	for _, n := range formattest.Notes(s, kind) {
		out = append(out, n.Text)
	}
	return out
}

func render(t *testing.T, s *debate.State, summary bool) string {
	t.Helper()
	doc, err := council.Format{}.Render(s, debate.RenderOptions{Summary: summary})
	if err != nil {
		t.Fatal(err)
	}
	return doc
}

func TestConsensusInRoundOne(t *testing.T) {
	rules := append(analyses(three...), round(1, three, "GO", "GO", "GO")...)
	f := newFixture(t, council.Options{}, rules...)
	s := f.MustRun()

	tags := f.Tags()
	phase1 := slices.Clone(tags[:3])
	slices.Sort(phase1)
	if !slices.Equal(phase1, []string{"analysis/search", "analysis/sentiment", "analysis/valuation"}) ||
		!slices.Equal(tags[3:], []string{"r1/search", "r1/sentiment", "r1/valuation"}) {
		t.Fatalf("requests %v", tags)
	}
	res := result(t, s)
	if res.Decision != "GO" || !res.ConsensusReached || res.Rounds != 1 || res.MaxRounds != council.DefaultMaxRounds || res.Votes.GO != 3 {
		t.Errorf("result %+v", res)
	}
	// Each turn's prompt holds the debate so far, and only that.
	if pr := f.prompt("r1/valuation"); !strings.Contains(pr, "rationale-r1-search") || !strings.Contains(pr, "rationale-r1-sentiment") {
		t.Errorf("r1/valuation prompt lacks the earlier turns:\n%s", pr)
	}
	if pr := f.prompt("r1/search"); strings.Contains(pr, "rationale-r1-") || !strings.Contains(pr, "Phase 1 analysis by search") {
		t.Errorf("r1/search prompt:\n%s", pr)
	}
	if pr := f.prompt("r1/sentiment"); !strings.Contains(pr, "WEAKEST argument") || !strings.Contains(pr, "press coverage") || !strings.Contains(pr, "Risk tolerance: neutral") {
		t.Errorf("r1/sentiment system prompt lacks the adversarial or domain framing:\n%s", pr)
	}
	if got := notes(s, "council.round"); !slices.Equal(got, []string{"Round 1: Search: GO, Sentiment: GO, Valuation: GO (consensus: GO)"}) {
		t.Errorf("round notes %q", got)
	}
	doc := render(t, s, true)
	for _, want := range []string{"## Verdict: GO", "### Round 1 — consensus: GO", "**Valuation Agent: GO** (confidence 70%)", "rationale-r1-sentiment"} {
		if !strings.Contains(doc, want) {
			t.Errorf("report lacks %q:\n%s", want, doc)
		}
	}
	if strings.Contains(doc, "## Phase 1 Analysis") || !strings.Contains(render(t, s, false), "Phase 1 analysis by valuation") {
		t.Error("the Phase 1 analyses belong in the full report only")
	}
}

func TestConsensusInRoundThree(t *testing.T) {
	rules := analyses(three...)
	rules = append(rules, round(1, three, "GO", "NOGO", "GO")...)
	rules = append(rules, round(2, three, "GO", "NOGO", "GO")...)
	changed := pos("NOGO", 0.6, "rationale-r3-search: the valuation gap is real.", "Sentiment Agent's churn data in round 2")
	rules = append(rules, script.Rule{Tag: "r3/search", Reply: &changed})
	rules = append(rules, round(3, []string{"sentiment"}, "NOGO")...)
	changed2 := pos("NOGO", 0.55, "rationale-r3-valuation: comparables no longer hold.", "Search Agent's round 3 point on the valuation gap")
	rules = append(rules, script.Rule{Tag: "r3/valuation", Reply: &changed2})
	f := newFixture(t, council.Options{}, rules...)
	s := f.MustRun()
	res := result(t, s)
	if res.Decision != "NOGO" || !res.ConsensusReached || res.Rounds != 3 || len(res.DebateRounds) != 3 {
		t.Errorf("result %+v", res)
	}
	if res.DebateRounds[0].ConsensusReached || res.DebateRounds[1].ConsensusReached || res.DebateRounds[2].ConsensusPosition != "NOGO" {
		t.Errorf("rounds %+v", res.DebateRounds)
	}
	// Round 3 sees the whole debate, round 1 included.
	pr := f.prompt("r3/valuation")
	for _, want := range []string{"rationale-r1-search", "rationale-r2-valuation", "rationale-r3-search", "Your position in round 2 was GO"} {
		if !strings.Contains(pr, want) {
			t.Errorf("r3/valuation prompt lacks %q", want)
		}
	}
	want := []string{
		"Round 1: Search: GO, Sentiment: NOGO, Valuation: GO (no consensus)",
		"Round 2: Search: GO, Sentiment: NOGO, Valuation: GO (no consensus)",
		"Round 3: Search: NOGO, Sentiment: NOGO, Valuation: NOGO (consensus: NOGO)",
	}
	if got := notes(s, "council.round"); !slices.Equal(got, want) {
		t.Errorf("round notes %q", got)
	}
	if res.DebateRounds[2].Positions[0].PersuadedBy == "" {
		t.Error("persuaded_by was lost")
	}
	formattest.Golden(t, "testdata/consensus_round3.full.md", render(t, s, false))
	doc := render(t, s, true)
	for _, want := range []string{"### Round 1 — no consensus", "### Round 3 — consensus: NOGO", "Persuaded by: Sentiment Agent's churn data"} {
		if !strings.Contains(doc, want) {
			t.Errorf("report lacks %q", want)
		}
	}
}

func TestMajorityVoteAtMaxRounds(t *testing.T) {
	rules := analyses(three...)
	rules = append(rules, round(1, three, "GO", "NOGO", "NOGO")...)
	rules = append(rules, script.Rule{Tag: "r2/search", Reply: ptr(pos("GO", 0.8, "still GO", ""))})
	rules = append(rules, script.Rule{Tag: "r2/sentiment", Reply: ptr(pos("GO", 0.6, "now GO", "Search Agent's founder track record"))})
	rules = append(rules, script.Rule{Tag: "r2/valuation", Reply: ptr(pos("NOGO", 0.7, "still NOGO", ""))})
	f := newFixture(t, council.Options{MaxRounds: 2}, rules...)
	s := f.MustRun()
	res := result(t, s)
	if res.Decision != "GO" || res.ConsensusReached || res.Rounds != 2 || res.Votes != (council.Votes{GO: 2, NOGO: 1}) || !strings.Contains(res.Reason, "majority vote") {
		t.Errorf("result %+v", res)
	}
	if len(f.Tags()) != 9 {
		t.Errorf("requests %v: max rounds must stop the debate", f.Tags())
	}
	if doc := render(t, s, true); !strings.Contains(doc, "- Consensus reached: no") || !strings.Contains(doc, "## Verdict: GO") {
		t.Errorf("report:\n%s", doc)
	}
}

func TestTieIsNOGO(t *testing.T) {
	agents, err := council.AgentsFromNames([]string{"Bull", "bear"})
	if err != nil {
		t.Fatal(err)
	}
	ids := []string{"bull", "bear"}
	rules := append(analyses(ids...), round(1, ids, "GO", "NOGO")...)
	f := newFixture(t, council.Options{Agents: agents, MaxRounds: 1}, rules...)
	s := f.MustRun()
	res := result(t, s)
	if res.Decision != "NOGO" || res.ConsensusReached || res.Votes != (council.Votes{GO: 1, NOGO: 1}) || !strings.Contains(res.Reason, "a tie is NOGO") {
		t.Errorf("result %+v", res)
	}
	if got := notes(s, "council.round"); len(got) != 1 || got[0] != "Round 1: Bull: GO, Bear: NOGO (no consensus)" {
		t.Errorf("round notes %q", got)
	}
}

func TestParseFallback(t *testing.T) {
	rules := analyses(three...)
	rules = append(rules, round(1, []string{"search"}, "GO")...)
	rules = append(rules, script.Rule{Tag: "r1/sentiment", Replies: []script.Reply{{Text: "I think GO, honestly."}, {Text: `{"position": "MAYBE"}`}}})
	rules = append(rules, round(1, []string{"valuation"}, "GO")...)
	f := newFixture(t, council.Options{MaxRounds: 1}, rules...)
	s := f.MustRun()
	tr := s.Turns["r1/sentiment"]
	if tr.Invalid == "" || len(tr.Repairs) != 1 {
		t.Fatalf("turn %+v", tr)
	}
	res := result(t, s)
	p := res.DebateRounds[0].Positions[1]
	if !p.Fallback || p.Position != "NOGO" || p.Confidence != 0 || res.Decision != "GO" || res.ConsensusReached {
		t.Errorf("position %+v, result %+v", p, res)
	}
	if fb := notes(s, "council.fallback"); len(fb) != 1 || !strings.Contains(fb[0], "Sentiment") {
		t.Errorf("fallback notes %q", fb)
	}
	if got := notes(s, "council.round"); len(got) != 1 || !strings.Contains(got[0], "Sentiment: NOGO (fallback)") {
		t.Errorf("round notes %q", got)
	}
	if pr := f.prompt("r1/valuation"); !strings.Contains(pr, "[fallback: the reply could not be parsed]") {
		t.Error("the next agent is not told the position is a fallback")
	}
	formattest.Golden(t, "testdata/parse_fallback.summary.md", render(t, s, true))
	if doc := render(t, s, true); !strings.Contains(doc, "**Sentiment Agent: NOGO** (confidence 0%) — *fallback: the reply could not be parsed*") {
		t.Errorf("report:\n%s", doc)
	}
}

func TestChangedPositionNeedsPersuadedBy(t *testing.T) {
	rules := analyses(three...)
	rules = append(rules, round(1, three, "GO", "NOGO", "GO")...)
	rules = append(rules, script.Rule{Tag: "r2/search", Reply: ptr(pos("GO", 0.7, "GO again", ""))})
	rules = append(rules, script.Rule{Tag: "r2/sentiment", Replies: []script.Reply{
		pos("GO", 0.6, "switching", ""),
		pos("GO", 0.6, "switching", "Valuation Agent's comparables"),
	}})
	rules = append(rules, script.Rule{Tag: "r2/valuation", Reply: ptr(pos("GO", 0.7, "GO again", ""))})
	f := newFixture(t, council.Options{}, rules...)
	s := f.MustRun()
	tr := s.Turns["r2/sentiment"]
	if len(tr.Repairs) != 1 || !strings.Contains(tr.Repairs[0].Error, "persuaded_by") || tr.Invalid != "" {
		t.Fatalf("turn %+v", tr)
	}
	if res := result(t, s); res.Decision != "GO" || !res.ConsensusReached || res.Rounds != 2 {
		t.Errorf("result %+v", res)
	}
	// Keeping one's position needs no persuaded_by.
	if len(s.Turns["r2/search"].Repairs) != 0 {
		t.Error("an unchanged position was refused")
	}
}

func TestRiskAverseFraming(t *testing.T) {
	rules := append(analyses(three...), round(1, three, "NOGO", "NOGO", "NOGO")...)
	f := newFixture(t, council.Options{Risk: council.RiskAverse}, rules...)
	s := f.MustRun()
	if pr := f.prompt("r1/search"); !strings.Contains(pr, "Risk tolerance: averse") || !strings.Contains(pr, "Capital preservation comes first") {
		t.Errorf("prompt lacks the risk-averse framing:\n%s", pr)
	}
	if res := result(t, s); res.Risk != "averse" || res.Decision != "NOGO" {
		t.Errorf("result %+v", res)
	}
}

func TestOptions(t *testing.T) {
	for _, tc := range []struct {
		opts council.Options
		want string
	}{
		{council.Options{MaxRounds: 6}, "--max-rounds 6"},
		{council.Options{Risk: "bold"}, "--risk \"bold\""},
		{council.Options{Agents: []council.Agent{{ID: "a", Name: "A"}}}, "2 to 6 agents"},
	} {
		if _, err := council.NewProtocol(company, tc.opts); err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%+v: err %v, want %q", tc.opts, err, tc.want)
		}
	}
	if _, err := council.AgentsFromNames([]string{"search", "Search"}); err == nil {
		t.Error("a duplicate agent was accepted")
	}
	if _, err := council.AgentsFromNames([]string{"search", "a/b"}); err == nil {
		t.Error("an unusable agent name was accepted")
	}
	as, err := council.AgentsFromNames([]string{"valuation", "Risk Officer"})
	if err != nil || as[0].Focus != council.DefaultAgents()[2].Focus || as[1].ID != "risk-officer" || as[1].Name != "Risk officer" {
		t.Errorf("agents %+v (%v)", as, err)
	}
}

func ptr[T any](v T) *T { return &v }

// TestResume stops a debate in round 2 (the model fails for good) and resumes
// it: no completed turn runs again and no round note is recorded twice.
func TestResume(t *testing.T) {
	full := analyses(three...)
	full = append(full, round(1, three, "GO", "NOGO", "GO")...)
	full = append(full, round(2, three, "GO", "NOGO", "GO")...)
	full = append(full, round(3, []string{"search"}, "GO")...)
	full = append(full, script.Rule{Tag: "r3/sentiment", Reply: ptr(pos("GO", 0.6, "persuaded", "Search Agent's retention numbers"))})
	full = append(full, round(3, []string{"valuation"}, "GO")...)
	var partial []script.Rule
	for _, r := range full {
		if r.Tag != "r2/sentiment" {
			partial = append(partial, r)
		}
	}
	partial = append(partial, script.Rule{Tag: "r2/sentiment", Reply: &script.Reply{Fault: &script.Fault{Status: 401}}})
	f := newFixture(t, council.Options{}, partial...)
	if s, err := f.Run(); err == nil || s.Status == debate.StatusCompleted {
		t.Fatalf("the first run did not stop: %v", err)
	}
	f.Rescript(full...)
	s := f.MustRun()
	tags := f.Tags()
	if !slices.Equal(tags, []string{"r2/sentiment", "r2/valuation", "r3/search", "r3/sentiment", "r3/valuation"}) {
		t.Errorf("resumed run %v", tags)
	}
	if got := notes(s, "council.round"); len(got) != 3 || got[2] != "Round 3: Search: GO, Sentiment: GO, Valuation: GO (consensus: GO)" {
		t.Errorf("round notes %q", got)
	}
	if res := result(t, s); res.Decision != "GO" || res.Rounds != 3 {
		t.Errorf("result %+v", res)
	}
}

// The schema carries no range for confidence (strict mode refuses one for
// fine-tuned OpenAI models): Parse holds it to 0 to 1 and asks for a repair.
func TestConfidenceOutOfRangeIsRepaired(t *testing.T) {
	rules := analyses(three...)
	rules = append(rules, round(1, []string{"search", "valuation"}, "GO", "GO")...)
	rules = append(rules, script.Rule{Tag: "r1/sentiment", Replies: []script.Reply{pos("GO", 70, "GO at 70", ""), pos("GO", 0.7, "GO at 0.7", "")}})
	f := newFixture(t, council.Options{MaxRounds: 1}, rules...)
	s := f.MustRun()
	tr := s.Turns["r1/sentiment"]
	if len(tr.Repairs) != 1 || !strings.Contains(tr.Repairs[0].Error, "confidence must be between 0 and 1, got 70") || tr.Invalid != "" {
		t.Fatalf("turn %+v", tr)
	}
}
