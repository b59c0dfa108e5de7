package sectools

import (
	"context"
	"encoding/json"
	"fmt"

	"github.com/parleyhq/parley/internal/llm"
	"github.com/parleyhq/parley/internal/sec/analysis"
)

// NameValuation is the valuation tool.
const NameValuation = "valuation"

// ValuationCalculator values the company from its companyfacts document and
// a price (nil: no price source, fall back to the public float).
type ValuationCalculator interface {
	Valuation(ctx context.Context, companyfacts []byte, price *analysis.Price) (*analysis.Valuation, error)
}

// PriceSource supplies the latest daily close of a ticker, with its source
// and date (a market data provider). It is optional.
type PriceSource interface {
	Price(ctx context.Context, symbol string) (*analysis.Price, error)
}

type valuationTool struct{ s *Set }

func (t *valuationTool) Spec() llm.ToolSpec {
	return llm.ToolSpec{
		Name: NameValuation,
		Description: "Value the company: market cap, enterprise value, P/E (TTM), P/S (TTM), EV/EBIT (TTM) and FCF yield (TTM), " +
			"from a market price (when a market data provider is configured) and the reported XBRL figures " +
			"(shares outstanding from the 10-K/10-Q cover, net debt from the latest balance sheet, trailing-twelve-month flows). " +
			"Without a price it uses the filer's public float (dei:EntityPublicFloat) and says so with its date. " +
			"Every figure names its source and date: cite them.",
		Schema: json.RawMessage(`{"type": "object", "properties": {}, "additionalProperties": false}`),
	}
}

func (t *valuationTool) Call(ctx context.Context, raw json.RawMessage) (string, error) {
	var a struct{}
	if err := decodeArgs(NameValuation, raw, &a); err != nil {
		return "", err
	}
	v, prov, err := t.s.Valuation(ctx)
	if err != nil {
		return "", err
	}
	return marshal(struct {
		header
		*analysis.Valuation
	}{t.s.header(prov), v})
}

// Valuation computes the company's valuation as the tool does; the
// data-only agents call it directly.
func (s *Set) Valuation(ctx context.Context) (*analysis.Valuation, ProvenanceLabel, error) {
	cf, err := s.companyFacts(ctx)
	if err != nil {
		return nil, ProvenanceLabel{}, err
	}
	var price *analysis.Price
	if s.cfg.Prices != nil && s.cfg.Company.Ticker != "" {
		// A price in another currency than the filings' figures (an ADR's
		// dollar price for a euro filer) is set aside by analysis.Value,
		// which says so: Parley does not convert currencies.
		p, err := s.cfg.Prices.Price(ctx, s.cfg.Company.Ticker)
		if err != nil {
			// A price provider that fails must not silently become the
			// public float: say why in the notes.
			v, verr := s.cfg.Valuation.Valuation(ctx, cf.Body, nil)
			if verr != nil {
				return nil, ProvenanceLabel{}, fmt.Errorf("%s: %w (and the market price failed: %v)", NameValuation, verr, err)
			}
			v.Notes = append([]string{fmt.Sprintf("The market data provider failed (%v); the figures fall back to the public float.", err)}, v.Notes...)
			return v, cf.Provenance, nil
		}
		price = p
	}
	v, err := s.cfg.Valuation.Valuation(ctx, cf.Body, price)
	if err != nil {
		return nil, ProvenanceLabel{}, fmt.Errorf("%s: %w", NameValuation, err)
	}
	return v, cf.Provenance, nil
}
