package factcheck

import (
	"encoding/json"
	"testing"

	"github.com/parleyhq/parley/internal/sec/xbrl"
)

// xf is one fact of a companyfacts document a test builds (cfDoc): a tag
// of a taxonomy in a unit over a period (no start for an instant), as a
// filing states it.
type xf struct {
	tax, tag, unit string
	start, end     string
	val            float64
	form, filed    string
	accn           string
}

// cfDoc builds a companyfacts document of facts, in data.sec.gov's shape,
// and parses it as a debate does.
func cfDoc(t *testing.T, name string, facts []xf) *xbrl.CompanyFacts {
	t.Helper()
	type raw struct {
		Start string  `json:"start,omitempty"`
		End   string  `json:"end"`
		Val   float64 `json:"val"`
		Accn  string  `json:"accn"`
		FY    int     `json:"fy"`
		FP    string  `json:"fp"`
		Form  string  `json:"form"`
		Filed string  `json:"filed"`
	}
	type concept struct {
		Label string           `json:"label"`
		Units map[string][]raw `json:"units"`
	}
	doc := map[string]map[string]*concept{}
	for _, f := range facts {
		tax := f.tax
		if tax == "" {
			tax = "us-gaap"
		}
		if doc[tax] == nil {
			doc[tax] = map[string]*concept{}
		}
		c := doc[tax][f.tag]
		if c == nil {
			c = &concept{Label: f.tag, Units: map[string][]raw{}}
			doc[tax][f.tag] = c
		}
		fp := "FY"
		if f.form == "10-Q" || f.form == "6-K" {
			fp = "Q"
		}
		c.Units[f.unit] = append(c.Units[f.unit], raw{Start: f.start, End: f.end, Val: f.val, Accn: f.accn, FY: 2025, FP: fp, Form: f.form, Filed: f.filed})
	}
	b, err := json.Marshal(map[string]any{"cik": 9000090, "entityName": name, "facts": doc})
	if err != nil {
		t.Fatal(err)
	}
	cf, err := xbrl.ParseBytes(b)
	if err != nil {
		t.Fatal(err)
	}
	return cf
}

// cfTable is the table of the document cfDoc builds.
func cfTable(t *testing.T, name string, facts []xf) *Table {
	t.Helper()
	tb, err := BuildTable(cfDoc(t, name, facts), "X", 0, 0)
	if err != nil {
		t.Fatal(err)
	}
	return tb
}
