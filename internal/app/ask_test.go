package app

import (
	"context"
	"encoding/json"
	"errors"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/parleyhq/parley/internal/debate"
	"github.com/parleyhq/parley/internal/format/bullbear"
	"github.com/parleyhq/parley/internal/llm/fakellm"
	"github.com/parleyhq/parley/internal/llm/script"
	"github.com/parleyhq/parley/internal/report"
	"github.com/parleyhq/parley/internal/setup"
)

// fakeServer serves the script in cmd/parley/testdata/name plus more rules
// (tried first).
func fakeServer(t *testing.T, name string, more ...script.Rule) *fakellm.Server {
	t.Helper()
	base, err := script.Load(filepath.Join("..", "..", "cmd", "parley", "testdata", name))
	if err != nil {
		t.Fatal(err)
	}
	sc, err := script.New(append(more, base.Rules...)...)
	if err != nil {
		t.Fatal(err)
	}
	srv := fakellm.Start(sc, fakellm.WithAPIKey("test-key"))
	t.Cleanup(srv.Close)
	return srv
}

// TestAskCouncilAgent asks an analyst of a council debate (a format with no
// follow-ups of its own) two questions: the recorded model answers with the
// debate as context, each answer is saved with its question, and the
// document and the JSON export show them.
func TestAskCouncilAgent(t *testing.T) {
	ctx := context.Background()
	srv := fakeServer(t, "council.yaml",
		script.Rule{Tag: "ask/1/sentiment", Reply: &script.Reply{Text: "Churn above 5% a month would prove me right."}},
		script.Rule{Tag: "ask/2/search", Reply: &script.Reply{Text: "Retention cohorts decide it."}})
	a := testApp(t, map[string]string{"OPENAI_BASE_URL": srv.OpenAIURL(), "OPENAI_API_KEY": "test-key"})
	s, _ := runCouncil(ctx, t, a)
	// A later session whose environment names no model: the model the
	// debate recorded answers.
	b := &App{Store: a.Store, Formats: a.Formats, Env: setup.Env{Getenv: func(k string) string {
		if k == "OPENAI_API_KEY" {
			return "test-key"
		}
		return ""
	}, Now: time.Now}}
	fu, err := b.Ask(ctx, AskRequest{ID: s.ID[:7], Agent: "Sent", Question: "What would prove you right?"})
	if err != nil {
		t.Fatal(err)
	}
	if fu.Spec.ID != "ask/1/sentiment" || fu.Model.String() != "openai/test-model" {
		t.Fatalf("follow-up %s by %s, want ask/1/sentiment by the recorded openai/test-model", fu.Spec.ID, fu.Model)
	}
	var streamed strings.Builder
	tc, err := fu.Answer(ctx, func(s string) { streamed.WriteString(s) })
	if err != nil {
		t.Fatal(err)
	}
	if streamed.String() != "Churn above 5% a month would prove me right." || tc.Usage.OutputTokens == 0 {
		t.Errorf("streamed %q, usage %+v", streamed.String(), tc.Usage)
	}
	reqs := srv.Requests()
	body := string(reqs[len(reqs)-1].Body)
	for _, want := range []string{"What would prove you right?", "Community sentiment turned negative after the outage.", `as Sentiment (agent \"sentiment\" in the record`} {
		if !strings.Contains(body, want) {
			t.Errorf("the question's request lacks %q:\n%s", want, body)
		}
	}
	fu2, err := b.Ask(ctx, AskRequest{ID: s.ID, Agent: "search", Question: "And you?"})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := fu2.Answer(ctx, nil); err != nil {
		t.Fatal(err)
	}
	reqs = srv.Requests()
	if body := string(reqs[len(reqs)-1].Body); !strings.Contains(body, "EARLIER FOLLOW-UP QUESTIONS") || !strings.Contains(body, "Churn above 5% a month") {
		t.Errorf("the second question does not carry the first:\n%s", body)
	}

	st, format, err := b.Load(ctx, s.ID)
	if err != nil {
		t.Fatal(err)
	}
	if st.Status != debate.StatusCompleted {
		t.Errorf("status %s after follow-ups", st.Status)
	}
	doc, err := RenderDoc(format, st, false)
	if err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{"## Follow-up questions", "**Q1 (to Sentiment):** What would prove you right?",
		"**Sentiment answers Q1** (openai/test-model):", "Churn above 5% a month", "**Q2 (to Search):** And you?"} {
		if !strings.Contains(doc, want) {
			t.Errorf("the document lacks %q:\n%s", want, doc)
		}
	}
	if i, j := strings.Index(doc, "## Follow-up questions"), strings.Index(doc, "## Tokens and cost"); i < 0 || j < i {
		t.Errorf("the follow-ups come after the cost table:\n%s", doc)
	}
	exp, _ := json.Marshal(ExportJSON(st, true))
	if !strings.Contains(string(exp), `"id":"ask/1/sentiment"`) || !strings.Contains(string(exp), `"kind":"ask"`) {
		t.Errorf("the JSON export lacks the follow-up:\n%s", exp)
	}
}

