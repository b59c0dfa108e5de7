package storetest

import (
	"context"
	"errors"
	"iter"
	"sync/atomic"

	"github.com/parleyhq/parley/internal/debate"
)

// CutStore is a debate.Store whose first subscription fails after yielding
// FailAfter events, as a PostgreSQL store's does when its connection is cut
// (PostgreSQL restarting, an administrator terminating the backend); later
// subscriptions are the inner store's. Tests of what follows a log use it
// to show that a failed read is not taken for the end of a debate.
type CutStore struct {
	debate.Store
	FailAfter int
	failed    atomic.Bool
}

// ErrCut is the error the first subscription ends with, in PostgreSQL's
// words.
var ErrCut = errors.New("FATAL: terminating connection due to administrator command (SQLSTATE 57P01)")

// Subscribe is the inner store's subscription, cut after FailAfter events
// the first time.
func (s *CutStore) Subscribe(ctx context.Context, id string, after int64) iter.Seq2[debate.Event, error] {
	inner := s.Store.Subscribe(ctx, id, after)
	if s.failed.Load() {
		return inner
	}
	return func(yield func(debate.Event, error) bool) {
		n := 0
		for e, err := range inner {
			if err != nil {
				yield(e, err)
				return
			}
			if n == s.FailAfter {
				s.failed.Store(true)
				yield(debate.Event{}, ErrCut)
				return
			}
			if !yield(e, nil) {
				return
			}
			n++
		}
	}
}
