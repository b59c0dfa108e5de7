// Package pdf renders a Markdown document (the Markdown Parley's formats
// write) as a PDF a person can read: a title block, headings with an outline,
// paragraphs with bold, italic and code, bulleted and numbered lists, block
// quotes, code blocks, tables drawn as tables, and page numbers.
//
// Markdown is parsed with goldmark (CommonMark plus GitHub tables) and laid
// out with fpdf. The fonts are DejaVu, embedded in the binary, so that any
// text in the Basic Multilingual Plane that DejaVu covers prints as written.
// A character outside the fonts (emoji, Chinese, Japanese and Korean
// script) is printed as its code point, "⟨U+1F44D⟩", and a note at the end
// says so: fpdf draws it as a blank box, and a verdict given as an emoji, or
// a debate in Chinese, said nothing. Emoji in headings are dropped: they
// decorate them ("## 🐂 BULL CASE"). The control pictures every view shows
// control characters as (␛), which DejaVu lacks, print as the control's
// name, "⟨ESC⟩".
package pdf

import (
	_ "embed"
	"fmt"
	"io"
	"math"
	"strings"
	"time"
	"unicode"
	"unicode/utf8"

	"github.com/go-pdf/fpdf"
	"github.com/yuin/goldmark"
	"github.com/yuin/goldmark/ast"
	"github.com/yuin/goldmark/extension"
	east "github.com/yuin/goldmark/extension/ast"
	"github.com/yuin/goldmark/text"

	"github.com/parleyhq/parley/internal/textsafe"
)

var (
	//go:embed fonts/DejaVuSans.ttf
	fontRegular []byte
	//go:embed fonts/DejaVuSans-Bold.ttf
	fontBold []byte
	//go:embed fonts/DejaVuSans-Oblique.ttf
	fontItalic []byte
	//go:embed fonts/DejaVuSansMono.ttf
	fontMono []byte
)

// Document is what Render lays out.
type Document struct {
	// Title is printed at the top of the first page, in the running header
	// of the others, and in the PDF's metadata. A leading "# " heading of the
	// Markdown that repeats it is not printed twice.
	Title string
	// Meta lines are printed small under the title ("Debate DEB-1 · bullbear").
	Meta []string
	// Markdown is the body.
	Markdown string
	// Created dates the PDF's metadata; zero means now.
	Created time.Time
}

// Render writes markdown as a PDF document titled title.
func Render(w io.Writer, title string, markdown string) error {
	return RenderDocument(w, Document{Title: title, Markdown: markdown})
}

// Layout, in millimetres and points.
const (
	marginX      = 20.0
	marginTop    = 20.0
	marginBottom = 18.0
	bodySize     = 10.0
	bodyLine     = 5.0
	codeSize     = 8.5
	codeLine     = 4.0
	listIndent   = 6.0
	quoteIndent  = 5.0
	cellPad      = 1.6
)

const (
	sans = "dejavu"
	mono = "dejavumono"
)

