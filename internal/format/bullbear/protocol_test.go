package bullbear_test

import (
	"encoding/json"
	"slices"
	"strings"
	"testing"

	"github.com/parleyhq/parley/internal/debate"
	"github.com/parleyhq/parley/internal/format/bullbear"
	"github.com/parleyhq/parley/internal/format/formattest"
	"github.com/parleyhq/parley/internal/llm/script"
)

func phases(evs []debate.Event) []string {
	var out []string
	for _, e := range evs {
		var p debate.PhaseChanged
		if e.Type == debate.TypePhase && e.Decode(&p) == nil {
			out = append(out, p.Label)
		}
	}
	return out
}

func TestQuickDebateOrderAndConcurrency(t *testing.T) {
	f := newFixture(t, nvdaOptions(t))
	// Research and openings each run both sides at once: the barrier holds
	// the first request of a pair until the second arrives.
	research := formattest.NewBarrier(f.Prov, "research/", 2)
	f.Runner.Cast.Default.Provider = research
	s := f.MustRun()
	if research.Failed() {
		t.Error("research/bull and research/bear did not run concurrently")
	}
	want := []string{"research/bull", "research/bear", "opening/bull", "opening/bear", "rebuttal/1/bull", "rebuttal/1/bear", "synthesis/moderator"}
	if len(s.Done) != len(want) {
		t.Fatalf("completed %v, want %v", s.Done, want)
	}
	for i, id := range s.Done {
		pos := slices.Index(want, id)
		switch {
		case pos < 0:
			t.Errorf("unexpected turn %s", id)
		case i < 2 && pos >= 2, i >= 2 && i < 4 && (pos < 2 || pos >= 4), i >= 4 && pos != i:
			t.Errorf("turn %d is %s: order %v, want %v (pairs in any order)", i, id, s.Done, want)
		}
	}
	wantPhases := []string{"Phase 1 (Research)", "Phase 2 (Opening Arguments)", "Phase 3 (Bull Rebuttal)", "Phase 3 (Bear Rebuttal)", "Phase 4 (Moderator Synthesis)"}
	if got := phases(f.Events()); !slices.Equal(got, wantPhases) {
		t.Errorf("phases %q, want %q", got, wantPhases)
	}
	// Tools are offered to research only; the moderator gets a schema and
	// none of the raw data.
	if !strings.Contains(f.Prompts("rebuttal/1/bull"), bearOpening) {
		t.Error("the bull's rebuttal prompt lacks the bear's opening")
	}
	syn := f.Prompts("synthesis/moderator")
	for _, want := range []string{"BULL OPENING:", "BEAR REBUTTAL (round 1):", "X/10 because [reasoning]. Would be Y/10 if [condition].", "Bull thesis breaks if:", "no discrepancy"} {
		if !strings.Contains(syn, want) {
			t.Errorf("synthesis prompt lacks %q", want)
		}
	}
	r := result(t, s)
	if r.Synthesis == nil || r.Synthesis.Score != 7 || r.Synthesis.Stance != "STRONG BULL" || r.Mode != "quick" || r.NoLLM {
		t.Errorf("result = %+v", r)
	}
	for _, tu := range s.CompletedTurns() {
		if tu.Invalid != "" {
			t.Errorf("%s invalid: %s", tu.ID, tu.Invalid)
		}
	}
	var fc bullbear.FactCheck
	for _, n := range s.Notes {
		if n.Kind == "bullbear.fact_check" {
			_ = json.Unmarshal(n.Data, &fc)
		}
	}
	if fc.Checked < 4 || len(fc.Discrepancies) != 0 {
		t.Errorf("fact check = %+v, want ≥4 figures checked and no discrepancy", fc)
	}
}

func TestResearchTurnsOfferTools(t *testing.T) {
	f := newFixture(t, nvdaOptions(t))
	p := f.Proto
	st, err := p.Next(&debate.State{Turns: map[string]*debate.Turn{}})
	if err != nil {
		t.Fatal(err)
	}
	if len(st.Turns) != 2 {
		t.Fatalf("first step has %d turns, want the two research turns", len(st.Turns))
	}
	for _, tu := range st.Turns {
		if !tu.UseTools || !strings.HasPrefix(tu.ID, "research/") {
			t.Errorf("turn %s: UseTools=%v", tu.ID, tu.UseTools)
		}
	}
}

