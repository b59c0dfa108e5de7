package edgar

import (
	"encoding/json"
	"fmt"
	"slices"
	"strings"
)

// TickerIndex is the SEC ticker list (company_tickers.json), indexed.
type TickerIndex struct {
	byTicker map[string]Company
	ordered  []Company // in the list's order: the SEC lists larger companies first
}

// ParseTickers parses company_tickers.json:
// {"0":{"cik_str":789019,"ticker":"MSFT","title":"MICROSOFT CORP"}, ...}.
func ParseTickers(body []byte) (*TickerIndex, error) {
	var raw map[string]struct {
		CIK    int64  `json:"cik_str"`
		Ticker string `json:"ticker"`
		Title  string `json:"title"`
	}
	if err := json.Unmarshal(body, &raw); err != nil {
		return nil, fmt.Errorf("parse company_tickers.json: %w", err)
	}
	idx := &TickerIndex{byTicker: make(map[string]Company, len(raw))}
	keys := make([]string, 0, len(raw))
	for k := range raw {
		keys = append(keys, k)
	}
	// The keys are the rows' positions ("0", "1", …): keep that order.
	slices.SortFunc(keys, func(a, b string) int {
		if len(a) != len(b) {
			return len(a) - len(b)
		}
		return strings.Compare(a, b)
	})
	for _, k := range keys {
		e := raw[k]
		t := NormalizeTicker(e.Ticker)
		if t == "" || e.CIK <= 0 {
			continue
		}
		if _, dup := idx.byTicker[t]; dup {
			continue // the first row of a ticker listed twice holds
		}
		c := Company{CIK: CIK(e.CIK), Ticker: t, Name: e.Title}
		idx.ordered = append(idx.ordered, c)
		idx.byTicker[t] = c
	}
	if len(idx.byTicker) == 0 {
		return nil, fmt.Errorf("parse company_tickers.json: no tickers in %d bytes", len(body))
	}
	return idx, nil
}

// Lookup finds a ticker; the error wraps ErrUnknownTicker.
func (x *TickerIndex) Lookup(ticker string) (Company, error) {
	t := NormalizeTicker(ticker)
	c, ok := x.byTicker[t]
	if !ok {
		return Company{}, fmt.Errorf("%w: %q is not in the SEC ticker list (check the symbol; delisted and very new listings are missing)", ErrUnknownTicker, ticker)
	}
	return c, nil
}

// Companies lists every ticker with its company, in the list's order
// (larger companies first). The slice is shared: do not modify it.
func (x *TickerIndex) Companies() []Company { return x.ordered }

// Len is the number of tickers.
func (x *TickerIndex) Len() int { return len(x.byTicker) }

// filingColumns is EDGAR's column layout, shared by filings.recent and the
// older pages listed in filings.files.
type filingColumns struct {
	AccessionNumber       []string `json:"accessionNumber"`
	FilingDate            []string `json:"filingDate"`
	ReportDate            []string `json:"reportDate"`
	Form                  []string `json:"form"`
	Items                 []string `json:"items"`
	PrimaryDocument       []string `json:"primaryDocument"`
	PrimaryDocDescription []string `json:"primaryDocDescription"`
}

func (c *filingColumns) filings() ([]Filing, error) {
	n := len(c.AccessionNumber)
	if len(c.Form) != n || len(c.FilingDate) != n {
		return nil, fmt.Errorf("filing columns disagree in length: %d accession numbers, %d forms, %d dates",
			n, len(c.Form), len(c.FilingDate))
	}
	at := func(col []string, i int) string {
		if i < len(col) {
			return col[i]
		}
		return ""
	}
	out := make([]Filing, n)
	for i := range n {
		out[i] = Filing{
			Accession:       c.AccessionNumber[i],
			Form:            c.Form[i],
			FilingDate:      c.FilingDate[i],
			ReportDate:      at(c.ReportDate, i),
			PrimaryDocument: at(c.PrimaryDocument, i),
			Description:     at(c.PrimaryDocDescription, i),
			Items:           at(c.Items, i),
		}
	}
	return out, nil
}

// PageRef is an older page of filings listed in filings.files.
type PageRef struct {
	Name        string `json:"name"`
	FilingCount int    `json:"filingCount"`
	FilingFrom  string `json:"filingFrom"`
	FilingTo    string `json:"filingTo"`
}

// ParseSubmissions parses the main submissions document
// (submissions/CIK##########.json). It returns the recent filings and the
// older pages still to be fetched.
func ParseSubmissions(body []byte) (*Submissions, []PageRef, error) {
	var doc struct {
		CIK           string   `json:"cik"`
		Name          string   `json:"name"`
		Tickers       []string `json:"tickers"`
		SIC           string   `json:"sic"`
		SICDesc       string   `json:"sicDescription"`
		FiscalYearEnd string   `json:"fiscalYearEnd"`
		Filings       struct {
			Recent filingColumns `json:"recent"`
			Files  []PageRef     `json:"files"`
		} `json:"filings"`
	}
	if err := json.Unmarshal(body, &doc); err != nil {
		return nil, nil, fmt.Errorf("parse submissions: %w", err)
	}
	cik, err := ParseCIK(doc.CIK)
	if err != nil {
		return nil, nil, fmt.Errorf("parse submissions: %w", err)
	}
	filings, err := doc.Filings.Recent.filings()
	if err != nil {
		return nil, nil, fmt.Errorf("parse submissions for CIK %s: %w", cik, err)
	}
	s := &Submissions{
		CIK:           cik,
		Name:          doc.Name,
		Tickers:       doc.Tickers,
		SIC:           doc.SIC,
		SICDesc:       doc.SICDesc,
		FiscalYearEnd: doc.FiscalYearEnd,
		Filings:       filings,
	}
	return s, doc.Filings.Files, nil
}

// ParseSubmissionsPage parses an older page (CIK##########-submissions-001.json),
// which holds the same columns as filings.recent at its top level.
func ParseSubmissionsPage(body []byte) ([]Filing, error) {
	var cols filingColumns
	if err := json.Unmarshal(body, &cols); err != nil {
		return nil, fmt.Errorf("parse submissions page: %w", err)
	}
	return cols.filings()
}

// validPageName guards the URL built from a page name taken from the response.
func validPageName(name string) bool {
	return strings.HasPrefix(name, "CIK") && strings.HasSuffix(name, ".json") &&
		!strings.ContainsAny(name, "/\\?#") && !strings.Contains(name, "..")
}

// sortNewestFirst orders filings by filing date, newest first, keeping
// EDGAR's order among filings of the same day.
func sortNewestFirst(fs []Filing) {
	slices.SortStableFunc(fs, func(a, b Filing) int { return strings.Compare(b.FilingDate, a.FilingDate) })
}
