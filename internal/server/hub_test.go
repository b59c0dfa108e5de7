package server

import (
	"context"
	"fmt"
	"net/http"
	"net/http/httptest"
	"sync/atomic"
	"testing"
	"time"

	"github.com/parleyhq/parley/internal/debate"
	"github.com/parleyhq/parley/internal/store/memstore"
	"github.com/parleyhq/parley/internal/store/storetest"
)

// A read of the log that fails while followers follow a debate is retried:
// they get every event after it, and their streams do not end as if the
// debate had.
func TestFeedSurvivesAFailedRead(t *testing.T) {
	ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
	defer cancel()
	mem := memstore.New()
	defer mem.Close()
	const id = "DEB-0000feed"
	at := time.Date(2026, 11, 26, 4, 0, 0, 0, time.UTC)
	appendEvent := func(p debate.Payload) { storetest.AppendPayloads(ctx, t, mem, id, at, p) }
	appendEvent(debate.Created{Format: "perspectives", Topic: "Redis or PostgreSQL?", Limits: debate.DefaultLimits()})
	h := &hub{store: &storetest.CutStore{Store: mem, FailAfter: 3}}
	const total = 12
	got := make(chan int64, total)
	done := make(chan error, 1)
	go func() {
		for e, err := range h.follow(ctx, id, 0) {
			if err != nil {
				done <- err
				return
			}
			got <- e.Seq
			if e.Seq == total {
				done <- nil
				return
			}
		}
	}()
	<-got // the log's first event: the follower is attached
	for i := 2; i <= total; i++ {
		appendEvent(debate.PhaseChanged{Phase: fmt.Sprintf("r%d", i), Label: fmt.Sprintf("Round %d", i)})
		time.Sleep(5 * time.Millisecond)
	}
	if err := <-done; err != nil {
		t.Fatalf("the follower's stream ended after a failed read: %v", err)
	}
	close(got)
	want := int64(2)
	for seq := range got {
		if seq != want {
			t.Fatalf("event %d, want %d: events lost or repeated around the failed read", seq, want)
		}
		want++
	}
}

// stuckGet is a store whose Get of one debate waits until its context
// ends: a database that stopped answering.
type stuckGet struct {
	debate.Store
	id      string
	waiting chan struct{}
}

func (s *stuckGet) Get(ctx context.Context, id string) (debate.Summary, error) {
	if id == s.id {
		close(s.waiting)
		<-ctx.Done()
		return debate.Summary{}, ctx.Err()
	}
	return s.Store.Get(ctx, id)
}

// A follower whose first read of a debate is held up (the database stopped
// answering) holds up no other stream: the followers of another debate
// get its events meanwhile, and the held-up one ends with its client.
func TestStuckFollowerHoldsNoOtherStream(t *testing.T) {
	ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
	defer cancel()
	mem := memstore.New()
	defer mem.Close()
	const live, stuck = "DEB-00001ive", "DEB-0000stuc"
	at := time.Date(2026, 11, 26, 4, 0, 0, 0, time.UTC)
	for _, id := range []string{live, stuck} {
		storetest.AppendPayloads(ctx, t, mem, id, at, debate.Created{Format: "perspectives", Topic: "Redis or PostgreSQL?", Limits: debate.DefaultLimits()})
	}
	st := &stuckGet{Store: mem, id: stuck, waiting: make(chan struct{})}
	h := &hub{store: st}
	got := make(chan int64, 8)
	go func() {
		for e, err := range h.follow(ctx, live, 0) {
			if err != nil {
				return
			}
			got <- e.Seq
		}
	}()
	if seq := <-got; seq != 1 {
		t.Fatalf("first event %d", seq)
	}
	sctx, scancel := context.WithCancel(ctx)
	ended := make(chan error, 1)
	go func() {
		for _, err := range h.follow(sctx, stuck, 0) {
			ended <- err
			return
		}
	}()
	<-st.waiting
	storetest.AppendPayloads(ctx, t, mem, live, at, debate.PhaseChanged{Phase: "r1", Label: "Round 1"})
	select {
	case seq := <-got:
		if seq != 2 {
			t.Fatalf("event %d, want 2", seq)
		}
	case <-ctx.Done():
		t.Fatal("a follower held up reading one debate held up the stream of another")
	}
	scancel()
	select {
	case err := <-ended:
		if err == nil {
			t.Fatal("the held-up follower got an event")
		}
	case <-ctx.Done():
		t.Fatal("the held-up follower did not end with its client")
	}
}