// RenderDocument writes doc as a PDF.
func RenderDocument(w io.Writer, doc Document) error {
	md := goldmark.New(goldmark.WithExtensions(extension.Table, extension.Strikethrough))
	src := []byte(textsafe.Shallow(doc.Markdown))
	root := md.Parser().Parse(text.NewReader(src))

	f := fpdf.New("P", "mm", "A4", "")
	f.SetMargins(marginX, marginTop, marginX)
	f.SetAutoPageBreak(true, marginBottom)
	f.AddUTF8FontFromBytes(sans, "", fontRegular)
	f.AddUTF8FontFromBytes(sans, "B", fontBold)
	f.AddUTF8FontFromBytes(sans, "I", fontItalic)
	f.AddUTF8FontFromBytes(mono, "", fontMono)
	fonts := map[string]*glyphs{}
	for key, font := range map[string][]byte{sans: fontRegular, sans + "B": fontBold, sans + "I": fontItalic, mono: fontMono} {
		g, err := readGlyphs(font)
		if err != nil {
			return fmt.Errorf("read the characters of the PDF font %s: %w", key, err)
		}
		fonts[key] = g
	}
	title := clean(strings.TrimSpace(doc.Title))
	f.SetTitle(title, true)
	f.SetCreator("Parley", true)
	f.SetAuthor("Parley", true)
	created := doc.Created
	if created.IsZero() {
		created = time.Now()
	}
	f.SetCreationDate(created)
	f.SetModificationDate(created)
	f.AliasNbPages("{nb}")

	r := &renderer{f: f, src: src, title: title, fonts: fonts}
	r.headerTitle = r.shown(title, sans, "")
	pageW, _ := f.GetPageSize()
	r.width = pageW - 2*marginX
	f.SetHeaderFunc(r.header)
	f.SetFooterFunc(r.footer)
	f.AddPage()
	r.titleBlock(doc.Meta)

	skipFirstH1 := false
	if h, ok := root.FirstChild().(*ast.Heading); ok && h.Level == 1 && title != "" &&
		strings.EqualFold(strings.TrimSpace(r.plain(h)), title) {
		skipFirstH1 = true
	}
	for n := root.FirstChild(); n != nil; n = n.NextSibling() {
		if skipFirstH1 {
			skipFirstH1 = false
			continue
		}
		r.block(n, 0)
	}
	if r.missing != 0 {
		r.space(2)
		r.grey = true
		r.italic++
		r.plainParagraph(fmt.Sprintf("Characters outside this PDF's fonts (such as emoji, or Chinese, Japanese and Korean script) are shown by their code points, as %s; the Markdown export has them as written.", codePoint(r.missing)))
	}
	if r.rtl {
		r.space(2)
		r.grey = true
		r.italic++
		r.plainParagraph("Right-to-left text (such as Hebrew or Arabic) is printed left to right, in the order it is stored, and Arabic letters unjoined: this PDF's layout has no bidirectional algorithm. The Markdown export has it as written.")
	}
	if err := f.Error(); err != nil {
		return fmt.Errorf("lay out the PDF: %w", err)
	}
	if err := f.Output(w); err != nil {
		return fmt.Errorf("write the PDF: %w", err)
	}
	return nil
}

// renderer walks the Markdown tree and lays it out.
type renderer struct {
	f     *fpdf.Fpdf
	src   []byte
	title string
	width float64 // text width between the page margins
	// fonts are the characters each font has glyphs for, by family and
	// style; family and style are those of the font in use (setFont).
	fonts         map[string]*glyphs
	family, style string
	headerTitle   string // the title as printed in the running header
	missing       rune   // the first character printed as its code point, or 0
	inHeading     bool   // a heading is being written: its emoji are dropped
	// rtl is set once right-to-left text is printed: fpdf lays it out left
	// to right as stored, Arabic unjoined, which reads backwards. Reordering
	// it before fpdf breaks the lines would put a paragraph's last words on
	// its first line; a note at the end says so instead.
	rtl bool

	indent float64 // left indentation of the current block
	bold   int
	italic int
	code   int
	link   string
	size   float64
	lineH  float64
	grey   bool
}

func (r *renderer) header() {
	if r.f.PageNo() == 1 {
		return
	}
	r.f.SetFont(sans, "", 8)
	r.f.SetTextColor(120, 120, 120)
	r.f.SetXY(marginX, 10)
	r.f.CellFormat(r.width, 4, r.headerTitle, "", 0, "L", false, 0, "")
	r.f.SetDrawColor(200, 200, 200)
	r.f.SetLineWidth(0.2)
	r.f.Line(marginX, 15, marginX+r.width, 15)
	r.f.SetXY(marginX, marginTop)
	r.restore()
}

func (r *renderer) footer() {
	r.f.SetY(-12)
	r.f.SetFont(sans, "", 8)
	r.f.SetTextColor(120, 120, 120)
	r.f.CellFormat(0, 5, fmt.Sprintf("Page %d of {nb}", r.f.PageNo()), "", 0, "C", false, 0, "")
	r.restore()
}

