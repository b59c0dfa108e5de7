package jobs

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/riverqueue/river"
	"github.com/riverqueue/river/rivertype"

	"github.com/parleyhq/parley/internal/app"
	"github.com/parleyhq/parley/internal/debate"
	"github.com/parleyhq/parley/internal/llm/fakellm"
	"github.com/parleyhq/parley/internal/llm/script"
	"github.com/parleyhq/parley/internal/setup"
)

// fakeModel is the environment of a fake model server playing a script of
// cmd/parley/testdata.
func fakeModel(t *testing.T, name string, opts ...fakellm.Option) map[string]string {
	t.Helper()
	sc, err := script.Load(filepath.Join("..", "..", "cmd", "parley", "testdata", name))
	if err != nil {
		t.Fatal(err)
	}
	srv := fakellm.Start(sc, append([]fakellm.Option{fakellm.WithAPIKey("test-key")}, opts...)...)
	t.Cleanup(srv.Close)
	return map[string]string{"OPENAI_BASE_URL": srv.OpenAIURL(), "OPENAI_API_KEY": "test-key"}
}

func perspectivesRequest(checkpoints bool) app.StartRequest {
	return app.StartRequest{Request: setup.Request{Format: "perspectives", Topic: "Should we use Redis or PostgreSQL for caching?",
		NoCheckpoints: !checkpoints, Given: func(string) bool { return false }, Values: setup.Values{"perspectives": 3, "max-rounds": 3}},
		Models: app.Models{Provider: "openai", Model: "gpt-4.1"}, Limits: debate.DefaultLimits()}
}

func fold(t *testing.T, st debate.Store, id string) *debate.State {
	t.Helper()
	evs, err := st.Load(context.Background(), id, 0)
	if err != nil {
		t.Fatal(err)
	}
	s, err := debate.Fold(evs)
	if err != nil {
		t.Fatal(err)
	}
	return s
}

// completedOnce fails the test if a turn completed twice.
func completedOnce(t *testing.T, st debate.Store, id string) int {
	t.Helper()
	evs, err := st.Load(context.Background(), id, 0)
	if err != nil {
		t.Fatal(err)
	}
	seen := map[string]int{}
	for _, e := range evs {
		if e.Type == debate.TypeTurnCompleted {
			var c debate.TurnCompleted
			if err := e.Decode(&c); err != nil {
				t.Fatal(err)
			}
			if seen[c.Turn.ID]++; seen[c.Turn.ID] > 1 {
				t.Fatalf("turn %s completed twice", c.Turn.ID)
			}
		}
	}
	return len(seen)
}

// A checkpoint pauses the debate with no job queued; a hint given while it
// waits and the answer reach the next turns, and the answer enqueues the
// next run.
func TestCheckpointAnswerEnqueues(t *testing.T) { eachDB(t, testCheckpointAnswer) }

func testCheckpointAnswer(t *testing.T, db string) {
	ctx := context.Background()
	a := newApp(t, db, fakeModel(t, "perspectives.yaml"))
	q := newQueue(t, a, Config{Workers: 1})
	s, err := q.StartDebate(ctx, perspectivesRequest(true))
	if err != nil {
		t.Fatal(err)
	}
	waitStatus(t, a.Store, s.ID, debate.StatusPaused)
	st := fold(t, a.Store, s.ID)
	cp := st.OpenCheckpoint()
	if cp == nil {
		t.Fatalf("paused with no open checkpoint: %+v", st.Pauses)
	}
	if queued, err := q.Queued(ctx, s.ID); err != nil || queued[s.ID] {
		t.Fatalf("a job is queued for a debate waiting at its checkpoint: %v %v", queued, err)
	}
	agent := a.HintTargets(st)[0]
	if _, err := q.Hint(ctx, s.ID, agent, "cite a benchmark"); err != nil {
		t.Fatal(err)
	}
	if err := q.Answer(ctx, s.ID, debate.CheckpointAnswered{ID: "wrong", Action: debate.ActionContinue}); !errors.Is(err, ErrNoCheckpoint) || !strings.Contains(err.Error(), `checkpoint "wrong" does not wait for an answer; checkpoint `) {
		t.Fatalf("answer to another checkpoint: %v", err)
	}
	if err := q.Answer(ctx, s.ID, debate.CheckpointAnswered{Action: debate.ActionGuide, Guidance: "Weigh the on-call cost."}); err != nil {
		t.Fatal(err)
	}
	for {
		sum := waitAny(t, a.Store, s.ID, debate.StatusPaused, debate.StatusCompleted)
		if sum.Status == debate.StatusCompleted {
			break
		}
		if err := q.Answer(ctx, s.ID, debate.CheckpointAnswered{Action: debate.ActionEnd}); err != nil {
			t.Fatal(err)
		}
	}
	st = fold(t, a.Store, s.ID)
	if len(st.Hints) != 1 || st.Hints[0].Applied == "" {
		t.Fatalf("the hint given at the checkpoint was not applied: %+v", st.Hints)
	}
	if st.Checkpoints[0].Answer == nil || st.Checkpoints[0].Answer.Guidance != "Weigh the on-call cost." {
		t.Fatalf("checkpoint answers: %+v", st.Checkpoints)
	}
	completedOnce(t, a.Store, s.ID)
	if err := q.Answer(ctx, s.ID, debate.CheckpointAnswered{Action: debate.ActionContinue}); !errors.Is(err, ErrNoCheckpoint) {
		t.Fatalf("answer to a completed debate: %v", err)
	}
}

