package bullbear

import (
	"encoding/json"
	"slices"
	"strings"

	"github.com/parleyhq/parley/internal/debate"
	"github.com/parleyhq/parley/internal/sec/analysis"
	"github.com/parleyhq/parley/internal/sec/factcheck"
	"github.com/parleyhq/parley/internal/sec/sectools"
)

// recorded is what the debate's research recorded besides the filings, for
// the fact check: every valuation the valuation tool answered (the figures
// the agents saw, with their source and date), the valuation recorded at
// creation (which the data-only agents argue from), and every web search
// result an agent read.
type recorded struct {
	tools   []agentValuation // in the order they were recorded
	created *factcheck.Valuation
	web     []factcheck.WebSource
}

type agentValuation struct {
	agent string
	v     factcheck.Valuation
}

// recorded reads them from the debate's tool results and options; nil when
// the debate recorded none, so that the check is the filings' alone.
func (p *Protocol) recorded(s *debate.State) *recorded {
	r := &recorded{}
	for _, t := range s.CompletedTurns() {
		for _, x := range t.Tools {
			if x.Result == nil || x.Result.IsError {
				continue
			}
			switch x.Call.Name {
			case sectools.NameValuation:
				if v, ok := valuationOf(x.Result.Content); ok {
					r.tools = append(r.tools, agentValuation{agent: t.Agent, v: v})
				}
			case sectools.NameWeb:
				r.web = append(r.web, webSourcesOf(x.Result.Content)...)
			}
		}
	}
	if len(p.opts.Valuation) > 0 {
		r.created = &factcheck.Valuation{Basis: p.opts.ValuationBasis, Figures: p.opts.Valuation, Price: p.opts.MarketPrice}
	}
	if len(r.tools) == 0 && r.created == nil && len(r.web) == 0 {
		return nil
	}
	return r
}

// forAgent orders the recorded valuations for checking an agent's figures:
// the agent's own valuation results, latest first (what it read), then the
// other agents', then the one recorded at creation. A figure matching any of
// them is verified; one matching none is corrected against the first.
func (r *recorded) forAgent(agent string) *factcheck.Recorded {
	if r == nil {
		return nil
	}
	out := &factcheck.Recorded{Web: r.web}
	add := func(v factcheck.Valuation) {
		if !slices.ContainsFunc(out.Valuations, func(w factcheck.Valuation) bool { return sameValuation(v, w) }) {
			out.Valuations = append(out.Valuations, v)
		}
	}
	for _, own := range []bool{true, false} {
		for i := len(r.tools) - 1; i >= 0; i-- {
			if (r.tools[i].agent == agent) == own {
				add(r.tools[i].v)
			}
		}
	}
	if r.created != nil {
		add(*r.created)
	}
	return out
}

func sameValuation(a, b factcheck.Valuation) bool {
	if a.Basis != b.Basis || len(a.Figures) != len(b.Figures) || (a.Price == nil) != (b.Price == nil) {
		return false
	}
	if a.Price != nil && *a.Price != *b.Price {
		return false
	}
	for i := range a.Figures {
		if a.Figures[i] != b.Figures[i] {
			return false
		}
	}
	return true
}

// valuationOf reads a valuation tool result.
func valuationOf(content string) (factcheck.Valuation, bool) {
	var v struct {
		Basis   string                 `json:"basis"`
		Price   *analysis.Price        `json:"price"`
		Figures []analysis.ValueFigure `json:"figures"`
	}
	if json.Unmarshal([]byte(content), &v) != nil || len(v.Figures) == 0 {
		return factcheck.Valuation{}, false
	}
	return factcheck.Valuation{Basis: v.Basis, Figures: v.Figures, Price: v.Price}, true
}

// webSourcesOf reads a web_search result.
func webSourcesOf(content string) []factcheck.WebSource {
	var w struct {
		Engine    string               `json:"engine"`
		Retrieved string               `json:"retrieved"`
		Results   []sectools.WebResult `json:"results"`
	}
	if json.Unmarshal([]byte(content), &w) != nil {
		return nil
	}
	var out []factcheck.WebSource
	for _, r := range w.Results {
		if strings.TrimSpace(r.URL) == "" {
			continue
		}
		out = append(out, factcheck.WebSource{URL: r.URL, Published: r.Published, Engine: w.Engine, Retrieved: w.Retrieved,
			Text: r.Title + "\n" + r.Snippet})
	}
	return out
}
