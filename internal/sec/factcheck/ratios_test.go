package factcheck

import (
	"bytes"
	"compress/gzip"
	"context"
	"encoding/json"
	"fmt"
	"math"
	"strings"
	"testing"
	"time"

	"github.com/parleyhq/parley/internal/sec/analysis"
	"github.com/parleyhq/parley/internal/sec/snapshot"
	"github.com/parleyhq/parley/internal/sec/xbrl"
)

// TestEveryAnalysisRatioIsAFact: every ratio the analysis computes has a
// metric of the check in the same unit, and the table holds, for every
// fiscal year, the analysis's own value of it: one definition, not two.
func TestEveryAnalysisRatioIsAFact(t *testing.T) {
	for tk, tab := range tables(t) {
		fin := loadFinancials(t, tk)
		checked := 0
		for fy := tab.LatestFY - Years; fy <= tab.LatestFY; fy++ {
			year := *fin
			year.FiscalYear = fy
			rs, _ := analysis.Ratios(&year)
			for _, r := range rs {
				m := Metric(r.Name)
				want := map[analysis.Format]Unit{analysis.Percent: Percent, analysis.Points: Points, analysis.Multiple: Multiple, analysis.USD: USD}[r.Format]
				if UnitOf(m) != want {
					t.Errorf("%s: the check's unit of %s is %q, the analysis's %q", tk, r.Name, UnitOf(m), want)
				}
				if strings.Contains(m.Label(), "_") {
					t.Errorf("%s: metric %s has no label", tk, r.Name)
				}
				got, ok := tab.Lookup(m, Period{FY: fy})
				scale := 1.0
				if r.Format == analysis.Percent || r.Format == analysis.Points {
					scale = 100
				}
				if !ok || math.Abs(got.Value-r.Value*scale) > 1e-9*math.Max(1, math.Abs(got.Value)) {
					t.Errorf("%s %s FY%d: table %v (%v), analysis %v", tk, r.Name, fy, got.Value, ok, r.Value*scale)
				}
				checked++
			}
		}
		if checked < 5*len(analysis.RatioNames())/2 {
			t.Errorf("%s: only %d ratios compared", tk, checked)
		}
	}
	for _, name := range analysis.RatioNames() {
		if _, ok := labels[Metric(name)]; !ok {
			if b, growth := Metric(name).Base(); !growth || labels[b] == "" {
				t.Errorf("analysis ratio %s has no metric in the fact check", name)
			}
		}
	}
}

func loadFinancials(t *testing.T, ticker string) *analysis.Financials {
	t.Helper()
	fin, err := analysis.Load(companyFacts(t, ticker), analysis.Options{FiscalYear: tables(t)[ticker].LatestFY})
	if err != nil {
		t.Fatal(err)
	}
	return fin
}

func rawFacts(t *testing.T, ticker string) []byte {
	t.Helper()
	snap := snapshot.New()
	co, err := snap.Lookup(context.Background(), ticker)
	if err != nil {
		t.Fatal(err)
	}
	raw, err := snap.CompanyFacts(context.Background(), co.CIK)
	if err != nil {
		t.Fatal(err)
	}
	return raw.Body
}

func companyFacts(t *testing.T, ticker string) *xbrl.CompanyFacts {
	t.Helper()
	cf, err := xbrl.Parse(bytes.NewReader(rawFacts(t, ticker)))
	if err != nil {
		t.Fatal(err)
	}
	return cf
}

