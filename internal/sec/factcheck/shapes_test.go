package factcheck

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestOtherShapes: figures of filers and phrasings unlike the shipped
// ones, each case named by the cause it pins: a right figure verified, a
// wrong one corrected, and a figure the filings cannot settle unverified,
// never held to a metric it does not measure.
func TestOtherShapes(t *testing.T) {
	for _, tc := range []struct {
		cause, file, text string
		want              []Status
		reason            string // part of the first finding's reason
	}{
		// An amount is right rounded to its last digit, not one unit off
		// (net income was exactly $5.3 billion, diluted EPS $17.62).
		{"amount to its last digit", "insurer_CIK0009000011.json", "Net income was $5.2 billion in 2024.", []Status{Corrected}, ""},
		{"amount to its last digit", "insurer_CIK0009000011.json", "Net income was $5.4 billion in 2024.", []Status{Corrected}, ""},
		{"amount to its last digit", "insurer_CIK0009000011.json", "Net income was $6 billion in 2024.", []Status{Corrected}, ""},
		{"amount to its last digit", "insurer_CIK0009000011.json", "Net income was $5 billion in 2024.", []Status{Verified}, ""},
		{"amount to its last digit", "insurer_CIK0009000011.json", "Net income was $5.30 billion in 2024.", []Status{Verified}, ""},
		{"amount to its last digit", "insurer_CIK0009000011.json", "Diluted EPS was $17.61 in 2024.", []Status{Corrected}, ""},
		{"amount to its last digit", "insurer_CIK0009000011.json", "Diluted EPS was $17.6 in 2024.", []Status{Verified}, ""},
		// A sign written as a word.
		{"sign word", "tiny_CIK0009000013.json", "Operating cash flow was negative $10.9 million in 2024.", []Status{Verified}, ""},
		{"sign word", "tiny_CIK0009000013.json", "Operating cash flow was minus $10.9 million in 2024.", []Status{Verified}, ""},
		{"sign word", "tiny_CIK0009000013.json", "Operating cash flow was negative $12.9 million in 2024.", []Status{Corrected}, ""},
		{"sign word", "tiny_CIK0009000013.json", "The company reported negative operating cash flow of $10.9 million in 2024.", []Status{Verified}, ""},
		{"sign word", "tiny_CIK0009000013.json", "Net margin was negative 1025% in 2024.", []Status{Verified}, ""},
		{"sign word", "tiny_CIK0009000013.json", "Net margin was 1025% in 2024.", []Status{Corrected}, ""},
		// Adjusted (non-GAAP) figures are not the filings' GAAP figures.
		{"non-GAAP", "insurer_CIK0009000011.json", "Adjusted diluted EPS was $18.10 in 2024.", []Status{Unverified}, "non-GAAP"},
		{"non-GAAP", "insurer_CIK0009000011.json", "Diluted EPS (non-GAAP) was $18.10 in 2024.", []Status{Unverified}, "non-GAAP"},
		{"non-GAAP", "insurer_CIK0009000011.json", "Diluted EPS was $18.10 in 2024 on an adjusted basis.", []Status{Unverified}, "non-GAAP"},
		{"non-GAAP", "insurer_CIK0009000011.json", "Diluted EPS was $17.62 in 2024, while adjusted EPS was $18.10.", []Status{Verified, Unverified}, ""},
		{"non-GAAP", "insurer_CIK0009000011.json", "Diluted EPS was $17.26 in 2024, while adjusted EPS was $18.10.", []Status{Corrected, Unverified}, ""},
		// Measures the check does not hold are not the nearest metric's.
		{"other measure", "insurer_CIK0009000011.json", "Net premiums earned were $48.5 billion in 2024.", []Status{Unverified}, "Net premiums earned"},
		{"other measure", "insurer_CIK0009000011.json", "Net income was $5.3 billion in 2024 on net premiums earned of $48.5 billion.", []Status{Verified, Unverified}, ""},
		{"other measure", "insurer_CIK0009000011.json", "Net income was $6.3 billion in 2024 on net premiums earned of $48.5 billion.", []Status{Corrected, Unverified}, ""},
		{"other measure", "insurer_CIK0009000011.json", "Book value per share rose to $150.50 in 2024 while diluted EPS was $17.62.", []Status{Unverified, Verified}, ""},
		{"other measure", "reit_CIK0009000012.json", "Adjusted EBITDA of $2.9 billion on revenue of $4.1 billion in 2024.", []Status{Unverified, Verified}, "EBITDA"},
		{"other measure", "reit_CIK0009000012.json", "Adjusted EBITDA of $2.9 billion on revenue of $4.6 billion in 2024.", []Status{Unverified, Corrected}, ""},
		{"other measure", "reit_CIK0009000012.json", "Net operating income was $3.0 billion in 2024.", []Status{Unverified}, "Net operating income"},
		{"other measure", "reit_CIK0009000012.json", "Occupancy was 98.6% at year-end 2024 while revenue rose 5.1%.", []Status{Unverified, Verified}, "Occupancy"},
		{"other measure", "reit_CIK0009000012.json", "Diluted EPS was $0.98 and the dividend was $2.40 per share in 2024.", []Status{Verified, Unverified}, ""},
		// A quarter and its year in one token.
		{"quarter token", "insurer_CIK0009000011.json", "3Q25 net income was $1.1 billion.", []Status{Verified}, ""},
		{"quarter token", "insurer_CIK0009000011.json", "3Q24 net income was $1.4 billion.", []Status{Verified}, ""},
		{"quarter token", "insurer_CIK0009000011.json", "3Q24 net income was $1.1 billion.", []Status{Corrected}, "wrong period"},
		{"quarter token", "insurer_CIK0009000011.json", "Net income in Q3'24 was $1.4 billion.", []Status{Verified}, ""},
		{"quarter token", "insurer_CIK0009000011.json", "Net income in 2Q 2025 was $1.5 billion.", []Status{Verified}, ""},
		// A foreign filer under IFRS in US dollars, annual reports only.
		{"IFRS in dollars", "ifrsusd_CIK0009000014.json", "Revenue was $2.31 billion in 2024, down 5.7% from 2023.", []Status{Verified, Verified}, ""},
		{"IFRS in dollars", "ifrsusd_CIK0009000014.json", "Revenue was $2.45 billion in 2024.", []Status{Corrected}, "wrong period"},
		{"IFRS in dollars", "ifrsusd_CIK0009000014.json", "The net loss attributable to shareholders was $130 million in 2024.", []Status{Verified}, ""},
		{"IFRS in dollars", "ifrsusd_CIK0009000014.json", "Diluted EPS was $1.27 in 2023 and -$0.33 in 2024.", []Status{Verified, Verified}, ""},
		{"IFRS in dollars", "ifrsusd_CIK0009000014.json", "TTM revenue was $2.3 billion.", []Status{Unverified}, "TTM"},
		// A year to the Saturday nearest 31 December that ended on 3 January
		// 2026: its fiscal 2025, whose fourth quarter is "the December quarter".
		{"year ending in January's first week", "restaurant_CIK0009000015.json", "Revenue in the December quarter of 2025 was $3.0 billion.", []Status{Verified}, ""},
		{"year ending in January's first week", "restaurant_CIK0009000015.json", "Revenue in the quarter ended January 3, 2026 was $3.0 billion.", []Status{Verified}, ""},
		{"year ending in January's first week", "restaurant_CIK0009000015.json", "Revenue in the December quarter of 2025 was $2.75 billion.", []Status{Corrected}, "wrong period"},
		{"year ending in January's first week", "restaurant_CIK0009000015.json", "Revenue in the September quarter of 2025 was $2.75 billion.", []Status{Verified}, ""},
		{"year ending in January's first week", "restaurant_CIK0009000015.json", "Revenue was $11.0 billion in 2025, and $2.9 billion in Q1 2026.", []Status{Verified, Verified}, ""},
		// "9m" of "$1.9M" is not nine months (a period inside the figure
		// crashed the reader); "the nine months ended September 30, 2024"
		// is not fiscal 2024.
		{"figure read as a period", "tiny_CIK0009000013.json", "Revenue was $1.9M in FY2024.", []Status{Corrected}, ""},
		{"figure read as a period", "tiny_CIK0009000013.json", "Revenue was $1.2M in FY2024, with 9m of runway.", []Status{Verified}, ""},
		{"year to date", "insurer_CIK0009000011.json", "Revenue for the nine months ended September 30, 2024 was $49.0 billion.", []Status{Unverified}, "could not place"},
		{"bound", "insurer_CIK0009000011.json", "Revenue of more than $80 billion in 2024.", []Status{Corrected}, "does not match"},
		// Per-share amounts in cents, losses stated by a verb.
		{"cents", "tiny_CIK0009000013.json", "The net loss per share narrowed to 27 cents in 2024.", []Status{Verified}, ""},
		{"cents", "tiny_CIK0009000013.json", "EPS was -27 cents in 2024.", []Status{Verified}, ""},
		{"cents", "tiny_CIK0009000013.json", "The net loss per share was 17 cents in 2024.", []Status{Corrected}, ""},
		{"lost", "tiny_CIK0009000013.json", "The company lost 27 cents a share in 2024.", []Status{Verified}, ""},
		{"lost", "tiny_CIK0009000013.json", "The company lost $12.3 million in 2024.", []Status{Verified}, ""},
		{"lost", "tiny_CIK0009000013.json", "The company lost $22.3 million in 2024.", []Status{Corrected}, ""},
		{"lost", "reit_CIK0009000012.json", "Revenue lost momentum, rising only 5.1% in 2024.", []Status{Verified}, ""},
		// A bank's revenue named with its qualifier.
		{"bank revenue", "bank_CIK0009000001.json", "Total revenue, net of interest expense, was $12.0 billion in 2024.", []Status{Verified}, ""},
		{"bank revenue", "bank_CIK0009000001.json", "Total revenue, net of interest expense, was $13.0 billion in 2024.", []Status{Corrected}, ""},
		// A part of revenue stated "as a percentage of revenue"; a part
		// named before its own verb or margin.
		{"as a percentage of revenue", "insurer_CIK0009000011.json", "Net income as a percentage of revenue was 8.0% in 2024.", []Status{Verified}, ""},
		{"as a percentage of revenue", "insurer_CIK0009000011.json", "Net income as a share of revenue was 10.0% in 2024.", []Status{Corrected}, ""},
		{"as a percentage of revenue", "insurer_CIK0009000011.json", "Capex as a percent of sales was 2.8% in 2024.", []Status{Unverified}, "share"},
		{"part before its verb", "insurer_CIK0009000011.json", "Revenue rose 10% in 2024, with Life up 14%.", []Status{Verified, Unverified}, ""},
		{"part before its verb", "insurer_CIK0009000011.json", "Revenue rose 10% in 2024, while net income grew 29%.", []Status{Verified, Verified}, ""},
		{"part before its margin", "insurer_CIK0009000011.json", "Life net margin was 12.5% in 2024.", []Status{Unverified}, ""},
		{"not a part", "insurer_CIK0009000011.json", "10% YoY revenue growth in 2024 beat peers.", []Status{Verified}, ""},
		{"relative period of another figure", "insurer_CIK0009000011.json", "Diluted EPS came in at $17.62, compared to $13.45 a year ago.", []Status{Verified, Verified}, ""},
		{"other measure", "insurer_CIK0009000011.json", "Free cash flow conversion was 80% in 2024.", []Status{Unverified}, ""},
		// A count of shares written without "shares" after it.
		{"share count", "tiny_CIK0009000013.json", "Shares outstanding rose to 46 million in 2024.", []Status{Verified}, ""},
		{"share count", "tiny_CIK0009000013.json", "The diluted share count was 41 million in 2024.", []Status{Unverified}, ""},
		{"share count", "tiny_CIK0009000013.json", "Weighted average shares outstanding were 41 million in 2024.", []Status{Unverified}, ""},
		{"share count", "tiny_CIK0009000013.json", "Shares outstanding rose to 56 million in 2024.", []Status{Corrected}, ""},
	} {
		fs := syntheticTable(t, tc.file).Check(tc.text)
		got := statusesOf(fs)
		if !equalStatuses(got, tc.want) || tc.reason != "" && !strings.Contains(fs[0].Reason, tc.reason) {
			t.Errorf("%s: %s %q → %s; want %v (%s)", tc.cause, tc.file, tc.text, describe(fs), tc.want, tc.reason)
		}
	}
}

