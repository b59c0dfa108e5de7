package factcheck

import "testing"

// statusCase is a sentence checked against a table, with the statuses its
// findings must have, in order.
type statusCase struct {
	tb   *Table
	text string
	want []Status
}

func checkStatuses(t *testing.T, cases []statusCase) {
	t.Helper()
	for _, tc := range cases {
		fs := tc.tb.Check(tc.text)
		if got := statusesOf(fs); !equalStatuses(got, tc.want) {
			t.Errorf("%q: %v, want %v\n%s", tc.text, got, tc.want, describe(fs))
		}
	}
}

// oneCase is a sentence checked against a table that must give one
// finding, with its status.
type oneCase struct {
	tb   *Table
	text string
	want Status
}

func checkOne(t *testing.T, cases []oneCase) {
	t.Helper()
	for _, tc := range cases {
		if fs := tc.tb.Check(tc.text); len(fs) != 1 || fs[0].Status != tc.want {
			t.Errorf("%q → %s, want one %s", tc.text, describe(fs), tc.want)
		}
	}
}
