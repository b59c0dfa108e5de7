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
	cat, err := LoadCatalog(o.Catalog)
	if err != nil {
		return nil, &setup.InputError{Err: err}
	}
	if o.CustomPerspectives != nil {
		custom, ok := o.CustomPerspectives.([]Perspective)
		if !ok {
			return nil, fmt.Errorf("custom perspectives of type %T, want []perspectives.Perspective", o.CustomPerspectives)
		}
		if len(custom) > 0 {
			if cat, err = cat.Extend(custom, "the config file's debate.custom_perspectives"); err != nil {
				return nil, &setup.InputError{Err: err}
			}
		}
	}
	po := Options{Perspectives: o.Perspectives, MaxRounds: o.MaxRounds, Checkpoints: !o.NoCheckpoints, Catalog: cat}
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