// TestDisplaySmallAmounts: a small filer's figures read as written in the
// filings' own scale, never "$0M".
func TestDisplaySmallAmounts(t *testing.T) {
	for v, want := range map[float64]string{452300: "$452,300", -12345000: "-$12.3M", 974e6: "$974M", 1.2e12: "$1.200T", 999: "$999"} {
		if got := Display(Revenue, v); got != want {
			t.Errorf("Display(%v) = %q, want %q", v, got, want)
		}
	}
	tb := syntheticTable(t, "tiny_CIK0009000013.json")
	fs := tb.Check("Revenue was $552 thousand in 2023.")
	if len(fs) != 1 || fs[0].Status != Corrected || !strings.Contains(fs[0].Per(), "$452,300") {
		t.Errorf("correction of a small figure: %s / %q", describe(fs), fs[0].Per())
	}
}

// TestChangesAndBases: a change is held to the change it states (from the
// quarter before, in a margin's points or percent), and a figure stated as
// the base of a change to the period it is the base of.
func TestChangesAndBases(t *testing.T) {
	tb := syntheticTable(t, "insurer_CIK0009000011.json")
	for _, tc := range []struct {
		cause, text string
		want        []Status
		reason      string // part of the last finding's reason
	}{
		// Revenue Q3 2025 $18.0B, Q2 2025 $17.5B (+2.9%), Q3 2024 $16.6B (+8.4%).
		{"sequential", "Q3 2025 revenue rose 2.9% sequentially.", []Status{Verified}, ""},
		{"sequential", "Revenue grew 2.9% quarter-over-quarter in Q3 2025.", []Status{Verified}, ""},
		{"sequential", "Revenue grew 2.9% q/q in Q3 2025.", []Status{Verified}, ""},
		{"sequential", "Q3 2025 revenue rose 8.4% sequentially.", []Status{Corrected}, "from a year earlier"},
		{"sequential", "Q3 2025 revenue rose 8.4% year over year.", []Status{Verified}, ""},
		{"sequential", "Net income fell 26.7% quarter over quarter in Q3 2025.", []Status{Verified}, ""},
		{"sequential", "Net income rose 26.7% sequentially in Q3 2025.", []Status{Corrected}, "fell"},
		{"sequential", "Revenue of $18.0 billion in Q3 2025 was up 2.9% from $17.5 billion in the prior quarter.", []Status{Verified, Verified, Verified}, ""},
		{"sequential", "Revenue of $18.0 billion in Q3 2025 was up 2.9% from $16.5 billion in the prior quarter.", []Status{Verified, Verified, Corrected}, ""},
		// Net margin 8.0% in 2024 against 6.8% in 2023: +1.2 points, +17.6%.
		{"margin change in percent", "Net margin expanded 1.2% in 2024.", []Status{Verified}, ""},
		{"margin change in percent", "Net margin expanded 17.5% in 2024.", []Status{Verified}, ""},
		{"margin change in percent", "Net margin expanded 3% in 2024.", []Status{Corrected}, ""},
		{"margin change in percent", "Net margin contracted 1.2% in 2024.", []Status{Corrected}, "rose"},
		// A quarter's margin change, which the analysis does not state: Q3
		// 2025's 6.1% against Q3 2024's 8.4%.
		{"margin change of a quarter", "Net margin fell 2.3 points year over year in Q3 2025.", []Status{Verified}, ""},
		{"margin change of a quarter", "Net margin fell 1.3 points year over year in Q3 2025.", []Status{Corrected}, ""},
		{"bare percentage", "Net margin was 8.0 in 2024.", []Status{Verified}, ""},
		{"bare percentage", "Net margin was 9.0 in 2024.", []Status{Corrected}, ""},
		// The base of a change, with no period of its own.
		{"base of a change", "Revenue was $66.0 billion, up 10% from $60.0 billion.", []Status{Verified, Verified, Verified}, ""},
		{"base of a change", "Revenue was $66.0 billion, up 10% from $55.0 billion.", []Status{Verified, Verified, Corrected}, "wrong period"},
		{"base of a change", "Net income growth slowed from 46% to 29%.", []Status{Verified, Verified}, ""},
		{"base of a change", "Net income growth slowed from 35% to 29%.", []Status{Corrected, Verified}, ""},
		{"base of a change", "Revenue rose from $60.0 billion to $66.0 billion in 2024.", []Status{Verified, Verified}, ""},
		{"base of a change", "Revenue rose from $55.0 billion to $66.0 billion in 2024.", []Status{Corrected, Verified}, ""},
		// A relative period counts back from the period the sentence states.
		{"relative period", "Net income was $4.1 billion in 2023, up from $2.8 billion the prior year.", []Status{Verified, Verified}, ""},
		{"relative period", "Net income was $4.1 billion in 2023, up from $3.5 billion the prior year.", []Status{Verified, Corrected}, ""},
		{"relative period", "Q3 2025 net income was $1.1 billion, down from $1.4 billion a year earlier.", []Status{Verified, Verified}, ""},
		{"relative period", "Q3 2025 revenue rose 8.4% to $18.0 billion from $16.6 billion a year earlier.", []Status{Verified, Verified, Verified}, ""},
		// An amount of change is held to the difference from a year earlier.
		{"amount of change", "Revenue grew by $6.0 billion to $66.0 billion in 2024.", []Status{Verified, Verified}, ""},
		{"amount of change", "Revenue increased $6.0 billion, or 10%, to $66.0 billion in 2024.", []Status{Verified, Verified, Verified}, ""},
		{"amount of change", "Revenue grew by $8.0 billion to $66.0 billion in 2024.", []Status{Corrected, Verified}, ""},
		{"amount of change", "A $1.2 billion increase in net income lifted 2024 results.", []Status{Verified}, ""},
		{"amount of change", "A $1.2 billion decrease in net income hit 2024 results.", []Status{Corrected}, "rose"},
		{"amount of change", "Net income rose $2.2 billion in 2024.", []Status{Corrected}, "changed by $1.2B"},
		// A margin named with its profit line, or "an N% margin" after it.
		{"margin named with its line", "The net income margin was 8.0% in 2024.", []Status{Verified}, ""},
		{"margin named with its line", "The net income margin was 10.0% in 2024.", []Status{Corrected}, ""},
		{"margin named with its line", "Net income of $5.3 billion was an 8% margin on revenue of $66 billion in 2024.", []Status{Verified, Verified, Verified}, ""},
		{"earnings", "Earnings rose 29% to $5.3 billion in 2024.", []Status{Verified, Verified}, ""},
		{"earnings", "Earnings rose 19% to $5.3 billion in 2024.", []Status{Corrected, Verified}, ""},
		// A year in the possessive is the next figure's; a range of years
		// gives "from A to B" its ends.
		{"possessive year", "Revenue of $66 billion was 10% higher than 2023's $60 billion.", []Status{Verified, Verified, Verified}, ""},
		{"possessive year", "Revenue of $66 billion was 10% higher than 2023's $50 billion.", []Status{Verified, Verified, Corrected}, ""},
		{"range of years", "Over 2022-2024 revenue grew from $55.0 billion to $66.0 billion.", []Status{Verified, Verified}, ""},
		{"range of years", "Over 2022-2024 revenue grew from $52.0 billion to $66.0 billion.", []Status{Corrected, Verified}, ""},
		{"latest quarter", "Revenue in the most recent quarter was $18.0 billion.", []Status{Verified}, ""},
		{"latest quarter", "Revenue was $17.5 billion last quarter.", []Status{Corrected}, "wrong period"},
	} {
		fs := tb.Check(tc.text)
		got := statusesOf(fs)
		if !equalStatuses(got, tc.want) || tc.reason != "" && !strings.Contains(fs[len(fs)-1].Reason, tc.reason) {
			t.Errorf("%s: %q → %s; want %v (%s)", tc.cause, tc.text, describe(fs), tc.want, tc.reason)
		}
	}
}

