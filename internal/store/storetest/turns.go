package storetest

import (
	"context"
	"encoding/json"
	"errors"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	"github.com/parleyhq/parley/internal/debate"
	"github.com/parleyhq/parley/internal/llm"
	"github.com/parleyhq/parley/internal/store/internal/sqlsum"
)

// TurnsStore is a SQL store with its turns projection: the completed turns
// of a debate, which debate.Store does not expose.
type TurnsStore interface {
	debate.Store
	Turns(ctx context.Context, debateID string) ([]sqlsum.Turn, error)
}

// TurnsProjection checks the turns projection of an empty store s: Turns of
// an unknown debate is debate.ErrNotFound; a completed turn's row holds
// every field of its event (the move compacted, as encoding the event left
// it), a started turn or streamed text makes none; the summary counts the
// turns and their cost; and a failed append leaves no row behind. step is
// the store's time precision (see TimePrecision; 1 for nanoseconds): the
// events are that far apart so that each time round-trips exactly.
func TurnsProjection(t *testing.T, s TurnsStore, step time.Duration) {
	t.Helper()
	ctx := t.Context()
	t0 := time.Date(2025, 5, 6, 7, 8, 9, 0, time.UTC).Add(10 * step)
	bull := debate.TurnCompleted{
		Turn: debate.TurnRef{ID: "r1-bull", Agent: "bull", Role: "advocate", Label: "Bull opening", Phase: "opening", Round: 1},
		Text: "Cheap.", Move: json.RawMessage(`{"claim": "cheap"}`), Model: "openai/gpt",
		Usage: llm.Usage{InputTokens: 10, OutputTokens: 20, CacheReadTokens: 30, CacheWriteTokens: 40}, CostUSD: 1.5,
	}
	bear := debate.TurnCompleted{Turn: debate.TurnRef{ID: "r1-bear", Agent: "bear", Round: 1}, Text: "Dear.", Invalid: "missing verdict"}
	if _, err := s.Turns(ctx, "d"); !errors.Is(err, debate.ErrNotFound) {
		t.Fatalf("Turns of an unknown debate: err = %v, want ErrNotFound", err)
	}
	if _, err := s.Append(ctx, "d",
		Event(t, "d", t0, debate.Created{Format: "bullbear", Topic: "t"}),
		Event(t, "d", t0.Add(step), debate.TurnStarted{Turn: bull.Turn}),
		Event(t, "d", t0.Add(2*step), bull),
	); err != nil {
		t.Fatal(err)
	}
	if _, err := s.Append(ctx, "d", Event(t, "d", t0.Add(3*step), debate.TurnDelta{Turn: "r1-bear", Text: "De"}),
		Event(t, "d", t0.Add(4*step), bear)); err != nil {
		t.Fatal(err)
	}
	got, err := s.Turns(ctx, "d")
	if err != nil {
		t.Fatal(err)
	}
	want := []sqlsum.Turn{
		// The move is compact: encoding the event compacted it.
		{Debate: "d", Seq: 3, Time: t0.Add(2 * step), Ref: bull.Turn, Text: bull.Text, Move: json.RawMessage(`{"claim":"cheap"}`), Model: bull.Model, Usage: bull.Usage, CostUSD: bull.CostUSD},
		{Debate: "d", Seq: 5, Time: t0.Add(4 * step), Ref: bear.Turn, Text: bear.Text, Invalid: bear.Invalid},
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("turns (-want +got):\n%s", diff)
	}
	if sum, err := s.Get(ctx, "d"); err != nil || sum.CostUSD != 1.5 || sum.Turns != 2 {
		t.Errorf("summary after two turns: %+v (%v), want cost 1.5 and 2 turns", sum, err)
	}
	// A failed append leaves no turn row behind.
	if _, err := s.Append(ctx, "d", Event(t, "d", t0.Add(5*step), bear), debate.Event{Type: "x", Time: t0, Data: json.RawMessage(`{`)}); err == nil {
		t.Fatal("append with invalid data succeeded")
	}
	if got, err := s.Turns(ctx, "d"); err != nil || len(got) != 2 {
		t.Fatalf("after a failed append: %d turns, err %v; want 2", len(got), err)
	}
}
