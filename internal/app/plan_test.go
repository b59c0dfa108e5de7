package app

import (
	"bytes"
	"context"
	"encoding/json"
	"sync/atomic"
	"testing"
	"time"

	"github.com/parleyhq/parley/internal/debate"
	"github.com/parleyhq/parley/internal/format/bullbear"
	"github.com/parleyhq/parley/internal/format/perspectives"
	"github.com/parleyhq/parley/internal/setup"
	"github.com/parleyhq/parley/internal/store/storetest"
)

// recordedCreated reads the debate.created payload of a debate.
func recordedCreated(t *testing.T, a *App, id string) debate.Created {
	t.Helper()
	c, err := a.created(context.Background(), id)
	if err != nil {
		t.Fatal(err)
	}
	return c
}

// TestPlanSameQuestion: Plan creates nothing, and sameQuestion tells a
// debate asked otherwise (deeper, another framework, with a model) from one
// asked the same way, whatever the case of its topic and the key order of
// its options.
func TestPlanSameQuestion(t *testing.T) {
	ctx := context.Background()
	a := testApp(t, map[string]string{"OPENAI_API_KEY": "test-key"})
	quick := offlineBullbear("NVDA")
	want, err := a.Plan(ctx, quick)
	if err != nil {
		t.Fatal(err)
	}
	if sums, _ := a.Store.List(ctx, debate.ListFilter{}); len(sums) != 0 {
		t.Fatalf("Plan created %d debates", len(sums))
	}
	s, err := a.StartPlan(ctx, want, nil)
	if err != nil {
		t.Fatal(err)
	}
	got := recordedCreated(t, a, s.ID)
	if same, err := a.sameQuestion(got, want); err != nil || !same {
		t.Fatalf("the debate StartPlan created does not ask what Plan planned (%v):\n%s\n%s", err, got.Options, want.question)
	}
	lower := quick
	lower.Topic = " nvda "
	if p, err := a.Plan(ctx, lower); err != nil {
		t.Fatal(err)
	} else if same, err := a.sameQuestion(got, p); err != nil || !same {
		t.Errorf("nvda and NVDA: same %v, %v", same, err)
	} else if p.Topic() != "NVDA" {
		t.Errorf("a ticker typed %q is planned as %q, want NVDA", lower.Topic, p.Topic())
	} else if s, err := a.StartPlan(ctx, p, nil); err != nil {
		t.Fatal(err)
	} else if c := recordedCreated(t, a, s.ID); c.Topic != "NVDA" {
		t.Errorf("a ticker typed %q is stored as %q, want NVDA", lower.Topic, c.Topic)
	}

	// Data fetched at another time (EDGAR's label has the time of the
	// fetch, a market price moves) is the same question.
	var m map[string]any
	if err := json.Unmarshal(got.Options, &m); err != nil {
		t.Fatal(err)
	}
	m["data"], m["market_price"] = "EDGAR, fetched 2026-11-25T09:00:00Z", map[string]any{"symbol": "NVDA", "value": 181.5, "date": "2026-11-24"}
	later := got
	if later.Options, err = json.Marshal(m); err != nil {
		t.Fatal(err)
	}
	if same, err := a.sameQuestion(later, want); err != nil || !same {
		t.Errorf("the same debate with its data fetched later: same %v, %v", same, err)
	}

	deep, framework, snapshot, hint := withValue(quick, "deep", true), withValue(quick, "framework", "piotroski"),
		withValue(quick, "snapshot", true), withValue(quick, "hint", []string{"bull: mention the new AI chip"})
	snapshot.Offline, snapshot.Models = false, Models{Model: "gpt-4.1"}
	for name, req := range map[string]StartRequest{"--deep": deep, "--framework": framework, "a model": snapshot, "--hint": hint} {
		other, err := a.Plan(ctx, req)
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		if same, err := a.sameQuestion(got, other); err != nil || same {
			t.Errorf("%s: a quick offline debate asks the same question (%v)", name, err)
		}
	}

	p1, p2 := request("perspectives", "Redis or PostgreSQL?"), request("perspectives", "Redis or PostgreSQL?")
	p2 = withValue(p2, "max-rounds", 4)
	c1, err1 := a.Plan(ctx, p1)
	c2, err2 := a.Plan(ctx, p2)
	if err1 != nil || err2 != nil {
		t.Fatal(err1, err2)
	}
	// Key order and spacing do not matter: the options again, keys sorted.
	m = nil
	if err := json.Unmarshal(c1.created.Options, &m); err != nil {
		t.Fatal(err)
	}
	sorted := c1.created
	if sorted.Options, err = json.MarshalIndent(m, "", " "); err != nil {
		t.Fatal(err)
	}
	if bytes.Equal(sorted.Options, c1.created.Options) {
		t.Fatal("re-encoding the options changed nothing: the test compares nothing")
	}
	if same, err := a.sameQuestion(sorted, c1); err != nil || !same {
		t.Errorf("the same options with their keys sorted: same %v, %v", same, err)
	}
	if same, err := a.sameQuestion(sorted, c2); err != nil || same {
		t.Errorf("perspectives with 3 and 4 rounds: same %v, %v", same, err)
	}
}

