// Package xbrl reads SEC "companyfacts" JSON (data.sec.gov/api/xbrl/companyfacts)
// and turns it into financial figures that carry their provenance.
//
// A companyfacts document lists every XBRL fact a company has filed, by
// taxonomy, tag and unit, with each fact's period, value, filing accession,
// form and filing date. The same period is usually reported many times (a
// 10-K repeats the two prior years as comparatives; restatements re-report
// old periods), the same economic concept moves between tags over the years
// (NVIDIA's capital expenditure moved from PaymentsToAcquirePropertyPlantAndEquipment
// to PaymentsToAcquireProductiveAssets in 2020), and the "fy" field of a fact
// is the fiscal year of the filing that reported it, not of the period.
//
// This package therefore:
//   - maps each Concept to an ordered list of tags, and chooses the tag per
//     period, preferring the tag whose data reaches furthest forward
//     (see CompanyFacts.Resolve);
//   - keeps, per period, the value from the latest filing (restatements win);
//   - classifies periods by length (instant, quarter, half year, nine months,
//     year) and labels them with a fiscal year and period computed from the
//     period end date and the filer's fiscal year end, never from "fy";
//   - derives discrete quarters (Q4 = FY - nine-month YTD, Q2 = H1 - Q1, ...)
//     and trailing-twelve-month totals, citing every input.
//
// Every Fact carries Sources: the tag, period, value, unit, accession, form
// and filing date of each reported figure it was computed from.
package xbrl

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"strconv"
)

// Taxonomy names as they appear in companyfacts.
const (
	TaxonomyUSGAAP = "us-gaap"
	TaxonomyDEI    = "dei"
)

// CompanyFacts holds the us-gaap and dei facts of one company.
//
// It is immutable after Parse except for FiscalYearEnd, which a caller that
// knows better (for example from the EDGAR submissions "fiscalYearEnd" field)
// may overwrite before resolving series. It is safe for concurrent reads.
type CompanyFacts struct {
	// CIK is the SEC Central Index Key.
	CIK int64
	// EntityName is the registrant's name as EDGAR reports it.
	EntityName string
	// FiscalYearEnd is the filer's fiscal year end. Parse infers it from the
	// most recent annual period reported on an annual form (10-K, 20-F, 40-F).
	FiscalYearEnd FiscalYearEnd

	// taxonomies holds, per taxonomy, per tag, per unit, the facts in file
	// order. Only the taxonomies this package uses are decoded.
	taxonomies map[string]map[string]tagJSON
}

// Tags lists the tags present in a taxonomy ("us-gaap" or "dei"), unsorted.
func (cf *CompanyFacts) Tags(taxonomy string) []string {
	m := cf.taxonomies[taxonomy]
	out := make([]string, 0, len(m))
	for t := range m {
		out = append(out, t)
	}
	return out
}

// Reported returns every fact reported for taxonomy:tag in unit, in file
// order, with no de-duplication. It is for inspection and citation; figures
// for analysis come from Resolve or Series.
func (cf *CompanyFacts) Reported(taxonomy, tag, unit string) []Source {
	raw := cf.taxonomies[taxonomy][tag].Units[unit]
	out := make([]Source, len(raw))
	for i := range raw {
		out[i] = raw[i].source(taxonomy, tag, unit)
	}
	return out
}

// fileJSON is the subset of a companyfacts document that Parse decodes.
// encoding/json skips the other taxonomies (invest, srt, ifrs-full, ...) and
// the per-fact fields we do not use (fy, fp, frame) without allocating.
type fileJSON struct {
	CIK        cikNumber `json:"cik"`
	EntityName string    `json:"entityName"`
	Facts      struct {
		DEI    map[string]tagJSON `json:"dei"`
		USGAAP map[string]tagJSON `json:"us-gaap"`
	} `json:"facts"`
}

type tagJSON struct {
	Units map[string][]rawFact `json:"units"`
}

// rawFact is one reported fact. Its fields are fixed-size so that decoding
// 25,000 facts costs no per-fact allocation.
type rawFact struct {
	Start Date      `json:"start"`
	End   Date      `json:"end"`
	Val   float64   `json:"val"`
	Accn  accession `json:"accn"`
	Form  form      `json:"form"`
	Filed Date      `json:"filed"`
}

func (f *rawFact) source(taxonomy, tag, unit string) Source {
	return Source{
		Taxonomy:  taxonomy,
		Tag:       tag,
		Unit:      unit,
		Start:     f.Start,
		End:       f.End,
		Value:     f.Val,
		Accession: f.Accn.String(),
		Form:      string(f.Form),
		Filed:     f.Filed,
	}
}

