package snapshot

import (
	"context"
	"encoding/json"
	"errors"
	"strings"
	"testing"
	"time"

	"github.com/parleyhq/parley/internal/sec/edgar"
)

// TestFilesMatchSources keeps the recorded dates and URLs of the constant
// table in step with SOURCES.txt.
func TestFilesMatchSources(t *testing.T) {
	src := Sources()
	for _, f := range New().Files() {
		i := strings.Index(src, "\n"+f.Name+" (")
		if i < 0 {
			t.Errorf("%s is not described in SOURCES.txt", f.Name)
			continue
		}
		entry := src[i : i+min(600, len(src)-i)]
		if !strings.Contains(entry, f.URL) {
			t.Errorf("%s: URL %s not in its SOURCES.txt entry", f.Name, f.URL)
		}
		if date := f.Recorded.Format(time.DateOnly); !strings.Contains(entry, date) {
			t.Errorf("%s: recorded date %s not in its SOURCES.txt entry:\n%s", f.Name, date, entry)
		}
		if _, err := read(f); err != nil {
			t.Errorf("%s: %v", f.Name, err)
		}
	}
}

func TestLookup(t *testing.T) {
	s := New()
	ctx := context.Background()
	for ticker, cik := range map[string]edgar.CIK{"NVDA": 1045810, "aapl": 320193, "GOOGL": 1652044} {
		c, err := s.Lookup(ctx, ticker)
		if err != nil || c.CIK != cik {
			t.Errorf("Lookup(%s) = %+v, %v; want CIK %d", ticker, c, err, cik)
		}
	}
	_, err := s.Lookup(ctx, "MSFT")
	if !errors.Is(err, ErrNotInSnapshot) || !errors.Is(err, edgar.ErrNotAvailable) {
		t.Fatalf("Lookup(MSFT) err = %v, want ErrNotInSnapshot", err)
	}
	for _, want := range []string{"AAPL, GOOGL, NVDA", "MICROSOFT", edgar.EnvUserAgent} {
		if !strings.Contains(err.Error(), want) {
			t.Errorf("Lookup(MSFT) error lacks %q: %v", want, err)
		}
	}
	_, err = s.Lookup(ctx, "NOSUCHTICKER")
	// Not a filer SEC knows: advice to go online would mislead.
	if !errors.Is(err, edgar.ErrUnknownTicker) || errors.Is(err, ErrNotInSnapshot) || strings.Contains(err.Error(), edgar.EnvUserAgent) {
		t.Errorf("Lookup(NOSUCHTICKER) err = %v, want ErrUnknownTicker without the go-online advice", err)
	}
	if err := error(ErrNotInSnapshot); err.Error() != "not in the offline snapshot" || !errors.Is(err, edgar.ErrNotAvailable) {
		t.Errorf("ErrNotInSnapshot = %q; want it to match edgar.ErrNotAvailable without chaining its text", err)
	}
}

func TestSubmissions(t *testing.T) {
	s := New()
	ctx := context.Background()
	for _, tc := range []struct {
		cik                  edgar.CIK
		name, latest10K, doc string
		filed                string
	}{
		{1045810, "NVIDIA CORP", "0001045810-26-000021", "nvda-20260125.htm", "2026-02-25"},
		{320193, "Apple Inc.", "0000320193-25-000079", "aapl-20250927.htm", "2025-10-31"},
	} {
		subs, err := s.Submissions(ctx, tc.cik)
		if err != nil {
			t.Fatal(err)
		}
		if subs.Name != tc.name || subs.CIK != tc.cik || len(subs.Filings) < 1000 {
			t.Errorf("CIK %s: name %q, %d filings", tc.cik, subs.Name, len(subs.Filings))
		}
		var latest edgar.Filing
		for _, f := range subs.Filings {
			if f.Form == "10-K" {
				latest = f
				break
			}
		}
		if latest.Accession != tc.latest10K || latest.PrimaryDocument != tc.doc || latest.FilingDate != tc.filed {
			t.Errorf("CIK %s latest 10-K = %+v, want %s %s filed %s", tc.cik, latest, tc.latest10K, tc.doc, tc.filed)
		}
		p := subs.Provenance
		if !p.Snapshot || p.Retrieved.Format(time.DateOnly) != "2026-03-05" || !strings.Contains(p.Label(), "offline snapshot recorded 2026-03-05") {
			t.Errorf("CIK %s provenance = %+v (%s)", tc.cik, p, p.Label())
		}
		if len(subs.MissingPages) != 1 || !strings.Contains(p.Note, "older filings are not in the snapshot") {
			t.Errorf("CIK %s: missing pages %v, note %q", tc.cik, subs.MissingPages, p.Note)
		}
		if err := edgar.RequireAnnualReport(subs, "X"); err != nil {
			t.Errorf("CIK %s: %v", tc.cik, err)
		}
	}
	_, err := s.Submissions(ctx, 1652044)
	if !errors.Is(err, ErrNotInSnapshot) || !strings.Contains(err.Error(), "NVDA (CIK 0001045810)") {
		t.Errorf("GOOGL submissions err = %v, want ErrNotInSnapshot listing what is there", err)
	}
}

