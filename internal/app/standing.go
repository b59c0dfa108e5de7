package app

import (
	"context"

	"github.com/parleyhq/parley/internal/debate"
)

// Standing is where a debate stands now, for a front-end that shows one:
// what its log says, corrected by its lease.
type Standing struct {
	// Shown is the status to show (debate.Summary.Shown): what a
	// front-end decides its hint by (a queued debate waits for a worker;
	// an interrupted one is resumed by hand).
	Shown debate.Status
	// Status is the status line (StatusLine), or that the debate was
	// interrupted when its log says running and its runner is gone, or
	// that it waits for a worker.
	Status string
	// Held is the lease of the live runner of another process that has
	// the debate (running it, or asking a person at its checkpoint), nil
	// when none has: a resume would be refused, so a front-end names that
	// runner instead of offering one.
	Held *debate.Lease
}

// Standing says where a debate stands. A debate whose summary cannot be
// read stands as its log says.
func (a *App) Standing(ctx context.Context, st *debate.State) Standing {
	out := Standing{Shown: st.Status, Status: StatusLine(st)}
	sum, err := a.Store.Get(ctx, st.ID)
	if err != nil {
		return out
	}
	now := a.now()
	switch out.Shown = sum.Shown(now, debate.OwnerAlive); out.Shown {
	case debate.StatusQueued:
		out.Status = "queued (waiting for a worker to take it up)"
		if st.Phase.Label != "" {
			out.Status += " at " + st.Phase.Label
		}
	case debate.StatusInterrupted:
		out.Status = "interrupted (its runner stopped before the debate ended)"
		if st.Phase.Label != "" {
			out.Status += " at " + st.Phase.Label
		}
	case debate.StatusRunning, debate.StatusCheckpoint:
		if st.Status == debate.StatusQueued {
			// A worker has taken it up and prepares its run.
			out.Status = StatusLine(&debate.State{Status: debate.StatusRunning, Phase: st.Phase})
		}
		if l := sum.LiveLease(now, debate.OwnerAlive); l != nil && (a.Owner.ID == "" || l.Owner.ID != a.Owner.ID) {
			out.Held = l
		}
	}
	return out
}

// AsShown is the debate for a document or an export: its status the one
// 'parley list' shows. The log's last word is "running" for a debate
// whose runner died (interrupted) and "queued" for one a worker has taken
// up; the documents said so while the list and show's header did not.
// The copy shares the state's maps: it is for reading.
func (a *App) AsShown(ctx context.Context, st *debate.State) *debate.State {
	shown := a.Standing(ctx, st).Shown
	if shown == "" || shown == st.Status {
		return st
	}
	c := *st
	c.Status = shown
	return &c
}