func TestDeepRunsTwoRebuttalRounds(t *testing.T) {
	o := nvdaOptions(t)
	o.Deep = true
	f := newFixture(t, o)
	s := f.MustRun()
	var rebuttals []string
	for _, id := range s.Done {
		if strings.HasPrefix(id, "rebuttal/") {
			rebuttals = append(rebuttals, id)
		}
	}
	want := []string{"rebuttal/1/bull", "rebuttal/1/bear", "rebuttal/2/bull", "rebuttal/2/bear"}
	if !slices.Equal(rebuttals, want) {
		t.Errorf("rebuttals %v, want %v", rebuttals, want)
	}
	if !slices.Contains(phases(f.Events()), "Phase 3 (Bear Rebuttal, Round 2)") {
		t.Errorf("phases %v lack the second round", phases(f.Events()))
	}
	if !strings.Contains(f.Prompts("rebuttal/2/bull"), "BEAR REBUTTAL (round 1):") {
		t.Error("the second-round rebuttal does not see the bear's first rebuttal")
	}
	if r := result(t, s); r.Mode != "deep" {
		t.Errorf("mode %s", r.Mode)
	}
}

func TestRebuttalQuoteCheckRepairs(t *testing.T) {
	fabricated := `The bear claims "revenue will collapse by half next year", which is absurd.`
	f := newFixture(t, nvdaOptions(t), script.Rule{Tag: "rebuttal/1/bull", Replies: []script.Reply{{Text: fabricated}, {Text: bullRebuttal}}})
	s := f.MustRun()
	tu := s.Completed("rebuttal/1/bull")
	if len(tu.Repairs) != 1 || !strings.Contains(tu.Repairs[0].Error, "never said") || !strings.Contains(tu.Repairs[0].Error, "revenue will collapse by half next year") {
		t.Fatalf("repairs = %+v, want one naming the fabricated quote", tu.Repairs)
	}
	if tu.Invalid != "" || strings.TrimSpace(tu.Text) != bullRebuttal {
		t.Errorf("turn = %q invalid %q", tu.Text, tu.Invalid)
	}
	var arg bullbear.Argument
	if err := json.Unmarshal(tu.Move, &arg); err != nil || len(arg.Quotes) != 1 {
		t.Errorf("move %s: %v", tu.Move, err)
	}
	if p := f.Prompts("rebuttal/1/bull"); !strings.Contains(p, "Your previous reply could not be used") {
		t.Error("the repair request does not show the model the error")
	}
}

func TestRebuttalWithoutQuoteIsRefused(t *testing.T) {
	noQuote := "The bear is wrong about margins; growth matters more."
	f := newFixture(t, nvdaOptions(t), script.Rule{Tag: "rebuttal/1/bear", Reply: &script.Reply{Text: noQuote}})
	s := f.MustRun()
	tu := s.Completed("rebuttal/1/bear")
	if len(tu.Repairs) != 1 || !strings.Contains(tu.Repairs[0].Error, "DIRECTLY QUOTE") {
		t.Errorf("repairs = %+v", tu.Repairs)
	}
	// A second failure completes the turn as invalid and the debate goes on.
	if tu.Invalid == "" || s.Completed("synthesis/moderator") == nil {
		t.Errorf("invalid = %q; synthesis ran: %v", tu.Invalid, s.Completed("synthesis/moderator") != nil)
	}
}

