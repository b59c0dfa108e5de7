package factcheck

import (
	"strings"
	"testing"
)

// lossTable is a synthetic company in the table's own terms: a September
// fiscal year, a loss in the latest year (negative net income, operating
// income and EPS), a profit the year before, and falling operating income.
// Prose forms are tested against it without any one filer's figures.
func lossTable() *Table {
	return &Table{Company: "LOSS", Name: "LOSS MAKER INC", LatestFY: 2024, FYEndMonth: 9, Facts: []Fact{
		{Metric: Revenue, Period: Period{FY: 2024}, Value: 391035e6, Source: "10-K a"},
		{Metric: Revenue, Period: Period{FY: 2023}, Value: 383285e6, Source: "10-K b"},
		{Metric: Revenue, Period: Period{FY: 2024, Q: 4}, Value: 95.0e9, Source: "10-K a"},
		{Metric: Revenue, Period: Period{FY: 2025, Q: 1}, Value: 100.1e9, Source: "10-Q c"},
		{Metric: NetIncome, Period: Period{FY: 2024}, Value: -1.2e9, Source: "10-K a"},
		{Metric: NetIncome, Period: Period{FY: 2023}, Value: 0.5e9, Source: "10-K b"},
		{Metric: OperatingIncome, Period: Period{FY: 2024}, Value: -0.8e9, Source: "10-K a"},
		{Metric: EPSDiluted, Period: Period{FY: 2024}, Value: -0.52, Source: "10-K a"},
		{Metric: EPSDiluted, Period: Period{FY: 2023}, Value: 6.11, Source: "10-K b"},
		{Metric: Growth(Revenue), Period: Period{FY: 2024}, Value: 2.0, Source: "10-K a; 10-K b"},
		{Metric: Growth(OperatingIncome), Period: Period{FY: 2024}, Value: -12.0, Source: "10-K a; 10-K b"},
		{Metric: GrossMargin, Period: Period{FY: 2024}, Value: 46.2, Source: "10-K a"},
		{Metric: NetMargin, Period: Period{FY: 2024}, Value: -0.3, Source: "10-K a"},
		{Metric: CurrentRatio, Period: Period{FY: 2024}, Value: 1.2, Source: "10-K a"},
		{Metric: GrossMarginChange, Period: Period{FY: 2024}, Value: -0.5, Source: "10-K a; 10-K b"},
	}}
}

