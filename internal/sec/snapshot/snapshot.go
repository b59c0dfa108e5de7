// Package snapshot is an offline edgar.Source built from real EDGAR responses
// embedded in the binary, so that debates run (and tests pass) without the
// network.
//
// The data are the JSON files described in data/SOURCES.txt (copied verbatim),
// each compressed with gzip -9 -n. The snapshot holds company facts for AAPL,
// GOOGL and NVDA, the filing histories (recent page only) of AAPL and NVDA and
// of an EDGAR test entity without filings (CIK 0000350001), a May 2024 copy
// of the SEC ticker list, and the primary documents of five filings (a 10-K
// of each company, a 10-Q of AAPL and NVDA; not the latest ones). Everything
// it returns is labelled with the date its file was recorded.
package snapshot

import (
	"bytes"
	"compress/gzip"
	"context"
	"embed"
	"fmt"
	"io"
	"slices"
	"strings"
	"sync"
	"time"

	"github.com/parleyhq/parley/internal/sec/edgar"
)

//go:embed data/*.json.gz data/*.htm.gz data/SOURCES.txt
var data embed.FS

// ErrNotInSnapshot marks data the offline snapshot does not hold. It matches
// edgar.ErrNotAvailable without repeating that error's text, which would only
// restate "not in the offline snapshot".
var ErrNotInSnapshot error = notInSnapshot{}

type notInSnapshot struct{}

func (notInSnapshot) Error() string { return "not in the offline snapshot" }

func (notInSnapshot) Is(target error) bool { return target == edgar.ErrNotAvailable }

// Origin is the Provenance.Origin of snapshot data.
const Origin = "offline snapshot"

// Kind is what a snapshot file holds.
type Kind string

// Kinds of snapshot files.
const (
	KindCompanyFacts Kind = "companyfacts"
	KindSubmissions  Kind = "submissions"
	KindTickers      Kind = "tickers"
	KindDocument     Kind = "document"
)

// File describes one embedded file.
type File struct {
	Name     string    // file name under data/, without .gz
	Ticker   string    // empty for the ticker list and the test entity
	CIK      edgar.CIK // zero for the ticker list
	Kind     Kind
	URL      string    // where EDGAR served it
	Recorded time.Time // the HTTP Date of the recorded response (SOURCES.txt)
	// Filing is the filing a KindDocument file is the primary document of.
	Filing edgar.Filing
}

func day(s string) time.Time {
	t, err := time.Parse(time.DateOnly, s)
	if err != nil {
		panic(err) // only reachable by editing the constant table below
	}
	return t
}

// files is a constant table of the embedded data; TestFilesMatchSources keeps
// it in step with SOURCES.txt.
var files = []File{
	{"AAPL_companyfacts_CIK0000320193.json", "AAPL", 320193, KindCompanyFacts,
		"https://data.sec.gov/api/xbrl/companyfacts/CIK0000320193.json", day("2026-03-25"), edgar.Filing{}},
	{"NVDA_companyfacts_CIK0001045810.json", "NVDA", 1045810, KindCompanyFacts,
		"https://data.sec.gov/api/xbrl/companyfacts/CIK0001045810.json", day("2026-07-09"), edgar.Filing{}},
	{"GOOGL_companyfacts_CIK0001652044.json", "GOOGL", 1652044, KindCompanyFacts,
		"https://data.sec.gov/api/xbrl/companyfacts/CIK0001652044.json", day("2026-07-09"), edgar.Filing{}},
	{"AAPL_submissions_CIK0000320193.json", "AAPL", 320193, KindSubmissions,
		"https://data.sec.gov/submissions/CIK0000320193.json", day("2026-03-05"), edgar.Filing{}},
	{"NVDA_submissions_CIK0001045810.json", "NVDA", 1045810, KindSubmissions,
		"https://data.sec.gov/submissions/CIK0001045810.json", day("2026-03-05"), edgar.Filing{}},
	{"extra_NOFILINGS_submissions_CIK0000350001.json", "", 350001, KindSubmissions,
		"https://data.sec.gov/submissions/CIK0000350001.json", day("2026-03-05"), edgar.Filing{}},
	// The ticker list is a plain file, not a recorded response: its date is
	// that of the commit that last changed it.
	{"extra_company_tickers.json", "", 0, KindTickers,
		"https://www.sec.gov/files/company_tickers.json", day("2024-05-14"), edgar.Filing{}},
	doc("AAPL", 320193, "10-K", "0000320193-24-000123", "aapl-20240928.htm", "2024-11-01", "2024-09-28"),
	doc("AAPL", 320193, "10-Q", "0000320193-25-000073", "aapl-20250628.htm", "2025-08-01", "2025-06-28"),
	doc("GOOGL", 1652044, "10-K", "0001652044-25-000014", "goog-20241231.htm", "2025-02-05", "2024-12-31"),
	doc("NVDA", 1045810, "10-K", "0001045810-25-000023", "nvda-20250126.htm", "2025-02-26", "2025-01-26"),
	doc("NVDA", 1045810, "10-Q", "0001045810-25-000209", "nvda-20250727.htm", "2025-08-27", "2025-07-27"),
}

