package app

import (
	"context"
	"slices"

	"github.com/parleyhq/parley/internal/debate"
)

// Statuses are the statuses a debate shows (debate.Summary.Shown), in the
// order a front-end offers them as filters.
func Statuses() []debate.Status {
	return []debate.Status{debate.StatusQueued, debate.StatusRunning, debate.StatusCheckpoint, debate.StatusPaused,
		debate.StatusInterrupted, debate.StatusCompleted, debate.StatusFailed}
}

// ListFilter narrows List. Status is a status to show, not a stored one.
type ListFilter struct {
	Format string
	Status debate.Status // "" = all; one of Statuses
	Limit  int           // 0 = no limit
}

// List lists debates, newest first, each with the status to show
// (debate.Summary.Shown) in Status, filtered by that status: every
// front-end (list, the shell's /list, the server's API and pages) lists
// through it, so that they all show a debate alike. The status comes from
// the store alone (the debate's log and its lease), never from the job
// queue's tables, which a read-only command cannot see.
func (a *App) List(ctx context.Context, f ListFilter) ([]debate.Summary, error) {
	// What a debate shows differs from what is stored only for stored
	// statuses that Shown corrects by the lease: those are read whole and
	// filtered here; the others the store filters, and limits.
	stored := debate.ListFilter{Format: f.Format, Status: f.Status, Limit: f.Limit}
	switch f.Status {
	case debate.StatusQueued, debate.StatusRunning, debate.StatusCheckpoint, debate.StatusInterrupted:
		stored.Status, stored.Limit = "", 0
	case "":
	default:
		if !slices.Contains(Statuses(), f.Status) {
			return []debate.Summary{}, nil
		}
	}
	sums, err := a.Store.List(ctx, stored)
	if err != nil {
		return nil, err
	}
	now := a.now()
	out := make([]debate.Summary, 0, len(sums))
	for _, s := range sums {
		s.Status = s.Shown(now, debate.OwnerAlive)
		if f.Status != "" && s.Status != f.Status {
			continue
		}
		out = append(out, s)
		if f.Limit > 0 && len(out) == f.Limit {
			break
		}
	}
	return out, nil
}
