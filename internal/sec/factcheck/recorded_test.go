package factcheck

import (
	"bytes"
	"context"
	"strings"
	"testing"

	"github.com/parleyhq/parley/internal/sec/analysis"
	"github.com/parleyhq/parley/internal/sec/snapshot"
	"github.com/parleyhq/parley/internal/sec/xbrl"
)

// nvdaValuations values NVIDIA from the shipped company facts: on the public
// float (no price source), and on a recorded test close of $160.40 on
// 2026-07-07 (the market package's Yahoo test response).
func nvdaValuations(t *testing.T) (float, priced Valuation) {
	t.Helper()
	snap := snapshot.New()
	co, err := snap.Lookup(context.Background(), "NVDA")
	if err != nil {
		t.Fatal(err)
	}
	raw, err := snap.CompanyFacts(context.Background(), co.CIK)
	if err != nil {
		t.Fatal(err)
	}
	cf, err := xbrl.Parse(bytes.NewReader(raw.Body))
	if err != nil {
		t.Fatal(err)
	}
	pf, err := analysis.Value(cf, nil)
	if err != nil {
		t.Fatal(err)
	}
	price := &analysis.Price{Symbol: "NVDA", Value: 160.4, Currency: "USD", Date: "2026-07-07", Source: "Yahoo Finance chart API"}
	mp, err := analysis.Value(cf, price)
	if err != nil {
		t.Fatal(err)
	}
	return Valuation{Basis: pf.Basis, Figures: pf.Figures}, Valuation{Basis: mp.Basis, Figures: mp.Figures, Price: mp.Price}
}

func figure(t *testing.T, v Valuation, name string) analysis.ValueFigure {
	t.Helper()
	for _, f := range v.Figures {
		if f.Name == name {
			return f
		}
	}
	t.Fatalf("no %s in %+v", name, v.Figures)
	return analysis.ValueFigure{}
}

// only checks text and returns its one finding.
func only(t *testing.T, tb *Table, text string, rec *Recorded) Finding {
	t.Helper()
	fs := tb.CheckWith(text, rec)
	if len(fs) != 1 {
		t.Fatalf("%q: %d findings, want 1: %+v", text, len(fs), fs)
	}
	return fs[0]
}

// TestMarketFiguresAgainstRecordedValuation: a price, market value or
// multiple is verified or corrected against the valuation the debate
// recorded, with its source and date; with none recorded it stays market
// data, as before.
func TestMarketFiguresAgainstRecordedValuation(t *testing.T) {
	tb := tables(t)["NVDA"]
	float, priced := nvdaValuations(t)
	pe := figure(t, priced, "pe_ttm")
	if mc := figure(t, priced, "market_cap"); mc.Display != "$3.88T" || mc.Source != "Yahoo Finance chart API close 2026-07-07" || mc.Date != "2026-07-07" {
		t.Fatalf("market cap on the recorded close: %+v", mc)
	}
	onPrice := &Recorded{Valuations: []Valuation{priced}}
	onFloat := &Recorded{Valuations: []Valuation{float}}

	for _, tc := range []struct {
		name, text string
		rec        *Recorded
		status     Status
		figure     string // the recorded figure's name
		source     string // in its citation
	}{
		{"market cap on the price", "NVIDIA's market cap of $3.88 trillion prices in years of growth.", onPrice, Verified, "market_cap", "Yahoo Finance chart API close 2026-07-07"},
		{"P/E on the price", "The stock trades at a P/E (TTM) of " + pe.Display + ".", onPrice, Verified, "pe_ttm", "Yahoo Finance chart API close 2026-07-07"},
		{"price", "The share price closed at $160.40 on July 7.", onPrice, Verified, "price", "Yahoo Finance chart API close 2026-07-07"},
		{"wrong price", "The share price closed at $190.00 last week.", onPrice, Corrected, "price", "Yahoo Finance chart API close 2026-07-07"},
		{"wrong P/E", "The stock trades at a P/E (TTM) of 60.0x.", onPrice, Corrected, "pe_ttm", "Yahoo Finance chart API close 2026-07-07"},
		{"P/E on the public float", "The stock trades at a P/E (TTM) of 25.1x on the public float as of 2025-07-25.", onFloat, Verified, "pe_ttm", "public float, 10-K 0001045810-26-000021"},
		{"FCF yield on the public float", "FCF yield (TTM) of 3.0% on the public float is thin.", onFloat, Verified, "fcf_yield_ttm", "public float, 10-K 0001045810-26-000021"},
		{"wrong P/E on the public float", "On the public float the P/E (TTM) is 40.0x.", onFloat, Corrected, "pe_ttm", "public float, 10-K 0001045810-26-000021"},
		// A market multiple is not wrong for differing from the public
		// float's: the debate has no price to hold it to.
		{"market P/E with only the public float", "The stock trades at 45x earnings.", onFloat, MarketData, "", ""},
		{"forward P/E", "A forward P/E of 30x leaves no margin of safety.", onPrice, MarketData, "", ""},
		// A public-float figure is not held to a market-price valuation.
		{"public float P/E with a market price", "The stock trades at a P/E (TTM) of 25.1x on the public float.", onPrice, MarketData, "", ""},
		{"public float P/E with both", "The stock trades at a P/E (TTM) of 25.1x on the public float.", &Recorded{Valuations: []Valuation{priced, float}}, Verified, "pe_ttm", "public float, 10-K 0001045810-26-000021"},
		{"a condition", "Bull thesis breaks if: the P/E (TTM) stays above 90x.", onPrice, MarketData, "", ""},
		{"a bound", "The P/E (TTM) is above 20x.", onPrice, Verified, "pe_ttm", "Yahoo Finance chart API close 2026-07-07"},
		{"nothing recorded", "NVIDIA's market cap of $3.88 trillion prices in years of growth.", nil, MarketData, "", ""},
	} {
		t.Run(tc.name, func(t *testing.T) {
			f := only(t, tb, tc.text, tc.rec)
			if f.Status != tc.status {
				t.Fatalf("status %s (%s), want %s", f.Status, f.Reason, tc.status)
			}
			if tc.figure == "" {
				if f.Market != nil {
					t.Errorf("checked against %+v", f.Market)
				}
				if tc.rec == onFloat && !strings.Contains(f.Reason, "on the public float (P/E (TTM) 25.1x as of 2025-07-25), not a market price") {
					t.Errorf("reason %q does not say the recorded valuation is on the public float", f.Reason)
				}
				if strings.Contains(tc.text, "public float") && tc.rec == onPrice && !strings.Contains(f.Reason, "the debate's valuation is on a market price") {
					t.Errorf("reason %q does not say the recorded valuation is on a market price", f.Reason)
				}
				return
			}
			if f.Market == nil || f.Market.Name != tc.figure {
				t.Fatalf("checked against %+v, want %s", f.Market, tc.figure)
			}
			if !strings.Contains(MarketSource(*f.Market), tc.source) || f.Market.Date == "" {
				t.Errorf("citation %q lacks %q or a date", MarketSource(*f.Market), tc.source)
			}
			if tc.status == Corrected && !strings.Contains(f.Correction(), "per the recorded market data, "+f.Market.Label+" was "+f.Market.Display) {
				t.Errorf("correction %q does not give the recorded figure", f.Correction())
			}
		})
	}
	// A figure of the filings is still checked against the filings.
	if f := only(t, tb, "Revenue was $215.9 billion in fiscal 2026.", onPrice); f.Status != Verified || f.Market != nil {
		t.Errorf("revenue: %+v", f)
	}
	// Summary counts the verified market figures.
	fs := tb.CheckWith("The stock trades at a P/E (TTM) of "+pe.Display+". Revenue was $215.9 billion in fiscal 2026. A forward P/E of 30x is rich.", onPrice)
	if got, want := Summary(fs), "3 figures: 2 verified (1 against the recorded market data), 0 corrected, 0 unverified, 1 market data (not checked against filings)"; got != want {
		t.Errorf("Summary = %q, want %q", got, want)
	}
}

