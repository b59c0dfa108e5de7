package bullbear

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"regexp"
	"strconv"
	"strings"
	"sync"

	"github.com/parleyhq/parley/internal/debate"
	"github.com/parleyhq/parley/internal/sec/analysis"
	"github.com/parleyhq/parley/internal/sec/edgar"
	"github.com/parleyhq/parley/internal/sec/factcheck"
	"github.com/parleyhq/parley/internal/sec/secsetup"
	"github.com/parleyhq/parley/internal/sec/sectools"
	"github.com/parleyhq/parley/internal/setup"
	"github.com/parleyhq/parley/internal/tool"
)

// TickerTopic is a topic typed as a ticker; started without a format, such a
// debate is a stock debate ("parley debate NVDA").
var TickerTopic = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`^[A-Z]{1,5}([.-][A-Z])?$`) })

// Ticker returns the ticker a topic names and whether it names one: typed
// as a ticker ("NVDA") or as a cashtag ("$NVDA", "$nvda"), as finance
// sites and posts write one ("$NVDA" was debated as a question).
func Ticker(topic string) (string, bool) {
	t := strings.TrimSpace(topic)
	if c, ok := strings.CutPrefix(t, "$"); ok && TickerTopic().MatchString(strings.ToUpper(c)) {
		return strings.ToUpper(c), true
	}
	return t, TickerTopic().MatchString(t)
}

var cikTopic = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`^(?i:CIK)?\d{1,10}$`) })

