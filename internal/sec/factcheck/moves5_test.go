package factcheck

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/parleyhq/parley/internal/sec/xbrl"
)

// TestLevelMoveVerbs: a level's move stated with its verb apart from "to"
// ("were cut in fiscal 2025 to $1.02"), with a verb of an act on the line
// ("cut its dividend to", "raised the dividend to", "lowered its R&D
// spending to") or from one level to another ("fell from $6.08 to $7.46")
// is held to the filings' move: each right level was verified however the
// verb said it moved. A verb of another clause or of a rate says nothing
// of the level.
func TestLevelMoveVerbs(t *testing.T) {
	ts := tables(t)
	split := syntheticTable(t, "split_CIK0009000017.json")
	sl := syntheticTable(t, "septloss_CIK0009000018.json")
	checkStatuses(t, []statusCase{
		{ts["AAPL"], "Dividends per share were cut in fiscal 2025 to $1.02.", []Status{Corrected}},
		{ts["AAPL"], "Dividends per share were raised in fiscal 2025 to $1.02.", []Status{Verified}},
		{ts["AAPL"], "Apple cut its dividend per share to $1.02 in fiscal 2025.", []Status{Corrected}},
		{ts["AAPL"], "Apple raised its dividend to $1.02 per share in fiscal 2025.", []Status{Verified}},
		{ts["AAPL"], "Apple's dividends per share were reduced to $0.98 in fiscal 2024.", []Status{Corrected}},
		{ts["AAPL"], "Apple lowered its R&D spending to $34.6 billion in fiscal 2025.", []Status{Corrected}},
		{ts["AAPL"], "Apple raised its R&D spending to $34.6 billion in fiscal 2025.", []Status{Verified}},
		{split, "The board cut the dividend to $0.48 a share in fiscal 2025.", []Status{Corrected}},
		{split, "The board raised the dividend to $0.48 a share in fiscal 2025.", []Status{Verified}},
		{sl, "The company cut its dividend to $0.24 a share in fiscal 2025.", []Status{Verified}},
		{sl, "The company raised its dividend per share to $0.24 in fiscal 2025.", []Status{Corrected}},
		// From one level to another.
		{ts["AAPL"], "Diluted EPS fell from $6.08 to $7.46 in fiscal 2025.", []Status{Verified, Corrected}},
		{ts["AAPL"], "Diluted EPS rose from $6.08 to $7.46 in fiscal 2025.", []Status{Verified, Verified}},
		{ts["AAPL"], "Net income rose from $97.0 billion in fiscal 2023 to $93.7 billion in fiscal 2024.", []Status{Verified, Corrected}},
		{ts["AAPL"], "Net income declined from $97.0 billion in fiscal 2023 to $93.7 billion in fiscal 2024.", []Status{Verified, Verified}},
		{sl, "Revenue rose from $10.5 billion to $9.8 billion in fiscal 2025.", []Status{Verified, Corrected}},
		// A verb of another clause, of another line, or a change stated in
		// percent says nothing of the level's move.
		{ts["AAPL"], "Apple cut costs, and revenue rose to $416.2 billion in fiscal 2025.", []Status{Verified}},
		{ts["AAPL"], "Apple cut its workforce while net income rose to $112.0 billion in fiscal 2025.", []Status{Verified}},
		{ts["AAPL"], "Revenue rose 6% in fiscal 2025 to $416.2 billion.", []Status{Verified, Verified}},
		// A quarter's dividend stated for the year stays unverified.
		{ts["AAPL"], "Apple raised its dividend to $0.26 per share in fiscal 2025.", []Status{Unverified}},
	})
}