// TestPlanAsksTheSourceNotTheFallback: a bull vs. bear request asks for
// EDGAR when SEC_USER_AGENT is set, whether or not EDGAR can be reached when
// it is planned (Plan fetches nothing) or could when the debate was created
// (the snapshot it fell back to is data, not the question).
func TestPlanAsksTheSourceNotTheFallback(t *testing.T) {
	ctx := context.Background()
	a := testApp(t, map[string]string{"SEC_USER_AGENT": "Parley Test test@example.com"})
	req := request("bullbear", "NVDA")
	p, err := a.Plan(ctx, req)
	if err != nil {
		t.Fatal(err)
	}
	snap := withValue(req, "snapshot", true)
	ps, err := a.Plan(ctx, snap)
	if err != nil {
		t.Fatal(err)
	}
	for name, c := range map[string]struct {
		opts           bullbear.Options
		live, snapshot bool // asks what p asks, what ps asks
	}{
		"EDGAR":                        {bullbear.Options{Ticker: "NVDA", CIK: "0001045810", Data: "SEC EDGAR, fetched 2026-11-25T09:00:00Z", SourceAsked: bullbear.SourceEDGAR}, true, false},
		"EDGAR fell back":              {bullbear.Options{Ticker: "NVDA", Data: "offline snapshot recorded 2026-07-09 (EDGAR could not be used…)", Offline: true, SourceAsked: bullbear.SourceEDGAR}, true, false},
		"--snapshot":                   {bullbear.Options{Ticker: "NVDA", Offline: true, SourceAsked: bullbear.SourceSnapshot}, false, true},
		"EDGAR, before SourceAsked":    {bullbear.Options{Ticker: "NVDA", Data: "SEC EDGAR, fetched 2026-11-24T09:00:00Z"}, true, false},
		"snapshot, before SourceAsked": {bullbear.Options{Ticker: "NVDA", Offline: true}, false, true},
	} {
		opts, err := json.Marshal(c.opts)
		if err != nil {
			t.Fatal(err)
		}
		rec := debate.Created{Format: "bullbear", Topic: "NVDA", Options: opts}
		live, err1 := a.sameQuestion(rec, p)
		snapshot, err2 := a.sameQuestion(rec, ps)
		if err1 != nil || err2 != nil || live != c.live || snapshot != c.snapshot {
			t.Errorf("%s: asks what EDGAR asks %v (want %v), what --snapshot asks %v (want %v); %v %v", name, live, c.live, snapshot, c.snapshot, err1, err2)
		}
	}
}

// countedBullbear and countedPerspectives count their Setup runs: one
// format that says its question from the request, one compared on its
// options.
type countedBullbear struct {
	bullbear.Format
	n *atomic.Int32
}

func (f countedBullbear) Setup(ctx context.Context, env setup.Env, req *setup.Request) (json.RawMessage, error) {
	f.n.Add(1)
	return f.Format.Setup(ctx, env, req)
}

type countedPerspectives struct {
	perspectives.Format
	n *atomic.Int32
}

func (f countedPerspectives) Setup(ctx context.Context, env setup.Env, req *setup.Request) (json.RawMessage, error) {
	f.n.Add(1)
	return f.Format.Setup(ctx, env, req)
}

// TestSetupRunsOnce: looking for a debate that asks a request's question
// runs no Setup when the format says its question (setup.Questioner), and
// starting from the plan runs it once; for another format Plan runs it and
// StartPlan uses its options.
func TestSetupRunsOnce(t *testing.T) {
	ctx := context.Background()
	var bb, pp atomic.Int32
	a := testApp(t, map[string]string{"OPENAI_API_KEY": "test-key"})
	a.Formats = debate.NewFormats(countedBullbear{n: &bb}, countedPerspectives{n: &pp})

	req := offlineBullbear("NVDA")
	p, err := a.Plan(ctx, req)
	if err != nil {
		t.Fatal(err)
	}
	if found, err := a.Unfinished(ctx, p); err != nil || found != nil {
		t.Fatalf("unfinished before any debate: %v, %v", found, err)
	}
	if n := bb.Load(); n != 0 {
		t.Fatalf("planning a bull vs. bear debate and looking for one ran its Setup %d times, want none", n)
	}
	s, err := a.StartPlan(ctx, p, nil)
	if err != nil {
		t.Fatal(err)
	}
	if n := bb.Load(); n != 1 {
		t.Fatalf("starting from the plan ran Setup %d times, want 1", n)
	}
	if found, err := a.Unfinished(ctx, p); err != nil || found == nil || found.ID != s.ID {
		t.Fatalf("unfinished: %v, %v; want %s", found, err, s.ID)
	}
	if n := bb.Load(); n != 1 {
		t.Fatalf("finding the debate ran Setup again (%d runs)", n)
	}

	pr := request("perspectives", "Redis or PostgreSQL?")
	pp.Store(0)
	p2, err := a.Plan(ctx, pr)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := a.StartPlan(ctx, p2, nil); err != nil {
		t.Fatal(err)
	}
	if n := pp.Load(); n != 1 {
		t.Fatalf("a perspectives plan and its start ran Setup %d times, want 1", n)
	}
	if _, err := a.Start(ctx, pr); err != nil {
		t.Fatal(err)
	}
	if n := pp.Load(); n != 2 {
		t.Fatalf("a second Start ran Setup %d times in all, want 2", n)
	}
}

