package edgar

import (
	"context"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"slices"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"
)

const testUA = "Parley Tests parley-tests@example.com"

// newTestClient returns a client whose both bases point at srv.
func newTestClient(t *testing.T, srv *httptest.Server, mod func(*Config)) *Client {
	t.Helper()
	cfg := Config{
		UserAgent:      testUA,
		WWWBase:        srv.URL,
		DataBase:       srv.URL,
		InitialBackoff: time.Millisecond,
		Logger:         slog.New(slog.NewTextHandler(io.Discard, nil)),
	}
	if mod != nil {
		mod(&cfg)
	}
	c, err := New(cfg)
	if err != nil {
		t.Fatal(err)
	}
	return c
}

func TestNewRequiresUserAgent(t *testing.T) {
	t.Setenv(EnvUserAgent, "")
	for _, ua := range []string{"", "parley"} {
		_, err := New(Config{UserAgent: ua})
		if !errors.Is(err, ErrNoUserAgent) {
			t.Fatalf("New(UserAgent=%q) err = %v, want ErrNoUserAgent", ua, err)
		}
		if !strings.Contains(err.Error(), "export SEC_USER_AGENT=") {
			t.Errorf("error does not say how to set the User-Agent: %v", err)
		}
	}
	t.Setenv(EnvUserAgent, testUA)
	if _, err := New(Config{}); err != nil {
		t.Errorf("New with $%s set: %v", EnvUserAgent, err)
	}
}

func TestUserAgentSent(t *testing.T) {
	var got atomic.Value
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		got.Store(r.Header.Get("User-Agent"))
		fmt.Fprint(w, `{"cik":"320193","entityName":"Apple Inc.","facts":{}}`)
	}))
	defer srv.Close()
	c := newTestClient(t, srv, nil)
	if _, err := c.CompanyFacts(context.Background(), 320193); err != nil {
		t.Fatal(err)
	}
	if got.Load() != testUA {
		t.Errorf("User-Agent = %q, want %q", got.Load(), testUA)
	}
}

func TestRateLimit(t *testing.T) {
	var mu sync.Mutex
	var seen []time.Time
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		mu.Lock()
		seen = append(seen, time.Now())
		mu.Unlock()
		fmt.Fprint(w, `{}`)
	}))
	defer srv.Close()
	// Ask for more than the limit: the client must ignore it.
	c := newTestClient(t, srv, func(cfg *Config) { cfg.RequestsPerSecond = 1000 })

	const n = 2*MaxRequestsPerSecond + 1
	var wg sync.WaitGroup
	for i := range n {
		wg.Go(func() {
			if _, err := c.CompanyFacts(context.Background(), CIK(i+1)); err != nil {
				t.Error(err)
			}
		})
	}
	wg.Wait()
	if len(seen) != n {
		t.Fatalf("server saw %d requests, want %d", len(seen), n)
	}
	// No secCeiling+1 consecutive requests (the SEC's own limit, which
	// MaxRequestsPerSecond keeps under) may arrive within a second; without
	// the limiter they arrive within milliseconds. Held to the ceiling, not
	// to the limit, and with a slack: a request the busy machine delays
	// arrives bunched with the next ones, which the headroom absorbs.
	const slack = 100 * time.Millisecond
	slices.SortFunc(seen, func(x, y time.Time) int { return x.Compare(y) })
	for i := 0; i+secCeiling < len(seen); i++ {
		if span := seen[i+secCeiling].Sub(seen[i]); span < time.Second-slack {
			t.Fatalf("requests %d..%d arrived within %v: more than %d per second (the limit %d, less the machine's jitter)", i, i+secCeiling, span, secCeiling, MaxRequestsPerSecond)
		}
	}
}

func TestBlockPage(t *testing.T) {
	var hits atomic.Int32
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		hits.Add(1)
		w.Header().Set("Content-Type", "text/html")
		w.WriteHeader(http.StatusForbidden)
		fmt.Fprint(w, `<html><head><title>SEC.gov | Request Rate Threshold Exceeded</title></head><body>
<h1>Your Request Originates from an Undeclared Automated Tool</h1>
<p>To allow for equitable access to all users, SEC reserves the right to limit requests originating from undeclared automated tools.</p></body></html>`)
	}))
	defer srv.Close()
	c := newTestClient(t, srv, nil)
	_, err := c.Submissions(context.Background(), 1045810)
	if !errors.Is(err, ErrBlocked) {
		t.Fatalf("err = %v, want ErrBlocked", err)
	}
	if errors.Is(err, ErrUnreachable) {
		t.Errorf("a block is not unreachability: %v", err)
	}
	if !strings.Contains(err.Error(), "Request Rate Threshold Exceeded") || !strings.Contains(err.Error(), EnvUserAgent) {
		t.Errorf("error does not explain the block: %v", err)
	}
	if h := hits.Load(); h != 1 {
		t.Errorf("block page was retried: %d requests", h)
	}
}

