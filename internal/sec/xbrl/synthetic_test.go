package xbrl

import (
	"encoding/json"
	"errors"
	"strings"
	"testing"
	"time"
)

// f is a synthetic fact: start ("" for an instant), end, value, accession,
// form, filed.
type f struct {
	start, end string
	val        float64
	accn, form string
	filed      string
}

// doc builds a companyfacts document with the given us-gaap tags in USD.
func doc(t *testing.T, tags map[string][]f) *CompanyFacts {
	t.Helper()
	usgaap := map[string]any{}
	for tag, facts := range tags {
		var list []map[string]any
		for _, x := range facts {
			m := map[string]any{"end": x.end, "val": x.val, "accn": x.accn, "form": x.form, "filed": x.filed,
				"fy": 1999, "fp": "FY"} // fy and fp are deliberately wrong: they must be ignored
			if x.start != "" {
				m["start"] = x.start
			}
			list = append(list, m)
		}
		usgaap[tag] = map[string]any{"label": tag, "units": map[string]any{"USD": list}}
	}
	b, err := json.Marshal(map[string]any{"cik": 1234, "entityName": "TEST CO", "facts": map[string]any{"us-gaap": usgaap}})
	if err != nil {
		t.Fatal(err)
	}
	cf, err := Parse(strings.NewReader(string(b)))
	if err != nil {
		t.Fatal(err)
	}
	return cf
}

func def(tags ...string) ConceptDef {
	return ConceptDef{Concept: "Test", Unit: "USD", Tags: gaap(tags...)}
}

func resolve(t *testing.T, cf *CompanyFacts, d ConceptDef) *Series {
	t.Helper()
	s, err := cf.Resolve(d)
	if err != nil {
		t.Fatal(err)
	}
	return s
}

func TestResolveLatestFilingWins(t *testing.T) {
	tests := []struct {
		name      string
		facts     []f
		wantVal   float64
		wantAccn  string
		wantForm  string
		wantFiled string
	}{
		{"restatement in a later 10-K/A", []f{
			{"2022-01-01", "2022-12-31", 100, "0000000001-23-000001", "10-K", "2023-02-01"},
			{"2022-01-01", "2022-12-31", 90, "0000000001-23-000009", "10-K/A", "2023-06-01"},
		}, 90, "0000000001-23-000009", "10-K/A", "2023-06-01"},
		{"comparative in the next 10-K recasts the year", []f{
			{"2022-01-01", "2022-12-31", 90, "0000000001-24-000001", "10-K", "2024-02-01"},
			{"2022-01-01", "2022-12-31", 100, "0000000001-23-000001", "10-K", "2023-02-01"},
		}, 90, "0000000001-24-000001", "10-K", "2024-02-01"},
		{"proxy statement repeating the figure does not displace the 10-K", []f{
			{"2022-01-01", "2022-12-31", 100, "0000000001-23-000001", "10-K", "2023-02-01"},
			{"2022-01-01", "2022-12-31", 100, "0000000002-23-000001", "DEF 14A", "2023-04-01"},
		}, 100, "0000000001-23-000001", "10-K", "2023-02-01"},
		{"same-day filings: larger accession wins", []f{
			{"2022-01-01", "2022-12-31", 100, "0000000001-23-000002", "10-K", "2023-02-01"},
			{"2022-01-01", "2022-12-31", 101, "0000000001-23-000001", "10-K", "2023-02-01"},
		}, 100, "0000000001-23-000002", "10-K", "2023-02-01"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			s := resolve(t, doc(t, map[string][]f{"Revenues": tt.facts}), def("Revenues"))
			got, ok := s.Annual(2022)
			if !ok {
				t.Fatal("no FY2022")
			}
			src := got.Sources[0]
			if got.Value != tt.wantVal || src.Accession != tt.wantAccn || src.Form != tt.wantForm || src.Filed.String() != tt.wantFiled {
				t.Errorf("got %v", got)
			}
			if n := len(s.Facts()); n != 1 {
				t.Errorf("%d facts for one period, want 1", n)
			}
		})
	}
}

