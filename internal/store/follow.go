package store

import (
	"context"
	"errors"
	"iter"
	"sync"
	"time"

	"github.com/parleyhq/parley/internal/debate"
)

// Notifier wakes the subscribers of a debate when events are appended to it
// through the same store. Each store owns one; the zero value is ready to use.
type Notifier struct {
	mu      sync.Mutex
	waiting map[string]chan struct{} // closed and dropped by the next Notify
	closed  bool
}

// Wait returns a channel that is closed by the next Notify for debateID, or by
// Close. Callers take it before reading the log, so that an append landing
// between the read and the wait still wakes them.
func (n *Notifier) Wait(debateID string) <-chan struct{} {
	n.mu.Lock()
	defer n.mu.Unlock()
	if n.closed {
		ch := make(chan struct{})
		close(ch)
		return ch
	}
	ch, ok := n.waiting[debateID]
	if !ok {
		if n.waiting == nil {
			n.waiting = make(map[string]chan struct{})
		}
		ch = make(chan struct{})
		n.waiting[debateID] = ch
	}
	return ch
}

// Notify wakes everyone waiting on debateID.
func (n *Notifier) Notify(debateID string) {
	n.mu.Lock()
	defer n.mu.Unlock()
	if ch, ok := n.waiting[debateID]; ok {
		close(ch)
		delete(n.waiting, debateID)
	}
}

// NotifyAll wakes everyone waiting, on any debate, without closing: for a
// store that may have missed appends (a dropped LISTEN connection) and so
// has every subscriber read its log again.
func (n *Notifier) NotifyAll() {
	n.mu.Lock()
	defer n.mu.Unlock()
	for id, ch := range n.waiting {
		close(ch)
		delete(n.waiting, id)
	}
}

// Close wakes every waiter, now and later; their next read then reports that
// the store is closed.
func (n *Notifier) Close() {
	n.mu.Lock()
	defer n.mu.Unlock()
	n.closed = true
	for id, ch := range n.waiting {
		close(ch)
		delete(n.waiting, id)
	}
}

// LoadFunc reads the events of one debate after a sequence number, as
// debate.Store.Load does.
type LoadFunc func(ctx context.Context, debateID string, afterSeq int64) ([]debate.Event, error)

// Follow implements debate.Store.Subscribe on top of Load: it yields the events
// after afterSeq, then waits until n signals an append to the debate or, when
// poll > 0, until poll has passed (to see appends made by other processes),
// and reads again. It ends when ctx does, yielding ctx.Err() once, or on the
// first read error (debate.ErrNotFound for an unknown debate), which it
// yields. Stopping the range loop early is fine.
func Follow(ctx context.Context, load LoadFunc, n *Notifier, debateID string, afterSeq int64, poll time.Duration) iter.Seq2[debate.Event, error] {
	return func(yield func(debate.Event, error) bool) {
		var tick <-chan time.Time
		if poll > 0 {
			t := time.NewTicker(poll)
			defer t.Stop()
			tick = t.C
		}
		after := afterSeq
		for {
			if err := ctx.Err(); err != nil {
				yield(debate.Event{}, err)
				return
			}
			wake := n.Wait(debateID)
			events, err := load(ctx, debateID, after)
			if err != nil {
				// A read cut short by ctx reports ctx's error, as promised,
				// not the driver's rendering of it.
				if ctxErr := ctx.Err(); ctxErr != nil && !errors.Is(err, debate.ErrNotFound) {
					err = ctxErr
				}
				yield(debate.Event{}, err)
				return
			}
			for _, e := range events {
				if !yield(e, nil) {
					return
				}
				after = e.Seq
			}
			select {
			case <-ctx.Done():
				yield(debate.Event{}, ctx.Err())
				return
			case <-wake:
			case <-tick:
			}
		}
	}
}
