package cli

import (
	"context"
	"encoding/json"

	"github.com/parleyhq/parley/internal/debate"
	"github.com/parleyhq/parley/internal/format/bullbear"
	"github.com/parleyhq/parley/internal/format/council"
	"github.com/parleyhq/parley/internal/format/crux"
	"github.com/parleyhq/parley/internal/format/formal"
	"github.com/parleyhq/parley/internal/format/perspectives"
	"github.com/parleyhq/parley/internal/tool"
)

// formatCLI adapts one format to `parley debate`: how its flags become the
// options stored with a debate, and what a run needs besides models (tools,
// data-only responders). Each format has one, in a file of its own.
type formatCLI interface {
	// Options builds the format's stored options from the flags of a new
	// debate. Bad flags are *UsageError.
	Options(ctx context.Context, f *Factory, o *DebateOptions) (json.RawMessage, error)
	// Prepare readies a run (new or resumed) of a debate with these options:
	// it may add responders to the cast (data-only agents when no model is
	// configured) and return the tools agents may call (nil for none).
	Prepare(ctx context.Context, f *Factory, o *DebateOptions, topic string, opts json.RawMessage, cast *debate.Cast) (*tool.Registry, error)
}

// formatCLIs lists the adapters of every format the command line knows.
func formatCLIs() map[string]formatCLI {
	return map[string]formatCLI{
		perspectives.Name: perspectivesCLI{},
		council.Name:      councilCLI{},
		crux.Name:         cruxCLI{},
		bullbear.Name:     bullbearCLI{},
		formal.Name:       formalCLI{},
	}
}

// DefaultFormats is the registry of every format Parley ships.
func DefaultFormats() *debate.Formats {
	return debate.NewFormats(perspectives.Format{},
		council.Format{},
		crux.Format{},
		bullbear.Format{},
		formal.Format{},
	)
}

type perspectivesCLI struct{}

func (perspectivesCLI) Options(ctx context.Context, f *Factory, o *DebateOptions) (json.RawMessage, error) {
	cat, err := perspectives.LoadCatalog(o.Catalog)
	if err != nil {
		return nil, &UsageError{Err: err}
	}
	if len(o.customPerspectives) > 0 {
		if cat, err = cat.Extend(o.customPerspectives, "the config file's debate.custom_perspectives"); err != nil {
			return nil, &UsageError{Err: err}
		}
	}
	po := perspectives.Options{Perspectives: o.Perspectives, MaxRounds: o.MaxRounds, Checkpoints: !o.NoCheckpoints, Catalog: cat}
	if err := po.Validate(); err != nil {
		return nil, &UsageError{Err: err}
	}
	return json.Marshal(po)
}

func (perspectivesCLI) Prepare(ctx context.Context, f *Factory, o *DebateOptions, topic string, opts json.RawMessage, cast *debate.Cast) (*tool.Registry, error) {
	if cast.Default.Provider == nil && len(cast.ByRole) == 0 {
		return nil, &ConfigError{Err: &ErrNoModelConfigured{Format: perspectives.Name}}
	}
	return nil, nil
}