// TestStreakObjects: a streak whose line follows its verb ("has grown
// revenue for five straight years", "increased its net income in each of
// the last 3 years") is held to the line's change in each year, as one
// whose line is its subject; it was not read at all. A measure the check
// does not hold as the object, or a negated verb, is no streak read.
func TestStreakObjects(t *testing.T) {
	ts := tables(t)
	sl := syntheticTable(t, "septloss_CIK0009000018.json")
	checkStatuses(t, []statusCase{
		{ts["AAPL"], "Apple has grown revenue for five straight years.", []Status{Corrected}},
		{ts["AAPL"], "Apple has grown revenue for two straight years.", []Status{Verified}},
		{ts["AAPL"], "Apple increased its net income in each of the last 3 years.", []Status{Corrected}},
		{ts["NVDA"], "NVIDIA increased its net income in each of the last 3 years.", []Status{Verified}},
		{ts["NVDA"], "NVIDIA has grown its net income in each of the last four years.", []Status{Corrected}},
		{ts["NVDA"], "NVIDIA has grown revenue every year since fiscal 2022.", []Status{Verified}},
		{sl, "The company has grown revenue for three consecutive years.", []Status{Corrected}},
		{sl, "The company has cut costs, and revenue has declined for four straight years.", []Status{Verified}},
		{ts["AAPL"], "Apple has grown market share for five straight years.", nil},
		{ts["AAPL"], "Apple has not grown revenue for five straight years.", nil},
	})
}

// TestAverageReturns: a return on average equity or assets is held to the
// year's net income over the average of the balance at its start and end;
// it stayed unverified however wrong. The year-end return is not it, nor
// is a return on a negative book.
func TestAverageReturns(t *testing.T) {
	ts := tables(t)
	split := syntheticTable(t, "split_CIK0009000017.json")
	sl := syntheticTable(t, "septloss_CIK0009000018.json")
	loss := syntheticTable(t, "loss_CIK0009000006.json")
	checkOne(t, []oneCase{
		{ts["AAPL"], "Apple's return on average equity was 171% in fiscal 2025.", Verified},
		{ts["AAPL"], "Apple's return on average equity was 151.9% in fiscal 2025.", Corrected},
		{ts["AAPL"], "Apple's return on average equity was 120% in fiscal 2025.", Corrected},
		{ts["AAPL"], "Apple's return on equity was 171% in fiscal 2025.", Verified},
		{ts["AAPL"], "Apple's return on equity was 151.9% in fiscal 2025.", Verified},
		{ts["GOOGL"], "Return on average assets was 25% in 2025.", Verified},
		{ts["GOOGL"], "Return on average assets was 22% in 2025.", Corrected},
		{split, "Return on average equity was 26.9% in fiscal 2025.", Verified},
		{split, "ROAE was 31.9% in fiscal 2025.", Corrected},
		{sl, "Return on average equity was -17.9% in fiscal 2025.", Verified},
		{loss, "Return on average equity was 40% in 2024.", Unverified},
		// Apple has no preferred stock: its common equity is all of it.
		{ts["AAPL"], "Apple's return on average common equity was 120% in fiscal 2025.", Corrected},
	})
}

// TestAnnualRateInOneYear: a rate a year in the one year a sentence names
// ("grew 16% a year in fiscal 2025") is that year's growth, held to it;
// it was unverified as a rate over years not named. With no year, or a
// year the rate runs to, it stays unverified unless it is the latest
// year's growth.
func TestAnnualRateInOneYear(t *testing.T) {
	ts := tables(t)
	split := syntheticTable(t, "split_CIK0009000017.json")
	checkOne(t, []oneCase{
		{ts["AAPL"], "Apple's revenue grew 16% a year in fiscal 2025.", Corrected},
		{ts["AAPL"], "Apple's revenue grew 2% a year in fiscal 2024.", Verified},
		{split, "Revenue grew at an annual rate of 20% in fiscal 2025.", Corrected},
		{split, "Revenue grew at an annual rate of 12.5% in fiscal 2025.", Verified},
		{ts["NVDA"], "NVIDIA's revenue grew 95% a year.", Unverified},
		{ts["AAPL"], "Apple's revenue grew 16% a year through fiscal 2025.", Unverified},
		{ts["NVDA"], "NVIDIA's annual revenue growth of 95% shows demand.", Unverified},
		{ts["NVDA"], "NVIDIA's annual revenue growth of 65% shows demand.", Verified},
	})
}

