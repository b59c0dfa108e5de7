package factcheck

import (
	"fmt"
	"maps"
	"slices"
	"strings"
	"testing"
)

// auditScore is the checker's record on a labelled corpus, form by form
// (the corpus's cause column): wrong sentences caught, right sentences
// flagged, right sentences with a figure verified (and the figures of
// right sentences verified, of all read in them), and unchecked sentences
// where a figure was verified or corrected, or none was read.
type auditScore struct {
	wrong, caught, right, falsePos, verified, unchecked, checked int
	rightFigures, rightFiguresVerified                           int
}

func scoreForms(t *testing.T, name string) (map[string]*auditScore, auditScore) {
	t.Helper()
	byName := map[string]*Table{}
	by := map[string]*auditScore{}
	var all auditScore
	for _, s := range loadShapes(t, name) {
		sc := by[s.cause]
		if sc == nil {
			sc = &auditScore{}
			by[s.cause] = sc
		}
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
		for _, x := range []*auditScore{sc, &all} {
			switch s.label {
			case "wrong":
				x.wrong++
				if st[Corrected] > 0 {
					x.caught++
				}
			case "ok":
				x.right++
				if st[Corrected] > 0 {
					x.falsePos++
				}
				if st[Verified] > 0 {
					x.verified++
				}
				x.rightFigures += len(fs)
				x.rightFiguresVerified += st[Verified]
			case "unchecked":
				x.unchecked++
				if len(fs) == 0 || st[Verified]+st[Corrected] > 0 {
					x.checked++
				}
			}
		}
		switch {
		case s.label == "wrong" && st[Corrected] == 0:
			t.Logf("missed (%s) %s: %q → %s", s.cause, s.ticker, s.text, describe(fs))
		case s.label == "ok" && st[Corrected] > 0:
			t.Logf("false positive (%s) %s: %q → %s", s.cause, s.ticker, s.text, describe(fs))
		case s.label == "ok" && st[Verified] == 0:
			t.Logf("right but none verified (%s) %s: %q → %s", s.cause, s.ticker, s.text, describe(fs))
		case s.label == "unchecked" && (len(fs) == 0 || st[Verified]+st[Corrected] > 0):
			t.Logf("checked (%s) %s: %q → %s; want every figure unverified", s.cause, s.ticker, s.text, describe(fs))
		}
	}
	return by, all
}

func (s auditScore) String() string {
	return fmt.Sprintf("caught %d/%d wrong, %d/%d right flagged, %d/%d right verified (%d/%d of their figures), %d/%d unchecked read as checked",
		s.caught, s.wrong, s.falsePos, s.right, s.verified, s.right, s.rightFiguresVerified, s.rightFigures, s.checked, s.unchecked)
}

// TestAudit: the adversarial audit's sentences (testdata/audit.tsv), form by
// form. Every wrong figure is caught, no right one is flagged, and a figure
// of a line or a year the table does not hold is unverified. When the
// corpus was written, before the reader was changed for it, 87 of 100
// wrong sentences were caught, 5 of 93 right ones flagged and 2 of 20
// unchecked ones read as checked (four unchecked long spans were
// relabelled by what the filings say when the table came to hold ten
// years of annual flows).
func TestAudit(t *testing.T) { auditRound(t, "audit", "audit.tsv") }

// TestAuditHeldOut: the same on sentences written after the reader was
// changed for the audit (testdata/audit_heldout.tsv).
func TestAuditHeldOut(t *testing.T) {
	_, all := scoreForms(t, "audit_heldout.tsv")
	t.Logf("audit held out: %s", all)
	if all.caught < all.wrong || all.falsePos > 0 || all.checked > 0 {
		t.Errorf("audit held out: %s; want every wrong sentence caught, none right flagged, every unchecked one unverified", all)
	}
}

// TestAudit2: the audit's second round (testdata/audit2.tsv), written
// after the first was fixed. As written, before the reader was changed for
// it: 22 of 23 wrong sentences caught, 4 of 21 right ones flagged, 1 of 7
// unchecked ones read as checked.
func TestAudit2(t *testing.T) { auditRound(t, "audit2", "audit2.tsv") }

