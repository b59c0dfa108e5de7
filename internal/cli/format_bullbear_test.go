package cli

import (
	"context"
	"encoding/json"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/parleyhq/parley/internal/app"
	"github.com/parleyhq/parley/internal/debate"
	"github.com/parleyhq/parley/internal/format/bullbear"
	"github.com/parleyhq/parley/internal/iostreams"
	"github.com/parleyhq/parley/internal/setup"
)

// pausedBullbear stores a bullbear debate on NVDA that stopped after the
// bull's opening, while the bear's was running.
func pausedBullbear(t *testing.T, f *Factory) string {
	t.Helper()
	ctx := context.Background()
	opts, err := bullbear.Format{}.Setup(ctx, setup.Env{Getenv: f.Env, Now: f.Now}, &setup.Request{Topic: "NVDA", Offline: true})
	if err != nil {
		t.Fatal(err)
	}
	store, err := f.OpenStore(ctx)
	if err != nil {
		t.Fatal(err)
	}
	defer store.Close()
	id := "DEB-paused1"
	at := time.Date(2026, 11, 21, 9, 0, 0, 0, time.UTC)
	turn := func(tid, agent, text string) debate.Payload {
		return debate.TurnCompleted{Turn: debate.TurnRef{ID: tid, Agent: agent, Role: agent}, Text: text, NoLLM: true, Model: "data-only"}
	}
	var evs []debate.Event
	for _, p := range []debate.Payload{
		debate.Created{Format: bullbear.Name, Topic: "NVDA", Options: opts, Limits: debate.DefaultLimits()},
		debate.PhaseChanged{Phase: "research", Label: "Phase 1 (Research)"},
		turn("research/bull", "bull", "Bull research."), turn("research/bear", "bear", "Bear research."),
		debate.PhaseChanged{Phase: "opening", Label: "Phase 2 (Opening Arguments)"},
		turn("opening/bull", "bull", "- Revenue growth (YoY) of 65.5% in FY2026\n- Gross margin of 71.1% in FY2026\n- Operating margin of 60.4% in FY2026"),
		debate.TurnStarted{Turn: debate.TurnRef{ID: "opening/bear", Agent: "bear", Role: "bear"}, Attempt: 1},
		debate.TurnDelta{Turn: "opening/bear", Text: "- Piotroski F-sc"},
		debate.Paused{Reason: debate.PauseInterrupted},
	} {
		e, err := debate.NewEvent(id, at, p)
		if err != nil {
			t.Fatal(err)
		}
		evs = append(evs, e)
	}
	if _, err := store.Append(ctx, id, evs...); err != nil {
		t.Fatal(err)
	}
	return id
}

// testFactory has no model and no SEC_USER_AGENT: bullbear runs offline and
// data-only.
func testFactory(t *testing.T, stdin string, terminal bool) *Factory {
	ios, in, _, _ := iostreams.Test()
	in.WriteString(stdin)
	ios.SetTerminal(false, terminal, false)
	return &Factory{IO: ios, Env: func(string) string { return "" }, Now: time.Now, DBPath: filepath.Join(t.TempDir(), "parley.db"), Formats: app.DefaultFormats()}
}

// bullbearOptions are the options of 'parley debate TICKER'.
func bullbearOptions(topic string) *DebateOptions {
	o := defaultDebateOptions()
	o.Topic, o.Format = topic, bullbear.Name
	return o
}

func TestBullbearResumePrompt(t *testing.T) {
	t.Setenv("XDG_CACHE_HOME", t.TempDir())
	f := testFactory(t, "\n", true)
	id := pausedBullbear(t, f)
	o := bullbearOptions("NVDA")
	if err := offerResume(context.Background(), f, o); err != nil {
		t.Fatal(err)
	}
	errOut := f.IO.ErrOut.(interface{ String() string }).String()
	if !strings.Contains(errOut, "Resume debate from Phase 2 (Bear Opening)? [Y/n]") {
		t.Errorf("prompt:\n%s", errOut)
	}
	if o.Resume != id {
		t.Fatalf("Resume = %q, want %s (Enter means yes)", o.Resume, id)
	}
	// The resumed debate completes with the data-only agents, the bull's
	// opening kept and the bear's run again from its start.
	if err := runDebate(context.Background(), f, o); err != nil {
		t.Fatalf("resume: %v\n%s", err, f.IO.ErrOut.(interface{ String() string }).String())
	}
	store, err := f.OpenStore(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	defer store.Close()
	evs, _ := store.Load(context.Background(), id, 0)
	st, err := debate.Fold(evs)
	if err != nil {
		t.Fatal(err)
	}
	bear := st.Completed("opening/bear")
	if st.Status != debate.StatusCompleted || st.Completed("opening/bull").Text == "" || bear == nil || len(bear.Superseded) != 1 {
		t.Errorf("status %s, turns %v", st.Status, st.Done)
	}
	var r bullbear.Result
	if err := json.Unmarshal(st.Verdict, &r); err != nil || r.Synthesis == nil {
		t.Errorf("verdict %s: %v", st.Verdict, err)
	}
}

func TestBullbearResumeDeclinedOrUnattended(t *testing.T) {
	t.Setenv("XDG_CACHE_HOME", t.TempDir())
	f := testFactory(t, "n\n", true)
	pausedBullbear(t, f)
	o := bullbearOptions("NVDA")
	if err := offerResume(context.Background(), f, o); err != nil || o.Resume != "" {
		t.Errorf("declined: resume %q, err %v", o.Resume, err)
	}

	f2 := testFactory(t, "", false)
	id := pausedBullbear(t, f2)
	o = bullbearOptions("nvda")
	if err := offerResume(context.Background(), f2, o); err != nil || o.Resume != "" {
		t.Errorf("unattended: resume %q, err %v", o.Resume, err)
	}
	if msg := f2.IO.ErrOut.(interface{ String() string }).String(); !strings.Contains(msg, "parley debate --resume "+id) {
		t.Errorf("unattended message:\n%s", msg)
	}
}

// TestBullbearResumeOnlyTheSameQuestion: the resume offer is for a debate
// that asks what the new one would; a deep debate of the ticker, or one
// with a model, is another question, and no resume is offered.
func TestBullbearResumeOnlyTheSameQuestion(t *testing.T) {
	t.Setenv("XDG_CACHE_HOME", t.TempDir())
	f := testFactory(t, "y\n", true)
	pausedBullbear(t, f)
	deep := bullbearOptions("NVDA")
	deep.setValue("deep", true)
	withModel := bullbearOptions("NVDA")
	withModel.Models.Model = "gpt-4.1"
	f.Env = func(k string) string {
		if k == "OPENAI_API_KEY" {
			return "test-key"
		}
		return ""
	}
	for name, o := range map[string]*DebateOptions{"--deep": deep, "a model": withModel} {
		if err := offerResume(context.Background(), f, o); err != nil || o.Resume != "" {
			t.Errorf("%s: resume %q, err %v; want no offer", name, o.Resume, err)
		}
	}
	if errOut := f.IO.ErrOut.(interface{ String() string }).String(); strings.Contains(errOut, "Resume debate") {
		t.Errorf("a resume was offered:\n%s", errOut)
	}
}
