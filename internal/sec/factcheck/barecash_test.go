package factcheck

import (
	"strings"
	"testing"
)

// TestBareCashAndZero: "cash" alone names no one line. A debater may mean
// cash and cash equivalents (CashAndCashEquivalentsAtCarryingValue), with
// restricted cash (the cash flow statement's ending balance), with the
// short-term investments, or with every marketable security (as Apple
// states its own): a balance right by any of those readings is verified,
// one right by none corrected against cash and cash equivalents. Cash
// paid, returned or generated is no balance, and is never corrected as
// one. "$0" is a figure of any unit: "revenue was $0" is held to revenue
// (it was unread, and "net income was $0" was read as EPS and called a
// slip of scale). Before: every bare-cash and $0 sentence here was
// unverified or misread.
func TestBareCashAndZero(t *testing.T) {
	ts := tables(t)
	// A filer whose restricted cash is not nil: cash and equivalents $10.0
	// billion, $10.6 billion with restricted cash, and $2.0 billion of
	// short-term investments.
	k := "0009000091-26-000001"
	restricted := cfTable(t, "SYNTHETIC RESTRICTED CORP", []xf{
		{tag: "Revenues", unit: "USD", start: "2025-01-01", end: "2025-12-31", val: 40e9, form: "10-K", filed: "2026-02-15", accn: k},
		{tag: "NetIncomeLoss", unit: "USD", start: "2025-01-01", end: "2025-12-31", val: 4e9, form: "10-K", filed: "2026-02-15", accn: k},
		{tag: "CashAndCashEquivalentsAtCarryingValue", unit: "USD", end: "2025-12-31", val: 10e9, form: "10-K", filed: "2026-02-15", accn: k},
		{tag: "CashCashEquivalentsRestrictedCashAndRestrictedCashEquivalents", unit: "USD", end: "2025-12-31", val: 10.6e9, form: "10-K", filed: "2026-02-15", accn: k},
		{tag: "ShortTermInvestments", unit: "USD", end: "2025-12-31", val: 2e9, form: "10-K", filed: "2026-02-15", accn: k},
		{tag: "LongTermDebt", unit: "USD", end: "2025-12-31", val: 5e9, form: "10-K", filed: "2026-02-15", accn: k},
	})
	for _, tc := range []struct {
		tb   *Table
		text string
		want []Status
		why  string // in a correction's reason or an unverified figure's
	}{
		// Apple, fiscal 2025: cash and equivalents $35.9B, with current
		// marketable securities $54.7B, with all of them $132.4B.
		{ts["AAPL"], "Apple had cash of $35.9 billion at the end of fiscal 2025.", []Status{Verified}, ""},
		{ts["AAPL"], "Apple's cash was $35.9 billion in fiscal 2025.", []Status{Verified}, ""},
		{ts["AAPL"], "Apple ended fiscal 2025 with $54.7 billion in cash.", []Status{Verified}, ""},
		{ts["AAPL"], "Apple ended fiscal 2025 with $132.4 billion in cash.", []Status{Verified}, ""},
		{ts["AAPL"], "Apple ended fiscal 2025 with $50 billion in cash.", []Status{Corrected}, ""},
		{ts["AAPL"], "Apple's cash pile was $90 billion at the end of fiscal 2025.", []Status{Corrected}, ""},
		{ts["AAPL"], "Apple's cash balance was $132.4 billion at the end of fiscal 2025.", []Status{Verified}, ""},
		{ts["AAPL"], "Apple's cash balance was $90 billion at the end of fiscal 2025.", []Status{Corrected}, ""},
		{ts["AAPL"], "Apple had cash of $29.9 billion at the end of fiscal 2025.", []Status{Corrected}, "FY2024"},
		// Alphabet, 2025: $30.7B, $126.8B with short-term investments.
		{ts["GOOGL"], "Alphabet held $126.8 billion in cash at the end of 2025.", []Status{Verified}, ""},
		{ts["GOOGL"], "Alphabet held $30.7 billion of cash at the end of 2025.", []Status{Verified}, ""},
		{ts["GOOGL"], "Alphabet held $100 billion of cash at the end of 2025.", []Status{Corrected}, ""},
		{restricted, "Cash was $10.6 billion at the end of 2025.", []Status{Verified}, ""},
		{restricted, "Cash was $12.0 billion at the end of 2025.", []Status{Verified}, ""},
		{restricted, "Cash was $11.3 billion at the end of 2025.", []Status{Corrected}, ""},
		// The strict line stays strict.
		{ts["AAPL"], "Apple's cash and cash equivalents were $132.4 billion at the end of fiscal 2025.", []Status{Corrected}, ""},
		{restricted, "Cash and cash equivalents were $10.6 billion at the end of 2025.", []Status{Corrected}, ""},
		// Beside other lines: each figure is its own line's.
		{ts["AAPL"], "Apple had $35.9 billion in cash and $18.8 billion in current marketable securities at the end of fiscal 2025.", []Status{Verified, Unverified}, ""},
		{ts["AAPL"], "Apple ended fiscal 2025 with cash of $35.9 billion and long-term debt of $78.3 billion.", []Status{Verified, Verified}, ""},
		// Cash that is no balance.
		{ts["AAPL"], "Apple returned $90 billion in cash to shareholders in fiscal 2025.", []Status{Unverified}, ""},
		{ts["AAPL"], "Apple paid $5 billion in cash for acquisitions in fiscal 2025.", []Status{Unverified}, ""},
		{ts["AAPL"], "Apple's cash flow was $20 billion in fiscal 2025.", []Status{Unverified}, ""},
		// A zero.
		{ts["AAPL"], "Apple's revenue was $0 in fiscal 2025.", []Status{Corrected}, "416"},
		{ts["AAPL"], "Apple had $0 of revenue in fiscal 2025.", []Status{Corrected}, "416"},
		{ts["AAPL"], "Apple's net income was $0 in fiscal 2025.", []Status{Corrected}, "112"},
		{ts["AAPL"], "Apple's revenue was $0.0 billion in fiscal 2025.", []Status{Corrected}, "416"},
		{ts["AAPL"], "Apple's diluted EPS was $0 in fiscal 2025.", []Status{Corrected}, "7.46"},
	} {
		fs := tc.tb.Check(tc.text)
		got := statusesOf(fs)
		if !equalStatuses(got, tc.want) {
			t.Errorf("%q: %v, want %v\n%s", tc.text, got, tc.want, describe(fs))
			continue
		}
		if tc.why != "" && !strings.Contains(fs[0].Correction()+" "+fs[0].Reason, tc.why) {
			t.Errorf("%q: %q / %q lacks %q", tc.text, fs[0].Reason, fs[0].Correction(), tc.why)
		}
		if strings.Contains(tc.text, "$0 ") && strings.Contains(fs[0].Reason, "scale") {
			t.Errorf("%q: a zero called a slip of scale: %q", tc.text, fs[0].Reason)
		}
	}
}

