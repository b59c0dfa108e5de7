package sectools

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"slices"
	"strings"

	"github.com/parleyhq/parley/internal/llm"
	"github.com/parleyhq/parley/internal/sec/edgar"
	"github.com/parleyhq/parley/internal/sec/textsearch"
)

// NameSearch is the full-text filing search tool.
const NameSearch = "filing_search"

// passageChars is the size of a searchable passage.
const passageChars = 900

type searchTool struct{ s *Set }

func (t *searchTool) Spec() llm.ToolSpec {
	return llm.ToolSpec{
		Name: NameSearch,
		Description: "Full-text search (BM25) over the sections of the company's latest annual report (a 10-K, or a foreign " +
			"private issuer's 20-F or 40-F) and the 10-Qs filed since (risk factors, MD&A, notes such as segment information; a 20-F's " +
			"items and lettered sub-items such as Item 3.D Risk Factors, Item 5 Operating and Financial Review; a 40-F's annual " +
			"information form, MD&A and financial statements exhibits). 6-Ks are not searched. Returns the best passages word for word with their " +
			"section, form, filing date and accession: quote them rather than paraphrase.",
		Schema: json.RawMessage(`{
  "type": "object",
  "properties": {
    "query": {"type": "string", "description": "What to look for, in words the filing would use, e.g. \"export controls China data center\"."},
    "accession": {"type": "string", "description": "Search only this 10-K, 20-F, 40-F or 10-Q."},
    "limit": {"type": "integer", "minimum": 1, "maximum": 8, "default": 4, "description": "Most passages to return."}
  },
  "required": ["query"],
  "additionalProperties": false
}`),
	}
}

// Passage is one search hit.
type Passage struct {
	Section   string  `json:"section"`
	Form      string  `json:"form"`
	Filed     string  `json:"filed"`
	Period    string  `json:"period,omitempty"`
	Accession string  `json:"accession"`
	URL       string  `json:"url"`
	Score     float64 `json:"score"`
	Text      string  `json:"text"`
}

type filingIndex struct {
	filing   edgar.Filing
	prov     edgar.Provenance
	sections []string // per passage
	urls     []string // per passage: the document it is from
	texts    []string
	ix       *textsearch.Index
}

func (t *searchTool) Call(ctx context.Context, raw json.RawMessage) (string, error) {
	var a struct {
		Query     string `json:"query"`
		Accession string `json:"accession"`
		Limit     int    `json:"limit"`
	}
	if err := decodeArgs(NameSearch, raw, &a); err != nil {
		return "", err
	}
	if len(textsearch.Tokens(a.Query)) == 0 {
		return "", badArgs(NameSearch, "query %q has no searchable words", a.Query)
	}
	switch {
	case a.Limit == 0:
		a.Limit = 4
	case a.Limit < 0 || a.Limit > 8:
		return "", badArgs(NameSearch, "limit %d is out of range 1..8", a.Limit)
	}
	res, err := t.s.Search(ctx, a.Query, a.Accession, a.Limit)
	if err != nil {
		return "", err
	}
	return marshal(res)
}

// SearchResult is filing_search's answer.
type SearchResult struct {
	Company  string    `json:"company"`
	Query    string    `json:"query"`
	Searched []string  `json:"searched"` // "10-K 0001045810-25-000023 filed 2025-02-26"
	Passages []Passage `json:"passages"`
	Source   string    `json:"source"`
	Notes    []string  `json:"notes,omitempty"`
}

