package bullbear

import (
	"encoding/json"
	"fmt"

	"github.com/parleyhq/parley/internal/setup"
)

// Question keeps what a request decides of a bull vs. bear debate's
// options: the company, the rounds, the framework, the hints, the data
// source (the shipped snapshot or EDGAR) and the research tools. The figures,
// facts, valuation and market price are data fetched at creation: EDGAR's
// label carries the time of the fetch, and a price moves during the day.
func (Format) Question(opts json.RawMessage) (json.RawMessage, error) {
	var o Options
	if err := json.Unmarshal(opts, &o); err != nil {
		return nil, fmt.Errorf("bullbear options: %w", err)
	}
	return json.Marshal(struct {
		Ticker     string `json:"ticker"`
		CIK        string `json:"cik,omitempty"`
		Deep       bool   `json:"deep,omitempty"`
		Framework  string `json:"framework,omitempty"`
		Hints      []Hint `json:"hints,omitempty"`
		Offline    bool   `json:"offline,omitempty"`
		MarketData string `json:"market_data,omitempty"`
		WebSearch  string `json:"web_search,omitempty"`
	}{o.Ticker, o.CIK, o.Deep, o.Framework, o.Hints, o.Offline, o.MarketData, o.WebSearch})
}

var _ setup.Questioner = Format{}