// TestNetDebt: net debt is held to the valuation's (debt less cash and
// short-term investments) at the date stated, or debt less cash alone;
// with no date, to the latest year end's or the latest balance sheet's
// (the valuation tool's). It was never checked. A filer with no debt
// reported stays unverified.
func TestNetDebt(t *testing.T) {
	ts := tables(t)
	sl := syntheticTable(t, "septloss_CIK0009000018.json")
	bank := syntheticTable(t, "norevbank_CIK0009000019.json")
	checkStatuses(t, []statusCase{
		{sl, "Net debt was $5.5 billion at the end of fiscal 2025.", []Status{Verified}},
		{sl, "Net debt was $3.5 billion at the end of fiscal 2025.", []Status{Corrected}},
		{sl, "Net debt rose to $5.5 billion in fiscal 2025 from $4.5 billion.", []Status{Verified, Verified}},
		{sl, "Net debt fell to $5.5 billion in fiscal 2025.", []Status{Corrected}},
		{ts["AAPL"], "Apple's net debt is about $23.6 billion.", []Status{Verified}},
		{ts["AAPL"], "Apple's net debt is about $44 billion.", []Status{Verified}},
		{ts["AAPL"], "Apple's net debt was $62.7 billion at the end of fiscal 2025.", []Status{Verified}},
		{ts["AAPL"], "Apple's net debt was $90 billion at the end of fiscal 2025.", []Status{Corrected}},
		{bank, "Net debt was $5 billion in 2024.", []Status{Unverified}},
	})
}

// TestNetCash: net cash, net debt's opposite, is held to the filings'
// cash and short-term investments less debt (NVIDIA $34.7B at the end of
// fiscal 2025: $8.6B cash and $34.6B securities less $8.5B debt), less
// cash alone, or counting the securities held past a year too (Apple's
// own: $35.9B cash, $18.8B current and $77.7B non-current securities less
// $98.7B debt and commercial paper, $33.8B at the end of fiscal 2025).
// With no date it is the latest balance sheet's. It was unverified
// whatever it said; the lines of the cash flow statement that open with
// "net cash" are not it.
func TestNetCash(t *testing.T) {
	ts := tables(t)
	checkStatuses(t, []statusCase{
		{ts["NVDA"], "NVIDIA had net cash of $34.7 billion at the end of fiscal 2025.", []Status{Verified}},
		{ts["NVDA"], "NVIDIA had a net cash position of $30 billion at the end of fiscal 2025.", []Status{Corrected}},
		// Fiscal 2025's, said of today.
		{ts["NVDA"], "NVIDIA has net cash of $34.7 billion.", []Status{Corrected}},
		{ts["NVDA"], "NVIDIA has net cash of about $41 billion.", []Status{Verified}},
		{ts["AAPL"], "Apple ended fiscal 2025 with net cash of about $34 billion.", []Status{Verified}},
		{ts["AAPL"], "Apple ended fiscal 2025 with net cash of $30 billion.", []Status{Corrected}},
		// Its net debt, called net cash.
		{ts["AAPL"], "Apple ended fiscal 2025 with net cash of $44 billion.", []Status{Corrected}},
		{ts["GOOGL"], "Alphabet had net cash of $81.5 billion at the end of 2024.", []Status{Verified}},
		{ts["GOOGL"], "Alphabet had net cash of $95.7 billion at the end of 2024.", []Status{Corrected}},
		{ts["AAPL"], "Net cash provided by operating activities was $111.5 billion in fiscal 2025.", []Status{Verified}},
		{ts["AAPL"], "Net cash used in investing activities was $15 billion in fiscal 2025.", []Status{Unverified}},
	})
}

