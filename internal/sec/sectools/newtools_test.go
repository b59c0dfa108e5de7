package sectools

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/parleyhq/parley/internal/sec/analysis"
	"github.com/parleyhq/parley/internal/sec/edgar"
	"github.com/parleyhq/parley/internal/sec/snapshot"
	"github.com/parleyhq/parley/internal/sec/xbrl"
	"github.com/parleyhq/parley/internal/tool"
)

// valuer is the real valuation over the companyfacts document.
type valuer struct{}

func (valuer) Valuation(ctx context.Context, companyfacts []byte, p *analysis.Price) (*analysis.Valuation, error) {
	cf, err := xbrl.Parse(bytes.NewReader(companyfacts))
	if err != nil {
		return nil, err
	}
	return analysis.Value(cf, p)
}

func companySet(t *testing.T, src edgar.Source, ticker string, mod func(*Config)) *Set {
	t.Helper()
	c, err := src.Lookup(context.Background(), ticker)
	if err != nil {
		t.Fatal(err)
	}
	cfg := Config{Source: src, Company: c, Valuation: valuer{}}
	if mod != nil {
		mod(&cfg)
	}
	s, err := New(cfg)
	if err != nil {
		t.Fatal(err)
	}
	return s
}

type timelineOut struct {
	Source      string  `json:"source"`
	Since       string  `json:"since"`
	SinceReason string  `json:"since_reason"`
	Events      []Event `json:"events"`
	Note        string  `json:"note"`
}

// TestEventsOffline checks the 8-K timeline since the last 10-K from the
// shipped filing lists (recorded 2026-03-05).
func TestEventsOffline(t *testing.T) {
	for _, tc := range []struct {
		ticker, since, first, firstItems string
		n                                int
	}{
		// NVIDIA's FY2026 10-K was filed 2026-02-25; its results 8-K of the same day follows.
		{"NVDA", "2026-02-25", "2026-02-25", "2.02", 1},
		// Apple's FY2025 10-K: 2025-10-31; then 5.02 (x2), 2.02, 5.07 8-Ks.
		{"AAPL", "2025-10-31", "2026-02-24", "5.07", 4},
	} {
		t.Run(tc.ticker, func(t *testing.T) {
			r := registry(t, companySet(t, snapshot.New(), tc.ticker, nil))
			var got timelineOut
			callJSON(t, r, NameEvents, `{}`, &got)
			if got.Since != tc.since || !strings.Contains(got.SinceReason, "latest 10-K") {
				t.Errorf("since = %s (%s), want %s", got.Since, got.SinceReason, tc.since)
			}
			if len(got.Events) != tc.n {
				t.Fatalf("%d events, want %d: %+v", len(got.Events), tc.n, got.Events)
			}
			e := got.Events[0]
			if e.Filed != tc.first || e.Items[0].Code != tc.firstItems || e.Items[0].Meaning == "" ||
				!strings.HasPrefix(e.URL, "https://www.sec.gov/Archives/edgar/data/") || !strings.HasSuffix(e.URL, e.Accession+"-index.htm") {
				t.Errorf("first event = %+v", e)
			}
			if !strings.Contains(got.Source, "offline snapshot recorded 2026-03-05") || !strings.Contains(got.Note, "later 8-Ks are not in it") {
				t.Errorf("source/note = %q / %q", got.Source, got.Note)
			}
		})
	}
	t.Run("AAPL items filter", func(t *testing.T) {
		r := registry(t, companySet(t, snapshot.New(), "AAPL", nil))
		var got timelineOut
		callJSON(t, r, NameEvents, `{"since":"2025-01-01","items":["5.02"]}`, &got)
		// 5.02 8-Ks of 2025-01-03, 2025-07-09, 2025-07-25, 2025-12-05, 2026-01-02.
		if len(got.Events) != 5 {
			t.Fatalf("%d officer-change events, want 5: %+v", len(got.Events), got.Events)
		}
		for _, e := range got.Events {
			if !strings.Contains(e.Items[0].Meaning, "Departure of Directors or Certain Officers") {
				t.Errorf("5.02 meaning = %q", e.Items[0].Meaning)
			}
		}
	})
	t.Run("GOOGL has no shipped filing list", func(t *testing.T) {
		r := registry(t, companySet(t, snapshot.New(), "GOOGL", nil))
		_, err := r.Call(context.Background(), NameEvents, json.RawMessage(`{}`))
		if !errors.Is(err, edgar.ErrNotAvailable) || !strings.Contains(err.Error(), "no submissions for CIK 0001652044") {
			t.Errorf("err = %v", err)
		}
	})
	t.Run("exhibit offline", func(t *testing.T) {
		r := registry(t, companySet(t, snapshot.New(), "NVDA", nil))
		_, err := r.Call(context.Background(), NameEvents, json.RawMessage(`{"accession":"0001045810-26-000019","question":"revenue"}`))
		if err == nil || !strings.Contains(err.Error(), "not available offline") {
			t.Errorf("err = %v", err)
		}
	})
	r := registry(t, companySet(t, snapshot.New(), "NVDA", nil))
	for _, bad := range []string{`{"since":"yesterday"}`, `{"items":["9.99"]}`, `{"question":"why"}`, `{"accession":"0001045810-26-000021"}`} {
		if _, err := r.Call(context.Background(), NameEvents, json.RawMessage(bad)); !errors.Is(err, tool.ErrBadArgs) {
			t.Errorf("%s: err = %v, want ErrBadArgs", bad, err)
		}
	}
}

