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
