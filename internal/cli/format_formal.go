package cli

import (
	"context"
	"encoding/json"
	"fmt"

	"github.com/parleyhq/parley/internal/debate"
	"github.com/parleyhq/parley/internal/format/formal"
	"github.com/parleyhq/parley/internal/tool"
)

// formalCLI starts formal debates: --rounds (default 2), --perspective ROLE
// (PRO, OPP or MOD) and --context DIR, whose code, docs and git history
// become the shared context K. Models: --model-for debater=..., pro=...,
// opp=... and moderator=.... K is gathered here, once, when the debate is
// created, and stored with its options: the protocol does no I/O and a
// resumed debate argues from the same K.
type formalCLI struct{}

func (formalCLI) Options(ctx context.Context, f *Factory, o *DebateOptions) (json.RawMessage, error) {
	if o.Rounds < 1 || o.Rounds > formal.MaxRounds {
		return nil, usageErrorf("--rounds %d: choose 1 to %d argumentation rounds", o.Rounds, formal.MaxRounds)
	}
	fo := formal.Options{Rounds: o.Rounds, Focus: o.Focus}
	if err := fo.Validate(); err != nil {
		return nil, &UsageError{Err: err}
	}
	if o.ContextDir != "" {
		k, err := formal.Gather(ctx, o.ContextDir, o.Topic)
		if err != nil {
			return nil, &UsageError{Err: err}
		}
		fo.Context = k
		fmt.Fprintf(f.IO.ErrOut, "Shared context K: %d facts gathered from %s\n", len(k.Facts), k.Dir)
	}
	return json.Marshal(fo)
}

func (formalCLI) Prepare(ctx context.Context, f *Factory, o *DebateOptions, topic string, opts json.RawMessage, cast *debate.Cast) (*tool.Registry, error) {
	if cast.Default.Provider == nil && len(cast.ByRole) == 0 && len(cast.ByAgent) == 0 {
		return nil, &ConfigError{Err: &ErrNoModelConfigured{Format: formal.Name}}
	}
	// Both debaters have the role "debater"; --model-for pro=... or
	// opp=... gives one of them a model of its own.
	for _, agent := range []string{formal.AgentPro, formal.AgentOpp} {
		if m, ok := cast.ByRole[agent]; ok {
			if cast.ByAgent == nil {
				cast.ByAgent = map[string]debate.Model{}
			}
			cast.ByAgent[agent] = m
		}
	}
	if o.Resume != "" && o.set != nil && (o.set("context") || o.set("rounds") || o.set("perspective")) {
		fmt.Fprintln(f.IO.ErrOut, "note: --context, --rounds and --perspective are ignored on resume: the debate keeps the options and the shared context it was created with")
	}
	return nil, nil
}
