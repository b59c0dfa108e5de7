package perspectives

import (
	"context"
	"encoding/json"
	"fmt"

	"github.com/parleyhq/parley/internal/setup"
	"github.com/parleyhq/parley/internal/tool"
)

// Setup builds a perspectives debate's options: the catalog (built in,
// extended by a Catalog file and the config file's custom perspectives),
// the number of perspectives, the rounds cap and whether to stop at
// checkpoints.
func (Format) Setup(ctx context.Context, env setup.Env, o *setup.Request) (json.RawMessage, error) {
	cat, err := LoadCatalog(o.String("catalog"))
	if err != nil {
		return nil, &setup.InputError{Err: err}
	}
	if v := o.Value(CustomOption); v != nil {
		custom, ok := v.(Custom)
		if !ok {
			return nil, fmt.Errorf("custom perspectives of type %T, want perspectives.Custom", v)
		}
		if len(custom) > 0 {
			if cat, err = cat.Extend(custom, "the config file's debate.custom_perspectives"); err != nil {
				return nil, &setup.InputError{Err: err}
			}
		}
	}
	rounds := o.Int("max-rounds")
	if o.Has("max-rounds") && rounds < 1 {
		// Validate takes 0 for the default.
		return nil, setup.Inputf("--max-rounds %d: give at least 1", rounds)
	}
	po := Options{Perspectives: o.Int("perspectives"), MaxRounds: rounds, Checkpoints: !o.NoCheckpoints, Catalog: cat}
	if err := po.Validate(); err != nil {
		return nil, &setup.InputError{Err: err}
	}
	return json.Marshal(po)
}

// Prepare checks that a model is configured: perspectives has no data-only
// agents.
func (Format) Prepare(ctx context.Context, env setup.Env, run *setup.Run) (*tool.Registry, error) {
	return nil, setup.NeedModel(Name, run.Cast)
}

var _ setup.Starter = Format{}