func TestResolveTagMigration(t *testing.T) {
	cf := doc(t, map[string][]f{
		// The first-listed tag stopped in 2016.
		"Old": {
			{"2015-01-01", "2015-12-31", 10, "0000000001-16-000001", "10-K", "2016-02-01"},
			{"2016-01-01", "2016-12-31", 11, "0000000001-17-000001", "10-K", "2017-02-01"},
		},
		"New": {
			{"2016-01-01", "2016-12-31", 12, "0000000001-18-000001", "10-K", "2018-02-01"},
			{"2017-01-01", "2017-12-31", 13, "0000000001-18-000001", "10-K", "2018-02-01"},
			{"2020-01-01", "2020-12-31", 20, "0000000001-21-000001", "10-K", "2021-02-01"},
		},
	})
	s := resolve(t, cf, def("Old", "New"))
	for _, tt := range []struct {
		fy  int
		val float64
		tag string
	}{
		{2015, 10, "Old"}, // only the old tag has it
		{2016, 12, "New"}, // both do: the tag with the more recent coverage wins
		{2020, 20, "New"},
	} {
		got, ok := s.Annual(tt.fy)
		if !ok || got.Value != tt.val || got.Sources[0].Tag != tt.tag {
			t.Errorf("FY%d = %v, want %v from %s", tt.fy, got, tt.val, tt.tag)
		}
	}
	if got, _ := s.LatestAnnual(); got.Period.FiscalYear != 2020 {
		t.Errorf("latest = %v, want FY2020 (first-tag-with-data would give 2016)", got)
	}

	// Equal coverage: the listed order decides.
	cf = doc(t, map[string][]f{
		"A": {{"2020-01-01", "2020-12-31", 1, "0000000001-21-000001", "10-K", "2021-02-01"}},
		"B": {{"2020-01-01", "2020-12-31", 2, "0000000001-21-000001", "10-K", "2021-02-01"}},
	})
	if got, _ := resolve(t, cf, def("B", "A")).Annual(2020); got.Value != 2 {
		t.Errorf("tie: got %v, want B's value", got)
	}
}

// TestFiftyThreeWeekYears covers a filer whose year ends on the Saturday
// nearest 31 December: 2021 has 53 weeks and ends on 1 January 2022.
func TestFiftyThreeWeekYears(t *testing.T) {
	cf := doc(t, map[string][]f{"Revenues": {
		{"2020-12-27", "2022-01-01", 371, "0000000001-22-000001", "10-K", "2022-02-15"},
		{"2022-01-02", "2022-12-31", 364, "0000000001-23-000001", "10-K", "2023-02-15"},
		{"2022-01-02", "2022-10-01", 273, "0000000001-22-000009", "10-Q", "2022-11-01"},
		{"2023-01-01", "2023-12-30", 364, "0000000001-24-000001", "10-K", "2024-02-15"},
		{"2023-01-01", "2023-03-01", 59, "0000000001-23-000005", "8-K", "2023-03-15"}, // stub: ignored
	}})
	if got := cf.FiscalYearEnd; got != (FiscalYearEnd{Month: time.December, Day: 30}) {
		t.Errorf("fiscal year end = %v", got)
	}
	s := resolve(t, cf, def("Revenues"))
	for fy, want := range map[int]float64{2021: 371, 2022: 364, 2023: 364} {
		got, ok := s.Annual(fy)
		if !ok || got.Value != want || got.Period.Kind != Annual {
			t.Errorf("FY%d = %v, want %v", fy, got, want)
		}
	}
	q4, ok := s.Quarter(2022, 4)
	if !ok || q4.Value != 91 || q4.Period.Start.String() != "2022-10-02" || q4.Method != "FY - 9M YTD" {
		t.Errorf("Q4 FY2022 = %v", q4)
	}
	if n := len(s.Facts()); n != 4 {
		t.Errorf("%d facts, want 4 (the stub period is dropped)", n)
	}
}

func TestFiscalYearLabel(t *testing.T) {
	tests := []struct {
		fye      FiscalYearEnd
		end      string
		start    string
		wantFY   int
		wantFP   string
		wantKind PeriodKind
	}{
		// NVIDIA: the year ended 2026-01-25 is FY2026, whatever "fy" says.
		{FiscalYearEnd{Month: time.January, Day: 25}, "2026-01-25", "2025-01-27", 2026, "FY", Annual},
		{FiscalYearEnd{Month: time.January, Day: 25}, "2021-01-31", "2020-01-27", 2021, "FY", Annual},
		{FiscalYearEnd{Month: time.January, Day: 25}, "2025-04-27", "2025-01-27", 2026, "Q1", Quarter},
		{FiscalYearEnd{Month: time.January, Day: 25}, "2025-10-26", "2025-01-27", 2026, "9M", NineMonths},
		{FiscalYearEnd{Month: time.January, Day: 25}, "2025-07-27", "2025-01-27", 2026, "H1", HalfYear},
		{FiscalYearEnd{Month: time.January, Day: 25}, "2026-01-25", "", 2026, "FY", Instant},
		{FiscalYearEnd{Month: time.January, Day: 25}, "2025-10-26", "", 2026, "Q3", Instant},
		// Apple: year ends on the last Saturday of September.
		{FiscalYearEnd{Month: time.September, Day: 27}, "2025-09-27", "2024-09-29", 2025, "FY", Annual},
		{FiscalYearEnd{Month: time.September, Day: 27}, "2023-09-30", "2022-09-25", 2023, "FY", Annual},
		{FiscalYearEnd{Month: time.September, Day: 27}, "2025-12-27", "2025-09-28", 2026, "Q1", Quarter},
		// A year ending in the first week of January is named for the year before.
		{FiscalYearEnd{Month: time.January, Day: 3}, "2026-01-03", "2024-12-29", 2025, "FY", Annual},
		{FiscalYearEnd{Month: time.January, Day: 3}, "2024-12-28", "2023-12-31", 2024, "FY", Annual},
		{FiscalYearEnd{Month: time.December, Day: 31}, "2025-06-30", "2025-04-01", 2025, "Q2", Quarter},
		// A twelve-month period ending mid-year is not a fiscal year.
		{FiscalYearEnd{Month: time.December, Day: 31}, "2025-06-30", "2024-07-01", 2025, "", Annual},
	}
	for _, tt := range tests {
		var start Date
		if tt.start != "" {
			start = mustDate(t, tt.start)
		}
		p := tt.fye.period(start, mustDate(t, tt.end))
		if p.FiscalYear != tt.wantFY || p.FiscalPeriod != tt.wantFP || p.Kind != tt.wantKind {
			t.Errorf("%v: %s..%s = FY%d %q %v, want FY%d %q %v", tt.fye, tt.start, tt.end,
				p.FiscalYear, p.FiscalPeriod, p.Kind, tt.wantFY, tt.wantFP, tt.wantKind)
		}
	}
}

