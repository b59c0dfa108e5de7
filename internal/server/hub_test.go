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