// TestListsOfFigures: figures listed together take the metrics and periods
// listed with them, in order, and a figure that continues a comparison
// takes the metric it continues; earnings and losses named by a verb are
// read as such.
func TestListsOfFigures(t *testing.T) {
	for _, tc := range []struct {
		cause, file, text string
		want              []Status
	}{
		{"metric list", "insurer_CIK0009000011.json", "Revenue and net income were $66.0 billion and $5.3 billion in 2024.", []Status{Verified, Verified}},
		{"metric list", "insurer_CIK0009000011.json", "Revenue and net income were $66.0 billion and $4.3 billion in 2024.", []Status{Verified, Corrected}},
		{"metric list", "insurer_CIK0009000011.json", "Revenue and net income grew 10% and 29% in 2024.", []Status{Verified, Verified}},
		{"metric list", "insurer_CIK0009000011.json", "Revenue, net income and diluted EPS were $66.0 billion, $5.3 billion and $17.62 in 2024.", []Status{Verified, Verified, Verified}},
		{"metric list", "tiny_CIK0009000013.json", "Operating and net margins were -1005% and -1025% in 2024.", []Status{Verified, Verified}},
		{"metric list", "tiny_CIK0009000013.json", "Operating and net margins were -1025% and -1005% in 2024.", []Status{Corrected, Corrected}},
		{"period list", "insurer_CIK0009000011.json", "Revenue was $66.0 billion and $60.0 billion in 2024 and 2023.", []Status{Verified, Verified}},
		{"period list", "insurer_CIK0009000011.json", "Revenue was $60.0 billion and $66.0 billion in 2024 and 2023.", []Status{Corrected, Corrected}},
		{"continued comparison", "insurer_CIK0009000011.json", "Revenue of $66.0 billion in 2024 compares with $60.0 billion in 2023 and $55.0 billion in 2022.", []Status{Verified, Verified, Verified}},
		{"continued comparison", "insurer_CIK0009000011.json", "Revenue of $66.0 billion in 2024 compares with $60.0 billion in 2023 and $50.0 billion in 2022.", []Status{Verified, Verified, Corrected}},
		{"earned per share", "insurer_CIK0009000011.json", "The insurer earned $17.62 per share in 2024.", []Status{Verified}},
		{"earned per share", "insurer_CIK0009000011.json", "The insurer earned $16.62 per share in 2024.", []Status{Corrected}},
		{"a loss of", "tiny_CIK0009000013.json", "The company posted a loss of $12.3 million in 2024.", []Status{Verified}},
		{"a loss of", "tiny_CIK0009000013.json", "The company posted a loss of $2.3 million in 2024.", []Status{Corrected}},
	} {
		fs := syntheticTable(t, tc.file).Check(tc.text)
		got := statusesOf(fs)
		if !equalStatuses(got, tc.want) {
			t.Errorf("%s: %q → %s; want %v", tc.cause, tc.text, describe(fs), tc.want)
		}
	}
}