// pagedLoads records the most events one read of a log returned.
type pagedLoads struct {
	debate.Store
	most atomic.Int64
}

func (s *pagedLoads) Load(ctx context.Context, id string, after int64) ([]debate.Event, error) {
	return s.LoadN(ctx, id, after, 0)
}

func (s *pagedLoads) LoadN(ctx context.Context, id string, after int64, n int) ([]debate.Event, error) {
	evs, err := s.Store.LoadN(ctx, id, after, n)
	for m := s.most.Load(); int64(len(evs)) > m && !s.most.CompareAndSwap(m, int64(len(evs))); m = s.most.Load() {
	}
	return evs, err
}

// A stream replays a long log a page at a time, not whole (a few hundred
// streams of a long debate held megabytes each), and still gets every
// event once, in order, from wherever it starts, then the live ones.
func TestReplayReadsPages(t *testing.T) {
	ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
	defer cancel()
	mem := memstore.New()
	defer mem.Close()
	const id = "DEB-0000page"
	at := time.Date(2026, 11, 26, 4, 0, 0, 0, time.UTC)
	ps := []debate.Payload{debate.Created{Format: "perspectives", Topic: "Redis or PostgreSQL?", Limits: debate.DefaultLimits()}}
	for i := range 2*replayPage + 2 {
		ps = append(ps, debate.TurnDelta{Turn: "r1/argument/a", Text: fmt.Sprintf("token %d ", i)})
	}
	storetest.AppendPayloads(ctx, t, mem, id, at, ps...)
	logged := int64(len(ps))
	st := &pagedLoads{Store: mem}
	h := &hub{store: st}
	for _, after := range []int64{0, replayPage, logged - 1} {
		fctx, fcancel := context.WithCancel(ctx)
		want := after + 1
		live := false
		for e, err := range h.follow(fctx, id, after) {
			if err != nil {
				t.Fatalf("after %d: %v", after, err)
			}
			if e.Seq != want {
				t.Fatalf("after %d: event %d, want %d", after, e.Seq, want)
			}
			want++
			if e.Seq == logged && !live {
				// The log replayed: one more, appended now, comes live.
				live = true
				storetest.AppendPayloads(ctx, t, mem, id, at, debate.PhaseChanged{Phase: "r2", Label: "Round 2"})
			}
			if e.Seq == logged+1 {
				logged++
				fcancel()
				break
			}
		}
		fcancel()
		if !live {
			t.Fatalf("after %d: the stream ended before the log's end", after)
		}
	}
	if most := st.most.Load(); most > replayPage {
		t.Errorf("a read of the log returned %d events, more than a page (%d)", most, replayPage)
	}
}

// lateWriter is a ResponseWriter that counts the writes made to it after
// its handler returned, which net/http forbids: it may be finishing the
// response, or serving the connection's next request, meanwhile.
type lateWriter struct {
	http.ResponseWriter
	returned atomic.Bool
	late     atomic.Int64
}

func (w *lateWriter) Write(p []byte) (int, error) {
	if w.returned.Load() {
		w.late.Add(1)
	}
	return w.ResponseWriter.Write(p)
}

func (w *lateWriter) Flush() {}

// TestStreamHeartbeatEndsWithTheStream: an event stream's heartbeat stops
// before its handler returns, not when net/http cancels the request's
// context after: a beat in between wrote to a response that was no longer
// the handler's.
func TestStreamHeartbeatEndsWithTheStream(t *testing.T) {
	ts := newTestServer(t, nil, "")
	ts.heartbeat = time.Millisecond
	id := "DEB-0000beat"
	for _, p := range []debate.Payload{debate.Created{Format: "perspectives", Topic: "t", Limits: debate.DefaultLimits()}, debate.Completed{}} {
		e, _ := debate.NewEvent(id, time.Now(), p)
		if _, err := ts.app.Store.Append(t.Context(), id, e); err != nil {
			t.Fatal(err)
		}
	}
	for range 20 {
		// The request's context is cancelled only well after the handler
		// returned, as a connection's may be.
		ctx, cancel := context.WithCancel(t.Context())
		req := httptest.NewRequestWithContext(ctx, "GET", "/api/debates/"+id+"/events", nil)
		req.SetPathValue("id", id)
		w := &lateWriter{ResponseWriter: httptest.NewRecorder()}
		ts.apiEvents(w, req)
		w.returned.Store(true)
		time.Sleep(20 * time.Millisecond)
		cancel()
		if n := w.late.Load(); n > 0 {
			t.Fatalf("the stream's heartbeat wrote %d times after its handler returned", n)
		}
	}
}
