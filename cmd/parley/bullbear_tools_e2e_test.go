package main_test

import (
	"bufio"
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/parleyhq/parley/internal/llm/script"
)

// jsonEvent is one line of `parley debate --json`.
type jsonEvent struct {
	Type string          `json:"type"`
	Data json.RawMessage `json:"data"`
}

type toolResult struct {
	Turn    string `json:"turn"`
	Name    string `json:"name"`
	Content string `json:"content"`
	IsError bool   `json:"is_error"`
}

// toolResults reads the tool.result events of a --json run.
func toolResults(t *testing.T, stdout string) []toolResult {
	t.Helper()
	var out []toolResult
	sc := bufio.NewScanner(strings.NewReader(stdout))
	sc.Buffer(make([]byte, 1<<20), 16<<20)
	for sc.Scan() {
		var e jsonEvent
		if json.Unmarshal(sc.Bytes(), &e) != nil || e.Type != "tool.result" {
			continue
		}
		var r toolResult
		if err := json.Unmarshal(e.Data, &r); err != nil {
			t.Fatalf("tool.result: %v: %s", err, e.Data)
		}
		out = append(out, r)
	}
	return out
}

// TestBullbearResearchToolsEndToEnd runs an LLM bull vs. bear debate from
// the built binary against the fake server: the bear calls valuation and
// sec_events (--snapshot: the public float and the shipped filing
// list), asks for six tools at once and gets five (the per-agent limit),
// and cites a valuation figure and an 8-K event with their sources.
func TestBullbearResearchToolsEndToEnd(t *testing.T) {
	_, dir, env := fakeOpenAI(t, loadScript(t, "bullbear_tools.yaml"))
	r := mustParley(t, dir, env, "", "debate", "NVDA", "--snapshot", "--model", "test-model", "--no-checkpoints", "--json")
	results := toolResults(t, r.stdout)
	byName := map[string]toolResult{}
	bearCalls, refused := 0, 0
	for _, tr := range results {
		if tr.Turn == "research/bear" {
			bearCalls++
			if tr.IsError && strings.Contains(tr.Content, "tool call limit reached") {
				refused++
				continue
			}
		}
		if tr.IsError {
			t.Errorf("%s %s failed: %s", tr.Turn, tr.Name, tr.Content)
		}
		byName[tr.Name] = tr
	}
	if bearCalls != 6 || refused != 1 {
		t.Errorf("the bear asked for %d tools and %d were refused; want 6 and 1 (limit 5 per agent)", bearCalls, refused)
	}
	if _, ran := byName["score_framework"]; ran {
		t.Error("the sixth call (score_framework) ran past the limit")
	}
	val := byName["valuation"].Content
	for _, want := range []string{`"basis":"public float"`, `"name":"pe_ttm"`, `"display":"25.1x"`, `"date":"2025-07-25"`,
		`"source":"public float, 10-K 0001045810-26-000021"`, "No market price source is configured"} {
		if !strings.Contains(val, want) {
			t.Errorf("valuation result lacks %s:\n%s", want, val)
		}
	}
	ev := byName["sec_events"].Content
	for _, want := range []string{`"since":"2026-02-25"`, `"accession":"0001045810-26-000019"`, `"code":"2.02"`,
		`"meaning":"Results of Operations and Financial Condition"`, "0001045810-26-000019-index.htm", "offline snapshot recorded 2026-03-05"} {
		if !strings.Contains(ev, want) {
			t.Errorf("sec_events result lacks %s:\n%s", want, ev)
		}
	}
	if fs := byName["filing_search"].Content; !strings.Contains(fs, `"section":"`) || !strings.Contains(fs, "offline snapshot ships") {
		t.Errorf("filing_search result:\n%.600s", fs)
	}

	id := between(parley(t, dir, env, "", "list", "--json").stdout, `"id": "`, `"`)
	if full := parley(t, dir, env, "", "export", id, "-o", filepath.Join(dir, "debate.md")); full.code != 0 {
		t.Fatalf("export: %s", full.stderr)
	}
	doc, _ := os.ReadFile(filepath.Join(dir, "debate.md"))
	for _, want := range []string{
		"P/E (TTM) of 25.1x on the public float as of 2025-07-25 (valuation: public float, 10-K 0001045810-26-000021)",
		"8-K filed 2026-02-25, item 2.02 Results of Operations and Financial Condition (accession 0001045810-26-000019",
		"**Tools available:** sec_filings, sec_section, sec_events, filing_search, xbrl_facts, compute_ratios, score_framework, valuation; market data: off (valuation from the public float); web search: off",
		"research/bear: valuation", "research/bear: sec_events",
	} {
		if !strings.Contains(string(doc), want) {
			t.Errorf("the exported debate lacks %q", want)
		}
	}
}

