package perspectives_test

import (
	"errors"
	"regexp"
	"slices"
	"strings"
	"testing"

	"github.com/parleyhq/parley/internal/debate"
	"github.com/parleyhq/parley/internal/format/formattest"
	"github.com/parleyhq/parley/internal/format/perspectives"
	"github.com/parleyhq/parley/internal/llm/script"
)

const guidance = "Focus on our team's PostgreSQL experience"

// fullDebate: 3 perspectives, 2 rounds, a guided checkpoint after round 1.
func fullDebate(t *testing.T) (*fixture, *answers, *formattest.Barrier) {
	rules := []script.Rule{{Tag: "analysis", Reply: analysisReply(perf, ops, flex)}}
	rules = append(rules, roundRules(1, perf, ops, flex)...)
	rules = append(rules, script.Rule{Tag: "r1/evaluation", Reply: evalReply("continue", "Round 1: latency against operations; flexibility undecided.")})
	rules = append(rules, roundRules(2, perf, ops, flex)...)
	rules = append(rules,
		script.Rule{Tag: "r2/evaluation", Reply: evalReply("conclude", "Round 2: all accept PostgreSQL first, behind an interface.")},
		script.Rule{Tag: "synthesis", Reply: synthesisReply("Medium")},
	)
	f := newFixture(t, perspectives.Options{Perspectives: 3, MaxRounds: 4, Checkpoints: true}, rules...)
	h := &answers{by: map[string]debate.CheckpointAnswered{"r1": {Action: debate.ActionGuide, Guidance: guidance}}}
	f.Runner.Human = h
	bp := formattest.NewBarrier(f.Prov, "r1/argument/", 3)
	f.Runner.Cast.Default.Provider = bp
	return f, h, bp
}