// liveEDGAR is an httptest EDGAR serving the recorded NVIDIA filing list, one
// 8-K's index page and exhibit, and counting document requests.
func liveEDGAR(t *testing.T) (*edgar.Client, *atomic.Int64) {
	t.Helper()
	snap := snapshot.New()
	subs, err := snap.Submissions(context.Background(), 1045810)
	if err != nil {
		t.Fatal(err)
	}
	var docs atomic.Int64
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		switch r.URL.Path {
		case "/submissions/CIK0001045810.json":
			// Re-encode the recorded filing list in EDGAR's columnar form.
			fmt.Fprint(w, submissionsJSON(subs))
		case "/Archives/edgar/data/1045810/000104581026000019/0001045810-26-000019-index.htm":
			docs.Add(1)
			fmt.Fprint(w, `<html><body><table class="tableFile" summary="Document Format Files">
<tr><th>Seq</th><th>Description</th><th>Document</th><th>Type</th><th>Size</th></tr>
<tr><td scope="row">1</td><td scope="row">8-K</td><td scope="row"><a href="/ix?doc=/Archives/edgar/data/1045810/000104581026000019/nvda-20260225.htm">nvda-20260225.htm</a></td><td scope="row">8-K</td><td scope="row">30000</td></tr>
<tr><td scope="row">2</td><td scope="row">PRESS RELEASE</td><td scope="row"><a href="/Archives/edgar/data/1045810/000104581026000019/q4fy26pr.htm">q4fy26pr.htm</a></td><td scope="row">EX-99.1</td><td scope="row">90000</td></tr>
</table></body></html>`)
		case "/Archives/edgar/data/1045810/000104581026000019/q4fy26pr.htm":
			docs.Add(1)
			fmt.Fprint(w, `<html><body><p>NVIDIA Announces Financial Results for Fourth Quarter and Fiscal 2026</p>
<p>Record quarterly revenue; Data Center revenue up year on year.</p>
<p>The company's board declared a quarterly cash dividend.</p>
<p>Export controls on H20 shipments to China reduced revenue in the quarter.</p></body></html>`)
		default:
			http.NotFound(w, r)
		}
	}))
	t.Cleanup(srv.Close)
	c, err := edgar.New(edgar.Config{UserAgent: "Parley Tests tests@example.com", WWWBase: srv.URL, DataBase: srv.URL,
		InitialBackoff: time.Millisecond, RequestsPerSecond: 1000})
	if err != nil {
		t.Fatal(err)
	}
	return c, &docs
}

