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
	"slices"
	"strconv"
	"strings"
	"sync"
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

	// taxonomies holds, per taxonomy, per tag, the tag's JSON, decoded the
	// first time the tag is used: an analysis reads a few dozen of the
	// hundreds of tags a filer reports. Every taxonomy is indexed; figures
	// are read from us-gaap, ifrs-full and dei.
	taxonomies map[string]map[string]*lazyTag
	// currency and currencyNote are Currency and CurrencyNote, decided by
	// Parse.
	currency, currencyNote string
}

// unitNames lists the units taxonomy:tag is reported in ("USD", "EUR",
// "shares"), sorted; none for an unknown or damaged tag.
func (cf *CompanyFacts) unitNames(taxonomy, tag string) []string {
	units, _ := cf.units(taxonomy, tag)
	out := make([]string, 0, len(units))
	for u, facts := range units {
		if len(facts) > 0 {
			out = append(out, u)
		}
	}
	slices.Sort(out)
	return out
}

// Currency is the ISO 4217 code of the currency the filer's figures are
// read in ("USD", "EUR", "TWD"): the currency its revenue, net income and
// total assets are reported in (see reportingCurrency); "" when it reports
// none of them in any currency. Every monetary Fact of Series carries it as
// its Unit, and per-share figures carry it over "shares" ("EUR/shares"):
// Parley never converts currencies, so a euro figure is never labelled as a
// dollar one.
func (cf *CompanyFacts) Currency() string { return cf.currency }

// CurrencyNote says, for the rare filer that reports its headline figures
// in more than one currency (a convenience translation tagged beside the
// statements, or a change of reporting currency), which one Parley reads
// and why, and that figures in the other are left out; "" for a filer
// reporting in one currency.
func (cf *CompanyFacts) CurrencyNote() string { return cf.currencyNote }

// isCurrency reports whether a companyfacts unit names a currency: an ISO
// 4217 code, three capital letters ("USD", "EUR"), as opposed to "shares",
// "pure" or a ratio unit ("USD/shares").
func isCurrency(unit string) bool {
	if len(unit) != 3 {
		return false
	}
	for i := range 3 {
		if unit[i] < 'A' || unit[i] > 'Z' {
			return false
		}
	}
	return true
}

// reportingCurrency decides the currency of the filer's financial
// statements from the facts of revenue, net income and total assets (every
// filer's statements report at least one of them): the currency of the
// latest period any of them reports on a periodic form (10-K, 10-Q, 20-F,
// 40-F), and among currencies reporting that period, the one with the most
// facts. A filer that reports in one currency has it and no note. One that
// also tags another (a convenience translation into dollars, or the
// currency it reported in before a change) has the note say which is read
// and that the other's figures are left out, rather than have two
// currencies' figures mixed in one series.
func (cf *CompanyFacts) reportingCurrency() (string, string) {
	type tally struct {
		latest Date
		n      int
	}
	seen := map[string]*tally{}
	var order []string
	for _, c := range []Concept{Revenue, NetIncome, TotalAssets} {
		def, _ := Definition(c)
		for _, t := range append(def.Tags, def.Fallback...) {
			units, _ := cf.units(t.Taxonomy, t.Name)
			for u, facts := range units {
				if !isCurrency(u) || len(facts) == 0 {
					continue
				}
				tl := seen[u]
				if tl == nil {
					tl = &tally{}
					seen[u] = tl
					order = append(order, u)
				}
				for i := range facts {
					if facts[i].Form.periodic() {
						tl.latest = max(tl.latest, facts[i].End)
					}
					tl.n++
				}
			}
		}
	}
	if len(order) == 0 {
		return "", ""
	}
	slices.Sort(order)
	best := order[0]
	for _, u := range order[1:] {
		a, b := seen[u], seen[best]
		// On a tie, not the dollar: a convenience translation, tagged
		// beside the statements for the same periods, is into dollars.
		if a.latest > b.latest || a.latest == b.latest && (a.n > b.n || a.n == b.n && best == "USD") {
			best = u
		}
	}
	if len(order) == 1 {
		return best, ""
	}
	others := slices.DeleteFunc(slices.Clone(order), func(u string) bool { return u == best })
	return best, fmt.Sprintf("%s reports its revenue, net income or total assets in %s as well as in %s; Parley reads its figures in %s, "+
		"the currency of its latest financial statements, leaves out those in %s and does not convert currencies",
		cf.name(), strings.Join(others, ", "), best, best, strings.Join(others, ", "))
}