func TestHintsQueuedAtCreationAndApplied(t *testing.T) {
	o := nvdaOptions(t)
	o.Hints = []bullbear.Hint{{Target: "bull", Text: "mention their new AI chip"}}
	f := newFixture(t, o)
	s := f.MustRun()
	evs := f.Events()
	if evs[1].Type != debate.TypeHintQueued {
		t.Errorf("event 2 is %s, want the hint queued at creation", evs[1].Type)
	}
	if len(s.Hints) != 1 || s.Hints[0].Applied != "opening/bull" {
		t.Fatalf("hints = %+v, want applied in opening/bull", s.Hints)
	}
	if !strings.Contains(f.Prompts("opening/bull"), "USER HINT: mention their new AI chip") {
		t.Error("the bull's opening prompt lacks the hint")
	}
	for _, tag := range []string{"research/bull", "opening/bear", "rebuttal/1/bull", "synthesis/moderator"} {
		if strings.Contains(f.Prompts(tag), "new AI chip") {
			t.Errorf("%s saw the hint", tag)
		}
	}
}

func TestWrongFigureTriggersReconciliation(t *testing.T) {
	wrong := strings.Replace(bearOpening, "- A handful", "- Revenue grew only 40% in FY2026, a slowdown (10-K FY2026)\n- A handful", 1)
	f := newFixture(t, nvdaOptions(t), script.Rule{Tag: "opening/bear", Reply: &script.Reply{Text: wrong}})
	s := f.MustRun()
	var fc bullbear.FactCheck
	var text string
	for _, n := range s.Notes {
		if n.Kind == "bullbear.fact_check" {
			_ = json.Unmarshal(n.Data, &fc)
			text = n.Text
		}
	}
	if len(fc.Discrepancies) != 1 {
		t.Fatalf("fact check = %+v, want one discrepancy", fc)
	}
	d := fc.Discrepancies[0]
	if d.Agent != "bear" || d.Figure != "revenue_growth" || d.Cited != "40%" || d.Actual != "65.5% in FY2026" || !strings.Contains(d.Source, "0001045810-26-000021") {
		t.Errorf("discrepancy = %+v", d)
	}
	if !strings.Contains(text, "Factual discrepancy detected") {
		t.Errorf("note text %q", text)
	}
	// Both agents reconcile, then the moderator synthesises with the
	// corrected figure.
	i, j, k := slices.Index(s.Done, "reconcile/bull"), slices.Index(s.Done, "reconcile/bear"), slices.Index(s.Done, "synthesis/moderator")
	if i < 0 || j < 0 || k < i || k < j {
		t.Fatalf("turns %v: want both reconcile turns before the synthesis", s.Done)
	}
	if !strings.Contains(f.Prompts("reconcile/bear"), "Bear cited revenue growth (YoY) 40%; per the 10-K, the figure is 65.5% in FY2026") {
		t.Errorf("reconcile prompt:\n%s", f.Prompts("reconcile/bear"))
	}
	syn := f.Prompts("synthesis/moderator")
	for _, want := range []string{"per the 10-K, the figure is 65.5% in FY2026", "BEAR RECONCILIATION:"} {
		if !strings.Contains(syn, want) {
			t.Errorf("synthesis prompt lacks %q", want)
		}
	}
	doc, err := bullbear.Format{}.Render(s, debate.RenderOptions{Summary: true})
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(doc, "**Note:** Factual discrepancy detected.") || !strings.Contains(doc, "per the 10-K, the figure is 65.5% in FY2026") {
		t.Errorf("summary lacks the discrepancy:\n%s", doc)
	}
	if !slices.Contains(phases(f.Events()), "Phase 4 (Reconciliation)") {
		t.Error("no reconciliation phase")
	}
}

func TestSynthesisMustFollowTheSpec(t *testing.T) {
	// 7/10 is STRONG BULL: a LEAN BULL label is refused and repaired.
	f := newFixture(t, nvdaOptions(t), script.Rule{Tag: "synthesis/moderator", Replies: []script.Reply{
		{JSON: synthesisJSON(7, "LEAN BULL")}, {JSON: synthesisJSON(7, "STRONG BULL")}}})
	s := f.MustRun()
	tu := s.Completed("synthesis/moderator")
	if len(tu.Repairs) != 1 || !strings.Contains(tu.Repairs[0].Error, "does not match score 7") {
		t.Errorf("repairs = %+v", tu.Repairs)
	}
	if r := result(t, s); r.Synthesis == nil || r.Synthesis.Stance != "STRONG BULL" {
		t.Errorf("result %+v", r)
	}
	desc := bullbear.Format{}.Describe(tu)
	if !strings.Contains(desc, "Conviction: 7/10 STRONG BULL") || !strings.Contains(desc, "Bull thesis breaks if:") {
		t.Errorf("Describe = %q", desc)
	}
}

