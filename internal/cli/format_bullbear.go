package cli

import (
	"bufio"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"log/slog"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"

	"github.com/parleyhq/parley/internal/debate"
	"github.com/parleyhq/parley/internal/format/bullbear"
	"github.com/parleyhq/parley/internal/market"
	"github.com/parleyhq/parley/internal/sec/analysis"
	"github.com/parleyhq/parley/internal/sec/edgar"
	"github.com/parleyhq/parley/internal/sec/factcheck"
	"github.com/parleyhq/parley/internal/sec/sectools"
	"github.com/parleyhq/parley/internal/sec/snapshot"
	"github.com/parleyhq/parley/internal/tool"
	"github.com/parleyhq/parley/internal/websearch"
)

// bullbearCLI starts bull vs. bear debates on one stock: the topic is the
// ticker (or a CIK); --deep, --framework, --hint and --offline apply. Without
// a model the three agents are Parley's data-only agents, and without
// SEC_USER_AGENT (or with --offline) the data come from the offline snapshot.
type bullbearCLI struct{}

// tickerTopic is a topic typed as a ticker; started without --format, such a
// debate is a stock debate ("parley debate NVDA").
var tickerTopic = regexp.MustCompile(`^[A-Z]{1,5}([.-][A-Z])?$`)

// impliesBullbear reports whether a debate started without --format is a
// bull vs. bear debate: its topic is a ticker, or it uses the flags only that
// format reads.
func impliesBullbear(o *DebateOptions) bool {
	return o.Resume == "" && (o.Offline || o.Snapshot || o.Deep || o.Framework != "" || len(o.Hints) > 0 ||
		tickerTopic.MatchString(strings.TrimSpace(o.Topic)))
}

var cikTopic = regexp.MustCompile(`^(?i:CIK)?\d{1,10}$`)

// secSource returns where SEC data come from: the snapshot when asked (flag
// names the flag that asked: --offline, --snapshot; "" when none did), or
// when no SEC_USER_AGENT is set (EDGAR requires one); otherwise EDGAR,
// falling back to the snapshot when EDGAR cannot be reached. why says why the
// snapshot is used ("" when online).
func secSource(f *Factory, flag string) (src edgar.Source, why string) {
	snap := snapshot.New()
	if flag != "" {
		return snap, flag
	}
	ua := strings.TrimSpace(f.Env(edgar.EnvUserAgent))
	if ua == "" {
		return snap, fmt.Sprintf("%s is not set, so EDGAR cannot be used; set it to \"Your Name you@example.com\" to debate live data", edgar.EnvUserAgent)
	}
	cfg := edgar.Config{UserAgent: ua, Now: f.Now, Logger: slog.New(slog.DiscardHandler)}
	// The SEC's limit is per machine: share it with every Parley process.
	if file, err := edgar.DefaultLimitFile(); err == nil {
		if lim, err := edgar.NewSharedLimiter(file, 0); err == nil {
			cfg.Limiter = lim
		}
	}
	client, err := edgar.New(cfg)
	if err != nil {
		return snap, err.Error()
	}
	// Filings never change: keep their documents on disk for every debate.
	var live edgar.Source = client
	if dc, err := edgar.CacheDocuments(client, ""); err == nil {
		live = dc
	}
	return edgar.NewFallback(live, snap, slog.New(slog.DiscardHandler)), ""
}

