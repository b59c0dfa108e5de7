// Package websearch is the optional web search behind the web_search tool:
// a self-hosted SearXNG instance (its JSON API) or the Brave Search API. It is
// off unless configured, and every result keeps its URL and, where the engine
// gives one, its date, so that agents cite it.
package websearch

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"strings"
	"time"

	"github.com/parleyhq/parley/internal/sec/sectools"
)

// Environment variables that configure web search.
const (
	// EnvSearXNG is a SearXNG base URL, e.g. http://localhost:8888 (its
	// settings must enable the json format).
	EnvSearXNG = "PARLEY_SEARXNG_URL"
	// EnvBraveKey is a Brave Search API subscription token.
	EnvBraveKey = "BRAVE_SEARCH_API_KEY"
)

// BraveBase is the Brave Search API.
const BraveBase = "https://api.search.brave.com"

// Config selects an engine: SearXNG when its URL is set, else Brave when its
// key is set, else none.
type Config struct {
	SearXNG    string
	BraveKey   string
	BraveBase  string // tests
	HTTPClient *http.Client
}

// FromEnv reads the configuration from the environment.
func FromEnv(getenv func(string) string) Config {
	return Config{SearXNG: strings.TrimSpace(getenv(EnvSearXNG)), BraveKey: strings.TrimSpace(getenv(EnvBraveKey))}
}

// New returns the configured searcher, or nil when web search is off.
func New(cfg Config) (sectools.WebSearcher, error) {
	hc := cfg.HTTPClient
	if hc == nil {
		hc = &http.Client{Timeout: 20 * time.Second}
	}
	if cfg.SearXNG != "" {
		u, err := url.Parse(cfg.SearXNG)
		if err != nil || u.Scheme == "" || u.Host == "" {
			return nil, fmt.Errorf("%s=%q is not a URL: want the SearXNG base, like http://localhost:8888", EnvSearXNG, cfg.SearXNG)
		}
		return &SearXNG{base: strings.TrimRight(cfg.SearXNG, "/"), hc: hc}, nil
	}
	if cfg.BraveKey != "" {
		base := cfg.BraveBase
		if base == "" {
			base = BraveBase
		}
		return &Brave{base: strings.TrimRight(base, "/"), key: cfg.BraveKey, hc: hc}, nil
	}
	return nil, nil
}

func fetch(ctx context.Context, hc *http.Client, u string, header http.Header, v any) error {
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, u, nil)
	if err != nil {
		return err
	}
	for k, vs := range header {
		req.Header[k] = vs
	}
	resp, err := hc.Do(req)
	if err != nil {
		return err
	}
	defer resp.Body.Close()
	body, err := io.ReadAll(io.LimitReader(resp.Body, 4<<20))
	if err != nil {
		return err
	}
	if resp.StatusCode/100 != 2 {
		s := strings.Join(strings.Fields(string(body)), " ")
		if len(s) > 200 {
			s = s[:200] + "…"
		}
		return fmt.Errorf("HTTP %d: %s", resp.StatusCode, s)
	}
	if err := json.Unmarshal(body, v); err != nil {
		return fmt.Errorf("unreadable answer: %w", err)
	}
	return nil
}

// clip bounds untrusted snippet text.
func clip(s string, n int) string {
	s = strings.Join(strings.Fields(s), " ")
	if len(s) > n {
		s = s[:n] + "…"
	}
	return s
}

// SearXNG queries a SearXNG instance's /search?format=json.
type SearXNG struct {
	base string
	hc   *http.Client
}

// Name implements sectools.WebSearcher.
func (s *SearXNG) Name() string { return "SearXNG at " + s.base }

// Search implements sectools.WebSearcher.
func (s *SearXNG) Search(ctx context.Context, query string, limit int) ([]sectools.WebResult, error) {
	var r struct {
		Results []struct {
			URL           string `json:"url"`
			Title         string `json:"title"`
			Content       string `json:"content"`
			PublishedDate string `json:"publishedDate"`
		} `json:"results"`
	}
	u := s.base + "/search?" + url.Values{"q": {query}, "format": {"json"}}.Encode()
	if err := fetch(ctx, s.hc, u, nil, &r); err != nil {
		return nil, fmt.Errorf("%s: %w (the instance must allow format=json in settings.yml search.formats)", s.Name(), err)
	}
	var out []sectools.WebResult
	for _, x := range r.Results {
		if len(out) == limit {
			break
		}
		if x.URL == "" {
			continue
		}
		pub := x.PublishedDate
		if len(pub) >= 10 {
			pub = pub[:10]
		}
		out = append(out, sectools.WebResult{Title: clip(x.Title, 200), URL: x.URL, Snippet: clip(x.Content, 500), Published: pub})
	}
	return out, nil
}

// Brave queries the Brave Search API.
type Brave struct {
	base string
	key  string
	hc   *http.Client
}

// Name implements sectools.WebSearcher.
func (b *Brave) Name() string { return "Brave Search API" }

// Search implements sectools.WebSearcher.
func (b *Brave) Search(ctx context.Context, query string, limit int) ([]sectools.WebResult, error) {
	var r struct {
		Web struct {
			Results []struct {
				Title       string `json:"title"`
				URL         string `json:"url"`
				Description string `json:"description"`
				Age         string `json:"age"`
				PageAge     string `json:"page_age"`
			} `json:"results"`
		} `json:"web"`
	}
	u := b.base + "/res/v1/web/search?" + url.Values{"q": {query}, "count": {fmt.Sprint(limit)}}.Encode()
	h := http.Header{"Accept": {"application/json"}, "X-Subscription-Token": {b.key}}
	if err := fetch(ctx, b.hc, u, h, &r); err != nil {
		return nil, fmt.Errorf("%s: %w", b.Name(), err)
	}
	var out []sectools.WebResult
	for _, x := range r.Web.Results {
		if len(out) == limit {
			break
		}
		pub := x.PageAge
		if len(pub) >= 10 {
			pub = pub[:10]
		} else if pub == "" {
			pub = x.Age
		}
		out = append(out, sectools.WebResult{Title: clip(x.Title, 200), URL: x.URL, Snippet: clip(x.Description, 500), Published: pub})
	}
	return out, nil
}