// restore sets the font and colour of the current inline style, after the
// header or footer (called in the middle of a paragraph at a page break)
// changed them.
func (r *renderer) restore() {
	if r.size == 0 {
		return
	}
	r.setFont()
}

func (r *renderer) titleBlock(meta []string) {
	f := r.f
	if r.title != "" {
		f.SetFont(sans, "B", 20)
		f.SetTextColor(20, 20, 20)
		f.MultiCell(r.width, 9, r.shown(r.title, sans, "B"), "", "L", false)
	}
	if len(meta) > 0 {
		f.Ln(1)
		f.SetFont(sans, "", 9)
		f.SetTextColor(100, 100, 100)
		for _, m := range meta {
			f.MultiCell(r.width, 4.5, r.shown(clean(m), sans, ""), "", "L", false)
		}
	}
	if r.title != "" || len(meta) > 0 {
		f.Ln(2)
		f.SetDrawColor(60, 60, 60)
		f.SetLineWidth(0.5)
		y := f.GetY()
		f.Line(marginX, y, marginX+r.width, y)
		f.Ln(4)
	}
	r.size, r.lineH = bodySize, bodyLine
	r.setFont()
}

// setFont applies the inline style.
func (r *renderer) setFont() {
	family, style := sans, ""
	switch {
	case r.code > 0:
		family = mono
	case r.bold > 0:
		style = "B"
	case r.italic > 0:
		style = "I"
	}
	size := r.size
	if r.code > 0 && size > codeSize {
		size = size * 0.92
	}
	r.f.SetFont(family, style, size)
	r.family, r.style = family, style
	switch {
	case r.link != "":
		r.f.SetTextColor(30, 80, 170)
	case r.code > 0:
		r.f.SetTextColor(120, 40, 40)
	case r.grey:
		r.f.SetTextColor(80, 80, 80)
	default:
		r.f.SetTextColor(25, 25, 25)
	}
}

func (r *renderer) left() float64 { return marginX + r.indent }

// space adds vertical space unless at the top of a page.
func (r *renderer) space(h float64) {
	if r.f.GetY() > marginTop+0.1 {
		r.f.Ln(h)
	}
}

// remaining is the height left on the page.
func (r *renderer) remaining() float64 {
	_, pageH := r.f.GetPageSize()
	return pageH - marginBottom - r.f.GetY()
}

// keep starts a new page unless h millimetres fit on this one.
func (r *renderer) keep(h float64) {
	if r.remaining() < h {
		r.f.AddPage()
	}
}

func (r *renderer) block(n ast.Node, depth int) {
	switch n := n.(type) {
	case *ast.Heading:
		r.heading(n)
	case *ast.Paragraph, *ast.TextBlock:
		r.paragraph(n)
		r.f.Ln(2)
	case *ast.List:
		r.list(n, depth)
		r.f.Ln(1.5)
	case *ast.Blockquote:
		r.blockquote(n, depth)
	case *ast.FencedCodeBlock:
		r.codeBlock(n.Lines())
	case *ast.CodeBlock:
		r.codeBlock(n.Lines())
	case *ast.ThematicBreak:
		r.space(1)
		y := r.f.GetY() + 1
		r.f.SetDrawColor(170, 170, 170)
		r.f.SetLineWidth(0.3)
		r.f.Line(r.left(), y, marginX+r.width, y)
		r.f.Ln(5)
	case *east.Table:
		r.table(n)
	case *ast.HTMLBlock:
		var b strings.Builder
		for i := 0; i < n.Lines().Len(); i++ {
			seg := n.Lines().At(i)
			b.Write(seg.Value(r.src))
		}
		r.plainParagraph(b.String())
	default:
		for c := n.FirstChild(); c != nil; c = c.NextSibling() {
			r.block(c, depth)
		}
	}
}

var headingSizes = map[int]float64{1: 17, 2: 14, 3: 12, 4: 10.5, 5: 10, 6: 10}

