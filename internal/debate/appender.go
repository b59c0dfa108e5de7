package debate

import (
	"context"
	"fmt"
	"sync"
)

// The runner's appends go through a queue so that its lock (r.mu, which
// guards the state of the debate being run) is never held while the store
// writes and syncs the disk: a turn that parses its reply, plans or reads the
// state does not wait for another turn's fsync.
//
//   - An append is enqueued under r.mu, so the log's order is the order in
//     which the runner decided on its events.
//   - One writer at a time takes every pending entry of the queue, in order,
//     and stores them with one Store.Append (one transaction, one sync),
//     holding r.logMu but not r.mu; it then folds them into the state under
//     r.mu and acknowledges them. Appends that pile up while a write is in
//     flight ride together in the next one (group commit).
//   - A durable event is acknowledged (append returns) only after the store
//     returned, that is once it is on disk; the fold happens before the
//     acknowledgement, so a caller sees its events in the state.
//   - Streamed text (turn.delta) does not wait: the streamer hands a delta
//     over and keeps reading the model's stream, and coalesces the text that
//     arrives meanwhile into one delta once the previous one is written.
//   - Catch-ups (folding other processes' events) hold r.logMu too, so that
//     every event beyond the state's last one in the store is either in the
//     writer's hands or another process's.
//
// The lock order is r.logMu, then r.mu, then appendQueue.mu.

// appendQueue holds the appends waiting for the writer.
type appendQueue struct {
	mu      sync.Mutex
	pending []*appendEntry
	writing bool // a writer is draining the queue
}

// appendEntry is one append: its events, the state they fold into, and its
// outcome once done is closed.
type appendEntry struct {
	ctx    context.Context
	s      *State
	events []Event // empty for a barrier (see settle)
	done   chan struct{}
	err    error
}

// wait blocks until the entry is written and folded, or failed.
func (e *appendEntry) wait() error {
	<-e.done
	return e.err
}

// settled reports whether the entry is done, without waiting.
func (e *appendEntry) settled() bool {
	select {
	case <-e.done:
		return true
	default:
		return false
	}
}

// append stores payloads and folds them into s, returning once they are
// durable. Callers do not hold r.mu.
func (r *Runner) append(ctx context.Context, s *State, ps ...Payload) error {
	r.mu.Lock()
	e, err := r.enqueueLocked(ctx, s, ps...)
	r.mu.Unlock()
	if err != nil || e == nil {
		return err
	}
	return r.await(e)
}

// enqueueLocked queues payloads to be appended to s's debate and folded into
// s, after every append queued before. It returns nil for no payloads.
// Callers hold r.mu.
func (r *Runner) enqueueLocked(ctx context.Context, s *State, ps ...Payload) (*appendEntry, error) {
	if len(ps) == 0 {
		return nil, nil
	}
	if r.lost {
		return nil, fmt.Errorf("append %s to debate %s: %w", ps[0].EventType(), s.ID, ErrLeaseLost)
	}
	evs := make([]Event, 0, len(ps))
	at := r.now()
	for _, p := range ps {
		e, err := NewEvent(s.ID, at, p)
		if err != nil {
			return nil, err
		}
		evs = append(evs, e)
	}
	e := &appendEntry{ctx: ctx, s: s, events: evs, done: make(chan struct{})}
	r.queue.mu.Lock()
	r.queue.pending = append(r.queue.pending, e)
	r.queue.mu.Unlock()
	return e, nil
}

// handOver makes sure a writer drains the queue without the caller waiting:
// a new goroutine when none is writing.
func (r *Runner) handOver() {
	r.queue.mu.Lock()
	start := !r.queue.writing && len(r.queue.pending) > 0
	if start {
		r.queue.writing = true
	}
	r.queue.mu.Unlock()
	if start {
		go r.drain(nil)
	}
}

// await waits for e, writing the queue itself when no writer is at work
// (saving a hand-off to another goroutine when the caller waits anyway).
func (r *Runner) await(e *appendEntry) error {
	r.queue.mu.Lock()
	write := !r.queue.writing
	if write {
		r.queue.writing = true
	}
	r.queue.mu.Unlock()
	if write {
		r.drain(e)
	}
	return e.wait()
}

// settle waits until every append queued so far is done. Run calls it before
// it returns, so that no write of its run outlives it.
func (r *Runner) settle(ctx context.Context) {
	e := &appendEntry{ctx: ctx, done: make(chan struct{})}
	r.queue.mu.Lock()
	r.queue.pending = append(r.queue.pending, e)
	r.queue.mu.Unlock()
	_ = r.await(e)
}

// drain writes the queue until it is empty; the caller has set
// queue.writing. With mine set, it stops once mine is done and hands what
// is left to a new goroutine, so that the caller is not kept writing other
// turns' appends.
func (r *Runner) drain(mine *appendEntry) {
	for {
		r.queue.mu.Lock()
		if len(r.queue.pending) == 0 {
			r.queue.writing = false
			r.queue.mu.Unlock()
			return
		}
		if mine != nil && mine.settled() {
			r.queue.mu.Unlock()
			go r.drain(nil)
			return
		}
		// One batch is one debate's appends (a runner runs one debate at a
		// time, so this is every pending entry).
		n := 1
		for n < len(r.queue.pending) && r.queue.pending[n].s == r.queue.pending[0].s {
			n++
		}
		batch := make([]*appendEntry, n)
		copy(batch, r.queue.pending)
		r.queue.pending = append(r.queue.pending[:0], r.queue.pending[n:]...)
		r.queue.mu.Unlock()
		r.write(batch)
	}
}

// write stores a batch of entries with one Store.Append, folds them into
// their state and acknowledges them. It holds r.logMu throughout and r.mu
// only to fold.
func (r *Runner) write(batch []*appendEntry) {
	var err error
	defer func() {
		for _, e := range batch {
			if e.err == nil {
				e.err = err
			}
			close(e.done)
		}
	}()
	var evs []Event
	for _, e := range batch {
		evs = append(evs, e.events...)
	}
	if len(evs) == 0 {
		return // barriers only
	}
	s := batch[0].s
	r.logMu.Lock()
	defer r.logMu.Unlock()
	r.mu.Lock()
	lost := r.lost
	r.mu.Unlock()
	if lost {
		// The lease was lost after these were queued: another runner may
		// be appending already.
		err = fmt.Errorf("append %s to debate %s: %w", evs[0].Type, s.ID, ErrLeaseLost)
		return
	}
	// Appends must land even when the run is being cancelled: the pause
	// event is what makes the debate resumable.
	last, aerr := r.Store.Append(context.WithoutCancel(batch[0].ctx), s.ID, evs...)
	if aerr != nil {
		for _, e := range batch {
			if len(e.events) > 0 {
				e.err = fmt.Errorf("append %s to debate %s: %w", e.events[0].Type, s.ID, aerr)
			}
		}
		return
	}
	r.mu.Lock()
	defer r.mu.Unlock()
	first := last - int64(len(evs)) + 1
	if first > s.LastSeq+1 && s.LastSeq > 0 {
		// Another process appended to the log since this runner's last
		// append (a hint or a pause request from the server): fold those
		// events first, so that the state keeps the log's order.
		if err = r.catchUpLocked(batch[0].ctx, s, first); err != nil {
			return
		}
	}
	for i := range evs {
		evs[i].Seq = first + int64(i)
		if err = s.Apply(evs[i]); err != nil {
			return
		}
	}
}
