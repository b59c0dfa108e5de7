package cli

import (
	"context"
	"encoding/json"
	"fmt"
	"strings"

	"github.com/parleyhq/parley/internal/format/bullbear"
	"github.com/parleyhq/parley/internal/sec/edgar"
	"github.com/parleyhq/parley/internal/sec/snapshot"

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
	listed, err := listedCompany(ctx, f, o)
	if err != nil {
		return nil, err
	}
	co.Listed = listed
	return json.Marshal(co)
}

// listedCompany looks the council's subject up as a ticker. A subject that is
// not a ticker is debated without SEC data; with --offline it must be one the
// snapshot holds.
func listedCompany(ctx context.Context, f *Factory, o *DebateOptions) (*council.Listed, error) {
	topic := strings.ToUpper(strings.TrimSpace(o.Topic))
	if !tickerTopic.MatchString(topic) && !o.Snapshot {
		return nil, nil
	}
	src, why := secSource(f, o.dataFlag())
	co, err := src.Lookup(ctx, topic)
	if err != nil {
		if o.Snapshot {
			return nil, &UsageError{Err: err}
		}
		fmt.Fprintf(f.IO.ErrOut, "%s is not a ticker Parley can find (%v): the analysts argue without SEC data.\n", topic, err)
		return nil, nil
	}
	l := &council.Listed{Ticker: co.Ticker, CIK: co.CIK.String(), Name: co.Name, Offline: why != "", Data: "SEC EDGAR, live"}
	if why != "" {
		l.Data = snapshot.New().Label() + " (" + why + ")"
	}
	fmt.Fprintf(f.IO.ErrOut, "%s is listed (%s): the analysts research it with the SEC tools. Data: %s\n", co.Name, co.Ticker, l.Data)
	return l, nil
}

func (councilCLI) Prepare(ctx context.Context, f *Factory, o *DebateOptions, topic string, opts json.RawMessage, cast *debate.Cast) (*tool.Registry, error) {
	if cast.Default.Provider == nil && len(cast.ByRole) == 0 && len(cast.ByAgent) == 0 {
		return nil, &ConfigError{Err: &ErrNoModelConfigured{Format: council.Name}}
	}
	var co council.Options
	if err := json.Unmarshal(opts, &co); err != nil {
		return nil, fmt.Errorf("council options: %w", err)
	}
	if co.Listed == nil {
		return nil, nil
	}
	// A resumed debate keeps its source: offline data stay offline.
	src, _ := secSource(f, recordedSnapshot(co.Listed.Offline))
	cik, err := edgar.ParseCIK(co.Listed.CIK)
	if err != nil {
		return nil, fmt.Errorf("council options: %w", err)
	}
	company := edgar.Company{CIK: cik, Ticker: co.Listed.Ticker, Name: co.Listed.Name}
	set, err := secSet(f, src, company, &bullbear.Analyzer{}, nil, nil)
	if err != nil {
		return nil, err
	}
	return secRegistry(f, set, company, co.Listed.Offline)
}
