package app

import (
	"context"
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
	req := request("bullbear", "NVDA")
	req.Offline = true
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