// TestZeroIsNoOtherPeriodsFigure: a right $0 is verified ("Alphabet paid
// $0 in dividends in 2023", before its first), a wrong one corrected as
// not matching, never as another period's figure (its first quarter of
// 2024 paid none either) nor as a slip of scale.
func TestZeroIsNoOtherPeriodsFigure(t *testing.T) {
	g := tables(t)["GOOGL"]
	if f := only(t, g, "Alphabet paid $0 in dividends in 2023.", nil); f.Status != Verified {
		t.Errorf("2023: %s (%s), want verified", f.Status, f.Reason)
	}
	if f := only(t, g, "Alphabet paid $0 in dividends in 2024.", nil); f.Status != Corrected || f.Reason != "the figure does not match the filing" {
		t.Errorf("2024: %s (%s), want corrected as not matching", f.Status, f.Reason)
	}
}

// TestBareCashClaim: a claim of the metric "cash" names no one line
// either, as the prose it declares does: Apple's "$132.4 billion in cash",
// verified in the prose, was corrected in its claim. "cash_and_equivalents"
// stays the strict line.
func TestBareCashClaim(t *testing.T) {
	a := tables(t)["AAPL"]
	for _, tc := range []struct {
		c    Claim
		want Status
	}{
		{Claim{Metric: "cash", Period: "FY2025", Value: "132.4", Scale: "billion"}, Verified},
		{Claim{Metric: "cash", Period: "FY2025", Value: "35.9", Scale: "billion"}, Verified},
		{Claim{Metric: "cash", Period: "FY2025", Value: "50", Scale: "billion"}, Corrected},
		{Claim{Metric: "cash_and_equivalents", Period: "FY2025", Value: "132.4", Scale: "billion"}, Corrected},
		{Claim{Metric: "cash_and_equivalents", Period: "FY2025", Value: "35.9", Scale: "billion"}, Verified},
	} {
		if f := a.CheckClaim(tc.c); f.Status != tc.want {
			t.Errorf("%+v → %s (%s), want %s", tc.c, f.Status, f.Reason, tc.want)
		}
	}
}