// TestAnnualRateWords: "at a 5.7% annual rate", "a 12% annual growth
// rate" from one year to another are rates a year over the span: read as
// the total change over it, a right one was corrected. With no years, "an
// annual growth rate of 65%" stays a growth called annual, right as the
// latest year's.
func TestAnnualRateWords(t *testing.T) {
	ts := tables(t)
	split := syntheticTable(t, "split_CIK0009000017.json")
	sl := syntheticTable(t, "septloss_CIK0009000018.json")
	checkOne(t, []oneCase{
		{sl, "Revenue declined at a 5.7% annual rate from fiscal 2021 to fiscal 2025.", Verified},
		{sl, "Revenue declined at a 9% annual rate from fiscal 2021 to fiscal 2025.", Corrected},
		{split, "Revenue grew at a 12% annual growth rate from fiscal 2021 to fiscal 2025.", Verified},
		{split, "Revenue grew at a 20% annual growth rate from fiscal 2021 to fiscal 2025.", Corrected},
		{ts["NVDA"], "NVIDIA's annual revenue growth rate of 65% shows demand.", Verified},
		{ts["NVDA"], "Revenue grew at a 95% annual rate.", Unverified},
	})
}

// TestDividendRates: "raised its dividend to $0.84 a share" may state the
// annual rate of a quarter's dividend (4 × $0.21), not the year's declared
// total ($0.83): unverified, saying so; it was corrected. The year's total
// stated as paid stays held to the year's.
func TestDividendRates(t *testing.T) {
	ts := tables(t)
	checkOne(t, []oneCase{
		{ts["GOOGL"], "Alphabet raised its dividend to $0.84 per share in 2025.", Unverified},
		{ts["GOOGL"], "Alphabet raised its dividend to $0.83 per share in 2025.", Verified},
		{ts["GOOGL"], "Alphabet raised its dividend to $0.94 per share in 2025.", Corrected},
		{ts["GOOGL"], "Alphabet paid $0.80 per share in dividends in 2025.", Corrected},
		{ts["AAPL"], "Apple raised its dividend to $1.04 per share in fiscal 2025.", Unverified},
		{ts["AAPL"], "Dividends per share were raised to $1.04 in fiscal 2025.", Unverified},
		{ts["AAPL"], "Apple's dividends per share were $1.04 in fiscal 2025.", Corrected},
	})
}

// TestOtherFilersForms: amounts as models write them for other filers: a
// currency code before the amount ("revenue of USD 9.8 bn" was read as a
// part named "USD" and left unverified), a decimal comma ("$9,8 billion"
// was read as $9 and 8 billion, and a right figure corrected), "bil.", a
// prior year's figure in an aside ("$9.8B (FY24: $10.5B)": the aside's
// year was taken for the first figure's, and it corrected). A euro amount
// stays unverified.
func TestOtherFilersForms(t *testing.T) {
	sl := syntheticTable(t, "septloss_CIK0009000018.json")
	for _, tc := range []struct {
		text string
		want []Status
	}{
		{"Revenue of USD 9.8 bn in FY2025 was down 6.7% year on year.", []Status{Verified, Verified}},
		{"Revenue of USD 9.8 bn in FY2025 was up 6.7% year on year.", []Status{Verified, Corrected}},
		{"Revenue was $9,8 billion in fiscal 2025.", []Status{Verified}},
		{"Revenue was USD 8,9 bn in fiscal 2025.", []Status{Corrected}},
		{"Operating margin was -9,2% in fiscal 2025.", []Status{Verified}},
		{"Free cash flow was USD (0,2) bn in fiscal 2025.", []Status{Verified}},
		{"Free cash flow was USD 0,2 bn in fiscal 2025.", []Status{Corrected}},
		{"Revenue of 9,800 mn USD in FY2025.", []Status{Verified}},
		{"Revenue was $9.8 bil. in fiscal 2025.", []Status{Verified}},
		{"Revenue was $9.8B (FY24: $10.5B).", []Status{Verified, Verified}},
		{"Revenue was $9.8B (FY24: $11.5B).", []Status{Verified, Corrected}},
		{"Revenue was $9.8B (fiscal 2025).", []Status{Verified}},
		{"Revenue was €9,8 Mrd in fiscal 2025.", []Status{Unverified}},
		{"Revenue of EUR 9.8 bn in FY2025.", []Status{Unverified}},
	} {
		fs := sl.Check(tc.text)
		if got := statusesOf(fs); !equalStatuses(got, tc.want) {
			t.Errorf("%q: %v, want %v\n%s", tc.text, got, tc.want, describe(fs))
		}
		for _, f := range fs {
			if f.Quote != tc.text || !strings.Contains(tc.text, f.Text) {
				t.Errorf("%q: quote %q, figure %q: not as written", tc.text, f.Quote, f.Text)
			}
		}
	}
}