// TestClaimForms: a structured claim is read in the forms models write
// its period and metric in, not only the prompt's ("FY24", "Q3 FY25",
// "3Q25", "eps"), and held to the filing; an unreadable one stays
// unverified.
func TestClaimForms(t *testing.T) {
	tb := syntheticTable(t, "insurer_CIK0009000011.json")
	for _, tc := range []struct {
		c    Claim
		want Status
	}{
		{Claim{Metric: "revenue", Period: "FY24", Value: "66.0", Scale: "billion"}, Verified},
		{Claim{Metric: "revenue", Period: "FY24", Value: "60.0", Scale: "billion"}, Corrected},
		{Claim{Metric: "net_income", Period: "Q3 FY25", Value: "1.1", Scale: "billion"}, Verified},
		{Claim{Metric: "net_income", Period: "FY2025 Q3", Value: "1.1", Scale: "billion"}, Verified},
		{Claim{Metric: "net_income", Period: "3Q25", Value: "1.5", Scale: "billion"}, Corrected},
		{Claim{Metric: "eps", Period: "fiscal 2024", Value: "17.62"}, Verified},
		{Claim{Metric: "diluted_eps", Period: "FY2024", Value: "13.45"}, Corrected},
		{Claim{Metric: "net_profit_growth", Period: "FY2024", Value: "29", Direction: "up"}, Verified},
		{Claim{Metric: "revenue", Period: "next year", Value: "70", Scale: "billion"}, Unverified},
	} {
		if f := tb.CheckClaim(tc.c); f.Status != tc.want {
			t.Errorf("%+v → %s (%s), want %s", tc.c, f.Status, f.Reason, tc.want)
		}
	}
}

