package app

import (
	"context"
	"fmt"

	"github.com/parleyhq/parley/internal/debate"
)

// QueueHint queues guidance for an agent's next turn of a debate that has
// not ended, wherever it runs or waits, by appending it to the debate's
// log: the runner that has the debate, in any process, folds it in before
// its next step, and a debate that waits (paused, at a checkpoint, queued)
// reads it when it goes on. A front-end running the debate itself gives
// hints through its Session instead. target and text are checked by the
// caller (ResolveHint). A debate that has ended is ErrCompleted.
func (a *App) QueueHint(ctx context.Context, id, target, text string) (debate.HintQueued, error) {
	events, err := a.Store.Load(ctx, id, 0)
	if err != nil {
		return debate.HintQueued{}, err
	}
	st, err := debate.Fold(events)
	if err != nil {
		return debate.HintQueued{}, err
	}
	if st.Status == debate.StatusCompleted {
		return debate.HintQueued{}, fmt.Errorf("debate %s: %w", id, ErrCompleted)
	}
	n := 0
	for _, h := range st.Hints {
		n = max(n, h.ID)
	}
	h := debate.HintQueued{ID: n + 1, Target: target, Text: text}
	e, err := debate.NewEvent(id, a.now(), h)
	if err != nil {
		return h, err
	}
	if _, err := a.Store.Append(ctx, id, e); err != nil {
		return h, fmt.Errorf("queue the hint for debate %s: %w", id, err)
	}
	return h, nil
}
