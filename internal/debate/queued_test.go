package debate_test

import (
	"context"
	"os"
	"os/exec"
	"strings"
	"testing"
	"time"

	"github.com/parleyhq/parley/internal/debate"
	"github.com/parleyhq/parley/internal/llm/script"
)

// The fold and the store's projection agree on where a queued debate
// stands after each event: queued from Queued until a runner appends (a
// hint, a pause request or a document written by a front-end leave it
// queued), and whatever the event says from then on.
func TestQueuedFoldAndProjection(t *testing.T) {
	ref := debate.TurnRef{ID: "a", Agent: "alpha", Round: 1}
	steps := []struct {
		p    debate.Payload
		want debate.Status
	}{
		{debate.Created{Format: "toy", Topic: "q"}, debate.StatusRunning},
		{debate.Queued{Queue: "data", Reason: debate.QueuedCreated}, debate.StatusQueued},
		{debate.HintQueued{ID: 1, Target: "alpha", Text: "h"}, debate.StatusQueued},
		{debate.PauseRequest{Owner: "job-1-x"}, debate.StatusQueued},
		{debate.ArtifactWritten{Kind: "markdown", Path: "x.md"}, debate.StatusQueued},
		{debate.PhaseChanged{Phase: "opening", Label: "Opening"}, debate.StatusRunning},
		{debate.TurnStarted{Turn: ref, Attempt: 1}, debate.StatusRunning},
		{debate.CheckpointReached{ID: "c1"}, debate.StatusCheckpoint},
		{debate.Paused{Reason: debate.PauseCheckpoint}, debate.StatusPaused},
		{debate.CheckpointAnswered{ID: "c1", Action: debate.ActionContinue}, debate.StatusRunning},
		{debate.Queued{Reason: debate.QueuedAnswered}, debate.StatusQueued},
		{debate.Paused{Reason: debate.PauseOnRequest}, debate.StatusPaused},
		{debate.Queued{Reason: debate.QueuedResumed}, debate.StatusQueued},
		{debate.Resumed{FromSeq: 13}, debate.StatusRunning},
		{debate.Queued{Reason: debate.QueuedCutOff}, debate.StatusQueued},
		{debate.Failed{Error: "bug"}, debate.StatusFailed},
		{debate.Queued{Reason: debate.QueuedResumed}, debate.StatusQueued},
		{debate.Completed{Reason: "done"}, debate.StatusCompleted},
		{debate.Queued{Reason: debate.QueuedResumed}, debate.StatusCompleted},
		{debate.HintQueued{ID: 2, Target: "alpha", Text: "late"}, debate.StatusCompleted},
	}
	var ps []debate.Payload
	for _, s := range steps {
		ps = append(ps, s.p)
	}
	evs := log(t, ps...)
	var sum debate.Summary
	for i, s := range steps {
		st, err := debate.Fold(evs[:i+1])
		if err != nil {
			t.Fatal(err)
		}
		debate.Project(&sum, evs[i])
		if st.Status != s.want || sum.Status != s.want {
			t.Errorf("after %s: fold %q, projection %q; want %q", evs[i].Type, st.Status, sum.Status, s.want)
		}
	}
}

// A log without Queued events (written before they existed) folds as it
// always did.
func TestOldLogWithoutQueued(t *testing.T) {
	evs := log(t, debate.Created{Format: "toy", Topic: "q"}, debate.Paused{Reason: debate.PauseInterrupted}, debate.Resumed{FromSeq: 2})
	st, err := debate.Fold(evs)
	if err != nil || st.Status != debate.StatusRunning {
		t.Fatalf("fold: %v, %v", st, err)
	}
}

// Shown says queued for a debate that waits for a worker, and for one
// whose worker died holding it (its job still marked running, which the
// next worker takes over); interrupted only for a debate whose runner, not
// a job's, is gone; running while a live runner holds it.
func TestShownQueued(t *testing.T) {
	now := time.Now()
	alive := func(debate.LeaseOwner) bool { return true }
	dead := func(debate.LeaseOwner) bool { return false }
	job := debate.JobOwner(42)
	terminal := debate.ThisProcess()
	live := func(o debate.LeaseOwner) *debate.Lease {
		return &debate.Lease{Owner: o, Since: now.Add(-time.Minute), Expires: now.Add(time.Minute)}
	}
	expired := func(o debate.LeaseOwner) *debate.Lease {
		return &debate.Lease{Owner: o, Since: now.Add(-time.Hour), Expires: now.Add(-time.Minute)}
	}
	for _, tc := range []struct {
		name   string
		stored debate.Status
		lease  *debate.Lease
		alive  func(debate.LeaseOwner) bool
		want   debate.Status
	}{
		{"queued, no worker has it", debate.StatusQueued, nil, alive, debate.StatusQueued},
		{"queued, a worker prepares its run", debate.StatusQueued, live(job), alive, debate.StatusRunning},
		{"queued, the worker that took it died preparing", debate.StatusQueued, live(job), dead, debate.StatusQueued},
		{"queued, the lease of a worker that died expired", debate.StatusQueued, expired(job), alive, debate.StatusQueued},
		{"running on a worker", debate.StatusRunning, live(job), alive, debate.StatusRunning},
		{"running, its worker killed on this host", debate.StatusRunning, live(job), dead, debate.StatusQueued},
		{"running, its worker's lease expired", debate.StatusRunning, expired(job), alive, debate.StatusQueued},
		{"running, its terminal killed", debate.StatusRunning, live(terminal), dead, debate.StatusInterrupted},
		{"running, its terminal's lease expired", debate.StatusRunning, expired(terminal), alive, debate.StatusInterrupted},
		{"running, no lease at all", debate.StatusRunning, nil, alive, debate.StatusInterrupted},
		{"at a checkpoint, its terminal gone", debate.StatusCheckpoint, expired(terminal), alive, debate.StatusInterrupted},
		{"paused, a job's lease left", debate.StatusPaused, expired(job), alive, debate.StatusPaused},
		{"completed", debate.StatusCompleted, nil, alive, debate.StatusCompleted},
	} {
		sum := debate.Summary{ID: "d", Status: tc.stored, Lease: tc.lease}
		if got := sum.Shown(now, tc.alive); got != tc.want {
			t.Errorf("%s: shows %q, want %q", tc.name, got, tc.want)
		}
	}
}

