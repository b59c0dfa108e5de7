package sectools

import (
	"cmp"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"math"
	"os"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/parleyhq/parley/internal/sec/edgar"
	"github.com/parleyhq/parley/internal/sec/snapshot"
	"github.com/parleyhq/parley/internal/tool"
)

// annualFacts is a small, hand-written FactFinder for tests: the latest
// full-year values reported on 10-Ks, one per period end.
func annualFacts(ctx context.Context, companyfacts []byte, q FactQuery) ([]Fact, error) {
	var doc struct {
		Facts map[string]map[string]struct {
			Label string `json:"label"`
			Units map[string][]struct {
				Start, End, Form, Filed, Accn, FP, Frame string
				Val                                      float64
				FY                                       int
			} `json:"units"`
		} `json:"facts"`
	}
	if err := json.Unmarshal(companyfacts, &doc); err != nil {
		return nil, err
	}
	var out []Fact
	for _, name := range q.Concepts {
		c, ok := doc.Facts["us-gaap"][name]
		if !ok {
			return nil, fmt.Errorf("%w: no us-gaap concept %q", tool.ErrBadArgs, name)
		}
		var fs []Fact
		for unit, vals := range c.Units {
			for _, v := range vals {
				if v.Form != "10-K" || v.FP != "FY" {
					continue
				}
				fs = append(fs, Fact{Concept: name, Label: c.Label, Unit: unit, Value: v.Val, Start: v.Start, End: v.End,
					FiscalYear: v.FY, FiscalPeriod: v.FP, Form: v.Form, Filed: v.Filed, Accession: v.Accn, Frame: v.Frame})
			}
		}
		// Newest period first; of restatements, the latest filing.
		slices.SortFunc(fs, func(a, b Fact) int { return cmp.Or(cmp.Compare(b.End, a.End), cmp.Compare(b.Filed, a.Filed)) })
		fs = slices.CompactFunc(fs, func(a, b Fact) bool { return a.End == b.End })
		out = append(out, fs[:min(q.Limit, len(fs))]...)
	}
	return out, nil
}

// grossMargin is a hand-written RatioCalculator for tests (latest year only).
func grossMargin(ctx context.Context, companyfacts []byte, fy int) ([]Ratio, error) {
	fs, err := annualFacts(ctx, companyfacts, FactQuery{Concepts: []string{"GrossProfit", "Revenues"}, Limit: 1})
	if err != nil {
		return nil, err
	}
	return []Ratio{{Name: "gross_margin", Value: fs[0].Value / fs[1].Value, Unit: "ratio",
		Formula: "GrossProfit / Revenues", PeriodEnd: fs[0].End, Inputs: fs}}, nil
}

// profitable is a hand-written FrameworkScorer for tests: Piotroski's first
// test only.
func profitable(ctx context.Context, companyfacts []byte, fw Framework, fy int) (*FrameworkResult, error) {
	if fw != Piotroski {
		return nil, fmt.Errorf("%w: only piotroski in this test", tool.ErrBadArgs)
	}
	fs, err := annualFacts(ctx, companyfacts, FactQuery{Concepts: []string{"NetIncomeLoss"}, Limit: 1})
	if err != nil {
		return nil, err
	}
	pass := fs[0].Value > 0
	pts := 0.0
	if pass {
		pts = 1
	}
	return &FrameworkResult{Framework: fw, Score: pts, MaxScore: 1, FiscalYear: fy,
		Criteria: []Criterion{{Name: "positive net income", Passed: &pass, Points: pts, Evidence: fs}}}, nil
}

// docSource is the snapshot plus one filing document (the snapshot has none).
type docSource struct {
	*snapshot.Snapshot
	doc      []byte
	accepted string // accession/name it serves
	calls    int
}

func (d *docSource) Document(ctx context.Context, cik edgar.CIK, accession, name string) (*edgar.Raw, error) {
	d.calls++
	if accession+"/"+name != d.accepted {
		return nil, fmt.Errorf("%w: GET %s/%s", edgar.ErrNotFound, accession, name)
	}
	return &edgar.Raw{Body: d.doc, Provenance: edgar.Provenance{Origin: "SEC EDGAR",
		URL:       "https://www.sec.gov/Archives/edgar/data/1045810/000104581026000021/nvda-20260125.htm",
		Retrieved: time.Date(2026, 3, 6, 12, 0, 0, 0, time.UTC)}}, nil
}