// TestShapesCorpus: on the labelled prose about other filers
// (testdata/shapes.tsv), every wrong figure's sentence has a correction, no
// right sentence has one, and a sentence of figures the filings cannot
// settle has each of them unverified, none passed or corrected.
func TestShapesCorpus(t *testing.T) {
	n := checkLabelled(t, "shapes.tsv", func(string, ...any) {})
	t.Logf("shapes: %d right, %d wrong, %d unchecked sentences", n["ok"], n["wrong"], n["unchecked"])
}

// checkLabelled checks every sentence of a labelled file of testdata (the
// form of shapes.tsv), reporting each miss, false positive and checked
// "unchecked" sentence through fail; it returns the count of each label
// and of each failure ("missed", "false positive", "checked").
func checkLabelled(t *testing.T, name string, logf func(string, ...any)) map[string]int {
	t.Helper()
	byName := map[string]*Table{}
	n := map[string]int{}
	for _, s := range loadShapes(t, name) {
		tb := byName[s.ticker]
		if tb == nil {
			if strings.HasSuffix(s.ticker, ".json") {
				tb = syntheticTable(t, s.ticker)
			} else {
				tb = tables(t)[s.ticker]
			}
			byName[s.ticker] = tb
		}
		fs := tb.Check(s.text)
		st := map[Status]int{}
		for _, f := range fs {
			st[f.Status]++
		}
		n[s.label]++
		switch {
		case s.label == "wrong" && st[Corrected] == 0:
			n["missed"]++
			t.Errorf("missed (%s) %s: %q → %s", s.cause, s.ticker, s.text, describe(fs))
		case s.label == "ok" && st[Corrected] > 0:
			n["false positive"]++
			t.Errorf("false positive %s: %q → %s", s.ticker, s.text, describe(fs))
		case s.label == "unchecked" && (len(fs) == 0 || st[Verified]+st[Corrected] > 0):
			n["checked"]++
			t.Errorf("checked (%s) %s: %q → %s; want every figure unverified", s.cause, s.ticker, s.text, describe(fs))
		case s.label == "ok" && st[Unverified] > 0:
			n["ok unverified"]++
			logf("right but not verified (%s) %s: %q → %s", s.cause, s.ticker, s.text, describe(fs))
		}
	}
	return n
}

