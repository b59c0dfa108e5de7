package apierr

import (
	"context"
	"log/slog"

	"github.com/parleyhq/parley/internal/llm/internal/permodel"
)

// LateFailure says that the server failed (err) after a reply to model
// was complete, its end (field, "stop_reason" or "finish_reason", whose
// value came as value) having come: the reply is kept, and failing the
// call would have it retried and paid for twice. It is said at Warn once
// per model, which seen remembers, and at Debug after, not with every
// reply of a server that always does so.
func LateFailure(ctx context.Context, log *slog.Logger, seen *permodel.Map[bool], provider, model, field, value string, err error) {
	level := slog.LevelWarn
	if seen.Set(model, true, nil) {
		level = slog.LevelDebug
	}
	log.LogAttrs(ctx, level, "the server failed after the reply was complete (its "+field+" had come): the reply is kept",
		slog.String("provider", provider), slog.String("model", model), slog.String(field, Detail(value)), slog.String("error", err.Error()))
}
