package app

import (
	"context"
	"errors"
	"testing"
	"time"

	"github.com/parleyhq/parley/internal/debate"
)

// A debate another process's live runner has is held by it; this App's own
// runner holds nothing it must refuse; a debate whose runner is gone stands
// interrupted, with no holder.
func TestStanding(t *testing.T) {
	ctx := context.Background()
	a := testApp(t, nil)
	a.Owner = debate.ThisProcess()
	req := offlineBullbear("NVDA")
	s, err := a.Start(ctx, req)
	if err != nil {
		t.Fatal(err)
	}
	st, _, err := a.Load(ctx, s.ID)
	if err != nil {
		t.Fatal(err)
	}
	other := debate.LeaseOwner{ID: "worker-1", Host: "worker-7", PID: 4242, Started: time.Now()}
	for _, tc := range []struct {
		owner      debate.LeaseOwner
		held       bool
		status     string
		leaseAfter bool
	}{
		{other, true, "running", true},
		{a.Owner, false, "running", true},
		{other, false, "interrupted (its runner stopped before the debate ended)", false},
	} {
		if _, err := a.Store.AcquireLease(ctx, s.ID, tc.owner, time.Hour, ""); err != nil {
			t.Fatal(err)
		}
		if !tc.leaseAfter {
			if err := a.Store.ReleaseLease(ctx, s.ID, tc.owner.ID); err != nil {
				t.Fatal(err)
			}
		}
		sd := a.Standing(ctx, st)
		if (sd.Held != nil) != tc.held || sd.Status != tc.status || (sd.Held != nil && sd.Held.Owner.ID != tc.owner.ID) {
			t.Errorf("lease of %s (kept: %v): standing %q held by %+v; want %q, held: %v", tc.owner.ID, tc.leaseAfter, sd.Status, sd.Held, tc.status, tc.held)
		}
		if tc.leaseAfter {
			if err := a.Store.ReleaseLease(ctx, s.ID, tc.owner.ID); err != nil {
				t.Fatal(err)
			}
		}
	}
}

// QueueHint appends hints with increasing ids to a debate that has not
// ended, and refuses one that has.
func TestQueueHint(t *testing.T) {
	ctx := context.Background()
	a := testApp(t, nil)
	req := offlineBullbear("NVDA")
	s, err := a.Start(ctx, req)
	if err != nil {
		t.Fatal(err)
	}
	for i, target := range []string{"bull", debate.HintAll} {
		h, err := a.QueueHint(ctx, s.ID, target, "cite the filing")
		if err != nil || h.ID != i+1 || h.Target != target {
			t.Fatalf("hint %d: %+v, %v", i+1, h, err)
		}
	}
	st, err := s.Run(ctx, nil)
	if err != nil {
		t.Fatal(err)
	}
	if len(st.Hints) != 2 || st.Hints[0].Applied == "" {
		t.Fatalf("hints after the run: %+v; want both, the bull's applied", st.Hints)
	}
	if _, err := a.QueueHint(ctx, s.ID, "bear", "too late"); !errors.Is(err, ErrCompleted) {
		t.Fatalf("hint to a completed debate: %v, want ErrCompleted", err)
	}
}