func loadShapes(t *testing.T, name string) []labelled {
	t.Helper()
	b, err := os.ReadFile(filepath.Join("testdata", name))
	if err != nil {
		t.Fatal(err)
	}
	var out []labelled
	for _, line := range strings.Split(string(b), "\n") {
		if line == "" || strings.HasPrefix(line, "#") {
			continue
		}
		p := strings.SplitN(line, "\t", 4)
		if len(p) != 4 || p[0] != "ok" && p[0] != "wrong" && p[0] != "unchecked" {
			t.Fatalf("%s: bad line %q", name, line)
		}
		out = append(out, labelled{p[0], p[1], p[2], p[3]})
	}
	return out
}

// TestMarkdownTables: a table's figure is read with its row's and its
// column's names: metric by period, period by metric, and a change column
// for the first period column.
func TestMarkdownTables(t *testing.T) {
	nvda := tables(t)["NVDA"]
	ins := syntheticTable(t, "insurer_CIK0009000011.json")
	for _, tc := range []struct {
		name string
		tb   *Table
		text string
		want []Status
	}{
		{"metrics by period", nvda, `Key figures:

| Metric | FY2026 | FY2025 | YoY |
|---|---|---|---|
| Revenue | $215.9B | $130.5B | +65.5% |
| Net income | $120.1B | $72.9B | +64.7% |
| Gross margin | 71.1% | 75.0% | -3.9 pts |
| **Diluted EPS** | $4.90 | $2.94 | +66.7% |

The bull case rests on these.`, []Status{Verified, Verified, Verified, Verified, Verified, Verified, Verified, Verified, Verified, Verified, Verified, Verified}},
		{"metrics by period, wrong", nvda, `| Metric | FY2026 | FY2025 | YoY |
|:---|---:|---:|---:|
| Revenue | $215.9B | $120.5B | +55.5% |`, []Status{Verified, Corrected, Corrected}},
		{"periods by metric", ins, `| Year | Revenue | Net income | Diluted EPS |
| --- | --- | --- | --- |
| 2024 | $66.0B | $5.3B | $17.62 |
| 2023 | $60.0B | $4.1B | $13.45 |`, []Status{Verified, Verified, Verified, Verified, Verified, Verified}},
		{"quarters", ins, `| Quarter | Revenue | Net income |
|---|---|---|
| Q3 2025 | $18.0B | $1.1B |
| Q2 2025 | $17.5B | $1.1B |`, []Status{Verified, Verified, Verified, Corrected}},
	} {
		fs := tc.tb.Check(tc.text)
		got := statusesOf(fs)
		if !equalStatuses(got, tc.want) {
			t.Errorf("%s: %v, want %v\n%s", tc.name, got, tc.want, describe(fs))
		}
	}
}

