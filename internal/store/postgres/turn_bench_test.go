package postgres

import (
	"testing"

	"github.com/parleyhq/parley/internal/store/postgres/pgtest"
	"github.com/parleyhq/parley/internal/store/storetest"
)

// BenchmarkAppendTurn measures appending one completed turn (4 KB of text)
// to a debate: the event, the turns row and its indexes, and the summary
// row; each append is a durable commit.
func BenchmarkAppendTurn(b *testing.B) {
	storetest.BenchAppendTurn(b, benchStore(b, pgtest.URL(b)))
}