func (r *renderer) heading(h *ast.Heading) {
	size := headingSizes[h.Level]
	if size == 0 {
		size = bodySize
	}
	lineH := size * 0.5
	before := map[int]float64{1: 5, 2: 4, 3: 3, 4: 2}[h.Level]
	r.space(before)
	// A heading keeps with what follows: at least three lines of text, or a
	// table's header and first row, never alone at the foot of a page.
	r.keep(lineH + 4*bodyLine + 6)
	label := strings.TrimSpace(r.plain(h))
	if label != "" && h.Level <= 3 {
		r.f.Bookmark(label, h.Level-1, -1)
	}
	r.size, r.lineH = size, lineH
	r.bold++
	r.setFont()
	r.f.SetLeftMargin(r.left())
	r.f.SetX(r.left())
	r.inHeading = true
	r.inlines(h)
	r.inHeading = false
	r.bold--
	r.f.Ln(lineH)
	if h.Level <= 2 {
		y := r.f.GetY() + 0.5
		r.f.SetDrawColor(190, 190, 190)
		r.f.SetLineWidth(0.25)
		r.f.Line(r.left(), y, marginX+r.width, y)
		r.f.Ln(2)
	}
	r.f.Ln(1)
	r.size, r.lineH = bodySize, bodyLine
	r.setFont()
}

func (r *renderer) paragraph(n ast.Node) {
	r.f.SetLeftMargin(r.left())
	r.f.SetX(r.left())
	r.setFont()
	r.inlines(n)
	r.f.Ln(r.lineH)
}

func (r *renderer) plainParagraph(s string) {
	r.f.SetLeftMargin(r.left())
	r.f.SetX(r.left())
	r.setFont()
	r.pieces(r.shown(clean(strings.TrimSpace(s)), r.family, r.style))
	r.f.Ln(r.lineH + 2)
}

func (r *renderer) list(l *ast.List, depth int) {
	n := l.Start
	if n == 0 {
		n = 1
	}
	for item := l.FirstChild(); item != nil; item = item.NextSibling() {
		marker := "•"
		if depth%2 == 1 {
			marker = "◦"
		}
		if l.IsOrdered() {
			marker = fmt.Sprintf("%d.", n)
			n++
		}
		r.listItem(item, marker, depth)
		if !l.IsTight {
			r.f.Ln(1.5)
		}
	}
}

func (r *renderer) listItem(item ast.Node, marker string, depth int) {
	r.keep(r.lineH)
	r.setFont()
	markerW := listIndent
	if w := r.f.GetStringWidth(marker) + 2; w > markerW {
		markerW = w
	}
	x := r.left()
	r.f.SetX(x)
	r.f.CellFormat(markerW, r.lineH, marker, "", 0, "L", false, 0, "")
	saved := r.indent
	r.indent += markerW
	first := true
	for c := item.FirstChild(); c != nil; c = c.NextSibling() {
		switch c := c.(type) {
		case *ast.Paragraph, *ast.TextBlock:
			if first {
				// The text starts on the marker's line.
				r.f.SetLeftMargin(r.left())
				r.setFont()
				r.inlines(c)
				r.f.Ln(r.lineH)
			} else {
				r.paragraph(c)
			}
			if _, ok := c.(*ast.Paragraph); ok && c.NextSibling() != nil {
				r.f.Ln(1)
			}
		case *ast.List:
			if first {
				r.f.Ln(r.lineH)
			}
			r.list(c, depth+1)
		default:
			if first {
				r.f.Ln(r.lineH)
			}
			r.block(c, depth+1)
		}
		first = false
	}
	if first {
		r.f.Ln(r.lineH)
	}
	r.indent = saved
	r.f.SetLeftMargin(r.left())
	r.f.Ln(0.8)
}

func (r *renderer) blockquote(q *ast.Blockquote, depth int) {
	r.space(1)
	page, y0 := r.f.PageNo(), r.f.GetY()
	saved := r.indent
	r.indent += quoteIndent
	r.grey = true
	for c := q.FirstChild(); c != nil; c = c.NextSibling() {
		r.block(c, depth)
	}
	r.grey = false
	r.indent = saved
	r.f.SetLeftMargin(r.left())
	y1 := r.f.GetY() - 2
	if r.f.PageNo() != page {
		y0 = marginTop
	}
	if y1 > y0 {
		r.f.SetDrawColor(150, 170, 210)
		r.f.SetLineWidth(0.8)
		x := r.left() + 1.5
		r.f.Line(x, y0, x, y1)
	}
	r.setFont()
	r.f.Ln(1)
}

