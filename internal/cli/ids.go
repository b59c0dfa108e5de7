package cli

import (
	"context"

	"github.com/parleyhq/parley/internal/app"
	"github.com/parleyhq/parley/internal/debate"
)

// resolveID turns what the user typed into a debate id (see app.ResolveID).
func resolveID(ctx context.Context, store debate.Store, typed string) (string, error) {
	return app.ResolveID(ctx, store, typed)
}
