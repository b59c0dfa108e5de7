package cli

import (
	"context"
	"encoding/json"

	"github.com/parleyhq/parley/internal/debate"
	"github.com/parleyhq/parley/internal/format/council"
	"github.com/parleyhq/parley/internal/tool"
)

// councilCLI starts council debates: --agents, --max-rounds (1-5, default 3)
// and --risk.
type councilCLI struct{}

func (councilCLI) Options(ctx context.Context, f *Factory, o *DebateOptions) (json.RawMessage, error) {
	agents, err := council.AgentsFromNames(o.Agents)
	if err != nil {
		return nil, &UsageError{Err: err}
	}
	co := council.Options{Agents: agents, Risk: o.Risk}
	// --max-rounds defaults to the perspectives format's cap; the council's
	// own default applies unless the flag was given.
	if o.set != nil && o.set("max-rounds") {
		if o.MaxRounds < 1 || o.MaxRounds > council.MaxMaxRounds {
			return nil, usageErrorf("--max-rounds %d: the council debates 1 to %d rounds", o.MaxRounds, council.MaxMaxRounds)
		}
		co.MaxRounds = o.MaxRounds
	}
	if err := co.Validate(); err != nil {
		return nil, &UsageError{Err: err}
	}
	return json.Marshal(co)
}

func (councilCLI) Prepare(ctx context.Context, f *Factory, o *DebateOptions, topic string, opts json.RawMessage, cast *debate.Cast) (*tool.Registry, error) {
	if cast.Default.Provider == nil && len(cast.ByRole) == 0 && len(cast.ByAgent) == 0 {
		return nil, &ConfigError{Err: &ErrNoModelConfigured{Format: council.Name}}
	}
	return nil, nil
}
