package store

import (
	"context"
	"errors"
	"iter"
	"time"

	"github.com/parleyhq/parley/internal/debate"
)

// Resubscribe is st.Subscribe for a follower that must outlive a failed
// read of the log (a PostgreSQL connection cut, the server restarting):
// it subscribes again from the last event it yielded, after 100 ms, then
// twice as long each time up to 5 s, and yields nothing of the failure, so
// that the follower sees every event once, in order. It ends as Subscribe
// does when ctx ends (yielding ctx.Err() once), and on debate.ErrNotFound
// (the debate deleted) or ErrClosed (the store closed), which it yields.
func Resubscribe(ctx context.Context, st debate.Store, debateID string, afterSeq int64) iter.Seq2[debate.Event, error] {
	const minWait, maxWait = 100 * time.Millisecond, 5 * time.Second
	return func(yield func(debate.Event, error) bool) {
		after, wait := afterSeq, minWait
		for {
			var failed error
			for e, err := range st.Subscribe(ctx, debateID, after) {
				if err != nil {
					failed = err
					break
				}
				wait = minWait
				after = e.Seq
				if !yield(e, nil) {
					return
				}
			}
			switch {
			case ctx.Err() != nil:
				yield(debate.Event{}, ctx.Err())
				return
			case failed == nil:
				return
			case errors.Is(failed, debate.ErrNotFound), errors.Is(failed, ErrClosed):
				yield(debate.Event{}, failed)
				return
			}
			select {
			case <-ctx.Done():
				yield(debate.Event{}, ctx.Err())
				return
			case <-time.After(wait):
			}
			wait = min(2*wait, maxWait)
		}
	}
}
