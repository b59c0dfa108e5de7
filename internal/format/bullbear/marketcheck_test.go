package bullbear_test

import (
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"net/http/httptest"
	"os"
	"strings"
	"testing"
	"time"

	"github.com/parleyhq/parley/internal/debate"
	"github.com/parleyhq/parley/internal/format/bullbear"
	"github.com/parleyhq/parley/internal/format/formattest"
	"github.com/parleyhq/parley/internal/llm/script"
	"github.com/parleyhq/parley/internal/market"
	"github.com/parleyhq/parley/internal/sec/analysis"
	"github.com/parleyhq/parley/internal/sec/factcheck"
	"github.com/parleyhq/parley/internal/sec/sectools"
	"github.com/parleyhq/parley/internal/sec/snapshot"
	"github.com/parleyhq/parley/internal/tool"
	"github.com/parleyhq/parley/internal/websearch"
)

// serveFile answers every request with a recorded response.
func serveFile(t *testing.T, path string) *httptest.Server {
	t.Helper()
	body, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, _ *http.Request) { _, _ = w.Write(body) }))
	t.Cleanup(srv.Close)
	return srv
}

// marketTools is the NVDA tool set on the shipped data with the keyless
// price provider and SearXNG configured against recorded responses, and the
// options the CLI would record with it.
func marketTools(t *testing.T) (*tool.Registry, bullbear.Options, *analysis.Valuation) {
	t.Helper()
	ctx := context.Background()
	prices, err := market.New(market.Config{Provider: "yahoo", BaseURL: serveFile(t, "../../market/testdata/yahoo_chart_NVDA.json").URL})
	if err != nil {
		t.Fatal(err)
	}
	web, err := websearch.New(websearch.Config{SearXNG: serveFile(t, "testdata/searxng_export_rules.json").URL})
	if err != nil {
		t.Fatal(err)
	}
	snap := snapshot.New()
	c, err := snap.Lookup(ctx, "NVDA")
	if err != nil {
		t.Fatal(err)
	}
	a := &bullbear.Analyzer{}
	set, err := sectools.New(sectools.Config{Source: snap, Company: c, Facts: a, Ratios: a, Frameworks: a, Valuation: a,
		Prices: prices, Web: web, Now: func() time.Time { return created }})
	if err != nil {
		t.Fatal(err)
	}
	reg, err := tool.NewRegistry(set.Tools()...)
	if err != nil {
		t.Fatal(err)
	}
	v, _, err := set.Valuation(ctx)
	if err != nil {
		t.Fatal(err)
	}
	if v.Basis != analysis.BasisMarketPrice || v.Price == nil || v.Price.Date != "2026-07-07" {
		t.Fatalf("valuation not on the recorded close: %+v", v)
	}
	o := nvdaFacts(t)
	for _, tl := range set.Tools() {
		o.Tools = append(o.Tools, tl.Spec().Name)
	}
	o.MarketData, o.WebSearch = prices.Name(), web.Name()
	o.Valuation, o.ValuationBasis, o.MarketPrice = v.Figures, v.Basis, v.Price
	return reg, o, v
}