func nvdaSet(t *testing.T, src edgar.Source, mod func(*Config)) *Set {
	t.Helper()
	c, err := src.Lookup(context.Background(), "NVDA")
	if err != nil {
		t.Fatal(err)
	}
	cfg := Config{Source: src, Company: c,
		Facts: FactFinderFunc(annualFacts), Ratios: RatioCalculatorFunc(grossMargin), Frameworks: FrameworkScorerFunc(profitable)}
	if mod != nil {
		mod(&cfg)
	}
	s, err := New(cfg)
	if err != nil {
		t.Fatal(err)
	}
	return s
}

func registry(t *testing.T, s *Set) *tool.Registry {
	t.Helper()
	r, err := tool.NewRegistry(s.Tools()...)
	if err != nil {
		t.Fatal(err)
	}
	return r
}

func callJSON(t *testing.T, r *tool.Registry, name, args string, v any) {
	t.Helper()
	out, err := r.Call(context.Background(), name, json.RawMessage(args))
	if err != nil {
		t.Fatalf("%s(%s): %v", name, args, err)
	}
	if err := json.Unmarshal([]byte(out), v); err != nil {
		t.Fatalf("%s result is not JSON: %v\n%s", name, err, out)
	}
}

func TestSpecsAreValidSchemas(t *testing.T) {
	r := registry(t, nvdaSet(t, snapshot.New(), nil))
	specs := r.Specs()
	if len(specs) != 7 {
		t.Fatalf("%d tools, want 7", len(specs))
	}
	for _, s := range specs {
		var schema struct {
			Type       string         `json:"type"`
			Properties map[string]any `json:"properties"`
		}
		if err := json.Unmarshal(s.Schema, &schema); err != nil || schema.Type != "object" || len(schema.Properties) == 0 && s.Name != NameValuation {
			t.Errorf("%s: schema %s: %v", s.Name, s.Schema, err)
		}
		if s.Description == "" {
			t.Errorf("%s has no description", s.Name)
		}
	}
	// Without computations only the filing tools are offered.
	bare := nvdaSet(t, snapshot.New(), func(c *Config) { c.Facts, c.Ratios, c.Frameworks = nil, nil, nil })
	if n := len(bare.Tools()); n != 4 {
		t.Errorf("bare set has %d tools, want 4 (filings, section, events, search)", n)
	}
}

type filingsOut struct {
	Company string         `json:"company"`
	CIK     string         `json:"cik"`
	Source  string         `json:"source"`
	Matches int            `json:"total_matches"`
	Filings []edgar.Filing `json:"filings"`
	Note    string         `json:"note"`
}

func TestFilingsSearch(t *testing.T) {
	r := registry(t, nvdaSet(t, snapshot.New(), nil))
	var got filingsOut
	callJSON(t, r, NameFilings, `{"forms":["10-K"],"limit":2}`, &got)
	if got.CIK != "0001045810" || got.Company != "NVIDIA CORP" || len(got.Filings) != 2 || got.Matches < 2 {
		t.Fatalf("got %+v", got)
	}
	want := edgar.Filing{Accession: "0001045810-26-000021", Form: "10-K", FilingDate: "2026-02-25",
		ReportDate: "2026-01-25", PrimaryDocument: "nvda-20260125.htm", Description: "10-K"}
	if got.Filings[0] != want {
		t.Errorf("latest 10-K = %+v, want %+v", got.Filings[0], want)
	}
	if !strings.Contains(got.Source, "offline snapshot recorded 2026-03-05") || got.Note == "" {
		t.Errorf("source %q, note %q: want the snapshot date and a note on missing older filings", got.Source, got.Note)
	}

	callJSON(t, r, NameFilings, `{"form":"10-k","from":"2025-01-01","to":"2025-12-31"}`, &got)
	if got.Matches != 1 || got.Filings[0].Accession != "0001045810-25-000023" {
		t.Errorf("10-Ks filed in 2025 = %+v", got.Filings)
	}
	callJSON(t, r, NameFilings, ``, &got)
	if len(got.Filings) != 10 || got.Matches < 1000 {
		t.Errorf("default search: %d filings of %d", len(got.Filings), got.Matches)
	}

	for _, bad := range []string{`{"from":"2025-12-31","to":"2025-01-01"}`, `{"from":"last year"}`,
		`{"limit":500}`, `{"ticker":"NVDA"}`, `{"forms":"10-K"}`} {
		if _, err := r.Call(context.Background(), NameFilings, json.RawMessage(bad)); !errors.Is(err, tool.ErrBadArgs) {
			t.Errorf("%s: err = %v, want ErrBadArgs", bad, err)
		}
	}
}