// Search ranks the passages of the latest annual report (10-K or 20-F) and
// later 10-Qs (or of one filing) against the query.
func (s *Set) Search(ctx context.Context, query, accession string, limit int) (*SearchResult, error) {
	filings, notes, err := s.searchTargets(ctx, accession)
	if err != nil {
		return nil, err
	}
	res := &SearchResult{Company: s.who(), Query: query, Passages: []Passage{}}
	type hit struct {
		p     Passage
		score float64
	}
	var hits []hit
	var sources []string
	var unavailable []string
	for _, f := range filings {
		fi, err := s.filingIndex(ctx, f)
		if errors.Is(err, edgar.ErrNotAvailable) {
			unavailable = append(unavailable, fmt.Sprintf("%s %s (filed %s)", f.Form, f.Accession, f.FilingDate))
			continue
		}
		if err != nil {
			return nil, err
		}
		res.Searched = append(res.Searched, fmt.Sprintf("%s %s filed %s", f.Form, f.Accession, f.FilingDate))
		if l := fi.prov.Label(); !slices.Contains(sources, l) {
			sources = append(sources, l)
		}
		for _, h := range fi.ix.Search(query, limit) {
			hits = append(hits, hit{Passage{Section: fi.sections[h.Passage], Form: f.Form, Filed: f.FilingDate, Period: f.ReportDate,
				Accession: f.Accession, URL: fi.urls[h.Passage], Score: roundScore(h.Score), Text: fi.texts[h.Passage]}, h.Score})
		}
	}
	if len(unavailable) > 0 {
		notes = append(notes, "The text of "+strings.Join(unavailable, ", ")+" is not available from this source.")
	}
	if len(res.Searched) == 0 {
		// Offline: search what the snapshot ships, and say so.
		lister, ok := s.cfg.Source.(edgar.DocumentLister)
		if accession == "" && ok {
			shipped := lister.Documents(s.cfg.Company.CIK)
			if len(shipped) > 0 {
				notes = append(notes, "Searched instead the most recent filings whose text the offline snapshot ships; "+
					"they are older than the latest filings, so check dates before citing.")
				res.Notes = notes
				return s.searchFilings(ctx, res, shipped, query, limit)
			}
		}
		return nil, fmt.Errorf("%s: no filing text to search: %s; filing text needs EDGAR online (set %s)",
			NameSearch, strings.Join(notes, " "), edgar.EnvUserAgent)
	}
	slices.SortStableFunc(hits, func(x, y hit) int {
		switch {
		case x.score > y.score:
			return -1
		case x.score < y.score:
			return 1
		}
		return 0
	})
	for i := 0; i < len(hits) && i < limit; i++ {
		res.Passages = append(res.Passages, hits[i].p)
	}
	if len(res.Passages) == 0 {
		notes = append(notes, "no passage matches the query; try the words the filing would use")
	}
	res.Source = strings.Join(sources, "; ")
	res.Notes = notes
	return res, nil
}

// searchFilings searches given filings (the snapshot's shipped ones).
func (s *Set) searchFilings(ctx context.Context, res *SearchResult, filings []edgar.Filing, query string, limit int) (*SearchResult, error) {
	var all []Passage
	var sources []string
	for _, f := range filings {
		fi, err := s.filingIndex(ctx, f)
		if err != nil {
			return nil, err
		}
		res.Searched = append(res.Searched, fmt.Sprintf("%s %s filed %s", f.Form, f.Accession, f.FilingDate))
		if l := fi.prov.Label(); !slices.Contains(sources, l) {
			sources = append(sources, l)
		}
		for _, h := range fi.ix.Search(query, limit) {
			all = append(all, Passage{Section: fi.sections[h.Passage], Form: f.Form, Filed: f.FilingDate, Period: f.ReportDate,
				Accession: f.Accession, URL: fi.urls[h.Passage], Score: roundScore(h.Score), Text: fi.texts[h.Passage]})
		}
	}
	slices.SortStableFunc(all, func(x, y Passage) int {
		switch {
		case x.Score > y.Score:
			return -1
		case x.Score < y.Score:
			return 1
		}
		return 0
	})
	if len(all) > limit {
		all = all[:limit]
	}
	res.Passages = append(res.Passages, all...)
	res.Source = strings.Join(sources, "; ")
	return res, nil
}

func roundScore(x float64) float64 { return float64(int(x*100+0.5)) / 100 }

// searchTargets picks the filings to search: one by accession, or the
// latest annual report (10-K, 20-F or 40-F) and up to three 10-Qs filed
// after it. A foreign filer files no 10-Qs (its 6-Ks are not read).
func (s *Set) searchTargets(ctx context.Context, accession string) ([]edgar.Filing, []string, error) {
	subs, err := s.submissions(ctx)
	if err != nil {
		if errors.Is(err, edgar.ErrNotAvailable) {
			return nil, []string{"the company's filing list is not available from this source"}, nil
		}
		return nil, nil, err
	}
	if accession != "" {
		f, ok := subs.Find(accession)
		if !ok {
			return nil, nil, badArgs(NameSearch, "%s is not an accession number of a filing by %s; list them with %s", accession, s.who(), NameFilings)
		}
		if edgar.AnnualKind(f.Form) == "" && !strings.HasPrefix(strings.ToUpper(f.Form), "10-Q") {
			return nil, nil, badArgs(NameSearch, "filing %s is a %s; search reads 10-Ks, 20-Fs, 40-Fs and 10-Qs", f.Accession, f.Form)
		}
		return []edgar.Filing{f}, nil, nil
	}
	var out []edgar.Filing
	for _, f := range subs.Filings { // newest first
		form := strings.ToUpper(f.Form)
		if form == "10-Q" && len(out) < 3 {
			out = append(out, f)
		}
		if edgar.AnnualKind(form) != "" && !strings.HasSuffix(form, "/A") {
			out = append(out, f)
			break
		}
	}
	if len(out) == 0 {
		return nil, nil, fmt.Errorf("%s: %s has filed no 10-K, 20-F, 40-F or 10-Q", NameSearch, s.who())
	}
	slices.Reverse(out) // the annual report first
	return out, nil, nil
}