// submissionsJSON writes a filing list back in EDGAR's submissions format.
func submissionsJSON(s *edgar.Submissions) string {
	cols := map[string][]string{}
	for _, f := range s.Filings {
		cols["accessionNumber"] = append(cols["accessionNumber"], f.Accession)
		cols["form"] = append(cols["form"], f.Form)
		cols["filingDate"] = append(cols["filingDate"], f.FilingDate)
		cols["reportDate"] = append(cols["reportDate"], f.ReportDate)
		cols["primaryDocument"] = append(cols["primaryDocument"], f.PrimaryDocument)
		cols["primaryDocDescription"] = append(cols["primaryDocDescription"], f.Description)
		cols["items"] = append(cols["items"], f.Items)
	}
	b, _ := json.Marshal(map[string]any{"cik": "1045810", "name": s.Name, "tickers": s.Tickers,
		"filings": map[string]any{"recent": cols, "files": []any{}}})
	return string(b)
}

// TestEventsExhibitLive reads an 8-K's press release over (test) EDGAR and
// returns the passages that answer the question, with the link.
func TestEventsExhibitLive(t *testing.T) {
	c, docs := liveEDGAR(t)
	r := registry(t, companySet(t, snapshot.New(), "NVDA", func(cfg *Config) { cfg.Source = c }))
	out, err := r.Call(context.Background(), NameEvents, json.RawMessage(`{"accession":"0001045810-26-000019","question":"export controls China"}`))
	if err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{"8-K filed 2026-02-25", "2.02 Results of Operations and Financial Condition", "EX-99.1 q4fy26pr.htm",
		"SEC EDGAR, fetched", "/Archives/edgar/data/1045810/000104581026000019/q4fy26pr.htm",
		"NVIDIA Announces Financial Results", "Export controls on H20 shipments to China"} {
		if !strings.Contains(out, want) {
			t.Errorf("exhibit answer lacks %q:\n%s", want, out)
		}
	}
	if docs.Load() != 2 {
		t.Errorf("%d document requests, want 2 (index, exhibit)", docs.Load())
	}
}

type searchOut struct {
	Searched []string  `json:"searched"`
	Passages []Passage `json:"passages"`
	Source   string    `json:"source"`
	Notes    []string  `json:"notes"`
}

// TestFilingSearchOffline searches the filing text the snapshot ships: a hit
// with its section and accession for each of NVDA, AAPL and GOOGL, and a
// plain note that the latest filings' text is not shipped.
func TestFilingSearchOffline(t *testing.T) {
	for _, tc := range []struct {
		ticker, query, section, accession string
	}{
		{"NVDA", "export controls China H20", "Risk Factors", ""},
		{"AAPL", "iPhone net sales Greater China", "", ""},
		{"GOOGL", "Google Cloud operating income segment", "", "0001652044-25-000014"},
	} {
		t.Run(tc.ticker, func(t *testing.T) {
			r := registry(t, companySet(t, snapshot.New(), tc.ticker, nil))
			var got searchOut
			callJSON(t, r, NameSearch, fmt.Sprintf(`{"query":%q}`, tc.query), &got)
			if len(got.Passages) == 0 {
				t.Fatalf("no passage for %q; searched %v", tc.query, got.Searched)
			}
			p := got.Passages[0]
			t.Logf("%s: %q → %s %s [%s] %.120q", tc.ticker, tc.query, p.Form, p.Accession, p.Section, p.Text)
			if !strings.HasPrefix(p.Section, "Item ") && !strings.HasPrefix(p.Section, "Part ") {
				t.Errorf("section = %q, want an item", p.Section)
			}
			if tc.section != "" && !strings.Contains(p.Section, tc.section) {
				t.Errorf("section = %q, want %s", p.Section, tc.section)
			}
			if tc.accession != "" && p.Accession != tc.accession {
				t.Errorf("accession = %s, want %s", p.Accession, tc.accession)
			}
			words := strings.Fields(strings.ToLower(tc.query))
			if !strings.Contains(strings.ToLower(p.Text), words[0]) {
				t.Errorf("best passage lacks %q: %s", words[0], p.Text)
			}
			if !strings.Contains(got.Source, "offline snapshot recorded 2025-10-09") || !strings.HasSuffix(p.URL, ".htm") {
				t.Errorf("source = %q url = %q", got.Source, p.URL)
			}
			notes := strings.Join(got.Notes, " ")
			if !strings.Contains(notes, "offline snapshot ships") {
				t.Errorf("notes do not say the shipped filings are older: %q", notes)
			}
		})
	}
}

