package app

import (
	"context"
	"errors"

	"github.com/parleyhq/parley/internal/debate"
)

// RunningElsewhere returns a *debate.LeaseHeldError naming the runner when
// another live runner holds the debate's lease, so that a front-end refuses
// a second resume before it prints the cast or replays the transcript; the
// runner checks again when it takes the lease, which is what decides. A
// debate that is not found is left for Resume to report.
func (a *App) RunningElsewhere(ctx context.Context, id string) error {
	sum, err := a.Store.Get(ctx, id)
	if errors.Is(err, debate.ErrNotFound) {
		return nil
	}
	if err != nil {
		return err
	}
	l := sum.LiveLease(a.now(), debate.OwnerAlive)
	if l == nil || (a.Owner.ID != "" && l.Owner.ID == a.Owner.ID) {
		return nil
	}
	return &debate.LeaseHeldError{Debate: id, Lease: *l}
}
