package jobs

import (
	"context"
	"sync"
	"testing"

	"github.com/parleyhq/parley/internal/debate"
	"github.com/parleyhq/parley/internal/format/bullbear"
	"github.com/parleyhq/parley/internal/setup"
	"github.com/parleyhq/parley/internal/tool"
)

// countingBullBear is the bull vs. bear format counting its preparations:
// those that do the data-only agents' data work (a run) and those that
// only check (a debate being queued).
type countingBullBear struct {
	bullbear.Format
	mu           sync.Mutex
	runs, queued int
}

func (f *countingBullBear) Prepare(ctx context.Context, env setup.Env, run *setup.Run) (*tool.Registry, error) {
	f.mu.Lock()
	if run.Queued {
		f.queued++
	} else {
		f.runs++
	}
	f.mu.Unlock()
	return f.Format.Prepare(ctx, env, run)
}

// Queueing a data-only debate checks it without the data work the worker
// that runs it does again: the agents' SEC facts are read once, by the
// worker, and the worker runs every debate queueing accepted.
func TestQueuedDebatePreparedOnceForItsData(t *testing.T) {
	f := &countingBullBear{}
	a := newApp(t, "sqlite", nil)
	a.Formats = debate.NewFormats(f)
	q := newQueue(t, a, Config{Workers: 2})
	var ids []string
	for _, tk := range []string{"NVDA", "AAPL"} {
		s, err := q.StartDebate(context.Background(), offlineRequest(tk))
		if err != nil {
			t.Fatal(err)
		}
		if len(s.DataOnly) != 3 {
			t.Errorf("%s: queued with data-only agents %v, want bull, bear and moderator", tk, s.DataOnly)
		}
		ids = append(ids, s.ID)
	}
	for _, id := range ids {
		if sum := waitStatus(t, a.Store, id, debate.StatusCompleted); sum.Turns != 7 {
			t.Fatalf("%s: %d turns, want the 7 of an offline bull vs. bear debate", id, sum.Turns)
		}
	}
	f.mu.Lock()
	runs, queued := f.runs, f.queued
	f.mu.Unlock()
	if runs != len(ids) || queued != len(ids) {
		t.Fatalf("%d debates prepared with their data %d times and checked %d times; want each prepared with its data once, by its worker, and checked once when queued",
			len(ids), runs, queued)
	}

	// The session a queue returns is not run: its agents were not prepared.
	s, err := newQueue(t, a, Config{}).StartDebate(context.Background(), offlineRequest("GOOGL"))
	if err != nil {
		t.Fatal(err)
	}
	if st, err := s.Run(context.Background(), nil); err == nil {
		t.Fatalf("the session of a queued debate ran where it was queued: %d turns", len(st.Turns))
	}
}
