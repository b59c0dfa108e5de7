package server

import (
	"context"
	"fmt"
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
