package sqlite

import (
	"testing"

	"github.com/parleyhq/parley/internal/store/storetest"
)

// BenchmarkAppendTurn measures appending one completed turn (4 KB of text)
// to a debate: the event, the turns row and its indexes, and the summary
// row. synchronous=NORMAL keeps the fsync, which is the same for any
// append, from hiding what the projections cost.
func BenchmarkAppendTurn(b *testing.B) {
	storetest.BenchAppendTurn(b, benchStore(b, withSynchronous("NORMAL")))
}
