package app

import (
	"context"
	"errors"
	"strings"
	"testing"
	"time"

	"github.com/parleyhq/parley/internal/debate"
	"github.com/parleyhq/parley/internal/setup"
	"github.com/parleyhq/parley/internal/store/storetest"
)

// TestRunningElsewhereQueued: a debate queued for a worker is not resumed
// by hand (its job would contend with that run, or go on with it after a
// pause there); the refusal is an input error that says a worker runs it.
// Once a runner appends, it is no longer queued and the check passes.
func TestRunningElsewhereQueued(t *testing.T) {
	ctx := context.Background()
	a := testApp(t, nil)
	req := offlineBullbear("NVDA")
	p, err := a.Plan(ctx, req)
	if err != nil {
		t.Fatal(err)
	}
	s, err := a.StartPlan(ctx, p, nil)
	if err != nil {
		t.Fatal(err)
	}
	if err := a.RunningElsewhere(ctx, s.ID); err != nil {
		t.Fatalf("a debate nothing runs or queues: %v", err)
	}
	storetest.AppendPayloads(ctx, t, a.Store, s.ID, time.Now(), debate.Queued{Queue: "data", Reason: debate.QueuedCreated})
	err = a.RunningElsewhere(ctx, s.ID)
	var in *setup.InputError
	if !errors.As(err, &in) || !strings.Contains(err.Error(), s.ID+" is queued for a worker") || !strings.Contains(err.Error(), "parley worker") {
		t.Fatalf("RunningElsewhere of a queued debate = %v; want an input error saying a worker runs it", err)
	}
	if !errors.Is(err, ErrQueued) {
		t.Errorf("RunningElsewhere of a queued debate = %v; want it to wrap ErrQueued (a server answers 409)", err)
	}
	if err := a.NotQueued(ctx, s.ID); !errors.Is(err, ErrQueued) || !errors.As(err, &in) {
		t.Errorf("NotQueued of a queued debate = %v; want an input error wrapping ErrQueued", err)
	}
	if err := a.RunningElsewhere(ctx, "DEB-00000000"); err != nil {
		t.Errorf("a debate not found is left for Resume: %v", err)
	}
}