// doc describes a shipped primary document. Their copies date from the
// commit that added them to the corpus they come from (SOURCES.txt).
func doc(ticker string, cik edgar.CIK, form, accession, name, filed, period string) File {
	return File{
		Name: fmt.Sprintf("%s_%s_%s_%s", ticker, form, accession, name), Ticker: ticker, CIK: cik, Kind: KindDocument,
		URL:      fmt.Sprintf("https://www.sec.gov/Archives/edgar/data/%d/%s/%s", int64(cik), strings.ReplaceAll(accession, "-", ""), name),
		Recorded: day("2025-10-09"),
		Filing:   edgar.Filing{Accession: accession, Form: form, FilingDate: filed, ReportDate: period, PrimaryDocument: name},
	}
}

// Snapshot is the offline edgar.Source. The zero value is not usable; call New.
// It is safe for concurrent use.
type Snapshot struct {
	tickers func() (*edgar.TickerIndex, error)
}

var _ edgar.Source = (*Snapshot)(nil)

// New returns the embedded snapshot.
func New() *Snapshot {
	return &Snapshot{tickers: sync.OnceValues(func() (*edgar.TickerIndex, error) {
		f, _ := find(func(f File) bool { return f.Kind == KindTickers })
		body, err := read(f)
		if err != nil {
			return nil, err
		}
		return edgar.ParseTickers(body)
	})}
}

// TickerIndex is the SEC ticker list shipped with Parley (every listed
// company, not only those the snapshot holds data for), for resolving
// company names without the network.
func (s *Snapshot) TickerIndex() (*edgar.TickerIndex, error) { return s.tickers() }

// Files lists the embedded files.
func (s *Snapshot) Files() []File { return slices.Clone(files) }

// Tickers lists the tickers the snapshot holds data for, sorted.
func (s *Snapshot) Tickers() []string {
	var ts []string
	for _, f := range files {
		if f.Ticker != "" && !slices.Contains(ts, f.Ticker) {
			ts = append(ts, f.Ticker)
		}
	}
	slices.Sort(ts)
	return ts
}

// Label describes the snapshot and the date of each file, for the UI.
func (s *Snapshot) Label() string {
	var parts []string
	docs := 0
	for _, f := range files {
		if f.Kind == KindDocument {
			docs++
			continue
		}
		who := f.Ticker
		if who == "" && f.CIK != 0 {
			who = "CIK " + f.CIK.String()
		}
		parts = append(parts, strings.TrimSpace(fmt.Sprintf("%s %s recorded %s", who, f.Kind, f.Recorded.Format(time.DateOnly))))
	}
	if docs > 0 {
		parts = append(parts, fmt.Sprintf("the text of %d older 10-K/10-Q filings", docs))
	}
	return Origin + " (" + strings.Join(parts, "; ") + ")"
}

// Sources returns SOURCES.txt: where every file came from.
func Sources() string {
	b, err := data.ReadFile("data/SOURCES.txt")
	if err != nil {
		panic(err) // embedded at build time
	}
	return string(b)
}

// Lookup resolves a ticker the snapshot holds data for. Other tickers fail
// with an error naming the tickers it has.
func (s *Snapshot) Lookup(ctx context.Context, ticker string) (edgar.Company, error) {
	idx, err := s.tickers()
	if err != nil {
		return edgar.Company{}, err
	}
	t := edgar.NormalizeTicker(ticker)
	have := s.Tickers()
	if slices.Contains(have, t) {
		return idx.Lookup(t)
	}
	hint := fmt.Sprintf("the offline snapshot has only %s; to debate %s, go online with %s set (\"Your Name you@example.com\")",
		strings.Join(have, ", "), t, edgar.EnvUserAgent)
	c, err := idx.Lookup(t)
	if err != nil {
		// Not a filer SEC knows: going online cannot help, so the
		// snapshot's advice would mislead.
		return edgar.Company{}, err
	}
	return edgar.Company{}, fmt.Errorf("%w: %s (%s, CIK %s); %s", ErrNotInSnapshot, t, c.Name, c.CIK, hint)
}

