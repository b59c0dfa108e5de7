package storetest

import (
	"context"
	"testing"
	"time"

	"github.com/parleyhq/parley/internal/debate"
)

// AppendPayloads appends events of the payloads, all at time at, to debate
// id in s, failing tb on an error: the set-up other packages' tests write
// a log with (a debate queued, a log a follower reads). Call it from the
// test's goroutine, as it may call tb.Fatal.
func AppendPayloads(ctx context.Context, tb testing.TB, s debate.Store, id string, at time.Time, ps ...debate.Payload) {
	tb.Helper()
	evs := make([]debate.Event, 0, len(ps))
	for _, p := range ps {
		e, err := debate.NewEvent(id, at, p)
		if err != nil {
			tb.Fatal(err)
		}
		evs = append(evs, e)
	}
	if _, err := s.Append(ctx, id, evs...); err != nil {
		tb.Fatalf("Append(%q, %d events): %v", id, len(evs), err)
	}
}
