package postgres

import (
	"context"
	"fmt"
	"testing"
	"time"

	"github.com/parleyhq/parley/internal/debate"
	"github.com/parleyhq/parley/internal/store/postgres/pgtest"
	"github.com/parleyhq/parley/internal/store/storetest"
)

// benchEvent is a note, or a streamed delta as storetest's benchmarks
// append (a microsecond apart: what timestamptz keeps).
func benchEvent(b *testing.B, id string, i int, delta bool) debate.Event {
	if delta {
		return storetest.BenchDelta(b, id, i, time.Microsecond)
	}
	e, err := debate.NewEvent(id, time.Unix(1700000000, int64(i)*1000), debate.Note{Kind: "bench", Text: fmt.Sprintf("note %d", i)})
	if err != nil {
		b.Fatal(err)
	}
	return e
}

// benchStore opens a store on url, with debate "d" created.
func benchStore(b *testing.B, url string) *Store {
	s := openAt(b, url)
	storetest.BenchDebate(b, s)
	return s
}

// BenchmarkAppend measures one append of a small event and of a batch of 16
// in one transaction: durable (a note: synchronous commit) and streamed text
// (turn.delta only: synchronous_commit off, see the package comment).
func BenchmarkAppend(b *testing.B) {
	for _, c := range []struct {
		name  string
		batch int
		delta bool
	}{
		{"one/durable", 1, false},
		{"one/delta", 1, true},
		{"batch16/durable", 16, false},
		{"batch16/delta", 16, true},
	} {
		b.Run(c.name, func(b *testing.B) {
			s := benchStore(b, pgtest.URL(b))
			evs := make([]debate.Event, c.batch)
			for i := range evs {
				evs[i] = benchEvent(b, "d", i, c.delta)
			}
			storetest.BenchAppend(b, s, evs)
		})
	}
}

// BenchmarkLoad10k measures replaying a debate of 10,000 events.
func BenchmarkLoad10k(b *testing.B) {
	storetest.BenchLoad10k(b, benchStore(b, pgtest.URL(b)), time.Microsecond)
}

// BenchmarkCrossStoreWake measures from an append through one store to its
// event reaching a subscriber of another store on the same database (as
// another process would subscribe): the append, NOTIFY, the listener's
// wake-up and the subscriber's read.
func BenchmarkCrossStoreWake(b *testing.B) {
	url := pgtest.URL(b)
	a := benchStore(b, url)
	other := openAt(b, url)
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	got := make(chan int64)
	go func() {
		for e, err := range other.Subscribe(ctx, "d", 1) {
			if err != nil {
				return
			}
			got <- e.Seq
		}
	}()
	e := benchEvent(b, "d", 1, true)
	for b.Loop() {
		last, err := a.Append(ctx, "d", e)
		if err != nil {
			b.Fatal(err)
		}
		select {
		case seq := <-got:
			if seq != last {
				b.Fatalf("subscriber got seq %d, want %d", seq, last)
			}
		case <-time.After(10 * time.Second):
			b.Fatal("the other store's subscriber was not woken")
		}
	}
}

// BenchmarkList measures listing 500 debates of 20 completed turns each
// (half data-only, a model without a price among the others; texts of 4 KB,
// as a turn's argument runs): all of them, and the 20 newest as parley list
// shows them. storetest writes and lists the same debates for the sqlite
// store's BenchmarkList, so that the two compare.
func BenchmarkList(b *testing.B) {
	s := openAt(b, pgtest.URL(b))
	n := storetest.SeedList(b, s)
	// Statistics as autovacuum would have them on a table this size.
	if _, err := s.pool.Exec(context.Background(), `ANALYZE`); err != nil {
		b.Fatal(err)
	}
	storetest.BenchList(b, s, n)
}
