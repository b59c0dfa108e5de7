package formattest

import (
	"context"
	"iter"
	"strings"
	"sync"
	"time"

	"github.com/parleyhq/parley/internal/llm"
)

// Barrier is a provider that holds requests whose tag has a prefix until n of
// them are in flight, proving that they run concurrently. A request that
// waits five seconds in vain marks the barrier failed and goes on, so that a
// sequential runner fails the test instead of hanging it.
type Barrier struct {
	llm.Provider
	prefix string
	n      int

	mu      sync.Mutex
	arrived int
	all     chan struct{}
	failed  bool
}

// NewBarrier wraps p with a barrier for n requests whose tag has prefix.
func NewBarrier(p llm.Provider, prefix string, n int) *Barrier {
	return &Barrier{Provider: p, prefix: prefix, n: n, all: make(chan struct{})}
}

// Stream waits at the barrier if the request's tag has the prefix, then
// streams from the wrapped provider.
func (b *Barrier) Stream(ctx context.Context, req llm.Request) iter.Seq2[llm.Chunk, error] {
	if strings.HasPrefix(req.Tag, b.prefix) {
		b.mu.Lock()
		b.arrived++
		if b.arrived == b.n {
			close(b.all)
		}
		b.mu.Unlock()
		select {
		case <-b.all:
		case <-time.After(5 * time.Second):
			b.mu.Lock()
			b.failed = true
			b.mu.Unlock()
		}
	}
	return b.Provider.Stream(ctx, req)
}

// Failed reports whether a request gave up waiting at the barrier.
func (b *Barrier) Failed() bool {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.failed
}