func TestAskRefusals(t *testing.T) {
	ctx := context.Background()
	a := testApp(t, nil)
	req := offlineBullbear("NVDA")
	s, err := a.Start(ctx, req)
	if err != nil {
		t.Fatal(err)
	}
	// Not finished yet.
	if _, err := a.Ask(ctx, AskRequest{ID: s.ID, Agent: "bear", Question: "Why?"}); !errors.Is(err, ErrUnfinished) {
		t.Errorf("a follow-up to an unfinished debate: %v, want ErrUnfinished", err)
	}
	if _, err := s.Run(ctx, nil); err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		req    AskRequest
		config bool
		want   string
	}{
		{AskRequest{ID: s.ID, Agent: "bear", Question: "Why?"}, true, "data-only agents"},
		{AskRequest{ID: s.ID, Agent: "judge", Question: "Why?"}, false, "ask bull, bear or moderator"},
		// A unique prefix names the agent in every format ('parley ask
		// --help' says so): "mod" is the moderator, past the agent check
		// to the model's.
		{AskRequest{ID: s.ID, Agent: "mod", Question: "Why?"}, true, "none is configured for the moderator"},
		{AskRequest{ID: s.ID, Agent: "bear", Question: "  "}, false, "the question is empty"},
		{AskRequest{ID: "DEB-none", Agent: "bear", Question: "Why?"}, false, "no debate DEB-none"},
	} {
		_, err := a.Ask(ctx, c.req)
		var ie *setup.InputError
		var ce *setup.ConfigError
		if c.config && !errors.As(err, &ce) || !c.config && !errors.As(err, &ie) || err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%+v: %v, want a %s error with %q", c.req, err, map[bool]string{true: "config", false: "input"}[c.config], c.want)
		}
	}
}

// finishedOffline runs an offline bullbear debate on NVDA to completion in
// an App whose environment points at srv.
func finishedOffline(t *testing.T, srv *fakellm.Server) (*App, string) {
	t.Helper()
	t.Setenv("XDG_CACHE_HOME", t.TempDir())
	a := testApp(t, map[string]string{"ANTHROPIC_BASE_URL": srv.AnthropicURL(), "ANTHROPIC_API_KEY": "test-key"})
	req := offlineBullbear("NVDA")
	s, err := a.Start(context.Background(), req)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := s.Run(context.Background(), nil); err != nil {
		t.Fatal(err)
	}
	return a, s.ID
}

// A bullbear debate asks through the format's own follow-ups: in role, with
// its record cached from the second question on.
func TestAskBullbearUsesTheFormatsFollowUps(t *testing.T) {
	ctx := context.Background()
	srv := fakeServer(t, "bullbear.yaml",
		script.Rule{Tag: "ask/1/bear", Reply: &script.Reply{Text: "Cash conversion above 1x would turn me bullish."}},
		script.Rule{Tag: "ask/2/bear", Reply: &script.Reply{Text: "Nothing else."}})
	a, id := finishedOffline(t, srv)
	ask := func(q string) debate.TurnCompleted {
		t.Helper()
		fu, err := a.Ask(ctx, AskRequest{ID: id, Agent: "Bear", Question: q, Models: Models{Provider: "anthropic", Model: "claude-sonnet-4-5"}})
		if err != nil {
			t.Fatal(err)
		}
		tc, err := fu.Answer(ctx, nil)
		if err != nil {
			t.Fatal(err)
		}
		return tc
	}
	tc := ask("What would make you turn bullish?")
	if tc.Turn.ID != "ask/1/bear" || tc.Model != "anthropic/claude-sonnet-4-5" || tc.CostUSD <= 0 {
		t.Errorf("turn %s by %s for $%v", tc.Turn.ID, tc.Model, tc.CostUSD)
	}
	if tc2 := ask("Anything else?"); tc2.Turn.ID != "ask/2/bear" || tc2.Usage.CacheReadTokens == 0 {
		t.Errorf("second follow-up %s: usage %+v, want the debate record read from the cache", tc2.Turn.ID, tc2.Usage)
	}
	st, _, err := a.Load(ctx, id)
	if err != nil {
		t.Fatal(err)
	}
	fus := bullbear.FollowUps(st)
	if st.Status != debate.StatusCompleted || len(fus) != 2 || fus[0].Answer == nil || fus[0].Answer.Text != "Cash conversion above 1x would turn me bullish." {
		t.Errorf("status %s, follow-ups in the log: %+v", st.Status, fus)
	}
	if len(report.FollowUps(st)) != 0 {
		t.Error("a bullbear follow-up was recorded as a generic one too")
	}
}