func (r *renderer) codeBlock(lines *text.Segments) {
	var b strings.Builder
	for i := 0; i < lines.Len(); i++ {
		seg := lines.At(i)
		b.Write(seg.Value(r.src))
	}
	body := strings.TrimRight(r.shown(clean(b.String()), mono, ""), "\n")
	r.space(1)
	r.f.SetFont(mono, "", codeSize)
	r.f.SetTextColor(30, 30, 30)
	r.f.SetFillColor(243, 243, 243)
	r.f.SetLeftMargin(r.left())
	avail := r.width - r.indent - 2*r.f.GetCellMargin() - r.f.GetStringWidth("  ")
	for _, line := range strings.Split(body, "\n") {
		for i, piece := range r.wrapCode(line, avail) {
			if i > 0 {
				piece = "  " + piece // a continuation, indented
			}
			r.f.SetX(r.left())
			r.f.CellFormat(r.width-r.indent, codeLine, " "+piece, "", 1, "L", true, 0, "")
		}
	}
	r.f.Ln(3)
	r.setFont()
}

// wrapCode breaks a line of code to width millimetres at word boundaries
// (after a space, or after / , ; : . - when a word is longer than a line),
// and mid-word only when a single word is wider than the line.
func (r *renderer) wrapCode(line string, width float64) []string {
	if r.f.GetStringWidth(line) <= width {
		return []string{line}
	}
	// Widths are summed a character at a time: measuring each prefix
	// anew made a long line cost the square of its length.
	var out []string
	for line != "" {
		w, cut, end := 0.0, 0, len(line)
		for i, c := range line {
			w += r.f.GetStringWidth(string(c))
			if w > width {
				end = i
				break
			}
			if next := i + utf8.RuneLen(c); next < len(line) && (c == ' ' || strings.ContainsRune("/,;:.-", c)) {
				cut = next
			}
		}
		if end == len(line) {
			return append(out, line)
		}
		if cut == 0 { // one word wider than the line: cut where it overflows
			cut = end
			if cut == 0 { // not even its first character fits
				_, cut = utf8.DecodeRuneInString(line)
			}
		}
		out = append(out, strings.TrimRight(line[:cut], " "))
		line = strings.TrimLeft(line[cut:], " ")
	}
	return out
}

// inlines writes the inline children of n with their styles.
func (r *renderer) inlines(n ast.Node) {
	for c := n.FirstChild(); c != nil; c = c.NextSibling() {
		r.inline(c)
	}
}

func (r *renderer) inline(n ast.Node) {
	switch n := n.(type) {
	case *ast.Text:
		r.write(string(n.Segment.Value(r.src)))
		if n.HardLineBreak() || n.SoftLineBreak() {
			// Parley's documents put each "**Label:** value" on a line of
			// its own: a line break in the Markdown is one on the page.
			r.f.Ln(r.lineH)
		}
	case *ast.String:
		r.write(string(n.Value))
	case *ast.Emphasis:
		if n.Level >= 2 {
			r.bold++
		} else {
			r.italic++
		}
		r.setFont()
		r.inlines(n)
		if n.Level >= 2 {
			r.bold--
		} else {
			r.italic--
		}
		r.setFont()
	case *ast.CodeSpan:
		r.code++
		r.setFont()
		r.write(r.plain(n))
		r.code--
		r.setFont()
	case *ast.Link:
		r.link = webLink(string(n.Destination))
		r.setFont()
		r.inlines(n)
		r.link = ""
		r.setFont()
	case *ast.AutoLink:
		r.link = webLink(string(n.URL(r.src)))
		r.setFont()
		r.write(string(n.Label(r.src)))
		r.link = ""
		r.setFont()
	case *ast.Image:
		r.italic++
		r.setFont()
		r.write("[image: " + r.plain(n) + "]")
		r.italic--
		r.setFont()
	case *ast.RawHTML:
		for i := 0; i < n.Segments.Len(); i++ {
			seg := n.Segments.At(i)
			r.write(string(seg.Value(r.src)))
		}
	default:
		r.inlines(n)
	}
}