func (bullbearCLI) Options(ctx context.Context, f *Factory, o *DebateOptions) (json.RawMessage, error) {
	name := strings.ToUpper(strings.TrimSpace(o.Topic))
	bo := bullbear.Options{Ticker: name, Deep: o.Deep}
	for _, h := range o.Hints {
		hs, err := bullbear.ParseHint(h)
		if err != nil {
			return nil, &UsageError{Err: err}
		}
		bo.Hints = append(bo.Hints, hs...)
	}
	if o.Framework != "" {
		fw, err := analysis.Framework(o.Framework)
		if err != nil {
			return nil, usageErrorf("--framework %s: unknown framework; known frameworks: %s", o.Framework, strings.Join(analysis.FrameworkNames(), ", "))
		}
		bo.Framework = fw.Name()
	}
	if err := bo.Validate(); err != nil {
		return nil, &UsageError{Err: err}
	}

	src, why := secSource(f, o.dataFlag())
	var company edgar.Company
	if cikTopic.MatchString(name) {
		cik, err := edgar.ParseCIK(name)
		if err != nil {
			return nil, &UsageError{Err: err}
		}
		company = edgar.Company{CIK: cik, Name: name}
	} else {
		c, err := src.Lookup(ctx, name)
		if err != nil {
			if errors.Is(err, edgar.ErrUnknownTicker) || errors.Is(err, edgar.ErrNotAvailable) {
				if o.set != nil && !o.set("format") {
					// The format was inferred from a ticker-like topic.
					return nil, usageErrorf("cannot debate %s: %w\n(to debate a question rather than a stock, pass --format perspectives)", name, err)
				}
				return nil, usageErrorf("cannot debate %s: %w", name, err)
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
			return nil, &UsageError{Err: err}
		}
		bo.SIC, _ = strconv.Atoi(subs.SIC)
		if company.Name == "" || company.Name == name {
			company.Name = subs.Name
		}
	case errors.Is(err, edgar.ErrNotAvailable):
		if err := edgar.CheckAnnualReport(ctx, src, company); err != nil {
			if errors.Is(err, edgar.ErrNoAnnualReport) {
				return nil, &UsageError{Err: err}
			}
			return nil, err
		}
	case errors.Is(err, edgar.ErrNotFound):
		return nil, usageErrorf("cannot debate %s: %w", name, err)
	default:
		return nil, fmt.Errorf("check %s for 10-K filings: %w", name, err)
	}
	raw, err := src.CompanyFacts(ctx, company.CIK)
	if err != nil {
		if errors.Is(err, edgar.ErrNotAvailable) || errors.Is(err, edgar.ErrNotFound) {
			return nil, usageErrorf("cannot debate %s: no XBRL financial data: %w", name, err)
		}
		return nil, fmt.Errorf("financial data of %s: %w", name, err)
	}
	a := &bullbear.Analyzer{SIC: bo.SIC}
	rep, err := a.Report(raw.Body, 0)
	if err != nil {
		if errors.Is(err, analysis.ErrThinData) {
			return nil, usageErrorf("%s (%w)", edgar.RefusalMessage(name), err)
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
	bo.Figures = bullbear.Figures(rep)
	if cf, err := a.Parse(raw.Body); err == nil {
		// The fact check's reference facts, frozen with the debate so that
		// a resumed or exported debate is checked against the same data.
		if bo.Facts, err = factcheck.BuildTable(cf, bo.Ticker, bo.FiscalYear); err != nil {
			fmt.Fprintf(f.IO.ErrOut, "warning: the fact check falls back to the key figures: %v\n", err)
		}
	}
	bo.Offline = raw.Provenance.Snapshot
	bo.Data = raw.Provenance.Label()
	if bo.Offline && why != "" {
		bo.Data += " (" + why + ")"
	}
	// The research tools: record which the agents have, and the valuation
	// with its sources, for the report and the fact check.
	prices, web, err := researchConfig(f, o.Offline)
	if err != nil {
		return nil, err
	}
	set, err := secSet(f, src, company, a, prices, web)
	if err != nil {
		return nil, err
	}
	for _, t := range set.Tools() {
		bo.Tools = append(bo.Tools, t.Spec().Name)
	}
	if prices != nil {
		bo.MarketData = prices.(interface{ Name() string }).Name()
	}
	if web != nil {
		bo.WebSearch = web.Name()
	}
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
		fmt.Fprintf(f.IO.ErrOut, "SEC data: %s\n", bo.Data)
	}
	return json.Marshal(bo)
}

func (bullbearCLI) Prepare(ctx context.Context, f *Factory, o *DebateOptions, topic string, opts json.RawMessage, cast *debate.Cast) (*tool.Registry, error) {
	var bo bullbear.Options
	if err := json.Unmarshal(opts, &bo); err != nil {
		return nil, fmt.Errorf("bullbear options: %w", err)
	}
	// A resumed debate keeps its source: offline data stay offline.
	src, _ := secSource(f, recordedSnapshot(bo.Offline))
	cik, err := edgar.ParseCIK(bo.CIK)
	if err != nil {
		return nil, fmt.Errorf("bullbear options: %w", err)
	}
	company := edgar.Company{CIK: cik, Ticker: bo.Ticker, Name: bo.Company}
	a := &bullbear.Analyzer{SIC: bo.SIC}
	prices, web, err := researchConfig(f, o.Offline)
	if err != nil {
		return nil, err
	}
	set, err := secSet(f, src, company, a, prices, web)
	if err != nil {
		return nil, err
	}
	reg, err := secRegistry(f, set, company, bo.Offline)
	if err != nil {
		return nil, err
	}

	var dataOnly []string
	for _, agent := range []string{bullbear.AgentBull, bullbear.AgentBear, bullbear.AgentModerator} {
		if !castHasModel(cast, agent) {
			dataOnly = append(dataOnly, agent)
		}
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
		var more bullbear.Research
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
		agents := bullbear.NewDataAgents(analysis.Assess(rep), bo.Data).WithResearch(more)
		if cast.Responders == nil {
			cast.Responders = map[string]debate.Responder{}
		}
		for _, agent := range dataOnly {
			cast.Responders[agent] = agents
		}
		fmt.Fprintf(f.IO.ErrOut, "No model configured for %s: Parley's data-only agents argue from the SEC data. No LLM is used for them.\n", strings.Join(dataOnly, ", "))
	}
	return reg, nil
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

// offerBullbearResume implements the spec's resume flow: starting a bull vs.
// bear debate on a ticker that has an unfinished one asks "Resume debate from
// Phase 2 (Bear Opening)? [Y/n]" and, on yes, resumes it. Without a terminal
// to ask on, it says how to resume and starts a new debate.
func offerBullbearResume(ctx context.Context, f *Factory, o *DebateOptions) error {
	if o.Resume != "" || o.Format != bullbear.Name {
		return nil
	}
	store, err := f.OpenStore(ctx)
	if err != nil {
		return err
	}
	defer store.Close()
	sums, err := store.List(ctx, debate.ListFilter{Format: bullbear.Name})
	if err != nil {
		return err
	}
	var found *debate.Summary
	for i := range sums {
		if sums[i].Status != debate.StatusCompleted && strings.EqualFold(strings.TrimSpace(sums[i].Topic), strings.TrimSpace(o.Topic)) {
			found = &sums[i]
			break
		}
	}
	if found == nil {
		return nil
	}
	phase, err := resumePhase(ctx, store, found.ID)
	if err != nil {
		return err
	}
	if !f.IO.IsInputTerminal() {
		fmt.Fprintf(f.IO.ErrOut, "An unfinished debate on %s (%s, stopped at %s) exists; this starts a new one. Resume it with: parley debate --resume %s\n",
			found.Topic, found.ID, phase, found.ID)
		return nil
	}
	fmt.Fprintf(f.IO.ErrOut, "Resume debate from %s? [Y/n] ", phase)
	line, err := bufio.NewReader(f.IO.In).ReadString('\n')
	if err != nil && line == "" {
		return fmt.Errorf("no answer to the resume question: %w", err)
	}
	switch strings.ToLower(strings.TrimSpace(line)) {
	case "", "y", "yes":
		o.Resume = found.ID
	case "n", "no":
	default:
		return usageErrorf("answer y or n to \"Resume debate from %s?\"", phase)
	}
	return nil
}

// resumePhase names where a debate will go on: the phase of its next step,
// which is where it stopped.
func resumePhase(ctx context.Context, store debate.Store, id string) (string, error) {
	events, err := store.Load(ctx, id, 0)
	if err != nil {
		return "", err
	}
	st, err := debate.Fold(events)
	if err != nil {
		return "", err
	}
	label := st.Phase.Label
	if proto, err := (bullbear.Format{}).Protocol(st.Topic, st.Options); err == nil {
		if step, err := proto.Next(st); err == nil {
			for _, p := range step.Emit {
				if pc, ok := p.(debate.PhaseChanged); ok {
					label = pc.Label
				}
			}
		}
	}
	if label == "" {
		label = "the start"
	}
	return label, nil
}

// researchConfig returns the optional market data provider and web search
// configured in the environment (PARLEY_MARKET_DATA, PARLEY_SEARXNG_URL,
// BRAVE_SEARCH_API_KEY); both are off by default and with --offline.
func researchConfig(f *Factory, offline bool) (sectools.PriceSource, sectools.WebSearcher, error) {
	if offline {
		return nil, nil, nil
	}
	mp, err := market.New(market.FromEnv(f.Env))
	if err != nil {
		return nil, nil, &UsageError{Err: err}
	}
	web, err := websearch.New(websearch.FromEnv(f.Env))
	if err != nil {
		return nil, nil, &UsageError{Err: err}
	}
	var prices sectools.PriceSource
	if mp != nil {
		prices = mp
	}
	return prices, web, nil
}

// secSet is the research tools for one company.
func secSet(f *Factory, src edgar.Source, company edgar.Company, a *bullbear.Analyzer, prices sectools.PriceSource, web sectools.WebSearcher) (*sectools.Set, error) {
	return sectools.New(sectools.Config{Source: src, Company: company, Facts: a, Ratios: a, Frameworks: a, Valuation: a,
		Prices: prices, Web: web, Now: f.Now})
}

// secRegistry puts a set's tools behind the dated cache. The cache is per
// company and per source: tool arguments do not name the company, and live
// and snapshot answers must not mix.
func secRegistry(f *Factory, set *sectools.Set, company edgar.Company, offline bool) (*tool.Registry, error) {
	var cache tool.Cache
	origin := "edgar"
	if offline {
		origin = "snapshot"
	}
	dir, err := tool.DefaultCacheDir()
	if err == nil {
		var fc *tool.FileCache
		if fc, err = tool.NewFileCache(filepath.Join(dir, "sec", "CIK"+company.CIK.String(), origin)); err == nil {
			cache = fc
		}
	}
	if cache == nil {
		fmt.Fprintf(f.IO.ErrOut, "warning: no tool cache on disk (%v); tool results are cached for this run only\n", err)
		cache = tool.NewMemoryCache()
	}
	var tools []tool.Tool
	for _, t := range set.Tools() {
		tools = append(tools, tool.Cached(t, cache, f.Now))
	}
	return tool.NewRegistry(tools...)
}