// waitAny waits until a debate has one of the statuses and no lease.
func waitAny(t *testing.T, st debate.Store, id string, want ...debate.Status) debate.Summary {
	t.Helper()
	deadline := time.Now().Add(30 * time.Second)
	for {
		sum, err := st.Get(context.Background(), id)
		if err == nil && sum.Lease == nil {
			for _, w := range want {
				if sum.Status == w {
					return sum
				}
			}
		}
		if time.Now().After(deadline) {
			t.Fatalf("debate %s never %v: %+v, %v", id, want, sum, err)
		}
		time.Sleep(10 * time.Millisecond)
	}
}

// An event and a job in one transaction are stored together or not at all.
func TestAppendAndEnqueueAtomically(t *testing.T) { eachDB(t, testAtomic) }

func testAtomic(t *testing.T, db string) {
	ctx := context.Background()
	a := newApp(t, db, nil)
	q := newQueue(t, a, Config{}) // enqueues only
	s, err := q.StartDebate(ctx, offlineRequest("NVDA"))
	if err != nil {
		t.Fatal(err)
	}
	hint := func() debate.Event {
		e, err := debate.NewEvent(s.ID, time.Now(), debate.HintQueued{ID: 1, Target: "all", Text: "x"})
		if err != nil {
			t.Fatal(err)
		}
		return e
	}
	boom := errors.New("boom")
	err = q.db.inTx(ctx, func(tx txOps) error {
		if _, err := tx.append(ctx, s.ID, hint()); err != nil {
			return err
		}
		if _, err := tx.enqueue(ctx, RunDebate{ID: s.ID, After: 2}, insertOpts(s.ID, QueueData)); err != nil {
			return err
		}
		return boom
	})
	if !errors.Is(err, boom) {
		t.Fatal(err)
	}
	jobs, err := q.db.list(ctx, river.NewJobListParams().Kinds(Kind))
	if err != nil {
		t.Fatal(err)
	}
	if st := fold(t, a.Store, s.ID); st.LastSeq != 2 || len(jobs) != 1 || st.Status != debate.StatusQueued {
		t.Fatalf("after a rollback: log at %d (%s), %d jobs; want the created and queued events and their job only", st.LastSeq, st.Status, len(jobs))
	}
	if err := q.db.inTx(ctx, func(tx txOps) error {
		if _, err := tx.append(ctx, s.ID, hint()); err != nil {
			return err
		}
		_, err := tx.enqueue(ctx, RunDebate{ID: s.ID, After: 2}, insertOpts(s.ID, QueueData))
		return err
	}); err != nil {
		t.Fatal(err)
	}
	jobs, _ = q.db.list(ctx, river.NewJobListParams().Kinds(Kind))
	if st := fold(t, a.Store, s.ID); st.LastSeq != 3 || len(jobs) != 2 {
		t.Fatalf("after a commit: log at %d, %d jobs", st.LastSeq, len(jobs))
	}
}

// A pause asked while a worker runs the debate reaches its runner; resume
// enqueues it again and it completes with no completed turn run twice.
func TestPauseRunningDebate(t *testing.T) { eachDB(t, testPauseRunning) }