// TestBullbearMarketDataEndToEnd configures the keyless price provider and
// a SearXNG web search against test servers (recorded responses): the
// valuation is then on the market price, cited with the provider and the
// trading day; the bull's web search is cited by URL and date and labelled
// as not checked against filings, and so is the figure the bull takes from
// it; the bear's market cap is verified against the recorded market data
// with its source and date, in the terminal, the Markdown and the JSON
// export; the report lists the tools the agents had and says both were on.
func TestBullbearMarketDataEndToEnd(t *testing.T) {
	chart, err := os.ReadFile("testdata/yahoo_chart_NVDA.json")
	if err != nil {
		t.Fatal(err)
	}
	var asked []string
	prices := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		asked = append(asked, r.URL.Path)
		w.Write(chart)
	}))
	defer prices.Close()
	results, err := os.ReadFile("testdata/searxng.json")
	if err != nil {
		t.Fatal(err)
	}
	searx := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.URL.Query().Get("format") != "json" {
			http.Error(w, "format", http.StatusForbidden)
		}
		w.Write(results)
	}))
	defer searx.Close()
	sc := loadScript(t, "bullbear_tools.yaml")
	for i, rule := range sc.Rules {
		switch rule.Tag {
		case "research/bull":
			// The bull searches the web instead of the filings.
			sc.Rules[i].Replies[0].ToolCalls[0] = script.ToolCall{Name: "web_search", Args: json.RawMessage(`{"query":"NVIDIA export controls"}`)}
		case "opening/bull":
			// ... and argues from a figure of a web result, citing it.
			sc.Rules[i].Reply.Text = strings.Replace(rule.Reply.Text, "- Operating margin of 60% funds the product roadmap (10-K FY2026)",
				"- China data center sales of $17.1 billion a year are at stake in the new export rules (https://example.com/news/nvidia-export-rules, 2026-06-30)", 1)
		case "opening/bear":
			// The bear cites the market cap its valuation gave, on the
			// recorded close.
			sc.Rules[i].Reply.Text = strings.Replace(rule.Reply.Text, "- The stock trades at a P/E (TTM) of 25.1x on the public float as of 2025-07-25 (valuation: public float, 10-K 0001045810-26-000021)",
				"- A market cap of $3.88 trillion prices in years of growth (valuation: Yahoo Finance chart API close 2026-07-07)", 1)
		}
	}
	sc, err = script.New(sc.Rules...) // compile the replies again
	if err != nil {
		t.Fatal(err)
	}
	_, dir, env := fakeOpenAI(t, sc)
	env = append(env, "PARLEY_MARKET_DATA=yahoo", "PARLEY_MARKET_DATA_URL="+prices.URL, "PARLEY_SEARXNG_URL="+searx.URL)
	// No SEC_USER_AGENT: the SEC data come from the snapshot, but the
	// network is allowed (no --offline), so market data are fetched.
	r := mustParley(t, dir, env, "", "debate", "NVDA", "--model", "test-model", "--no-checkpoints", "--json")
	var val, web string
	for _, tr := range toolResults(t, r.stdout) {
		switch tr.Name {
		case "valuation":
			val = tr.Content
		case "web_search":
			web = tr.Content
		}
	}
	for _, want := range []string{`"url":"https://example.com/news/nvidia-export-rules"`, `"published":"2026-06-30"`, `"label":"web, not checked against filings"`, `"engine":"SearXNG at http://127.0.0.1`} {
		if !strings.Contains(web, want) {
			t.Errorf("web_search result lacks %s:\n%s", want, web)
		}
	}
	// 160.40 × 24,200,000,000 cover-page shares (10-Q filed 2026-05-20).
	for _, want := range []string{`"basis":"market price"`, `"name":"market_cap"`, `"value":3881680000000`, `"date":"2026-07-07"`,
		`"source":"Yahoo Finance chart API close 2026-07-07"`, `dei:EntityCommonStockSharesOutstanding, 10-Q 0001045810-26-000052`} {
		if !strings.Contains(val, want) {
			t.Errorf("valuation result lacks %s:\n%s", want, val)
		}
	}
	if len(asked) == 0 || asked[0] != "/v8/finance/chart/NVDA" {
		t.Errorf("price requests: %v", asked)
	}
	id := between(parley(t, dir, env, "", "list", "--json").stdout, `"id": "`, `"`)

	// The JSON export: the price recorded in the options, and the fact
	// check's findings with the market figure's source and date and the
	// web figure's URL and date.
	var exp struct {
		Options struct {
			MarketPrice *struct{ Value float64 } `json:"market_price"`
		} `json:"options"`
		Notes []struct {
			Kind string          `json:"kind"`
			Data json.RawMessage `json:"data"`
		} `json:"notes"`
	}
	if js := parley(t, dir, env, "", "export", id, "--as", "json"); js.code != 0 || json.Unmarshal([]byte(js.stdout), &exp) != nil {
		t.Fatalf("export --as json: exit %d: %s", js.code, js.stderr)
	}
	if exp.Options.MarketPrice == nil || exp.Options.MarketPrice.Value != 160.4 {
		t.Errorf("the debate does not record the market price: %+v", exp.Options.MarketPrice)
	}
	type market struct{ Name, Display, Date, Source string }
	type webResult struct{ URL, Published string }
	var findings []struct {
		Status, Agent, Text, Reason string
		Market                      *market
		Web                         *webResult
	}
	for _, n := range exp.Notes {
		if n.Kind == "bullbear.fact_check" {
			var fc struct{ Findings json.RawMessage }
			if err := json.Unmarshal(n.Data, &fc); err != nil {
				t.Fatal(err)
			}
			if err := json.Unmarshal(fc.Findings, &findings); err != nil {
				t.Fatal(err)
			}
		}
	}
	var sawMarket, sawWeb bool
	for _, f := range findings {
		switch {
		case f.Agent == "bear" && f.Text == "$3.88 trillion":
			sawMarket = true
			if f.Status != "verified" || f.Market == nil || *f.Market != (market{"market_cap", "$3.88T", "2026-07-07", "Yahoo Finance chart API close 2026-07-07"}) {
				t.Errorf("the bear's market cap: %+v (market %+v)", f, f.Market)
			}
		case f.Agent == "bull" && f.Text == "$17.1 billion":
			sawWeb = true
			if f.Status != "web" || f.Reason != "web, not checked against filings" || f.Web == nil ||
				*f.Web != (webResult{"https://example.com/news/nvidia-export-rules", "2026-06-30"}) {
				t.Errorf("the bull's web figure: %+v (web %+v)", f, f.Web)
			}
		}
	}
	if !sawMarket || !sawWeb {
		t.Errorf("the fact check lacks the market cap (%v) or the web figure (%v): %+v", sawMarket, sawWeb, findings)
	}

	factCheck := []string{
		"- Bear: $3.88 trillion, Market capitalisation $3.88T (Yahoo Finance chart API close 2026-07-07)",
		"- Bull: $17.1 billion, from https://example.com/news/nvidia-export-rules (2026-06-30) [web, not checked against filings]",
	}
	if full := parley(t, dir, env, "", "export", id, "-o", filepath.Join(dir, "debate.md")); full.code != 0 {
		t.Fatalf("export: %s", full.stderr)
	}
	doc, _ := os.ReadFile(filepath.Join(dir, "debate.md"))
	for _, want := range append([]string{
		"**Tools available:** sec_filings, sec_section, sec_events, filing_search, xbrl_facts, compute_ratios, score_framework, valuation, web_search; " +
			"market data: Yahoo Finance chart API; web search: SearXNG at http://127.0.0.1",
		"https://example.com/news/nvidia-export-rules (2026-06-30), https://example.org/analysis/gpu-demand [web, not checked against filings]",
		"valuation on the market price (Yahoo Finance chart API close 2026-07-07, as of 2026-07-07)",
		"1 from the web (web, not checked against filings)",
	}, factCheck...) {
		if !strings.Contains(string(doc), want) {
			t.Errorf("the exported debate lacks %q", want)
		}
	}
	// The terminal: parley show prints the same fact check.
	shown := mustParley(t, dir, env, "", "show", id).stdout
	for _, want := range append([]string{"Tools available:", "web search: SearXNG at http://127.0.0.1"}, factCheck...) {
		if !strings.Contains(shown, want) {
			t.Errorf("parley show lacks %q:\n%s", want, shown)
		}
	}
}

// TestBullbearDataOnlyUsesEventsAndValuation runs the offline data-only
// debate (no model) on AAPL: the agents argue from the 8-K timeline and the
// public-float valuation as well as the XBRL metrics, with sources and dates.
func TestBullbearDataOnlyUsesEventsAndValuation(t *testing.T) {
	dir := t.TempDir()
	env := append(baseEnv(t), "PARLEY_DB="+filepath.Join(dir, "parley.db"))
	r := mustParley(t, dir, env, "", "debate", "AAPL", "--offline", "--no-checkpoints")
	for _, want := range []string{
		"No LLM was used",
		"8-K events since 2025-10-31 (filing date of the latest 10-K (0000320193-25-000079)",
		"Valuation: P/E (TTM) of 27.6x (public float, 10-K 0000320193-25-000079, as of 2025-03-28; public float, not a market price)",
		"Material event: 8-K filed 2026-01-02, item 5.02 (Departure of Directors or Certain Officers",
	} {
		if !strings.Contains(r.stdout, want) {
			t.Errorf("the data-only debate lacks %q", want)
		}
	}
}
