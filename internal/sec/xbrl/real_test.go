package xbrl

import (
	"errors"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

func mustSeries(t *testing.T, cf *CompanyFacts, c Concept) *Series {
	t.Helper()
	s, err := cf.Series(c)
	if err != nil {
		t.Fatalf("Series(%s): %v", c, err)
	}
	return s
}

func mustDate(t *testing.T, s string) Date {
	t.Helper()
	d, err := ParseDate(s)
	if err != nil {
		t.Fatal(err)
	}
	return d
}

// TestFixtureAnnualFigures pins figures looked up by hand in the companyfacts
// JSON (the latest-filed fact for the period, from a periodic report).
func TestFixtureAnnualFigures(t *testing.T) {
	tests := []struct {
		ticker  string
		concept Concept
		fy      int
		want    Source
	}{
		{"NVDA", Revenue, 2026, Source{Taxonomy: "us-gaap", Tag: "Revenues", Unit: "USD",
			Start: mustDate(t, "2025-01-27"), End: mustDate(t, "2026-01-25"), Value: 215938000000,
			Accession: "0001045810-26-000021", Form: "10-K", Filed: mustDate(t, "2026-02-25")}},
		// FY2025 is reported in the FY2025 and FY2026 10-Ks; the later one wins.
		{"NVDA", Revenue, 2025, Source{Taxonomy: "us-gaap", Tag: "Revenues", Unit: "USD",
			Start: mustDate(t, "2024-01-29"), End: mustDate(t, "2025-01-26"), Value: 130497000000,
			Accession: "0001045810-26-000021", Form: "10-K", Filed: mustDate(t, "2026-02-25")}},
		// The FY2026 net income is also in a later DEF 14A; the 10-K is cited.
		{"NVDA", NetIncome, 2026, Source{Taxonomy: "us-gaap", Tag: "NetIncomeLoss", Unit: "USD",
			Start: mustDate(t, "2025-01-27"), End: mustDate(t, "2026-01-25"), Value: 120067000000,
			Accession: "0001045810-26-000021", Form: "10-K", Filed: mustDate(t, "2026-02-25")}},
		{"AAPL", NetIncome, 2025, Source{Taxonomy: "us-gaap", Tag: "NetIncomeLoss", Unit: "USD",
			Start: mustDate(t, "2024-09-29"), End: mustDate(t, "2025-09-27"), Value: 112010000000,
			Accession: "0000320193-25-000079", Form: "10-K", Filed: mustDate(t, "2025-10-31")}},
		{"GOOGL", Revenue, 2025, Source{Taxonomy: "us-gaap", Tag: "Revenues", Unit: "USD",
			Start: mustDate(t, "2025-01-01"), End: mustDate(t, "2025-12-31"), Value: 402836000000,
			Accession: "0001652044-26-000018", Form: "10-K", Filed: mustDate(t, "2026-02-05")}},
		// Tag migration: NVIDIA's first capex tag (PaymentsToAcquirePropertyPlantAndEquipment)
		// stops in 2020; the recent years come from PaymentsToAcquireProductiveAssets...
		{"NVDA", CapitalExpenditure, 2026, Source{Taxonomy: "us-gaap", Tag: "PaymentsToAcquireProductiveAssets", Unit: "USD",
			Start: mustDate(t, "2025-01-27"), End: mustDate(t, "2026-01-25"), Value: 6042000000,
			Accession: "0001045810-26-000021", Form: "10-K", Filed: mustDate(t, "2026-02-25")}},
		// ...while years only the old tag covers still resolve to it.
		{"NVDA", CapitalExpenditure, 2012, Source{Taxonomy: "us-gaap", Tag: "PaymentsToAcquirePropertyPlantAndEquipment", Unit: "USD",
			Start: mustDate(t, "2011-01-31"), End: mustDate(t, "2012-01-29"), Value: 138735000,
			Accession: "0001045810-12-000013", Form: "10-K", Filed: mustDate(t, "2012-03-13")}},
		// Tag migration: Apple's first revenue tag (Revenues) only has 2016-2018 data.
		{"AAPL", Revenue, 2025, Source{Taxonomy: "us-gaap", Tag: "RevenueFromContractWithCustomerExcludingAssessedTax", Unit: "USD",
			Start: mustDate(t, "2024-09-29"), End: mustDate(t, "2025-09-27"), Value: 416161000000,
			Accession: "0000320193-25-000079", Form: "10-K", Filed: mustDate(t, "2025-10-31")}},
		// Both tags cover FY2018; the tag with more recent coverage wins, and
		// within it the latest filing (the FY2020 10-K).
		{"AAPL", Revenue, 2018, Source{Taxonomy: "us-gaap", Tag: "RevenueFromContractWithCustomerExcludingAssessedTax", Unit: "USD",
			Start: mustDate(t, "2017-10-01"), End: mustDate(t, "2018-09-29"), Value: 265595000000,
			Accession: "0000320193-20-000096", Form: "10-K", Filed: mustDate(t, "2020-10-30")}},
	}
	cache := map[string]*CompanyFacts{}
	for _, tt := range tests {
		t.Run(tt.ticker+"/"+string(tt.concept), func(t *testing.T) {
			cf := cache[tt.ticker]
			if cf == nil {
				cf = fixture(t, tt.ticker)
				cache[tt.ticker] = cf
			}
			f, ok := mustSeries(t, cf, tt.concept).Annual(tt.fy)
			if !ok {
				t.Fatalf("no FY%d figure", tt.fy)
			}
			if f.Value != tt.want.Value || f.Period.FiscalYear != tt.fy || f.Period.FiscalPeriod != "FY" || f.Derived() {
				t.Errorf("got %v, want FY%d value %v", f, tt.fy, tt.want.Value)
			}
			if diff := cmp.Diff([]Source{tt.want}, f.Sources); diff != "" {
				t.Errorf("sources (-want +got):\n%s", diff)
			}
		})
	}
}

func TestFixtureFiscalYearEnd(t *testing.T) {
	for _, tt := range []struct {
		ticker string
		want   string
	}{{"NVDA", "--01-25"}, {"AAPL", "--09-27"}, {"GOOGL", "--12-31"}} {
		if got := fixture(t, tt.ticker).FiscalYearEnd.String(); got != tt.want {
			t.Errorf("%s fiscal year end = %s, want %s", tt.ticker, got, tt.want)
		}
	}
}

// TestFixtureQ4Derived pins NVIDIA's Q4 FY2026 revenue: 215,938M (FY, 10-K)
// minus 147,811M (nine months to 2025-10-26, Q3 10-Q) = 68,127M.
func TestFixtureQ4Derived(t *testing.T) {
	s := mustSeries(t, fixture(t, "NVDA"), Revenue)
	q4, ok := s.Quarter(2026, 4)
	if !ok {
		t.Fatal("no Q4 FY2026")
	}
	if q4.Value != 68127000000 || q4.Method != "FY - 9M YTD" {
		t.Errorf("Q4 = %v", q4)
	}
	wantP := Period{Start: mustDate(t, "2025-10-27"), End: mustDate(t, "2026-01-25"), Kind: Quarter, FiscalYear: 2026, FiscalPeriod: "Q4"}
	if q4.Period != wantP {
		t.Errorf("Q4 period = %+v, want %+v", q4.Period, wantP)
	}
	if len(q4.Sources) != 2 || q4.Sources[0].Accession != "0001045810-26-000021" || q4.Sources[0].Value != 215938000000 ||
		q4.Sources[1].Accession != "0001045810-25-000230" || q4.Sources[1].Value != 147811000000 || q4.Sources[1].Form != "10-Q" {
		t.Errorf("Q4 sources = %v", q4.Sources)
	}
	// Q3 is reported as a three-month figure, not derived.
	q3, ok := s.Quarter(2026, 3)
	if !ok || q3.Value != 57006000000 || q3.Derived() {
		t.Errorf("Q3 = %v", q3)
	}
}

// TestFixtureTTM pins NVIDIA's revenue for the four quarters to 2026-04-26:
// 46,743 (Q2 FY26) + 57,006 (Q3) + 68,127 (Q4, derived) + 81,615 (Q1 FY27) = 253,491M.
func TestFixtureTTM(t *testing.T) {
	s := mustSeries(t, fixture(t, "NVDA"), Revenue)
	ttm, err := s.TTM()
	if err != nil {
		t.Fatal(err)
	}
	if ttm.Value != 253491000000 || ttm.Period.Start != mustDate(t, "2025-04-28") || ttm.Period.End != mustDate(t, "2026-04-26") ||
		ttm.Period.FiscalPeriod != "TTM" || ttm.Period.FiscalYear != 2027 {
		t.Errorf("TTM = %v", ttm)
	}
	if len(ttm.Sources) != 5 { // Q2, Q3, Q4 (FY and 9M), Q1
		t.Errorf("TTM has %d sources, want 5: %v", len(ttm.Sources), ttm.Sources)
	}
	if !strings.Contains(ttm.Method, "Q4 FY2026 (FY - 9M YTD)") {
		t.Errorf("TTM method = %q", ttm.Method)
	}
	// Cash flows are reported year-to-date only, so every quarter but Q1 is derived.
	ocf, err := mustSeries(t, fixture(t, "GOOGL"), OperatingCashFlow).TTM()
	if err != nil {
		t.Fatal(err)
	}
	if ocf.Value != 174353000000 || !strings.Contains(ocf.Method, "Q2 FY2025 (H1 YTD - Q1)") {
		t.Errorf("GOOGL OCF TTM = %v", ocf)
	}
}

func TestFixtureMissingConcept(t *testing.T) {
	// Alphabet does not tag GrossProfit.
	_, err := fixture(t, "GOOGL").Series(GrossProfit)
	if !errors.Is(err, ErrNoData) {
		t.Fatalf("err = %v, want ErrNoData", err)
	}
	if !strings.Contains(err.Error(), "us-gaap:GrossProfit") {
		t.Errorf("error does not name the tags tried: %v", err)
	}
}