func TestFullDebate(t *testing.T) {
	f, h, bp := fullDebate(t)
	s := f.MustRun()

	// Turn order.
	tags := f.Tags()
	args1 := slices.Clone(tags[1:4])
	slices.Sort(args1)
	if want := []string{"r1/argument/future-flexibility", "r1/argument/operational-simplicity", "r1/argument/performance-advocate"}; !slices.Equal(args1, want) {
		t.Errorf("round 1 arguments %v", tags[1:4])
	}
	wantRest := []string{
		"r1/rebuttal/performance-advocate", "r1/rebuttal/operational-simplicity", "r1/rebuttal/future-flexibility", "r1/evaluation",
	}
	if tags[0] != "analysis" || !slices.Equal(tags[4:8], wantRest) {
		t.Errorf("requests %v", tags)
	}
	wantTail := []string{
		"r2/rebuttal/performance-advocate", "r2/rebuttal/operational-simplicity", "r2/rebuttal/future-flexibility", "r2/evaluation", "synthesis",
	}
	if len(tags) != 16 || !slices.Equal(tags[11:], wantTail) {
		t.Errorf("requests %v", tags)
	}
	if bp.Failed() {
		t.Error("round 1 arguments did not run concurrently")
	}
	// Rebuttals one by one, each after all arguments of the round.
	evs := f.Events()
	pos := func(typ, id string) int {
		for i, e := range evs {
			if e.Type == typ && strings.Contains(string(e.Data), `"`+id+`"`) {
				return i
			}
		}
		t.Fatalf("no %s for %s", typ, id)
		return -1
	}
	lastArg := 0
	for _, p := range []string{perf, ops, flex} {
		lastArg = max(lastArg, pos(debate.TypeTurnCompleted, "r1/argument/"+slug(p)))
	}
	prev := lastArg
	for _, p := range []string{perf, ops, flex} {
		id := "r1/rebuttal/" + slug(p)
		if st := pos(debate.TypeTurnStarted, id); st < prev {
			t.Errorf("%s started at event %d, before the previous turn completed at %d", id, st, prev)
		}
		prev = pos(debate.TypeTurnCompleted, id)
	}
	// Each rebuttal sees every argument of the round and the earlier rebuttals only.
	for i, p := range []string{perf, ops, flex} {
		pr := f.Prompt("r1/rebuttal/" + slug(p))
		for _, q := range []string{perf, ops, flex} {
			if !strings.Contains(pr, words("r1/argument/"+slug(q))) {
				t.Errorf("rebuttal of %s lacks the argument of %s", p, q)
			}
		}
		for j, q := range []string{perf, ops, flex} {
			has := strings.Contains(pr, words("r1/rebuttal/"+slug(q)))
			if has != (j < i) {
				t.Errorf("rebuttal of %s shows the rebuttal of %s: %v", p, q, has)
			}
		}
	}
	// The human was asked once, after round 1, with the moderator's summary.
	if len(h.seen) != 1 || h.seen[0].ID != "r1" || !strings.Contains(h.seen[0].Summary, "latency against operations") {
		t.Errorf("checkpoints asked: %+v", h.seen)
	}
	// Guidance reaches every round-2 prompt and the synthesis, not round 1.
	for _, tag := range []string{"r2/argument/performance-advocate", "r2/rebuttal/future-flexibility", "r2/evaluation", "synthesis"} {
		if !strings.Contains(f.Prompt(tag), guidance) {
			t.Errorf("%s prompt lacks the guidance", tag)
		}
	}
	if strings.Contains(f.Prompt("r1/evaluation"), guidance) {
		t.Error("round 1 saw guidance given after it")
	}
	// Round 2 prompts carry round 1 and the moderator's summary.
	if pr := f.Prompt("r2/argument/operational-simplicity"); !strings.Contains(pr, words("r1/rebuttal/future-flexibility")) || !strings.Contains(pr, "Round 1: latency against operations") {
		t.Error("round 2 argument prompt lacks round 1")
	}

	res := result(t, s)
	if res.Rounds != 2 || !res.Converged || res.Synthesis == nil || res.Synthesis.Confidence != "Medium" || len(res.Perspectives) != 3 {
		t.Errorf("result %+v", res)
	}

	full, err := perspectives.Format{}.Render(s, debate.RenderOptions{})
	if err != nil {
		t.Fatal(err)
	}
	summary, err := perspectives.Format{}.Render(s, debate.RenderOptions{Summary: true})
	if err != nil {
		t.Fatal(err)
	}
	decision, _, _ := strings.Cut(summary, "\n## Tokens and cost")
	if !strings.HasPrefix(full, decision) || !strings.Contains(full, "## Transcript") || strings.Contains(summary, "## Transcript") ||
		!strings.Contains(summary, "## Tokens and cost") || !strings.Contains(full, "## Tokens and cost") {
		t.Error("the full render is not the decision followed by the transcript, each with the token and cost table")
	}
	formattest.Golden(t, "testdata/full_debate.summary.md", summary)
	formattest.Golden(t, "testdata/full_debate.full.md", full)
	issue, err := perspectives.Format{}.IssueDraft(s)
	if err != nil {
		t.Fatal(err)
	}
	formattest.Golden(t, "testdata/full_debate.issue.md", issue)
}

func TestIssueDraftNeedsSynthesis(t *testing.T) {
	f := newFixture(t, perspectives.Options{}, script.Rule{Tag: "analysis", Reply: analysisReply(perf, ops, flex)})
	s, _ := f.Run() // stops at round 1: no rule for the arguments
	if _, err := (perspectives.Format{}).IssueDraft(s); err == nil || !strings.Contains(err.Error(), "no synthesis yet") {
		t.Errorf("err = %v", err)
	}
	doc, err := perspectives.Format{}.Render(s, debate.RenderOptions{Summary: true})
	if err != nil || !strings.Contains(doc, "partial") || !strings.Contains(doc, "has not written the synthesis yet") {
		t.Errorf("partial render %q (%v)", doc, err)
	}
}

// TestRenderBeforeAnalysis: a debate stopped before the moderator's
// analysis (a refused key) says its perspectives are not chosen yet, where
// it printed an empty "Perspectives:" line and an empty section.
func TestRenderBeforeAnalysis(t *testing.T) {
	f := newFixture(t, perspectives.Options{}, script.Rule{Tag: "nothing-asks-this", Reply: evalReply("conclude", "unused")}) // no rule for the analysis: it fails
	s, _ := f.Run()
	doc, err := perspectives.Format{}.Render(s, debate.RenderOptions{Summary: true})
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(doc, "**Perspectives:** not chosen yet") || !strings.Contains(doc, "## Perspectives Considered\n\nNone yet:") {
		t.Errorf("render before the analysis:\n%s", doc)
	}
}