// TestFilingSearchLive fetches the latest 10-K from (test) EDGAR, indexes it
// once and answers two queries from it.
func TestFilingSearchLive(t *testing.T) {
	snap := snapshot.New()
	shipped, err := snap.Document(context.Background(), 1045810, "0001045810-25-000023", "nvda-20250126.htm")
	if err != nil {
		t.Fatal(err)
	}
	subs, _ := snap.Submissions(context.Background(), 1045810)
	// Make the shipped 10-K the latest filing this EDGAR knows.
	var filings []edgar.Filing
	for _, f := range subs.Filings {
		if f.FilingDate <= "2025-02-26" {
			filings = append(filings, f)
		}
	}
	subs.Filings = filings
	var docs atomic.Int64
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		switch r.URL.Path {
		case "/submissions/CIK0001045810.json":
			fmt.Fprint(w, submissionsJSON(subs))
		case "/Archives/edgar/data/1045810/000104581025000023/nvda-20250126.htm":
			docs.Add(1)
			w.Write(shipped.Body)
		default:
			http.NotFound(w, r)
		}
	}))
	defer srv.Close()
	c, err := edgar.New(edgar.Config{UserAgent: "Parley Tests tests@example.com", WWWBase: srv.URL, DataBase: srv.URL, RequestsPerSecond: 1000})
	if err != nil {
		t.Fatal(err)
	}
	r := registry(t, companySet(t, snap, "NVDA", func(cfg *Config) { cfg.Source = c }))
	var got searchOut
	callJSON(t, r, NameSearch, `{"query":"Compute & Networking segment revenue","limit":3}`, &got)
	if len(got.Searched) != 1 || !strings.HasPrefix(got.Searched[0], "10-K 0001045810-25-000023") || len(got.Passages) != 3 {
		t.Fatalf("searched %v, %d passages", got.Searched, len(got.Passages))
	}
	if !strings.Contains(got.Source, "SEC EDGAR, fetched") {
		t.Errorf("source = %q", got.Source)
	}
	callJSON(t, r, NameSearch, `{"query":"supply chain concentration"}`, &got)
	if docs.Load() != 1 {
		t.Errorf("the 10-K was fetched %d times, want once", docs.Load())
	}
	if _, err := r.Call(context.Background(), NameSearch, json.RawMessage(`{"query":"the of"}`)); !errors.Is(err, tool.ErrBadArgs) {
		t.Errorf("stop-word query: err = %v", err)
	}
}

type valuationOut struct {
	Source  string                 `json:"source"`
	Basis   string                 `json:"basis"`
	Figures []analysis.ValueFigure `json:"figures"`
	Inputs  []analysis.ValueInput  `json:"inputs"`
	Notes   []string               `json:"notes"`
}

func (v valuationOut) figure(name string) (analysis.ValueFigure, bool) {
	for _, f := range v.Figures {
		if f.Name == name {
			return f, true
		}
	}
	return analysis.ValueFigure{}, false
}

