package analysis

import (
	"bytes"
	"compress/gzip"
	"encoding/json"
	"errors"
	"io"
	"math"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/parleyhq/parley/internal/sec/xbrl"
)

// SIC codes from EDGAR submissions (see ../xbrl/testdata/SOURCES.txt).
const (
	sicNVDA  = 3674
	sicAAPL  = 3571
	sicGOOGL = 7370
)

func companyFacts(tb testing.TB, ticker string) *xbrl.CompanyFacts {
	tb.Helper()
	cf, err := xbrl.Parse(bytes.NewReader(companyFactsJSON(tb, ticker)))
	if err != nil {
		tb.Fatal(err)
	}
	return cf
}

// companyFactsJSON returns the decompressed companyfacts fixture for ticker.
func companyFactsJSON(tb testing.TB, ticker string) []byte {
	tb.Helper()
	name := map[string]string{
		"AAPL":  "AAPL_companyfacts_CIK0000320193.json.gz",
		"NVDA":  "NVDA_companyfacts_CIK0001045810.json.gz",
		"GOOGL": "GOOGL_companyfacts_CIK0001652044.json.gz",
	}[ticker]
	fh, err := os.Open(filepath.Join("..", "xbrl", "testdata", name))
	if err != nil {
		tb.Fatal(err)
	}
	defer fh.Close()
	zr, err := gzip.NewReader(fh)
	if err != nil {
		tb.Fatal(err)
	}
	b, err := io.ReadAll(zr)
	if err != nil {
		tb.Fatal(err)
	}
	return b
}

func report(tb testing.TB, ticker string, sic int) *Report {
	tb.Helper()
	r, err := Analyze(companyFacts(tb, ticker), Options{SIC: sic})
	if err != nil {
		tb.Fatal(err)
	}
	return r
}

func near(a, b float64) bool { return math.Abs(a-b) <= 1e-9*math.Max(1, math.Abs(b)) }

// TestNVDARevenueGrowth pins FY2026 (year ended 2026-01-25) revenue of
// $215,938M against FY2025's $130,497M, both from the FY2026 10-K.
func TestNVDARevenueGrowth(t *testing.T) {
	r := report(t, "NVDA", sicNVDA)
	if r.Financials.FiscalYear != 2026 {
		t.Fatalf("fiscal year = %d, want 2026", r.Financials.FiscalYear)
	}
	g, ok := r.Ratio("revenue_growth")
	if !ok {
		t.Fatalf("no revenue growth; gaps: %v", r.Gaps)
	}
	if !near(g.Value, 215938.0/130497.0-1) || g.Display() != "65.5%" {
		t.Errorf("growth = %v (%s)", g.Value, g.Display())
	}
	if len(g.Inputs) != 2 || g.Inputs[0].Value != 215938000000 || g.Inputs[1].Value != 130497000000 {
		t.Fatalf("inputs = %v", g.Inputs)
	}
	for _, in := range g.Inputs {
		if s := in.Sources[0]; s.Accession != "0001045810-26-000021" || s.Tag != "Revenues" || s.Form != "10-K" {
			t.Errorf("input cites %v", s)
		}
	}
	fcf, _ := r.Ratio("free_cash_flow")
	if fcf.Value != 102718000000-6042000000 {
		t.Errorf("FCF = %v, want OCF 102,718M - capex 6,042M", fcf.Value)
	}
}