// TestTableRows: a figure read from a Markdown table names the row it was
// read from, as written, so that a report can mark its correction where
// the reader sees it; a figure of prose names none.
func TestTableRows(t *testing.T) {
	nvda := tables(t)["NVDA"]
	row := "| Revenue | $215.9B | $120.5B |"
	fs := nvda.Check("Revenue grew 65.5% in fiscal 2026.\n\n| Metric | FY2026 | FY2025 |\n|---|---|---|\n" + row + "\n\nThat is the case.")
	if len(fs) != 3 {
		t.Fatalf("findings: %s", describe(fs))
	}
	if fs[0].Row != "" {
		t.Errorf("a figure of prose names the row %q", fs[0].Row)
	}
	for _, f := range fs[1:] {
		if f.Row != row {
			t.Errorf("%s: row %q, want %q", f.Text, f.Row, row)
		}
	}
	if fs[2].Status != Corrected {
		t.Errorf("FY2025 revenue of $120.5B: %s", describe(fs[2:]))
	}
}

// TestLossChanges: a change in a loss (testdata/losses.tsv: doubled,
// narrowed or widened by a percentage or an amount, moved to a level, a
// swing to a loss or a profit) is held to the loss's size in the filings,
// where a loss is a negative figure: a narrowing loss is the metric
// rising. Stated of a filer that made no loss, it is wrong.
func TestLossChanges(t *testing.T) {
	n := checkLabelled(t, "losses.tsv", t.Logf)
	t.Logf("losses: %d right, %d wrong, %d unchecked sentences", n["ok"], n["wrong"], n["unchecked"])
}