func TestAgreeImmediately(t *testing.T) {
	rules := append([]script.Rule{{Tag: "analysis", Reply: analysisReply(perf, ops, flex)}}, roundRules(1, perf, ops, flex)...)
	rules = append(rules,
		script.Rule{Tag: "r1/evaluation", Reply: evalReply("conclude", "Round 1: everyone agrees on PostgreSQL.")},
		script.Rule{Tag: "synthesis", Reply: synthesisReply("High")},
	)
	f := newFixture(t, perspectives.Options{Checkpoints: true}, rules...)
	// Checkpoints are on, but a concluded round goes straight to synthesis.
	s := f.MustRun()
	res := result(t, s)
	if res.Rounds != 1 || !res.Converged || res.Synthesis.Confidence != "High" || !strings.Contains(res.EndReason, "concluded") {
		t.Errorf("result %+v", res)
	}
	if len(s.Checkpoints) != 0 || len(f.Requests("synthesis")) != 1 {
		t.Errorf("checkpoints %+v; requests %v", s.Checkpoints, f.Tags())
	}
}

func TestMaxRoundsForcesLowConfidence(t *testing.T) {
	rules := []script.Rule{{Tag: "analysis", Reply: analysisReply(perf, ops, flex)}}
	for r := 1; r <= 2; r++ {
		rules = append(rules, roundRules(r, perf, ops, flex)...)
	}
	rules = append(rules,
		script.Rule{Tag: "r1/evaluation", Reply: evalReply("continue", "Round 1: no agreement.")},
		script.Rule{Tag: "r2/evaluation", Reply: evalReply("continue", "Round 2: still apart.")},
		script.Rule{Tag: "synthesis", Reply: synthesisReply("High")},
	)
	f := newFixture(t, perspectives.Options{MaxRounds: 2}, rules...)
	s := f.MustRun()
	res := result(t, s)
	if res.Converged || res.Rounds != 2 || res.Synthesis.Confidence != "Low" || !strings.Contains(res.EndReason, "max rounds (2)") {
		t.Errorf("result %+v", res)
	}
	if !strings.Contains(f.Prompt("synthesis"), "confidence must be Low") {
		t.Error("the synthesis prompt does not ask for Low confidence")
	}
	if ns := notes(s, "perspectives.low_confidence"); len(ns) != 1 || !strings.Contains(ns[0].Text, "from High to Low") {
		t.Errorf("notes %+v", ns)
	}
	doc, _ := perspectives.Format{}.Render(s, debate.RenderOptions{Summary: true})
	if !strings.Contains(doc, "**Confidence:** Low") {
		t.Error("the decision document does not show Low confidence")
	}
}

func TestRepetitionFlagged(t *testing.T) {
	rules := []script.Rule{{Tag: "analysis", Reply: analysisReply(perf, ops, flex)}}
	rules = append(rules, roundRules(1, perf, ops, flex)...)
	// Round 2: Performance repeats its round-1 argument word for word.
	rules = append(rules, script.Rule{Tag: "r2/argument/performance-advocate", Reply: &script.Reply{Text: words("r1/argument/performance-advocate") + " Also."}})
	for _, r := range roundRules(2, perf, ops, flex) {
		if r.Tag != "r2/argument/performance-advocate" {
			rules = append(rules, r)
		}
	}
	rules = append(rules,
		script.Rule{Tag: "r1/evaluation", Reply: evalReply("continue", "Round 1: apart.")},
		script.Rule{Tag: "r2/evaluation", Reply: evalReply("conclude", "Round 2: done.")},
		script.Rule{Tag: "synthesis", Reply: synthesisReply("Medium")},
	)
	f := newFixture(t, perspectives.Options{MaxRounds: 3}, rules...)
	s := f.MustRun()
	ns := notes(s, "perspectives.repetition")
	if len(ns) != 1 || !strings.Contains(ns[0].Text, perf) || !strings.Contains(ns[0].Text, "round 1") {
		t.Fatalf("repetition notes %+v", ns)
	}
	if pr := f.Prompt("r2/evaluation"); !strings.Contains(pr, "Repetition measured") || !regexp.MustCompile(`- `+perf+`: 9\d%`).MatchString(pr) || regexp.MustCompile(`- `+ops+`: \d+%`).MatchString(pr) {
		t.Errorf("evaluation prompt does not report the repetition:\n%s", pr)
	}
}

