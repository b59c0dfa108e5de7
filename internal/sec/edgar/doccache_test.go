package edgar

import (
	"context"
	"fmt"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync/atomic"
	"testing"
)

// TestDocumentCache fetches a filing document once; a second cache on the
// same directory (another process) reads it from disk.
func TestDocumentCache(t *testing.T) {
	var hits atomic.Int64
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		hits.Add(1)
		if r.URL.Path != "/Archives/edgar/data/1045810/000104581026000021/nvda-20260125.htm" {
			http.NotFound(w, r)
			return
		}
		fmt.Fprint(w, "<html>10-K</html>")
	}))
	defer srv.Close()
	dir := t.TempDir()
	for i := range 2 {
		c, err := CacheDocuments(newTestClient(t, srv, nil), dir)
		if err != nil {
			t.Fatal(err)
		}
		raw, err := c.Document(context.Background(), 1045810, "0001045810-26-000021", "nvda-20260125.htm")
		if err != nil {
			t.Fatal(err)
		}
		if string(raw.Body) != "<html>10-K</html>" || raw.Provenance.Origin != "SEC EDGAR" {
			t.Fatalf("read %d: %+v", i, raw)
		}
		if i == 1 && !strings.Contains(raw.Provenance.Note, "local filing cache") {
			t.Errorf("second read not from the cache: %+v", raw.Provenance)
		}
	}
	if hits.Load() != 1 {
		t.Errorf("EDGAR was asked %d times, want once", hits.Load())
	}
	c, _ := CacheDocuments(newTestClient(t, srv, nil), dir)
	if _, err := c.Document(context.Background(), 1045810, "0001045810-26-000021", "missing.htm"); err == nil {
		t.Error("a missing document was served")
	}
	if _, err := c.Document(context.Background(), 1045810, "0001045810-26-000021", "../x.htm"); err == nil {
		t.Error("a path outside the cache was accepted")
	}
}