// returns computes return on equity and on assets in percent for the last
// two fiscal years straight from the raw company facts, without the xbrl
// or analysis packages: net income of the latest-filed 10-K annual period
// over the year-end stockholders' equity and total assets. A fiscal year is
// named by the calendar year it ends in (true of NVIDIA, Apple, Alphabet).
func returns(t *testing.T, ticker string) map[int][2]float64 {
	t.Helper()
	body := rawFacts(t, ticker)
	if len(body) > 1 && body[0] == 0x1f && body[1] == 0x8b {
		zr, err := gzip.NewReader(bytes.NewReader(body))
		if err != nil {
			t.Fatal(err)
		}
		var buf bytes.Buffer
		if _, err := buf.ReadFrom(zr); err != nil {
			t.Fatal(err)
		}
		body = buf.Bytes()
	}
	type entry struct {
		Start, End, Form, Filed string
		Val                     float64
	}
	var doc struct {
		Facts struct {
			GAAP map[string]struct {
				Units map[string][]entry `json:"units"`
			} `json:"us-gaap"`
		} `json:"facts"`
	}
	if err := json.Unmarshal(body, &doc); err != nil {
		t.Fatal(err)
	}
	latest := func(concept string, keep func(entry) bool) map[string]entry {
		out := map[string]entry{}
		for _, e := range doc.Facts.GAAP[concept].Units["USD"] {
			if keep(e) && e.Filed >= out[e.End].Filed {
				out[e.End] = e
			}
		}
		return out
	}
	annual := latest("NetIncomeLoss", func(e entry) bool {
		s, err1 := time.Parse(time.DateOnly, e.Start)
		en, err2 := time.Parse(time.DateOnly, e.End)
		days := en.Sub(s).Hours() / 24
		return e.Form == "10-K" && err1 == nil && err2 == nil && days > 350 && days < 380
	})
	instant := func(e entry) bool { return e.Start == "" }
	equity, assets := latest("StockholdersEquity", instant), latest("Assets", instant)
	out := map[int][2]float64{}
	for end, ni := range annual {
		eq, a := equity[end], assets[end]
		if eq.Val <= 0 || a.Val <= 0 {
			continue
		}
		var fy int
		fmt.Sscanf(end[:4], "%d", &fy)
		out[fy] = [2]float64{100 * ni.Val / eq.Val, 100 * ni.Val / a.Val}
	}
	if len(out) < 2 {
		t.Fatalf("%s: returns of only %d years in the raw facts", ticker, len(out))
	}
	return out
}

// TestReturnsCheckedAgainstRawFacts: a return on equity or on assets is
// verified when right, corrected to the value computed from the raw facts
// when wrong, for the period the sentence names; with no period stated it
// is held, like every other figure, to the latest fiscal year.
func TestReturnsCheckedAgainstRawFacts(t *testing.T) {
	for _, tk := range []string{"NVDA", "AAPL", "GOOGL"} {
		tab := tables(t)[tk]
		raw := returns(t, tk)
		for _, fy := range []int{tab.LatestFY, tab.LatestFY - 1} {
			vals, ok := raw[fy]
			if !ok {
				t.Fatalf("%s: no raw returns for FY%d", tk, fy)
			}
			for i, m := range []Metric{ROE, ROA} {
				want := vals[i]
				name := map[Metric]string{ROE: "Return on equity", ROA: "Return on assets"}[m]
				short := map[Metric]string{ROE: "ROE", ROA: "ROA"}[m]
				right := fmt.Sprintf("%.1f%%", want)
				wrong := fmt.Sprintf("%.1f%%", want+7)
				cases := []struct {
					text   string
					status Status
				}{
					{fmt.Sprintf("%s was %s in fiscal %d.", name, right, fy), Verified},
					{fmt.Sprintf("%s of %s in FY%d (10-K).", name, right, fy), Verified},
					{fmt.Sprintf("%s was %s in fiscal %d.", name, wrong, fy), Corrected},
					{fmt.Sprintf("The company's %s reached %s in FY%d.", short, wrong, fy), Corrected},
				}
				if fy == tab.LatestFY {
					cases = append(cases,
						struct {
							text   string
							status Status
						}{fmt.Sprintf("%s is %s.", name, right), Verified},
						struct {
							text   string
							status Status
						}{fmt.Sprintf("%s is %s.", short, wrong), Corrected})
				}
				for _, tc := range cases {
					fs := tab.Check(tc.text)
					if len(fs) != 1 || fs[0].Status != tc.status || fs[0].Metric != m || fs[0].Period != (Period{FY: fy}) {
						t.Errorf("%s %q → %s; want %s %s FY%d", tk, tc.text, describe(fs), tc.status, m, fy)
						continue
					}
					if tc.status != Corrected {
						continue
					}
					f := fs[0]
					if f.Actual == nil || math.Abs(f.Actual.Value-want) > 0.05 || f.Actual.Period != (Period{FY: fy}) {
						t.Errorf("%s %q: corrected to %+v; want %.2f%% FY%d", tk, tc.text, f.Actual, want, fy)
						continue
					}
					if per := f.Per(); !strings.Contains(per, right) || !strings.Contains(per, "10-K") {
						t.Errorf("%s %q: %q names neither %s nor its 10-K", tk, tc.text, per, right)
					}
				}
			}
		}
		// A claim is held to the same value.
		vals := raw[tab.LatestFY]
		for i, m := range []Metric{ROE, ROA} {
			for _, tc := range []struct {
				v    float64
				want Status
			}{{vals[i], Verified}, {vals[i] * 1.2, Corrected}} {
				c := Claim{Metric: string(m), Period: fmt.Sprintf("FY%d", tab.LatestFY), Value: json.Number(fmt.Sprintf("%.1f", tc.v)), Unit: "percent"}
				if f := tab.CheckClaim(c); f.Status != tc.want {
					t.Errorf("%s claim %+v → %s (%s); want %s", tk, c, f.Status, f.Reason, tc.want)
				}
			}
		}
	}
}

