// Package edgar reads SEC EDGAR: the ticker → CIK map, a company's filing
// history (submissions), its XBRL company facts and its filing documents.
//
// Source is the small interface the debate uses; Client implements it against
// the live EDGAR web service (with the SEC's fair-access rules built in), the
// snapshot package implements it from embedded data, and Fallback combines the
// two so that a debate can go on, labelled, when EDGAR cannot be reached.
package edgar

import (
	"context"
	"errors"
	"fmt"
	"strconv"
	"strings"
	"time"
)

// Errors a caller can map to user-facing messages. Returned errors wrap them
// (test with errors.Is) and say what went wrong in their text.
var (
	// ErrUnknownTicker means the ticker is not in the SEC's ticker list.
	ErrUnknownTicker = errors.New("unknown ticker")
	// ErrBlocked means the SEC refused the request as automated traffic
	// (the 403 "Request Rate Threshold Exceeded" / "Undeclared Automated Tool"
	// page). Retrying at once makes the block longer, so it is never retried.
	ErrBlocked = errors.New("blocked by SEC EDGAR")
	// ErrNoUserAgent means no User-Agent was declared; the SEC requires one
	// naming the caller and giving a contact e-mail.
	ErrNoUserAgent = errors.New("no SEC User-Agent declared")
	// ErrUnreachable means EDGAR could not be reached or kept failing
	// (network errors, 429 or 5xx after retries).
	ErrUnreachable = errors.New("SEC EDGAR unreachable")
	// ErrNotFound means EDGAR has no such resource (HTTP 404).
	ErrNotFound = errors.New("not found on SEC EDGAR")
	// ErrNotAvailable means this source does not hold the data asked for
	// (for example a filing document asked of the offline snapshot).
	ErrNotAvailable = errors.New("not available from this source")
)

// Source is where SEC data comes from: the live EDGAR service or an offline
// snapshot. Implementations are safe for concurrent use.
type Source interface {
	// Lookup resolves a ticker ("NVDA", "brk.b") to its company.
	Lookup(ctx context.Context, ticker string) (Company, error)
	// Submissions returns a company's filings, all pages merged.
	Submissions(ctx context.Context, cik CIK) (*Submissions, error)
	// CompanyFacts returns the companyfacts JSON document, unparsed.
	CompanyFacts(ctx context.Context, cik CIK) (*Raw, error)
	// Document returns one file of a filing, usually its primary document.
	Document(ctx context.Context, cik CIK, accession, name string) (*Raw, error)
}

// CIK is an SEC Central Index Key.
type CIK int64

// String formats the CIK with the ten digits EDGAR's URLs use.
func (c CIK) String() string { return fmt.Sprintf("%010d", int64(c)) }

// ParseCIK accepts "320193", "0000320193" or "CIK0000320193".
func ParseCIK(s string) (CIK, error) {
	t := strings.TrimPrefix(strings.ToUpper(strings.TrimSpace(s)), "CIK")
	n, err := strconv.ParseInt(t, 10, 64)
	if err != nil || n <= 0 || n > 9_999_999_999 {
		return 0, fmt.Errorf("invalid CIK %q: want up to ten digits, like 0000320193", s)
	}
	return CIK(n), nil
}

// NormalizeTicker upper-cases a ticker and writes share classes the way the
// SEC list does ("brk.b" → "BRK-B").
func NormalizeTicker(t string) string {
	return strings.ReplaceAll(strings.ToUpper(strings.TrimSpace(t)), ".", "-")
}

// Company is one entry of the SEC ticker list.
type Company struct {
	CIK    CIK    `json:"cik"`
	Ticker string `json:"ticker"`
	Name   string `json:"name"`
}

// Provenance says where a piece of data came from and how old it is, so that
// every answer built on it can be labelled.
type Provenance struct {
	// Origin is "SEC EDGAR" for live data or "offline snapshot".
	Origin string `json:"origin"`
	// URL is the EDGAR address the data was (or was originally) fetched from.
	URL string `json:"url,omitempty"`
	// Retrieved is when the data was fetched (live) or recorded (snapshot).
	Retrieved time.Time `json:"retrieved"`
	// Snapshot is true for data served from the offline snapshot.
	Snapshot bool `json:"snapshot,omitempty"`
	// Note explains anything unusual, such as why the snapshot was used.
	Note string `json:"note,omitempty"`
}

// Label is a one-line human-readable provenance, for tool results and the UI.
func (p Provenance) Label() string {
	var s string
	if p.Snapshot {
		s = fmt.Sprintf("%s recorded %s", p.Origin, p.Retrieved.Format(time.DateOnly))
	} else {
		s = fmt.Sprintf("%s, fetched %s", p.Origin, p.Retrieved.UTC().Format(time.RFC3339))
	}
	if p.Note != "" {
		s += " (" + p.Note + ")"
	}
	return s
}

// Raw is an unparsed document with its provenance.
type Raw struct {
	Body       []byte
	Provenance Provenance
}

// Filing is one row of a company's filing history.
type Filing struct {
	Accession       string `json:"accession"`
	Form            string `json:"form"`
	FilingDate      string `json:"filed"`            // YYYY-MM-DD
	ReportDate      string `json:"period,omitempty"` // YYYY-MM-DD, the period reported on
	PrimaryDocument string `json:"primary_document,omitempty"`
	Description     string `json:"description,omitempty"`
	Items           string `json:"items,omitempty"` // 8-K items
}

// Submissions is a company's filing history, newest first.
type Submissions struct {
	CIK           CIK      `json:"cik"`
	Name          string   `json:"name"`
	Tickers       []string `json:"tickers,omitempty"`
	SIC           string   `json:"sic,omitempty"`
	SICDesc       string   `json:"sic_description,omitempty"`
	FiscalYearEnd string   `json:"fiscal_year_end,omitempty"` // MMDD
	Filings       []Filing `json:"filings"`
	// MissingPages names older pages listed by EDGAR but not included
	// (the offline snapshot holds only the recent page).
	MissingPages []string   `json:"missing_pages,omitempty"`
	Provenance   Provenance `json:"provenance"`
}

// Find returns the filing with the given accession number (with or without
// dashes).
func (s *Submissions) Find(accession string) (Filing, bool) {
	want := strings.ReplaceAll(strings.TrimSpace(accession), "-", "")
	for _, f := range s.Filings {
		if strings.ReplaceAll(f.Accession, "-", "") == want {
			return f, true
		}
	}
	return Filing{}, false
}

// DocumentLister is implemented by sources that hold the documents of only
// some filings (the offline snapshot): it lists those filings, newest first.
type DocumentLister interface {
	Documents(cik CIK) []Filing
}
