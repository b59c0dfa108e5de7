package council

import (
	"context"
	"encoding/json"
	"fmt"
	"strings"

	"github.com/parleyhq/parley/internal/format/bullbear"
	"github.com/parleyhq/parley/internal/sec/edgar"
	"github.com/parleyhq/parley/internal/sec/secsetup"
	"github.com/parleyhq/parley/internal/sec/sectools"
	"github.com/parleyhq/parley/internal/sec/snapshot"
	"github.com/parleyhq/parley/internal/setup"
	"github.com/parleyhq/parley/internal/tool"
)

// Setup builds a council debate's options: Agents, MaxRounds (1-5, the
// council's default 3 unless given) and Risk. A subject that is a listed
// ticker is researched with the SEC tools.
func (Format) Setup(ctx context.Context, env setup.Env, o *setup.Request) (json.RawMessage, error) {
	agents, err := AgentsFromNames(o.Agents)
	if err != nil {
		return nil, &setup.InputError{Err: err}
	}
	co := Options{Agents: agents, Risk: o.Risk}
	// MaxRounds defaults to the perspectives format's cap; the council's
	// own default applies unless it was given.
	if o.Set("max-rounds") {
		if o.MaxRounds < 1 || o.MaxRounds > MaxMaxRounds {
			return nil, setup.Inputf("--max-rounds %d: the council debates 1 to %d rounds", o.MaxRounds, MaxMaxRounds)
		}
		co.MaxRounds = o.MaxRounds
	}
	if err := co.Validate(); err != nil {
		return nil, &setup.InputError{Err: err}
	}
	listed, err := listedCompany(ctx, env, o)
	if err != nil {
		return nil, err
	}
	co.Listed = listed
	return json.Marshal(co)
}

// listedCompany looks the council's subject up as a ticker. A subject that is
// not a ticker is debated without SEC data; with the snapshot it must be one
// the snapshot holds.
func listedCompany(ctx context.Context, env setup.Env, o *setup.Request) (*Listed, error) {
	topic := strings.ToUpper(strings.TrimSpace(o.Topic))
	if !bullbear.TickerTopic().MatchString(topic) && !o.Snapshot {
		return nil, nil
	}
	src, why := secsetup.Source(env, o.DataFlag())
	co, err := src.Lookup(ctx, topic)
	if err != nil {
		if o.Snapshot {
			return nil, &setup.InputError{Err: err}
		}
		env.Noticef("%s is not a ticker Parley can find (%v): the analysts argue without SEC data.", topic, err)
		return nil, nil
	}
	l := &Listed{Ticker: co.Ticker, CIK: co.CIK.String(), Name: co.Name, Offline: why != "", Data: "SEC EDGAR, live"}
	if why != "" {
		l.Data = snapshot.New().Label() + " (" + why + ")"
	}
	env.Noticef("%s is listed (%s): the analysts research it with the SEC tools. Data: %s", co.Name, co.Ticker, l.Data)
	return l, nil
}

// Prepare checks that a model is configured and, for a listed company,
// returns the SEC research tools.
func (Format) Prepare(ctx context.Context, env setup.Env, run *setup.Run) (*tool.Registry, error) {
	if err := setup.NeedModel(Name, run.Cast); err != nil {
		return nil, err
	}
	var co Options
	if err := json.Unmarshal(run.Options, &co); err != nil {
		return nil, fmt.Errorf("council options: %w", err)
	}
	if co.Listed == nil {
		return nil, nil
	}
	// A resumed debate keeps its source: offline data stay offline.
	src, _ := secsetup.Source(env, secsetup.Recorded(co.Listed.Offline))
	cik, err := edgar.ParseCIK(co.Listed.CIK)
	if err != nil {
		return nil, fmt.Errorf("council options: %w", err)
	}
	company := edgar.Company{CIK: cik, Ticker: co.Listed.Ticker, Name: co.Listed.Name}
	a := &bullbear.Analyzer{}
	set, err := sectools.New(sectools.Config{Source: src, Company: company, Facts: a, Ratios: a, Frameworks: a, Valuation: a, Now: env.Now})
	if err != nil {
		return nil, err
	}
	return secsetup.Registry(env, set, company, co.Listed.Offline)
}

var _ setup.Starter = Format{}
