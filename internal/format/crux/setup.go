package crux

import (
	"context"
	"encoding/json"
	"strings"

	"github.com/parleyhq/parley/internal/setup"
	"github.com/parleyhq/parley/internal/tool"
)

// Setup builds a crux debate's options: two personas by name (Agents), from
// the built-in personas or a Personas file; with none named, the moderator
// casts two opposed personas from the catalog, or its own.
func (Format) Setup(ctx context.Context, env setup.Env, o *setup.Request) (json.RawMessage, error) {
	ps, err := LoadPersonas(o.String("personas"))
	if err != nil {
		return nil, &setup.InputError{Err: err}
	}
	var co Options
	if len(o.Strings("agents")) == 0 {
		for _, id := range ps.IDs() {
			co.Catalog = append(co.Catalog, ps[id])
		}
		env.Noticef("No --agents: the moderator chooses two opposed personas for the topic (from %s, or its own).", strings.Join(ps.IDs(), ", "))
	} else {
		sel, err := ps.Select(o.Strings("agents"))
		if err != nil {
			return nil, &setup.InputError{Err: err}
		}
		co.Personas = sel
	}
	if err := co.Validate(); err != nil {
		return nil, &setup.InputError{Err: err}
	}
	return json.Marshal(co)
}

// Prepare checks that a model is configured: crux has no data-only agents.
func (Format) Prepare(ctx context.Context, env setup.Env, run *setup.Run) (*tool.Registry, error) {
	return nil, setup.NeedModel(Name, run.Cast)
}

var _ setup.Starter = Format{}
