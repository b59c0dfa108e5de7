package main_test

import (
	"compress/gzip"
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
)

// TestEdgarAtAnotherAddress: SEC_EDGAR_URL points Parley at a server that
// serves EDGAR's paths (a mirror, a proxy, a test server) in place of the
// SEC's hosts: a bull vs. bear debate on live data reads the company's
// filing list and facts from it. There was no way to: EDGAR's addresses
// were fixed, so a company outside the shipped snapshot could not be
// debated behind a mirror, nor tested end to end without the internet. An
// address that is none says so, naming the variable.
func TestEdgarAtAnotherAddress(t *testing.T) {
	gz := func(name string) []byte {
		f, err := os.Open(filepath.Join("..", "..", "internal", "sec", "snapshot", "data", name))
		if err != nil {
			t.Fatal(err)
		}
		defer f.Close()
		r, err := gzip.NewReader(f)
		if err != nil {
			t.Fatal(err)
		}
		b, err := io.ReadAll(r)
		if err != nil {
			t.Fatal(err)
		}
		return b
	}
	paths := map[string][]byte{
		"/files/company_tickers.json":                     []byte(`{"0":{"cik_str":320193,"ticker":"AAPL","title":"Apple Inc."}}`),
		"/submissions/CIK0000320193.json":                 gz("AAPL_submissions_CIK0000320193.json.gz"),
		"/submissions/CIK0000320193-submissions-001.json": []byte(`{"accessionNumber":[],"filingDate":[],"reportDate":[],"form":[],"primaryDocument":[],"items":[]}`),
		"/api/xbrl/companyfacts/CIK0000320193.json":       gz("AAPL_companyfacts_CIK0000320193.json.gz"),
	}
	var mu sync.Mutex
	var asked []string
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		mu.Lock()
		asked = append(asked, r.URL.Path)
		mu.Unlock()
		if !strings.Contains(r.UserAgent(), "tests@example.com") {
			http.Error(w, "no User-Agent", http.StatusForbidden)
			return
		}
		b, ok := paths[r.URL.Path]
		if !ok {
			http.NotFound(w, r)
			return
		}
		w.Header().Set("Content-Type", "application/json")
		w.Write(b)
	}))
	defer srv.Close()

	dir := t.TempDir()
	env := []string{"PARLEY_DB=" + filepath.Join(dir, "parley.db"), "SEC_USER_AGENT=Parley Tests tests@example.com", "SEC_EDGAR_URL=" + srv.URL}
	r := mustParley(t, dir, env, "", "debate", "AAPL")
	if strings.Contains(r.stderr, "snapshot") || !strings.Contains(r.stdout, "data: SEC EDGAR, fetched") {
		t.Errorf("the debate did not argue from the server's data:\nstderr: %s\nstdout: %.600s", r.stderr, r.stdout)
	}
	mu.Lock()
	got := strings.Join(asked, " ")
	mu.Unlock()
	for _, want := range []string{"/submissions/CIK0000320193.json", "/api/xbrl/companyfacts/CIK0000320193.json"} {
		if !strings.Contains(got, want) {
			t.Errorf("the server was not asked for %s; it was asked for: %s", want, got)
		}
	}

	env[2] = "SEC_EDGAR_URL=edgar-mirror"
	r = parley(t, dir, env, "", "debate", "AAPL")
	if !strings.Contains(r.stderr, `SEC_EDGAR_URL: invalid EDGAR base URL "edgar-mirror"`) {
		t.Errorf("an address that is none is not named:\n%s", r.stderr)
	}
}
