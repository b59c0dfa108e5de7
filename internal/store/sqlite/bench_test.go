package sqlite

import (
	"context"
	"fmt"
	"path/filepath"
	"testing"
	"time"

	"github.com/parleyhq/parley/internal/debate"
	"github.com/parleyhq/parley/internal/store/storetest"
)

func benchEvent(b *testing.B, id string, i int) debate.Event {
	e, err := debate.NewEvent(id, time.Unix(1700000000, int64(i)), debate.TurnDelta{Turn: "r1-bull", Text: fmt.Sprintf("token %d ", i)})
	if err != nil {
		b.Fatal(err)
	}
	return e
}

func benchStore(b *testing.B, opts ...Option) *Store {
	s := openAt(b, filepath.Join(b.TempDir(), "parley.db"), opts...)
	e, err := debate.NewEvent("d", time.Unix(1700000000, 0), debate.Created{Format: "bullbear", Topic: "bench"})
	if err != nil {
		b.Fatal(err)
	}
	if _, err := s.Append(context.Background(), "d", e); err != nil {
		b.Fatal(err)
	}
	return s
}

// BenchmarkAppend measures one durable append of a small event (a streamed
// delta), with the default synchronous=FULL and, for comparison, NORMAL; and
// of a batch of 16 events in one transaction.
func BenchmarkAppend(b *testing.B) {
	for _, c := range []struct {
		name  string
		batch int
		opts  []Option
	}{
		{"one/sync=FULL", 1, nil},
		{"one/sync=NORMAL", 1, []Option{withSynchronous("NORMAL")}},
		{"batch16/sync=FULL", 16, nil},
		{"batch16/sync=NORMAL", 16, []Option{withSynchronous("NORMAL")}},
	} {
		b.Run(c.name, func(b *testing.B) {
			s := benchStore(b, c.opts...)
			ctx := context.Background()
			evs := make([]debate.Event, c.batch)
			for i := range evs {
				evs[i] = benchEvent(b, "d", i)
			}
			b.ReportAllocs()
			for b.Loop() {
				if _, err := s.Append(ctx, "d", evs...); err != nil {
					b.Fatal(err)
				}
			}
			b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N*c.batch), "ns/event")
		})
	}
}

// BenchmarkLoad10k measures replaying a debate of 10,000 events.
func BenchmarkLoad10k(b *testing.B) {
	const n = 10_000
	s := benchStore(b)
	ctx := context.Background()
	batch := make([]debate.Event, 0, 500)
	for i := 1; i < n; i++ {
		batch = append(batch, benchEvent(b, "d", i))
		if len(batch) == cap(batch) || i == n-1 {
			if _, err := s.Append(ctx, "d", batch...); err != nil {
				b.Fatal(err)
			}
			batch = batch[:0]
		}
	}
	b.ReportAllocs()
	for b.Loop() {
		evs, err := s.Load(ctx, "d", 0)
		if err != nil {
			b.Fatal(err)
		}
		if len(evs) != n {
			b.Fatalf("loaded %d events, want %d", len(evs), n)
		}
	}
}

// BenchmarkList measures listing 500 debates of 20 completed turns each
// (half data-only, a model without a price among the others; texts of 4 KB,
// as a turn's argument runs): all of them, and the 20 newest as parley
// list shows them. storetest writes and lists the same debates for the
// postgres store's BenchmarkList, so that the two compare.
func BenchmarkList(b *testing.B) {
	s := openAt(b, filepath.Join(b.TempDir(), "parley.db"))
	storetest.BenchList(b, s, storetest.SeedList(b, s))
}