// Two follow-ups to the same agent answered at once: the second to finish
// is refused rather than completing the same turn twice.
func TestAskRefusesATakenTurnID(t *testing.T) {
	ctx := context.Background()
	srv := fakeServer(t, "bullbear.yaml", script.Rule{TagRegexp: "^ask/1/bull$", Reply: &script.Reply{Text: "Because."}})
	a, id := finishedOffline(t, srv)
	models := Models{Provider: "anthropic", Model: "test-model"}
	fu1, err := a.Ask(ctx, AskRequest{ID: id, Agent: "bull", Question: "One?", Models: models})
	if err != nil {
		t.Fatal(err)
	}
	fu2, err := a.Ask(ctx, AskRequest{ID: id, Agent: "bull", Question: "Two?", Models: models})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := fu1.Answer(ctx, nil); err != nil {
		t.Fatal(err)
	}
	if _, err := fu2.Answer(ctx, nil); err == nil || !strings.Contains(err.Error(), "ask again") {
		t.Fatalf("second follow-up with the same turn id: %v", err)
	}
	if _, _, err := a.Load(ctx, id); err != nil {
		t.Fatalf("the log no longer folds: %v", err)
	}
}

func TestMatchAgent(t *testing.T) {
	agents := []string{"performance-advocate", "operational-simplicity", "moderator", "opp"}
	for typed, want := range map[string]string{"perf": "performance-advocate", "Moderator": "moderator", "op": "", "opp": "opp", "": "", "x": "",
		// As the transcript and the usage table name them.
		"Performance Advocate": "performance-advocate", "operational simplicity": "operational-simplicity", "Operational_Simplicity": "operational-simplicity", "OPP": "opp", "Performance  Adv": "performance-advocate"} {
		if got := MatchAgent(agents, typed); got != want {
			t.Errorf("MatchAgent(%q) = %q, want %q", typed, got, want)
		}
	}
}

// TestAskRecordedModelUnusable: a follow-up whose recorded model cannot be
// used here (its key is not set; its server is gone, and the environment
// names another) says to ask with --model, as 'parley ask' takes it, not
// to resume: the debate is finished, and a resume of it is refused.
func TestAskRecordedModelUnusable(t *testing.T) {
	ctx := context.Background()
	srv := fakeServer(t, "council.yaml")
	a := testApp(t, map[string]string{"ANTHROPIC_BASE_URL": srv.AnthropicURL(), "ANTHROPIC_API_KEY": "test-key"})
	s, _ := runCouncil(ctx, t, a)
	srv.Close()
	check := func(what string, err error) {
		t.Helper()
		if err == nil || strings.Contains(err.Error(), "resume") || !strings.Contains(err.Error(), "ask") || !strings.Contains(err.Error(), "--model") {
			t.Errorf("%s: %v, want the advice to ask with --model, not to resume", what, err)
		}
	}
	noKey := &App{Store: a.Store, Formats: a.Formats, Env: setup.Env{Getenv: func(string) string { return "" }, Now: time.Now}}
	_, err := noKey.Ask(ctx, AskRequest{ID: s.ID, Agent: "search", Question: "Why?"})
	check("no key", err)
	moved := &App{Store: a.Store, Formats: a.Formats, Env: setup.Env{Getenv: func(k string) string {
		return map[string]string{"ANTHROPIC_API_KEY": "test-key", "ANTHROPIC_BASE_URL": "http://127.0.0.1:1"}[k]
	}, Now: time.Now}}
	fu, err := moved.Ask(ctx, AskRequest{ID: s.ID, Agent: "search", Question: "Why?"})
	if err != nil {
		t.Fatal(err)
	}
	_, err = fu.Answer(ctx, nil)
	check("the recorded server gone", err)
}
