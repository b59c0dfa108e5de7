package server

import (
	"context"
	"errors"
	"iter"
	"sync"

	"github.com/parleyhq/parley/internal/debate"
	"github.com/parleyhq/parley/internal/store"
)

// hub shares one store subscription per debate among all the event streams
// that follow it: a thousand browsers on one debate cost one reader of the
// log, not a thousand.
type hub struct {
	store debate.Store
	mu    sync.Mutex
	feeds map[string]*feed
}

// feed is one debate's shared subscription and its followers.
type feed struct {
	cancel    context.CancelFunc
	followers map[chan *debate.Event]struct{}
}

// followerBuffer is how far a follower may fall behind the feed before it
// is dropped: its stream ends, and a client reconnects with Last-Event-ID
// and catches up from the log.
const followerBuffer = 1024

// replayPage is how many events of the log a stream reads at a time.
const replayPage = 256

// errTooSlow ends the stream of a follower that fell behind.
var errTooSlow = errors.New("the client fell behind the debate; reconnect to catch up from the log")

// follow yields a debate's events after afterSeq: those in the log, then
// each new one, until ctx ends (then ctx.Err() once), or the follower falls
// behind (errTooSlow).
func (h *hub) follow(ctx context.Context, id string, afterSeq int64) iter.Seq2[debate.Event, error] {
	return func(yield func(debate.Event, error) bool) {
		ch, err := h.attach(ctx, id)
		if err != nil {
			yield(debate.Event{}, err)
			return
		}
		defer h.detach(id, ch)
		// Attached first, then the log: the feed started no later than
		// this load, so the two together hold every event; seq dedupes.
		// The log is read a page at a time: a whole one held per stream
		// (megabytes for a long debate's streamed text) is hundreds of
		// megabytes when a few hundred browsers reconnect at once.
		last := afterSeq
		for {
			events, err := h.store.LoadN(ctx, id, last, replayPage)
			if err != nil {
				yield(debate.Event{}, err)
				return
			}
			for _, e := range events {
				if !yield(e, nil) {
					return
				}
				last = e.Seq
			}
			if len(events) < replayPage {
				break
			}
		}
		for {
			select {
			case <-ctx.Done():
				yield(debate.Event{}, ctx.Err())
				return
			case p, ok := <-ch:
				if !ok {
					yield(debate.Event{}, errTooSlow)
					return
				}
				e := *p
				if e.Seq <= last {
					continue
				}
				if !yield(e, nil) {
					return
				}
				last = e.Seq
			}
		}
	}
}

// attach adds a follower, starting the debate's feed from the end of its
// log if it has none.
//
// The end of the log is read without the hub's lock, with the follower's
// context: every feed's events go out under that lock, so a read held up
// (a database that stopped answering) would stop every stream of every
// debate, and would outlive the client that asked. Read before the feed
// starts, the end is no later than the follower's own read of the log,
// which follow does after attaching; a feed another follower started
// meanwhile started no later either.
func (h *hub) attach(ctx context.Context, id string) (chan *debate.Event, error) {
	ch := make(chan *debate.Event, followerBuffer)
	if h.join(id, ch) {
		return ch, nil
	}
	sum, err := h.store.Get(ctx, id)
	if err != nil {
		return nil, err
	}
	h.mu.Lock()
	defer h.mu.Unlock()
	if h.feeds == nil {
		h.feeds = map[string]*feed{}
	}
	f, ok := h.feeds[id]
	if !ok {
		fctx, cancel := context.WithCancel(context.Background())
		f = &feed{cancel: cancel, followers: map[chan *debate.Event]struct{}{}}
		h.feeds[id] = f
		go h.run(fctx, id, sum.LastSeq, f)
	}
	f.followers[ch] = struct{}{}
	return ch, nil
}

// join adds a follower to the debate's feed if it has one.
func (h *hub) join(id string, ch chan *debate.Event) bool {
	h.mu.Lock()
	defer h.mu.Unlock()
	f, ok := h.feeds[id]
	if ok {
		f.followers[ch] = struct{}{}
	}
	return ok
}

// detach removes a follower; the last one stops the feed.
func (h *hub) detach(id string, ch chan *debate.Event) {
	h.mu.Lock()
	defer h.mu.Unlock()
	f := h.feeds[id]
	if f == nil {
		return
	}
	if _, ok := f.followers[ch]; ok {
		delete(f.followers, ch)
		close(ch)
	}
	if len(f.followers) == 0 {
		f.cancel()
		delete(h.feeds, id)
	}
}

// run reads the debate's log once for all its followers. A follower whose
// buffer is full is dropped rather than slowing the others. A read that
// fails (PostgreSQL restarting, a connection cut) is retried from the last
// event read (store.Resubscribe), rather than ending every follower's
// stream: a client that follows with curl, or any reader that takes the end
// of the stream for the end of the debate, would stop there.
func (h *hub) run(ctx context.Context, id string, after int64, f *feed) {
	for e, err := range store.Resubscribe(ctx, h.store, id, after) {
		if err != nil {
			break
		}
		// One event for every follower, read-only: each follower's
		// buffer holds pointers (8 bytes an event, not the event's 88),
		// so that a thousand streams' buffers take 8 MB, not 90.
		p := &e
		h.mu.Lock()
		for ch := range f.followers {
			select {
			case ch <- p:
			default:
				delete(f.followers, ch)
				close(ch)
			}
		}
		h.mu.Unlock()
	}
	// The subscription ended (the debate was deleted, or the store
	// closed): end every follower's stream; clients reconnect.
	h.mu.Lock()
	defer h.mu.Unlock()
	if h.feeds[id] == f {
		for ch := range f.followers {
			close(ch)
		}
		f.followers = map[chan *debate.Event]struct{}{}
		delete(h.feeds, id)
	}
}