// TestValuationFromPublicFloat values each shipped company with no price
// source: the public float of its latest 10-K, with that date, and says so.
func TestValuationFromPublicFloat(t *testing.T) {
	for _, tc := range []struct {
		ticker, date, accession string
		float                   float64
	}{
		{"NVDA", "2025-07-25", "0001045810-26-000021", 4_000_000_000_000},
		{"AAPL", "2025-03-28", "0000320193-25-000079", 3_253_431_000_000},
		{"GOOGL", "2025-06-30", "0001652044-26-000018", 1_900_000_000_000},
	} {
		t.Run(tc.ticker, func(t *testing.T) {
			r := registry(t, companySet(t, snapshot.New(), tc.ticker, nil))
			var got valuationOut
			callJSON(t, r, NameValuation, `{}`, &got)
			mv, ok := got.figure("market_value")
			if got.Basis != analysis.BasisPublicFloat || !ok || mv.Value != tc.float || mv.Date != tc.date || !strings.Contains(mv.Source, tc.accession) {
				t.Fatalf("basis %q, market value %+v", got.Basis, mv)
			}
			pe, ok := got.figure("pe_ttm")
			if !ok {
				t.Fatal("no P/E")
			}
			var ni float64
			for _, in := range got.Inputs {
				if in.Name == "net_income_ttm" {
					ni = in.Value
				}
			}
			if ni <= 0 || pe.Value != tc.float/ni || pe.Date != tc.date || !strings.Contains(pe.Note, "public float") {
				t.Errorf("P/E %+v from net income %v", pe, ni)
			}
			for _, name := range []string{"ps_ttm", "enterprise_value", "ev_ebit_ttm", "fcf_yield_ttm"} {
				if f, ok := got.figure(name); !ok || f.Source == "" || f.Date == "" {
					t.Errorf("%s missing or unsourced: %+v", name, f)
				}
			}
			if !strings.Contains(strings.Join(got.Notes, " "), "No market price source is configured") {
				t.Errorf("notes do not say the public float is used: %q", got.Notes)
			}
		})
	}
}

// fixedPrice is a PriceSource for tests.
type fixedPrice struct {
	p   *analysis.Price
	err error
}

func (f fixedPrice) Price(ctx context.Context, symbol string) (*analysis.Price, error) {
	return f.p, f.err
}

func TestValuationWithPrice(t *testing.T) {
	price := &analysis.Price{Symbol: "NVDA", Value: 150, Currency: "USD", Date: "2026-07-08", Source: "Test prices"}
	r := registry(t, companySet(t, snapshot.New(), "NVDA", func(c *Config) { c.Prices = fixedPrice{p: price} }))
	var got valuationOut
	callJSON(t, r, NameValuation, `{}`, &got)
	mc, ok := got.figure("market_cap")
	// 24,200,000,000 shares on the cover of the 10-Q filed 2026-05-20.
	if got.Basis != analysis.BasisMarketPrice || !ok || mc.Value != 150*24_200_000_000 || mc.Date != "2026-07-08" || !strings.Contains(mc.Source, "Test prices") {
		t.Fatalf("basis %q market cap %+v", got.Basis, mc)
	}
	// A price in another currency is not used.
	eur := &analysis.Price{Symbol: "NVD", Value: 140, Currency: "EUR", Date: "2026-07-08", Source: "Test prices"}
	r = registry(t, companySet(t, snapshot.New(), "NVDA", func(c *Config) { c.Prices = fixedPrice{p: eur} }))
	callJSON(t, r, NameValuation, `{}`, &got)
	if got.Basis != analysis.BasisPublicFloat || !strings.Contains(got.Notes[0], "in EUR") {
		t.Errorf("EUR price: basis %q notes %q", got.Basis, got.Notes)
	}
	// A failing provider falls back to the public float and says why.
	r = registry(t, companySet(t, snapshot.New(), "NVDA", func(c *Config) { c.Prices = fixedPrice{err: errors.New("HTTP 503")} }))
	callJSON(t, r, NameValuation, `{}`, &got)
	if got.Basis != analysis.BasisPublicFloat || !strings.Contains(got.Notes[0], "HTTP 503") {
		t.Errorf("fallback basis %q notes %q", got.Basis, got.Notes)
	}
}