func testPauseRunning(t *testing.T, db string) {
	ctx := context.Background()
	a := newApp(t, db, fakeModel(t, "perspectives.yaml", fakellm.WithTokenDelay(3*time.Millisecond)))
	q := newQueue(t, a, Config{Workers: 1})
	s, err := q.StartDebate(ctx, perspectivesRequest(false))
	if err != nil {
		t.Fatal(err)
	}
	deadline := time.Now().Add(20 * time.Second)
	for {
		sum, _ := a.Store.Get(ctx, s.ID)
		if sum.Lease != nil && sum.Turns >= 1 {
			break
		}
		if time.Now().After(deadline) {
			t.Fatal("no worker took the debate up")
		}
		time.Sleep(10 * time.Millisecond)
	}
	if err := q.Pause(ctx, s.ID, 10*time.Second); err != nil {
		t.Fatal(err)
	}
	waitStatus(t, a.Store, s.ID, debate.StatusPaused)
	st := fold(t, a.Store, s.ID)
	if p := st.Pauses[len(st.Pauses)-1]; p.Reason != debate.PauseOnRequest {
		t.Fatalf("pause reason %q", p.Reason)
	}
	if err := q.Resume(ctx, s.ID); err != nil {
		t.Fatal(err)
	}
	waitStatus(t, a.Store, s.ID, debate.StatusCompleted)
	completedOnce(t, a.Store, s.ID)
	if err := q.Resume(ctx, s.ID); !errors.Is(err, app.ErrCompleted) {
		t.Fatalf("resume of a completed debate: %v", err)
	}
	if err := q.Pause(ctx, s.ID, time.Second); !errors.Is(err, ErrNotRunning) {
		t.Fatalf("pause of a completed debate: %v", err)
	}
}

// A debate paused while its job waits in the queue is not run by it.
func TestPauseQueuedDebate(t *testing.T) {
	ctx := context.Background()
	a := newApp(t, "sqlite", nil)
	enq := newQueue(t, a, Config{})
	s, err := enq.StartDebate(ctx, offlineRequest("NVDA"))
	if err != nil {
		t.Fatal(err)
	}
	if err := enq.Pause(ctx, s.ID, time.Second); err != nil {
		t.Fatal(err)
	}
	newQueue(t, a, Config{Workers: 1})
	deadline := time.Now().Add(10 * time.Second)
	for {
		jobs, err := enq.db.list(ctx, river.NewJobListParams().Kinds(Kind).States("completed"))
		if err != nil {
			t.Fatal(err)
		}
		if len(jobs) == 1 {
			break
		}
		if time.Now().After(deadline) {
			t.Fatal("the queued job never ran")
		}
		time.Sleep(20 * time.Millisecond)
	}
	if sum, _ := a.Store.Get(ctx, s.ID); sum.Status != debate.StatusPaused || sum.Turns != 0 {
		t.Fatalf("after its job ran: %s with %d turns; want it paused as it was", sum.Status, sum.Turns)
	}
}

// A job whose worker froze while holding the debate is taken over once its
// lease expires: another worker enqueues a job that resumes the debate, one
// per dead job, and the debate completes.
func TestReclaimDeadWorker(t *testing.T) { eachDB(t, testReclaim) }

