package server

import (
	"context"
	"errors"
	"sync/atomic"
)

// errRendersBusy is a layout refused because as many as renderSlots
// takes are running and waiting: answered 503 with Retry-After.
var errRendersBusy = errors.New("this server is laying out as many PDFs as it takes: ask again in a few seconds, or export as md or json meanwhile")

// renderSlots bounds the PDF layouts running at once (each takes a core
// and tens of megabytes for seconds with a long debate), and how many wait
// for a slot: readers of many debates' PDFs at once, or a client asking
// for each debate's in turn without waiting, exhausted the CPU and memory
// of the whole server. Readers of one PDF share one layout (the server's
// singleflight) and take one slot.
type renderSlots struct {
	run     chan struct{}
	waiting atomic.Int64
	queue   int64
}

// newRenderSlots lets n layouts run at once and queue more wait.
func newRenderSlots(n, queue int) *renderSlots {
	return &renderSlots{run: make(chan struct{}, n), queue: int64(queue)}
}

// acquire takes a slot, waiting while queue or fewer others wait (or until
// ctx ends); it returns errRendersBusy at once beyond. release gives the
// slot back.
func (r *renderSlots) acquire(ctx context.Context) (release func(), err error) {
	select {
	case r.run <- struct{}{}:
		return r.release, nil
	default:
	}
	if r.waiting.Add(1) > r.queue {
		r.waiting.Add(-1)
		return nil, errRendersBusy
	}
	defer r.waiting.Add(-1)
	select {
	case r.run <- struct{}{}:
		return r.release, nil
	case <-ctx.Done():
		return nil, ctx.Err()
	}
}

func (r *renderSlots) release() { <-r.run }
