package cli

import (
	"context"
	"encoding/json"
	"fmt"
	"strings"

	"github.com/parleyhq/parley/internal/debate"
	"github.com/parleyhq/parley/internal/format/crux"
	"github.com/parleyhq/parley/internal/tool"
)

// cruxCLI starts crux debates: two personas by --agents, from the built-in
// personas or a --personas FILE.
type cruxCLI struct{}

func (cruxCLI) Options(ctx context.Context, f *Factory, o *DebateOptions) (json.RawMessage, error) {
	ps, err := crux.LoadPersonas(o.Personas)
	if err != nil {
		return nil, &UsageError{Err: err}
	}
	var co crux.Options
	if len(o.Agents) == 0 {
		// The moderator casts two opposed personas for the topic.
		for _, id := range ps.IDs() {
			co.Catalog = append(co.Catalog, ps[id])
		}
		fmt.Fprintf(f.IO.ErrOut, "No --agents: the moderator chooses two opposed personas for the topic (from %s, or its own).\n", strings.Join(ps.IDs(), ", "))
	} else {
		sel, err := ps.Select(o.Agents)
		if err != nil {
			return nil, &UsageError{Err: err}
		}
		co.Personas = sel
	}
	if err := co.Validate(); err != nil {
		return nil, &UsageError{Err: err}
	}
	return json.Marshal(co)
}

func (cruxCLI) Prepare(ctx context.Context, f *Factory, o *DebateOptions, topic string, opts json.RawMessage, cast *debate.Cast) (*tool.Registry, error) {
	if cast.Default.Provider == nil && len(cast.ByRole) == 0 && len(cast.ByAgent) == 0 {
		return nil, &ConfigError{Err: &ErrNoModelConfigured{Format: crux.Name}}
	}
	return nil, nil
}