func TestOtherForbiddenIsNotBlock(t *testing.T) {
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		http.Error(w, "Access Denied", http.StatusForbidden)
	}))
	defer srv.Close()
	_, err := newTestClient(t, srv, nil).CompanyFacts(context.Background(), 1)
	if err == nil || errors.Is(err, ErrBlocked) || !strings.Contains(err.Error(), "403") {
		t.Fatalf("err = %v, want a plain 403 error", err)
	}
}

func TestRetryAfterHonoured(t *testing.T) {
	var mu sync.Mutex
	var seen []time.Time
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		mu.Lock()
		seen = append(seen, time.Now())
		first := len(seen) == 1
		mu.Unlock()
		if first {
			w.Header().Set("Retry-After", "1")
			http.Error(w, "slow down", http.StatusTooManyRequests)
			return
		}
		fmt.Fprint(w, `{"ok":true}`)
	}))
	defer srv.Close()
	c := newTestClient(t, srv, nil) // InitialBackoff is 1ms, so only Retry-After explains a long wait
	raw, err := c.CompanyFacts(context.Background(), 320193)
	if err != nil {
		t.Fatal(err)
	}
	if string(raw.Body) != `{"ok":true}` {
		t.Errorf("body = %s", raw.Body)
	}
	if len(seen) != 2 {
		t.Fatalf("server saw %d requests, want 2", len(seen))
	}
	if gap := seen[1].Sub(seen[0]); gap < 900*time.Millisecond {
		t.Errorf("retried after %v; Retry-After asked for 1s", gap)
	}
}

func TestRetryAfterTooLong(t *testing.T) {
	var hits atomic.Int32
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		hits.Add(1)
		w.Header().Set("Retry-After", "3600")
		http.Error(w, "maintenance", http.StatusServiceUnavailable)
	}))
	defer srv.Close()
	_, err := newTestClient(t, srv, nil).CompanyFacts(context.Background(), 1)
	if !errors.Is(err, ErrUnreachable) || !strings.Contains(err.Error(), "1h0m0s") {
		t.Fatalf("err = %v, want ErrUnreachable naming the wait", err)
	}
	if hits.Load() != 1 {
		t.Errorf("waited out an hour-long Retry-After? %d requests", hits.Load())
	}
}

func TestServerErrorsRetriedThenUnreachable(t *testing.T) {
	var hits atomic.Int32
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if hits.Add(1) <= 2 {
			http.Error(w, "bad gateway", http.StatusBadGateway)
			return
		}
		fmt.Fprint(w, `{}`)
	}))
	defer srv.Close()
	c := newTestClient(t, srv, func(cfg *Config) { cfg.MaxAttempts = 3 })
	if _, err := c.CompanyFacts(context.Background(), 1); err != nil {
		t.Fatalf("third try should succeed: %v", err)
	}
	hits.Store(-10) // every further request fails
	_, err := c.CompanyFacts(context.Background(), 1)
	if !errors.Is(err, ErrUnreachable) || !strings.Contains(err.Error(), "after 3 attempts") {
		t.Fatalf("err = %v, want ErrUnreachable after 3 attempts", err)
	}
}

func TestNetworkErrorUnreachable(t *testing.T) {
	srv := httptest.NewServer(http.NotFoundHandler())
	c := newTestClient(t, srv, func(cfg *Config) { cfg.MaxAttempts = 2 })
	srv.Close() // connections are now refused
	_, err := c.CompanyFacts(context.Background(), 1)
	if !errors.Is(err, ErrUnreachable) {
		t.Fatalf("err = %v, want ErrUnreachable", err)
	}
}

func TestNotFound(t *testing.T) {
	srv := httptest.NewServer(http.NotFoundHandler())
	defer srv.Close()
	_, err := newTestClient(t, srv, nil).Submissions(context.Background(), 1)
	if !errors.Is(err, ErrNotFound) || errors.Is(err, ErrUnreachable) {
		t.Fatalf("err = %v, want ErrNotFound", err)
	}
}

const tickersJSON = `{"0":{"cik_str":1045810,"ticker":"NVDA","title":"NVIDIA CORP"},
"1":{"cik_str":1067983,"ticker":"BRK-B","title":"BERKSHIRE HATHAWAY INC"}}`

