package factcheck

import "testing"

// TestMovesSharingASubject: a second move joined to the first ("revenue
// grew in 2023 but fell in 2024") is a move of the same line; it was not
// read, so "grew in 2023 and rose in 2024" passed though revenue fell in
// 2024. The IFRS filer's revenue rose in 2023 and fell in 2024; Apple's
// fell in fiscal 2023 and rose in fiscal 2024.
func TestMovesSharingASubject(t *testing.T) {
	ifrs := syntheticTable(t, "ifrsusd_CIK0009000014.json")
	aapl := tables(t)["AAPL"]
	for _, tc := range []struct {
		tb   *Table
		text string
		want []Status
	}{
		{ifrs, "Revenue grew in 2023 but fell in 2024.", []Status{Verified, Verified}},
		{ifrs, "Revenue grew in 2023, then declined in 2024.", []Status{Verified, Verified}},
		{ifrs, "Revenue grew in 2023 and rose in 2024.", []Status{Verified, Corrected}},
		{aapl, "Revenue fell in fiscal 2023 and rose in fiscal 2024.", []Status{Verified, Verified}},
		{aapl, "Revenue fell in fiscal 2023 and fell in fiscal 2024.", []Status{Verified, Corrected}},
		// Another line named for the second move is its subject.
		{aapl, "Revenue fell in fiscal 2023 but net income rose in fiscal 2025.", []Status{Verified, Verified}},
	} {
		if got := statusesOf(tc.tb.Check(tc.text)); !equalStatuses(got, tc.want) {
			t.Errorf("%q → %s, want %v", tc.text, describe(tc.tb.Check(tc.text)), tc.want)
		}
	}
}

// TestStreaksOverSpans: a move stated of every year of a span with no
// figure ("has grown every year since 2022", "in each of the last three
// years", "for two consecutive years through 2024", "every year from 2022
// to 2024") is held to the line's change in each year of the span, ending
// in the year named, else the latest the table holds. Unread, each passed
// though revenue fell in a year of it. Apple's revenue fell in fiscal 2023
// and rose in 2024 and 2025; the split filer's rose every year from 2021.
func TestStreaksOverSpans(t *testing.T) {
	ifrs := syntheticTable(t, "ifrsusd_CIK0009000014.json")
	split := syntheticTable(t, "split_CIK0009000017.json")
	aapl := tables(t)["AAPL"]
	checkOne(t, []oneCase{
		{ifrs, "Revenue has grown every year since 2022.", Corrected},
		{ifrs, "Revenue rose for two consecutive years through 2024.", Corrected},
		{ifrs, "Revenue has increased every year from 2022 to 2024.", Corrected},
		{ifrs, "Revenue has increased every year from 2022 to 2023.", Verified},
		{split, "Revenue has grown every year since fiscal 2021.", Verified},
		{split, "Revenue rose in each of the last four years.", Verified},
		{split, "Net income increased for four consecutive years through fiscal 2025.", Verified},
		{split, "EPS has risen every year since fiscal 2022.", Verified},
		// Years before the table's: unverified, never verified.
		{split, "Revenue rose in each of the last five years.", Unverified},
		{aapl, "Apple's revenue has grown every year since fiscal 2022.", Corrected},
		{aapl, "Apple's revenue has grown in each of the last two years.", Verified},
		{aapl, "Apple's revenue has grown in each of the last three years.", Corrected},
		{aapl, "Apple's revenue declined for two straight years through fiscal 2024.", Corrected},
	})
	// A rate over the years and a denied streak are not streaks.
	if fs := aapl.Check("Apple's revenue has not grown every year since fiscal 2022."); len(fs) != 0 {
		t.Errorf("denied streak → %s, want no finding", describe(fs))
	}
}

// TestLevelsFrom: a level moved from another level of the line written
// after it ("$1.1 billion in Q3 2025, up from $1.4 billion a year
// earlier") is held to the move the filings show between the two periods;
// both levels were verified whichever way the move was stated. The
// insurer's net income was $1.4B in Q3 2024 and $1.1B in Q3 2025; Apple's
// revenue $394.3B in fiscal 2022 and $383.3B in fiscal 2023.
func TestLevelsFrom(t *testing.T) {
	ins := syntheticTable(t, "insurer_CIK0009000011.json")
	aapl := tables(t)["AAPL"]
	for _, tc := range []struct {
		tb   *Table
		text string
		want []Status
	}{
		{ins, "Net income was $1.1 billion in Q3 2025, down from $1.4 billion a year earlier.", []Status{Verified, Verified}},
		{ins, "Net income was $1.1 billion in Q3 2025, up from $1.4 billion a year earlier.", []Status{Corrected, Verified}},
		{aapl, "Revenue was $383.3 billion in fiscal 2023, up from $394.3 billion a year earlier.", []Status{Corrected, Verified}},
		{aapl, "Revenue was $383.3 billion in fiscal 2023, down from $394.3 billion a year earlier.", []Status{Verified, Verified}},
		{aapl, "Revenue was $416.2 billion in fiscal 2025, up from $391.0 billion in fiscal 2024.", []Status{Verified, Verified}},
		{aapl, "Diluted EPS was $7.46 in fiscal 2025 (up from $6.08).", []Status{Verified, Verified}},
		// Compared without a direction: each level on its own.
		{aapl, "Revenue was $383.3 billion in fiscal 2023, compared with $394.3 billion a year earlier.", []Status{Verified, Verified}},
	} {
		if got := statusesOf(tc.tb.Check(tc.text)); !equalStatuses(got, tc.want) {
			t.Errorf("%q → %s, want %v", tc.text, describe(tc.tb.Check(tc.text)), tc.want)
		}
	}
}
