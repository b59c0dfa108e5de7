package debate_test

import (
	"context"
	"errors"
	"iter"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/parleyhq/parley/internal/debate"
	"github.com/parleyhq/parley/internal/llm"
	"github.com/parleyhq/parley/internal/llm/script"
)

// gatedStore holds back the append of one turn's completion until released,
// as a slow disk sync would.
type gatedStore struct {
	debate.Store
	turn    string
	blocked chan struct{} // closed when the gated append is waiting
	release chan struct{}
	once    sync.Once
	// returned is set once the gated append has returned.
	returned atomic.Bool
}

func (g *gatedStore) Append(ctx context.Context, id string, evs ...debate.Event) (int64, error) {
	for _, e := range evs {
		var tc debate.TurnCompleted
		if e.Type == debate.TypeTurnCompleted && e.Decode(&tc) == nil && tc.Turn.ID == g.turn {
			g.once.Do(func() { close(g.blocked) })
			<-g.release
			defer g.returned.Store(true)
			break
		}
	}
	return g.Store.Append(ctx, id, evs...)
}

// countingProto counts Next calls, to see whether the runner went on.
type countingProto struct {
	*toyProto
	nexts atomic.Int32
}

func (p *countingProto) Next(s *debate.State) (debate.Step, error) {
	p.nexts.Add(1)
	return p.toyProto.Next(s)
}

// TestLockNotHeldAcrossStoreWrite: while the store writes (and syncs) one
// turn's completion, a concurrent turn can still do what needs the runner's
// lock (its parse runs under it), and the runner does not go on as if the
// completion were durable before the store returned.
func TestLockNotHeldAcrossStoreWrite(t *testing.T) {
	e := newEnv(t, script.Rule{TagPrefix: "a", Reply: text("alpha")}, script.Rule{TagPrefix: "b", Reply: text("beta")})
	g := &gatedStore{Store: e.store, turn: "a", blocked: make(chan struct{}), release: make(chan struct{})}
	released := sync.OnceFunc(func() { close(g.release) })
	t.Cleanup(released)

	bParsed := make(chan struct{})
	p := &countingProto{toyProto: &toyProto{
		steps: []toyStep{turns(turn("a", "alpha", 1), turn("b", "beta", 1))},
		parse: func(ts debate.TurnSpec, text string) (any, error) {
			if ts.ID == "b" {
				close(bParsed)
			}
			return toyMove{Text: text}, nil
		},
	}}
	// a streams once b's call began (so b's turn.started is stored), and
	// b's stream starts only once a's completion is stuck in the store, so
	// that b parses (under the runner's lock) while a's append is in flight.
	bCalled := make(chan struct{})
	prov := &hookProvider{Provider: e.prov, before: func(ctx context.Context, req llm.Request) {
		wait := bCalled
		if req.Tag == "b" {
			close(bCalled)
			wait = g.blocked
		}
		select {
		case <-wait:
		case <-ctx.Done():
		}
	}}
	r := e.newRunner(prov)
	r.Store = g
	e.create("d1", testLimits())

	done := make(chan error, 1)
	var st *debate.State
	go func() {
		var err error
		st, err = r.Run(context.Background(), "d1", p)
		done <- err
	}()
	select {
	case <-g.blocked:
	case <-time.After(10 * time.Second):
		t.Fatal("turn a's completion never reached the store")
	}
	select {
	case <-bParsed:
	case <-time.After(5 * time.Second):
		released()
		t.Fatal("turn b could not parse its reply while turn a's completion was being written: the runner's lock is held across the store's write")
	}
	nexts := p.nexts.Load()
	time.Sleep(20 * time.Millisecond) // room for a runner that did not wait
	if n := p.nexts.Load(); n != nexts {
		t.Errorf("the runner asked for the next step (%d calls, %d before) while turn a's completion was not yet stored", n, nexts)
	}
	released()
	if err := <-done; err != nil {
		t.Fatal(err)
	}
	if !g.returned.Load() {
		t.Fatal("the gated append never returned")
	}
	if st.Completed("a") == nil || st.Completed("b") == nil {
		t.Fatalf("turns not completed: a=%v b=%v", st.Completed("a"), st.Completed("b"))
	}
	// The state the run returned is the log's fold: the log's order is the
	// order the runner folded its events in.
	folded := e.fold("d1")
	if folded.LastSeq != st.LastSeq || folded.Completed("a").Text != "alpha" || folded.Completed("b").Text != "beta" {
		t.Errorf("the log (last %d) and the run's state (last %d) differ", folded.LastSeq, st.LastSeq)
	}
}

// failingDeltaStore fails every batch that holds a delta.
type failingDeltaStore struct{ debate.Store }

var errDisk = errors.New("disk full")

func (f failingDeltaStore) Append(ctx context.Context, id string, evs ...debate.Event) (int64, error) {
	for _, e := range evs {
		if e.Type == debate.TypeTurnDelta {
			return 0, errDisk
		}
	}
	return f.Store.Append(ctx, id, evs...)
}

// TestDeltaWriteFailureFailsTheTurn: deltas are handed to the store without
// waiting, but a failed write still fails the attempt, as it did when each
// delta was written before the stream went on; the turn never counts as
// completed on a store that lost its text.
func TestDeltaWriteFailureFailsTheTurn(t *testing.T) {
	e := newEnv(t, script.Rule{TagPrefix: "a", Reply: text("alpha")})
	r := e.newRunner(&slowChunks{Provider: e.prov, n: 4})
	r.Store = failingDeltaStore{e.store}
	r.FlushEvery = -1 // every chunk is a delta
	e.create("d1", testLimits())
	_, err := r.Run(context.Background(), "d1", &toyProto{steps: []toyStep{turns(turn("a", "alpha", 1))}})
	if !errors.Is(err, errDisk) {
		t.Fatalf("run: %v, want the store's error", err)
	}
	if s := e.fold("d1"); s.Completed("a") != nil {
		t.Error("turn a completed although its streamed text could not be stored")
	}
}

// slowChunks repeats a provider's stream n times, a millisecond apart, so
// that a delta's write has settled before the next chunk.
type slowChunks struct {
	llm.Provider
	n int
}

func (s *slowChunks) Stream(ctx context.Context, req llm.Request) iter.Seq2[llm.Chunk, error] {
	return func(yield func(llm.Chunk, error) bool) {
		for range s.n {
			for c, err := range s.Provider.Stream(ctx, req) {
				if c.Usage != nil || c.StopReason != "" {
					continue
				}
				if !yield(c, err) {
					return
				}
			}
			time.Sleep(time.Millisecond)
		}
	}
}
