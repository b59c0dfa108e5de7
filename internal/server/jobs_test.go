package server

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/parleyhq/parley/internal/app"
	"github.com/parleyhq/parley/internal/debate"
	"github.com/parleyhq/parley/internal/jobs"
	"github.com/parleyhq/parley/internal/llm/fakellm"
	"github.com/parleyhq/parley/internal/setup"
	"github.com/parleyhq/parley/internal/store/sqlite"
)

// newJobsServer serves a SQLite database whose debates run as River jobs:
// the server enqueues (workers: 0) and a second queue, as a `parley worker`
// would, runs them; workers > 0 runs them in the server's process too.
func newJobsServer(t *testing.T, env map[string]string, workers int) *testServer {
	t.Helper()
	ctx, cancel := context.WithCancel(context.Background())
	store, err := sqlite.Open(ctx, filepath.Join(t.TempDir(), "parley.db"))
	if err != nil {
		t.Fatal(err)
	}
	a := &app.App{Store: store, Formats: app.DefaultFormats(), Env: setup.Env{Getenv: func(k string) string { return env[k] }, Now: time.Now, Notice: io.Discard}}
	var queues []*jobs.Queue
	newQueue := func(n int) *jobs.Queue {
		q, err := jobs.New(ctx, a, jobs.Config{Workers: n})
		if err != nil {
			t.Fatal(err)
		}
		if err := q.StartWorkers(ctx); err != nil {
			t.Fatal(err)
		}
		queues = append(queues, q)
		return q
	}
	q := newQueue(workers)
	if workers == 0 {
		newQueue(1) // the worker elsewhere
	}
	srv, err := New(ctx, Config{App: a, Jobs: q})
	if err != nil {
		t.Fatal(err)
	}
	hs := httptest.NewServer(srv.Handler())
	t.Cleanup(func() {
		cancel()
		hs.CloseClientConnections()
		hs.Close()
		for _, q := range queues {
			sctx, done := context.WithTimeout(context.Background(), 10*time.Second)
			if err := q.Stop(sctx); err != nil {
				t.Errorf("stop the workers: %v", err)
			}
			done()
		}
		srv.Wait()
		store.Close()
	})
	return &testServer{Server: srv, URL: hs.URL, client: hs.Client()}
}

// serveQueue serves a's debates with q, until the test ends.
func serveQueue(t *testing.T, a *app.App, q *jobs.Queue) *testServer {
	t.Helper()
	srv, err := New(context.Background(), Config{App: a, Jobs: q})
	if err != nil {
		t.Fatal(err)
	}
	hs := httptest.NewServer(srv.Handler())
	t.Cleanup(hs.Close)
	return &testServer{Server: srv, URL: hs.URL, client: hs.Client()}
}

func TestJobsBadRequests(t *testing.T) { testBadRequests(t, newJobsServer(t, nil, 1)) }

// The checkpoint flow of TestCheckpointGuideHintPause with the debate on a
// worker: at a checkpoint nothing runs (no job is queued), a hint is
// queued in the log, pause keeps it paused, and the answer enqueues the run.
func TestJobsCheckpointGuideHintPause(t *testing.T) {
	ts := newJobsServer(t, fakeModel(t, "perspectives.yaml"), 0)
	id := ts.create(t, `{"topic":"Should we use Redis or PostgreSQL for caching?"}`)
	v := ts.waitFor(t, id, "at its checkpoint", func(v DebateView) bool { return v.Checkpoint != nil })
	if v.Running || v.Status != debate.StatusPaused || len(v.Agents) < 2 {
		t.Fatalf("at the checkpoint: running %v, status %s, agents %v; want it paused, nothing queued", v.Running, v.Status, v.Agents)
	}
	if resp, out := ts.do(t, "POST", "/api/debates/"+id+"/hints", `{"target":"nobody","text":"x"}`); resp.StatusCode != 400 || !strings.Contains(out, `no agent \"nobody\" in this debate: the target is one of `) {
		t.Fatalf("hint to an unknown agent: %d %s", resp.StatusCode, out)
	}
	if resp, out := ts.do(t, "POST", "/api/debates/"+id+"/hints", `{"target":"`+v.Agents[0][:4]+`","text":"cite a benchmark"}`); resp.StatusCode != 202 {
		t.Fatalf("hint by prefix: %d %s", resp.StatusCode, out)
	}
	if resp, out := ts.do(t, "POST", "/api/debates/"+id+"/pause", ""); resp.StatusCode != 202 {
		t.Fatalf("pause: %d %s", resp.StatusCode, out)
	}
	if resp, out := ts.do(t, "POST", "/api/debates/"+id+"/checkpoint", `{"action":"guide","guidance":"Weigh the on-call cost in hours per month."}`); resp.StatusCode != 202 {
		t.Fatalf("guide: %d %s", resp.StatusCode, out)
	}
	v = ts.waitFor(t, id, "completed", func(v DebateView) bool {
		return v.Status == debate.StatusCompleted || v.Checkpoint != nil && v.Checkpoint.Round > 1
	})
	if v.Checkpoint != nil {
		if resp, out := ts.do(t, "POST", "/api/debates/"+id+"/checkpoint", `{"action":"end"}`); resp.StatusCode != 202 {
			t.Fatalf("end: %d %s", resp.StatusCode, out)
		}
		ts.waitFor(t, id, "completed", func(v DebateView) bool { return v.Status == debate.StatusCompleted })
	}
	_, out := ts.do(t, "GET", "/api/debates/"+id+"/export?as=json", "")
	if !strings.Contains(out, "Weigh the on-call cost") || !strings.Contains(out, "cite a benchmark") {
		t.Fatalf("the guidance and the hint are not in the log: %s", out)
	}
}