// TestFractionsOf: a part stated as a fraction of a whole
// (testdata/fractions.tsv: "a third of revenue", "more than half of net
// income", "half of its operating cash flow on capex") is held to the
// filings' share when both are lines of them, and unverified when the part
// is a segment, a product or a region.
func TestFractionsOf(t *testing.T) {
	n := checkLabelled(t, "fractions.tsv", t.Logf)
	t.Logf("fractions: %d right, %d wrong, %d unchecked sentences", n["ok"], n["wrong"], n["unchecked"])
}

// TestAnnualRates: a rate a year (testdata/annual.tsv) is held to the
// years its sentence names, else to a span the sentences before it in its
// paragraph name; with none it is unverified, never corrected on a span
// guessed for it.
func TestAnnualRates(t *testing.T) {
	n := checkLabelled(t, "annual.tsv", t.Logf)
	t.Logf("annual rates: %d right, %d wrong, %d unchecked sentences", n["ok"], n["wrong"], n["unchecked"])
	googl := tables(t)["GOOGL"]
	for _, tc := range []struct {
		text string
		want Status
	}{
		// Two sentences back in the paragraph still name the span.
		{"From 2022 to 2025 Alphabet kept investing. Cloud became a business. Its revenue compounded at 15.1% a year.", Corrected},
		// Another paragraph's span is not this figure's.
		{"From 2022 to 2025 Alphabet kept investing.\n\nIts revenue compounded at 15.1% a year.", Unverified},
		{"From 2022 to 2025 Alphabet kept investing.\n\nIts revenue compounded at 12.5% a year.", Unverified},
	} {
		fs := googl.Check(tc.text)
		if len(fs) != 1 || fs[0].Status != tc.want {
			t.Errorf("%q → %s; want one figure, %s", tc.text, describe(fs), tc.want)
		}
	}
}

// TestCorrectionQuotesTheRow: a corrected figure of a Markdown table is
// quoted by its row as the agent wrote it, not by the sentence the check
// wrote for it, which the agent never wrote.
func TestCorrectionQuotesTheRow(t *testing.T) {
	nvda := tables(t)["NVDA"]
	fs := nvda.Check("| Metric | FY2026 | FY2025 |\n|---|---|---|\n| Revenue | $215.9B | $120.5B |")
	if len(fs) != 2 || fs[1].Status != Corrected {
		t.Fatalf("findings: %s", describe(fs))
	}
	c := fs[1].Correction()
	if !strings.HasPrefix(c, `"| Revenue | $215.9B | $120.5B |" ($120.5B): `) || strings.Contains(c, "Revenue FY2025:") {
		t.Errorf("correction %q does not quote the row", c)
	}
	if fs[0].Said() != "| Revenue | $215.9B | $120.5B |" {
		t.Errorf("Said() = %q, want the row", fs[0].Said())
	}
	if s := nvda.Check("Revenue was $120.5 billion in fiscal 2025.")[0].Said(); s != "Revenue was $120.5 billion in fiscal 2025." {
		t.Errorf("Said() of prose = %q, want its sentence", s)
	}
}

// TestGapsProbes: the changes for losses, fractions and rates a year on
// other filers and phrasings (testdata/gaps_probes.tsv).
func TestGapsProbes(t *testing.T) {
	n := checkLabelled(t, "gaps_probes.tsv", t.Logf)
	t.Logf("probes: %d right, %d wrong, %d unchecked sentences", n["ok"], n["wrong"], n["unchecked"])
}