func TestPiotroskiFixtures(t *testing.T) {
	// Expected passes were computed independently from the JSON (latest
	// periodic-report value per period) and agree with the criteria below.
	tests := []struct {
		ticker string
		sic    int
		fy     int
		score  int
		pass   [9]bool
		// roa, current ratio, gross margin: current and prior
		roa, cr, gm [2]float64
	}{
		{"NVDA", sicNVDA, 2026, 4, [9]bool{true, true, false, false, true, false, true, false, false},
			[2]float64{120067.0 / 111601.0, 72880.0 / 65728.0}, [2]float64{125605.0 / 32163.0, 80126.0 / 18047.0},
			[2]float64{153463.0 / 215938.0, 97858.0 / 130497.0}},
		{"AAPL", sicAAPL, 2025, 8, [9]bool{true, true, true, false, true, true, true, true, true},
			[2]float64{112010.0 / 364980.0, 93736.0 / 352583.0}, [2]float64{147957.0 / 165631.0, 152987.0 / 176392.0},
			[2]float64{195201.0 / 416161.0, 180683.0 / 391035.0}},
		{"GOOGL", sicGOOGL, 2025, 8, [9]bool{true, true, true, true, false, true, true, true, true},
			[2]float64{132170.0 / 450256.0, 100118.0 / 402392.0}, [2]float64{206038.0 / 102745.0, 163711.0 / 89122.0},
			[2]float64{(402836.0 - 162535.0) / 402836.0, (350018.0 - 146306.0) / 350018.0}},
	}
	for _, tt := range tests {
		t.Run(tt.ticker, func(t *testing.T) {
			p := report(t, tt.ticker, tt.sic).Piotroski
			if p.FiscalYear != tt.fy || p.Score != tt.score || p.Evaluated != 9 {
				t.Errorf("FY%d score %d/9 (%d evaluated), want FY%d %d/9 (9)\n%s", p.FiscalYear, p.Score, p.Evaluated, tt.fy, tt.score, p.Summary())
			}
			for i, c := range p.Criteria {
				if c.Pass != tt.pass[i] || c.Missing {
					t.Errorf("criterion %d (%s) pass=%v missing=%v, want pass=%v", i+1, c.Name, c.Pass, c.Missing, tt.pass[i])
				}
				if len(c.Inputs) == 0 {
					t.Errorf("criterion %d has no inputs", i+1)
				}
			}
			check := func(name string, c Criterion, want [2]float64, prior bool) {
				t.Helper()
				if !near(c.Current, want[0]) || (prior && !near(c.Prior, want[1])) {
					t.Errorf("%s = %v vs %v, want %v vs %v", name, c.Current, c.Prior, want[0], want[1])
				}
			}
			check("ROA", p.Criteria[0], tt.roa, false)
			check("ΔROA", p.Criteria[2], tt.roa, true)
			check("current ratio", p.Criteria[5], tt.cr, true)
			check("gross margin", p.Criteria[7], tt.gm, true)
		})
	}
}

// TestAltmanNVDA pins the original Z for NVIDIA (SIC 3674, a manufacturer)
// from FY2026 balances and the $4.0T public float at 2025-07-25.
func TestAltmanNVDA(t *testing.T) {
	a := report(t, "NVDA", sicNVDA).Altman
	const ta = 206803.0
	want := 1.2*(125605.0-32163.0)/ta + 1.4*146973.0/ta + 3.3*130387.0/ta + 0.6*4000000.0/49510.0 + 1.0*215938.0/ta
	if a.Variant != AltmanZ || a.Missing || !near(a.Score, want) || a.Zone != ZoneSafe || len(a.Components) != 5 {
		t.Errorf("got %s", a.Summary())
	}
	if got := a.Components[3].Inputs[0].Sources[0]; got.Tag != "EntityPublicFloat" || got.Accession != "0001045810-26-000021" {
		t.Errorf("X4 market value cites %v", got)
	}
}

func TestAltmanVariantChoice(t *testing.T) {
	g := report(t, "GOOGL", sicGOOGL).Altman
	const ta = 595281.0
	want := 6.56*(206038.0-102745.0)/ta + 3.26*324055.0/ta + 6.72*129039.0/ta + 1.05*415265.0/180016.0
	if g.Variant != AltmanZDoublePrime || !near(g.Score, want) || g.Zone != ZoneSafe || !strings.Contains(g.Why, "SIC 7370") {
		t.Errorf("GOOGL: %s", g.Summary())
	}
	u := report(t, "NVDA", 0).Altman
	if u.Variant != AltmanZDoublePrime || !strings.Contains(u.Why, "unknown") {
		t.Errorf("unknown SIC: %s", u.Summary())
	}
}

func TestFrameworkRegistry(t *testing.T) {
	r := report(t, "AAPL", sicAAPL)
	for _, name := range []string{"piotroski", "Altman"} {
		fw, err := Framework(name)
		if err != nil {
			t.Fatal(err)
		}
		res, err := fw.Evaluate(r.Financials)
		if err != nil || res.Name() != strings.ToLower(name) || res.Summary() == "" {
			t.Errorf("%s: %v %v", name, res, err)
		}
	}
	_, err := Framework("graham")
	if err == nil || !strings.Contains(err.Error(), `"graham"`) || !strings.Contains(err.Error(), "altman, piotroski") {
		t.Errorf("unknown framework error = %v", err)
	}
}