// TestSignStreaks: a result's sign stated of every year to the latest
// ("has lost money in each of the last three years", "profitable for two
// straight years") is held to net income's sign in each; unread, a wrong
// one passed. A span ending earlier ("before returning to profit in
// 2024"), a part's result and a negated one are not read as such.
func TestSignStreaks(t *testing.T) {
	ts := tables(t)
	sl := syntheticTable(t, "septloss_CIK0009000018.json")
	tiny := syntheticTable(t, "tiny_CIK0009000013.json")
	turn := syntheticTable(t, "turnaround_CIK0009000016.json")
	checkStatuses(t, []statusCase{
		{tiny, "The company has lost money in each of the last three years.", []Status{Verified}},
		{sl, "The company has lost money in each of the last three years.", []Status{Verified}},
		{sl, "The company has posted losses for four consecutive years.", []Status{Corrected}},
		{sl, "The company has been profitable for two straight years.", []Status{Corrected}},
		{ts["AAPL"], "Apple has been profitable for five straight years.", []Status{Verified}},
		{ts["GOOGL"], "Other Bets has lost money for three straight years.", []Status{Unverified}},
		{turn, "The company posted losses for two consecutive years before returning to profit in 2024.", []Status{Verified}},
		{ts["AAPL"], "Apple has not lost money in each of the last three years.", nil},
	})
}

// TestActStreaks: a streak of an act on a line ("has raised its dividend
// for three consecutive years", "has cut its long-term debt for four
// straight years") is held as a streak of its move.
func TestActStreaks(t *testing.T) {
	ts := tables(t)
	sl := syntheticTable(t, "septloss_CIK0009000018.json")
	checkStatuses(t, []statusCase{
		{sl, "The company has raised its dividend for three consecutive years.", []Status{Corrected}},
		{ts["AAPL"], "Apple has raised its dividend every year since fiscal 2021.", []Status{Verified}},
		{ts["AAPL"], "Apple has cut its long-term debt for four straight years.", []Status{Verified}},
		{ts["AAPL"], "Apple has increased its long-term debt for four straight years.", []Status{Corrected}},
	})
}

// TestComparedLevels: two levels of a line compared ("the net loss of $1.2
// billion in fiscal 2025 was narrower than the $0.8 billion loss of fiscal
// 2024", "lower than the $93.7 billion in fiscal 2024") are held to the
// filings' move between their periods; both were verified however they
// were compared. The period of the figure compared with is not the first
// figure's ("$416.2 billion was more than the $391.0 billion of fiscal
// 2024" was corrected as fiscal 2024's).
func TestComparedLevels(t *testing.T) {
	ts := tables(t)
	sl := syntheticTable(t, "septloss_CIK0009000018.json")
	checkStatuses(t, []statusCase{
		{sl, "The net loss of $1.2 billion in fiscal 2025 was narrower than the $0.8 billion loss of fiscal 2024.", []Status{Corrected, Verified}},
		{sl, "The net loss of $1.2 billion in fiscal 2025 was wider than the $0.8 billion loss of fiscal 2024.", []Status{Verified, Verified}},
		{sl, "Revenue of $9.8 billion in fiscal 2025 was higher than the $10.5 billion of fiscal 2024.", []Status{Corrected, Verified}},
		{sl, "Revenue of $9.8 billion in fiscal 2025 was lower than the $10.5 billion of fiscal 2024.", []Status{Verified, Verified}},
		{ts["AAPL"], "Net income in fiscal 2025 was $112.0 billion, lower than the $93.7 billion in fiscal 2024.", []Status{Corrected, Verified}},
		{ts["AAPL"], "Revenue of $416.2 billion was more than the $391.0 billion of fiscal 2024.", []Status{Verified, Verified}},
	})
}

