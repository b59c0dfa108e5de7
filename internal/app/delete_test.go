package app

import (
	"context"
	"errors"
	"testing"
	"time"

	"github.com/parleyhq/parley/internal/debate"
	"github.com/parleyhq/parley/internal/store/storetest"
)

// TestDelete: a debate a live runner holds is refused (its runner would
// append to a log that is gone), and is deleted once the lease is
// released; a queued one goes (its worker finds nothing to run); an
// unknown one is ErrNotFound.
func TestDelete(t *testing.T) {
	ctx := context.Background()
	a := testApp(t, nil)
	start := func() string {
		p, err := a.Plan(ctx, offlineBullbear("NVDA"))
		if err != nil {
			t.Fatal(err)
		}
		s, err := a.StartPlan(ctx, p, nil)
		if err != nil {
			t.Fatal(err)
		}
		return s.ID
	}
	held := start()
	owner := debate.LeaseOwner{ID: "runner-elsewhere", Host: "another-host", PID: 42, Started: time.Now()}
	if _, err := a.Store.AcquireLease(ctx, held, owner, time.Minute, ""); err != nil {
		t.Fatal(err)
	}
	var lh *debate.LeaseHeldError
	if _, err := a.Delete(ctx, held); !errors.As(err, &lh) || lh.Lease.Owner.ID != owner.ID {
		t.Fatalf("Delete of a debate a live runner holds = %v; want a LeaseHeldError naming its runner", err)
	}
	if _, err := a.Store.Get(ctx, held); err != nil {
		t.Fatalf("the refused delete removed the debate: %v", err)
	}
	if err := a.Store.ReleaseLease(ctx, held, owner.ID); err != nil {
		t.Fatal(err)
	}
	sum, err := a.Delete(ctx, held)
	if err != nil || sum.ID != held {
		t.Fatalf("Delete after the lease was released = %+v, %v", sum, err)
	}
	if _, err := a.Store.Get(ctx, held); !errors.Is(err, debate.ErrNotFound) {
		t.Errorf("Get after Delete = %v; want ErrNotFound", err)
	}

	queued := start()
	storetest.AppendPayloads(ctx, t, a.Store, queued, time.Now(), debate.Queued{Queue: "data", Reason: debate.QueuedCreated})
	if _, err := a.Delete(ctx, queued); err != nil {
		t.Errorf("Delete of a queued debate = %v; want it deleted", err)
	}
	if _, err := a.Delete(ctx, "DEB-00000000"); !errors.Is(err, debate.ErrNotFound) {
		t.Errorf("Delete of an unknown debate = %v; want ErrNotFound", err)
	}
}