// Setup builds a bull vs. bear debate's options: the topic is the ticker
// (or a CIK); the company is looked up, refused without a 10-K or XBRL data,
// and its figures, fact-check table and valuation are frozen with the debate.
func (Format) Setup(ctx context.Context, env setup.Env, o *setup.Request) (json.RawMessage, error) {
	bo, err := requested(o)
	if err != nil {
		return nil, err
	}
	name := bo.Ticker

	bo.SourceAsked = SourceAsked(env, o)
	src, why := secsetup.Source(env, o.DataFlag())
	var company edgar.Company
	if cikTopic().MatchString(name) {
		cik, err := edgar.ParseCIK(name)
		if err != nil {
			return nil, &setup.InputError{Err: err}
		}
		company = edgar.Company{CIK: cik, Name: name}
	} else {
		c, err := src.Lookup(ctx, name)
		if err != nil {
			if errors.Is(err, edgar.ErrUnknownTicker) || errors.Is(err, edgar.ErrNotAvailable) {
				if !o.Set("format") {
					// The format was inferred from a ticker-like topic.
					return nil, setup.Inputf("cannot debate %s: %w\n(to debate a question rather than a stock, pass --format perspectives)", name, err)
				}
				return nil, setup.Inputf("cannot debate %s: %w", name, err)
			}
			return nil, fmt.Errorf("look up %s: %w", name, err)
		}
		company = c
	}
	// Thin data: refuse a filer without a 10-K, with the spec's message.
	subs, err := src.Submissions(ctx, company.CIK)
	switch {
	case err == nil:
		if err := edgar.RequireAnnualReport(subs, name); err != nil {
			return nil, &setup.InputError{Err: err}
		}
		bo.SIC, _ = strconv.Atoi(subs.SIC)
		if company.Name == "" || company.Name == name {
			company.Name = subs.Name
		}
	case errors.Is(err, edgar.ErrNotAvailable):
		if err := edgar.CheckAnnualReport(ctx, src, company); err != nil {
			if errors.Is(err, edgar.ErrNoAnnualReport) {
				return nil, &setup.InputError{Err: err}
			}
			return nil, err
		}
	case errors.Is(err, edgar.ErrNotFound):
		return nil, setup.Inputf("cannot debate %s: %w", name, err)
	default:
		return nil, fmt.Errorf("check %s for 10-K filings: %w", name, err)
	}
	raw, err := src.CompanyFacts(ctx, company.CIK)
	if err != nil {
		if errors.Is(err, edgar.ErrNotAvailable) || errors.Is(err, edgar.ErrNotFound) {
			return nil, setup.Inputf("cannot debate %s: no XBRL financial data: %w", name, err)
		}
		return nil, fmt.Errorf("financial data of %s: %w", name, err)
	}
	a := &Analyzer{SIC: bo.SIC}
	rep, err := a.Report(raw.Body, 0)
	if err != nil {
		if errors.Is(err, analysis.ErrThinData) {
			return nil, setup.Inputf("%s (%w)", edgar.RefusalMessage(name), err)
		}
		return nil, err
	}
	if company.Ticker != "" {
		bo.Ticker = company.Ticker
	}
	bo.Company = company.Name
	if bo.Company == "" {
		bo.Company = rep.Financials.Company
	}
	bo.CIK = company.CIK.String()
	bo.FiscalYear = rep.Financials.FiscalYear
	if cur := rep.Financials.Currency; cur != "USD" {
		bo.Currency = cur
	}
	bo.CurrencyNote = rep.Financials.CurrencyNote
	bo.Figures = Figures(rep)
	if cf, err := a.Parse(raw.Body); err == nil {
		// The fact check's reference facts, frozen with the debate so that
		// a resumed or exported debate is checked against the same data.
		if bo.Facts, err = factcheck.BuildTable(cf, bo.Ticker, bo.FiscalYear, bo.SIC); err != nil {
			env.Noticef("warning: the fact check falls back to the key figures: %v", err)
		}
	}
	bo.Offline = raw.Provenance.Snapshot
	bo.Data = raw.Provenance.Label()
	if bo.Offline && why != "" {
		bo.Data += " (" + why + ")"
	}
	// The research tools: record which the agents have, and the valuation
	// with its sources, for the report and the fact check.
	prices, web, err := secsetup.Research(env, o.Offline)
	if err != nil {
		return nil, err
	}
	set, err := newSet(env, src, company, a, prices, web)
	if err != nil {
		return nil, err
	}
	for _, t := range set.Tools() {
		bo.Tools = append(bo.Tools, t.Spec().Name)
	}
	bo.MarketData, bo.WebSearch = researchNames(prices, web)
	if v, _, err := set.Valuation(ctx); err == nil {
		bo.Valuation, bo.ValuationBasis, bo.MarketPrice = v.Figures, v.Basis, v.Price
	}
	if bo.Framework != "" {
		fw, _ := analysis.Framework(bo.Framework)
		res, err := fw.Evaluate(rep.Financials)
		if res != nil {
			bo.FrameworkSummary = res.Summary()
		} else if err != nil {
			bo.FrameworkSummary = err.Error()
		}
	}
	if bo.Offline {
		env.Noticef("SEC data: %s", bo.Data)
	}
	return json.Marshal(bo)
}