func TestNoFilingsRefusal(t *testing.T) {
	s := New()
	ctx := context.Background()
	subs, err := s.Submissions(ctx, 350001)
	if err != nil {
		t.Fatal(err)
	}
	if len(subs.Filings) != 0 || edgar.HasAnnualReport(subs) {
		t.Fatalf("test entity has %d filings, HasAnnualReport=%v", len(subs.Filings), edgar.HasAnnualReport(subs))
	}
	err = edgar.CheckAnnualReport(ctx, s, edgar.Company{CIK: 350001, Ticker: "TEST"})
	if !errors.Is(err, edgar.ErrNoAnnualReport) {
		t.Fatalf("err = %v, want ErrNoAnnualReport", err)
	}
	const want = "Cannot debate TEST: No 10-K filings found. Debates require at least one annual filing."
	if err.Error() != want {
		t.Errorf("refusal = %q, want %q", err.Error(), want)
	}
}

func TestCheckAnnualReportFromFacts(t *testing.T) {
	// GOOGL has company facts but no filing history in the snapshot; the
	// check falls back to the forms the facts were reported on.
	s := New()
	ctx := context.Background()
	c, err := s.Lookup(ctx, "GOOGL")
	if err != nil {
		t.Fatal(err)
	}
	if err := edgar.CheckAnnualReport(ctx, s, c); err != nil {
		t.Errorf("GOOGL: %v", err)
	}
	for _, tk := range []string{"NVDA", "AAPL"} {
		c, _ := s.Lookup(ctx, tk)
		if err := edgar.CheckAnnualReport(ctx, s, c); err != nil {
			t.Errorf("%s: %v", tk, err)
		}
	}
}

func TestCompanyFacts(t *testing.T) {
	s := New()
	for _, tc := range []struct {
		cik      edgar.CIK
		name     string
		recorded string
	}{
		{320193, "Apple Inc.", "2026-03-25"},
		{1045810, "NVIDIA CORP", "2026-07-09"},
		{1652044, "ALPHABET INC.", "2026-07-09"},
	} {
		raw, err := s.CompanyFacts(context.Background(), tc.cik)
		if err != nil {
			t.Fatal(err)
		}
		var doc struct {
			CIK        int64  `json:"cik"`
			EntityName string `json:"entityName"`
		}
		if err := json.Unmarshal(raw.Body, &doc); err != nil {
			t.Fatal(err)
		}
		if edgar.CIK(doc.CIK) != tc.cik || !strings.EqualFold(doc.EntityName, tc.name) {
			t.Errorf("CIK %s: got %d %q", tc.cik, doc.CIK, doc.EntityName)
		}
		if got := raw.Provenance.Retrieved.Format(time.DateOnly); got != tc.recorded || !raw.Provenance.Snapshot {
			t.Errorf("CIK %s recorded %s, want %s", tc.cik, got, tc.recorded)
		}
	}
	if _, err := s.CompanyFacts(context.Background(), 789019); !errors.Is(err, ErrNotInSnapshot) {
		t.Errorf("MSFT facts err = %v", err)
	}
}

func TestDocumentNotInSnapshot(t *testing.T) {
	_, err := New().Document(context.Background(), 1045810, "0001045810-26-000021", "nvda-20260125.htm")
	if !errors.Is(err, edgar.ErrNotAvailable) || !strings.Contains(err.Error(), "is not in the offline snapshot") ||
		!strings.Contains(err.Error(), "10-K 0001045810-25-000023 (filed 2025-02-26)") {
		t.Errorf("err = %v", err)
	}
}

// TestDocumentsShipped reads every shipped primary document and checks that
// its inline XBRL cover names the company and form it is filed under.
func TestDocumentsShipped(t *testing.T) {
	s := New()
	n := 0
	for _, cik := range []edgar.CIK{320193, 1045810, 1652044} {
		for _, f := range s.Documents(cik) {
			n++
			raw, err := s.Document(context.Background(), cik, f.Accession, f.PrimaryDocument)
			if err != nil {
				t.Fatal(err)
			}
			body := string(raw.Body)
			for _, want := range []string{`name="dei:EntityCentralIndexKey"`, ">" + cik.String() + "<", `name="dei:DocumentType"`, ">" + f.Form + "<"} {
				if !strings.Contains(body, want) {
					t.Errorf("%s %s lacks %q", f.Form, f.Accession, want)
				}
			}
			if !raw.Provenance.Snapshot || !strings.HasSuffix(raw.Provenance.URL, "/"+f.PrimaryDocument) {
				t.Errorf("%s provenance = %+v", f.Accession, raw.Provenance)
			}
		}
	}
	if n != 5 {
		t.Errorf("the snapshot ships %d documents, want 5", n)
	}
}

func TestLabel(t *testing.T) {
	l := New().Label()
	for _, want := range []string{"AAPL companyfacts recorded 2026-03-25", "NVDA companyfacts recorded 2026-07-09",
		"GOOGL companyfacts recorded 2026-07-09", "NVDA submissions recorded 2026-03-05"} {
		if !strings.Contains(l, want) {
			t.Errorf("label lacks %q: %s", want, l)
		}
	}
}
