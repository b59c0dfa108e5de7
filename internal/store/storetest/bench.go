package storetest

import (
	"cmp"
	"context"
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/parleyhq/parley/internal/debate"
)

// The benchmarks here are the bodies the SQL stores' benchmarks share, so
// that their figures measure the same work and can be compared store
// against store; each store's benchmark opens the store (with its own
// settings) and calls one of them.

// turnText is a completed turn's text in the benchmarks: 4 KB, as a turn's
// argument runs.
var turnText = strings.Repeat("An argument of some length. ", 150)

// BenchAppendTurn measures appending one completed turn (4 KB of text) to
// debate "d", which BenchDebate created in s: the event, the turns row and its
// indexes, and the summary row. The models cycle through a priced one, one
// without a price and the data-only one, so that each projection's path is
// taken.
func BenchAppendTurn(b *testing.B, s debate.Store) {
	ctx := context.Background()
	models := []string{"anthropic/claude-sonnet-4-5", "openai/my-finetune", debate.DataOnlyModel}
	i := 0
	b.ReportAllocs()
	for b.Loop() {
		tc := debate.TurnCompleted{Turn: debate.TurnRef{ID: fmt.Sprintf("t%d", i), Agent: "bull", Round: 1}, Text: turnText, Model: models[i%3]}
		if tc.Model == debate.DataOnlyModel {
			tc.NoLLM = true
		}
		e, err := debate.NewEvent("d", time.Unix(1700000000, int64(i)), tc)
		if err != nil {
			b.Fatal(err)
		}
		if _, err := s.Append(ctx, "d", e); err != nil {
			b.Fatal(err)
		}
		i++
	}
}

// SeedList writes to the empty store s the debates BenchList lists: 500
// debates of 20 completed turns each (half data-only, a model without a
// price among the others; texts of 4 KB). It returns how many debates it
// wrote.
func SeedList(b *testing.B, s debate.Store) (debates int) {
	const n, turns = 500, 20
	ctx := context.Background()
	for d := range n {
		id := fmt.Sprintf("DEB-%04d", d)
		at := time.Unix(1700000000+int64(d), 0)
		evs := []debate.Event{}
		add := func(p debate.Payload) {
			e, err := debate.NewEvent(id, at, p)
			if err != nil {
				b.Fatal(err)
			}
			evs = append(evs, e)
		}
		add(debate.Created{Format: "bullbear", Topic: "bench"})
		for i := range turns {
			ref := debate.TurnRef{ID: fmt.Sprintf("t%d", i), Agent: "bull", Round: 1}
			switch {
			case i%2 == 0:
				add(debate.TurnCompleted{Turn: ref, Text: turnText, NoLLM: true, Model: debate.DataOnlyModel})
			case i%5 == 1:
				add(debate.TurnCompleted{Turn: ref, Text: turnText, Model: "openai/my-finetune"})
			default:
				add(debate.TurnCompleted{Turn: ref, Text: turnText, Model: "anthropic/claude-sonnet-4-5", CostUSD: 0.01})
			}
		}
		if _, err := s.Append(ctx, id, evs...); err != nil {
			b.Fatal(err)
		}
	}
	return n
}

// BenchList measures listing the debates SeedList wrote to s (debates is
// what it returned): all of them, and the 20 newest as parley list shows
// them.
func BenchList(b *testing.B, s debate.Store, debates int) {
	ctx := context.Background()
	for _, c := range []struct {
		name  string
		limit int
	}{{"all", 0}, {"newest20", 20}} {
		b.Run(c.name, func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				sums, err := s.List(ctx, debate.ListFilter{Limit: c.limit})
				if err != nil {
					b.Fatal(err)
				}
				if want := cmp.Or(c.limit, debates); len(sums) != want {
					b.Fatalf("listed %d debates, want %d", len(sums), want)
				}
			}
		})
	}
}

// BenchDebate creates debate "d" in s, which the other benchmarks here (but
// SeedList's) append to or read.
func BenchDebate(b *testing.B, s debate.Store) {
	e, err := debate.NewEvent("d", time.Unix(1700000000, 0), debate.Created{Format: "bullbear", Topic: "bench"})
	if err != nil {
		b.Fatal(err)
	}
	if _, err := s.Append(context.Background(), "d", e); err != nil {
		b.Fatal(err)
	}
}

// BenchDelta is the ith streamed delta of a turn of debate id in the
// benchmarks, at i steps after the benchmarks' epoch: step is the store's
// time precision (see TimePrecision; 1 for nanoseconds), so that each
// event keeps a time of its own.
func BenchDelta(b *testing.B, id string, i int, step time.Duration) debate.Event {
	e, err := debate.NewEvent(id, time.Unix(1700000000, 0).Add(time.Duration(i)*step), debate.TurnDelta{Turn: "r1-bull", Text: fmt.Sprintf("token %d ", i)})
	if err != nil {
		b.Fatal(err)
	}
	return e
}

// BenchLoad10k measures replaying a debate of 10,000 events: debate "d",
// which BenchDebate created in s, with 9,999 streamed deltas appended in
// batches of 500. step is as for BenchDelta.
func BenchLoad10k(b *testing.B, s debate.Store, step time.Duration) {
	const n = 10_000
	ctx := context.Background()
	batch := make([]debate.Event, 0, 500)
	for i := 1; i < n; i++ {
		batch = append(batch, BenchDelta(b, "d", i, step))
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

// BenchAppend measures appending evs to debate "d" in s (which BenchDebate
// created) as one batch, again and again; besides ns/op it reports
// ns/event, so that batches of different sizes compare.
func BenchAppend(b *testing.B, s debate.Store, evs []debate.Event) {
	ctx := context.Background()
	b.ReportAllocs()
	for b.Loop() {
		if _, err := s.Append(ctx, "d", evs...); err != nil {
			b.Fatal(err)
		}
	}
	b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N*len(evs)), "ns/event")
}