// Prepare readies a run: the research tools, and Parley's data-only agents
// for every agent the cast has no model for.
func (Format) Prepare(ctx context.Context, env setup.Env, run *setup.Run) (*tool.Registry, error) {
	opts, cast := run.Options, run.Cast
	var bo Options
	if err := json.Unmarshal(opts, &bo); err != nil {
		return nil, fmt.Errorf("bullbear options: %w", err)
	}
	// A resumed debate keeps its source: offline data stay offline.
	src, _ := secsetup.Source(env, secsetup.Recorded(bo.Offline))
	cik, err := edgar.ParseCIK(bo.CIK)
	if err != nil {
		return nil, fmt.Errorf("bullbear options: %w", err)
	}
	company := edgar.Company{CIK: cik, Ticker: bo.Ticker, Name: bo.Company}
	a := &Analyzer{SIC: bo.SIC}
	prices, web, err := secsetup.Research(env, run.Offline)
	if err != nil {
		return nil, err
	}
	set, err := newSet(env, src, company, a, prices, web)
	if err != nil {
		return nil, err
	}
	reg, err := secsetup.Registry(env, set, company, bo.Offline)
	if err != nil {
		return nil, err
	}

	var dataOnly []string
	for _, agent := range []string{AgentBull, AgentBear, AgentModerator} {
		if !castHasModel(cast, agent) {
			dataOnly = append(dataOnly, agent)
		}
	}
	if len(dataOnly) > 0 && cast.Responders == nil {
		cast.Responders = map[string]debate.Responder{}
	}
	if len(dataOnly) > 0 && run.Queued {
		// Setup checked the facts the agents argue from when it froze the
		// debate's figures; the worker that runs it prepares the agents.
		for _, agent := range dataOnly {
			cast.Responders[agent] = queuedAgents{}
		}
		return reg, nil
	}
	if len(dataOnly) > 0 {
		raw, err := src.CompanyFacts(ctx, cik)
		if err != nil {
			return nil, fmt.Errorf("financial data of %s for the data-only agents: %w", bo.Ticker, err)
		}
		rep, err := a.Report(raw.Body, bo.FiscalYear)
		if err != nil {
			return nil, err
		}
		var more Research
		if tl, _, err := set.Events(ctx, "", nil); err == nil {
			more.Events = tl
		} else {
			more.EventsErr = err.Error()
		}
		if v, _, err := set.Valuation(ctx); err == nil {
			more.Valuation = v
		} else {
			more.ValuationErr = err.Error()
		}
		agents := NewDataAgents(analysis.Assess(rep), bo.Data).WithResearch(more)
		// The front-ends say which roles they answer (the cast line) and,
		// for a new debate, why (app.Start): a resume keeps its recorded
		// cast, whatever the environment configures now.
		for _, agent := range dataOnly {
			cast.Responders[agent] = agents
		}
	}
	return reg, nil
}

// queuedAgents stand for the data-only agents of a debate prepared only to
// be queued (setup.Run.Queued): the worker that runs the debate prepares
// the agents themselves, and a run of this preparation is refused rather
// than argue from data never read.
type queuedAgents struct{}

func (queuedAgents) Respond(context.Context, *debate.State, debate.TurnSpec) (string, error) {
	return "", errors.New("the data-only agents of a queued debate are prepared by the worker that runs it, not where it was queued")
}

// castHasModel mirrors how the runner picks a model for an agent whose role
// is its name.
func castHasModel(c *debate.Cast, agent string) bool {
	if m, ok := c.ByAgent[agent]; ok && m.Provider != nil {
		return true
	}
	if m, ok := c.ByRole[agent]; ok && m.Provider != nil {
		return true
	}
	return c.Default.Provider != nil
}

// newSet is the research tools for one company.
func newSet(env setup.Env, src edgar.Source, company edgar.Company, a *Analyzer, prices sectools.PriceSource, web sectools.WebSearcher) (*sectools.Set, error) {
	return sectools.New(sectools.Config{Source: src, Company: company, Facts: a, Ratios: a, Frameworks: a, Valuation: a,
		Prices: prices, Web: web, Now: env.Now})
}

// NormalizeTopic spells a ticker or CIK topic in capitals ("nvda" is
// debated, listed and exported as NVDA, as EDGAR spells it).
func (Format) NormalizeTopic(topic string) string {
	t := strings.ToUpper(strings.TrimSpace(topic))
	if c, ok := strings.CutPrefix(t, "$"); ok && tickerRe().MatchString(c) {
		return c // a cashtag
	}
	if tickerRe().MatchString(t) {
		return t
	}
	return topic
}

// Implied reports whether a request that names no format is a bull vs. bear
// debate: its topic is a ticker, or it uses options only this format reads
// (setup.Implier; every front-end infers the format by app.FormatFor).
func (Format) Implied(r *setup.Request) bool {
	return r.Offline || r.Bool(setup.SnapshotName) || r.Bool("deep") || r.String("framework") != "" || len(r.Strings("hint")) > 0 ||
		isTicker(r.Topic)
}

func isTicker(topic string) bool {
	_, ok := Ticker(topic)
	return ok
}

// RunsOffline reports that a bull vs. bear debate can run with no model:
// Parley's data-only agents argue from the shipped SEC data.
func (Format) RunsOffline() bool { return true }

var (
	_ setup.Starter         = Format{}
	_ setup.TopicNormalizer = Format{}
	_ setup.Implier         = Format{}
)
