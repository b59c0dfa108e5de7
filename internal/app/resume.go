package app

import (
	"context"

	"github.com/parleyhq/parley/internal/debate"
)

// ResumePhase names where a debate will go on: the phase of its next step,
// which is where it stopped ("Phase 2 (Bear Opening)"), or "the start".
func (a *App) ResumePhase(ctx context.Context, id string) (string, error) {
	events, err := a.Store.Load(ctx, id, 0)
	if err != nil {
		return "", err
	}
	st, err := debate.Fold(events)
	if err != nil {
		return "", err
	}
	label := st.Phase.Label
	if format, err := a.Formats.Get(st.Format); err == nil {
		if proto, err := format.Protocol(st.Topic, st.Options); err == nil {
			if step, err := proto.Next(st); err == nil {
				for _, p := range step.Emit {
					if pc, ok := p.(debate.PhaseChanged); ok {
						label = pc.Label
					}
				}
			}
		}
	}
	if label == "" {
		label = "the start"
	}
	return label, nil
}