func TestStagnationEndsDebate(t *testing.T) {
	rules := []script.Rule{{Tag: "analysis", Reply: analysisReply(perf, ops, flex)}}
	rules = append(rules, roundRules(1, perf, ops, flex)...)
	for _, p := range []string{perf, ops, flex} {
		rules = append(rules,
			script.Rule{Tag: "r2/argument/" + slug(p), Reply: &script.Reply{Text: words("r1/argument/" + slug(p))}},
			script.Rule{Tag: "r2/rebuttal/" + slug(p), Reply: &script.Reply{Text: "new rebuttal text for " + p}})
	}
	rules = append(rules,
		script.Rule{Tag: "r1/evaluation", Reply: evalReply("continue", "Round 1: apart.")},
		script.Rule{Tag: "r2/evaluation", Reply: evalReply("continue", "Round 2: same again.")},
		script.Rule{Tag: "synthesis", Reply: synthesisReply("Medium")},
	)
	f := newFixture(t, perspectives.Options{MaxRounds: 5}, rules...)
	s := f.MustRun()
	res := result(t, s)
	if !strings.Contains(res.EndReason, "stagnation") || res.Rounds != 2 || len(notes(s, "perspectives.repetition")) != 3 {
		t.Errorf("result %+v", res)
	}
}

func TestOffTopicRedirectThenMute(t *testing.T) {
	rules := []script.Rule{{Tag: "analysis", Reply: analysisReply(perf, ops, flex)}}
	for r := 1; r <= 3; r++ {
		rules = append(rules, roundRules(r, perf, ops, flex)...)
	}
	rules = append(rules,
		script.Rule{Tag: "r1/evaluation", Reply: evalReply("continue", "Round 1: flexibility drifted.", flex)},
		script.Rule{Tag: "r2/evaluation", Reply: evalReply("continue", "Round 2: flexibility drifted again.", flex)},
		script.Rule{Tag: "r3/evaluation", Reply: evalReply("conclude", "Round 3: two remain and agree.")},
		script.Rule{Tag: "synthesis", Reply: synthesisReply("Medium")},
	)
	f := newFixture(t, perspectives.Options{MaxRounds: 4}, rules...)
	s := f.MustRun()
	if ns := notes(s, "perspectives.redirect"); len(ns) != 1 || !strings.Contains(ns[0].Text, flex) {
		t.Errorf("redirect notes %+v", ns)
	}
	if ns := notes(s, "perspectives.mute"); len(ns) != 1 || !strings.Contains(ns[0].Text, flex) {
		t.Errorf("mute notes %+v", ns)
	}
	const redirect = "The moderator redirects you"
	if !strings.Contains(f.Prompt("r2/argument/future-flexibility"), redirect) {
		t.Error("round 2 prompt of the drifting debater lacks the redirect")
	}
	if strings.Contains(f.Prompt("r2/argument/performance-advocate"), redirect) {
		t.Error("a debater that stayed on topic was redirected")
	}
	for _, kind := range []string{"argument", "rebuttal"} {
		if n := len(f.Requests("r3/" + kind + "/future-flexibility")); n != 0 {
			t.Errorf("muted debater got a round 3 %s", kind)
		}
	}
	if len(f.Requests("r3/argument/performance-advocate")) != 1 {
		t.Error("round 3 did not run for the others")
	}
	res := result(t, s)
	if !slices.Equal(res.Muted, []string{flex}) {
		t.Errorf("muted %v", res.Muted)
	}
}

