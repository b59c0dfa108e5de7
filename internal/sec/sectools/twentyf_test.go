package sectools

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/parleyhq/parley/internal/sec/edgar"
	"github.com/parleyhq/parley/internal/tool"
)

// fpiSource is a foreign private issuer on a test EDGAR: its filing list
// (a 20-F, 6-Ks, a 40-F for the refusal) and the synthetic 20-F of
// ../edgar/testdata/20f_sample.htm as the 20-F's primary document.
type fpiSource struct {
	doc     []byte
	docs    atomic.Int64
	filings []edgar.Filing    // nil: fpiFilings
	extra   map[string]string // accession/name → document, besides the 20-F
}

var fpiFilings = []edgar.Filing{
	{Accession: "0009000020-26-000011", Form: "6-K", FilingDate: "2026-04-23", PrimaryDocument: "q1-2026.htm"},
	{Accession: "0009000020-26-000004", Form: "20-F", FilingDate: "2026-03-05", ReportDate: "2025-12-31", PrimaryDocument: "nvki-20251231.htm"},
	{Accession: "0009000020-26-000002", Form: "6-K", FilingDate: "2026-01-28", PrimaryDocument: "q4-2025.htm"},
	{Accession: "0009000020-25-000005", Form: "40-F", FilingDate: "2025-03-06", ReportDate: "2024-12-31", PrimaryDocument: "form40f.htm"},
}

const fpiCIK = edgar.CIK(9000020)

var fpiCompany = edgar.Company{CIK: fpiCIK, Ticker: "NVKI", Name: "NORDVIK INSTRUMENTS N.V."}

func (s *fpiSource) Lookup(ctx context.Context, ticker string) (edgar.Company, error) {
	return fpiCompany, nil
}

func (s *fpiSource) Submissions(ctx context.Context, cik edgar.CIK) (*edgar.Submissions, error) {
	fs := s.filings
	if fs == nil {
		fs = fpiFilings
	}
	return &edgar.Submissions{CIK: fpiCIK, Name: fpiCompany.Name, Filings: fs, Provenance: edgar.Provenance{Origin: "SEC EDGAR", Retrieved: time.Date(2026, 5, 1, 9, 0, 0, 0, time.UTC)}}, nil
}

func (s *fpiSource) CompanyFacts(ctx context.Context, cik edgar.CIK) (*edgar.Raw, error) {
	return nil, fmt.Errorf("%w: company facts", edgar.ErrNotAvailable)
}

func (s *fpiSource) Document(ctx context.Context, cik edgar.CIK, accession, name string) (*edgar.Raw, error) {
	body := s.doc
	if accession+"/"+name != "0009000020-26-000004/nvki-20251231.htm" {
		b, ok := s.extra[accession+"/"+name]
		if !ok {
			return nil, fmt.Errorf("%w: GET %s/%s", edgar.ErrNotFound, accession, name)
		}
		body = []byte(b)
	}
	s.docs.Add(1)
	return &edgar.Raw{Body: body, Provenance: edgar.Provenance{Origin: "SEC EDGAR",
		URL:       edgar.DocumentURL(cik, accession, name),
		Retrieved: time.Date(2026, 5, 1, 9, 0, 0, 0, time.UTC)}}, nil
}

func fpiRegistry(t *testing.T, filings ...edgar.Filing) (*tool.Registry, *fpiSource) {
	t.Helper()
	doc, err := os.ReadFile("../edgar/testdata/20f_sample.htm")
	if err != nil {
		t.Fatal(err)
	}
	src := &fpiSource{doc: doc, filings: filings}
	s, err := New(Config{Source: src, Company: fpiCompany})
	if err != nil {
		t.Fatal(err)
	}
	return registry(t, s), src
}