// synthetic builds company facts from tag -> facts (start, end, value); all
// facts come from one made-up 10-K.
func synthetic(t *testing.T, tags map[string][][3]any) *xbrl.CompanyFacts {
	t.Helper()
	usgaap := map[string]any{}
	for tag, facts := range tags {
		var list []map[string]any
		for _, x := range facts {
			m := map[string]any{"end": x[1], "val": x[2], "accn": "0000000001-24-000001", "form": "10-K", "filed": "2024-02-01"}
			if x[0] != "" {
				m["start"] = x[0]
			}
			list = append(list, m)
		}
		usgaap[tag] = map[string]any{"units": map[string]any{"USD": list}}
	}
	b, _ := json.Marshal(map[string]any{"cik": 1, "entityName": "SYNTH", "facts": map[string]any{"us-gaap": usgaap}})
	cf, err := xbrl.Parse(bytes.NewReader(b))
	if err != nil {
		t.Fatal(err)
	}
	return cf
}

func TestMissingDataIsReported(t *testing.T) {
	cf := synthetic(t, map[string][][3]any{
		"Revenues":      {{"2023-01-01", "2023-12-31", 100.0}, {"2022-01-01", "2022-12-31", 80.0}},
		"NetIncomeLoss": {{"2023-01-01", "2023-12-31", 10.0}},
		"Assets":        {{"", "2023-12-31", 200.0}},
	})
	r, err := Analyze(cf, Options{})
	if err != nil {
		t.Fatal(err)
	}
	if g, ok := r.Ratio("revenue_growth"); !ok || !near(g.Value, 0.25) {
		t.Errorf("revenue growth = %v", g)
	}
	p := r.Piotroski
	if p.Evaluated != 0 || p.Score != 0 {
		t.Errorf("Piotroski on thin data: %s", p.Summary())
	}
	if c := p.Criteria[0]; !c.Missing || !strings.Contains(c.Note, "TotalAssets FY2022") {
		t.Errorf("ROA criterion should name the missing opening assets: %+v", c)
	}
	if !r.Altman.Missing || !strings.Contains(r.Altman.Note, "CurrentAssets FY2023") {
		t.Errorf("Altman = %s", r.Altman.Summary())
	}
	if _, err := Framework("altman"); err != nil {
		t.Fatal(err)
	}
	ev := Assess(r)
	var names []string
	for _, g := range ev.Unscored {
		names = append(names, g.Name)
	}
	if !strings.Contains(strings.Join(names, ","), "piotroski_f_score") || !strings.Contains(strings.Join(names, ","), "altman_z") {
		t.Errorf("unscored = %v", names)
	}

	_, err = Analyze(synthetic(t, map[string][][3]any{"Assets": {{"", "2023-12-31", 1.0}}}), Options{})
	if !errors.Is(err, ErrThinData) {
		t.Errorf("no revenue or net income: err = %v, want ErrThinData", err)
	}
}

// TestAssessNVDA pins the evidence for NVIDIA FY2026 under Rules().
func TestAssessNVDA(t *testing.T) {
	ev := Assess(report(t, "NVDA", sicNVDA))
	var bear []string
	for _, m := range ev.Bear {
		bear = append(bear, m.Name)
	}
	// Sorted heaviest first; the 4/9 F-score weighs 2.
	if got := strings.Join(bear, ","); got != "piotroski_f_score,operating_margin_change,cash_conversion,gross_margin_change" {
		t.Errorf("bear metrics = %s", got)
	}
	// Bull weight 2+1+1.5+1.5+1.5+1+1+0.5+0.5+0.5+0.5 = 11.5 of 16.
	if !near(ev.Conviction.BullShare, 11.5/16) || ev.Conviction.Score != 7 || ev.Conviction.Stance() != "STRONG BULL" {
		t.Errorf("conviction = %+v", ev.Conviction)
	}
	// Cash conversion (0.86x vs 1.00x) is the nearest bear metric; flipping it adds weight 1.
	if ev.Conviction.WouldBe != 8 || !strings.Contains(ev.Conviction.If, "cash conversion") {
		t.Errorf("would be %d if %q", ev.Conviction.WouldBe, ev.Conviction.If)
	}
	tb := ev.ThesisBreaker
	if tb == nil || tb.Thesis != Bull || tb.Metric.Name != "gross_margin" {
		t.Fatalf("thesis breaker = %+v", tb)
	}
	if got := tb.String(); got != "Bull thesis breaks if: gross margin falls to 40.0% or below (now 71.1%)" {
		t.Errorf("thesis breaker = %q", got)
	}
	if len(ev.Contentions) < 2 || ev.Contentions[0].Topic != "Improving fundamentals vs solvency" {
		t.Errorf("contentions = %v", ev.Contentions)
	}
	found := false
	for _, c := range ev.Contentions {
		if c.Topic == "Growth vs margins" && c.Bull.Name == "revenue_growth" && c.Bear.Name == "operating_margin_change" {
			found = true
		}
	}
	if !found {
		t.Errorf("no growth-vs-margins contention in %v", ev.Contentions)
	}
	for _, m := range append(ev.Bull, ev.Bear...) {
		if len(m.Citations) == 0 {
			t.Errorf("%s has no citations", m.Name)
		}
	}
}

