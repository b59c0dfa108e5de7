package app

import (
	"context"
	"errors"
	"maps"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/parleyhq/parley/internal/debate"
	"github.com/parleyhq/parley/internal/llm"
	"github.com/parleyhq/parley/internal/llm/fakellm"
	"github.com/parleyhq/parley/internal/llm/script"
	"github.com/parleyhq/parley/internal/setup"
	"github.com/parleyhq/parley/internal/store/memstore"
)

func testApp(t *testing.T, env map[string]string) *App {
	t.Helper()
	store := memstore.New()
	t.Cleanup(func() { store.Close() })
	return &App{Store: store, Formats: DefaultFormats(), Env: setup.Env{Getenv: func(k string) string { return env[k] }, Now: time.Now}}
}

// runCouncil runs a council debate on "Acme Corp" with test-model to its
// end and returns its session and final state.
func runCouncil(ctx context.Context, t *testing.T, a *App) (*Session, *debate.State) {
	t.Helper()
	req := request("council", "Acme Corp")
	req.Models = Models{Model: "test-model"}
	s, err := a.Start(ctx, req)
	if err != nil {
		t.Fatal(err)
	}
	st, err := s.Run(ctx, nil)
	if err != nil {
		t.Fatal(err)
	}
	return s, st
}

func request(format, topic string) StartRequest {
	return StartRequest{Request: setup.Request{Format: format, Topic: topic, Values: setup.Values{"max-rounds": 3, "rounds": 2, "risk": "neutral"}}, Limits: debate.DefaultLimits()}
}

// withValue is r with the format option name set to v (r's values are
// left as they are: a copy of a request shares its map).
func withValue(r StartRequest, name string, v any) StartRequest {
	r.Values = maps.Clone(r.Values)
	if r.Values == nil {
		r.Values = setup.Values{}
	}
	r.Values[name] = v
	return r
}

// offlineBullbear is a bull vs. bear debate on ticker with no network: the
// shipped SEC data and the data-only agents.
func offlineBullbear(ticker string) StartRequest {
	req := request("bullbear", ticker)
	req.Offline = true
	return req
}

func TestStartOfflineRunsToCompletion(t *testing.T) {
	ctx := context.Background()
	a := testApp(t, nil)
	req := offlineBullbear("NVDA")
	s, err := a.Start(ctx, req)
	if err != nil {
		t.Fatal(err)
	}
	if len(s.Models) != 0 || len(s.DataOnly) != 3 {
		t.Fatalf("offline cast: models %v, data-only %v; want none and bull, bear, moderator", s.Models, s.DataOnly)
	}
	st, err := s.Run(ctx, nil)
	if err != nil {
		t.Fatal(err)
	}
	if st.Status != debate.StatusCompleted || st.Format != "bullbear" {
		t.Fatalf("status %s format %s, want a completed bullbear debate", st.Status, st.Format)
	}
	if _, err := a.Resume(ctx, ResumeRequest{ID: s.ID}); !errors.Is(err, ErrCompleted) {
		t.Fatalf("resume of a completed debate: %v, want ErrCompleted", err)
	}
}