func testReclaim(t *testing.T, db string) {
	ctx := context.Background()
	a := newApp(t, db, nil)
	frozen, thaw := make(chan string, 1), make(chan struct{})
	var once sync.Once
	ttl := 300 * time.Millisecond
	dead := newQueueWith(t, a, Config{Workers: 1, LeaseTTL: ttl, ReclaimEvery: time.Hour}, func(q *Queue) {
		q.beforeRun = func(ctx context.Context, id string) {
			once.Do(func() {
				frozen <- id
				select {
				case <-thaw:
				case <-ctx.Done():
				}
			})
		}
	})
	t.Cleanup(func() { close(thaw) })
	s, err := dead.StartDebate(ctx, offlineRequest("AAPL"))
	if err != nil {
		t.Fatal(err)
	}
	<-frozen
	// Its lease lapsed, the debate shows queued: its job is still running
	// in River's table, and the next worker to look takes it over.
	for deadline := time.Now().Add(5 * time.Second); ; time.Sleep(20 * time.Millisecond) {
		sum, err := a.Store.Get(ctx, s.ID)
		if err != nil {
			t.Fatal(err)
		}
		if sum.LiveLease(time.Now(), debate.OwnerAlive) == nil {
			if got := sum.Shown(time.Now(), debate.OwnerAlive); got != debate.StatusQueued {
				t.Fatalf("a debate whose job's worker froze past its lease shows %s, want queued", got)
			}
			break
		}
		if time.Now().After(deadline) {
			t.Fatal("the frozen worker's lease never lapsed")
		}
	}
	// The worker that takes over holds its own lease longer than the frozen
	// one's: at 300 ms, a loaded machine let it lapse between renewals, and
	// the job that took over was rightly taken over in its turn.
	alive := newQueue(t, a, Config{Workers: 1, LeaseTTL: time.Second, ReclaimEvery: 50 * time.Millisecond})
	waitStatus(t, a.Store, s.ID, debate.StatusCompleted)
	if n := completedOnce(t, a.Store, s.ID); n != 7 {
		t.Fatalf("%d turns completed, want 7", n)
	}
	if n, err := alive.reclaim(ctx); err != nil || n != 0 {
		t.Fatalf("reclaim after the takeover: %d, %v; want none (one job per dead job)", n, err)
	}
	rescues, err := alive.db.list(ctx, river.NewJobListParams().Kinds(Kind))
	if err != nil {
		t.Fatal(err)
	}
	n := 0
	for _, j := range rescues {
		if strings.Contains(string(j.EncodedArgs), `"rescues"`) {
			n++
		}
	}
	if n != 1 {
		t.Fatalf("%d jobs took over, want 1", n)
	}
	takeovers := 0
	for _, q := range queuedEvents(t, a.Store, s.ID) {
		if q.Reason == debate.QueuedTakeover {
			takeovers++
		}
	}
	if takeovers != 1 {
		t.Fatalf("%d takeovers in the log, want 1 (one per job that took over)", takeovers)
	}
	// The frozen job is still running in River's eyes; once the job that
	// took over is marked completed, the metrics count the frozen one as
	// overtaken, and nothing as running.
	// JobCounts lists one state after another, not a snapshot: a count
	// taken as the job that took over completes may see it running and
	// then completed. The counts are waited for, not read once.
	for deadline := time.Now().Add(10 * time.Second); ; time.Sleep(20 * time.Millisecond) {
		counts, err := alive.JobCounts(ctx)
		if err != nil {
			t.Fatal(err)
		}
		if counts["completed"] == 1 && counts["running"] == 0 && counts[StateOvertaken] == 1 {
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("job counts after the takeover: %v; want the job that took over completed, none running, one overtaken", counts)
		}
	}
}

// A worker that stops hands its debate over between steps: the turns it ran
// complete, its job goes back to the queue, another worker goes on from the
// next step; nothing is cut off or paused.
func TestStopHandsOver(t *testing.T) { eachDB(t, testStopHandsOver) }

func testStopHandsOver(t *testing.T, db string) {
	ctx := context.Background()
	a := newApp(t, db, fakeModel(t, "perspectives.yaml", fakellm.WithTokenDelay(2*time.Millisecond)))
	first, err := New(ctx, a, Config{Workers: 1, Log: testLog(t), StopTimeout: time.Minute})
	if err != nil {
		t.Fatal(err)
	}
	if err := first.StartWorkers(ctx); err != nil {
		t.Fatal(err)
	}
	s, err := first.StartDebate(ctx, perspectivesRequest(false))
	if err != nil {
		t.Fatal(err)
	}
	deadline := time.Now().Add(20 * time.Second)
	for {
		if sum, _ := a.Store.Get(ctx, s.ID); sum.Lease != nil && sum.Turns >= 1 {
			break
		}
		if time.Now().After(deadline) {
			t.Fatal("the first worker never took the debate up")
		}
		time.Sleep(5 * time.Millisecond)
	}
	if err := first.Stop(ctx); err != nil {
		t.Fatal(err)
	}
	sum, _ := a.Store.Get(ctx, s.ID)
	if sum.Status != debate.StatusQueued || sum.Lease != nil || sum.Shown(time.Now(), debate.OwnerAlive) != debate.StatusQueued {
		t.Fatalf("after the stop: %s, lease %+v; want it queued with no runner (not interrupted: a worker goes on)", sum.Status, sum.Lease)
	}
	if queued, _ := first.Queued(ctx, s.ID); !queued[s.ID] {
		t.Fatal("the stopped worker's job is not back in the queue")
	}
	handedAt := sum.Turns
	newQueue(t, a, Config{Workers: 1})
	waitStatus(t, a.Store, s.ID, debate.StatusCompleted)
	st := fold(t, a.Store, s.ID)
	for _, e := range mustLoad(t, a.Store, s.ID) {
		if e.Type == debate.TypeTurnSuperseded || e.Type == debate.TypePaused {
			t.Fatalf("a handover cut a turn off or paused the debate: event %d %s", e.Seq, e.Type)
		}
	}
	if handedAt == 0 || len(st.Done) <= handedAt {
		t.Fatalf("handed over after %d turns, completed %d", handedAt, len(st.Done))
	}
	completedOnce(t, a.Store, s.ID)
}