// TestWebFigures: a figure whose sentence cites a web result the debate
// recorded, or that the filings cannot settle and a web result states, is
// labelled web, with its URL and date; a figure of the filings with no web
// citation keeps its check.
func TestWebFigures(t *testing.T) {
	tb := tables(t)["NVDA"]
	_, priced := nvdaValuations(t)
	rec := &Recorded{Valuations: []Valuation{priced}, Web: []WebSource{
		{URL: "https://example.com/news/nvidia-export-rules", Published: "2026-06-30", Engine: "SearXNG",
			Text: "Chip export rules tighten. New export rules could cut data center sales to China by 12%."},
		{URL: "https://www.example.org/analysis/gpu-demand", Text: "GPU demand outlook"},
	}}
	for _, tc := range []struct {
		text   string
		status Status
		url    string
	}{
		{"The share price closed at $171.20 after the export news (https://example.com/news/nvidia-export-rules, 2026-06-30).", Web, "https://example.com/news/nvidia-export-rules"},
		{"Analysts at example.org put the stock at 40x earnings.", Web, "https://www.example.org/analysis/gpu-demand"},
		{"Export rules could cut China sales by 12%.", Web, "https://example.com/news/nvidia-export-rules"},
		{"Demand could rise 13% next year.", Unverified, ""},
		// A figure cited from the web is the web's, even of a reported line.
		{"Revenue was $215.9 billion in fiscal 2026 (https://example.com/news/nvidia-export-rules).", Web, "https://example.com/news/nvidia-export-rules"},
		{"Revenue was $215.9 billion in fiscal 2026 (10-K).", Verified, ""},
	} {
		f := only(t, tb, tc.text, rec)
		if f.Status != tc.status {
			t.Errorf("%q: status %s (%s), want %s", tc.text, f.Status, f.Reason, tc.status)
			continue
		}
		if tc.url == "" {
			if f.Web != nil {
				t.Errorf("%q: attributed to %+v", tc.text, f.Web)
			}
			continue
		}
		if f.Web == nil || f.Web.URL != tc.url {
			t.Errorf("%q: web source %+v, want %s", tc.text, f.Web, tc.url)
		}
		if f.Status == Web && f.Reason != WebLabel {
			t.Errorf("%q: reason %q, want %q", tc.text, f.Reason, WebLabel)
		}
	}
	if got := rec.Web[0].Cite(); got != "https://example.com/news/nvidia-export-rules (2026-06-30)" {
		t.Errorf("Cite = %q", got)
	}
}

// TestSummaryOneFigure: one figure is counted in the singular.
func TestSummaryOneFigure(t *testing.T) {
	if got, want := Summary([]Finding{{Status: Unverified}}), "1 figure: 0 verified, 0 corrected, 1 unverified"; got != want {
		t.Errorf("Summary = %q, want %q", got, want)
	}
}