func TestOpeningNeedsThreeToFivePoints(t *testing.T) {
	f := newFixture(t, nvdaOptions(t), script.Rule{Tag: "opening/bull", Replies: []script.Reply{
		{Text: "NVIDIA is great. Buy it."}, {Text: bullOpening}}})
	s := f.MustRun()
	tu := s.Completed("opening/bull")
	if len(tu.Repairs) != 1 || !strings.Contains(tu.Repairs[0].Error, "present 3 to 5 points") {
		t.Errorf("repairs = %+v", tu.Repairs)
	}
}

func TestModeratorTakesNoHints(t *testing.T) {
	if _, err := bullbear.ParseHint("moderator: be nicer to the bull"); err == nil || !strings.Contains(err.Error(), "impartial") {
		t.Errorf("err = %v", err)
	}
	hs, err := bullbear.ParseHint("Bull: mention their new AI chip")
	if err != nil || len(hs) != 1 || hs[0].Target != "bull" || hs[0].Text != "mention their new AI chip" {
		t.Errorf("hint = %+v, %v", hs, err)
	}
	if hs, err := bullbear.ParseHint("Bear, stress test: margins"); err != nil || len(hs) != 1 || hs[0].Target != "bear" || hs[0].Text != "stress test: margins" {
		t.Errorf("comma form = %+v, %v", hs, err)
	}
	if hs, err := bullbear.ParseHint("both: cite the 10-K"); err != nil || len(hs) != 2 {
		t.Errorf("both = %+v, %v", hs, err)
	}
	if _, err := bullbear.ParseHint("no target"); err == nil {
		t.Error("a hint without a target was accepted")
	}
	o := bullbear.Options{Ticker: "NVDA", Framework: "dcf"}
	if err := o.Validate(); err == nil || !strings.Contains(err.Error(), "altman, piotroski") {
		t.Errorf("unknown framework: %v", err)
	}
}

// The schema carries no range for score and no item limit for contentions
// (strict mode refuses them for fine-tuned OpenAI models): Check holds the
// reply to them and the turn is repaired.
func TestSynthesisLimitsOutsideTheSchema(t *testing.T) {
	six := map[string]any{}
	_ = json.Unmarshal(synthesisJSON(7, "STRONG BULL"), &six)
	c := six["contentions"].([]any)
	six["contentions"] = append(append(c, c...), c...) // 6
	for _, tc := range []struct {
		bad  json.RawMessage
		want string
	}{
		{synthesisJSON(11, "STRONG BULL"), "score must be 1 to 10, got 11"},
		{formattest.JSON(six), "(got 6)"},
	} {
		f := newFixture(t, nvdaOptions(t), script.Rule{Tag: "synthesis/moderator", Replies: []script.Reply{
			{JSON: tc.bad}, {JSON: synthesisJSON(7, "STRONG BULL")}}})
		tu := f.MustRun().Completed("synthesis/moderator")
		if len(tu.Repairs) != 1 || !strings.Contains(tu.Repairs[0].Error, tc.want) {
			t.Errorf("want a repair for %q; repairs = %+v", tc.want, tu.Repairs)
		}
	}
}

// TestHintOfNoWord: a --hint whose text has no word ("bull: ...") is
// refused as an empty one; it was queued.
func TestHintOfNoWord(t *testing.T) {
	for _, h := range []string{"bull: ...", "bear, ?!", "both: —"} {
		if _, err := bullbear.ParseHint(h); err == nil || !strings.Contains(err.Error(), "write AGENT: TEXT") {
			t.Errorf("%q: %v, want it refused", h, err)
		}
	}
	if hs, err := bullbear.ParseHint("bull: Q3 2025"); err != nil || len(hs) != 1 {
		t.Errorf("a hint of a figure: %v %v", hs, err)
	}
}