// TestSection20F reads a 20-F filer's risk factors and MD&A by the 10-K's
// names, the plain names and the 20-F's own item numbers; each answer is
// labelled with the 20-F's item and the accession.
func TestSection20F(t *testing.T) {
	r, src := fpiRegistry(t)
	ctx := context.Background()
	const head = "NORDVIK INSTRUMENTS N.V. (NVKI), 20-F filed 2026-03-05 for the period ended 2025-12-31, accession 0009000020-26-000004: "
	for _, tc := range []struct {
		section, title, text, not string
	}{
		{"risk factors", "Item 3.D. Risk Factors", "D. Risk Factors\nAn investment in our ordinary shares", "INFORMATION ON THE COMPANY"},
		{"1A", "Item 3.D. Risk Factors", "Export controls may restrict our sales", "History and Development"},
		{"3.D", "Item 3.D. Risk Factors", "As a foreign private issuer", "Not applicable."},
		{"MD&A", "Item 5. Operating and Financial Review and Prospects", "Net sales increased by 9.6% to €786.5 million", "Management Board"},
		{"7", "Item 5. Operating and Financial Review and Prospects", "B. Liquidity and Capital Resources", "MAJOR SHAREHOLDERS"},
		{"Item 5", "Item 5. Operating and Financial Review and Prospects", "E. Critical Accounting Estimates", "Management Board"},
		{"business", "Item 4. Information on the Company", "We design and manufacture optical metrology", "UNRESOLVED STAFF"},
	} {
		out, err := r.Call(ctx, NameSection, json.RawMessage(fmt.Sprintf(`{"accession":"0009000020-26-000004","section":%q}`, tc.section)))
		if err != nil {
			t.Errorf("%s: %v", tc.section, err)
			continue
		}
		for _, want := range []string{head + tc.title + "\n",
			"Source: SEC EDGAR, fetched 2026-05-01T09:00:00Z, https://www.sec.gov/Archives/edgar/data/9000020/000900002026000004/nvki-20251231.htm",
			tc.text} {
			if !strings.Contains(out, want) {
				t.Errorf("%s: answer lacks %q:\n%.600s", tc.section, want, out)
			}
		}
		if strings.Contains(out, tc.not) {
			t.Errorf("%s: answer holds %q, from outside the section", tc.section, tc.not)
		}
	}
	// Names of one section share its extract: one fetch per section read.
	if n := src.docs.Load(); n != 3 {
		t.Errorf("the 20-F was fetched %d times for three sections, want 3", n)
	}
	for _, tc := range []struct{ args, want string }{
		{`{"accession":"0009000020-26-000011","section":"risk factors"}`, "is a 6-K"},
		{`{"accession":"0009000020-26-000004","section":"6"}`, "Item 3.D"},
	} {
		_, err := r.Call(ctx, NameSection, json.RawMessage(tc.args))
		if !errors.Is(err, tool.ErrBadArgs) || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%s: err = %v, want ErrBadArgs saying %q", tc.args, err, tc.want)
		}
	}
}

// TestFilingSearch20F searches a 20-F filer's latest 20-F (its 6-Ks are not
// read): passages come labelled with the 20-F's item and lettered sub-item,
// form and accession.
func TestFilingSearch20F(t *testing.T) {
	r, src := fpiRegistry(t)
	for _, tc := range []struct{ query, section, text string }{
		{"export controls licences China", "Item 3.D. Risk Factors", "Dutch government has required export licences"},
		{"cash and cash equivalents operating activities", "Item 5.B. Liquidity and Capital Resources", "€318.0 million"},
	} {
		var got searchOut
		callJSON(t, r, NameSearch, fmt.Sprintf(`{"query":%q,"limit":2}`, tc.query), &got)
		if len(got.Searched) != 1 || got.Searched[0] != "20-F 0009000020-26-000004 filed 2026-03-05" {
			t.Errorf("searched %q, want the latest 20-F alone", got.Searched)
		}
		if len(got.Passages) == 0 {
			t.Fatalf("%q: no passage", tc.query)
		}
		p := got.Passages[0]
		if p.Section != tc.section || p.Form != "20-F" || p.Accession != "0009000020-26-000004" || p.Period != "2025-12-31" ||
			!strings.Contains(p.Text, tc.text) {
			t.Errorf("%q: best passage %+v, want %s of the 20-F holding %q", tc.query, p, tc.section, tc.text)
		}
	}
	if n := src.docs.Load(); n != 1 {
		t.Errorf("the 20-F was fetched %d times, want once", n)
	}
	var got searchOut
	callJSON(t, r, NameSearch, `{"query":"net sales","accession":"0009000020-26-000004"}`, &got)
	if len(got.Passages) == 0 {
		t.Error("no passage when the 20-F is named by accession")
	}
	if _, err := r.Call(context.Background(), NameSearch, json.RawMessage(`{"query":"net sales","accession":"0009000020-26-000011"}`)); !errors.Is(err, tool.ErrBadArgs) {
		t.Errorf("a 6-K by accession: err = %v, want ErrBadArgs", err)
	}
}

