package market

import (
	"context"
	"errors"
	"net/http"
	"net/http/httptest"
	"os"
	"strings"
	"testing"
)

// serve answers every request with a testdata file and records the requests.
func serve(t *testing.T, file string, status int) (*httptest.Server, *[]*http.Request) {
	t.Helper()
	body, err := os.ReadFile("testdata/" + file)
	if err != nil {
		t.Fatal(err)
	}
	var reqs []*http.Request
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		reqs = append(reqs, r)
		w.WriteHeader(status)
		w.Write(body)
	}))
	t.Cleanup(srv.Close)
	return srv, &reqs
}

func TestYahoo(t *testing.T) {
	srv, reqs := serve(t, "yahoo_chart_NVDA.json", 200)
	p, err := New(Config{Provider: "yahoo", BaseURL: srv.URL})
	if err != nil {
		t.Fatal(err)
	}
	got, err := p.Price(context.Background(), "nvda")
	if err != nil {
		t.Fatal(err)
	}
	// The last bar (2026-07-08) has no close yet: the latest close is 2026-07-07's.
	if got.Value != 160.4 || got.Date != "2026-07-07" || got.Currency != "USD" || got.Symbol != "NVDA" ||
		got.Source != "Yahoo Finance chart API" || !strings.Contains(got.URL, "/v8/finance/chart/NVDA?range=5d&interval=1d") {
		t.Errorf("price = %+v", got)
	}
	if r := (*reqs)[0]; r.URL.Path != "/v8/finance/chart/NVDA" || r.Header.Get("User-Agent") == "" {
		t.Errorf("request %s UA %q", r.URL, r.Header.Get("User-Agent"))
	}

	nf, _ := serve(t, "yahoo_chart_notfound.json", 404)
	p, _ = New(Config{Provider: "yahoo", BaseURL: nf.URL})
	if _, err := p.Price(context.Background(), "ZZZZ"); err == nil || !strings.Contains(err.Error(), "HTTP 404") {
		t.Errorf("not found: err = %v", err)
	}
	nf200, _ := serve(t, "yahoo_chart_notfound.json", 200)
	p, _ = New(Config{Provider: "yahoo", BaseURL: nf200.URL})
	if _, err := p.Price(context.Background(), "ZZZZ"); !errors.Is(err, ErrNoPrice) || !strings.Contains(err.Error(), "No data found") {
		t.Errorf("chart error: err = %v", err)
	}
}

func TestAlphaVantage(t *testing.T) {
	srv, reqs := serve(t, "alphavantage_daily_NVDA.json", 200)
	p, err := New(Config{Provider: "alphavantage", APIKey: "secret-key", BaseURL: srv.URL})
	if err != nil {
		t.Fatal(err)
	}
	got, err := p.Price(context.Background(), "NVDA")
	if err != nil {
		t.Fatal(err)
	}
	if got.Value != 160.4 || got.Date != "2026-07-07" || got.Source != "Alpha Vantage TIME_SERIES_DAILY" {
		t.Errorf("price = %+v", got)
	}
	if strings.Contains(got.URL, "secret-key") || !strings.Contains(got.URL, "apikey=REDACTED") {
		t.Errorf("the cited URL leaks the key: %s", got.URL)
	}
	q := (*reqs)[0].URL.Query()
	if q.Get("function") != "TIME_SERIES_DAILY" || q.Get("symbol") != "NVDA" || q.Get("apikey") != "secret-key" {
		t.Errorf("query = %v", q)
	}
	for _, file := range []string{"alphavantage_ratelimit.json", "alphavantage_badsymbol.json"} {
		srv, _ := serve(t, file, 200)
		p, _ := New(Config{Provider: "alphavantage", APIKey: "k", BaseURL: srv.URL})
		if _, err := p.Price(context.Background(), "NVDA"); !errors.Is(err, ErrNoPrice) {
			t.Errorf("%s: err = %v, want ErrNoPrice", file, err)
		}
	}
}

func TestNewConfig(t *testing.T) {
	if p, err := New(FromEnv(func(string) string { return "" })); p != nil || err != nil {
		t.Errorf("unset: %v %v, want off", p, err)
	}
	env := map[string]string{EnvProvider: "alphavantage"}
	if _, err := New(FromEnv(func(k string) string { return env[k] })); err == nil || !strings.Contains(err.Error(), EnvAlphaVantageKey) {
		t.Errorf("keyless alphavantage: err = %v", err)
	}
	if _, err := New(Config{Provider: "bloomberg"}); err == nil || !strings.Contains(err.Error(), "yahoo") {
		t.Errorf("unknown: err = %v", err)
	}
}