// TestTableUnits: a table of bare numbers whose unit its caption, its
// corner, a row's label or a column's header states ("($B)", "(USD
// millions)", "($ in billions)", "(%)", "($)") is read in that unit, and a
// change column with no line of its own is the change of the column
// before it. Unread, every figure of such a table passed, right or wrong.
// Without a stated unit bare numbers stay unread: they may count anything.
func TestTableUnits(t *testing.T) {
	ts := tables(t)
	for _, tc := range []struct {
		name, ticker, text string
		want               []Status
	}{
		{"row labels", "AAPL", "| Metric | FY2024 | FY2025 |\n|---|---|---|\n| Revenue ($B) | 391.0 | 416.2 |\n| Net income ($B) | 93.7 | 122.0 |",
			[]Status{Verified, Verified, Verified, Corrected}},
		{"caption", "AAPL", "Figures in $ billions:\n\n| | FY2024 | FY2025 |\n|---|---|---|\n| Revenue | 391.0 | 426.2 |\n| Free cash flow | 108.8 | 98.8 |",
			[]Status{Verified, Corrected, Verified, Verified}},
		{"caption in millions", "NVDA", "(USD millions)\n\n| Line | FY2025 | FY2026 |\n|---|---|---|\n| Revenue | 130,497 | 215,938 |\n| R&D | 12,914 | 16,497 |",
			[]Status{Verified, Verified, Verified, Corrected}},
		{"corner", "AAPL", "| ($ in billions) | FY2025 |\n|---|---|\n| Revenue | 416.2 |\n| Net income | (112.0) |",
			[]Status{Verified, Corrected}},
		{"percent and per share", "AAPL", "| Metric | FY2024 | FY2025 |\n|---|---|---|\n| Diluted EPS ($) | 6.08 | 7.46 |\n| Operating margin (%) | 31.5 | 33.0 |",
			[]Status{Verified, Verified, Verified, Corrected}},
		{"column header and its change", "GOOGL", "| Quarter | Revenue ($bn) | YoY |\n|---|---|---|\n| Q3 2025 | 102.3 | 16% |\n| Q4 2025 | 113.8 | 28% |",
			[]Status{Verified, Verified, Verified, Corrected}},
		// A change column is the later period's, whichever way the columns
		// run; a bare number in it is no amount of the row's scale.
		{"oldest first, change column", "AAPL", "| Metric | FY2024 | FY2025 | YoY |\n|---|---|---|---|\n| Revenue ($B) | 391.0 | 416.2 | 6.4 |\n| Net income ($B) | 93.7 | 112.0 | 19.5% |",
			[]Status{Verified, Verified, Verified, Verified, Verified}},
		{"oldest first, change column wrong", "AAPL", "| Metric | FY2024 | FY2025 | YoY |\n|---|---|---|---|\n| Net income | $93.7B | $112.0B | -3.4% |",
			[]Status{Verified, Verified, Corrected}},
		{"no unit stated", "GOOGL", "| Year | Employees | Revenue |\n|---|---|---|\n| 2024 | 183,323 | 350.0 |\n| 2025 | 190,167 | 402.8 |",
			nil},
	} {
		fs := ts[tc.ticker].Check(tc.text)
		got := statusesOf(fs)
		if !equalStatuses(got, tc.want) {
			t.Errorf("%s: %v, want %v\n%s", tc.name, got, tc.want, describe(fs))
		}
	}
}

// TestClaimUnits: a structured claim's rate written as a fraction ("0.711"
// for a 71.1% margin), its scale in the plural ("millions") or in its unit
// ("usd_billions"), and a bare calendar year as its period are read as
// prose reads them; each was corrected though right. Wrong claims in the
// same forms stay corrected.
func TestClaimUnits(t *testing.T) {
	nv := tables(t)["NVDA"]
	for _, tc := range []struct {
		c    Claim
		want Status
	}{
		{Claim{Metric: "gross_margin", Period: "FY2026", Value: "0.711"}, Verified},
		{Claim{Metric: "gross_margin", Period: "FY2026", Value: "0.75"}, Corrected},
		{Claim{Metric: "revenue_growth", Period: "FY2026", Value: "0.655", Unit: "percent"}, Verified},
		{Claim{Metric: "revenue_growth", Period: "FY2026", Value: "0.655", Unit: "%"}, Corrected},
		{Claim{Metric: "revenue", Period: "FY2026", Value: "215.9", Unit: "usd_billions"}, Verified},
		{Claim{Metric: "revenue", Period: "FY2026", Value: "130.5", Unit: "USD billions"}, Corrected},
		{Claim{Metric: "revenue", Period: "FY2026", Value: "215938", Scale: "millions"}, Verified},
		{Claim{Metric: "revenue", Period: "FY2026", Value: "130497", Scale: "millions"}, Corrected},
		{Claim{Metric: "revenue", Period: "2025", Value: "215.9", Scale: "billion"}, Verified},
		{Claim{Metric: "revenue", Period: "2025", Value: "100", Scale: "billion"}, Corrected},
	} {
		if f := nv.CheckClaim(tc.c); f.Status != tc.want {
			t.Errorf("%+v → %s %s (%s), want %s", tc.c, f.Status, f.Period, f.Reason, tc.want)
		}
	}
}