// Parse decodes a companyfacts JSON document. It keeps the us-gaap and dei
// taxonomies and infers the fiscal year end.
func Parse(r io.Reader) (*CompanyFacts, error) {
	data, err := readAll(r)
	if err != nil {
		return nil, fmt.Errorf("xbrl: read companyfacts: %w", err)
	}
	var doc fileJSON
	if err := json.Unmarshal(data, &doc); err != nil {
		return nil, fmt.Errorf("xbrl: decode companyfacts JSON: %w", err)
	}
	if doc.CIK == 0 && len(doc.Facts.USGAAP) == 0 && len(doc.Facts.DEI) == 0 {
		return nil, errors.New("xbrl: not a companyfacts document: no cik and no us-gaap or dei facts " +
			"(expected the body of https://data.sec.gov/api/xbrl/companyfacts/CIK##########.json)")
	}
	cf := &CompanyFacts{
		CIK:        int64(doc.CIK),
		EntityName: doc.EntityName,
		taxonomies: map[string]map[string]tagJSON{
			TaxonomyUSGAAP: doc.Facts.USGAAP,
			TaxonomyDEI:    doc.Facts.DEI,
		},
	}
	cf.FiscalYearEnd = inferFiscalYearEnd(doc.Facts.USGAAP)
	return cf, nil
}

// readAll reads r in one allocation when r can say how big it is (files,
// bytes.Reader), which matters for a 4 MB body: io.ReadAll's doubling would
// allocate about twice that.
func readAll(r io.Reader) ([]byte, error) {
	type sizer interface{ Len() int }
	if s, ok := r.(sizer); ok {
		buf := bytes.NewBuffer(make([]byte, 0, s.Len()+1))
		_, err := buf.ReadFrom(r)
		return buf.Bytes(), err
	}
	return io.ReadAll(r)
}

// inferFiscalYearEnd takes the end of the latest annual period reported on an
// annual form. Annual forms only, because some 10-Qs disclose trailing
// twelve-month figures ending at a quarter end.
func inferFiscalYearEnd(usgaap map[string]tagJSON) FiscalYearEnd {
	var latest Date
	for _, t := range usgaap {
		for _, facts := range t.Units {
			for i := range facts {
				f := &facts[i]
				if f.End <= latest || f.Start == 0 || !f.Form.annual() {
					continue
				}
				if classify(f.Start, f.End) == Annual {
					latest = f.End
				}
			}
		}
	}
	if latest == 0 {
		// No annual report: assume calendar years, the most common case.
		return FiscalYearEnd{Month: 12, Day: 31}
	}
	_, m, d := latest.Civil()
	return FiscalYearEnd{Month: m, Day: d}
}

// accession is an EDGAR accession number ("0001045810-26-000021", always 20
// bytes) held inline to avoid a string allocation per fact.
type accession [20]byte

func (a accession) String() string {
	n := bytes.IndexByte(a[:], 0)
	if n < 0 {
		n = len(a)
	}
	return string(a[:n])
}

func (a *accession) UnmarshalJSON(b []byte) error {
	if len(b) < 2 || b[0] != '"' || b[len(b)-1] != '"' {
		return fmt.Errorf("xbrl: accession %s is not a JSON string", b)
	}
	s := b[1 : len(b)-1]
	if len(s) > len(a) {
		return fmt.Errorf("xbrl: accession %q is longer than %d bytes", s, len(a))
	}
	*a = accession{}
	copy(a[:], s)
	return nil
}

// form is an SEC form type. Common forms decode to constant strings so that
// they cost no allocation.
type form string

func (f form) annual() bool {
	switch f {
	case "10-K", "10-K/A", "10-KT", "20-F", "20-F/A", "40-F", "40-F/A":
		return true
	}
	return false
}

// periodic reports whether f is a periodic financial report.
func (f form) periodic() bool {
	switch f {
	case "10-Q", "10-Q/A":
		return true
	}
	return f.annual()
}

func (f *form) UnmarshalJSON(b []byte) error {
	switch string(b) {
	case `"10-K"`:
		*f = "10-K"
	case `"10-Q"`:
		*f = "10-Q"
	case `"10-K/A"`:
		*f = "10-K/A"
	case `"10-Q/A"`:
		*f = "10-Q/A"
	case `"8-K"`:
		*f = "8-K"
	case `"20-F"`:
		*f = "20-F"
	case `"40-F"`:
		*f = "40-F"
	default:
		var s string
		if err := json.Unmarshal(b, &s); err != nil {
			return fmt.Errorf("xbrl: form %s: %w", b, err)
		}
		*f = form(s)
	}
	return nil
}

// cikNumber accepts the CIK as a JSON number (what data.sec.gov serves) or a
// zero-padded string (what some mirrors serve).
type cikNumber int64

func (c *cikNumber) UnmarshalJSON(b []byte) error {
	s := string(bytes.Trim(b, `"`))
	n, err := strconv.ParseInt(s, 10, 64)
	if err != nil {
		return fmt.Errorf("xbrl: cik %s is not a number: %w", b, err)
	}
	*c = cikNumber(n)
	return nil
}
