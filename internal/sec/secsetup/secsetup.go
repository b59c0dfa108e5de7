// Package secsetup readies the SEC research of a debate on a listed company:
// where the data come from (live EDGAR or the shipped snapshot), the
// optional market data and web search, and the research tools behind their
// dated cache. The formats that debate companies (bullbear, council) share it.
package secsetup

import (
	"context"
	"fmt"
	"log/slog"
	"path/filepath"
	"strings"

	"github.com/parleyhq/parley/internal/market"
	"github.com/parleyhq/parley/internal/sec/edgar"
	"github.com/parleyhq/parley/internal/sec/sectools"
	"github.com/parleyhq/parley/internal/sec/snapshot"
	"github.com/parleyhq/parley/internal/setup"
	"github.com/parleyhq/parley/internal/tool"
	"github.com/parleyhq/parley/internal/websearch"
)

// Source returns where SEC data come from: the snapshot when asked (flag
// names what asked: --offline, --snapshot; "" when nothing did), or when no
// SEC_USER_AGENT is set (EDGAR requires one); otherwise EDGAR, falling back
// to the snapshot when EDGAR cannot be reached. why says why the snapshot is
// used ("" when online).
func Source(env setup.Env, flag string) (src edgar.Source, why string) {
	snap := snapshot.New()
	if why := Asked(env, flag); why != "" {
		return snap, why
	}
	cfg := config(env)
	// The SEC's limit is per machine (per IP): share it with every Parley
	// process, through the workers' database when they share one, else
	// through a file of this machine.
	if env.SECRate != nil {
		cfg.Limiter = env.SECRate
	} else if file, err := edgar.DefaultLimitFile(); err == nil {
		if lim, err := edgar.NewSharedLimiter(file, 0); err == nil {
			cfg.Limiter = lim
		}
	}
	client, err := edgar.New(cfg)
	if err != nil {
		if cfg.DataBase != "" {
			return snap, fmt.Sprintf("%s: %v", edgar.EnvBaseURL, err)
		}
		return snap, err.Error()
	}
	// Filings never change: keep their documents on disk for every debate.
	var live edgar.Source = client
	if dc, err := edgar.CacheDocuments(client, ""); err == nil {
		live = dc
	}
	// A company's facts and filing list: once for the setup, the data-only
	// agents and the tools of a debate (the snapshot needs no memo).
	live = env.SECMemo.Wrap(live)
	return edgar.NewFallback(live, snap, slog.New(slog.DiscardHandler)), ""
}

// config is the EDGAR client's configuration from the environment: the
// User-Agent the SEC requires and, when SEC_EDGAR_URL is set, the address
// that serves EDGAR's paths in place of the SEC's hosts.
func config(env setup.Env) edgar.Config {
	base := strings.TrimSpace(env.Getenv(edgar.EnvBaseURL))
	return edgar.Config{UserAgent: strings.TrimSpace(env.Getenv(edgar.EnvUserAgent)), WWWBase: base, DataBase: base,
		Now: env.Now, Logger: slog.New(slog.DiscardHandler)}
}

// Asked says which source a request asks for, without I/O: the snapshot
// (and why) when a flag asks for it or no usable SEC_USER_AGENT is set, ""
// for live EDGAR. Source picks the snapshot for the same reasons; live EDGAR
// may still fall back to the snapshot when it cannot be reached, which is
// what a debate got, not what it asked.
func Asked(env setup.Env, flag string) (why string) {
	if flag != "" {
		return flag
	}
	ua := strings.TrimSpace(env.Getenv(edgar.EnvUserAgent))
	if ua == "" {
		return fmt.Sprintf("%s is not set, so EDGAR cannot be used; set it to \"Your Name you@example.com\" to debate live data", edgar.EnvUserAgent)
	}
	if err := edgar.CheckUserAgent(ua); err != nil {
		return err.Error()
	}
	return ""
}

// Tickers is the SEC ticker list that company names resolve through: the
// live list from EDGAR when SEC_USER_AGENT is set (falling back to the
// shipped list when EDGAR cannot be reached), else the list Parley ships.
func Tickers(ctx context.Context, env setup.Env) (*edgar.TickerIndex, error) {
	if ua := strings.TrimSpace(env.Getenv(edgar.EnvUserAgent)); ua != "" {
		client, err := edgar.New(config(env))
		if err == nil {
			idx, err := client.Tickers(ctx)
			if err == nil {
				return idx, nil
			}
			env.Noticef("The SEC ticker list could not be fetched (%v); names resolve through the list Parley ships.", err)
		}
	}
	return snapshot.New().TickerIndex()
}

// Recorded is Source's flag for a resumed debate whose options record
// whether it used the snapshot: a resumed debate keeps its source.
func Recorded(snapshot bool) string {
	if snapshot {
		return "the debate was started on the shipped snapshot"
	}
	return ""
}

// Research returns the optional market data provider and web search
// configured in the environment (PARLEY_MARKET_DATA, PARLEY_SEARXNG_URL,
// BRAVE_SEARCH_API_KEY); both are off by default and when offline.
func Research(env setup.Env, offline bool) (sectools.PriceSource, sectools.WebSearcher, error) {
	if offline {
		return nil, nil, nil
	}
	mp, err := market.New(market.FromEnv(env.Getenv))
	if err != nil {
		return nil, nil, &setup.InputError{Err: err}
	}
	web, err := websearch.New(websearch.FromEnv(env.Getenv))
	if err != nil {
		return nil, nil, &setup.InputError{Err: err}
	}
	var prices sectools.PriceSource
	if mp != nil {
		prices = mp
	}
	return prices, web, nil
}

// Registry puts a set's tools behind the dated cache. The cache is per
// company and per source: tool arguments do not name the company, and live
// and snapshot answers must not mix.
func Registry(env setup.Env, set *sectools.Set, company edgar.Company, offline bool) (*tool.Registry, error) {
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
		env.Noticef("warning: no tool cache on disk (%v); tool results are cached for this run only", err)
		cache = tool.NewMemoryCache()
	}
	var tools []tool.Tool
	for _, t := range set.Tools() {
		tools = append(tools, tool.Cached(t, cache, env.Now))
	}
	return tool.NewRegistry(tools...)
}
