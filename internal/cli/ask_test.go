package cli

import (
	"bytes"
	"context"
	"errors"
	"io"
	"strings"
	"testing"
	"time"

	"github.com/parleyhq/parley/internal/debate"
	"github.com/parleyhq/parley/internal/format/bullbear"
	"github.com/parleyhq/parley/internal/llm/script"
	"github.com/parleyhq/parley/internal/setup"
)

// finishedBullbear runs an offline data-only debate on NVDA to completion
// and returns its id.
func finishedBullbear(t *testing.T, f *Factory) string {
	t.Helper()
	if err := runDebate(context.Background(), f, &DebateOptions{Request: setup.Request{Topic: "NVDA", Format: bullbear.Name, Offline: true, NoCheckpoints: true,
		MaxRounds: 1}, RoundTimeout: time.Minute, DebateTimeout: time.Minute, CallTimeout: time.Minute, CheckpointTimeout: time.Minute}); err != nil {
		t.Fatalf("debate: %v", err)
	}
	store, err := f.OpenStore(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	defer store.Close()
	list, err := store.List(context.Background(), debate.ListFilter{})
	if err != nil || len(list) != 1 {
		t.Fatalf("list: %v %v", list, err)
	}
	return list[0].ID
}

func TestAskTurnAppendsQuestionAndAnswer(t *testing.T) {
	t.Setenv("XDG_CACHE_HOME", t.TempDir())
	f := testFactory(t, "", false)
	id := finishedBullbear(t, f)
	prov := script.NewProvider(script.MustNew(
		script.Rule{Tag: "ask/1/bear", Reply: &script.Reply{Text: "Cash conversion above 1x would turn me bullish."}},
		script.Rule{Tag: "ask/2/bear", Reply: &script.Reply{Text: "Nothing else."}},
	))
	model := debate.Model{Provider: prov, Name: "claude-sonnet-4-5"}
	ctx := context.Background()
	store, err := f.OpenStore(ctx)
	if err != nil {
		t.Fatal(err)
	}
	defer store.Close()

	ask := func(q string) (debate.TurnCompleted, string) {
		t.Helper()
		st, format, err := loadDebate(ctx, f, store, id)
		if err != nil {
			t.Fatal(err)
		}
		spec, note, err := format.(asker).Ask(st, "bear", q)
		if err != nil {
			t.Fatal(err)
		}
		var out bytes.Buffer
		tc, err := askTurn(ctx, store, id, spec, note, model, f.Now, &out)
		if err != nil {
			t.Fatal(err)
		}
		return tc, out.String()
	}
	tc, out := ask("What would make you turn bullish?")
	if tc.Turn.ID != "ask/1/bear" || !strings.Contains(out, "Cash conversion above 1x") || tc.Model != "scripted/claude-sonnet-4-5" {
		t.Errorf("turn %s by %s, streamed %q", tc.Turn.ID, tc.Model, out)
	}
	if tc.CostUSD <= 0 {
		t.Errorf("cost %v: claude-sonnet-4-5 has a price", tc.CostUSD)
	}
	tc2, _ := ask("Anything else?")
	if tc2.Turn.ID != "ask/2/bear" || tc2.Usage.CacheReadTokens == 0 {
		t.Errorf("second follow-up %s: usage %+v, want the debate record read from the cache", tc2.Turn.ID, tc2.Usage)
	}

	st, _, err := loadDebate(ctx, f, store, id)
	if err != nil {
		t.Fatal(err)
	}
	if st.Status != debate.StatusCompleted {
		t.Errorf("status %s after follow-ups", st.Status)
	}
	fus := bullbear.FollowUps(st)
	if len(fus) != 2 || fus[0].Answer == nil || fus[0].Answer.Text != "Cash conversion above 1x would turn me bullish." {
		t.Errorf("follow-ups in the log: %+v", fus)
	}
}

func TestAskRefusals(t *testing.T) {
	t.Setenv("XDG_CACHE_HOME", t.TempDir())
	f := testFactory(t, "", false)
	id := finishedBullbear(t, f)
	ctx := context.Background()

	// No model: a ConfigError that says why the data-only agents cannot answer.
	err := runAsk(ctx, f, &AskOptions{ID: id, Agent: "bear", Question: "Why?"})
	var ce *ConfigError
	if !errors.As(err, &ce) || !strings.Contains(err.Error(), "data-only agents") || !strings.Contains(err.Error(), "ANTHROPIC_API_KEY") {
		t.Errorf("no model: %v", err)
	}
	for _, c := range []struct {
		o    AskOptions
		want string
	}{
		{AskOptions{ID: id, Question: "Why?"}, "--agent is required"},
		{AskOptions{ID: id, Agent: "judge", Question: "Why?"}, "ask bull, bear or moderator"},
		{AskOptions{ID: "DEB-none", Agent: "bull", Question: "Why?"}, "no debate DEB-none"},
	} {
		err := runAsk(ctx, f, &c.o)
		var ue *UsageError
		if !errors.As(err, &ue) || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%+v: %v, want a usage error with %q", c.o, err, c.want)
		}
	}
	paused := pausedBullbear(t, f)
	err = runAsk(ctx, f, &AskOptions{ID: paused, Agent: "bull", Question: "Why?"})
	var ue *UsageError
	if !errors.As(err, &ue) || !strings.Contains(err.Error(), "parley debate --resume "+paused) {
		t.Errorf("unfinished debate: %v", err)
	}
}

// Two follow-ups to the same agent answered at once: the second to finish
// is refused rather than completing the same turn twice.
func TestAskTurnRefusesATakenTurnID(t *testing.T) {
	t.Setenv("XDG_CACHE_HOME", t.TempDir())
	f := testFactory(t, "", false)
	id := finishedBullbear(t, f)
	prov := script.NewProvider(script.MustNew(script.Rule{Tag: "ask/1/bull", Reply: &script.Reply{Text: "Because."}}))
	model := debate.Model{Provider: prov, Name: "test-model"}
	ctx := context.Background()
	store, err := f.OpenStore(ctx)
	if err != nil {
		t.Fatal(err)
	}
	defer store.Close()
	st, format, err := loadDebate(ctx, f, store, id)
	if err != nil {
		t.Fatal(err)
	}
	spec1, note1, _ := format.(asker).Ask(st, "bull", "One?")
	spec2, note2, _ := format.(asker).Ask(st, "bull", "Two?")
	if _, err := askTurn(ctx, store, id, spec1, note1, model, f.Now, io.Discard); err != nil {
		t.Fatal(err)
	}
	if _, err := askTurn(ctx, store, id, spec2, note2, model, f.Now, io.Discard); err == nil || !strings.Contains(err.Error(), "ask again") {
		t.Fatalf("second follow-up with the same turn id: %v", err)
	}
	if _, _, err := loadDebate(ctx, f, store, id); err != nil {
		t.Fatalf("the log no longer folds: %v", err)
	}
}
