package formal

import (
	"context"
	"encoding/json"

	"github.com/parleyhq/parley/internal/debate"
	"github.com/parleyhq/parley/internal/sec/sectools"
	"github.com/parleyhq/parley/internal/setup"
	"github.com/parleyhq/parley/internal/tool"
	"github.com/parleyhq/parley/internal/websearch"
)

// Setup builds a formal debate's options: Rounds (1 to MaxRounds), Focus
// (PRO, OPP or MOD) and ContextDir, whose code, docs and git history become
// the shared context K. K is gathered here, once, when the debate is
// created, and stored with its options: the protocol does no I/O and a
// resumed debate argues from the same K.
func (Format) Setup(ctx context.Context, env setup.Env, o *setup.Request) (json.RawMessage, error) {
	rounds, dir := o.Int("rounds"), o.String("context")
	if rounds < 1 || rounds > MaxRounds {
		return nil, setup.Inputf("--rounds %d: choose 1 to %d argumentation rounds", rounds, MaxRounds)
	}
	fo := Options{Rounds: rounds, Focus: o.String("perspective")}
	if err := fo.Validate(); err != nil {
		return nil, &setup.InputError{Err: err}
	}
	if dir != "" {
		k, err := Gather(ctx, dir, o.Topic)
		if err != nil {
			return nil, &setup.InputError{Err: err}
		}
		fo.Context = k
	}
	var web sectools.WebSearcher
	if env.Getenv != nil && !o.Offline {
		// An environment names the web search engine; without one (an
		// embedding caller's bare Env) there is none, and --offline
		// means no network.
		w, err := websearch.New(websearch.FromEnv(env.Getenv))
		if err != nil {
			return nil, &setup.InputError{Err: err}
		}
		web = w
	}
	if dir != "" || web != nil {
		fo.Context.AddWebSearch(ctx, web, o.Topic)
		from := fo.Context.Dir
		if from == "" {
			from = "the web"
		} else if web != nil {
			from += " and the web"
		}
		env.Noticef("Shared context K: %d facts gathered from %s", len(fo.Context.Facts), from)
	}
	return json.Marshal(fo)
}

// Prepare checks that a model is configured and gives each debater the
// model named for it: both debaters have the role "debater", and a model
// for the role pro or opp is that side's own.
func (Format) Prepare(ctx context.Context, env setup.Env, run *setup.Run) (*tool.Registry, error) {
	cast := run.Cast
	if err := setup.NeedModel(Name, cast); err != nil {
		return nil, err
	}
	for _, agent := range []string{AgentPro, AgentOpp} {
		if m, ok := cast.ByRole[agent]; ok {
			if cast.ByAgent == nil {
				cast.ByAgent = map[string]debate.Model{}
			}
			cast.ByAgent[agent] = m
		}
	}
	return nil, nil
}

var _ setup.Starter = Format{}