// A hint and a pause from the server reach a debate running on a worker
// (another River client): the hint the agent's next turn, the pause its
// runner; resume enqueues it again and it completes.
func TestJobsHintAndPauseReachTheWorker(t *testing.T) {
	ts := newJobsServer(t, fakeModel(t, "perspectives.yaml", fakellm.WithTokenDelay(2*time.Millisecond)), 0)
	id := ts.create(t, `{"topic":"Should we use Redis or PostgreSQL for caching?","no_checkpoints":true}`)
	ts.waitFor(t, id, "running its arguments", func(v DebateView) bool { return v.Running && len(v.Agents) >= 2 })
	if resp, out := ts.do(t, "POST", "/api/debates/"+id+"/hints", `{"target":"all","text":"quote a latency figure"}`); resp.StatusCode != 202 {
		t.Fatalf("hint: %d %s", resp.StatusCode, out)
	}
	if resp, out := ts.do(t, "POST", "/api/debates/"+id+"/pause", ""); resp.StatusCode != 202 {
		t.Fatalf("pause: %d %s", resp.StatusCode, out)
	}
	ts.waitFor(t, id, "paused", func(v DebateView) bool { return v.Status == debate.StatusPaused && !v.Running })
	if resp, out := ts.do(t, "POST", "/api/debates/"+id+"/resume", ""); resp.StatusCode != 202 {
		t.Fatalf("resume: %d %s", resp.StatusCode, out)
	}
	ts.waitFor(t, id, "completed", func(v DebateView) bool { return v.Status == debate.StatusCompleted })
	events, err := ts.app.Store.Load(context.Background(), id, 0)
	if err != nil {
		t.Fatal(err)
	}
	st, err := debate.Fold(events)
	if err != nil {
		t.Fatal(err)
	}
	if len(st.Hints) != 1 || len(st.Hints[0].AppliedBy) < 2 {
		t.Fatalf("the hint for all did not reach each agent's next turn: %+v", st.Hints)
	}
	if p := st.Pauses[0]; p.Reason != debate.PauseOnRequest {
		t.Fatalf("pause %+v, want one on request", p)
	}
}

// blockingHuman is a person at a terminal who has not answered yet: its
// checkpoint waits until the run is stopped.
type blockingHuman struct{ reached chan struct{} }

func (h *blockingHuman) Checkpoint(ctx context.Context, _ *debate.State, _ debate.CheckpointReached) (debate.CheckpointAnswered, error) {
	close(h.reached)
	<-ctx.Done()
	return debate.CheckpointAnswered{}, context.Cause(ctx)
}