func mustLoad(t *testing.T, st debate.Store, id string) []debate.Event {
	t.Helper()
	evs, err := st.Load(context.Background(), id, 0)
	if err != nil {
		t.Fatal(err)
	}
	return evs
}

// TestResumeWaitsForARunnerLettingGo: a resume asked just after a debate
// paused, while its runner is still letting go of the lease, waits for it
// and enqueues the run; a debate whose runner holds the lease and is not
// stopping is refused as running, at once.
func TestResumeWaitsForARunnerLettingGo(t *testing.T) {
	ctx := context.Background()
	a := newApp(t, "sqlite", nil)
	q := newQueue(t, a, Config{Workers: 0})
	const id = "DEB-lettinggo"
	at := time.Now()
	for i, p := range []debate.Payload{debate.Created{Format: "perspectives", Topic: "a question"}, debate.Paused{Reason: debate.PauseOnRequest}} {
		e, err := debate.NewEvent(id, at, p)
		if err != nil {
			t.Fatal(err)
		}
		e.Seq = int64(i + 1)
		if _, err := a.Store.Append(ctx, id, e); err != nil {
			t.Fatal(err)
		}
	}
	runner := debate.ThisProcess()
	if _, err := a.Store.AcquireLease(ctx, id, runner, time.Minute, ""); err != nil {
		t.Fatal(err)
	}
	released := make(chan struct{})
	go func() {
		time.Sleep(300 * time.Millisecond)
		_ = a.Store.ReleaseLease(ctx, id, runner.ID)
		close(released)
	}()
	if err := q.Resume(ctx, id); err != nil {
		t.Fatalf("resume while the paused runner let go: %v", err)
	}
	select {
	case <-released:
	default:
		t.Fatal("Resume did not wait for the lease to be let go")
	}
	if queued, err := q.Queued(ctx, id); err != nil || !queued[id] {
		t.Fatalf("no run queued: %v %v", queued, err)
	}

	// Running, with its runner alive: refused at once.
	const busy = "DEB-busy"
	e, err := debate.NewEvent(busy, at, debate.Created{Format: "perspectives", Topic: "another question"})
	if err != nil {
		t.Fatal(err)
	}
	e.Seq = 1
	if _, err := a.Store.Append(ctx, busy, e); err != nil {
		t.Fatal(err)
	}
	if _, err := a.Store.AcquireLease(ctx, busy, debate.ThisProcess(), time.Minute, ""); err != nil {
		t.Fatal(err)
	}
	start := time.Now()
	if err := q.Resume(ctx, busy); !errors.Is(err, ErrRunning) || time.Since(start) > letGoWait/2 {
		t.Fatalf("resume of a running debate: %v after %s, want ErrRunning at once", err, time.Since(start))
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

// A checkpoint that another process's runner asks a person about (a
// terminal running the debate) is answered there: an answer from here
// names that process and the way to answer here instead, and after the
// pause it suggests the answer goes in and the debate runs on a worker.
func TestAnswerCheckpointHeldElsewhere(t *testing.T) {
	ctx := context.Background()
	a := newApp(t, "sqlite", fakeModel(t, "perspectives.yaml"))
	q := newQueue(t, a, Config{Workers: 1})
	sess, err := a.Start(ctx, perspectivesRequest(true))
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
	err = q.Answer(ctx, sess.ID, debate.CheckpointAnswered{Action: debate.ActionContinue})
	want := fmt.Sprintf("debate %s waits at its checkpoint in the process that runs it (pid %d on ", sess.ID, os.Getpid())
	if !errors.Is(err, ErrRunning) || !strings.Contains(err.Error(), want) || !strings.Contains(err.Error(), "answer it there, or pause the debate and answer it then") {
		t.Fatalf("answer to a checkpoint a terminal holds: %v; want ErrRunning saying %q and how to answer here", err, want)
	}
	if err := q.Pause(ctx, sess.ID, 10*time.Second); err != nil {
		t.Fatal(err)
	}
	var pe *debate.PausedError
	if err := <-ran; !errors.As(err, &pe) {
		t.Fatalf("the terminal's run after the pause: %v, want it paused", err)
	}
	if err := q.Answer(ctx, sess.ID, debate.CheckpointAnswered{Action: debate.ActionEnd}); err != nil {
		t.Fatalf("answer after the pause: %v", err)
	}
	waitStatus(t, a.Store, sess.ID, debate.StatusCompleted)
	if cp := fold(t, a.Store, sess.ID).Checkpoints[0]; cp.Answer == nil || cp.Answer.Action != debate.ActionEnd {
		t.Fatalf("checkpoint %+v, want it answered end", cp)
	}
}

// queuedEvents are the debate.queued events of a debate's log.
func queuedEvents(t *testing.T, st debate.Store, id string) []debate.Queued {
	t.Helper()
	var out []debate.Queued
	for _, e := range mustLoad(t, st, id) {
		if e.Type == debate.TypeQueued {
			var q debate.Queued
			if err := e.Decode(&q); err != nil {
				t.Fatal(err)
			}
			out = append(out, q)
		}
	}
	return out
}

// A debate enqueued and not yet taken up stands queued in its own log, on
// both databases, as every front-end reads it (no look at River's table);
// paused and resumed, it is queued again; a worker's first run of it is no
// resume, and it completes.
func TestQueuedInTheLog(t *testing.T) { eachDB(t, testQueuedInTheLog) }

func testQueuedInTheLog(t *testing.T, db string) {
	ctx := context.Background()
	a := newApp(t, db, nil)
	enq := newQueue(t, a, Config{})
	s, err := enq.StartDebate(ctx, offlineRequest("NVDA"))
	if err != nil {
		t.Fatal(err)
	}
	sum, err := a.Store.Get(ctx, s.ID)
	if err != nil || sum.Status != debate.StatusQueued || sum.Shown(time.Now(), debate.OwnerAlive) != debate.StatusQueued {
		t.Fatalf("a debate no worker took up: %+v, %v; want queued", sum, err)
	}
	if qs := queuedEvents(t, a.Store, s.ID); len(qs) != 1 || qs[0].Reason != debate.QueuedCreated || qs[0].Queue != QueueData {
		t.Fatalf("queued events after the creation: %+v", qs)
	}
	if err := enq.Pause(ctx, s.ID, time.Second); err != nil {
		t.Fatal(err)
	}
	if sum, _ := a.Store.Get(ctx, s.ID); sum.Status != debate.StatusPaused {
		t.Fatalf("paused before a worker took it: %s", sum.Status)
	}
	if err := enq.Resume(ctx, s.ID); err != nil {
		t.Fatal(err)
	}
	if sum, _ := a.Store.Get(ctx, s.ID); sum.Status != debate.StatusQueued {
		t.Fatalf("resumed: %s, want queued", sum.Status)
	}
	other, err := enq.StartDebate(ctx, offlineRequest("AAPL"))
	if err != nil {
		t.Fatal(err)
	}
	newQueue(t, a, Config{Workers: 1})
	for _, id := range []string{s.ID, other.ID} {
		waitStatus(t, a.Store, id, debate.StatusCompleted)
		if n := completedOnce(t, a.Store, id); n != 7 {
			t.Fatalf("%s: %d turns, want 7", id, n)
		}
	}
	// Its first run is a first run, not a resume.
	for _, e := range mustLoad(t, a.Store, other.ID) {
		if e.Type == debate.TypeResumed {
			t.Errorf("event %d: the worker's first run of the debate appended %s", e.Seq, e.Type)
		}
	}
}

// A job whose attempt fails (here: the worker has no key for the debate's
// model) leaves the debate queued with the error in its log, since River
// tries again; after the last attempt the debate pauses with the error, to
// be resumed by hand, rather than stand queued for a job no worker will run.
func TestFailedAttemptsInTheLog(t *testing.T) { eachDB(t, testFailedAttempts) }

func testFailedAttempts(t *testing.T, db string) {
	ctx := context.Background()
	a := newApp(t, db, map[string]string{"ANTHROPIC_API_KEY": "test-key"})
	enq := newQueue(t, a, Config{})
	req := perspectivesRequest(false)
	req.Models = app.Models{Provider: "anthropic", Model: "claude-sonnet-4-5"}
	s, err := enq.StartDebate(ctx, req)
	if err != nil {
		t.Fatal(err)
	}
	keyless := &app.App{Store: a.Store, Formats: a.Formats, Env: setup.Env{Getenv: func(string) string { return "" }, Now: time.Now, Notice: io.Discard}}
	w := newQueue(t, keyless, Config{Workers: 1})
	deadline := time.Now().Add(20 * time.Second)
	for {
		qs := queuedEvents(t, a.Store, s.ID)
		if n := len(qs); n > 1 && qs[n-1].Reason == debate.QueuedRetry {
			if !strings.Contains(qs[n-1].Detail, "attempt 1 of 10 failed") || !strings.Contains(qs[n-1].Detail, "ANTHROPIC_API_KEY") {
				t.Errorf("the retry's detail: %q", qs[n-1].Detail)
			}
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("no retry recorded: %+v", qs)
		}
		time.Sleep(20 * time.Millisecond)
	}
	if sum, _ := a.Store.Get(ctx, s.ID); sum.Shown(time.Now(), debate.OwnerAlive) != debate.StatusQueued {
		t.Fatalf("after a failed attempt: %s, want queued (River tries again)", sum.Shown(time.Now(), debate.OwnerAlive))
	}
	// The last attempt: what River does after it is to discard the job.
	w.failed(ctx, &rivertype.JobRow{ID: 99, Attempt: 10, MaxAttempts: 10, Queue: "anthropic"}, s.ID, errors.New("ANTHROPIC_API_KEY is not set"))
	st := fold(t, a.Store, s.ID)
	if st.Status != debate.StatusPaused || len(st.Pauses) == 0 || st.Pauses[len(st.Pauses)-1].Reason != debate.PauseError ||
		!strings.Contains(st.Pauses[len(st.Pauses)-1].Detail, "gave up after 10 attempts: ANTHROPIC_API_KEY is not set") {
		t.Fatalf("after the last attempt: %s, pauses %+v", st.Status, st.Pauses)
	}
	// A snooze is no failure; nor is anything for a debate that stopped.
	before := st.LastSeq
	w.failed(ctx, &rivertype.JobRow{ID: 99, Attempt: 1, MaxAttempts: 10}, s.ID, river.JobSnooze(time.Second))
	w.failed(ctx, &rivertype.JobRow{ID: 99, Attempt: 1, MaxAttempts: 10}, s.ID, errors.New("late"))
	if st := fold(t, a.Store, s.ID); st.LastSeq != before {
		t.Fatalf("recorded %d events for a snooze or a paused debate", st.LastSeq-before)
	}
}

// A job that has started but not yet taken its debate's lease (it loads the
// log first, which on a loaded machine takes a while) is not taken over as
// if its worker had died: it is given a lease's time to take one. A
// reclaim period alone (a twentieth of a second here) took over a job that
// was about to run, and wrote a takeover into a debate nobody had left.
func TestReclaimSparesAStartingJob(t *testing.T) { eachDB(t, testReclaimSparesStarting) }

func testReclaimSparesStarting(t *testing.T, db string) {
	ctx := context.Background()
	a := newApp(t, db, nil)
	var once sync.Once
	// Two workers, so that a job taking over would have one to run on
	// while the first still sleeps.
	q := newQueueWith(t, a, Config{Workers: 2, LeaseTTL: 2 * time.Second, ReclaimEvery: 50 * time.Millisecond}, func(q *Queue) {
		q.onWork = func(string) {
			// Slow to start: ten reclaim periods, well within a lease's time.
			once.Do(func() { time.Sleep(500 * time.Millisecond) })
		}
	})
	s, err := q.StartDebate(ctx, offlineRequest("GOOGL"))
	if err != nil {
		t.Fatal(err)
	}
	waitStatus(t, a.Store, s.ID, debate.StatusCompleted)
	if n := completedOnce(t, a.Store, s.ID); n != 7 {
		t.Fatalf("%d turns completed, want 7", n)
	}
	for _, e := range queuedEvents(t, a.Store, s.ID) {
		if e.Reason == debate.QueuedTakeover {
			t.Fatalf("a job slow to start was taken over (%s); want it left to run", e.Detail)
		}
	}
}
