package bullbear_test

import (
	"context"
	"errors"
	"strings"
	"testing"

	"github.com/parleyhq/parley/internal/debate"
	"github.com/parleyhq/parley/internal/format/bullbear"
	"github.com/parleyhq/parley/internal/llm"
	"github.com/parleyhq/parley/internal/llm/script"
)

// answer records a follow-up as `parley ask` does: the question's note and
// the answer's turn in one append.
func (f *fixture) answer(spec debate.TurnSpec, note debate.Note, text string) *debate.State {
	f.T.Helper()
	ctx := context.Background()
	reply, err := llm.Collect(f.Prov.Stream(ctx, llm.Request{Model: "test-model", System: spec.System, Messages: spec.Messages, CacheSystem: true, Tag: spec.ID}))
	if err != nil {
		f.T.Fatalf("%s: %v", spec.ID, err)
	}
	if text != "" && reply.Text != text {
		f.T.Fatalf("%s answered %q", spec.ID, reply.Text)
	}
	var evs []debate.Event
	for _, p := range []debate.Payload{note, debate.TurnCompleted{Turn: spec.TurnRef, Text: reply.Text, Usage: reply.Usage, Model: "scripted/test-model"}} {
		e, err := debate.NewEvent(f.ID, created, p)
		if err != nil {
			f.T.Fatal(err)
		}
		evs = append(evs, e)
	}
	if _, err := f.Store.Append(ctx, f.ID, evs...); err != nil {
		f.T.Fatal(err)
	}
	s, err := debate.Fold(f.Events())
	if err != nil {
		f.T.Fatal(err)
	}
	return s
}

func TestFollowUpQuestions(t *testing.T) {
	bearAnswer := "Cash conversion above 1x for two years would turn me. I concede the 71% gross margin."
	modAnswer := "The evidence favours the bull on growth; cash conversion is the open question."
	f := newFixture(t, nvdaOptions(t),
		askRule("ask/1/bear", bearAnswer), askRule("ask/2/moderator", modAnswer), askRule("ask/3/bear", "Still bearish."))
	s := f.MustRun()

	spec, note, err := bullbear.Format{}.Ask(s, "Bear", "What would make you turn bullish?")
	if err != nil {
		t.Fatal(err)
	}
	if spec.ID != "ask/1/bear" || spec.Agent != "bear" || spec.Role != "bear" || spec.Schema != nil || spec.UseTools {
		t.Errorf("spec %+v", spec.TurnRef)
	}
	// The bear answers with the system prompt it debated with, and the whole
	// debate, synthesis included, as a cacheable first message.
	if debated := f.requestFor("opening/bear").System; spec.System != debated {
		t.Errorf("follow-up system prompt differs from the bear's debate prompt:\n%s", spec.System)
	}
	if len(spec.Messages) != 2 || !spec.Messages[0].Cache || spec.Messages[1].Cache {
		t.Fatalf("messages: %+v", spec.Messages)
	}
	record := spec.Messages[0].Text
	for _, want := range []string{"BULL OPENING:", "BEAR OPENING:", "BULL REBUTTAL (round 1)", "BEAR RESEARCH SUMMARY", "FACT CHECK", "Conviction: 7/10 STRONG BULL", "Bull thesis breaks if: gross margin falls below 60%"} {
		if !strings.Contains(record, want) {
			t.Errorf("debate record lacks %q:\n%s", want, record)
		}
	}
	if q := spec.Messages[1].Text; !strings.Contains(q, "What would make you turn bullish?") || !strings.Contains(q, "Answer as the bear") {
		t.Errorf("question message:\n%s", q)
	}
	s = f.answer(spec, note, bearAnswer)
	if s.Status != debate.StatusCompleted {
		t.Errorf("a follow-up changed the debate's status to %s", s.Status)
	}

	// The moderator answers impartially, in prose rather than its synthesis JSON.
	spec, note, err = bullbear.Format{}.Ask(s, "moderator", "Which contention matters most?")
	if err != nil {
		t.Fatal(err)
	}
	if spec.ID != "ask/2/moderator" || strings.Contains(spec.System, "JSON") || !strings.Contains(spec.System, "neutral moderator") {
		t.Errorf("moderator follow-up %s, system:\n%s", spec.ID, spec.System)
	}
	if !strings.Contains(spec.Messages[1].Text, "EARLIER FOLLOW-UP QUESTIONS") || !strings.Contains(spec.Messages[1].Text, bearAnswer) {
		t.Errorf("the second question does not see the first:\n%s", spec.Messages[1].Text)
	}
	s = f.answer(spec, note, modAnswer)

	// A second question to the bear reads the debate record from the cache.
	spec, note, err = bullbear.Format{}.Ask(s, "bear", "And now?")
	if err != nil {
		t.Fatal(err)
	}
	s = f.answer(spec, note, "")
	if u := s.Completed("ask/3/bear").Usage; u.CacheReadTokens == 0 {
		t.Errorf("second question to the bear: usage %+v, want the record read from the cache", u)
	}

	fus := bullbear.FollowUps(s)
	if len(fus) != 3 || fus[0].Question != "What would make you turn bullish?" || fus[0].Answer == nil || fus[1].Agent != "moderator" {
		t.Fatalf("FollowUps = %+v", fus)
	}
	doc, err := bullbear.Format{}.Render(s, debate.RenderOptions{})
	if err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{"### Follow-up Questions", "**Q1 (to the bear):** What would make you turn bullish?", "#### Bear answers Q1 (scripted/test-model)", bearAnswer, "**Q2 (to the moderator):** Which contention matters most?", modAnswer} {
		if !strings.Contains(doc, want) {
			t.Errorf("full render lacks %q", want)
		}
	}
	sum, _ := bullbear.Format{}.Render(s, debate.RenderOptions{Summary: true})
	if strings.Contains(sum, "Follow-up Questions") {
		t.Error("the summary shows the follow-ups; they belong to the full export")
	}
}