// A debate a terminal runs on the server's database waits at a checkpoint
// its person is asked about: the page says where it is answered and how
// to answer here, an answer from the API is refused saying the same
// (409), and after a pause from the page the answer goes in.
func TestCheckpointHeldByATerminal(t *testing.T) {
	ts := newJobsServer(t, fakeModel(t, "perspectives.yaml"), 1)
	ctx := context.Background()
	sess, err := ts.app.Start(ctx, app.StartRequest{Request: setup.Request{Format: "perspectives", Topic: "Should we use Redis or PostgreSQL for caching?",
		Given: func(string) bool { return false }, Values: setup.Values{"max-rounds": 3}}, Limits: debate.DefaultLimits()})
	if err != nil {
		t.Fatal(err)
	}
	h := &blockingHuman{reached: make(chan struct{})}
	ran := make(chan error, 1)
	go func() {
		_, err := sess.Run(ctx, h)
		ran <- err
	}()
	select {
	case <-h.reached:
	case err := <-ran:
		t.Fatalf("the terminal's run ended before its checkpoint: %v", err)
	case <-time.After(30 * time.Second):
		t.Fatal("the terminal's run never reached its checkpoint")
	}
	where := fmt.Sprintf("in the process that runs it (pid %d on ", os.Getpid())
	if _, page := ts.do(t, "GET", "/debates/"+sess.ID+"/panel", ""); !strings.Contains(page, `<p class="notice" id="held">Waits at its checkpoint for an answer `+where) {
		t.Errorf("the panel does not say where the checkpoint is answered:\n%s", page)
	}
	resp, out := ts.do(t, "POST", "/api/debates/"+sess.ID+"/checkpoint", `{"action":"continue"}`)
	if resp.StatusCode != 409 || !strings.Contains(out, where) || !strings.Contains(out, "pause the debate and answer it then") {
		t.Fatalf("answer to a checkpoint a terminal asks about: %d %s; want 409 naming the process and the way to answer here", resp.StatusCode, out)
	}
	if resp, out := ts.do(t, "POST", "/api/debates/"+sess.ID+"/pause", ""); resp.StatusCode != 202 {
		t.Fatalf("pause: %d %s", resp.StatusCode, out)
	}
	<-ran
	if _, page := ts.do(t, "GET", "/debates/"+sess.ID+"/panel", ""); strings.Contains(page, `id="held"`) || !strings.Contains(page, `id="checkpoint"`) {
		t.Errorf("paused, the panel does not offer the checkpoint's answers:\n%s", page)
	}
	if resp, out := ts.do(t, "POST", "/api/debates/"+sess.ID+"/checkpoint", `{"action":"end"}`); resp.StatusCode != 202 {
		t.Fatalf("answer after the pause: %d %s", resp.StatusCode, out)
	}
	ts.waitFor(t, sess.ID, "completed", func(v DebateView) bool { return v.Status == debate.StatusCompleted })
}

// A debate queued for a worker that has not taken it up (none runs) shows
// queued, not interrupted: there is nothing to resume (a resume is refused);
// once a worker runs it, it completes.
func TestQueuedDebateShowsQueued(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	store, err := sqlite.Open(ctx, filepath.Join(t.TempDir(), "parley.db"))
	if err != nil {
		t.Fatal(err)
	}
	defer store.Close()
	a := &app.App{Store: store, Formats: app.DefaultFormats(), Env: setup.Env{Getenv: func(string) string { return "" }, Now: time.Now, Notice: io.Discard}}
	q, err := jobs.New(ctx, a, jobs.Config{Workers: 0})
	if err != nil {
		t.Fatal(err)
	}
	ts := serveQueue(t, a, q)
	id := ts.create(t, `{"topic":"NVDA","offline":true}`)
	var v DebateView
	if _, out := ts.do(t, "GET", "/api/debates/"+id, ""); json.Unmarshal([]byte(out), &v) != nil || v.Status != debate.StatusQueued || !v.Running {
		t.Fatalf("a debate no worker has taken up: %.300s", out)
	}
	if _, out := ts.do(t, "GET", "/api/debates?status=queued", ""); !strings.Contains(out, id) {
		t.Errorf("?status=queued does not list it: %s", out)
	}
	if _, out := ts.do(t, "GET", "/api/debates?status=interrupted", ""); strings.Contains(out, id) {
		t.Errorf("?status=interrupted lists it: %s", out)
	}
	if _, page := ts.do(t, "GET", "/debates/"+id+"/panel", ""); !strings.Contains(page, `data-status="queued"`) || !strings.Contains(page, `id="queued"`) ||
		strings.Contains(page, `id="resume"`) {
		t.Errorf("the panel does not say queued, with what it waits for and no Resume button:\n%.600s", page)
	}
	// This server has no workers: the page names 'parley worker', not this
	// server's, as what takes it up.
	if _, page := ts.do(t, "GET", "/debates/"+id+"/panel", ""); !strings.Contains(page, "this server runs none") || strings.Contains(page, "this server&#39;s, or") {
		t.Errorf("the panel of a server with no workers says it may run the debate:\n%.600s", page)
	}
	// A server that works other queues (--queue openai=1) names the
	// debate's queue as the one it waits in, not its own workers.
	other, err := jobs.New(ctx, a, jobs.Config{Queues: map[string]int{"openai": 1}})
	if err != nil {
		t.Fatal(err)
	}
	if _, page := serveQueue(t, a, other).do(t, "GET", "/debates/"+id+"/panel", ""); !strings.Contains(page, "Queued in the data queue, which this server does not work") || strings.Contains(page, "this server&#39;s, or") {
		t.Errorf("the panel of a server working other queues says it may run the debate:\n%.600s", page)
	}
	// A resume asked of it anyway is refused (it said 202 "running" and
	// queued a second job for the debate).
	if resp, out := ts.do(t, "POST", "/api/debates/"+id+"/resume", ""); resp.StatusCode != 409 || !strings.Contains(out, "queued for a worker") {
		t.Errorf("resume of the queued debate: %d %s; want 409 saying it is queued for a worker", resp.StatusCode, out)
	}
	if queued, err := q.Queued(ctx, id); err != nil || !queued[id] {
		t.Errorf("its job: queued %v, %v", queued, err)
	}
	w, err := jobs.New(ctx, a, jobs.Config{Workers: 1})
	if err != nil {
		t.Fatal(err)
	}
	if err := w.StartWorkers(ctx); err != nil {
		t.Fatal(err)
	}
	defer func() {
		sctx, done := context.WithTimeout(context.Background(), 10*time.Second)
		defer done()
		_ = w.Stop(sctx)
	}()
	ts.waitFor(t, id, "completed", func(v DebateView) bool { return v.Status == debate.StatusCompleted })
}