// TestWrittenForms: every way a model writes a figure is read as the
// figure it states. A right figure (within the precision it is written
// to) is verified, a wrong one corrected, and one the check cannot hold to
// the filings (another currency, a market multiple) is said to be
// unverified or market data, never passed as verified.
func TestWrittenForms(t *testing.T) {
	tb := lossTable()
	for _, tc := range []struct {
		text   string
		status Status
		metric Metric
		figure string // the figure as the finding quotes it
		reason string // part of the reason, when it matters
	}{
		// Scales and precision.
		{"Revenue was $391.0B in FY2024.", Verified, Revenue, "$391.0B", ""},
		{"Revenue was $391 billion in fiscal 2024.", Verified, Revenue, "$391 billion", ""},
		{"Revenue was 391,035 million in FY24.", Verified, Revenue, "391,035 million", ""},
		{"Revenue was 0.39 trillion in 2024.", Verified, Revenue, "0.39 trillion", ""},
		{"Revenue was $395B in FY2024.", Corrected, Revenue, "$395B", "does not match"},
		{"Revenue was $391 million in FY2024.", Corrected, Revenue, "$391 million", "scale"},
		// Another currency is never compared with dollars.
		{"Revenue was €391 billion in 2024.", Unverified, Revenue, "€391 billion", "EUR"},
		{"Revenue was €391B in 2024.", Unverified, Revenue, "€391B", "EUR"},
		{"Revenue was EUR 391 billion in 2024.", Unverified, Revenue, "EUR 391 billion", "EUR"},
		{"Revenue was NT$391 billion in 2024.", Unverified, Revenue, "NT$391 billion", "TWD"},
		{"Revenue was 391 billion euros in 2024.", Unverified, Revenue, "391 billion euros", "EUR"},
		// Negative changes in every form, and the wrong direction.
		{"Operating income fell 12% in FY2024.", Verified, Growth(OperatingIncome), "12%", ""},
		{"Operating income growth was -12% in FY2024.", Verified, Growth(OperatingIncome), "-12%", ""},
		{"Operating income growth was (12%) in FY2024.", Verified, Growth(OperatingIncome), "(12%)", ""},
		{"Operating income was down 12% in FY2024.", Verified, Growth(OperatingIncome), "12%", ""},
		{"Operating income grew 12% in FY2024.", Corrected, Growth(OperatingIncome), "12%", "fell"},
		{"Operating income growth was (15%) in FY2024.", Corrected, Growth(OperatingIncome), "(15%)", ""},
		// A parenthetical aside is not a negative.
		{"Gross margin (46.2%) held in FY2024.", Verified, GrossMargin, "46.2%", ""},
		{"Net margin was (0.3%) in FY2024.", Verified, NetMargin, "(0.3%)", ""},
		{"Net margin was 0.3% in FY2024.", Corrected, NetMargin, "0.3%", ""},
		// An accountant's negative without a currency sign: it was not
		// read at all, right or wrong.
		{"Net income was (1.2) billion in FY2024.", Verified, NetIncome, "(1.2) billion", ""},
		{"Net income came in at (1,200) million dollars in FY2024.", Verified, NetIncome, "(1,200) million", ""},
		{"Net income was (2.2) billion in FY2024.", Corrected, NetIncome, "(2.2) billion", ""},
		{"Net income was (0.5) billion in FY2023.", Corrected, NetIncome, "(0.5) billion", "sign"},
		{"Revenue (391 billion) rose in FY2024.", Verified, Revenue, "391 billion", ""},
		// Ranges hold the filing's figure between their ends.
		{"Revenue was $390-395B in FY2024.", Verified, Revenue, "$390-395B", ""},
		{"Revenue was $390–395 billion in FY2024.", Verified, Revenue, "$390–395 billion", ""},
		{"Revenue was between $390 billion and $395 billion in FY2024.", Verified, Revenue, "between $390 billion and $395 billion", ""},
		{"Revenue was $90-95B in FY2024.", Corrected, Revenue, "$90-95B", ""},
		{"Revenue of $380B-$385B in FY2024.", Corrected, Revenue, "$380B-$385B", "wrong period"},
		{"Revenue growth of 1-3% in FY2024.", Verified, Growth(Revenue), "1-3%", ""},
		{"Revenue was between $100 billion and $900 billion in FY2024.", Unverified, Revenue, "between $100 billion and $900 billion", "too wide"},
		{"Revenue growth of 0-10% in FY2024.", Unverified, Growth(Revenue), "0-10%", "too wide"},
		{"Revenue growth of 5% to 8% in FY2024.", Corrected, Growth(Revenue), "5% to 8%", ""},
		// Per-share figures, losses and signs.
		{"Diluted EPS was $6.11 in FY2023.", Verified, EPSDiluted, "$6.11", ""},
		{"Diluted EPS was $6.50 in FY2023.", Corrected, EPSDiluted, "$6.50", ""},
		{"Diluted EPS was $6.11/share in FY2023.", Verified, EPSDiluted, "$6.11", ""},
		{"Diluted EPS was $1,611 per Class A share in FY2023.", Corrected, EPSDiluted, "$1,611", ""},
		{"The company posted a net loss of $1.2 billion in FY2024.", Verified, NetIncome, "$1.2 billion", ""},
		{"Net income was -$1.2 billion in FY2024.", Verified, NetIncome, "-$1.2 billion", ""},
		{"Net income was $(1.2) billion in FY2024.", Verified, NetIncome, "$(1.2) billion", ""},
		{"Net income was ($1.2B) in FY2024.", Verified, NetIncome, "($1.2B)", ""},
		{"Net income was $1.2 billion in FY2024.", Corrected, NetIncome, "$1.2 billion", "sign"},
		{"Net loss was $2.5 billion in FY2024.", Corrected, NetIncome, "$2.5 billion", ""},
		{"Net loss was $0.5 billion in FY2023.", Corrected, NetIncome, "$0.5 billion", "sign"},
		{"Operating loss of $0.8 billion in FY2024.", Verified, OperatingIncome, "$0.8 billion", ""},
		{"Loss per share was $0.52 in FY2024.", Verified, EPSDiluted, "$0.52", ""},
		{"EPS was -$0.52 in FY2024.", Verified, EPSDiluted, "-$0.52", ""},
		{"EPS was $(0.52) in FY2024.", Verified, EPSDiluted, "$(0.52)", ""},
		// The parenthesis around the sign: the same negative. Its closing
		// one was taken for the figure's and the opening one missed, and
		// a right loss a share was corrected as of the wrong sign.
		{"EPS was ($0.52) in FY2024.", Verified, EPSDiluted, "($0.52)", ""},
		{"EPS was ($0.62) in FY2024.", Corrected, EPSDiluted, "($0.62)", ""},
		{"EPS fell in FY2024 (to $6.11).", Corrected, EPSDiluted, "$6.11", ""},
		{"EPS was $0.52 in FY2024.", Corrected, EPSDiluted, "$0.52", "sign"},
		// A change in a loss needs a loss in both years: FY2023 was a profit.
		{"The net loss narrowed 20% in FY2024.", Corrected, NetIncome, "20%", "not a loss in FY2023"},
		{"The net loss widened by $1.7 billion in FY2024.", Corrected, NetIncome, "$1.7 billion", "not a loss in FY2023"},
		{"The company swung to a net loss of $1.2 billion in FY2024.", Verified, NetIncome, "$1.2 billion", ""},
		{"The net loss narrowed to $1.2 billion in FY2024.", Corrected, NetIncome, "$1.2 billion", "not a loss in FY2023"},
		// Ratios, multiples and basis points.
		{"The current ratio was 1.2x in FY2024.", Verified, CurrentRatio, "1.2x", ""},
		{"The current ratio was 1.5x in FY2024.", Corrected, CurrentRatio, "1.5x", ""},
		{"The current ratio was 1.2 times in FY2024.", Verified, CurrentRatio, "1.2 times", ""},
		{"The current ratio was 1.5 times in FY2024.", Corrected, CurrentRatio, "1.5 times", ""},
		{"The current ratio was 1.2 in FY2024.", Verified, CurrentRatio, "1.2", ""},
		{"The current ratio stood at 1.5 in FY2024.", Corrected, CurrentRatio, "1.5", ""},
		// The company made a loss: no P/E is meaningful (TestPEOnALoss).
		{"A P/E of 30 is rich.", Corrected, NetIncome, "30", "not meaningful"},
		{"The stock trades at 30 times earnings.", Corrected, NetIncome, "30 times earnings", "not meaningful"},
		{"The stock trades at 2.5 times sales.", MarketData, "", "2.5 times sales", ""},
		{"Gross margin fell 50 basis points in FY2024.", Verified, GrossMarginChange, "50 basis points", ""},
		{"Gross margin fell 150 bps in FY2024.", Corrected, GrossMarginChange, "150 bps", ""},
		// Fiscal-year labels.
		// A calendar year is not a September fiscal year.
		{"Revenue grew 2% in calendar 2024.", Unverified, Growth(Revenue), "2%", "end in September"},
		{"Revenue grew 2% in CY2024.", Unverified, Growth(Revenue), "2%", "end in September"},
		{"Revenue was $391.0 billion in fiscal '24.", Verified, Revenue, "$391.0 billion", ""},
		// Quarters named by month, and periods the table does not hold.
		{"Revenue was $100.1 billion in the December quarter of 2024.", Verified, Revenue, "$100.1 billion", ""},
		{"Revenue was $100.1 billion in the quarter ended December 28, 2024.", Verified, Revenue, "$100.1 billion", ""},
		{"Revenue was $100.1 billion in the December quarter of fiscal 2025.", Verified, Revenue, "$100.1 billion", ""},
		{"Revenue was $90.0 billion in the December quarter of 2024.", Corrected, Revenue, "$90.0 billion", ""},
		{"December-quarter revenue was $100.1 billion in 2024.", Verified, Revenue, "$100.1 billion", ""},
		{"Revenue was $190.0 billion in the first half of fiscal 2024.", Unverified, Revenue, "$190.0 billion", "could not place"},
		{"Revenue for the nine months was $290.0 billion.", Unverified, Revenue, "$290.0 billion", "could not place"},
		{"Quarterly revenue hit $100.1 billion.", Unverified, Revenue, "$100.1 billion", "could not place"},
		{"Fourth-quarter revenue was $95.0 billion in fiscal 2024.", Verified, Revenue, "$95.0 billion", ""},
		{"Revenue was $383.3 billion in fiscal 2023.", Verified, Revenue, "$383.3 billion", ""},
		{"Revenue was $383.3 billion in FY24.", Corrected, Revenue, "$383.3 billion", "wrong period"},
		// Figures the filings cannot settle.
		{"Revenue was $391.0B in FY2019.", Unverified, Revenue, "$391.0B", "no revenue for FY2019"},
	} {
		fs := tb.Check(tc.text)
		if len(fs) != 1 {
			t.Errorf("%q → %d findings (%s), want 1", tc.text, len(fs), describe(fs))
			continue
		}
		f := fs[0]
		if f.Status != tc.status || f.Metric != tc.metric && tc.metric != "" || f.Text != tc.figure || !strings.Contains(f.Reason, tc.reason) {
			t.Errorf("%q → %s %s %q (%s); want %s %s %q (%s)", tc.text, f.Status, f.Metric, f.Text, f.Reason, tc.status, tc.metric, tc.figure, tc.reason)
		}
	}
}