func TestStartRefusesBadRequests(t *testing.T) {
	ctx := context.Background()
	a := testApp(t, nil)
	offline := request("perspectives", "Redis or PostgreSQL?")
	offline.Offline = true
	withModel := request("bullbear", "NVDA")
	withModel.Offline, withModel.Models = true, Models{Model: "x"}
	both := withValue(request("bullbear", "AAPL"), setup.SnapshotName, true)
	both.Offline = true
	wrongRole := request("crux", "Is Bitcoin digital gold?")
	wrongRole.Models = Models{ModelFor: []string{"debater=gpt-4.1"}}
	for name, tc := range map[string]struct {
		req   StartRequest
		input bool // an input error, else a config error
	}{
		"empty topic":          {request("perspectives", "  "), true},
		"NUL in the topic":     {request("perspectives", "Redis\x00 or PostgreSQL?"), true},
		"unknown format":       {request("chess", "e4 or d4?"), true},
		"offline with LLM":     {offline, true},
		"offline and model":    {withModel, true},
		"offline and snapshot": {both, true},
		"unknown role":         {wrongRole, true},
		"no model":             {request("perspectives", "Redis or PostgreSQL?"), false},
	} {
		t.Run(name, func(t *testing.T) {
			_, err := a.Start(ctx, tc.req)
			var ie *setup.InputError
			var ce *setup.ConfigError
			if tc.input && !errors.As(err, &ie) || !tc.input && !errors.As(err, &ce) {
				t.Fatalf("err = %v (%T), want an input error: %v", err, err, tc.input)
			}
		})
	}
	if sums, _ := a.Store.List(ctx, debate.ListFilter{}); len(sums) != 0 {
		t.Fatalf("a refused request created %d debates", len(sums))
	}
}

// A format that needs a model, with none configured, is refused without a
// note from its setup (council's company lookup, crux's personas): notes
// about a debate that cannot run are noise above the error. A bad request is
// refused for what is wrong with it first.
func TestNoModelRefusedQuietly(t *testing.T) {
	a := testApp(t, nil)
	var notes strings.Builder
	a.Env.Notice = &notes
	for _, format := range []string{"council", "perspectives", "crux", "formal"} {
		_, err := a.Plan(context.Background(), request(format, "X"))
		var nm *setup.ErrNoModelConfigured
		if !errors.As(err, &nm) || nm.Format != format {
			t.Errorf("%s with no model: %v, want ErrNoModelConfigured", format, err)
		}
	}
	if notes.Len() != 0 {
		t.Errorf("notes before the no-model error: %q", notes.String())
	}
	bad := request("crux", "Is Bitcoin digital gold?")
	bad = withValue(bad, "agents", []string{"saylor", "nobody"})
	var ie *setup.InputError
	if _, err := a.Plan(context.Background(), bad); !errors.As(err, &ie) {
		t.Errorf("crux with an unknown persona and no model: %v, want the input error", err)
	}
	badRisk := request("council", "X")
	badRisk = withValue(badRisk, "risk", "bold")
	if _, err := a.Plan(context.Background(), badRisk); !errors.As(err, &ie) {
		t.Errorf("council with --risk bold and no model: %v, want the input error", err)
	}
}

// perspectivesServer is a fake model server that answers the e2e tests'
// perspectives debate, until the test ends.
func perspectivesServer(t *testing.T) *fakellm.Server {
	t.Helper()
	sc, err := script.Load(filepath.Join("..", "..", "cmd", "parley", "testdata", "perspectives.yaml"))
	if err != nil {
		t.Fatal(err)
	}
	srv := fakellm.Start(sc, fakellm.WithAPIKey("test-key"))
	t.Cleanup(srv.Close)
	return srv
}

// TestResumeKeepsRecordedCast starts a debate on a fake server, pauses it
// at its first checkpoint, and resumes it from an environment with no model:
// the recorded model answers, nothing is substituted.
func TestResumeKeepsRecordedCast(t *testing.T) {
	ctx := context.Background()
	srv := perspectivesServer(t)
	a := testApp(t, map[string]string{"OPENAI_BASE_URL": srv.OpenAIURL(), "OPENAI_API_KEY": "test-key"})
	s, err := a.Start(ctx, request("perspectives", "Should we use Redis or PostgreSQL for caching?"))
	if err != nil {
		t.Fatal(err)
	}
	if _, err := s.Run(ctx, nil); err == nil {
		t.Fatal("a debate with checkpoints and no human ran to the end; want a pause at the first checkpoint")
	} else if pe := (*debate.PausedError)(nil); !errors.As(err, &pe) {
		t.Fatalf("run: %v, want a pause", err)
	}
	// Keys come from the environment; the model and endpoint from the record.
	b := &App{Store: a.Store, Formats: a.Formats, Env: setup.Env{Getenv: func(k string) string {
		if k == "OPENAI_API_KEY" {
			return "test-key"
		}
		return ""
	}, Now: time.Now}}
	r, err := b.Resume(ctx, ResumeRequest{ID: s.ID})
	if err != nil {
		t.Fatal(err)
	}
	if r.Models["*"] != s.Models["*"] || len(r.Changes) != 0 {
		t.Fatalf("resumed cast %v (changes %v), want the recorded %v", r.Models, r.Changes, s.Models)
	}
	if _, err := b.Resume(ctx, ResumeRequest{ID: s.ID, Offline: true}); err == nil {
		t.Fatal("an offline resume of a debate with a model was accepted")
	}
	if _, err := b.Resume(ctx, ResumeRequest{ID: "DEB-none"}); err == nil {
		t.Fatal("resume of an unknown debate was accepted")
	}
}