// TestClaimsOfNewLines: structured claims of the lines the fifth round
// added (net debt, returns on average balances, by their names and the
// short forms models use) and of a loss-maker's negative figures.
func TestClaimsOfNewLines(t *testing.T) {
	sl := syntheticTable(t, "septloss_CIK0009000018.json")
	ap := tables(t)["AAPL"]
	for _, tc := range []struct {
		tb   *Table
		c    Claim
		want Status
	}{
		{sl, Claim{Metric: "net_debt", Period: "FY2025", Value: "5.5", Unit: "usd_billions"}, Verified},
		{sl, Claim{Metric: "net_debt", Period: "FY2025", Value: "3.5", Unit: "usd_billions"}, Corrected},
		{ap, Claim{Metric: "roae", Period: "FY2025", Value: "171", Unit: "%"}, Verified},
		{ap, Claim{Metric: "return_on_average_equity", Period: "FY2025", Value: "151.9", Unit: "%"}, Corrected},
		{sl, Claim{Metric: "net_income", Period: "FY2025", Value: "-1.2", Scale: "billion"}, Verified},
		{sl, Claim{Metric: "eps", Period: "FY2025", Value: "0.45"}, Corrected},
	} {
		if f := tc.tb.CheckClaim(tc.c); f.Status != tc.want {
			t.Errorf("%+v → %s %s (%s), want %s", tc.c, f.Status, f.Period, f.Reason, tc.want)
		}
	}
}

// TestSpecialDividends: a special or one-time dividend a share is no
// regular dividend the filings' declared figure is sure to count: it is
// unverified, not held to the year's dividend a share.
func TestSpecialDividends(t *testing.T) {
	ap := tables(t)["AAPL"]
	for _, text := range []string{
		"Apple paid a special dividend of $1.02 per share in fiscal 2025.",
		"Apple paid a special dividend of $3.00 per share in fiscal 2025.",
		"Apple declared a one-time dividend of $3.00 per share in fiscal 2025.",
	} {
		fs := ap.Check(text)
		if len(fs) != 1 || fs[0].Status != Unverified {
			t.Errorf("%q → %s, want one unverified", text, describe(fs))
		}
	}
}

// TestMovesOfOtherThings: a verb moves the line only with auxiliaries or
// adverbs between them ("revenue estimates were cut to $416.2 billion"
// moves the estimates), and a ratio per employee or per user is no line
// of the filings: neither is held to the line's figure or move.
func TestMovesOfOtherThings(t *testing.T) {
	ap := tables(t)["AAPL"]
	for _, tc := range []struct {
		text string
		want Status
	}{
		{"Revenue estimates were cut to $416.2 billion for fiscal 2025.", Verified},
		{"Revenue consensus was lowered to $416.2 billion in fiscal 2025.", Verified},
		{"Revenue per employee was raised to $2.4 million in fiscal 2025.", Unverified},
		{"Dividends per share have also been raised to $1.02 in fiscal 2025.", Verified},
		{"Dividends per share have also been cut to $1.02 in fiscal 2025.", Corrected},
	} {
		fs := ap.Check(tc.text)
		if len(fs) != 1 || fs[0].Status != tc.want {
			t.Errorf("%q → %s, want one %s", tc.text, describe(fs), tc.want)
		}
	}
}

