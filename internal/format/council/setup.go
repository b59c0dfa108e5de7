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

// Setup builds a council debate's options: agents, max-rounds (1-5) and
// risk. A subject that is a listed
// ticker is researched with the SEC tools.
func (Format) Setup(ctx context.Context, env setup.Env, o *setup.Request) (json.RawMessage, error) {
	co, err := requested(env, o)
	if err != nil {
		return nil, err
	}
	listed, err := listedCompany(ctx, env, o)
	if err != nil {
		return nil, err
	}
	co.Listed = listed
	return json.Marshal(co)
}

// requested is the part of a council's options the request decides: the
// agents, the rounds, the risk attitude and the SEC data asked for, checked.
func requested(env setup.Env, o *setup.Request) (Options, error) {
	agents, err := AgentsFromNames(o.Strings("agents"))
	if err != nil {
		return Options{}, &setup.InputError{Err: err}
	}
	co := Options{Agents: agents, Risk: o.String("risk"), MaxRounds: o.Int("max-rounds")}
	if n := co.MaxRounds; o.Has("max-rounds") && (n < 1 || n > MaxMaxRounds) {
		// Validate takes 0 for the default.
		return Options{}, setup.Inputf("--max-rounds %d: the council debates 1 to %d rounds", n, MaxMaxRounds)
	}
	if err := co.Validate(); err != nil {
		return Options{}, &setup.InputError{Err: err}
	}
	if mayBeListed(o) {
		co.SourceAsked = bullbear.SourceAsked(env, o)
	}
	return co, nil
}

// mayBeListed reports whether the council's subject is looked up as a
// listed company: a ticker-like topic, or any with --snapshot.
func mayBeListed(o *setup.Request) bool {
	_, ticker := bullbear.Ticker(strings.ToUpper(o.Topic))
	return o.Bool(setup.SnapshotName) || ticker
}

// question is what a request decides of a council debate. Whether the
// subject was found, and where its data came from, is what the lookup got.
type question struct {
	Agents    []Agent `json:"agents"`
	MaxRounds int     `json:"max_rounds"`
	Risk      string  `json:"risk"`
	Source    string  `json:"source,omitempty"`
}

// Question is the question a council debate created with these options
// asks (see question).
func (Format) Question(opts json.RawMessage) (json.RawMessage, error) {
	var o Options
	if err := json.Unmarshal(opts, &o); err != nil {
		return nil, fmt.Errorf("council options: %w", err)
	}
	src := o.SourceAsked
	if src == "" && o.Listed != nil {
		// Created before the source asked was recorded: a listed subject
		// recorded it as Offline (the snapshot was asked for).
		src = bullbear.SourceEDGAR
		if o.Listed.Offline {
			src = bullbear.SourceSnapshot
		}
	}
	return json.Marshal(question{Agents: o.Agents, MaxRounds: o.MaxRounds, Risk: o.Risk, Source: src})
}

// Asks is the question a request would ask, without looking the subject
// up: Question of Setup's options for every request Setup accepts.
func (Format) Asks(env setup.Env, req *setup.Request) (json.RawMessage, error) {
	co, err := requested(env, req)
	if err != nil {
		return nil, err
	}
	return json.Marshal(question{Agents: co.Agents, MaxRounds: co.MaxRounds, Risk: co.Risk, Source: co.SourceAsked})
}

var _ setup.Questioner = Format{}

// listedCompany looks the council's subject up as a ticker. A subject that is
// not a ticker is debated without SEC data; with the snapshot it must be one
// the snapshot holds.
func listedCompany(ctx context.Context, env setup.Env, o *setup.Request) (*Listed, error) {
	topic, _ := bullbear.Ticker(strings.ToUpper(o.Topic))
	if !mayBeListed(o) {
		return nil, nil
	}
	src, why := secsetup.Source(env, o.DataFlag())
	co, err := src.Lookup(ctx, topic)
	if err != nil {
		if o.Bool(setup.SnapshotName) {
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
