package xbrl

import (
	"fmt"
	"math"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// synthetic parses a fixture of testdata/synthetic (see its README).
func synthetic(tb testing.TB, name string) *CompanyFacts {
	tb.Helper()
	b, err := os.ReadFile(filepath.Join("testdata", "synthetic", name))
	if err != nil {
		tb.Fatal(err)
	}
	cf, err := ParseBytes(b)
	if err != nil {
		tb.Fatalf("ParseBytes(%s): %v", name, err)
	}
	return cf
}

type want struct {
	fy, q int // q 0: the fiscal year
	val   float64
	tag   string // "" when derived
	form  string
	end   string
}

func checkSeries(t *testing.T, s *Series, wants []want) {
	t.Helper()
	for _, w := range wants {
		var f Fact
		var ok bool
		if w.q == 0 {
			f, ok = s.Annual(w.fy)
		} else {
			f, ok = s.Quarter(w.fy, w.q)
		}
		if !ok {
			t.Errorf("%s FY%d Q%d: missing", s.Def.Concept, w.fy, w.q)
			continue
		}
		if math.Abs(f.Value-w.val) > 1e-6*math.Max(1, math.Abs(w.val)) || f.Period.End.String() != w.end {
			t.Errorf("%s FY%d Q%d = %v, want %v ending %s", s.Def.Concept, w.fy, w.q, f, w.val, w.end)
		}
		if w.tag != "" && (f.Sources[0].Tag != w.tag || f.Sources[0].Form != w.form) {
			t.Errorf("%s FY%d Q%d from %s %s, want %s %s", s.Def.Concept, w.fy, w.q, f.Sources[0].Tag, f.Sources[0].Form, w.tag, w.form)
		}
	}
}

// TestBankRevenue: a bank's net revenue comes from its own tag even though
// its gross interest income, a larger and different figure, is reported in
// later filings; a bank with no revenue total has its interest income.
func TestBankRevenue(t *testing.T) {
	cf := synthetic(t, "bank_CIK0009000001.json")
	s := mustSeries(t, cf, Revenue)
	checkSeries(t, s, []want{
		{2022, 0, 10e9, "RevenuesNetOfInterestExpense", "10-K", "2022-12-31"},
		{2024, 0, 12e9, "RevenuesNetOfInterestExpense", "10-K", "2024-12-31"},
	})
	if f, ok := s.Quarter(2025, 1); ok {
		t.Errorf("Q1 FY2025 revenue = %v: gross interest income is not the bank's revenue", f)
	}
	if f, _ := s.LatestAnnual(); f.Period.FiscalYear != 2024 {
		t.Errorf("latest annual revenue %v, want FY2024", f)
	}

	small := mustSeries(t, synthetic(t, "smallbank_CIK0009000002.json"), Revenue)
	checkSeries(t, small, []want{{2024, 0, 455e6, "InterestAndDividendIncomeOperating", "10-K", "2024-12-31"}})
}

// TestRevenueTagSwitch: the years join across three tags, each period from
// the latest filing that reports it (a recast comparative, a later 10-K/A
// under the old tag, a restating 10-K/A), never from an 8-K, and a
// duplicated fact counts once.
func TestRevenueTagSwitch(t *testing.T) {
	cf := synthetic(t, "tagswitch_CIK0009000003.json")
	s := mustSeries(t, cf, Revenue)
	checkSeries(t, s, []want{
		{2014, 0, 900e6, "SalesRevenueNet", "10-K", "2014-12-31"},
		{2015, 0, 1000e6, "SalesRevenueNet", "10-K", "2015-12-31"},
		// Recast under the new tag in the 2019 10-K, later than the old tag's 2018 10-K.
		{2016, 0, 1080e6, "RevenueFromContractWithCustomerExcludingAssessedTax", "10-K", "2016-12-31"},
		// The old tag's 10-K/A of June 2019 is later than the new tag's 10-K of February 2019.
		{2017, 0, 1190e6, "SalesRevenueNet", "10-K/A", "2017-12-31"},
		{2018, 0, 1310e6, "RevenueFromContractWithCustomerExcludingAssessedTax", "10-K", "2018-12-31"},
		{2019, 0, 1395e6, "RevenueFromContractWithCustomerExcludingAssessedTax", "10-K/A", "2019-12-31"},
	})
	if n := len(s.Facts()); n != 6 {
		t.Errorf("%d figures, want one for each of 6 years", n)
	}
	if cf.FiscalYearEnd.Naming != NamedForEndYear {
		t.Errorf("naming %v, want for the end year (December years)", cf.FiscalYearEnd.Naming)
	}
}

// TestJuneFiscalYear: a year ending 30 June is named for that calendar year,
// its quarters counted from July, whatever fy the facts carry.
func TestJuneFiscalYear(t *testing.T) {
	cf := synthetic(t, "june_CIK0009000004.json")
	if cf.FiscalYearEnd.Month != time.June || cf.FiscalYearEnd.Day != 30 {
		t.Fatalf("fiscal year end %v", cf.FiscalYearEnd)
	}
	s := mustSeries(t, cf, Revenue)
	checkSeries(t, s, []want{
		{2022, 0, 180e9, "RevenueFromContractWithCustomerExcludingAssessedTax", "10-K", "2022-06-30"},
		{2024, 0, 230e9, "RevenueFromContractWithCustomerExcludingAssessedTax", "10-K", "2024-06-30"},
		{2025, 1, 62e9, "RevenueFromContractWithCustomerExcludingAssessedTax", "10-Q", "2024-09-30"},
		{2025, 2, 66e9, "RevenueFromContractWithCustomerExcludingAssessedTax", "10-Q", "2024-12-31"},
	})
	if f, ok := s.find(func(p Period) bool { return p.FiscalPeriod == "H1" }); !ok || f.Period.FiscalYear != 2025 || f.Value != 128e9 {
		t.Errorf("H1 = %v, want FY2025 128e9", f)
	}
}

// TestRetailerNamedForStartYear: a 52/53-week year to early February is
// named as the filer names it, for the year it begins in, and its 53-week
// year is a year.
func TestRetailerNamedForStartYear(t *testing.T) {
	cf := synthetic(t, "retail_CIK0009000005.json")
	if cf.FiscalYearEnd.Naming != NamedForStartYear || !cf.FiscalYearEnd.NamedForStart() {
		t.Fatalf("naming %v, want for the start year", cf.FiscalYearEnd.Naming)
	}
	s := mustSeries(t, cf, Revenue)
	checkSeries(t, s, []want{
		{2022, 0, 157.4e9, "Revenues", "10-K", "2023-01-29"},
		{2023, 0, 152.7e9, "Revenues", "10-K", "2024-02-04"}, // 53 weeks
		{2024, 0, 159.5e9, "Revenues", "10-K", "2025-02-02"},
	})
	if f, _ := s.LatestAnnual(); f.Period.Label() != "FY2024" {
		t.Errorf("latest label %s, want FY2024 (the filer's own)", f.Period.Label())
	}
}

// TestNamingVote: the naming is learned from the filer's annual reports by
// majority; a document whose fy agrees with neither naming (as the helper
// doc's deliberately wrong fy) keeps the rule.
func TestNamingVote(t *testing.T) {
	cf := doc(t, map[string][]f{"Revenues": {
		{"2024-01-29", "2025-01-26", 1, "0000000001-25-000001", "10-K", "2025-03-01"},
	}})
	if cf.FiscalYearEnd.Naming != NamedByRule {
		t.Errorf("naming %v from fy 1999, want the rule", cf.FiscalYearEnd.Naming)
	}
	if fy, _ := cf.FiscalYearEnd.Label(mustDate(t, "2025-01-26")); fy != 2025 {
		t.Errorf("by rule, the year to 2025-01-26 is FY%d, want FY2025", fy)
	}
}

// TestRestatementsAndLosses: negative values, zeros and restatements are
// figures like any other; missing concepts are ErrNoData.
func TestRestatementsAndLosses(t *testing.T) {
	cf := synthetic(t, "loss_CIK0009000006.json")
	checkSeries(t, mustSeries(t, cf, NetIncome), []want{{2024, 0, -120e6, "NetIncomeLoss", "10-K", "2024-12-31"}})
	checkSeries(t, mustSeries(t, cf, StockholdersEquity), []want{{2024, 0, -300e6, "StockholdersEquity", "10-K", "2024-12-31"}})
	checkSeries(t, mustSeries(t, cf, Revenue), []want{{2022, 0, 0, "Revenues", "10-K", "2022-12-31"}})
	if _, err := cf.Series(CurrentAssets); err == nil {
		t.Error("current assets should be missing")
	}
}

// TestUnavailable: a filer whose figures Parley cannot read says why, and
// one it can read, in whatever currency, says nothing.
func TestUnavailable(t *testing.T) {
	for _, tc := range []struct{ file, want string }{
		{"ifrs_CIK0009000007.json", ""},
		{"eur_CIK0009000008.json", ""},
		{"ifrseur_CIK0009000020.json", ""},
		{"norevbank_CIK0009000019.json", ""},
		{"nofacts_CIK0009000009.json", "no financial-statement facts"},
		{"empty_CIK0009000010.json", "no financial-statement facts"},
		{"loss_CIK0009000006.json", ""},
		{"smallbank_CIK0009000002.json", ""},
	} {
		cf := synthetic(t, tc.file)
		got := cf.Unavailable()
		if tc.want == "" && got != "" || tc.want != "" && !strings.Contains(got, tc.want) {
			t.Errorf("%s: Unavailable() = %q, want %q", tc.file, got, tc.want)
		}
		if _, err := cf.Series(Revenue); tc.want != "" && err == nil {
			t.Errorf("%s: revenue read from a document Parley cannot read", tc.file)
		}
	}
}

// TestReportingCurrency: figures are read in the currency the filer
// reports its statements in, under ifrs-full or us-gaap, and every amount
// carries it: euros are never labelled as dollars, nor a per-share figure
// in euros as one in dollars. Cover-page market values stay in the unit
// they are reported in.
func TestReportingCurrency(t *testing.T) {
	for _, tc := range []struct {
		file, currency string
		concept        Concept
		fy             int
		val            float64
		unit, tag      string
	}{
		{"ifrslitho_CIK0009000021.json", "EUR", Revenue, 2023, 27.559e9, "EUR", "Revenue"},
		{"ifrslitho_CIK0009000021.json", "EUR", NetIncome, 2024, 7.572e9, "EUR", "ProfitLossAttributableToOwnersOfParent"},
		{"ifrslitho_CIK0009000021.json", "EUR", EPSDiluted, 2023, 19.89, "EUR/shares", "DilutedEarningsLossPerShare"},
		{"ifrslitho_CIK0009000021.json", "EUR", DividendsPerShare, 2024, 6.40, "EUR/shares", "DividendsRecognisedAsDistributionsToOwnersPerShare"},
		{"ifrslitho_CIK0009000021.json", "EUR", StockholdersEquity, 2024, 17.7e9, "EUR", "EquityAttributableToOwnersOfParent"},
		{"ifrslitho_CIK0009000021.json", "EUR", OperatingCashFlow, 2022, 8.486e9, "EUR", "CashFlowsFromUsedInOperatingActivities"},
		{"ifrslitho_CIK0009000021.json", "EUR", DilutedSharesWeighted, 2024, 393e6, "shares", "AdjustedWeightedAverageShares"},
		{"ifrstwd_CIK0009000022.json", "TWD", Revenue, 2024, 2.8943e12, "TWD", "Revenue"},
		// Profit attributable to the parent's owners, not the total with
		// noncontrolling interests.
		{"ifrstwd_CIK0009000022.json", "TWD", NetIncome, 2024, 1.1733e12, "TWD", "ProfitLossAttributableToOwnersOfParent"},
		{"ifrstwd_CIK0009000022.json", "TWD", EPSBasic, 2024, 45.25, "TWD/shares", "BasicEarningsLossPerShare"},
		{"ifrstwd_CIK0009000022.json", "TWD", Cash, 2023, 1.4654e12, "TWD", "CashAndCashEquivalents"},
		{"ifrs_CIK0009000007.json", "TWD", NetIncome, 2024, 1173.3e9, "TWD", "ProfitLoss"},
		{"eur_CIK0009000008.json", "EUR", Revenue, 2024, 28.3e9, "EUR", "Revenues"},
		{"ifrsusd_CIK0009000014.json", "USD", Revenue, 2024, 2.31e9, "USD", "Revenue"},
		{"loss_CIK0009000006.json", "USD", NetIncome, 2024, -120e6, "USD", "NetIncomeLoss"},
	} {
		cf := synthetic(t, tc.file)
		if cf.Currency() != tc.currency || cf.CurrencyNote() != "" {
			t.Errorf("%s: Currency() = %q (note %q), want %s", tc.file, cf.Currency(), cf.CurrencyNote(), tc.currency)
		}
		s := mustSeries(t, cf, tc.concept)
		f, ok := s.Annual(tc.fy)
		if !ok || math.Abs(f.Value-tc.val) > 1e-6*math.Abs(tc.val) || f.Unit != tc.unit || f.Sources[0].Unit != tc.unit || f.Sources[0].Tag != tc.tag {
			t.Errorf("%s: %s FY%d = %v, want %v %s from %s", tc.file, tc.concept, tc.fy, f, tc.val, tc.unit, tc.tag)
		}
		if ok && f.Period.End.String() != fmt.Sprintf("%d-12-31", tc.fy) {
			t.Errorf("%s: %s FY%d ends %s, want the December year", tc.file, tc.concept, tc.fy, f.Period.End)
		}
	}
	// A foreign filer's half year, tagged in a 6-K, is no fiscal year and
	// no quarter.
	cf := synthetic(t, "ifrslitho_CIK0009000021.json")
	if f, ok := mustSeries(t, cf, Revenue).LatestAnnual(); !ok || f.Period.FiscalYear != 2024 || f.Sources[0].Form != "20-F" {
		t.Errorf("latest annual revenue %v, want FY2024 from the 20-F", f)
	}
	if f, ok := mustSeries(t, cf, Revenue).Quarter(2025, 2); ok {
		t.Errorf("Q2 FY2025 = %v from a half year alone", f)
	}
}

// TestSeveralCurrencies: a filer that tags a dollar convenience
// translation of its latest year beside its statements in yuan is read in
// yuan, and says that its dollar figures are left out; its yuan years are
// not mixed with the dollar one.
func TestSeveralCurrencies(t *testing.T) {
	cf := synthetic(t, "twocur_CIK0009000023.json")
	if cf.Currency() != "CNY" {
		t.Fatalf("Currency() = %q, want CNY", cf.Currency())
	}
	if note := cf.CurrencyNote(); !strings.Contains(note, "in USD as well as in CNY") || !strings.Contains(note, "leaves out those in USD") {
		t.Errorf("CurrencyNote() = %q", note)
	}
	s := mustSeries(t, cf, Revenue)
	for _, f := range s.Facts() {
		if f.Unit != "CNY" {
			t.Errorf("revenue %v not in yuan", f)
		}
	}
	checkSeries(t, s, []want{{2024, 0, 121e9, "Revenues", "20-F", "2024-12-31"}, {2022, 0, 100e9, "Revenues", "20-F", "2022-12-31"}})
}

// TestEPSBasicAndDiluted: a filer that reports one EPS for both, after
// years of separate figures, has it as its diluted and basic EPS.
func TestEPSBasicAndDiluted(t *testing.T) {
	cf, err := ParseBytes([]byte(`{"cik":1,"entityName":"ONE EPS CO","facts":{"us-gaap":{
 "EarningsPerShareBasicAndDiluted":{"label":"Earnings Per Share, Basic and Diluted","units":{"USD/shares":[
  {"start":"2024-01-01","end":"2024-12-31","val":-0.41,"accn":"0000000001-25-000001","fy":2024,"fp":"FY","form":"10-K","filed":"2025-03-01"}]}},
 "EarningsPerShareDiluted":{"label":"Earnings Per Share, Diluted","units":{"USD/shares":[
  {"start":"2023-01-01","end":"2023-12-31","val":0.10,"accn":"0000000001-24-000001","fy":2023,"fp":"FY","form":"10-K","filed":"2024-03-01"}]}}}}}`))
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range []Concept{EPSDiluted, EPSBasic} {
		s := mustSeries(t, cf, c)
		if f, ok := s.Annual(2024); !ok || f.Value != -0.41 {
			t.Errorf("%s FY2024 = %v, want -0.41", c, f)
		}
	}
	if f, ok := mustSeries(t, cf, EPSDiluted).Annual(2023); !ok || f.Value != 0.10 {
		t.Errorf("diluted EPS FY2023 = %v, want 0.10", f)
	}
}

// TestNamingAfterYearEndMoved: a filer that moved its year end from
// December to June is named by its June years' reports, not outvoted by
// its December years'.
func TestNamingAfterYearEndMoved(t *testing.T) {
	var facts []string
	for y := 2010; y <= 2021; y++ { // December years, each named for itself
		facts = append(facts, fmt.Sprintf(`{"start":"%d-01-01","end":"%d-12-31","val":1,"accn":"0000000001-%02d-000001","fy":%d,"fp":"FY","form":"10-K","filed":"%d-02-20"}`,
			y, y, (y+1)%100, y, y+1))
	}
	for y := 2023; y <= 2024; y++ { // June years, each named for the year it ends in
		facts = append(facts, fmt.Sprintf(`{"start":"%d-07-01","end":"%d-06-30","val":2,"accn":"0000000001-%02d-000002","fy":%d,"fp":"FY","form":"10-K","filed":"%d-08-20"}`,
			y-1, y, y%100, y, y))
	}
	cf, err := ParseBytes([]byte(`{"cik":1,"entityName":"MOVED CO","facts":{"us-gaap":{"Revenues":{"units":{"USD":[` + strings.Join(facts, ",") + `]}}}}}`))
	if err != nil {
		t.Fatal(err)
	}
	if cf.FiscalYearEnd.Month != time.June || cf.FiscalYearEnd.Naming != NamedForEndYear {
		t.Fatalf("fiscal year end %v naming %v, want June, for the end year", cf.FiscalYearEnd, cf.FiscalYearEnd.Naming)
	}
	if f, ok := mustSeries(t, cf, Revenue).Annual(2024); !ok || f.Period.End.String() != "2024-06-30" {
		t.Errorf("FY2024 = %v, want the year to 2024-06-30", f)
	}
}

// TestRevenueIncludingAssessedTax: revenue tagged including assessed taxes
// (excise-paying filers) is revenue.
func TestRevenueIncludingAssessedTax(t *testing.T) {
	cf := doc(t, map[string][]f{"RevenueFromContractWithCustomerIncludingAssessedTax": {
		{"2024-01-01", "2024-12-31", 55e9, "0000000001-25-000001", "10-K", "2025-02-20"},
	}})
	checkSeries(t, mustSeries(t, cf, Revenue), []want{{2024, 0, 55e9, "RevenueFromContractWithCustomerIncludingAssessedTax", "10-K", "2024-12-31"}})
}

// TestIFRSInDollars: a foreign filer reporting under IFRS in US dollars
// has its figures read from ifrs-full, as a us-gaap filer's are: revenue,
// profit attributable to the parent's owners (not the total with
// noncontrolling interests), EPS; its 20-Fs set its fiscal year.
func TestIFRSInDollars(t *testing.T) {
	cf := synthetic(t, "ifrsusd_CIK0009000014.json")
	if why := cf.Unavailable(); why != "" {
		t.Fatalf("Unavailable() = %q for an IFRS filer in US dollars", why)
	}
	checkSeries(t, mustSeries(t, cf, Revenue), []want{
		{2022, 0, 2.10e9, "Revenue", "20-F", "2022-12-31"},
		{2024, 0, 2.31e9, "Revenue", "20-F", "2024-12-31"},
	})
	checkSeries(t, mustSeries(t, cf, NetIncome), []want{{2024, 0, -0.13e9, "ProfitLossAttributableToOwnersOfParent", "20-F", "2024-12-31"}})
	checkSeries(t, mustSeries(t, cf, EPSDiluted), []want{{2024, 0, -0.33, "DilutedEarningsLossPerShare", "20-F", "2024-12-31"}})
	checkSeries(t, mustSeries(t, cf, OperatingCashFlow), []want{{2023, 0, 1.0e9, "CashFlowsFromUsedInOperatingActivities", "20-F", "2023-12-31"}})
	checkSeries(t, mustSeries(t, cf, TotalAssets), []want{{2024, 0, 8.1e9, "Assets", "20-F", "2024-12-31"}})
	if f, ok := mustSeries(t, cf, Revenue).Quarter(2024, 2); ok {
		t.Errorf("Q2 FY2024 = %v from a filer with annual reports only", f)
	}
}

// TestConvenienceTranslationTie: a filer tagging a dollar translation of
// every period it reports in rand (as many facts in each) is read in rand,
// its statements' currency, not in the translation's dollars (whatever the
// codes' order).
func TestConvenienceTranslationTie(t *testing.T) {
	fact := func(y int, v float64) string {
		return fmt.Sprintf(`{"start":"%d-01-01","end":"%d-12-31","val":%.0f,"accn":"0000000001-25-000001","fy":2024,"fp":"FY","form":"20-F","filed":"2025-04-20"}`, y, y, v)
	}
	cf, err := ParseBytes([]byte(`{"cik":1,"entityName":"TIE CO","facts":{"us-gaap":{"Revenues":{"units":{` +
		`"USD":[` + fact(2023, 15e9) + `,` + fact(2024, 16.6e9) + `],"ZAR":[` + fact(2023, 270e9) + `,` + fact(2024, 298e9) + `]}}}}}`))
	if err != nil {
		t.Fatal(err)
	}
	if cf.Currency() != "ZAR" || !strings.Contains(cf.CurrencyNote(), "leaves out those in USD") {
		t.Errorf("Currency() = %q, note %q; want ZAR, the dollars left out", cf.Currency(), cf.CurrencyNote())
	}
}
