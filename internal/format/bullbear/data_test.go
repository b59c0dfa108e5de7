package bullbear_test

import (
	"context"
	"encoding/json"
	"errors"
	"math"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/parleyhq/parley/internal/format/bullbear"
	"github.com/parleyhq/parley/internal/sec/analysis"
	"github.com/parleyhq/parley/internal/sec/sectools"
	"github.com/parleyhq/parley/internal/sec/snapshot"
	"github.com/parleyhq/parley/internal/tool"
)

// nvdaTools is the SEC tool set for NVDA on the snapshot, computed by the
// Analyzer adapters.
func nvdaTools(t *testing.T) (*tool.Registry, *bullbear.Analyzer) {
	t.Helper()
	snap := snapshot.New()
	c, err := snap.Lookup(context.Background(), "NVDA")
	if err != nil {
		t.Fatal(err)
	}
	a := &bullbear.Analyzer{}
	set, err := sectools.New(sectools.Config{Source: snap, Company: c, Facts: a, Ratios: a, Frameworks: a})
	if err != nil {
		t.Fatal(err)
	}
	r, err := tool.NewRegistry(set.Tools()...)
	if err != nil {
		t.Fatal(err)
	}
	return r, a
}

func call(t *testing.T, r *tool.Registry, name, args string, v any) {
	t.Helper()
	out, err := r.Call(context.Background(), name, json.RawMessage(args))
	if err != nil {
		t.Fatalf("%s(%s): %v", name, args, err)
	}
	if err := json.Unmarshal([]byte(out), v); err != nil {
		t.Fatalf("%s: %v\n%s", name, err, out)
	}
}

func TestAnalyzerToolsOnNVDA(t *testing.T) {
	r, a := nvdaTools(t)
	var facts struct {
		Source string          `json:"source"`
		Facts  []sectools.Fact `json:"facts"`
	}
	call(t, r, sectools.NameFacts, `{"concepts":["Revenues"],"limit":2}`, &facts)
	if len(facts.Facts) != 2 {
		t.Fatalf("facts = %+v", facts.Facts)
	}
	f := facts.Facts[0]
	if f.Value != 215_938e6 || f.FiscalYear != 2026 || f.FiscalPeriod != "FY" || f.Accession != "0001045810-26-000021" || f.Form != "10-K" || facts.Facts[1].Value != 130_497e6 {
		t.Errorf("revenue facts = %+v", facts.Facts)
	}
	if facts.Source != "offline snapshot recorded 2026-07-09" {
		t.Errorf("source %q", facts.Source)
	}
	// Parley's concept names resolve across tags.
	call(t, r, sectools.NameFacts, `{"concepts":["us-gaap:NetIncomeLoss","Revenue"],"limit":1}`, &facts)
	if len(facts.Facts) != 2 || facts.Facts[0].Value != 120_067e6 || facts.Facts[1].Value != 215_938e6 {
		t.Errorf("facts = %+v", facts.Facts)
	}
	if _, err := r.Call(context.Background(), sectools.NameFacts, json.RawMessage(`{"concepts":["NoSuchTag"]}`)); !errors.Is(err, tool.ErrBadArgs) {
		t.Errorf("unknown concept: %v, want ErrBadArgs", err)
	}

	var ratios struct {
		Ratios []sectools.Ratio `json:"ratios"`
	}
	call(t, r, sectools.NameRatios, `{}`, &ratios)
	var growth *sectools.Ratio
	for i := range ratios.Ratios {
		if ratios.Ratios[i].Name == "revenue_growth" {
			growth = &ratios.Ratios[i]
		}
	}
	if growth == nil || math.Abs(growth.Value-(215_938.0/130_497.0-1)) > 1e-9 || growth.FiscalYear != 2026 || len(growth.Inputs) != 2 {
		t.Errorf("revenue growth = %+v", growth)
	}

	var fw sectools.FrameworkResult
	call(t, r, sectools.NameFramework, `{"framework":"piotroski"}`, &fw)
	if fw.MaxScore != 9 || len(fw.Criteria) != 9 || fw.FiscalYear != 2026 {
		t.Errorf("piotroski = %+v", fw)
	}
	call(t, r, sectools.NameFramework, `{"framework":"altman","fiscal_year":2026}`, &fw)
	if fw.Score <= 0 || fw.Verdict != "safe zone" {
		t.Errorf("altman = %+v", fw)
	}
	if _, err := r.Call(context.Background(), sectools.NameRatios, json.RawMessage(`{"fiscal_year":1995}`)); !errors.Is(err, tool.ErrBadArgs) {
		t.Errorf("a year without data: %v, want ErrBadArgs", err)
	}

	// The companyfacts document was parsed once for all these calls.
	raw, _ := snapshot.New().CompanyFacts(context.Background(), 1045810)
	cf1, _ := a.Parse(raw.Body)
	cf2, _ := a.Parse(raw.Body)
	if cf1 != cf2 {
		t.Error("the Analyzer parsed the same document twice")
	}
}

func TestFiguresOfNVDA(t *testing.T) {
	rep, _ := nvda(t)
	byKey := map[string]bullbear.Figure{}
	for _, f := range bullbear.Figures(rep) {
		byKey[f.Name+"/"+string(rune('0'+f.FiscalYear%10))] = f
	}
	rev := byKey["revenue/6"]
	if rev.Display != "$215,938M" || rev.Citation != "10-K 0001045810-26-000021" || rev.Kind != bullbear.KindUSD {
		t.Errorf("revenue FY2026 = %+v", rev)
	}
	if prev := byKey["revenue/5"]; prev.Display != "$130,497M" {
		t.Errorf("revenue FY2025 = %+v", prev)
	}
	if g := byKey["revenue_growth/6"]; g.Display != "65.5%" || g.Kind != bullbear.KindPercent {
		t.Errorf("revenue growth = %+v", g)
	}
}

// TestAnalyzerRatiosSayWhy: on a loss-maker with negative equity, the
// ratios the analysis cannot compute come back marked not available with
// the analysis's reason; the computed ones carry none.
func TestAnalyzerRatiosSayWhy(t *testing.T) {
	raw, err := os.ReadFile(filepath.Join("..", "..", "sec", "xbrl", "testdata", "synthetic", "loss_CIK0009000006.json"))
	if err != nil {
		t.Fatal(err)
	}
	rs, err := (&bullbear.Analyzer{}).Ratios(context.Background(), raw, 0)
	if err != nil {
		t.Fatal(err)
	}
	why := map[string]string{}
	for _, r := range rs {
		if _, dup := why[r.Name]; dup {
			t.Errorf("%s listed twice", r.Name)
		}
		why[r.Name] = r.NotAvailable
	}
	for _, name := range analysis.RatioNames() {
		if _, ok := why[name]; !ok {
			t.Errorf("%s left out", name)
		}
	}
	for name, want := range map[string]string{
		"roe":             "StockholdersEquity FY2024 is -$300.0M, not positive, so return on equity is not meaningful",
		"debt_to_equity":  "non-positive equity",
		"cash_conversion": "NetIncome FY2024 is -$120.0M",
		"current_ratio":   "missing [CurrentAssets FY2024",
		"net_margin":      "",
	} {
		if got := why[name]; want == "" && got != "" || !strings.Contains(got, want) {
			t.Errorf("%s not available %q, want %q", name, got, want)
		}
	}
}