// filingIndex fetches, outlines and indexes a filing once per Set.
func (s *Set) filingIndex(ctx context.Context, f edgar.Filing) (*filingIndex, error) {
	s.mu.Lock()
	fi, ok := s.indexes[f.Accession]
	s.mu.Unlock()
	if ok {
		return fi, nil
	}
	if f.PrimaryDocument == "" {
		return nil, fmt.Errorf("filing %s lists no primary document", f.Accession)
	}
	doc, err := s.cfg.Source.Document(ctx, s.cfg.Company.CIK, f.Accession, f.PrimaryDocument)
	if err != nil {
		return nil, fmt.Errorf("%s %s: %w", f.Form, f.Accession, err)
	}
	fi = &filingIndex{filing: f, prov: doc.Provenance}
	for _, part := range edgar.Outline(doc.Body, f.Form) {
		for _, p := range edgar.Passages(part.Text, passageChars) {
			fi.sections = append(fi.sections, part.Label)
			fi.urls = append(fi.urls, doc.Provenance.URL)
			fi.texts = append(fi.texts, p)
		}
	}
	if edgar.AnnualKind(f.Form) == "40-F" {
		if err := s.index40FExhibits(ctx, fi); err != nil {
			return nil, err
		}
	}
	fi.ix = textsearch.New(fi.texts)
	s.mu.Lock()
	s.indexes[f.Accession] = fi
	s.mu.Unlock()
	return fi, nil
}

// max40FExhibits bounds the exhibits of a 40-F that are read: its annual
// information form, MD&A and financial statements come first (EX-99.1 to
// 99.3 as a rule), consents and certifications after.
const max40FExhibits = 4

// index40FExhibits adds a 40-F's exhibits to its index (fortyFExhibits),
// each passage labelled with its exhibit ("EX-99.2 Management's Discussion
// and Analysis") and linked to it.
func (s *Set) index40FExhibits(ctx context.Context, fi *filingIndex) error {
	exs, err := s.fortyFExhibits(ctx, fi.filing)
	if err != nil {
		return err
	}
	for _, ex := range exs {
		for _, p := range edgar.Passages(ex.text, passageChars) {
			fi.sections = append(fi.sections, ex.label())
			fi.urls = append(fi.urls, ex.prov.URL)
			fi.texts = append(fi.texts, p)
		}
	}
	return nil
}

// exhibit is one exhibit of a filing, as text.
type exhibit struct {
	typ, name, title string
	text             string
	prov             edgar.Provenance
}

func (e exhibit) label() string { return strings.TrimSpace(e.typ + " " + e.title) }

// fortyFExhibits reads a 40-F's text: the 40-F form itself is a cover and a
// list of exhibits, and the annual information form, the MD&A and the
// financial statements are EX-99 exhibits, found on the filing's index page.
func (s *Set) fortyFExhibits(ctx context.Context, f edgar.Filing) ([]exhibit, error) {
	cik := s.cfg.Company.CIK
	idx, err := s.cfg.Source.Document(ctx, cik, f.Accession, f.Accession+"-index.htm")
	if err != nil {
		return nil, fmt.Errorf("index of 40-F %s: %w", f.Accession, err)
	}
	var out []exhibit
	for _, e := range edgar.ParseFilingIndex(idx.Body) {
		typ := strings.ToUpper(e.Type)
		desc := strings.ToLower(e.Description)
		if !strings.HasPrefix(typ, "EX-99") || strings.Contains(desc, "certif") || strings.Contains(desc, "consent") {
			continue
		}
		if len(out) == max40FExhibits {
			break
		}
		doc, err := s.cfg.Source.Document(ctx, cik, f.Accession, e.Name)
		if err != nil {
			return nil, fmt.Errorf("%s %s of 40-F %s: %w", e.Type, e.Name, f.Accession, err)
		}
		text := edgar.HTMLText(doc.Body)
		out = append(out, exhibit{typ: e.Type, name: e.Name, title: exhibitTitle(e.Description, text), text: text, prov: doc.Provenance})
	}
	return out, nil
}

// exhibitTitle names a 40-F exhibit by what its opening says it is first
// (an MD&A's opening often refers to the annual information form after its
// own title; the index's description is the filer's and often only
// "EX-99.1"), else by the description.
func exhibitTitle(desc, text string) string {
	head := strings.ToLower(strings.ReplaceAll(text[:min(len(text), 3000)], "’", "'"))
	title, at := desc, len(head)
	for _, k := range []struct{ phrase, title string }{
		{"annual information form", "Annual Information Form"},
		{"management's discussion and analysis", "Management's Discussion and Analysis"},
		{"consolidated financial statements", "Consolidated Financial Statements"},
	} {
		if i := strings.Index(head, k.phrase); i >= 0 && i < at {
			title, at = k.title, i
		}
	}
	return title
}
