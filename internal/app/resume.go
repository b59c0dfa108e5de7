package app

import (
	"context"
	"strings"

	"github.com/parleyhq/parley/internal/debate"
)

// Unfinished finds the newest debate of a format on a topic (compared in any
// case) that has not ended: the spec's resume flow offers to resume it
// rather than start anew. It returns nil when there is none.
func (a *App) Unfinished(ctx context.Context, format, topic string) (*debate.Summary, error) {
	sums, err := a.Store.List(ctx, debate.ListFilter{Format: format})
	if err != nil {
		return nil, err
	}
	for i := range sums {
		if sums[i].Status != debate.StatusCompleted && strings.EqualFold(strings.TrimSpace(sums[i].Topic), strings.TrimSpace(topic)) {
			return &sums[i], nil
		}
	}
	return nil, nil
}

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