// TestAssessArithmetic checks conviction, breaker and contention logic on a
// hand-built report, independent of any filer's data.
func TestAssessArithmetic(t *testing.T) {
	cf := synthetic(t, map[string][][3]any{"Revenues": {{"2023-01-01", "2023-12-31", 1.0}}})
	f, err := Load(cf, Options{})
	if err != nil {
		t.Fatal(err)
	}
	r := &Report{Financials: f, Piotroski: PiotroskiResult{FiscalYear: 2023}, Altman: AltmanResult{Missing: true, Note: "n/a"},
		Ratios: []Ratio{
			{Name: "revenue_growth", Label: "Revenue growth (YoY)", Value: 0.30, Format: Percent},                   // bull, weight 2, distance 5
			{Name: "operating_margin", Label: "Operating margin", Value: 0.16, Format: Percent},                     // bull, weight 1.5, distance 1/15
			{Name: "operating_margin_change", Label: "Operating margin change (YoY)", Value: -0.03, Format: Points}, // bear, weight 1, distance 1.5
			{Name: "debt_to_equity", Label: "Debt to equity", Value: 1.1, Format: Multiple},                         // bear, weight 1, distance 0.1
		}}
	ev := Assess(r)
	// Bull 3.5 of 5.5 = 63.6% -> 6/10.
	if ev.Conviction.Score != 6 || ev.Conviction.Stance() != "LEAN BULL" {
		t.Errorf("conviction = %+v", ev.Conviction)
	}
	if ev.ThesisBreaker == nil || ev.ThesisBreaker.Metric.Name != "operating_margin" {
		t.Errorf("breaker = %+v", ev.ThesisBreaker)
	}
	// Flipping debt to equity (nearest bear metric) gives 4.5/5.5 -> 8/10.
	if ev.Conviction.WouldBe != 8 || ev.Conviction.If != "debt to equity falls to 1.00x or below (now 1.10x)" {
		t.Errorf("would be %d if %q", ev.Conviction.WouldBe, ev.Conviction.If)
	}
	want := "6/10 because revenue growth (YoY) (30.0%) and operating margin (16.0%) outweigh operating margin change (YoY) (-3.0 pts) and debt to equity (1.10x) (64% of the evidence weight favours the bull). Would be 8/10 if debt to equity falls to 1.00x or below (now 1.10x)."
	if got := ev.Conviction.Reasoning(); got != want {
		t.Errorf("reasoning:\n got %s\nwant %s", got, want)
	}
	if len(ev.Contentions) != 1 || ev.Contentions[0].String() != "Growth vs margins: Bull cites revenue growth (YoY) of 30.0%; Bear cites operating margin change (YoY) of -3.0 pts" {
		t.Errorf("contentions = %v", ev.Contentions)
	}
}

// TestPiotroskiSummaryAmounts: the criteria that compare reported amounts
// write them as the key figures do, in millions of dollars or shares, not
// as "1.027e+11"; ratios keep four significant digits.
func TestPiotroskiSummaryAmounts(t *testing.T) {
	sum := report(t, "NVDA", sicNVDA).Piotroski.Summary()
	for _, want := range []string{
		"2. [PASS] Operating cash flow > 0: $102,718M\n",
		"4. [FAIL] Operating cash flow vs net income (cash flow higher passes): $102,718M vs $120,067M",
		"1. [PASS] ROA > 0 (net income / opening total assets): 1.076\n",
		"M shares vs ",
	} {
		if !strings.Contains(sum, want) {
			t.Errorf("summary lacks %q:\n%s", want, sum)
		}
	}
	if strings.Contains(sum, "e+") {
		t.Errorf("summary writes a figure in exponent notation:\n%s", sum)
	}
}