// inCurrency is the unit to read a definition's unit in for this filer:
// Definition states monetary units in dollars ("USD", "USD/shares"), which
// stand for the filer's reporting currency. Cover-page (dei) values, such
// as the public float, keep the unit asked: they are market values,
// reported in dollars by filers whose statements are in another currency.
func (cf *CompanyFacts) inCurrency(def ConceptDef) string {
	if cf.currency == "" || cf.currency == "USD" {
		return def.Unit
	}
	onlyDEI := len(def.Tags)+len(def.Fallback) > 0
	for _, t := range append(slices.Clone(def.Tags), def.Fallback...) {
		if t.Taxonomy != TaxonomyDEI {
			onlyDEI = false
		}
	}
	if onlyDEI {
		return def.Unit
	}
	switch def.Unit {
	case "USD":
		return cf.currency
	case "USD/shares":
		return cf.currency + "/shares"
	}
	return def.Unit
}

// UnitsOf lists the units taxonomy:tag is reported in ("USD", "EUR",
// "shares"), sorted; none for an unknown or damaged tag.
func (cf *CompanyFacts) UnitsOf(taxonomy, tag string) []string { return cf.unitNames(taxonomy, tag) }

// Unavailable says why no financial figure can be read from the document,
// or "" when revenue, net income or total assets is reported in a currency
// (whichever: figures are read in the filer's reporting currency, see
// Currency).
func (cf *CompanyFacts) Unavailable() string {
	if cf.currency != "" {
		return ""
	}
	if len(cf.taxonomies[TaxonomyUSGAAP]) == 0 && len(cf.taxonomies[TaxonomyIFRS]) == 0 {
		return fmt.Sprintf("%s reports no financial-statement facts in XBRL (only cover-page data); its financial figures are not available", cf.name())
	}
	return ""
}

