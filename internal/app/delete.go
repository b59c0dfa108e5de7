package app

import (
	"context"

	"github.com/parleyhq/parley/internal/debate"
)

// Delete removes a debate for good: its log, its summary and its lease. It
// returns the summary the debate had, for a front-end to say what went.
//
// A debate a live runner holds (in this process, a terminal, a server or a
// worker) is refused with a *debate.LeaseHeldError: its runner would go on
// appending to a log that is gone. Pause it first. A debate queued for a
// worker may go: the worker that takes its job finds nothing to run. Every
// front-end (delete, the server's DELETE) deletes through here, so that
// they refuse alike.
func (a *App) Delete(ctx context.Context, id string) (debate.Summary, error) {
	sum, err := a.Store.Get(ctx, id)
	if err != nil {
		return debate.Summary{}, err
	}
	if l := sum.LiveLease(a.now(), debate.OwnerAlive); l != nil {
		return sum, &debate.LeaseHeldError{Debate: id, Lease: *l}
	}
	if err := a.Store.Delete(ctx, id); err != nil {
		return sum, err
	}
	return sum, nil
}