// TestTwoFiguresNotARange: "from X to Y" and a change then a level are two
// figures, each checked.
func TestTwoFiguresNotARange(t *testing.T) {
	tb := lossTable()
	for _, tc := range []struct {
		text string
		want []Status
	}{
		{"Revenue rose from $383.3 billion in fiscal 2023 to $391.0 billion in fiscal 2024.", []Status{Verified, Verified}},
		{"Revenue rose to $391.0 billion from $383.3 billion.", []Status{Verified, Verified}},
		{"Gross margin rose 0.5% to 46.2% in FY2024.", []Status{Corrected, Verified}},
		{"Revenue of $391.0 billion and $383.3 billion in FY2024.", []Status{Verified, Corrected}},
		// A quarter written apart from its year takes the sentence's year.
		{"Revenue was $391.0 billion in fiscal 2024, with fourth-quarter revenue of $95.0 billion.", []Status{Verified, Verified}},
		{"Revenue was $391.0 billion in fiscal 2024, with fourth-quarter revenue of $91.0 billion.", []Status{Verified, Corrected}},
		{"In fiscal 2024 fourth-quarter revenue was $95.0 billion.", []Status{Verified}},
	} {
		got := statusesOf(tb.Check(tc.text))
		if !equalStatuses(got, tc.want) {
			t.Errorf("%q → %v, want %v (%s)", tc.text, got, tc.want, describe(tb.Check(tc.text)))
		}
	}
}