func (cf *CompanyFacts) name() string {
	if cf.EntityName != "" {
		return cf.EntityName
	}
	return fmt.Sprintf("CIK %d", cf.CIK)
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
// for analysis come from Resolve or Series. A tag whose facts do not decode
// reports none.
func (cf *CompanyFacts) Reported(taxonomy, tag, unit string) []Source {
	units, _ := cf.units(taxonomy, tag)
	raw := units[unit]
	out := make([]Source, len(raw))
	for i := range raw {
		out[i] = raw[i].source(taxonomy, tag, unit)
	}
	return out
}

// units returns the facts of taxonomy:tag by unit, decoding the tag on first
// use. An unknown tag has none.
func (cf *CompanyFacts) units(taxonomy, tag string) (map[string][]rawFact, error) {
	lt := cf.taxonomies[taxonomy][tag]
	if lt == nil {
		return nil, nil
	}
	lt.once.Do(func() {
		r := &reader{data: lt.raw, base: lt.off}
		units, err := decodeTag(r)
		if err != nil {
			lt.err = fmt.Errorf("xbrl: decode %s:%s: %w (the companyfacts document is damaged; download it again)", taxonomy, tag, err)
			units = nil
		}
		lt.units, lt.raw = units, nil
	})
	return lt.units, lt.err
}

// lazyTag is one tag's JSON, decoded once when first used. raw points into
// the document Parse was given, at byte off.
type lazyTag struct {
	raw   []byte
	off   int
	once  sync.Once
	units map[string][]rawFact
	err   error
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
	// FY is the fiscal year of the filing that reported the fact (its
	// DocumentFiscalYearFocus), not of the fact's period: a 10-K repeats
	// two earlier years under its own fy. It is read for one purpose, to
	// learn how the filer names its fiscal years (inferFiscalYearEnd).
	FY int16 `json:"fy"`
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
	return ParseBytes(data)
}

// ParseBytes is Parse on a document in memory. The CompanyFacts keeps
// references into data, which the caller must not modify afterwards.
//
// Only the document's outline is read here: its cik, entity name and the
// position of each us-gaap and dei tag, found by matching brackets, which a
// truncated document fails. A tag's facts are checked and decoded when it
// is first used (Resolve, Series, Reported; Parse itself reads the tags of
// the duration concepts to infer the fiscal year end), so a malformed tag is
// reported then, by the call that needs it, naming the tag, the fact, the
// field and the byte. Parsing NVIDIA's 4 MB document this way costs a
// fraction of decoding all of its 25,000 facts.
func ParseBytes(data []byte) (*CompanyFacts, error) {
	cf := &CompanyFacts{taxonomies: map[string]map[string]*lazyTag{}}
	r := &reader{data: data}
	var cik cikNumber
	if err := cf.outline(r, &cik); err != nil {
		return nil, fmt.Errorf("xbrl: decode companyfacts JSON: %w", err)
	}
	cf.CIK = int64(cik)
	if cf.CIK == 0 && len(cf.taxonomies) == 0 {
		return nil, errors.New("xbrl: not a companyfacts document: no cik and no us-gaap or dei facts " +
			"(expected the body of https://data.sec.gov/api/xbrl/companyfacts/CIK##########.json)")
	}
	fye, err := cf.inferFiscalYearEnd()
	if err != nil {
		return nil, err
	}
	cf.FiscalYearEnd = fye
	cf.currency, cf.currencyNote = cf.reportingCurrency()
	return cf, nil
}

// readAll reads r in one allocation when r can say how big it is (files,
// bytes.Reader), which matters for a 4 MB body: io.ReadAll's doubling would
// allocate about twice that.
func readAll(r io.Reader) ([]byte, error) {
	type sizer interface{ Len() int }
	s, ok := r.(sizer)
	if !ok {
		return io.ReadAll(r)
	}
	// Exactly the announced size, then make sure nothing follows: a
	// bytes.Buffer sized to Len would grow (and copy) once more, because
	// ReadFrom wants spare room before it reads.
	buf := make([]byte, s.Len())
	if _, err := io.ReadFull(r, buf); err != nil {
		return nil, err
	}
	rest, err := io.ReadAll(r)
	if err != nil {
		return nil, err
	}
	return append(buf, rest...), nil
}

// inferFiscalYearEnd takes the end of the latest annual period reported on an
// annual form. Annual forms only, because some 10-Qs disclose trailing
// twelve-month figures ending at a quarter end.
//
// It looks at the tags of the duration concepts this package knows (every
// 10-K reports revenue, income and cash flows for the year it covers), and
// at every tag only for a filer that reports none of those, so that parsing
// does not decode the whole document.
func (cf *CompanyFacts) inferFiscalYearEnd() (FiscalYearEnd, error) {
	var latest Date
	// The year each annual report covers (the latest annual period it
	// reports) and the fiscal year it calls that year (its fy).
	type report struct {
		end Date
		fy  int16
	}
	reports := map[accession]report{}
	scan := func(taxonomy, tag string) error {
		units, err := cf.units(taxonomy, tag)
		if err != nil {
			return err
		}
		for _, facts := range units {
			for i := range facts {
				f := &facts[i]
				if f.Start == 0 || !f.Form.annual() || classify(f.Start, f.End) != Annual {
					continue
				}
				if r := reports[f.Accn]; f.End > r.end {
					reports[f.Accn] = report{end: f.End, fy: f.FY}
				}
				latest = max(latest, f.End)
			}
		}
		return nil
	}
	for _, c := range Concepts() {
		def, _ := Definition(c)
		if def.Instant {
			continue
		}
		for _, t := range append(def.Tags, def.Fallback...) {
			if err := scan(t.Taxonomy, t.Name); err != nil {
				return FiscalYearEnd{}, err
			}
		}
	}
	if latest == 0 {
		for tag := range cf.taxonomies[TaxonomyUSGAAP] {
			if err := scan(TaxonomyUSGAAP, tag); err != nil {
				return FiscalYearEnd{}, err
			}
		}
	}
	if latest == 0 {
		// No annual report: assume calendar years, the most common case.
		return FiscalYearEnd{Month: 12, Day: 31}, nil
	}
	_, m, d := latest.Civil()
	fye := FiscalYearEnd{Month: m, Day: d}
	// How the filer names its years: most of its annual reports call the
	// year they cover by the calendar year it ends in (NVIDIA's year to
	// January 2026 is fiscal 2026), or by the one it begins in (Home
	// Depot's year to February 2025 is fiscal 2024). A report whose fy is
	// neither (a mistagged filing), or whose year does not end at the
	// current year end, does not vote.
	var endYear, startYear int
	for _, r := range reports {
		a, cy := fye.yearEndFor(r.end)
		if absDays(a-r.end) > slack {
			// A year of an earlier fiscal calendar (before the filer moved
			// its year end): its name says nothing of the current one.
			continue
		}
		switch int(r.fy) {
		case cy:
			endYear++
		case cy - 1:
			startYear++
		}
	}
	switch {
	case endYear > startYear:
		fye.Naming = NamedForEndYear
	case startYear > endYear:
		fye.Naming = NamedForStartYear
	}
	return fye, nil
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