func TestAnalysisRepair(t *testing.T) {
	cases := []struct {
		name    string
		opts    perspectives.Options
		first   []string
		wantErr string
	}{
		{"not in catalog", perspectives.Options{}, []string{perf, "Galaxy Brain", flex}, `"Galaxy Brain" is not in the catalog`},
		{"no tension", perspectives.Options{Perspectives: 2}, []string{perf, flex}, "all pull the same way"},
		{"count mismatch", perspectives.Options{Perspectives: 2}, []string{perf, ops, flex}, "asked for 2 perspectives, you assigned 3"},
		{"duplicate", perspectives.Options{}, []string{perf, "performance advocate", ops}, "assigned twice"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			good := []string{perf, ops, flex}
			if c.opts.Perspectives == 2 {
				good = []string{perf, ops}
			}
			rules := []script.Rule{{Tag: "analysis", Replies: []script.Reply{*analysisReply(c.first...), *analysisReply(good...)}}}
			rules = append(rules, roundRules(1, good...)...)
			rules = append(rules,
				script.Rule{Tag: "r1/evaluation", Reply: evalReply("conclude", "Round 1: agreed.")},
				script.Rule{Tag: "synthesis", Reply: synthesisReply("High")})
			f := newFixture(t, c.opts, rules...)
			s := f.MustRun()
			reqs := f.Requests("analysis")
			if len(reqs) != 2 {
				t.Fatalf("%d analysis requests, want a repair", len(reqs))
			}
			last := reqs[1].Messages[len(reqs[1].Messages)-1].Text
			if !strings.Contains(last, c.wantErr) {
				t.Errorf("repair prompt %q lacks %q", last, c.wantErr)
			}
			if res := result(t, s); len(res.Perspectives) != len(good) || res.Perspectives[0].Name != perf {
				t.Errorf("perspectives %+v", res.Perspectives)
			}
		})
	}
}

func TestAnalysisUnusableFallsBack(t *testing.T) {
	rules := []script.Rule{{Tag: "analysis", Replies: []script.Reply{{Text: "I refuse"}, {Text: "still no JSON"}}}}
	// Keyword fallback for a caching question: Performance Advocate and Operational Simplicity.
	rules = append(rules, roundRules(1, perf, ops)...)
	rules = append(rules,
		script.Rule{Tag: "r1/evaluation", Reply: evalReply("conclude", "Round 1: agreed.")},
		script.Rule{Tag: "synthesis", Reply: synthesisReply("High")})
	f := newFixture(t, perspectives.Options{}, rules...)
	s := f.MustRun()
	if ns := notes(s, "perspectives.fallback"); len(ns) != 1 {
		t.Errorf("fallback notes %+v", ns)
	}
	res := result(t, s)
	if len(res.Perspectives) != 2 || res.Perspectives[0].Name != perf || res.Perspectives[1].Name != ops {
		t.Errorf("fallback perspectives %+v", res.Perspectives)
	}
}

func TestVaguePromptAsksClarification(t *testing.T) {
	vague := &script.Reply{JSON: formattest.JSON(map[string]any{
		"domain": "data", "constraints": []string{}, "binary": false, "perspectives": []string{},
		"rationale": "", "clarifying_question": "What load does the cache serve?",
	})}
	rules := []script.Rule{
		{Tag: "analysis", Reply: vague},
		{Tag: "analysis-clarified", Reply: analysisReply(perf, ops, flex)},
	}
	rules = append(rules, roundRules(1, perf, ops, flex)...)
	rules = append(rules,
		script.Rule{Tag: "r1/evaluation", Reply: evalReply("conclude", "Round 1: agreed.")},
		script.Rule{Tag: "synthesis", Reply: synthesisReply("High")})
	f := newFixture(t, perspectives.Options{Checkpoints: true}, rules...)
	h := &answers{by: map[string]debate.CheckpointAnswered{"clarify": {Action: debate.ActionGuide, Guidance: "10k reads per second"}}}
	f.Runner.Human = h
	s := f.MustRun()
	if len(h.seen) != 1 || h.seen[0].ID != "clarify" || !strings.Contains(h.seen[0].Summary, "What load") {
		t.Fatalf("checkpoints %+v", h.seen)
	}
	if !strings.Contains(f.Prompt("analysis-clarified"), "10k reads per second") {
		t.Error("re-analysis prompt lacks the clarification")
	}
	if !strings.Contains(f.Prompt("r1/argument/performance-advocate"), "Clarification from the human: 10k reads per second") {
		t.Error("debaters do not see the clarification")
	}
	if res := result(t, s); len(res.Perspectives) != 3 {
		t.Errorf("result %+v", res)
	}
	doc, _ := perspectives.Format{}.Render(s, debate.RenderOptions{Summary: true})
	if !strings.Contains(doc, "Clarification: 10k reads per second") {
		t.Error("the decision document lacks the clarification")
	}
}

