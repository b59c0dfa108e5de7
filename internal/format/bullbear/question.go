package bullbear

import (
	"encoding/json"
	"fmt"
	"strings"

	"github.com/parleyhq/parley/internal/sec/analysis"
	"github.com/parleyhq/parley/internal/sec/secsetup"
	"github.com/parleyhq/parley/internal/sec/sectools"
	"github.com/parleyhq/parley/internal/setup"
)

// The SEC data a request asks for (Options.SourceAsked).
const (
	SourceEDGAR    = "edgar"
	SourceSnapshot = "snapshot"
)

// question is what a request decides of a bull vs. bear debate: the rounds,
// the framework, the hints, the SEC data asked for and the research tools.
// The company is the topic's, which the front-ends compare themselves. The
// figures, facts, valuation and market price are data fetched at creation
// (EDGAR's label carries the time of the fetch, a price moves during the
// day), and so is where the data came from: EDGAR asked for and unreachable
// falls back to the snapshot, and the debate still asked for EDGAR.
type question struct {
	Deep       bool   `json:"deep,omitempty"`
	Framework  string `json:"framework,omitempty"`
	Hints      []Hint `json:"hints,omitempty"`
	Source     string `json:"source"`
	MarketData string `json:"market_data,omitempty"`
	WebSearch  string `json:"web_search,omitempty"`
}

// Question is the question a bull vs. bear debate created with these
// options asks (see question).
func (Format) Question(opts json.RawMessage) (json.RawMessage, error) {
	var o Options
	if err := json.Unmarshal(opts, &o); err != nil {
		return nil, fmt.Errorf("bullbear options: %w", err)
	}
	src := o.SourceAsked
	if src == "" {
		// Created before the source asked was recorded: the source used
		// is the best guess.
		src = SourceEDGAR
		if o.Offline {
			src = SourceSnapshot
		}
	}
	return json.Marshal(question{Deep: o.Deep, Framework: o.Framework, Hints: o.Hints, Source: src, MarketData: o.MarketData, WebSearch: o.WebSearch})
}

// Asks is the question a request would ask, from the request and the
// environment alone: it fetches nothing, so that a front-end can tell
// whether a debate it has asks it before Setup reads the SEC data. For a
// request Setup accepts, Question of Setup's options is Asks. Bad input
// Setup would refuse without fetching anything is refused alike.
func (Format) Asks(env setup.Env, req *setup.Request) (json.RawMessage, error) {
	bo, err := requested(req)
	if err != nil {
		return nil, err
	}
	q := question{Deep: bo.Deep, Framework: bo.Framework, Hints: bo.Hints, Source: SourceAsked(env, req)}
	prices, web, err := secsetup.Research(env, req.Offline)
	if err != nil {
		return nil, err
	}
	q.MarketData, q.WebSearch = researchNames(prices, web)
	return json.Marshal(q)
}

// researchNames names the market data provider and the web search that
// secsetup.Research configured, "" for one it did not: Setup records them
// in the options and Asks in the question, alike.
func researchNames(prices sectools.PriceSource, web sectools.WebSearcher) (market, search string) {
	if p, ok := prices.(interface{ Name() string }); ok {
		market = p.Name()
	}
	if web != nil {
		search = web.Name()
	}
	return market, search
}

// requested is the part of a debate's options the request decides: the
// ticker (the topic), the rounds, the framework and the hints, checked.
func requested(req *setup.Request) (Options, error) {
	bo := Options{Ticker: strings.ToUpper(strings.TrimSpace(req.Topic)), Deep: req.Bool("deep")}
	if given := strings.TrimSpace(req.Topic); !tickerRe().MatchString(bo.Ticker) {
		// Quoted as written, not as the upper-cased ticker it is not.
		if !req.Set("format") {
			// The format was inferred from options only this format
			// reads: name them, since the person asked a question.
			by := impliedBy(req)
			verb := "run"
			if len(by) == 1 {
				verb = "runs"
			}
			// The way out drops them too: perspectives refuses each.
			return Options{}, setup.Inputf("%s %s a bull vs. bear debate of a stock: give a ticker such as NVDA (got %q); a question needs another format, such as --format perspectives, without %s, and a model",
				strings.Join(by, " and "), verb, given, strings.Join(by, " or "))
		}
		return Options{}, setup.Inputf("bullbear debates one stock: give its ticker, such as NVDA (got %q); use another format for questions", given)
	}
	for _, h := range req.Strings("hint") {
		hs, err := ParseHint(h)
		if err != nil {
			return Options{}, &setup.InputError{Err: err}
		}
		bo.Hints = append(bo.Hints, hs...)
	}
	if name := req.String("framework"); name != "" {
		fw, err := analysis.Framework(name)
		if err != nil {
			return Options{}, setup.Inputf("--framework %s: unknown framework; known frameworks: %s", name, strings.Join(analysis.FrameworkNames(), ", "))
		}
		bo.Framework = fw.Name()
	}
	if err := bo.Validate(); err != nil {
		return Options{}, &setup.InputError{Err: err}
	}
	return bo, nil
}

// impliedBy names the options of a request that only a bull vs. bear
// debate reads (see Implied).
func impliedBy(r *setup.Request) []string {
	var out []string
	for _, o := range []struct {
		set  bool
		name string
	}{{r.Offline, "--offline"}, {r.Bool(setup.SnapshotName), "--snapshot"}, {r.Bool("deep"), "--deep"}, {r.String("framework") != "", "--framework"},
		{len(r.Strings("hint")) > 0, "--hint"}} {
		if o.set {
			out = append(out, o.name)
		}
	}
	if len(out) == 0 {
		out = append(out, "the topic")
	}
	return out
}

// SourceAsked is the SEC data a request asks for: SourceSnapshot when a flag
// or the environment (no usable SEC_USER_AGENT) asks for the snapshot, else
// SourceEDGAR. The council asks it of a subject that may be listed.
func SourceAsked(env setup.Env, req *setup.Request) string {
	if secsetup.Asked(env, req.DataFlag()) != "" {
		return SourceSnapshot
	}
	return SourceEDGAR
}

var _ setup.Questioner = Format{}
