package sqlite

import (
	"context"
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/parleyhq/parley/internal/debate"
)

// BenchmarkAppendTurn measures appending one completed turn (4 KB of text)
// to a debate: the event, the turns row and its indexes, and the summary
// row. synchronous=NORMAL keeps the fsync, which is the same for any
// append, from hiding what the projections cost.
func BenchmarkAppendTurn(b *testing.B) {
	s := benchStore(b, withSynchronous("NORMAL"))
	ctx := context.Background()
	text := strings.Repeat("An argument of some length. ", 150)
	models := []string{"anthropic/claude-sonnet-4-5", "openai/my-finetune", debate.DataOnlyModel}
	i := 0
	b.ReportAllocs()
	for b.Loop() {
		tc := debate.TurnCompleted{Turn: debate.TurnRef{ID: fmt.Sprintf("t%d", i), Agent: "bull", Round: 1}, Text: text, Model: models[i%3]}
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