// webLink is dest if it is a web or mail address (http, https, mailto),
// else "": a PDF reader opens a link's destination when it is clicked, and
// hands a javascript: one to its script engine, a file: one or a relative
// one (resolved against the PDF's folder) to the file system. The
// destinations come from model output; the other links' text is printed
// unlinked.
func webLink(dest string) string {
	scheme, _, ok := strings.Cut(dest, ":")
	if !ok {
		return ""
	}
	switch strings.ToLower(scheme) {
	case "http", "https", "mailto":
		return dest
	}
	return ""
}

func (r *renderer) write(s string) {
	s = r.shown(clean(s), r.family, r.style)
	if math.Abs(r.f.GetX()-r.left()) < 0.01 {
		// At the start of a line, as after an emoji that began a heading.
		s = strings.TrimLeft(s, " ")
	}
	r.pieces(s)
}

// pieces writes s, shown already, in pieces of at most maxWrite bytes (see
// there), as a link when the renderer is in one.
func (r *renderer) pieces(s string) {
	for s != "" {
		n := pieceLen(s)
		if r.link != "" {
			r.f.WriteLinkString(r.lineH, s[:n], r.link)
		} else {
			r.f.Write(r.lineH, s[:n])
		}
		s = s[n:]
	}
}

// maxWrite and maxWord bound the bytes of text given to one fpdf Write
// call. fpdf converts the whole string to runes again for every character
// it lays out ([]rune(s)[i]), so one call costs the square of its length: a
// model's reply of a megabyte in one paragraph took hours, and pieces of
// 512 bytes still a second for each 256 KB (and 2.5 KB of garbage for each
// character). Pieces of maxWrite bytes, cut after a space, keep the cost
// low; a word is kept whole up to maxWord bytes, and fpdf's wrapping goes
// on across calls from where the last one stopped, so the lines are those
// one call would lay out.
const (
	maxWrite = 64
	maxWord  = 512
)

// pieceLen is the length of the first piece of s to write: all of s when it
// is at most maxWrite bytes, else up to and including the last line break
// or space within maxWrite bytes, or the first within maxWord bytes, so
// that words stay whole; a word longer than maxWord is cut at a character
// boundary.
func pieceLen(s string) int {
	if len(s) <= maxWrite {
		return len(s)
	}
	if i := strings.LastIndexAny(s[:maxWrite], " \n"); i > 0 {
		return i + 1
	}
	if i := strings.IndexAny(s[:min(len(s), maxWord)], " \n"); i > 0 {
		return i + 1
	}
	if len(s) <= maxWord {
		return len(s)
	}
	n := maxWord
	for n > 1 && !utf8.RuneStart(s[n]) {
		n--
	}
	return n
}

// plain is the text of n without markup.
func (r *renderer) plain(n ast.Node) string {
	var b strings.Builder
	var walk func(ast.Node)
	walk = func(n ast.Node) {
		switch n := n.(type) {
		case *ast.Text:
			b.Write(n.Segment.Value(r.src))
			if n.SoftLineBreak() || n.HardLineBreak() {
				b.WriteByte(' ')
			}
			return
		case *ast.String:
			b.Write(n.Value)
			return
		case *ast.AutoLink:
			b.Write(n.Label(r.src))
			return
		case *ast.RawHTML:
			for i := 0; i < n.Segments.Len(); i++ {
				seg := n.Segments.At(i)
				b.Write(seg.Value(r.src))
			}
			return
		}
		for c := n.FirstChild(); c != nil; c = c.NextSibling() {
			walk(c)
		}
	}
	walk(n)
	return clean(b.String())
}

