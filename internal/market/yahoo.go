package market

import (
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"net/url"
	"strings"
	"time"

	"github.com/parleyhq/parley/internal/sec/analysis"
)

// YahooBase is Yahoo Finance's chart API.
const YahooBase = "https://query1.finance.yahoo.com"

// Yahoo is the keyless provider: daily bars from Yahoo Finance's chart API
// (/v8/finance/chart/SYMBOL?range=5d&interval=1d). The close of the last bar
// with a price is the latest daily close; its date is the bar's trading day
// in the exchange's time zone.
type Yahoo struct {
	base string
	hc   *http.Client
}

// Name implements Provider.
func (y *Yahoo) Name() string { return "Yahoo Finance chart API" }

type yahooChart struct {
	Chart struct {
		Result []struct {
			Meta struct {
				Currency             string `json:"currency"`
				Symbol               string `json:"symbol"`
				ExchangeTimezoneName string `json:"exchangeTimezoneName"`
				GMTOffset            int    `json:"gmtoffset"`
			} `json:"meta"`
			Timestamp  []int64 `json:"timestamp"`
			Indicators struct {
				Quote []struct {
					Close []*float64 `json:"close"`
				} `json:"quote"`
			} `json:"indicators"`
		} `json:"result"`
		Error *struct {
			Code        string `json:"code"`
			Description string `json:"description"`
		} `json:"error"`
	} `json:"chart"`
}

// Price implements Provider.
func (y *Yahoo) Price(ctx context.Context, symbol string) (*analysis.Price, error) {
	sym := strings.ToUpper(strings.TrimSpace(symbol))
	u := fmt.Sprintf("%s/v8/finance/chart/%s?range=5d&interval=1d", y.base, url.PathEscape(sym))
	// Yahoo refuses requests without a browser-like User-Agent.
	body, err := get(ctx, y.hc, u, http.Header{"User-Agent": {"Mozilla/5.0 (compatible; Parley)"}})
	if err != nil {
		return nil, fmt.Errorf("%s %s: %w", y.Name(), sym, err)
	}
	var c yahooChart
	if err := json.Unmarshal(body, &c); err != nil {
		return nil, fmt.Errorf("%s %s: unreadable answer: %w", y.Name(), sym, err)
	}
	if c.Chart.Error != nil {
		return nil, fmt.Errorf("%s %s: %w: %s: %s", y.Name(), sym, ErrNoPrice, c.Chart.Error.Code, c.Chart.Error.Description)
	}
	if len(c.Chart.Result) == 0 || len(c.Chart.Result[0].Indicators.Quote) == 0 {
		return nil, fmt.Errorf("%s %s: %w: no daily bars", y.Name(), sym, ErrNoPrice)
	}
	r := c.Chart.Result[0]
	closes := r.Indicators.Quote[0].Close
	loc := time.FixedZone("exchange", r.Meta.GMTOffset)
	if l, err := time.LoadLocation(r.Meta.ExchangeTimezoneName); err == nil && r.Meta.ExchangeTimezoneName != "" {
		loc = l
	}
	for i := min(len(closes), len(r.Timestamp)) - 1; i >= 0; i-- {
		if closes[i] == nil || *closes[i] <= 0 {
			continue
		}
		return &analysis.Price{Symbol: cmpOr(r.Meta.Symbol, sym), Value: *closes[i], Currency: r.Meta.Currency,
			Date: time.Unix(r.Timestamp[i], 0).In(loc).Format(time.DateOnly), Source: y.Name(), URL: u}, nil
	}
	return nil, fmt.Errorf("%s %s: %w: every bar's close is empty", y.Name(), sym, ErrNoPrice)
}
