package apierr

import (
	"sync/atomic"
	"time"
)

// Grace ends a stream whose reply is over (the stop_reason or
// finish_reason came) but whose body a server or proxy holds open without
// the event that ends it: after the end only that event (and the counts)
// is due, at once, and a call that waited for its deadline failed as a
// timeout, its reply lost and paid for again. The stream is given a
// while, without more of the reply, to end by itself; events that carry
// none of it (counts sent again and again) do not hold it open.
type Grace struct {
	after time.Duration
	stop  func()
	over  atomic.Bool
	t     *time.Timer
}

// NewGrace returns a Grace that ends a stream by calling stop (its
// context's cancel) after being given after.
func NewGrace(after time.Duration, stop func()) *Grace { return &Grace{after: after, stop: stop} }

// Event is told, after each event of the stream, whether the reply's end
// has come (ended) and whether the event carried more of the reply
// (more): the while starts when the end first comes, and starts again
// with each event that carries more after it.
func (g *Grace) Event(ended, more bool) {
	switch {
	case ended && g.t == nil:
		g.t = time.AfterFunc(g.after, func() {
			g.over.Store(true)
			g.stop()
		})
	case g.t != nil && more:
		g.t.Reset(g.after)
	}
}

// Over reports whether the stream was ended by the Grace: its read error
// is then not a failure.
func (g *Grace) Over() bool { return g.over.Load() }

// Stop stops the timer, if any.
func (g *Grace) Stop() {
	if g.t != nil {
		g.t.Stop()
	}
}