// TestRatiosInProse: the multiples and margin changes the analysis states
// are read in its own phrasing and checked, in direction too; a threshold
// in a condition is not.
func TestRatiosInProse(t *testing.T) {
	for _, tk := range []string{"NVDA", "AAPL"} {
		tab := tables(t)[tk]
		fy := tab.LatestFY
		get := func(m Metric) float64 {
			f, ok := tab.Lookup(m, Period{FY: fy})
			if !ok {
				t.Fatalf("%s: no %s FY%d", tk, m, fy)
			}
			return f.Value
		}
		for _, m := range []Metric{DebtToEquity, CurrentRatio, CashConversion, AssetTurnover} {
			v := get(m)
			label := m.Label()
			for _, tc := range []struct {
				text string
				want Status
			}{
				{fmt.Sprintf("%s of %.2fx in FY%d (10-K).", strings.ToUpper(label[:1])+label[1:], v, fy), Verified},
				{fmt.Sprintf("The %s was %.2fx in fiscal %d.", label, v*1.5+0.1, fy), Corrected},
			} {
				fs := tab.Check(tc.text)
				if len(fs) != 1 || fs[0].Status != tc.want || fs[0].Metric != m {
					t.Errorf("%s %q → %s; want %s %s", tk, tc.text, describe(fs), tc.want, m)
				}
			}
		}
		for _, m := range []Metric{GrossMarginChange, OperatingMarginChange} {
			v := get(m)
			margin := strings.TrimSuffix(m.Label(), " change")
			moved, other := "rose", "fell"
			if v < 0 {
				moved, other = other, moved
			}
			for _, tc := range []struct {
				text string
				want Status
			}{
				{fmt.Sprintf("%s change (YoY) of %s in FY%d.", strings.ToUpper(margin[:1])+margin[1:], Display(m, v), fy), Verified},
				{fmt.Sprintf("In fiscal %d the %s %s %.1f percentage points.", fy, margin, moved, math.Abs(v)), Verified},
				{fmt.Sprintf("In fiscal %d the %s %s %.0f basis points.", fy, margin, moved, math.Abs(v)*100), Verified},
				{fmt.Sprintf("In fiscal %d the %s %s %.1f percentage points.", fy, margin, other, math.Abs(v)), Corrected},
				{fmt.Sprintf("In fiscal %d the %s %s %.1f percentage points.", fy, margin, moved, math.Abs(v)+3), Corrected},
			} {
				fs := tab.Check(tc.text)
				if len(fs) != 1 || fs[0].Status != tc.want || fs[0].Metric != m {
					t.Errorf("%s %q → %s; want %s %s", tk, tc.text, describe(fs), tc.want, m)
				}
			}
		}
		// The data-only moderator's condition: the threshold is a
		// condition, the figure in the aside the current value.
		cc := get(CashConversion)
		text := fmt.Sprintf("Would be 8/10 if cash conversion (OCF / net income) rises above %.2fx (now %.2fx).", cc+1, cc)
		fs := tab.Check(text)
		if len(fs) != 2 || fs[0].Status != Unverified || fs[1].Status != Verified || fs[1].Metric != CashConversion {
			t.Errorf("%s %q → %s; want the threshold unverified and the current value verified", tk, text, describe(fs))
		}
	}
}

// TestConditionsPastAsides: a threshold is a condition even with an aside
// between it and its "if"; a colon that does not introduce the condition
// ends the clause, so a figure after it is checked.
func TestConditionsPastAsides(t *testing.T) {
	tab := tables(t)["NVDA"]
	cc, _ := tab.Lookup(CashConversion, Period{FY: tab.LatestFY})
	om, _ := tab.Lookup(OperatingMarginChange, Period{FY: tab.LatestFY})
	for _, tc := range []struct {
		text string
		want []Status
	}{
		{fmt.Sprintf("Bear thesis breaks if: operating margin change (YoY) rises above %s (now %s).", Display(OperatingMarginChange, om.Value+5), Display(OperatingMarginChange, om.Value)),
			[]Status{Unverified, Verified}},
		{fmt.Sprintf("The bull's cash conversion (OCF / net income) is only 0.25 threshold-units from its cut-off: Cash conversion (OCF / net income) of %.2fx in FY%d (10-K).", cc.Value, tab.LatestFY),
			[]Status{Verified}},
		{fmt.Sprintf("The bull's cash conversion (OCF / net income) is only 0.25 threshold-units from its cut-off: Cash conversion (OCF / net income) of %.2fx in FY%d (10-K).", cc.Value+1, tab.LatestFY),
			[]Status{Corrected}},
	} {
		fs := tab.Check(tc.text)
		got := statusesOf(fs)
		if !equalStatuses(got, tc.want) {
			t.Errorf("%q → %s; want %v", tc.text, describe(fs), tc.want)
		}
	}
}

