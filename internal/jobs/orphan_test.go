package jobs

import (
	"context"
	"database/sql"
	"strings"
	"testing"
	"time"

	"github.com/jackc/pgx/v5"
	"github.com/riverqueue/river"

	"github.com/parleyhq/parley/internal/debate"
)

// A queued debate whose job an operator cancelled (or deleted) is paused by
// the next worker's look, saying why, rather than stand queued for ever
// where a resume refuses it; a queued debate whose job waits stays queued.
func TestOrphanedQueuedDebate(t *testing.T) { eachDB(t, testOrphan) }

func testOrphan(t *testing.T, db string) {
	ctx := context.Background()
	a := newApp(t, db, nil)
	q := newQueue(t, a, Config{Workers: 0, ReclaimEvery: time.Hour})
	kept, err := q.StartDebate(ctx, offlineRequest("AAPL"))
	if err != nil {
		t.Fatal(err)
	}
	orphan, err := q.StartDebate(ctx, offlineRequest("NVDA"))
	if err != nil {
		t.Fatal(err)
	}
	if n, err := q.unqueueOrphans(ctx); err != nil || n != 0 {
		t.Fatalf("look with both jobs waiting: %d paused, %v; want none", n, err)
	}
	rows, err := q.db.list(ctx, river.NewJobListParams().Kinds(Kind).TagsAny(orphan.ID))
	if err != nil || len(rows) != 1 {
		t.Fatalf("the job of %s: %v, %v", orphan.ID, rows, err)
	}
	switch b := q.db.(type) {
	case *riverDB[*sql.Tx]:
		_, err = b.client.JobCancel(ctx, rows[0].ID)
	case *riverDB[pgx.Tx]:
		_, err = b.client.JobCancel(ctx, rows[0].ID)
	default:
		t.Fatalf("backend %T", q.db)
	}
	if err != nil {
		t.Fatal(err)
	}
	if n, err := q.unqueueOrphans(ctx); err != nil || n != 1 {
		t.Fatalf("look after the job was cancelled: %d paused, %v; want 1", n, err)
	}
	sum, err := a.Store.Get(ctx, orphan.ID)
	if err != nil {
		t.Fatal(err)
	}
	if sum.Status != debate.StatusPaused || sum.Lease != nil {
		t.Fatalf("the debate whose job is gone: %s (lease %v), want paused and let go", sum.Status, sum.Lease)
	}
	st, _, err := a.Load(ctx, orphan.ID)
	if err != nil {
		t.Fatal(err)
	}
	if p := st.Pauses[len(st.Pauses)-1]; !strings.Contains(p.Detail, "no longer in the job queue") {
		t.Errorf("its pause says %q", p.Detail)
	}
	if sum, err := a.Store.Get(ctx, kept.ID); err != nil || sum.Status != debate.StatusQueued {
		t.Errorf("the debate whose job waits: %s, %v; want queued", sum.Status, err)
	}
	// Resumed, it is queued again, with a job.
	if err := q.Resume(ctx, orphan.ID); err != nil {
		t.Fatal(err)
	}
	if queued, err := q.Queued(ctx, orphan.ID); err != nil || !queued[orphan.ID] {
		t.Errorf("resumed: job queued %v, %v", queued, err)
	}
	if n, err := q.unqueueOrphans(ctx); err != nil || n != 0 {
		t.Errorf("look after the resume: %d paused, %v; want none", n, err)
	}
}
