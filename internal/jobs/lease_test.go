package jobs

import (
	"context"
	"errors"
	"testing"
	"time"

	"github.com/riverqueue/river"

	"github.com/parleyhq/parley/internal/debate"
)

// A job's attempt whose lease release failed (the database restarted under
// the run: the run and the release fail together) leaves the lease held
// until it expires. River's next attempt of the job takes it over at once,
// rather than wait out the lease saying the debate runs elsewhere; a lease
// of another job, or of another runner, it leaves alone.
func TestRetryTakesOverItsEarlierAttemptsLease(t *testing.T) { eachDB(t, testRetryLease) }

func testRetryLease(t *testing.T, db string) {
	ctx := context.Background()
	a := newApp(t, db, nil)
	enq := newQueue(t, a, Config{Workers: 0, ReclaimEvery: time.Hour})
	s, err := enq.StartDebate(ctx, offlineRequest("AAPL"))
	if err != nil {
		t.Fatal(err)
	}
	rows, err := enq.db.list(ctx, river.NewJobListParams().Kinds(Kind).TagsAny(s.ID))
	if err != nil || len(rows) != 1 {
		t.Fatalf("the job of %s: %v, %v", s.ID, rows, err)
	}
	job := rows[0].ID
	log := testLog(t)

	// Leases a retry of the job must not take: another job's, a terminal's.
	for _, other := range []debate.LeaseOwner{debate.JobOwner(job + 1), debate.ThisProcess()} {
		if _, err := a.Store.AcquireLease(ctx, s.ID, other, time.Hour, ""); err != nil {
			t.Fatal(err)
		}
		_, err := acquireForJob(ctx, a.Store, s.ID, debate.JobOwner(job), job, time.Hour, log)
		var held *debate.LeaseHeldError
		if !errors.As(err, &held) || held.Lease.Owner.ID != other.ID {
			t.Fatalf("job %d took the live lease of %s: %v", job, other.ID, err)
		}
		if err := a.Store.ReleaseLease(ctx, s.ID, other.ID); err != nil {
			t.Fatal(err)
		}
	}

	// The lease an earlier attempt left, for an hour: the worker's attempt
	// takes it and runs the debate.
	earlier := debate.JobOwner(job)
	if _, err := a.Store.AcquireLease(ctx, s.ID, earlier, time.Hour, ""); err != nil {
		t.Fatal(err)
	}
	newQueue(t, a, Config{Workers: 1, LeaseTTL: time.Hour, ReclaimEvery: time.Hour})
	waitStatus(t, a.Store, s.ID, debate.StatusCompleted)
	if n := completedOnce(t, a.Store, s.ID); n != 7 {
		t.Fatalf("%d turns completed, want 7", n)
	}
}