func TestSection(t *testing.T) {
	doc, err := os.ReadFile("../edgar/testdata/10k_sample.htm")
	if err != nil {
		t.Fatal(err)
	}
	src := &docSource{Snapshot: snapshot.New(), doc: doc, accepted: "0001045810-26-000021/nvda-20260125.htm"}
	r := registry(t, nvdaSet(t, src, func(c *Config) { c.SectionChars = 400 }))
	ctx := context.Background()

	out, err := r.Call(ctx, NameSection, json.RawMessage(`{"accession":"0001045810-26-000021","section":"1A"}`))
	if err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{
		"NVIDIA CORP (NVDA), 10-K filed 2026-02-25 for the period ended 2026-01-25, accession 0001045810-26-000021: Item 1A. Risk Factors",
		"Source: SEC EDGAR, fetched 2026-03-06T12:00:00Z, https://www.sec.gov/Archives/edgar/data/1045810/",
		"\n\nItem 1A. Risk Factors\nThe following risk factors",
		"More follows: call sec_section again with offset ",
	} {
		if !strings.Contains(out, want) {
			t.Errorf("result lacks %q:\n%s", want, out)
		}
	}
	var next int
	if _, err := fmt.Sscanf(out[strings.Index(out, "with offset ")+len("with offset "):], "%d", &next); err != nil || next <= 0 {
		t.Fatalf("no next offset in %q", out)
	}
	out2, err := r.Call(ctx, NameSection, json.RawMessage(fmt.Sprintf(`{"accession":"000104581026000021","section":"1A","offset":%d}`, next)))
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(out2, fmt.Sprintf("Characters %d–", next)) || strings.Contains(out2, "The following risk factors") {
		t.Errorf("second part:\n%s", out2)
	}
	if src.calls != 1 {
		t.Errorf("document fetched %d times for two parts, want 1", src.calls)
	}

	mda, err := r.Call(ctx, NameSection, json.RawMessage(`{"accession":"0001045810-26-000021","section":"7"}`))
	if err != nil || !strings.Contains(mda, "Item 7. Management’s Discussion") {
		t.Errorf("MD&A: %v\n%s", err, mda)
	}

	for _, bad := range []string{
		`{"accession":"0001045810-26-000021","section":"7A"}`, // no such section
		`{"accession":"0000000000-00-000000","section":"1A"}`, // not NVIDIA's
		`{"accession":"0001347842-26-000007","section":"1A"}`, // a Form 4
		`{"section":"1A"}`,
	} {
		if _, err := r.Call(ctx, NameSection, json.RawMessage(bad)); !errors.Is(err, tool.ErrBadArgs) {
			t.Errorf("%s: err = %v, want ErrBadArgs", bad, err)
		}
	}
}

func TestSectionOffline(t *testing.T) {
	r := registry(t, nvdaSet(t, snapshot.New(), nil))
	_, err := r.Call(context.Background(), NameSection, json.RawMessage(`{"accession":"0001045810-26-000021","section":"1A"}`))
	if !errors.Is(err, edgar.ErrNotAvailable) || errors.Is(err, tool.ErrBadArgs) {
		t.Fatalf("err = %v, want ErrNotAvailable", err)
	}
	if !strings.Contains(err.Error(), "is not in the offline snapshot") || !strings.Contains(err.Error(), "10-K 0001045810-25-000023") {
		t.Errorf("error does not say plainly that the document is offline-unavailable and which ones are shipped: %v", err)
	}
}

// TestSectionOfflineShipped reads Item 1A of the 10-K whose text the
// snapshot ships (NVIDIA's FY2025 10-K).
func TestSectionOfflineShipped(t *testing.T) {
	r := registry(t, nvdaSet(t, snapshot.New(), nil))
	out, err := r.Call(context.Background(), NameSection, json.RawMessage(`{"accession":"0001045810-25-000023","section":"1A"}`))
	if err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{"accession 0001045810-25-000023", "Item 1A. Risk Factors", "offline snapshot recorded 2025-10-09"} {
		if !strings.Contains(out, want) {
			t.Errorf("section lacks %q:\n%.600s", want, out)
		}
	}
}