// fortyF is a synthetic 40-F filing: the form (a cover and a list of
// exhibits), its EDGAR index page laid out as EDGAR's (the document table of
// class tableFile), the annual information form, MD&A and financial
// statements as EX-99.1 to 99.3 with uninformative descriptions, and a
// consent and a certification that are not read.
func fortyF() (edgar.Filing, map[string]string) {
	const acc = "0009000020-26-000007"
	row := func(seq, desc, name, typ string) string {
		return `<tr><td scope="row">` + seq + `</td><td scope="row">` + desc + `</td><td scope="row"><a href="/Archives/edgar/data/9000020/000900002026000007/` +
			name + `">` + name + `</a></td><td scope="row">` + typ + `</td><td scope="row">1000</td></tr>`
	}
	index := `<html><body><table class="tableFile" summary="Document Format Files"><tr><th>Seq</th><th>Description</th><th>Document</th><th>Type</th><th>Size</th></tr>` +
		row("1", "FORM 40-F", "form40f.htm", "40-F") + row("2", "EXHIBIT 99.1", "ex99-1.htm", "EX-99.1") + row("3", "EXHIBIT 99.2", "ex99-2.htm", "EX-99.2") +
		row("4", "EXHIBIT 99.3", "ex99-3.htm", "EX-99.3") + row("5", "CONSENT OF INDEPENDENT AUDITORS", "ex99-4.htm", "EX-99.4") +
		row("6", "CERTIFICATION OF CEO", "ex99-5.htm", "EX-99.5") + `</table></body></html>`
	filler := strings.Repeat("Further detail is given in the notes. ", 20)
	docs := map[string]string{
		acc + "/" + acc + "-index.htm": index,
		acc + "/form40f.htm": `<p>FORM 40-F</p><p>ANNUAL REPORT PURSUANT TO SECTION 13(a) OR 15(d) OF THE SECURITIES EXCHANGE ACT OF 1934</p>` +
			`<p>The annual information form is filed as Exhibit 99.1, the MD&amp;A as Exhibit 99.2.</p>`,
		acc + "/ex99-1.htm": `<p>NORDVIK RESOURCES LTD.</p><p>ANNUAL INFORMATION FORM</p><p>For the year ended December 31, 2025</p>` +
			`<p>DESCRIPTION OF THE BUSINESS</p><p>We mine copper and zinc at two sites in British Columbia.</p>` +
			`<p>RISK FACTORS</p><p>Our copper concentrate is sold to three smelters in Asia; the loss of any of them would reduce revenue. ` + filler + `</p>` +
			`<p>DIVIDENDS</p><p>We paid C$0.10 per share each quarter in 2025.</p>`,
		acc + "/ex99-2.htm": `<p>MANAGEMENT&#8217;S DISCUSSION AND ANALYSIS</p><p>This MD&amp;A should be read with our annual information form.</p>` +
			`<p>Revenue rose 12% to C$1,204 million on higher copper prices. ` + filler + `</p>`,
		acc + "/ex99-3.htm": `<p>CONSOLIDATED FINANCIAL STATEMENTS</p><p>Note 7. Mineral properties: carrying amount C$2,310 million. ` + filler + `</p>`,
		acc + "/ex99-4.htm": `<p>We consent to the use of our report dated March 1, 2026 on copper revenue.</p>`,
	}
	return edgar.Filing{Accession: acc, Form: "40-F", FilingDate: "2026-03-10", ReportDate: "2025-12-31", PrimaryDocument: "form40f.htm"}, docs
}

