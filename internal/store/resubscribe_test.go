package store_test

import (
	"context"
	"errors"
	"fmt"
	"testing"
	"time"

	"github.com/parleyhq/parley/internal/debate"
	"github.com/parleyhq/parley/internal/store"
	"github.com/parleyhq/parley/internal/store/memstore"
	"github.com/parleyhq/parley/internal/store/storetest"
)

// Resubscribe yields every event once, in order, across a failed read, and
// ends with debate.ErrNotFound for a debate that does not exist and with
// ctx's error when ctx ends.
func TestResubscribe(t *testing.T) {
	ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
	defer cancel()
	mem := memstore.New()
	defer mem.Close()
	const id = "DEB-0000feed"
	at := time.Date(2026, 11, 26, 4, 0, 0, 0, time.UTC)
	add := func(p debate.Payload) { storetest.AppendPayloads(ctx, t, mem, id, at, p) }
	add(debate.Created{Format: "perspectives", Topic: "Redis or PostgreSQL?", Limits: debate.DefaultLimits()})
	for i := 2; i <= 5; i++ {
		add(debate.PhaseChanged{Phase: fmt.Sprintf("r%d", i)})
	}
	go func() { // t.Fatal is for the test's goroutine: errors here are t.Error
		for i := 6; i <= 12; i++ {
			time.Sleep(5 * time.Millisecond)
			e, err := debate.NewEvent(id, at, debate.PhaseChanged{Phase: fmt.Sprintf("r%d", i)})
			if err == nil {
				_, err = mem.Append(ctx, id, e)
			}
			if err != nil {
				t.Error(err)
				return
			}
		}
	}()
	want := int64(1)
	for e, err := range store.Resubscribe(ctx, &storetest.CutStore{Store: mem, FailAfter: 3}, id, 0) {
		if err != nil {
			t.Fatalf("after event %d: %v", want-1, err)
		}
		if e.Seq != want {
			t.Fatalf("event %d, want %d: lost or repeated around the failed read", e.Seq, want)
		}
		if want++; want > 12 {
			break
		}
	}
	var last error
	for _, err := range store.Resubscribe(ctx, mem, "DEB-nowhere", 0) {
		last = err
	}
	if !errors.Is(last, debate.ErrNotFound) {
		t.Fatalf("a debate that does not exist: %v, want ErrNotFound", last)
	}
	short, stop := context.WithCancel(ctx)
	stop()
	for _, err := range store.Resubscribe(short, mem, id, 12) {
		last = err
	}
	if !errors.Is(last, context.Canceled) {
		t.Fatalf("with ctx ended: %v, want context.Canceled", last)
	}
}