func TestFacts(t *testing.T) {
	r := registry(t, nvdaSet(t, snapshot.New(), nil))
	var got struct {
		Source string `json:"source"`
		Facts  []Fact `json:"facts"`
	}
	callJSON(t, r, NameFacts, `{"concepts":["Revenues","NetIncomeLoss"],"limit":2}`, &got)
	if len(got.Facts) != 4 {
		t.Fatalf("got %d facts, want 4: %+v", len(got.Facts), got.Facts)
	}
	rev := got.Facts[0]
	if rev.Concept != "Revenues" || rev.Value != 215_938_000_000 || rev.End != "2026-01-25" ||
		rev.Accession != "0001045810-26-000021" || rev.Form != "10-K" || rev.Unit != "USD" {
		t.Errorf("latest revenue = %+v", rev)
	}
	if !strings.Contains(got.Source, "offline snapshot recorded 2026-07-09") {
		t.Errorf("source = %q, want the companyfacts recording date", got.Source)
	}
	for _, bad := range []string{`{}`, `{"concepts":[]}`, `{"concepts":["Revenues"],"period":"monthly"}`, `{"concepts":["NoSuchConcept"]}`} {
		if _, err := r.Call(context.Background(), NameFacts, json.RawMessage(bad)); !errors.Is(err, tool.ErrBadArgs) {
			t.Errorf("%s: err = %v, want ErrBadArgs", bad, err)
		}
	}
}

func TestRatiosAndFramework(t *testing.T) {
	r := registry(t, nvdaSet(t, snapshot.New(), nil))
	var ratios struct {
		Ratios []Ratio `json:"ratios"`
	}
	callJSON(t, r, NameRatios, `{}`, &ratios)
	if len(ratios.Ratios) != 1 || math.Abs(ratios.Ratios[0].Value-153_463.0/215_938.0) > 1e-9 {
		t.Errorf("ratios = %+v", ratios.Ratios)
	}
	var fw struct {
		Source string `json:"source"`
		FrameworkResult
	}
	callJSON(t, r, NameFramework, `{"framework":"Piotroski","fiscal_year":2026}`, &fw)
	if fw.Framework != Piotroski || fw.Score != 1 || fw.FiscalYear != 2026 || len(fw.Criteria) != 1 ||
		fw.Criteria[0].Evidence[0].Accession != "0001045810-26-000021" || fw.Source == "" {
		t.Errorf("framework = %+v", fw)
	}
	for _, bad := range []string{`{}`, `{"framework":"dcf"}`, `{"framework":"altman","fiscal_year":20260}`} {
		if _, err := r.Call(context.Background(), NameFramework, json.RawMessage(bad)); !errors.Is(err, tool.ErrBadArgs) {
			t.Errorf("%s: err = %v, want ErrBadArgs", bad, err)
		}
	}
}

// Two agents' registries share one cache: bear's identical call is a hit.
func TestCacheSharedAcrossAgents(t *testing.T) {
	set := nvdaSet(t, snapshot.New(), nil)
	cache := tool.NewMemoryCache()
	var shared []tool.Tool
	for _, tl := range set.Tools() {
		shared = append(shared, tool.Cached(tl, cache, nil))
	}
	bull, err := tool.NewRegistry(shared...)
	if err != nil {
		t.Fatal(err)
	}
	bear, _ := tool.NewRegistry(shared...)
	var hit bool
	if _, err := bull.Call(context.Background(), NameFacts, json.RawMessage(`{"concepts":["Revenues"]}`)); err != nil {
		t.Fatal(err)
	}
	if _, err := bear.Call(tool.WithCacheReport(context.Background(), &hit), NameFacts, json.RawMessage(`{ "concepts": ["Revenues"] }`)); err != nil || !hit {
		t.Errorf("bear's identical call: hit=%v err=%v, want a cache hit", hit, err)
	}
}

// TestRatiosNotAvailable: a ratio the calculator could not compute reaches
// the model under not_available with its reason, not as a zero among the
// ratios and not left out.
func TestRatiosNotAvailable(t *testing.T) {
	withGap := func(ctx context.Context, companyfacts []byte, fy int) ([]Ratio, error) {
		rs, err := grossMargin(ctx, companyfacts, fy)
		return append(rs, Ratio{Name: "roe", FiscalYear: 2026, NotAvailable: "StockholdersEquity FY2026 is -$1.0B, not positive"}), err
	}
	r := registry(t, nvdaSet(t, snapshot.New(), func(c *Config) { c.Ratios = RatioCalculatorFunc(withGap) }))
	var out struct {
		Ratios       []Ratio       `json:"ratios"`
		NotAvailable []Unavailable `json:"not_available"`
	}
	callJSON(t, r, NameRatios, `{}`, &out)
	if len(out.Ratios) != 1 || out.Ratios[0].Name != "gross_margin" {
		t.Errorf("ratios = %+v, want gross_margin only", out.Ratios)
	}
	want := []Unavailable{{Name: "roe", Reason: "StockholdersEquity FY2026 is -$1.0B, not positive"}}
	if !slices.Equal(out.NotAvailable, want) {
		t.Errorf("not_available = %+v, want %+v", out.NotAvailable, want)
	}
}
