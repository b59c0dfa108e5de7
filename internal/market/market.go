// Package market supplies optional market data (daily closing prices) for
// the valuation tool. It is off unless configured: Parley never fetches a
// price the user did not ask for. Every price carries its source (provider
// and URL) and its trading day, so that figures built on it can be cited and
// the fact check can treat them as market data rather than filing data.
//
// Two providers: Yahoo Finance's chart API (keyless, daily bars) and Alpha
// Vantage (TIME_SERIES_DAILY, needs an API key).
package market

import (
	"context"
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"strings"
	"time"

	"github.com/parleyhq/parley/internal/sec/analysis"
)

// Provider supplies a ticker's latest daily close. Implementations are safe
// for concurrent use and never return a price without its date and source.
type Provider interface {
	// Name names the provider for citations.
	Name() string
	// Price returns the latest daily close of symbol.
	Price(ctx context.Context, symbol string) (*analysis.Price, error)
}

// Environment variables that select a provider.
const (
	// EnvProvider selects the provider: "yahoo" or "alphavantage"; unset or
	// "off" means no market data.
	EnvProvider = "PARLEY_MARKET_DATA"
	// EnvAlphaVantageKey is Alpha Vantage's API key.
	EnvAlphaVantageKey = "ALPHAVANTAGE_API_KEY"
	// EnvBaseURL points the provider at another address (a proxy, a mirror,
	// a test server).
	EnvBaseURL = "PARLEY_MARKET_DATA_URL"
)

// ErrNoPrice means the provider answered without a usable price.
var ErrNoPrice = errors.New("no price")

// Config configures a provider.
type Config struct {
	// Provider is "yahoo", "alphavantage", or "" / "off" for none.
	Provider string
	// APIKey is the keyed provider's key.
	APIKey string
	// BaseURL overrides the provider's endpoint (tests).
	BaseURL string
	// HTTPClient defaults to a client with a 20-second timeout.
	HTTPClient *http.Client
}

// FromEnv reads the configuration from the environment (getenv is
// os.Getenv or a test's map).
func FromEnv(getenv func(string) string) Config {
	return Config{Provider: strings.ToLower(strings.TrimSpace(getenv(EnvProvider))), APIKey: strings.TrimSpace(getenv(EnvAlphaVantageKey)),
		BaseURL: strings.TrimSpace(getenv(EnvBaseURL))}
}

// New returns the configured provider, or nil (and no error) when market
// data is off. A misconfiguration is an error naming what to set.
func New(cfg Config) (Provider, error) {
	hc := cfg.HTTPClient
	if hc == nil {
		hc = &http.Client{Timeout: 20 * time.Second}
	}
	switch cfg.Provider {
	case "", "off", "none":
		return nil, nil
	case "yahoo":
		return &Yahoo{base: strings.TrimRight(cmpOr(cfg.BaseURL, YahooBase), "/"), hc: hc}, nil
	case "alphavantage", "alpha-vantage":
		if cfg.APIKey == "" {
			return nil, fmt.Errorf("%s=alphavantage needs an API key: set %s (free keys at https://www.alphavantage.co/support/#api-key)", EnvProvider, EnvAlphaVantageKey)
		}
		return &AlphaVantage{base: strings.TrimRight(cmpOr(cfg.BaseURL, AlphaVantageBase), "/"), key: cfg.APIKey, hc: hc}, nil
	}
	return nil, fmt.Errorf("unknown market data provider %q in %s: want yahoo (no key) or alphavantage (with %s), or off", cfg.Provider, EnvProvider, EnvAlphaVantageKey)
}

func cmpOr(a, b string) string {
	if a != "" {
		return a
	}
	return b
}

// maxBody bounds a provider's answer.
const maxBody = 4 << 20

// get fetches u and returns its body; a non-2xx answer is an error.
func get(ctx context.Context, hc *http.Client, u string, header http.Header) ([]byte, error) {
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, u, nil)
	if err != nil {
		return nil, err
	}
	for k, v := range header {
		req.Header[k] = v
	}
	resp, err := hc.Do(req)
	if err != nil {
		return nil, err
	}
	defer resp.Body.Close()
	body, err := io.ReadAll(io.LimitReader(resp.Body, maxBody))
	if err != nil {
		return nil, err
	}
	if resp.StatusCode/100 != 2 {
		s := strings.Join(strings.Fields(string(body)), " ")
		if len(s) > 200 {
			s = s[:200] + "…"
		}
		return nil, fmt.Errorf("HTTP %d: %s", resp.StatusCode, s)
	}
	return body, nil
}

// redact removes an API key from a URL before it is shown or cited.
func redact(u string) string {
	p, err := url.Parse(u)
	if err != nil {
		return u
	}
	q := p.Query()
	if q.Has("apikey") {
		q.Set("apikey", "REDACTED")
		p.RawQuery = q.Encode()
	}
	return p.String()
}
