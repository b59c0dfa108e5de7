package app

import (
	"context"
	"errors"
	"fmt"

	"github.com/parleyhq/parley/internal/debate"
	"github.com/parleyhq/parley/internal/setup"
)

// RunningElsewhere returns a *debate.LeaseHeldError naming the runner when
// another live runner holds the debate's lease, so that a front-end refuses
// a second resume before it prints the cast or replays the transcript; the
// runner checks again when it takes the lease, which is what decides. A
// debate that is not found is left for Resume to report.
//
// A debate queued for a worker (debate.Summary.Shown) is refused too, with
// an input error: its job waits in the queue, and a worker that takes it up
// would contend with this runner, or go on with it after this one paused
// it. A worker's own run resumes it through Resume, not through here.
func (a *App) RunningElsewhere(ctx context.Context, id string) error {
	sum, err := a.Store.Get(ctx, id)
	if errors.Is(err, debate.ErrNotFound) {
		return nil
	}
	if err != nil {
		return err
	}
	now := a.now()
	l := sum.LiveLease(now, debate.OwnerAlive)
	if l != nil && (a.Owner.ID == "" || l.Owner.ID != a.Owner.ID) {
		return &debate.LeaseHeldError{Debate: id, Lease: *l}
	}
	if l == nil {
		return queued(id, sum.Shown(now, debate.OwnerAlive))
	}
	return nil
}

// ErrQueued is a resume asked of a debate queued for a worker: its job
// waits in the queue, so there is nothing to resume.
var ErrQueued = errors.New("queued for a worker, which runs it")

// NotQueued returns an input error wrapping ErrQueued when the debate is
// queued for a worker (debate.Summary.Shown), for a front-end that resumes
// through the job queue and must not queue it twice. A debate that is not
// found is left for the resume to report.
func (a *App) NotQueued(ctx context.Context, id string) error {
	sum, err := a.Store.Get(ctx, id)
	if errors.Is(err, debate.ErrNotFound) {
		return nil
	}
	if err != nil {
		return err
	}
	return queued(id, sum.Shown(a.now(), debate.OwnerAlive))
}

func queued(id string, shown debate.Status) error {
	if shown != debate.StatusQueued {
		return nil
	}
	return &setup.InputError{Err: fmt.Errorf("debate %s is %w: nothing to resume here; if no worker runs on this database, start one (parley worker)", id, ErrQueued)}
}