// TestAudit3: the audit's third round (testdata/audit3.tsv), written after
// the second was fixed. As written, before the reader was changed for it:
// 16 of 20 wrong sentences caught, 2 of 21 right ones flagged.
func TestAudit3(t *testing.T) { auditRound(t, "audit3", "audit3.tsv") }

// TestMovesOfCalendarYears: a move or a record stated of a bare year is
// wrong only when both fiscal years it may name contradict it (NVIDIA's
// calendar 2023 is mostly its fiscal 2024, whose net income rose though
// fiscal 2023's fell).
func TestMovesOfCalendarYears(t *testing.T) {
	nv := tables(t)["NVDA"]
	for _, tc := range []struct {
		text string
		want Status
	}{
		{"NVIDIA's net income rose in 2023.", Verified},
		{"NVIDIA's net income fell in 2023.", Verified},
		{"NVIDIA's net income fell in 2024.", Corrected},
		{"NVIDIA's revenue hit a record in 2023.", Unverified},
	} {
		fs := nv.Check(tc.text)
		if len(fs) != 1 || fs[0].Status != tc.want {
			t.Errorf("%q → %s, want one %s", tc.text, describe(fs), tc.want)
		}
	}
}

// auditRound scores one audit corpus form by form, logs the score of each
// form and fails unless every wrong sentence is caught, no right one is
// flagged and every unchecked one is left unverified.
func auditRound(t *testing.T, name, file string) {
	t.Helper()
	by, all := scoreForms(t, file)
	var b strings.Builder
	for _, f := range slices.Sorted(maps.Keys(by)) {
		fmt.Fprintf(&b, "\n  %-20s %s", f, by[f])
	}
	t.Logf("%s: %s%s", name, all, b.String())
	if all.caught < all.wrong || all.falsePos > 0 || all.checked > 0 {
		t.Errorf("%s: %s; want every wrong sentence caught, none right flagged, every unchecked one unverified", name, all)
	}
}

// TestAudit4: the audit's fourth round (testdata/audit4.tsv), on filers
// unlike the shipped ones (a split with restated per-share figures, a
// restatement, derived fourth quarters, IFRS, June and start-named years,
// a bank, an insurer, a REIT, losses) and on lines the table did not hold
// (total assets, liabilities, equity, pretax income, tax, dividends a
// share). As written, before the reader was changed for it: 22 of 46 wrong
// sentences caught, 3 of 48 right ones flagged, 0 of 12 unchecked ones
// read as checked.
func TestAudit4(t *testing.T) { auditRound(t, "audit4", "audit4.tsv") }

// TestAudit4HeldOut: the same on sentences written after the fourth
// round's fixes (testdata/audit4_heldout.tsv).
func TestAudit4HeldOut(t *testing.T) { auditRound(t, "audit4 held out", "audit4_heldout.tsv") }

// TestAudit5: the audit's fifth round (testdata/audit5.tsv): the fourth's
// known misses (a level's move with its verb apart from "to", "cut" and
// "raised", a move between two levels, a streak whose line follows its
// verb, a rate a year in one year, net debt, the return on average
// equity) and filers unlike the shipped ones (a September 52/53-week
// loss-maker with a dividend cut, a bank with no revenue line). As
// written, before the reader was changed for it: 18 of 38 wrong sentences
// caught (the bank's two not at all: its table was refused for want of
// revenue), 0 of 39 right ones flagged, 0 of 6 unchecked ones read as
// checked.
func TestAudit5(t *testing.T) { auditRound(t, "audit5", "audit5.tsv") }

// TestAudit5HeldOut: the same on sentences written after the fifth
// round's fixes (testdata/audit5_heldout.tsv). As written: 20 of 22 wrong
// caught, 0 of 21 right flagged, 0 of 4 unchecked read as checked.
func TestAudit5HeldOut(t *testing.T) { auditRound(t, "audit5 held out", "audit5_heldout.tsv") }

// TestAudit6HeldOut: a held-out audit of the three shipped filers
// (testdata/audit6_heldout.tsv): right and wrong figures in the forms
// analysts write them (a wrong year, scale or base, a quarter or TTM
// called the year, basis points, "USD 3.4B", "1,234 million", ranges,
// bounds, net cash, returns, streaks), its truth computed from the
// companyfacts JSON apart from the checker.
func TestAudit6HeldOut(t *testing.T) { auditRound(t, "audit6 held out", "audit6_heldout.tsv") }