// TestLossActsAndImprovement: an act on a loss moves its size ("trimmed
// its net loss to $1.2 billion" says it narrowed), a result's or a
// margin's streak of improvement is a streak of its rise (a cost's is
// not read), and a line's move from a loss is read from the difference of
// its figures where its growth is not meaningful.
func TestLossActsAndImprovement(t *testing.T) {
	sl := syntheticTable(t, "septloss_CIK0009000018.json")
	loss := syntheticTable(t, "loss_CIK0009000006.json")
	checkStatuses(t, []statusCase{
		{sl, "The company trimmed its net loss to $1.2 billion in fiscal 2025.", []Status{Corrected}},
		{sl, "The net loss was cut in fiscal 2025 to $1.2 billion.", []Status{Corrected}},
		{sl, "The net loss grew to $1.2 billion in fiscal 2025 from $0.8 billion.", []Status{Verified, Verified}},
		{sl, "Operating income has improved for three straight years.", []Status{Corrected}},
		{sl, "Operating income has worsened for three straight years.", []Status{Verified}},
		{sl, "Capex has improved for two straight years.", nil},
		{loss, "Net income fell in 2024.", []Status{Verified}},
		{loss, "Net income rose in 2024.", []Status{Corrected}},
	})
}

// TestReturnOnCommonEquity: the return on (average) common equity is the
// return on (average) equity for a filer with no preferred stock (Apple
// fiscal 2025: 151.9% on year-end, 171% on average equity) and was
// unverified whatever it said; for a filer with preferred stock it stays
// unverified, since its common equity is less than the whole.
func TestReturnOnCommonEquity(t *testing.T) {
	ts := tables(t)
	bank := syntheticTable(t, "norevbank_CIK0009000019.json")
	b, err := os.ReadFile(filepath.Join("..", "xbrl", "testdata", "synthetic", "norevbank_CIK0009000019.json"))
	if err != nil {
		t.Fatal(err)
	}
	var raw map[string]any
	if err := json.Unmarshal(b, &raw); err != nil {
		t.Fatal(err)
	}
	gaap := raw["facts"].(map[string]any)["us-gaap"].(map[string]any)
	gaap["PreferredStockValue"] = map[string]any{"label": "PreferredStockValue", "units": map[string]any{"USD": []any{
		map[string]any{"end": "2024-12-31", "val": 2e9, "accn": "0009000019-25-000102", "fy": 2024, "fp": "FY", "form": "10-K", "filed": "2025-02-25"}}}}
	b, err = json.Marshal(raw)
	if err != nil {
		t.Fatal(err)
	}
	cf, err := xbrl.ParseBytes(b)
	if err != nil {
		t.Fatal(err)
	}
	pref, err := BuildTable(cf, "X", 0, 0)
	if err != nil {
		t.Fatal(err)
	}
	checkOne(t, []oneCase{
		{ts["AAPL"], "Apple's return on average common equity was 171% in fiscal 2025.", Verified},
		{ts["AAPL"], "Apple's ROACE was 150% in fiscal 2025.", Corrected},
		{ts["AAPL"], "Apple's return on common equity was 151.9% in fiscal 2025.", Verified},
		{ts["AAPL"], "Apple's return on common equity was 140% in fiscal 2025.", Corrected},
		{ts["NVDA"], "NVIDIA's return on average shareholders’ equity was 101.5% in fiscal 2026.", Verified},
		{bank, "The bank's return on average common equity was 11.7% in 2024.", Verified},
		{bank, "The bank's return on average common equity was 14% in 2024.", Corrected},
		{pref, "The bank's return on average equity was 11.7% in 2024.", Verified},
		{pref, "The bank's return on average common equity was 11.7% in 2024.", Unverified},
		{pref, "The bank's return on average common equity was 14% in 2024.", Unverified},
		{bank, "The bank's return on average tangible common equity was 14% in 2024.", Unverified},
	})
}
