package app

import (
	"context"
	"encoding/base64"
	"slices"
	"strings"
	"time"

	"github.com/parleyhq/parley/internal/debate"
	"github.com/parleyhq/parley/internal/setup"
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
	// After continues a list after the last debate of a page before (see
	// debate.ListFilter.After and Cursor).
	After *debate.ListPosition
}

// storedFor are the stored statuses a debate showing status may have
// (debate.Summary.Shown): a debate's lease turns a queued one running, and
// a running one or one at a checkpoint queued or interrupted.
func storedFor(status debate.Status) []debate.Status {
	switch status {
	case debate.StatusQueued:
		return []debate.Status{debate.StatusQueued, debate.StatusRunning, debate.StatusCheckpoint}
	case debate.StatusRunning:
		return []debate.Status{debate.StatusQueued, debate.StatusRunning}
	case debate.StatusCheckpoint:
		return []debate.Status{debate.StatusCheckpoint}
	case debate.StatusInterrupted:
		return []debate.Status{debate.StatusRunning, debate.StatusCheckpoint}
	}
	return []debate.Status{status}
}

// List lists debates, newest first, each with the status to show
// (debate.Summary.Shown) in Status, filtered by that status: every
// front-end (list, the shell's /list, the server's API and pages) lists
// through it, so that they all show a debate alike. The status comes from
// the store alone (the debate's log and its lease), never from the job
// queue's tables, which a read-only command cannot see.
//
// The store filters by the stored statuses a status to show may come from
// (from its index); those whose lease decides are then filtered here: a
// page's worth first, then, if too few of those show the status, the rest
// of the debates under way, never the finished ones.
func (a *App) List(ctx context.Context, f ListFilter) ([]debate.Summary, error) {
	if f.Status != "" && !slices.Contains(Statuses(), f.Status) {
		return []debate.Summary{}, nil
	}
	stored := debate.ListFilter{Format: f.Format, Limit: f.Limit, After: f.After}
	byLease := false
	switch f.Status {
	case "":
	case debate.StatusQueued, debate.StatusRunning, debate.StatusCheckpoint, debate.StatusInterrupted:
		stored.Statuses, byLease = storedFor(f.Status), true
		if f.Limit > 0 {
			stored.Limit = f.Limit + 1
		}
	default:
		stored.Status = f.Status
	}
	now := a.now()
	out := make([]debate.Summary, 0, min(max(f.Limit, 0), 1000))
	for {
		sums, err := a.Store.List(ctx, stored)
		if err != nil {
			return nil, err
		}
		for _, s := range sums {
			s.Status = s.Shown(now, debate.OwnerAlive)
			if byLease && s.Status != f.Status {
				continue
			}
			out = append(out, s)
			if f.Limit > 0 && len(out) == f.Limit {
				return out, nil
			}
		}
		if stored.Limit == 0 || len(sums) < stored.Limit {
			return out, nil
		}
		// The rest in one read: these stored statuses are those of the
		// debates under way, few beside the others, which the store reads
		// from its status index at once; pages of them read in turn each
		// sought their start again (PostgreSQL scanned the newest debates
		// of every status for each).
		pos := debate.PositionOf(sums[len(sums)-1])
		stored.After, stored.Limit = &pos, 0
	}
}

// maxCursor bounds a cursor: a time and an ID, well under 200 bytes.
const maxCursor = 512

// Cursor is the opaque continuation of a list whose page ended with s: a
// list given it (ParseCursor) goes on after s. It is the position in the
// list's order (creation time, then ID), not an offset, so that debates
// created or deleted meanwhile neither repeat nor skip one.
func Cursor(s debate.Summary) string {
	return base64.RawURLEncoding.EncodeToString([]byte(s.Created.UTC().Format(time.RFC3339Nano) + " " + s.ID))
}

// ParseCursor reads a Cursor.
func ParseCursor(c string) (*debate.ListPosition, error) {
	bad := func() error {
		shown := c
		if len(shown) > 40 {
			shown = shown[:40] + "…"
		}
		return setup.Inputf("cursor %q is not one this server gave: pass the \"next\" of the page before as it came, or leave it out for the first page", shown)
	}
	if len(c) > maxCursor {
		return nil, bad()
	}
	b, err := base64.RawURLEncoding.DecodeString(c)
	if err != nil {
		return nil, bad()
	}
	at, id, ok := strings.Cut(string(b), " ")
	t, err := time.Parse(time.RFC3339Nano, at)
	// The id is one a debate can have: PostgreSQL refuses NUL in text, and
	// a list after one failed with its error.
	if !ok || err != nil || !debate.ValidID(id) {
		return nil, bad()
	}
	return &debate.ListPosition{Created: t, ID: id}, nil
}