// TestFilingSearch40F searches a 40-F's exhibits (the form itself is a
// cover), each passage labelled and linked with its exhibit.
func TestFilingSearch40F(t *testing.T) {
	f, docs := fortyF()
	doc, err := os.ReadFile("../edgar/testdata/20f_sample.htm")
	if err != nil {
		t.Fatal(err)
	}
	src := &fpiSource{doc: doc, filings: []edgar.Filing{f}, extra: docs}
	s, err := New(Config{Source: src, Company: fpiCompany})
	if err != nil {
		t.Fatal(err)
	}
	r := registry(t, s)
	for _, tc := range []struct{ query, section, file string }{
		{"copper concentrate smelters", "EX-99.1 Annual Information Form", "ex99-1.htm"},
		{"revenue rose copper prices", "EX-99.2 Management's Discussion and Analysis", "ex99-2.htm"},
		{"mineral properties carrying amount", "EX-99.3 Consolidated Financial Statements", "ex99-3.htm"},
	} {
		var got searchOut
		callJSON(t, r, NameSearch, fmt.Sprintf(`{"query":%q,"limit":1}`, tc.query), &got)
		if len(got.Searched) != 1 || got.Searched[0] != "40-F 0009000020-26-000007 filed 2026-03-10" || len(got.Passages) != 1 {
			t.Fatalf("%q: searched %q, %d passages", tc.query, got.Searched, len(got.Passages))
		}
		p := got.Passages[0]
		if p.Section != tc.section || p.Form != "40-F" || !strings.HasSuffix(p.URL, "/000900002026000007/"+tc.file) {
			t.Errorf("%q: passage %s at %s, want %s at %s", tc.query, p.Section, p.URL, tc.section, tc.file)
		}
	}
	var got searchOut
	callJSON(t, r, NameSearch, `{"query":"consent report certification"}`, &got)
	for _, p := range got.Passages {
		if strings.Contains(p.Section, "EX-99.4") || strings.Contains(p.Section, "EX-99.5") {
			t.Errorf("a consent or certification was searched: %s", p.Section)
		}
	}
	// index, form and three exhibits, once each
	if n := src.docs.Load(); n != 5 {
		t.Errorf("%d document requests, want 5", n)
	}
}

// TestSection40F reads a 40-F's MD&A exhibit and its annual information
// form's risk factors and business, labelled with the exhibit.
func TestSection40F(t *testing.T) {
	f, docs := fortyF()
	src := &fpiSource{filings: []edgar.Filing{f}, extra: docs}
	s, err := New(Config{Source: src, Company: fpiCompany})
	if err != nil {
		t.Fatal(err)
	}
	r := registry(t, s)
	const head = "NORDVIK INSTRUMENTS N.V. (NVKI), 40-F filed 2026-03-10 for the period ended 2025-12-31, accession 0009000020-26-000007: "
	for _, tc := range []struct{ section, title, text, not, url string }{
		{"MD&A", "EX-99.2 Management's Discussion and Analysis (ex99-2.htm)", "Revenue rose 12% to C$1,204 million", "smelters", "ex99-2.htm"},
		{"risk factors", "EX-99.1 Annual Information Form (ex99-1.htm), Risk Factors", "RISK FACTORS\nOur copper concentrate", "C$0.10 per share", "ex99-1.htm"},
		{"business", "EX-99.1 Annual Information Form (ex99-1.htm), Description of the Business", "We mine copper and zinc", "smelters", "ex99-1.htm"},
	} {
		out, err := r.Call(context.Background(), NameSection, json.RawMessage(fmt.Sprintf(`{"accession":"0009000020-26-000007","section":%q}`, tc.section)))
		if err != nil {
			t.Errorf("%s: %v", tc.section, err)
			continue
		}
		for _, want := range []string{head + tc.title + "\n", "/000900002026000007/" + tc.url + "\n", tc.text} {
			if !strings.Contains(out, want) {
				t.Errorf("%s: answer lacks %q:\n%.500s", tc.section, want, out)
			}
		}
		if strings.Contains(out, tc.not) {
			t.Errorf("%s: answer holds %q, from outside the section", tc.section, tc.not)
		}
	}
}