// Only the owners JobOwner makes are a job's.
func TestJobOwner(t *testing.T) {
	o := debate.JobOwner(7)
	if !o.IsJob() || !strings.HasPrefix(o.ID, "job-7-") || o.PID != os.Getpid() {
		t.Errorf("JobOwner(7) = %+v", o)
	}
	for _, id := range []string{"", "job-", "job-x-1", "job-12", "abc", "runner-job-1-x", debate.ThisProcess().ID} {
		if (debate.LeaseOwner{ID: id}).IsJob() {
			t.Errorf("%q is taken for a job's owner", id)
		}
	}
}

// A worker's first run of a queued debate starts as a first run in a
// terminal does (no debate.resumed, which views show as "resumed"), and
// its first event ends queued; a run after an earlier one is a resume.
func TestRunOfAQueuedDebate(t *testing.T) {
	ctx := context.Background()
	e := newEnv(t, script.Rule{Tag: "t1", Reply: text("one")}, script.Rule{Tag: "t2", Reply: text("two")})
	e.create("DEB-q", testLimits())
	queue := func() {
		t.Helper()
		ev, err := debate.NewEvent("DEB-q", e.clock.Now(), debate.Queued{Queue: "data", Reason: debate.QueuedCreated})
		if err != nil {
			t.Fatal(err)
		}
		if _, err := e.store.Append(ctx, "DEB-q", ev); err != nil {
			t.Fatal(err)
		}
	}
	queue()
	if sum, _ := e.store.Get(ctx, "DEB-q"); sum.Shown(time.Now(), debate.OwnerAlive) != debate.StatusQueued {
		t.Fatalf("before a run: %q, want queued", sum.Status)
	}
	proto := &toyProto{steps: []toyStep{{label: "one", checkpoint: &debate.CheckpointReached{ID: "c1", Options: []string{debate.ActionContinue}}}, turns(turn("t1", "a", 1)), turns(turn("t2", "a", 2))}}
	if _, err := e.runner.Run(ctx, "DEB-q", proto); err == nil {
		t.Fatal("the run did not pause at its checkpoint with no one to answer")
	}
	evs := e.events("DEB-q")
	if index(evs, debate.TypeResumed, "") >= 0 {
		t.Errorf("the first run of a queued debate appended debate.resumed:\n%s", types(evs))
	}
	queue()
	e.runner.Human = humanFunc(func(context.Context, *debate.State, debate.CheckpointReached) (debate.CheckpointAnswered, error) {
		return debate.CheckpointAnswered{ID: "c1", Action: debate.ActionContinue}, nil
	})
	st, err := e.runner.Run(ctx, "DEB-q", proto)
	if err != nil || st.Status != debate.StatusCompleted {
		t.Fatalf("second run: %v, %v", st.Status, err)
	}
	if n := len(decodeAll[debate.Resumed](t, e.events("DEB-q"))); n != 1 {
		t.Errorf("the second run appended %d debate.resumed, want 1:\n%s", n, types(e.events("DEB-q")))
	}
}

// A lease left by a job's worker that died on this host shows queued, as
// the store returns it.
func TestDeadWorkerShowsQueued(t *testing.T) {
	cmd := exec.Command("true")
	if err := cmd.Run(); err != nil {
		t.Skipf("cannot run a child process: %v", err)
	}
	owner := debate.JobOwner(3)
	owner.PID = cmd.Process.Pid
	if debate.OwnerAlive(owner) {
		t.Skip("the finished child's pid was reused")
	}
	e := newEnv(t, script.Rule{Tag: "t1", Reply: text("one")})
	e.create("DEB-w", testLimits())
	ctx := context.Background()
	if _, err := e.store.AcquireLease(ctx, "DEB-w", owner, time.Hour, ""); err != nil {
		t.Fatal(err)
	}
	sum, err := e.store.Get(ctx, "DEB-w")
	if err != nil {
		t.Fatal(err)
	}
	if got := sum.Shown(time.Now(), debate.OwnerAlive); got != debate.StatusQueued {
		t.Errorf("a running debate whose job's worker died shows %q, want queued", got)
	}
}