// TestClaimSigns: a structured claim of a negative amount is held to the
// negative figure.
func TestClaimSigns(t *testing.T) {
	tb := lossTable()
	for _, tc := range []struct {
		c    Claim
		want Status
	}{
		{Claim{Metric: "net_income", Period: "FY2024", Value: "-1.2", Scale: "billion"}, Verified},
		{Claim{Metric: "net_income", Period: "FY2024", Value: "1.2", Scale: "billion"}, Corrected},
		{Claim{Metric: "eps_diluted", Period: "FY2024", Value: "-0.52"}, Verified},
		{Claim{Metric: "net_margin", Period: "FY2024", Value: "-0.3", Unit: "percent"}, Verified},
		{Claim{Metric: "net_margin", Period: "FY2024", Value: "0.3", Unit: "percent"}, Corrected},
	} {
		if f := tb.CheckClaim(tc.c); f.Status != tc.want {
			t.Errorf("%+v → %s (%s), want %s", tc.c, f.Status, f.Reason, tc.want)
		}
	}
}

// TestDisplayNegativePerShare: a loss per share reads "-$0.52".
func TestDisplayNegativePerShare(t *testing.T) {
	if got := Display(EPSDiluted, -0.52); got != "-$0.52" {
		t.Errorf("Display = %q", got)
	}
}

// TestPEOnALoss: a trailing P/E stated for a company that made a loss is
// corrected, whatever the multiple; a forward P/E, or a P/E of a profitable
// company, is market data.
func TestPEOnALoss(t *testing.T) {
	loss := lossTable()
	profit := lossTable()
	for i, f := range profit.Facts {
		if f.Metric == NetIncome {
			profit.Facts[i].Value = -f.Value
		}
	}
	for _, tc := range []struct {
		tb   *Table
		text string
		want Status
	}{
		{loss, "The stock trades at a P/E of 30.", Corrected},
		{loss, "Shares trade at 30x trailing earnings.", Corrected},
		{loss, "The forward P/E of 30 assumes a recovery.", MarketData},
		{profit, "The stock trades at a P/E of 30.", MarketData},
	} {
		fs := tc.tb.Check(tc.text)
		if len(fs) != 1 || fs[0].Status != tc.want {
			t.Errorf("%q → %s, want %s", tc.text, describe(fs), tc.want)
			continue
		}
		if tc.want == Corrected && (fs[0].Actual == nil || fs[0].Actual.Value >= 0 || fs[0].Per() == "") {
			t.Errorf("%q: correction without the loss: %+v", tc.text, fs[0])
		}
	}
	if fs := loss.Check("Operating margin fell 1,200 basis points in FY2024."); len(fs) != 1 || fs[0].Text != "1,200 basis points" {
		t.Errorf("1,200 basis points read as %s", describe(fs))
	}
}
