// Package sectools holds the SEC tools debate agents call: a filings search,
// 10-K section reading, XBRL facts, ratios and scoring frameworks. The tools
// of a Set are bound to one company (a debate is about a single ticker) and
// read through an edgar.Source, live or offline; every result names its
// source and date so that agents can cite it.
package sectools

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"sync"
	"time"

	"github.com/parleyhq/parley/internal/sec/edgar"
	"github.com/parleyhq/parley/internal/tool"
)

// Tool names.
const (
	NameFilings   = "sec_filings"
	NameSection   = "sec_section"
	NameFacts     = "xbrl_facts"
	NameRatios    = "compute_ratios"
	NameFramework = "score_framework"
)

// ProvenanceLabel is where a tool's data came from (edgar.Provenance).
type ProvenanceLabel = edgar.Provenance

// DefaultSectionChars bounds one sec_section answer (about 3,000 tokens).
const DefaultSectionChars = 12_000

// Config configures a Set.
type Config struct {
	Source  edgar.Source  // required
	Company edgar.Company // required: the company under debate
	// The computations; a nil one leaves its tool out of Tools.
	Facts      FactFinder
	Ratios     RatioCalculator
	Frameworks FrameworkScorer
	Valuation  ValuationCalculator
	// Prices is an optional market data provider for the valuation tool.
	Prices PriceSource
	// Web is an optional web search; nil leaves web_search out.
	Web WebSearcher
	// Now dates the events timeline's "as of" (default time.Now).
	Now func() time.Time
	// SectionChars bounds one section answer (default DefaultSectionChars).
	SectionChars int
}

// Set is the SEC tools for one company. Its tools are safe for concurrent use;
// it fetches the filing history and company facts at most once each.
type Set struct {
	cfg Config

	mu       sync.Mutex
	subs     *edgar.Submissions
	facts    *edgar.Raw
	sections map[string]sectionText  // accession+section → extracted text
	indexes  map[string]*filingIndex // accession → searchable passages
}

type sectionText struct {
	filing edgar.Filing
	sec    edgar.Section
	title  string // as the filing names it: "Item 3.D. Risk Factors", "EX-99.2 Management's Discussion and Analysis"
	text   string
	prov   edgar.Provenance
}

// New returns the tool set for cfg.Company.
func New(cfg Config) (*Set, error) {
	if cfg.Source == nil {
		return nil, errors.New("sectools: no edgar.Source given")
	}
	if cfg.Company.CIK <= 0 {
		return nil, errors.New("sectools: no company given (resolve the ticker with Source.Lookup first)")
	}
	if cfg.SectionChars <= 0 {
		cfg.SectionChars = DefaultSectionChars
	}
	if cfg.Now == nil {
		cfg.Now = time.Now
	}
	return &Set{cfg: cfg, sections: make(map[string]sectionText), indexes: make(map[string]*filingIndex)}, nil
}

// Tools returns the set's tools: the filings search and section reader
// always, and the facts, ratios and framework tools when their computation is
// configured.
func (s *Set) Tools() []tool.Tool {
	ts := []tool.Tool{&filingsTool{s}, &sectionTool{s}, &eventsTool{s}, &searchTool{s}}
	if s.cfg.Facts != nil {
		ts = append(ts, &factsTool{s})
	}
	if s.cfg.Ratios != nil {
		ts = append(ts, &ratiosTool{s})
	}
	if s.cfg.Frameworks != nil {
		ts = append(ts, &frameworkTool{s})
	}
	if s.cfg.Valuation != nil {
		ts = append(ts, &valuationTool{s})
	}
	if s.cfg.Web != nil {
		ts = append(ts, &webTool{s})
	}
	return ts
}

func (s *Set) submissions(ctx context.Context) (*edgar.Submissions, error) {
	s.mu.Lock()
	subs := s.subs
	s.mu.Unlock()
	if subs != nil {
		return subs, nil
	}
	subs, err := s.cfg.Source.Submissions(ctx, s.cfg.Company.CIK)
	if err != nil {
		return nil, fmt.Errorf("filings of %s: %w", s.who(), err)
	}
	s.mu.Lock()
	s.subs = subs
	s.mu.Unlock()
	return subs, nil
}

func (s *Set) companyFacts(ctx context.Context) (*edgar.Raw, error) {
	s.mu.Lock()
	facts := s.facts
	s.mu.Unlock()
	if facts != nil {
		return facts, nil
	}
	facts, err := s.cfg.Source.CompanyFacts(ctx, s.cfg.Company.CIK)
	if err != nil {
		return nil, fmt.Errorf("XBRL facts of %s: %w", s.who(), err)
	}
	s.mu.Lock()
	s.facts = facts
	s.mu.Unlock()
	return facts, nil
}

// who names the company in messages.
func (s *Set) who() string {
	c := s.cfg.Company
	switch {
	case c.Ticker != "" && c.Name != "":
		return fmt.Sprintf("%s (%s)", c.Name, c.Ticker)
	case c.Ticker != "":
		return c.Ticker
	case c.Name != "":
		return c.Name
	}
	return "CIK " + c.CIK.String()
}

// header is the part of every JSON result that says whose data it is and
// where it came from.
type header struct {
	Company string `json:"company"`
	Ticker  string `json:"ticker,omitempty"`
	CIK     string `json:"cik"`
	Source  string `json:"source"`
	URL     string `json:"source_url,omitempty"`
}

func (s *Set) header(p edgar.Provenance) header {
	name := s.cfg.Company.Name
	if name == "" {
		name = s.who()
	}
	return header{Company: name, Ticker: s.cfg.Company.Ticker, CIK: s.cfg.Company.CIK.String(), Source: p.Label(), URL: p.URL}
}

// decodeArgs decodes a tool's arguments strictly, so that a misspelt field is
// reported to the model rather than silently ignored.
func decodeArgs(name string, raw json.RawMessage, v any) error {
	if len(bytes.TrimSpace(raw)) == 0 || string(bytes.TrimSpace(raw)) == "null" {
		raw = json.RawMessage("{}")
	}
	dec := json.NewDecoder(bytes.NewReader(raw))
	dec.DisallowUnknownFields()
	if err := dec.Decode(v); err != nil {
		return fmt.Errorf("%w: %s: %v", tool.ErrBadArgs, name, err)
	}
	return nil
}

func badArgs(name, format string, args ...any) error {
	return fmt.Errorf("%w: %s: %s", tool.ErrBadArgs, name, fmt.Sprintf(format, args...))
}

func marshal(v any) (string, error) {
	b, err := json.Marshal(v)
	if err != nil {
		return "", fmt.Errorf("encode tool result: %w", err)
	}
	return string(b), nil
}