// TestMarketFiguresCheckedAgainstRecordedMarketData runs a scripted debate
// in which the bear values the company on the market price (Yahoo's
// recorded close) and the bull searches the web (SearXNG's recorded
// answer): the bear's P/E and market cap are verified against the
// valuation it was given, with its source and date; its wrong EV/EBIT is
// corrected with the recorded figure and reconciled; the bull's figure from
// the web is labelled as not checked against filings, with its URL and
// date. The report and the recorded check say so.
func TestMarketFiguresCheckedAgainstRecordedMarketData(t *testing.T) {
	reg, o, v := marketTools(t)
	fig := func(name string) analysis.ValueFigure {
		f, ok := v.Figure(name)
		if !ok {
			t.Fatalf("no %s in the valuation", name)
		}
		return f
	}
	pe, mcap, evebit := fig("pe_ttm"), fig("market_cap"), fig("ev_ebit_ttm")
	if mcap.Display != "$3.88T" {
		t.Fatalf("market cap %s, want $3.88T (160.40 × 24.2B shares)", mcap.Display)
	}
	wrongEV := evebit.Value * 1.5
	bull := "Bull case:\n" +
		"- Revenue grew 65% in FY2026 (10-K 0001045810-26-000021)\n" +
		"- Gross margin of 71% shows pricing power (10-K FY2026)\n" +
		"- China data center sales of $17.1 billion a year are at stake in the new export rules (https://example.com/news/nvidia-export-rules, 2026-06-30)"
	bear := "Bear case:\n" +
		"- The stock trades at a P/E (TTM) of " + pe.Display + " (valuation: Yahoo Finance chart API close 2026-07-07)\n" +
		"- A market cap of $3.88 trillion leaves little room for error (Yahoo Finance chart API close 2026-07-07)\n" +
		fmt.Sprintf("- EV/EBIT (TTM) of %.1fx is far above what the growth supports\n", wrongEV)
	f := newFixture(t, o,
		script.Rule{Tag: "research/bull", Replies: []script.Reply{
			{ToolCalls: []script.ToolCall{{Name: sectools.NameWeb, Args: json.RawMessage(`{"query":"NVIDIA export controls China"}`)}}},
			{Text: "Research: export rules (web search)."}}},
		script.Rule{Tag: "research/bear", Replies: []script.Reply{
			{ToolCalls: []script.ToolCall{{Name: sectools.NameValuation, Args: json.RawMessage(`{}`)}}},
			{Text: "Research: valuation on the market price."}}},
		script.Rule{Tag: "opening/bull", Reply: &script.Reply{Text: bull}},
		script.Rule{Tag: "opening/bear", Reply: &script.Reply{Text: bear}},
	)
	f.Runner.Tools = reg
	s := f.MustRun()

	var fc bullbear.FactCheck
	notes := formattest.Notes(s, "bullbear.fact_check")
	if len(notes) != 1 || json.Unmarshal(notes[0].Data, &fc) != nil {
		t.Fatalf("fact check notes: %+v", notes)
	}
	find := func(agent, text string) factcheck.Finding {
		t.Helper()
		for _, fd := range fc.Findings {
			if fd.Agent == agent && fd.Text == text && strings.HasPrefix(fd.Turn, "opening/") {
				return fd
			}
		}
		t.Fatalf("no finding of %s's %q in %+v", agent, text, fc.Findings)
		return factcheck.Finding{}
	}
	for _, tc := range []struct {
		text   string
		status factcheck.Status
		figure string
	}{{pe.Display, factcheck.Verified, "pe_ttm"}, {"$3.88 trillion", factcheck.Verified, "market_cap"}} {
		fd := find("bear", tc.text)
		if fd.Status != tc.status || fd.Market == nil || fd.Market.Name != tc.figure ||
			fd.Market.Source != "Yahoo Finance chart API close 2026-07-07" || fd.Market.Date != "2026-07-07" {
			t.Errorf("%s: %+v (market %+v), want %s against the recorded %s with its source and date", tc.text, fd, fd.Market, tc.status, tc.figure)
		}
	}
	if len(fc.Discrepancies) != 1 || fc.Discrepancies[0].Figure != "ev_ebit_ttm" || fc.Discrepancies[0].Per != "the recorded market data" {
		t.Fatalf("discrepancies = %+v, want the EV/EBIT against the recorded market data", fc.Discrepancies)
	}
	d := fc.Discrepancies[0].String()
	if want := "per the recorded market data, the figure is " + evebit.Display + " as of 2026-07-07 (Yahoo Finance chart API close 2026-07-07)"; !strings.Contains(d, want) {
		t.Errorf("discrepancy %q lacks %q", d, want)
	}
	if !strings.Contains(f.Prompts("reconcile/bear"), d) {
		t.Error("the bear was not asked to reconcile its EV/EBIT with the recorded figure")
	}
	web := find("bull", "$17.1 billion")
	if web.Status != factcheck.Web || web.Reason != "web, not checked against filings" || web.Web == nil ||
		web.Web.URL != "https://example.com/news/nvidia-export-rules" || web.Web.Published != "2026-06-30" {
		t.Errorf("the web figure: %+v (web %+v)", web, web.Web)
	}
	if r := find("bull", "65%"); r.Status != factcheck.Verified || r.Market != nil || r.Web != nil {
		t.Errorf("a filing figure: %+v", r)
	}

	doc, err := bullbear.Format{}.Render(s, debate.RenderOptions{Summary: true})
	if err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{
		"(2 against the recorded market data)", "1 from the web (web, not checked against filings)",
		"Verified against the recorded market data:\n",
		"- Bear: " + pe.Display + ", P/E (TTM) " + pe.Display + " (Yahoo Finance chart API close 2026-07-07)",
		"- Bear: $3.88 trillion, Market capitalisation $3.88T (Yahoo Finance chart API close 2026-07-07)",
		"per the recorded market data, EV/EBIT (TTM) was " + evebit.Display + " (Yahoo Finance chart API close 2026-07-07)",
		"From the web (web, not checked against filings):\n- Bull: $17.1 billion, from https://example.com/news/nvidia-export-rules (2026-06-30) [web, not checked against filings]",
		"market data: Yahoo Finance chart API; web search: SearXNG at http://127.0.0.1",
	} {
		if !strings.Contains(doc, want) {
			t.Errorf("report lacks %q:\n%s", want, doc)
		}
	}
}
