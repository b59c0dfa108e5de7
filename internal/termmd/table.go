package termmd

import (
	"slices"
	"strings"

	"charm.land/lipgloss/v2"
	"github.com/charmbracelet/x/ansi"
	east "github.com/yuin/goldmark/extension/ast"
)

// keepWord is the longest word, in cells, that a narrowed table column
// never breaks: a figure ("$1,234.5678", "12,345,678"), a name, a ticker.
// Cut in two, "$0.0123" reads "$0.012" on its line, another number. Longer
// words (identifiers, URLs) may be broken. A table whose columns cannot
// keep such words whole is laid out as records instead (one "Header:
// value" line per cell).
const keepWord = 12

// colSep is the separator between table columns, without its style.
const colSep = " │ "

type cell struct {
	text  string // styled, on one line
	align east.Alignment
}

// table lays out a GFM table: columns as wide as their widest cell when
// the table fits, else narrowed with cells wrapped in them, breaking no
// word if the widest ones fit, else none of up to keepWord cells; when
// such columns do not fit, each row is shown as a record, a line per cell
// headed by its column's name.
func (w *walker) table(n *east.Table, width int) []string {
	var head []cell
	var rows [][]cell
	for r := n.FirstChild(); r != nil; r = r.NextSibling() {
		_, isHead := r.(*east.TableHeader)
		st := lipgloss.NewStyle()
		if isHead {
			st = w.st.THead
		}
		var row []cell
		for c := r.FirstChild(); c != nil; c = c.NextSibling() {
			tc, ok := c.(*east.TableCell)
			if !ok {
				continue
			}
			row = append(row, cell{text: strings.ReplaceAll(w.inline(tc, st), "\n", " "), align: tc.Alignment})
		}
		if isHead {
			head = row
		} else {
			rows = append(rows, row)
		}
	}
	cols := len(head)
	for _, r := range rows {
		cols = max(cols, len(r))
	}
	if cols == 0 {
		return nil
	}
	// word: each column's widest word; kept: the same, of the words
	// never broken.
	natural, word, kept := make([]int, cols), make([]int, cols), make([]int, cols)
	for _, r := range append([][]cell{head}, rows...) {
		for i, c := range r {
			natural[i] = max(natural[i], ansi.StringWidth(c.text))
			for _, f := range strings.Fields(ansi.Strip(c.text)) {
				word[i] = max(word[i], ansi.StringWidth(f))
				kept[i] = max(kept[i], min(ansi.StringWidth(f), keepWord))
			}
		}
	}
	avail := width - len([]rune(colSep))*(cols-1)
	widths, ok := fitWords(natural, word, avail)
	if !ok {
		widths, ok = fitWords(natural, kept, avail)
	}
	if !ok {
		return w.records(head, rows, width)
	}
	sep := styled(w.st.TBorder, colSep)
	var out []string
	if len(head) > 0 {
		out = append(out, w.row(head, widths, sep)...)
		rule := make([]string, cols)
		for i, cw := range widths {
			rule[i] = strings.Repeat("─", cw)
		}
		out = append(out, styled(w.st.TBorder, strings.Join(rule, "─┼─")))
	}
	for _, r := range rows {
		out = append(out, w.row(r, widths, sep)...)
	}
	return out
}

// fitWords narrows columns without breaking a word, when their widest
// words fit: each column gets its widest word's cells, and what is left
// goes to the columns in proportion to what they want beyond that (a
// browser's automatic table layout), so that a model name is not cut in two
// to give a long sentence one more line. It fails when the words do not fit.
func fitWords(natural, word []int, avail int) ([]int, bool) {
	wantNat, wantWord := 0, 0
	for i := range natural {
		wantNat += natural[i]
		wantWord += word[i]
	}
	if wantNat <= avail {
		return slices.Clone(natural), true
	}
	if wantWord > avail {
		return nil, false
	}
	widths := make([]int, len(natural))
	extra, spare := avail-wantWord, wantNat-wantWord
	given := 0
	for i := range natural {
		widths[i] = word[i] + (natural[i]-word[i])*extra/spare
		given += widths[i]
	}
	// Rounding down leaves a few cells: to the columns furthest from their
	// natural width, one each.
	for given < avail {
		best := -1
		for i := range widths {
			if widths[i] < natural[i] && (best < 0 || natural[i]-widths[i] > natural[best]-widths[best]) {
				best = i
			}
		}
		if best < 0 {
			break
		}
		widths[best]++
		given++
	}
	return widths, true
}

// row lays out one table row: each cell wrapped in its column and aligned
// as the column says.
func (w *walker) row(r []cell, widths []int, sep string) []string {
	cells := make([][]string, len(widths))
	height := 1
	for i := range widths {
		if i < len(r) {
			cells[i] = wrap(r[i].text, widths[i])
		}
		height = max(height, len(cells[i]))
	}
	out := make([]string, height)
	for l := range height {
		var b strings.Builder
		for i, cw := range widths {
			if i > 0 {
				b.WriteString(sep)
			}
			s := ""
			if l < len(cells[i]) {
				s = cells[i][l]
			}
			align := east.AlignNone
			if i < len(r) {
				align = r[i].align
			}
			b.WriteString(pad(s, cw, align))
		}
		out[l] = strings.TrimRight(b.String(), " ")
	}
	return out
}

// pad fills s out to width cells, placed as align says.
func pad(s string, width int, align east.Alignment) string {
	gap := max(width-ansi.StringWidth(s), 0)
	switch align {
	case east.AlignRight:
		return strings.Repeat(" ", gap) + s
	case east.AlignCenter:
		return strings.Repeat(" ", gap/2) + s + strings.Repeat(" ", gap-gap/2)
	}
	return s + strings.Repeat(" ", gap)
}

// records lays out a table too wide for its columns: each row a group of
// "Header: value" lines, values wrapped under a two-cell indent, a blank
// line between rows.
func (w *walker) records(head []cell, rows [][]cell, width int) []string {
	var out []string
	for _, r := range rows {
		if len(out) > 0 {
			out = append(out, "")
		}
		for i, c := range r {
			name := ""
			if i < len(head) {
				name = head[i].text
			}
			line := c.text
			if ansi.Strip(name) != "" {
				line = name + styled(w.st.THead, ":") + " " + c.text
			}
			for j, l := range wrap(line, max(width-2, minWidth)) {
				if j > 0 {
					l = "  " + l
				}
				out = append(out, l)
			}
		}
	}
	if len(rows) == 0 {
		for _, c := range head {
			out = append(out, wrap(c.text, width)...)
		}
	}
	return out
}