// TestResumeFollowsCorrectedBaseURL: a debate created against a wrong
// address (a base URL without /v1) pauses on the server's 404. A plain resume
// keeps the recorded address, saying the environment now names another; a
// resume naming the same model again moves to the corrected address and
// records the change.
func TestResumeFollowsCorrectedBaseURL(t *testing.T) {
	ctx := context.Background()
	srv := perspectivesServer(t)
	env := map[string]string{"OPENAI_BASE_URL": srv.URL, "OPENAI_API_KEY": "test-key"}
	a := testApp(t, env)
	req := request("perspectives", "Should we use Redis or PostgreSQL for caching?")
	req.Models = Models{Model: "test-model"}
	s, err := a.Start(ctx, req)
	if err != nil {
		t.Fatal(err)
	}
	var le *llm.Error
	if _, err := s.Run(ctx, nil); !errors.As(err, &le) || le.StatusCode != 404 || !strings.Contains(err.Error(), "check OPENAI_BASE_URL") {
		t.Fatalf("run against the server's root: %v, want its 404 naming OPENAI_BASE_URL", err)
	}

	env["OPENAI_BASE_URL"] = srv.OpenAIURL()
	r, err := a.Resume(ctx, ResumeRequest{ID: s.ID})
	if err != nil {
		t.Fatal(err)
	}
	if len(r.Changes) != 0 || len(r.Notices) != 1 || !strings.Contains(r.Notices[0], "OPENAI_BASE_URL names "+srv.OpenAIURL()) ||
		!strings.Contains(r.Notices[0], "answer at "+srv.URL+",") {
		t.Fatalf("plain resume: changes %v, notices %q; want none, and one notice naming both addresses", r.Changes, r.Notices)
	}
	if _, err := r.Run(ctx, nil); !errors.As(err, &le) || le.StatusCode != 404 {
		t.Fatalf("plain resume ran against %v, want the recorded address's 404", err)
	}

	r, err = a.Resume(ctx, ResumeRequest{ID: s.ID, Models: Models{Model: "test-model"}})
	if err != nil {
		t.Fatal(err)
	}
	want := []debate.CastChanged{{Role: "*", From: "openai/test-model", To: "openai/test-model", Endpoint: srv.OpenAIURL()}}
	if !slices.Equal(r.Changes, want) || len(r.Notices) != 1 || !strings.Contains(r.Notices[0], "at "+srv.OpenAIURL()+", was openai/test-model at "+srv.URL) {
		t.Fatalf("resume naming the model: changes %v, notices %q; want %v and a notice with both addresses", r.Changes, r.Notices, want)
	}
	var pe *debate.PausedError
	if _, err := r.Run(ctx, nil); !errors.As(err, &pe) || pe.Reason == "error" {
		t.Fatalf("resume at the corrected address: %v, want a pause at the first checkpoint", err)
	}
	st, _, err := a.Load(ctx, s.ID)
	if err != nil {
		t.Fatal(err)
	}
	if st.Endpoints["openai"] != srv.OpenAIURL() {
		t.Errorf("recorded endpoint %q, want %q", st.Endpoints["openai"], srv.OpenAIURL())
	}
}
