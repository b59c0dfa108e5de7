package sqlite

import (
	"path/filepath"
	"testing"

	"github.com/parleyhq/parley/internal/debate"
	"github.com/parleyhq/parley/internal/store/storetest"
)

// benchStore opens a store on a new database, with debate "d" created.
func benchStore(b *testing.B, opts ...Option) *Store {
	s := openAt(b, filepath.Join(b.TempDir(), "parley.db"), opts...)
	storetest.BenchDebate(b, s)
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
			evs := make([]debate.Event, c.batch)
			for i := range evs {
				evs[i] = storetest.BenchDelta(b, "d", i, 1)
			}
			storetest.BenchAppend(b, s, evs)
		})
	}
}

// BenchmarkLoad10k measures replaying a debate of 10,000 events.
func BenchmarkLoad10k(b *testing.B) {
	storetest.BenchLoad10k(b, benchStore(b), 1)
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