func TestLookup(t *testing.T) {
	var hits atomic.Int32
	mux := http.NewServeMux()
	mux.HandleFunc("GET /files/company_tickers.json", func(w http.ResponseWriter, r *http.Request) {
		hits.Add(1)
		fmt.Fprint(w, tickersJSON)
	})
	srv := httptest.NewServer(mux)
	defer srv.Close()
	c := newTestClient(t, srv, nil)
	ctx := context.Background()

	got, err := c.Lookup(ctx, "nvda")
	if err != nil || got != (Company{CIK: 1045810, Ticker: "NVDA", Name: "NVIDIA CORP"}) {
		t.Errorf("Lookup(nvda) = %+v, %v", got, err)
	}
	if got, err := c.Lookup(ctx, "BRK.B"); err != nil || got.CIK != 1067983 {
		t.Errorf("Lookup(BRK.B) = %+v, %v", got, err)
	}
	_, err = c.Lookup(ctx, "ZZZZZ")
	if !errors.Is(err, ErrUnknownTicker) || !strings.Contains(err.Error(), `"ZZZZZ"`) {
		t.Errorf("Lookup(ZZZZZ) err = %v, want ErrUnknownTicker naming it", err)
	}
	if hits.Load() != 1 {
		t.Errorf("ticker list fetched %d times, want once", hits.Load())
	}
}

// Submissions: a recent page with no 10-K, and an older page (flat columns)
// holding the only 10-K.
const (
	recentJSON = `{"cik":"0000000042","name":"OLD FILER INC","tickers":["OLDF"],"fiscalYearEnd":"1231",
"filings":{"recent":{"accessionNumber":["0000000042-24-000002","0000000042-24-000001"],
"filingDate":["2024-05-01","2024-02-01"],"reportDate":["2024-03-31",""],"form":["10-Q","8-K"],
"items":["","2.02"],"primaryDocument":["q1.htm","ex.htm"],"primaryDocDescription":["10-Q","8-K"]},
"files":[{"name":"CIK0000000042-submissions-001.json","filingCount":2,"filingFrom":"2001-01-01","filingTo":"2010-01-01"}]}}`
	olderJSON = `{"accessionNumber":["0000000042-10-000001","0000000042-05-000009"],
"filingDate":["2010-01-01","2005-03-01"],"reportDate":["2009-12-31","2004-12-31"],"form":["4","10-K"],
"items":["",""],"primaryDocument":["f4.xml","k2004.htm"],"primaryDocDescription":["",""]}`
)

func TestSubmissionsFollowsOlderPages(t *testing.T) {
	mux := http.NewServeMux()
	mux.HandleFunc("GET /submissions/CIK0000000042.json", func(w http.ResponseWriter, r *http.Request) {
		fmt.Fprint(w, recentJSON)
	})
	mux.HandleFunc("GET /submissions/CIK0000000042-submissions-001.json", func(w http.ResponseWriter, r *http.Request) {
		fmt.Fprint(w, olderJSON)
	})
	srv := httptest.NewServer(mux)
	defer srv.Close()
	s, err := newTestClient(t, srv, nil).Submissions(context.Background(), 42)
	if err != nil {
		t.Fatal(err)
	}
	if s.Name != "OLD FILER INC" || s.CIK != 42 || len(s.Filings) != 4 {
		t.Fatalf("got %s CIK %s with %d filings, want OLD FILER INC, 42, 4", s.Name, s.CIK, len(s.Filings))
	}
	if s.Filings[0].FilingDate != "2024-05-01" || s.Filings[3].Form != "10-K" {
		t.Errorf("filings not merged newest first: %+v", s.Filings)
	}
	if !HasAnnualReport(s) {
		t.Error("HasAnnualReport = false; the older page has a 10-K")
	}
	f, ok := s.Find("000004205000009")
	if ok {
		t.Errorf("Find matched a short accession: %+v", f)
	}
	if f, ok := s.Find("0000000042-05-000009"); !ok || f.PrimaryDocument != "k2004.htm" || f.ReportDate != "2004-12-31" {
		t.Errorf("Find = %+v, %v", f, ok)
	}
	if !strings.HasSuffix(s.Provenance.URL, "/submissions/CIK0000000042.json") || s.Provenance.Snapshot {
		t.Errorf("provenance = %+v", s.Provenance)
	}
}

func TestDocumentURL(t *testing.T) {
	var path atomic.Value
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		path.Store(r.URL.Path)
		fmt.Fprint(w, "<html></html>")
	}))
	defer srv.Close()
	c := newTestClient(t, srv, nil)
	if _, err := c.Document(context.Background(), 320193, "0000320193-25-000079", "aapl-20250927.htm"); err != nil {
		t.Fatal(err)
	}
	if want := "/Archives/edgar/data/320193/000032019325000079/aapl-20250927.htm"; path.Load() != want {
		t.Errorf("path = %v, want %s", path.Load(), want)
	}
	if _, err := c.Document(context.Background(), 320193, "12-34", "x.htm"); err == nil {
		t.Error("a malformed accession number was accepted")
	}
}