// Submissions returns the recent page of a company's filing history. Older
// pages are not in the snapshot; they are listed in MissingPages.
func (s *Snapshot) Submissions(ctx context.Context, cik edgar.CIK) (*edgar.Submissions, error) {
	f, err := s.file(cik, KindSubmissions)
	if err != nil {
		return nil, err
	}
	body, err := read(f)
	if err != nil {
		return nil, err
	}
	subs, pages, err := edgar.ParseSubmissions(body)
	if err != nil {
		return nil, fmt.Errorf("snapshot %s: %w", f.Name, err)
	}
	for _, p := range pages {
		subs.MissingPages = append(subs.MissingPages, p.Name)
	}
	subs.Provenance = f.provenance()
	if len(pages) > 0 {
		subs.Provenance.Note = fmt.Sprintf("recent filings only; %d older filings are not in the snapshot", sumCounts(pages))
	}
	return subs, nil
}

func sumCounts(ps []edgar.PageRef) int {
	n := 0
	for _, p := range ps {
		n += p.FilingCount
	}
	return n
}

// CompanyFacts returns the recorded companyfacts document.
func (s *Snapshot) CompanyFacts(ctx context.Context, cik edgar.CIK) (*edgar.Raw, error) {
	f, err := s.file(cik, KindCompanyFacts)
	if err != nil {
		return nil, err
	}
	body, err := read(f)
	if err != nil {
		return nil, err
	}
	return &edgar.Raw{Body: body, Provenance: f.provenance()}, nil
}

// Document returns a shipped primary document; any other document fails
// with ErrNotInSnapshot, naming the documents the snapshot has.
func (s *Snapshot) Document(ctx context.Context, cik edgar.CIK, accession, name string) (*edgar.Raw, error) {
	acc := strings.ReplaceAll(strings.TrimSpace(accession), "-", "")
	f, ok := find(func(f File) bool {
		return f.Kind == KindDocument && f.CIK == cik && strings.ReplaceAll(f.Filing.Accession, "-", "") == acc && f.Filing.PrimaryDocument == name
	})
	if !ok {
		have := "none for this company"
		var names []string
		for _, d := range s.Documents(cik) {
			names = append(names, d.Form+" "+d.Accession+" (filed "+d.FilingDate+")")
		}
		if len(names) > 0 {
			have = strings.Join(names, ", ")
		}
		return nil, fmt.Errorf("%w: the text of %s of filing %s is not in the offline snapshot, which ships the text of "+
			"only a few filings (for this company: %s); reading other filings needs EDGAR online (set %s)",
			ErrNotInSnapshot, name, accession, have, edgar.EnvUserAgent)
	}
	body, err := read(f)
	if err != nil {
		return nil, err
	}
	return &edgar.Raw{Body: body, Provenance: f.provenance()}, nil
}

// Documents lists the filings whose primary document the snapshot ships for
// a company, newest first. It implements edgar.DocumentLister.
func (s *Snapshot) Documents(cik edgar.CIK) []edgar.Filing {
	var out []edgar.Filing
	for _, f := range files {
		if f.Kind == KindDocument && f.CIK == cik {
			out = append(out, f.Filing)
		}
	}
	slices.SortFunc(out, func(a, b edgar.Filing) int { return strings.Compare(b.FilingDate, a.FilingDate) })
	return out
}

func (s *Snapshot) file(cik edgar.CIK, kind Kind) (File, error) {
	if f, ok := find(func(f File) bool { return f.CIK == cik && f.Kind == kind }); ok {
		return f, nil
	}
	var have []string
	for _, f := range files {
		if f.Kind == kind {
			who := f.Ticker
			if who == "" {
				who = "test entity"
			}
			have = append(have, fmt.Sprintf("%s (CIK %s)", who, f.CIK))
		}
	}
	return File{}, fmt.Errorf("%w: no %s for CIK %s; the snapshot has %s for %s",
		ErrNotInSnapshot, kind, cik, kind, strings.Join(have, ", "))
}

func find(match func(File) bool) (File, bool) {
	i := slices.IndexFunc(files, match)
	if i < 0 {
		return File{}, false
	}
	return files[i], true
}

func (f File) provenance() edgar.Provenance {
	return edgar.Provenance{Origin: Origin, URL: f.URL, Retrieved: f.Recorded, Snapshot: true}
}

func read(f File) ([]byte, error) {
	gz, err := data.ReadFile("data/" + f.Name + ".gz")
	if err != nil {
		return nil, fmt.Errorf("snapshot: %w", err)
	}
	zr, err := gzip.NewReader(bytes.NewReader(gz))
	if err != nil {
		return nil, fmt.Errorf("snapshot %s: %w", f.Name, err)
	}
	body, err := io.ReadAll(zr)
	if err == nil {
		err = zr.Close()
	}
	if err != nil {
		return nil, fmt.Errorf("snapshot %s: %w", f.Name, err)
	}
	return body, nil
}
