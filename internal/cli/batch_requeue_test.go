package cli

import (
	"context"
	"path/filepath"
	"testing"
	"time"

	"github.com/parleyhq/parley/internal/debate"
	"github.com/parleyhq/parley/internal/store/sqlite"
)

// An earlier debate that paused, queued again by a batch run again, is
// followed as queued until a worker goes on with it, not reported failed
// with the pause it is resumed from; a pause after that is its result.
func TestBatchFollowsARequeuedPausedDebate(t *testing.T) {
	ctx := context.Background()
	st, err := sqlite.Open(ctx, filepath.Join(t.TempDir(), "parley.db"))
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	const id = "DEB-0000beef"
	appendEv := func(p debate.Payload) int64 {
		t.Helper()
		e, err := debate.NewEvent(id, time.Now(), p)
		if err != nil {
			t.Fatal(err)
		}
		seq, err := st.Append(ctx, id, e)
		if err != nil {
			t.Fatal(err)
		}
		return seq
	}
	appendEv(debate.Created{Format: "perspectives", Topic: "Monorepo or polyrepo?", Limits: debate.DefaultLimits()})
	last := appendEv(debate.Paused{Reason: debate.PauseTimeout, Detail: "round 2 ran longer than 2m0s"})

	row := &BatchRow{Item: "Monorepo or polyrepo?", ID: id, Status: batchQueued, queuedAt: last}
	if err := refresh(ctx, st, nil, []*BatchRow{row}); err != nil {
		t.Fatal(err)
	}
	if row.Status != batchQueued || row.Error != "" {
		t.Fatalf("queued again, before any worker took it: %s %q; want queued", row.Status, row.Error)
	}
	appendEv(debate.Resumed{FromSeq: last})
	appendEv(debate.Paused{Reason: debate.PauseTimeout, Detail: "round 3 ran longer than 2m0s"})
	if err := refresh(ctx, st, nil, []*BatchRow{row}); err != nil {
		t.Fatal(err)
	}
	if row.Status != batchFailed || row.Error != "paused (debate timeout): round 3 ran longer than 2m0s" {
		t.Fatalf("paused again after the batch queued it: %s %q; want failed with the new pause", row.Status, row.Error)
	}
}