// A resume, or a checkpoint answer that resumes, of a debate whose recorded
// model this server's environment cannot set up (no key) is refused with
// 422 naming what is missing and how to switch the model, as a new debate
// needing one is; it was queued (202), and its job's attempts failed for
// hours while the debate showed queued.
func TestJobsResumeWithoutTheRecordedModelsKey(t *testing.T) {
	ts := newJobsServer(t, nil, 1)
	ctx := context.Background()
	paused := func(id string, more ...debate.Payload) {
		t.Helper()
		pl := append([]debate.Payload{debate.Created{Format: "perspectives", Topic: "Should we use Redis or PostgreSQL for caching?",
			Models: map[string]string{"*": "openai/gpt-4.1"}, Limits: debate.DefaultLimits()}}, more...)
		var evs []debate.Event
		for _, p := range pl {
			e, err := debate.NewEvent(id, time.Now(), p)
			if err != nil {
				t.Fatal(err)
			}
			evs = append(evs, e)
		}
		if _, err := ts.app.Store.Append(ctx, id, evs...); err != nil {
			t.Fatal(err)
		}
	}
	paused("DEB-0000000a", debate.Paused{Reason: debate.PauseInterrupted})
	paused("DEB-0000000b", debate.CheckpointReached{ID: "r1", Round: 1, Options: []string{debate.ActionContinue, debate.ActionEnd}},
		debate.Paused{Reason: debate.PauseCheckpoint})
	for _, c := range []struct{ id, path, body string }{
		{"DEB-0000000a", "/resume", ""},
		{"DEB-0000000b", "/checkpoint", `{"action":"continue"}`},
	} {
		resp, out := ts.do(t, "POST", "/api/debates/"+c.id+c.path, c.body)
		want := "debate " + c.id + " was created with openai/gpt-4.1 for every role, and openai: OPENAI_API_KEY is not set"
		if resp.StatusCode != 422 || !strings.Contains(out, want) || !strings.Contains(out, "parley debate --resume "+c.id+" --model NAME") {
			t.Errorf("%s of %s: %d %s; want 422 saying %q and how to switch the model", c.path, c.id, resp.StatusCode, out, want)
		}
		if sum, err := ts.app.Store.Get(ctx, c.id); err != nil || sum.Status != debate.StatusPaused {
			t.Errorf("%s after the refused %s: %s, %v; want it left paused", c.id, c.path, sum.Status, err)
		}
	}
}

// TestJobsCheckpointPage: a debate on a worker stops at each checkpoint
// with no one to answer; its page shows the checkpoint's form, which is
// what to do, not "Paused: checkpoint timeout: … resume the debate", which
// said a timeout passed where none had, nor a Resume button, which ran the
// debate back to the same checkpoint.
func TestJobsCheckpointPage(t *testing.T) {
	ts := newJobsServer(t, fakeModel(t, "perspectives.yaml"), 1)
	id := ts.create(t, `{"topic":"Should we use Redis or PostgreSQL for caching?"}`)
	ts.waitFor(t, id, "at its checkpoint", func(v DebateView) bool { return v.Checkpoint != nil && !v.Running })
	resp, page := ts.do(t, "GET", "/debates/"+id, "")
	if resp.StatusCode != 200 || !strings.Contains(page, `id="checkpoint"`) {
		t.Fatalf("the debate's page at its checkpoint: %d, no checkpoint form:\n%s", resp.StatusCode, page)
	}
	if strings.Contains(page, "Paused: ") || strings.Contains(page, "timeout") || strings.Contains(page, `id="resume"`) {
		t.Errorf("the page at the checkpoint says it paused, or offers a resume:\n%s", page)
	}
}
