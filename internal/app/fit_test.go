package app

import (
	"reflect"
	"strings"
	"testing"

	"github.com/charmbracelet/x/ansi"
)

func TestFitTable(t *testing.T) {
	rows := [][]string{
		{"ID", "FORMAT", "STATUS", "ROUND", "COST", "CREATED", "TOPIC"},
		{"DEB-6efb15e7", "perspectives", "completed", "2", "$0.0364", "2026-11-25 20:25", "Should we use Redis or PostgreSQL for caching?"},
		{"DEB-0d695366", "bullbear", "paused", "1", "no model", "2026-11-25 20:23", "NVDA"},
	}
	drop := []int{5, 3, 1, 4}
	for _, tc := range []struct {
		width int
		head  []string
		topic string
	}{
		{0, rows[0], rows[1][6]}, // not a terminal: as it is
		{130, rows[0], rows[1][6]},
		{100, rows[0], "Should we use Redis or P…"},
		{80, []string{"ID", "FORMAT", "STATUS", "ROUND", "COST", "TOPIC"}, "Should we use Redis or…"},
		{60, []string{"ID", "STATUS", "COST", "TOPIC"}, "Should we use Redis or…"},
		{40, []string{"ID", "STATUS", "TOPIC"}, "Should we use…"},
	} {
		got := FitTable(rows, tc.width, 2, drop, 6, 12)
		if !reflect.DeepEqual(got[0], tc.head) {
			t.Errorf("width %d: columns %v, want %v", tc.width, got[0], tc.head)
		}
		topic := got[1][len(got[1])-1]
		if topic != tc.topic {
			t.Errorf("width %d: topic %q, want %q", tc.width, topic, tc.topic)
		}
		if got[2][len(got[2])-1] != "NVDA" {
			t.Errorf("width %d: a short topic changed: %q", tc.width, got[2][len(got[2])-1])
		}
		if tc.width == 0 {
			continue
		}
		// The widest line as tabwriter lays it out stays under the width.
		line := 0
		for c := range got[0] {
			w := 0
			for _, r := range got {
				w = max(w, ansi.StringWidth(r[c]))
			}
			line += w
		}
		line += 2 * (len(got[0]) - 1)
		if line >= tc.width {
			t.Errorf("width %d: lines are %d columns wide:\n%s", tc.width, line, strings.Join(got[1], "  "))
		}
	}
	if rows[1][6] != "Should we use Redis or PostgreSQL for caching?" || len(rows[0]) != 7 {
		t.Error("FitTable changed the rows it was given")
	}
}
