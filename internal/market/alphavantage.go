package market

import (
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"net/url"
	"strconv"
	"strings"

	"github.com/parleyhq/parley/internal/sec/analysis"
)

// AlphaVantageBase is Alpha Vantage's API.
const AlphaVantageBase = "https://www.alphavantage.co"

// AlphaVantage is the keyed provider: TIME_SERIES_DAILY, whose "3. Last
// Refreshed" day's "4. close" is the latest daily close.
type AlphaVantage struct {
	base string
	key  string
	hc   *http.Client
}

// Name implements Provider.
func (a *AlphaVantage) Name() string { return "Alpha Vantage TIME_SERIES_DAILY" }

// Price implements Provider.
func (a *AlphaVantage) Price(ctx context.Context, symbol string) (*analysis.Price, error) {
	sym := strings.ToUpper(strings.TrimSpace(symbol))
	q := url.Values{"function": {"TIME_SERIES_DAILY"}, "symbol": {sym}, "outputsize": {"compact"}, "apikey": {a.key}}
	u := a.base + "/query?" + q.Encode()
	body, err := get(ctx, a.hc, u, nil)
	if err != nil {
		return nil, fmt.Errorf("%s %s: %w", a.Name(), sym, err)
	}
	var r struct {
		Meta map[string]string `json:"Meta Data"`
		// Alpha Vantage answers errors and rate limits with 200 and one of these.
		ErrorMessage string                       `json:"Error Message"`
		Note         string                       `json:"Note"`
		Information  string                       `json:"Information"`
		Series       map[string]map[string]string `json:"Time Series (Daily)"`
	}
	if err := json.Unmarshal(body, &r); err != nil {
		return nil, fmt.Errorf("%s %s: unreadable answer: %w", a.Name(), sym, err)
	}
	for _, msg := range []string{r.ErrorMessage, r.Note, r.Information} {
		if msg != "" {
			return nil, fmt.Errorf("%s %s: %w: %s", a.Name(), sym, ErrNoPrice, msg)
		}
	}
	day := r.Meta["3. Last Refreshed"]
	if len(day) > 10 {
		day = day[:10]
	}
	bar, ok := r.Series[day]
	if !ok {
		// Fall back to the latest day in the series.
		for d := range r.Series {
			if d > day || !ok {
				day, ok = d, true
			}
		}
		bar = r.Series[day]
	}
	v, err := strconv.ParseFloat(bar["4. close"], 64)
	if !ok || err != nil || v <= 0 {
		return nil, fmt.Errorf("%s %s: %w: no close for %q", a.Name(), sym, ErrNoPrice, day)
	}
	return &analysis.Price{Symbol: cmpOr(r.Meta["2. Symbol"], sym), Value: v, Currency: "USD", Date: day, Source: a.Name(), URL: redact(u)}, nil
}