func TestMissingData(t *testing.T) {
	cf := doc(t, map[string][]f{"Revenues": {
		{"2022-01-01", "2022-12-31", 100, "0000000001-23-000001", "10-K", "2023-02-01"},
		{"2023-01-01", "2023-03-31", 30, "0000000001-23-000002", "10-Q", "2023-05-01"},
	}})
	if _, err := cf.Series(NetIncome); !errors.Is(err, ErrNoData) {
		t.Errorf("Series(NetIncome) err = %v, want ErrNoData", err)
	}
	if _, err := cf.Series("Nonsense"); err == nil || !strings.Contains(err.Error(), "unknown concept") {
		t.Errorf("unknown concept err = %v", err)
	}
	s := resolve(t, cf, def("Revenues"))
	if _, ok := s.Annual(2023); ok {
		t.Error("FY2023 should be missing")
	}
	if _, ok := s.Quarter(2022, 4); ok {
		t.Error("Q4 FY2022 needs a nine-month figure and should be missing")
	}
	if _, err := s.TTM(); !errors.Is(err, ErrNoData) {
		t.Errorf("TTM err = %v, want ErrNoData", err)
	}
}

func TestQuarterFromYearToDate(t *testing.T) {
	cf := doc(t, map[string][]f{"NetCashProvidedByUsedInOperatingActivities": {
		{"2024-01-01", "2024-03-31", 10, "0000000001-24-000001", "10-Q", "2024-05-01"},
		{"2024-01-01", "2024-06-30", 25, "0000000001-24-000002", "10-Q", "2024-08-01"},
		{"2024-01-01", "2024-09-30", 45, "0000000001-24-000003", "10-Q", "2024-11-01"},
		{"2024-01-01", "2024-12-31", 70, "0000000001-25-000001", "10-K", "2025-02-01"},
		{"2025-01-01", "2025-03-31", 12, "0000000001-25-000002", "10-Q", "2025-05-01"},
	}})
	s := mustSeries(t, cf, OperatingCashFlow)
	for q, want := range map[int]float64{1: 10, 2: 15, 3: 20, 4: 25} {
		got, ok := s.Quarter(2024, q)
		if !ok || got.Value != want {
			t.Errorf("Q%d = %v, want %v", q, got, want)
		}
	}
	ttm, err := s.TTM()
	if err != nil || ttm.Value != 15+20+25+12 || ttm.Period.Start.String() != "2024-04-01" {
		t.Errorf("TTM = %v, %v", ttm, err)
	}
}

func TestParseErrors(t *testing.T) {
	for _, tt := range []struct{ name, in, want string }{
		{"not JSON", "<html>", "decode companyfacts JSON"},
		{"not companyfacts", `{"hello": 1}`, "not a companyfacts document"},
		{"bad date", `{"cik":1,"facts":{"us-gaap":{"X":{"units":{"USD":[{"end":"2024-13-01","val":1}]}}}}}`, "not a valid YYYY-MM-DD"},
		{"bad cik", `{"cik":"abc","facts":{}}`, "cik"},
	} {
		_, err := Parse(strings.NewReader(tt.in))
		if err == nil || !strings.Contains(err.Error(), tt.want) {
			t.Errorf("%s: err = %v, want mention of %q", tt.name, err, tt.want)
		}
	}
}

func TestDateRoundTrip(t *testing.T) {
	for _, s := range []string{"0001-01-01", "1969-12-31", "1970-01-01", "2000-02-29", "2026-01-25", "2100-12-31"} {
		d := mustDate(t, s)
		if d.String() != s {
			t.Errorf("%s round-trips to %s", s, d)
		}
		tm, _ := time.Parse(time.DateOnly, s)
		if DateOf(tm) != d {
			t.Errorf("DateOf(%s) = %d, want %d", s, DateOf(tm), d)
		}
	}
	if _, err := ParseDate("2023-02-29"); err == nil {
		t.Error("2023-02-29 accepted")
	}
}
