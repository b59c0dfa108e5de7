package pdf

import (
	"strings"

	"github.com/yuin/goldmark/ast"
	east "github.com/yuin/goldmark/extension/ast"
)

// cell is one table cell's text and style.
type cell struct {
	text string
	bold bool
}

// table draws a GitHub table as a grid: columns as wide as their contents
// when they fit, otherwise shared out in proportion with every column at
// least as wide as its longest word; cells wrap; the header repeats on each
// page the table runs onto.
func (r *renderer) table(t *east.Table) {
	var header []cell
	var rows [][]cell
	for row := t.FirstChild(); row != nil; row = row.NextSibling() {
		var cells []cell
		for c := row.FirstChild(); c != nil; c = c.NextSibling() {
			cells = append(cells, cell{text: strings.TrimSpace(r.plain(c)), bold: isBold(c)})
		}
		_, head := row.(*east.TableHeader)
		for i := range cells {
			cells[i].bold = cells[i].bold || head
			style := ""
			if cells[i].bold {
				style = "B"
			}
			cells[i].text = r.shown(cells[i].text, sans, style)
		}
		if head {
			header = cells
			continue
		}
		rows = append(rows, cells)
	}
	cols := len(t.Alignments)
	if cols == 0 {
		cols = len(header)
	}
	if cols == 0 {
		return
	}
	if len(rows) == 0 {
		// A table with a header and no row says nothing: no empty frame.
		r.plainParagraph("(none)")
		return
	}
	// The cells pad themselves; fpdf's own cell margin would narrow the
	// text width SplitText wraps to below the width measured here.
	cm := r.f.GetCellMargin()
	r.f.SetCellMargin(0)
	defer r.f.SetCellMargin(cm)
	widths := r.columnWidths(cols, append([][]cell{header}, rows...))
	aligns := make([]string, cols)
	for i := range aligns {
		if i < len(t.Alignments) {
			aligns[i] = map[east.Alignment]string{east.AlignLeft: "L", east.AlignRight: "R", east.AlignCenter: "C"}[t.Alignments[i]]
		}
	}

	r.space(1)
	r.f.SetLeftMargin(marginX)
	const size = 9.0
	lineH := 4.4
	draw := func(cells []cell, head bool) {
		// Measure the row, then draw it whole: a row never splits across pages.
		lines := make([][]string, cols)
		n := 1
		for i := 0; i < cols; i++ {
			c := cell{}
			if i < len(cells) {
				c = cells[i]
			}
			r.cellFont(c.bold, size)
			lines[i] = r.f.SplitText(c.text, widths[i]-2*cellPad)
			n = max(n, len(lines[i]))
		}
		h := float64(n)*lineH + 2*cellPad
		if r.remaining() < h {
			r.f.AddPage()
			if !head && header != nil {
				drawRow(r, header, widths, aligns, lineH, size, true, nil)
			}
		}
		drawRow(r, cells, widths, aligns, lineH, size, head, lines)
	}
	if header != nil {
		r.keep(2 * (lineH + 2*cellPad))
		draw(header, true)
	}
	for _, row := range rows {
		draw(row, false)
	}
	r.f.Ln(4)
	r.setFont()
}

func drawRow(r *renderer, cells []cell, widths []float64, aligns []string, lineH, size float64, head bool, lines [][]string) {
	cols := len(widths)
	if lines == nil {
		lines = make([][]string, cols)
		for i := 0; i < cols && i < len(cells); i++ {
			r.cellFont(cells[i].bold, size)
			lines[i] = r.f.SplitText(cells[i].text, widths[i]-2*cellPad)
		}
	}
	n := 1
	for _, l := range lines {
		n = max(n, len(l))
	}
	h := float64(n)*lineH + 2*cellPad
	x, y := r.left(), r.f.GetY()
	r.f.SetDrawColor(170, 170, 170)
	r.f.SetLineWidth(0.2)
	for i := 0; i < cols; i++ {
		style := "D"
		if head {
			r.f.SetFillColor(232, 236, 243)
			style = "FD"
		}
		r.f.Rect(x, y, widths[i], h, style)
		c := cell{}
		if i < len(cells) {
			c = cells[i]
		}
		r.cellFont(c.bold, size)
		// The Markdown's alignment, else figures to the right.
		align := aligns[i]
		if align == "" {
			align = "L"
			if looksNumeric(c.text) && !head {
				align = "R"
			}
		}
		for k, line := range lines[i] {
			r.f.SetXY(x+cellPad, y+cellPad+float64(k)*lineH)
			r.f.CellFormat(widths[i]-2*cellPad, lineH, line, "", 0, align, false, 0, "")
		}
		x += widths[i]
	}
	r.f.SetXY(r.left(), y+h)
}

func (r *renderer) cellFont(bold bool, size float64) {
	style := ""
	if bold {
		style = "B"
	}
	r.f.SetFont(sans, style, size)
	r.f.SetTextColor(25, 25, 25)
}

// columnWidths fits the columns into the text width.
func (r *renderer) columnWidths(cols int, rows [][]cell) []float64 {
	avail := r.width - r.indent
	natural := make([]float64, cols)
	least := make([]float64, cols)
	for _, row := range rows {
		for i := 0; i < cols && i < len(row); i++ {
			r.cellFont(row[i].bold, 9)
			natural[i] = max(natural[i], r.f.GetStringWidth(row[i].text)+2*cellPad+1)
			for _, w := range strings.Fields(row[i].text) {
				least[i] = max(least[i], r.f.GetStringWidth(w)+2*cellPad+1)
			}
		}
	}
	widths := make([]float64, cols)
	var sumNat, sumLeast float64
	for i := range cols {
		natural[i] = max(natural[i], 8)
		least[i] = min(max(least[i], 8), avail/2)
		sumNat += natural[i]
		sumLeast += least[i]
	}
	switch {
	case sumNat <= avail:
		copy(widths, natural)
	case sumLeast >= avail:
		for i := range cols {
			widths[i] = avail * least[i] / sumLeast
		}
	default:
		extra, want := avail-sumLeast, sumNat-sumLeast
		for i := range cols {
			widths[i] = least[i] + extra*(natural[i]-least[i])/want
		}
	}
	return widths
}

func isBold(c ast.Node) bool {
	e, ok := c.FirstChild().(*ast.Emphasis)
	return ok && e.Level == 2 && c.FirstChild() == c.LastChild()
}

// looksNumeric is true for figures ("1,234", "$0.0123", "45%"), which read
// best right-aligned.
func looksNumeric(s string) bool {
	s = strings.TrimSpace(s)
	if s == "" {
		return false
	}
	digits := 0
	for _, c := range s {
		switch {
		case c >= '0' && c <= '9':
			digits++
		case strings.ContainsRune("$€£.,%+-−() xM", c):
		default:
			return false
		}
	}
	return digits > 0
}