// clean drops what prints nothing of its own: the joiners, variation
// selectors, skin tones and tags that go with emoji (the emoji themselves
// are kept, for shown), control characters and invalid UTF-8. Tabs become
// spaces.
func clean(s string) string {
	if !strings.ContainsFunc(s, needsCleaning) && utf8.ValidString(s) {
		return s
	}
	var b strings.Builder
	for _, c := range s {
		switch {
		case c == '\t':
			b.WriteString("    ")
		case c == '\n':
			b.WriteRune(c)
		case needsCleaning(c):
		default:
			b.WriteRune(c)
		}
	}
	return b.String()
}

func needsCleaning(c rune) bool {
	switch {
	case c == utf8.RuneError:
		return true
	case c >= 0x1F3FB && c <= 0x1F3FF, c >= 0xE0000 && c <= 0xE007F: // skin tones, tags
		return true
	case c < 0x20 && c != '\n':
		return true
	case c == 0x200D, c >= 0xFE00 && c <= 0xFE0F, c == 0x7F:
		return true
	}
	return false
}

// shown returns s with each character the font of family and style has
// no glyph for written as its code point, as textsafe writes the
// characters it shows ("⟨U+4E2D⟩"), and notes the first such character
// for the note at the end of the document. In a heading, emoji are dropped
// instead (see the package comment).
func (r *renderer) shown(s, family, style string) string {
	if !r.rtl && strings.ContainsFunc(s, rightToLeft) {
		r.rtl = true
	}
	g := r.fonts[family+style]
	if g == nil {
		g = r.fonts[family]
	}
	if g == nil || !strings.ContainsFunc(s, func(c rune) bool { return c > 0x7E && !g.has(c) }) {
		return s
	}
	var b strings.Builder
	for _, c := range s {
		if c > 0x7E && !g.has(c) {
			if name := controlName(c); name != "" {
				// Not a character of the text, which the note at
				// the end is about, but how every view shows a
				// control character (textsafe.Clean's "␛"), which
				// DejaVu has no glyph for: "⟨U+241B⟩" read as a
				// character the PDF could not print.
				b.WriteString("⟨" + name + "⟩")
				continue
			}
			if r.inHeading && c > 0xFFFF && unicode.IsSymbol(c) {
				continue
			}
			if r.missing == 0 {
				r.missing = c
			}
			b.WriteString(codePoint(c))
			continue
		}
		b.WriteRune(c)
	}
	return b.String()
}

// rightToLeft reports the letters of the scripts written right to left
// that the fonts have glyphs for, or may: fpdf lays them out left to right,
// unshaped (see renderer.rtl).
func rightToLeft(c rune) bool {
	return c >= 0x0590 && c <= 0x08ff && unicode.In(c, unicode.Hebrew, unicode.Arabic, unicode.Syriac, unicode.Thaana, unicode.Nko, unicode.Samaritan, unicode.Mandaic) ||
		c >= 0xfb1d && c <= 0xfefc && unicode.In(c, unicode.Hebrew, unicode.Arabic)
}

// controlNames are the abbreviations of the control characters U+0000 to
// U+0020 and U+007F, which the control pictures U+2400 to U+2421 picture
// (their Unicode names: "SYMBOL FOR ESCAPE" is ␛, ESC).
var controlNames = [...]string{"NUL", "SOH", "STX", "ETX", "EOT", "ENQ", "ACK", "BEL", "BS", "HT", "LF", "VT", "FF", "CR", "SO", "SI",
	"DLE", "DC1", "DC2", "DC3", "DC4", "NAK", "SYN", "ETB", "CAN", "EM", "SUB", "ESC", "FS", "GS", "RS", "US", "SP", "DEL"}

// controlName is the abbreviation of the control character the control
// picture c pictures ("ESC" for ␛, "NL" for ␤), "" when c is none.
func controlName(c rune) string {
	switch {
	case c >= 0x2400 && c <= 0x2421:
		return controlNames[c-0x2400]
	case c == 0x2424:
		return "NL"
	}
	return ""
}

// codePoint is how shown writes c.
func codePoint(c rune) string { return fmt.Sprintf("⟨U+%04X⟩", c) }