// TestFindAndUnfinished: the resume offer and the batch find a debate by
// the question it asks: not one of the topic asked otherwise, not a
// completed one for the resume offer, not one older than Since.
func TestFindAndUnfinished(t *testing.T) {
	ctx := context.Background()
	a := testApp(t, nil)
	quick := offlineBullbear("NVDA")
	deep := withValue(quick, "deep", true)
	pq, err := a.Plan(ctx, quick)
	if err != nil {
		t.Fatal(err)
	}
	pd, err := a.Plan(ctx, deep)
	if err != nil {
		t.Fatal(err)
	}
	s, err := a.StartPlan(ctx, pd, nil)
	if err != nil {
		t.Fatal(err)
	}
	if found, err := a.Unfinished(ctx, pq); err != nil || found != nil {
		t.Errorf("a quick debate's resume offer found the deep debate: %v, %v", found, err)
	}
	if found, err := a.Unfinished(ctx, pd); err != nil || found == nil || found.ID != s.ID {
		t.Fatalf("the deep debate's resume offer: %v, %v; want %s", found, err, s.ID)
	}
	if found, err := a.Find(ctx, pd, Earlier{Since: time.Now().Add(time.Hour)}); err != nil || found != nil {
		t.Errorf("Since an hour from now found %v, %v", found, err)
	}
	// Queued for a worker, it is offered with the status to show, which
	// says it runs elsewhere rather than that it can be resumed here.
	storetest.AppendPayloads(ctx, t, a.Store, s.ID, time.Now(), debate.Queued{Queue: "data", Reason: debate.QueuedCreated})
	found, err := a.Unfinished(ctx, pd)
	if err != nil || found == nil || found.Status != debate.StatusQueued {
		t.Fatalf("the queued debate's resume offer: %+v, %v; want it, queued", found, err)
	}
	if where, ok := RunElsewhere(found.Status); !ok || where != "queued for a worker" {
		t.Errorf("RunElsewhere(queued) = %q, %v", where, ok)
	}
	for _, st := range []debate.Status{debate.StatusPaused, debate.StatusInterrupted, debate.StatusFailed} {
		if _, ok := RunElsewhere(st); ok {
			t.Errorf("RunElsewhere(%s): a debate nothing runs is said to run elsewhere", st)
		}
	}
	if _, err := s.Run(ctx, nil); err != nil {
		t.Fatal(err)
	}
	if found, err := a.Unfinished(ctx, pd); err != nil || found != nil {
		t.Errorf("the completed debate is offered for resume: %v, %v", found, err)
	}
	// Find reads how each candidate began, not its whole log.
	b := *a
	b.Store = firstOnly{Store: a.Store, t: t}
	if found, err := b.Find(ctx, pd, Earlier{Since: time.Now().Add(-time.Hour)}); err != nil || found == nil || found.ID != s.ID {
		t.Errorf("Find since an hour ago: %v, %v; want the completed %s", found, err, s.ID)
	}
}

// firstOnly is a store whose whole logs must not be read.
type firstOnly struct {
	debate.Store
	t *testing.T
}

func (s firstOnly) Load(ctx context.Context, id string, after int64) ([]debate.Event, error) {
	s.t.Errorf("the whole log of %s was loaded", id)
	return s.Store.Load(ctx, id, after)
}

func (s firstOnly) LoadN(ctx context.Context, id string, after int64, n int) ([]debate.Event, error) {
	if n <= 0 || n > 1 {
		s.t.Errorf("%d events of %s were loaded, want the first", n, id)
	}
	return s.Store.LoadN(ctx, id, after, n)
}

// TestUnattended: a resume with --no-checkpoints answers "continue",
// saying so, and refuses a checkpoint that does not offer it.
func TestUnattended(t *testing.T) {
	said := 0
	u := Unattended{Said: func(debate.CheckpointReached) { said++ }}
	ans, err := u.Checkpoint(context.Background(), nil, debate.CheckpointReached{ID: "c1", Options: []string{debate.ActionContinue, debate.ActionEnd}})
	if err != nil || ans.ID != "c1" || ans.Action != debate.ActionContinue || said != 1 {
		t.Errorf("answer %+v, %v, said %d times", ans, err, said)
	}
	if _, err := u.Checkpoint(context.Background(), nil, debate.CheckpointReached{ID: "c2", Options: []string{debate.ActionEnd}}); err == nil || said != 1 {
		t.Errorf("a checkpoint without continue: %v, said %d times", err, said)
	}
}