// TestFrameworkScores: the Piotroski F-score and the Altman score are read
// as the analysis writes them and held to the analysis's values, the
// variant named (Z or Z”) included; a count of criteria is exact.
func TestFrameworkScores(t *testing.T) {
	for _, tk := range []string{"NVDA", "AAPL", "GOOGL"} {
		tab := tables(t)[tk]
		fy := tab.LatestFY
		fin := loadFinancials(t, tk)
		year := *fin
		pio := analysis.Piotroski(&year)
		zpp := analysis.Altman(&year) // SIC 0: Z''
		f, ok := tab.Lookup(PiotroskiF, Period{FY: fy})
		if !ok || f.Value != float64(pio.Score) {
			t.Fatalf("%s: table F-score %v (%v), analysis %d", tk, f.Value, ok, pio.Score)
		}
		z, ok := tab.Lookup(AltmanZ, Period{FY: fy})
		if !ok {
			t.Fatalf("%s: no Altman score", tk)
		}
		if dp, ok := tab.Lookup(AltmanZDoublePrime, Period{FY: fy}); !ok || dp.Value != zpp.Score {
			t.Fatalf("%s: table Z'' %v (%v), analysis %v", tk, dp.Value, ok, zpp.Score)
		}
		for _, tc := range []struct {
			text   string
			want   []Status
			metric Metric
		}{
			{fmt.Sprintf("Piotroski F-score of %d/9 in FY%d (10-K).", pio.Score, fy), []Status{Verified}, PiotroskiF},
			{fmt.Sprintf("Piotroski F-score of %d/9 in FY%d (10-K).", (pio.Score+1)%10, fy), []Status{Corrected}, PiotroskiF},
			{fmt.Sprintf("The F-score was %d out of 9 in fiscal %d.", (pio.Score+8)%10, fy), []Status{Corrected}, PiotroskiF},
			{fmt.Sprintf("Altman Z score of %.2f (safe zone) in FY%d (10-Q).", z.Value, fy), []Status{Verified}, AltmanZ},
			{fmt.Sprintf("Altman Z score of %.2f (safe zone) in FY%d (10-Q).", z.Value*2+1, fy), []Status{Corrected}, AltmanZ},
			{fmt.Sprintf("Its Altman Z'' score is %.2f in FY%d.", zpp.Score, fy), []Status{Verified}, AltmanZDoublePrime},
			{fmt.Sprintf("Would be 8/10 if Piotroski F-score rises above 5/9 (now %d/9).", pio.Score), []Status{Unverified, Verified}, PiotroskiF},
		} {
			fs := tab.Check(tc.text)
			got := statusesOf(fs)
			if !equalStatuses(got, tc.want) || fs[len(fs)-1].Metric != tc.metric {
				t.Errorf("%s %q → %s; want %v %s", tk, tc.text, describe(fs), tc.want, tc.metric)
			}
		}
		for _, tc := range []struct {
			c    Claim
			want Status
		}{
			{Claim{Metric: "piotroski_f_score", Period: fmt.Sprintf("FY%d", fy), Value: json.Number(fmt.Sprint(pio.Score))}, Verified},
			{Claim{Metric: "piotroski_f_score", Period: fmt.Sprintf("FY%d", fy), Value: json.Number(fmt.Sprint((pio.Score + 1) % 10))}, Corrected},
			{Claim{Metric: "altman_z", Period: fmt.Sprintf("FY%d", fy), Value: json.Number(fmt.Sprintf("%.2f", z.Value))}, Verified},
		} {
			if f := tab.CheckClaim(tc.c); f.Status != tc.want {
				t.Errorf("%s claim %+v → %s (%s); want %s", tk, tc.c, f.Status, f.Reason, tc.want)
			}
		}
	}
	// A date is not a score, nor is a number far from a score's name.
	for _, text := range []string{"The Piotroski review on 3/9/2025 changed nothing.", "Altman's paper appeared in 1968 with 66 firms."} {
		for _, f := range tables(t)["NVDA"].Check(text) {
			if f.Metric == PiotroskiF || f.Metric == AltmanZ {
				t.Errorf("%q: read %s as a score", text, f.Text)
			}
		}
	}
}