func askRule(tag, text string) script.Rule {
	return script.Rule{Tag: tag, Reply: &script.Reply{Text: text}}
}

// requestFor is the first request sent for a tag.
func (f *fixture) requestFor(tag string) llm.Request {
	f.T.Helper()
	rs := f.Requests(tag)
	if len(rs) == 0 {
		f.T.Fatalf("no request for %s", tag)
	}
	return rs[0]
}

func TestFollowUpRefusals(t *testing.T) {
	f := newFixture(t, nvdaOptions(t))
	s := f.MustRun()
	for _, c := range []struct{ agent, q, want string }{
		{"judge", "Why?", "ask bull, bear or moderator"},
		{"bull", "  ", "the question is empty"},
	} {
		if _, _, err := (bullbear.Format{}).Ask(s, c.agent, c.q); err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("Ask(%q, %q) = %v, want %q", c.agent, c.q, err, c.want)
		}
	}
	s.Status = debate.StatusPaused
	if _, _, err := (bullbear.Format{}).Ask(s, "bull", "Why?"); !errors.Is(err, bullbear.ErrNotFinished) {
		t.Errorf("Ask on a paused debate = %v, want ErrNotFinished", err)
	}
}

// A data-only debate asked a question by a model still says that the
// debate itself used no LLM.
func TestFollowUpKeepsDataOnlyBanner(t *testing.T) {
	s, _ := dataOnlyDebate(t, nvdaOptions(t))
	spec, _, err := bullbear.Format{}.Ask(s, "bull", "Why?")
	if err != nil {
		t.Fatal(err)
	}
	s.Turns[spec.ID] = &debate.Turn{TurnRef: spec.TurnRef, Status: debate.TurnDone, Text: "Because.", Model: "scripted/test-model"}
	s.Done = append(s.Done, spec.ID)
	doc, _ := bullbear.Format{}.Render(s, debate.RenderOptions{Summary: true})
	if !strings.Contains(doc, "No LLM was used") {
		t.Error("the data-only banner disappeared after a follow-up")
	}
}
