package app

import (
	"slices"
	"strings"

	"github.com/charmbracelet/x/ansi"
)

// FitTable makes a table of plain cells fit a terminal width columns wide,
// as tabwriter lays it out with gap spaces between columns: while it is too
// wide it leaves out the columns named in drop, in that order, then
// shortens the cells of the column flex (the free text, such as a topic) to
// the width left, no narrower than minFlex. A width of 0 (not a terminal)
// leaves the table as it is. The header is rows[0]; the rows returned are
// new slices.
func FitTable(rows [][]string, width, gap int, drop []int, flex, minFlex int) [][]string {
	if width <= 0 || len(rows) == 0 {
		return rows
	}
	keep := make([]bool, len(rows[0]))
	for i := range keep {
		keep[i] = true
	}
	colWidth := func(c int) int {
		w := 0
		for _, r := range rows {
			if c < len(r) {
				w = max(w, ansi.StringWidth(r[c]))
			}
		}
		return w
	}
	// total is the width of the kept columns, the flex column counted at
	// want.
	total := func(want int) int {
		t, n := 0, 0
		for c := range keep {
			if !keep[c] {
				continue
			}
			if c == flex {
				t += want
			} else {
				t += colWidth(c)
			}
			n++
		}
		return t + gap*max(n-1, 0)
	}
	for _, c := range drop {
		if total(minFlex) <= width-1 {
			break
		}
		keep[c] = false
	}
	room := width - 1 - total(0)
	out := make([][]string, len(rows))
	for i, r := range rows {
		var row []string
		for c, cell := range r {
			if !keep[c] {
				continue
			}
			if c == flex && i > 0 && ansi.StringWidth(cell) > max(room, minFlex) {
				cell = shorten(cell, max(room, minFlex))
			}
			row = append(row, cell)
		}
		out[i] = slices.Clip(row)
	}
	return out
}

// shorten cuts s to n columns, ending it with "…".
func shorten(s string, n int) string {
	if n <= 1 {
		return "…"
	}
	return strings.TrimRight(ansi.Truncate(s, n-1, ""), " ") + "…"
}