func TestEndAtCheckpointSynthesises(t *testing.T) {
	rules := append([]script.Rule{{Tag: "analysis", Reply: analysisReply(perf, ops, flex)}}, roundRules(1, perf, ops, flex)...)
	rules = append(rules,
		script.Rule{Tag: "r1/evaluation", Reply: evalReply("continue", "Round 1: apart.")},
		script.Rule{Tag: "synthesis", Reply: synthesisReply("Medium")})
	f := newFixture(t, perspectives.Options{Checkpoints: true}, rules...)
	f.Runner.Human = &answers{by: map[string]debate.CheckpointAnswered{"r1": {Action: debate.ActionEnd}}}
	s := f.MustRun()
	res := result(t, s)
	if res.EndReason != "ended by the human after round 1" || res.Synthesis == nil || len(f.Requests("r2/argument/performance-advocate")) != 0 {
		t.Errorf("result %+v, requests %v", res, f.Tags())
	}
}

func TestCheckpointWithoutHumanPausesAndResumes(t *testing.T) {
	f, _, _ := fullDebate(t)
	f.Runner.Human = nil
	f.Runner.Cast.Default.Provider = f.Prov
	_, err := f.Run()
	var pe *debate.PausedError
	if !errors.As(err, &pe) || pe.Reason != debate.PauseCheckpointUnanswered {
		t.Fatalf("err = %v", err)
	}
	n := len(f.Prov.Requests())
	f.Runner.Human = &answers{by: map[string]debate.CheckpointAnswered{"r1": {Action: debate.ActionGuide, Guidance: guidance}}}
	s := f.MustRun()
	if got := len(f.Prov.Requests()) - n; got != 8 {
		t.Errorf("resume made %d requests, want 8 (round 2 and synthesis)", got)
	}
	if !strings.Contains(f.Prompt("r2/evaluation"), guidance) || result(t, s).Rounds != 2 {
		t.Error("resumed debate lost the guidance")
	}
}

func TestRepetition(t *testing.T) {
	cases := []struct {
		cur, prev string
		want      float64
	}{
		{"", "anything at all here", 0},
		{"two words", "two words", 0}, // no trigram
		{"the cache is fast", "the cache is fast", 1},
		{"The Cache, is FAST!", "the cache is fast", 1}, // case and punctuation ignored
		{"a b c d e", "a b c x y", 1.0 / 3},             // "a b c" of abc, bcd, cde
		{"one two three four", "five six seven eight", 0},
	}
	for _, c := range cases {
		if got := perspectives.Repetition(c.cur, c.prev); got != c.want {
			t.Errorf("Repetition(%q, %q) = %v, want %v", c.cur, c.prev, got, c.want)
		}
	}
	// The threshold is strict: 60% exactly is not flagged by the protocol.
	if perspectives.RepetitionThreshold != 0.6 {
		t.Errorf("threshold %v", perspectives.RepetitionThreshold)
	}
}

func TestOptionsValidate(t *testing.T) {
	cat, _ := perspectives.LoadCatalog("")
	for _, c := range []struct {
		o    perspectives.Options
		want string
	}{
		{perspectives.Options{Catalog: cat, MaxRounds: 21}, "--max-rounds 21"},
		{perspectives.Options{Catalog: cat, Perspectives: 5}, "--perspectives 5"},
		{perspectives.Options{Catalog: cat, Perspectives: 1}, "--perspectives 1"},
		{perspectives.Options{Catalog: cat[:1]}, "at least 2"},
		{perspectives.Options{Catalog: cat[:2], Perspectives: 3}, "only 2"},
	} {
		if err := c.o.Validate(); err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("Validate(%+v) = %v, want %q", c.o.Perspectives, err, c.want)
		}
	}
	o := perspectives.Options{Catalog: cat}
	if err := o.Validate(); err != nil || o.MaxRounds != perspectives.DefaultMaxRounds {
		t.Errorf("defaults: %v, max rounds %d", err, o.MaxRounds)
	}
}
