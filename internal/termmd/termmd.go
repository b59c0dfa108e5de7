// Package termmd renders Markdown for a terminal: headings, paragraphs,
// emphasis, code, lists, block quotes, links, rules and GFM tables, wrapped
// to a width in display cells.
//
// It exists so that the shell does not link glamour. Glamour imports chroma,
// whose lexers and styles packages parse some 300 embedded XML files when
// the program starts, and Go runs a linked package's initialisation whether
// or not it is used: every command paid for it, `parley af` included, whose
// start-up is measured against an ICCMA solver. Measured with
// GODEBUG=inittrace=1, chroma/styles took 7.0 ms, chroma/lexers 6.0 ms and
// bluemonday with gorilla/css 1.3 ms before main. This package is built on
// goldmark's parser (linked already, for the server's HTML) and lipgloss,
// and does no work until it is called.
//
// The text it renders is untrusted (model output): every control character
// in it is made visible (see textsafe) before it reaches the output, raw
// HTML included, which is shown as text. Code blocks are shown as written,
// without syntax highlighting, and are cut at the width rather than wrapped.
package termmd

import (
	"bytes"
	"fmt"
	"image/color"
	"math"
	"strconv"
	"strings"

	"charm.land/lipgloss/v2"
	"github.com/charmbracelet/colorprofile"
	"github.com/charmbracelet/x/ansi"
	"github.com/yuin/goldmark"
	"github.com/yuin/goldmark/ast"
	"github.com/yuin/goldmark/extension"
	east "github.com/yuin/goldmark/extension/ast"
	"github.com/yuin/goldmark/parser"
	"github.com/yuin/goldmark/text"
	"github.com/yuin/goldmark/util"

	"github.com/parleyhq/parley/internal/textsafe"
)

// Styles are how each construct looks. A zero Style adds no escape codes,
// so Plain, whose styles are all zero, renders text without any.
type Styles struct {
	// Heading is the style of heading levels 1 to 6. Headings keep their
	// "#" marks, so that levels differ without colour too.
	Heading [6]lipgloss.Style
	Strong  lipgloss.Style
	Emph    lipgloss.Style
	Strike  lipgloss.Style
	Code    lipgloss.Style // code spans
	Block   lipgloss.Style // code blocks
	Link    lipgloss.Style // a link's text
	URL     lipgloss.Style // a link's destination, after its text
	Quote   lipgloss.Style // the bar before quoted lines
	Bullet  lipgloss.Style // list bullets and numbers
	Rule    lipgloss.Style // thematic breaks
	THead   lipgloss.Style // table header cells
	TBorder lipgloss.Style // table rules and column separators
	HTML    lipgloss.Style // raw HTML, shown as text
	// Marks keeps the marks of strikethrough (~~) and code spans (`),
	// whose meaning would be lost without styles to show it.
	Marks bool
}

// Plain is the look without colour or other attributes: structure only
// (heading marks, bullets, numbers, indentation, quote bars, table rules).
func Plain() Styles { return Styles{Marks: true} }

// Dark is the look on a dark background, in the shell's dark palette.
func Dark() Styles {
	return colored(palette{
		h1: "#8AB4F8", h3: "#61AFEF", h4: "#ABB2BF",
		code: "#E5C07B", codeBg: "#303030", block: "#ABB2BF",
		link: "#61AFEF", grey: "#7F848E", bullet: "#56B6C2",
	})
}

// Light is the look on a light background, in the shell's light palette:
// the dark palette's hues, darkened until they read on white.
func Light() Styles {
	return colored(palette{
		h1: "#0550AE", h3: "#0969DA", h4: "#424A53",
		code: "#953800", codeBg: "#EEEEEE", block: "#424A53",
		link: "#0969DA", grey: "#57606A", bullet: "#006D77",
	})
}

// palette is the colours of a coloured look. Every colour is text, so each
// keeps a contrast ratio of at least 4.5:1 (WCAG AA) with the background
// it is meant for, the code colour with its own background, also as the
// nearest colour a 256-colour terminal (macOS Terminal) has.
type palette struct {
	h1, h3, h4   string // headings 1 and 2, 3, 4 to 6
	code, codeBg string // code spans
	block        string // code blocks
	link         string
	grey         string // URLs, quote bars, rules, table borders
	bullet       string
}

func colored(p palette) Styles {
	c := lipgloss.Color
	bold := lipgloss.NewStyle().Bold(true)
	grey := lipgloss.NewStyle().Foreground(c(p.grey))
	return Styles{
		Heading: [6]lipgloss.Style{
			bold.Foreground(c(p.h1)).Underline(true),
			bold.Foreground(c(p.h1)),
			bold.Foreground(c(p.h3)),
			bold.Foreground(c(p.h4)),
			bold.Foreground(c(p.h4)),
			bold.Foreground(c(p.h4)),
		},
		Strong:  bold,
		Emph:    lipgloss.NewStyle().Italic(true),
		Strike:  lipgloss.NewStyle().Strikethrough(true).Faint(true),
		Code:    lipgloss.NewStyle().Foreground(c(p.code)).Background(c(p.codeBg)),
		Block:   lipgloss.NewStyle().Foreground(c(p.block)),
		Link:    lipgloss.NewStyle().Foreground(c(p.link)).Underline(true),
		URL:     grey,
		Quote:   grey,
		Bullet:  lipgloss.NewStyle().Foreground(c(p.bullet)),
		Rule:    grey,
		THead:   bold,
		TBorder: grey,
		HTML:    lipgloss.NewStyle().Faint(true),
	}
}

// Contrast is the WCAG 2 contrast ratio of two colours, from 1 (the same
// luminance) to 21 (black on white); text wants at least 4.5.
func Contrast(a, b color.Color) float64 {
	la, lb := luminance(a), luminance(b)
	if la < lb {
		la, lb = lb, la
	}
	return (la + 0.05) / (lb + 0.05)
}

// MinContrast is the contrast ratio text needs to be read (WCAG 2 AA).
const MinContrast = 4.5

// Legible reports why text in fg on bg would be hard to read, or nil: a
// contrast below MinContrast as given, or as a 256-colour terminal (macOS
// Terminal) shows the two (the nearest of its colours), or a colour that
// turns grey there, or a grey background that takes on a hue. Palettes are
// checked with it in tests, so that both looks stay readable wherever the
// shell runs.
func Legible(fg, bg color.Color) error {
	fg256, bg256 := colorprofile.ANSI256.Convert(fg), colorprofile.ANSI256.Convert(bg)
	for _, c := range []struct {
		how    string
		fg, bg color.Color
	}{{"", fg, bg}, {" with 256 colours", fg256, bg256}} {
		if r := Contrast(c.fg, c.bg); r < MinContrast {
			return fmt.Errorf("contrast%s %.2f:1 of %s on %s, want at least %.1f:1", c.how, r, hex(c.fg), hex(c.bg), MinContrast)
		}
	}
	if grey(fg256) && !grey(fg) {
		return fmt.Errorf("%s turns grey (%s) with 256 colours", hex(fg), hex(fg256))
	}
	if grey(bg) && !grey(bg256) {
		return fmt.Errorf("the grey background %s turns %s with 256 colours", hex(bg), hex(bg256))
	}
	return nil
}

// grey reports whether c has (almost) no hue.
func grey(c color.Color) bool {
	r, g, b, _ := c.RGBA()
	hi, lo := max(r, g, b)>>8, min(r, g, b)>>8
	return hi-lo < 0x20
}

func hex(c color.Color) string {
	r, g, b, _ := c.RGBA()
	return fmt.Sprintf("#%02X%02X%02X", r>>8, g>>8, b>>8)
}

// luminance is a colour's relative luminance (WCAG 2, from sRGB).
func luminance(c color.Color) float64 {
	r, g, b, _ := c.RGBA()
	lin := func(v uint32) float64 {
		x := float64(v) / 0xffff
		if x <= 0.04045 {
			return x / 12.92
		}
		return math.Pow((x+0.055)/1.055, 2.4)
	}
	return 0.2126*lin(r) + 0.7152*lin(g) + 0.0722*lin(b)
}

// Renderer renders Markdown with one look. Its parser is built once, by New.
type Renderer struct {
	st Styles
	md parser.Parser
}

// New returns a renderer with the styles st: CommonMark with GFM tables,
// strikethrough and task lists.
func New(st Styles) *Renderer {
	md := goldmark.New(goldmark.WithExtensions(extension.Table, extension.Strikethrough, extension.TaskList))
	return &Renderer{st: st, md: md.Parser()}
}

// minWidth is the narrowest a block's text is laid out at; deeper nesting
// than a width allows is cut at the width instead (see fit).
const minWidth = 4

// Render renders src for a terminal width columns wide: lines joined by
// "\n", none wider than width display cells, without a trailing newline.
func (r *Renderer) Render(src string, width int) string {
	if width < 1 {
		width = 1
	}
	source := []byte(textsafe.Shallow(src))
	doc := r.md.Parse(text.NewReader(source))
	flatten(doc, maxNesting)
	w := &walker{st: r.st, src: source}
	lines := w.blocks(doc, width, false)
	for i, l := range lines {
		lines[i] = fit(l, width)
	}
	for len(lines) > 0 && lines[len(lines)-1] == "" {
		lines = lines[:len(lines)-1]
	}
	return strings.Join(lines, "\n")
}

// fit cuts a line wider than width; layout keeps lines within the width
// but for code blocks and nesting deeper than the width allows.
func fit(line string, width int) string {
	line = strings.TrimRight(line, " ")
	if ansi.StringWidth(line) <= width {
		return line
	}
	return ansi.Truncate(line, width, "…")
}

type walker struct {
	st  Styles
	src []byte
	// nest is how many block quotes and lists enclose the block being
	// laid out, up to maxNesting; lists counts the lists among them.
	nest, lists int
}

// maxNesting bounds the block quotes and lists laid out one inside another
// (textsafe.Shallow bounds those one line opens, not those indentation
// opens line after line). Deeper ones go on without a bar or a mark: each
// level added one to every line below it and walked up its ancestors, so
// the cost grew with the square of the depth, and the text was cut at the
// width anyway.
const maxNesting = 32

// flatten replaces the emphasis and strikethrough spans of doc nested more
// than max deep by what they hold, without recursion. Delimiters match in
// pairs however deep ("*a **a *a … b … a* a** a*"), and the walker
// recursed once for each span, a few kilobytes of stack each: a reply of a
// megabyte of them (150,000 deep) overflowed the goroutine's stack, which
// kills the process. Spans so deep show as they would at max: the same
// emphasis, and bold, as the ones around them.
func flatten(doc ast.Node, max int) {
	span := func(n ast.Node) bool {
		switch n.(type) {
		case *ast.Emphasis, *east.Strikethrough:
			return true
		}
		return false
	}
	depth := 0 // the spans enclosing n
	n := doc.FirstChild()
	for n != nil {
		var done ast.Node // a node whose subtree is walked
		switch {
		case span(n) && depth >= max:
			// Its children take its place; the walk goes on at the first.
			parent, next := n.Parent(), n.FirstChild()
			for c := n.FirstChild(); c != nil; {
				after := c.NextSibling()
				parent.InsertBefore(parent, n, c)
				c = after
			}
			if next == nil {
				next = n.NextSibling()
			}
			parent.RemoveChild(parent, n)
			if next != nil {
				n = next
				continue
			}
			// Nothing after it: its parent is done.
			if parent == doc {
				return
			}
			if span(parent) {
				depth--
			}
			done = parent
		case n.FirstChild() != nil:
			if span(n) {
				depth++
			}
			n = n.FirstChild()
			continue
		default:
			done = n
		}
		// Go on at the next sibling of done, or of the first of its
		// parents that has one, leaving the spans on the way.
		for done.NextSibling() == nil {
			done = done.Parent()
			if done == doc {
				return
			}
			if span(done) {
				depth--
			}
		}
		n = done.NextSibling()
	}
}

// blocks lays out the block children of n, a blank line between them; in
// a tight list item there is none.
func (w *walker) blocks(n ast.Node, width int, tight bool) []string {
	var out []string
	for c := n.FirstChild(); c != nil; c = c.NextSibling() {
		lines := w.block(c, width)
		if len(lines) == 0 {
			continue
		}
		if len(out) > 0 && !tight {
			out = append(out, "")
		}
		out = append(out, lines...)
	}
	return out
}

func (w *walker) block(n ast.Node, width int) []string {
	switch n := n.(type) {
	case *ast.Paragraph, *ast.TextBlock:
		return wrap(w.inline(n, lipgloss.NewStyle()), width)
	case *ast.Heading:
		level := min(max(n.Level, 1), 6)
		st := w.st.Heading[level-1]
		marks := strings.Repeat("#", level) + " "
		return wrap(styled(st, marks)+w.inline(n, st), width)
	case *ast.ThematicBreak:
		return []string{styled(w.st.Rule, strings.Repeat("─", width))}
	case *ast.CodeBlock, *ast.FencedCodeBlock:
		return w.code(n, width)
	case *ast.HTMLBlock:
		var b strings.Builder
		writeLines(&b, n.Lines(), w.src)
		if n.HasClosure() {
			b.Write(n.ClosureLine.Value(w.src))
		}
		var out []string
		for _, l := range strings.Split(strings.TrimRight(b.String(), "\n"), "\n") {
			out = append(out, wrap(styled(w.st.HTML, safe(l)), width)...)
		}
		return out
	case *ast.Blockquote:
		if w.nest >= maxNesting {
			return w.blocks(n, width, false)
		}
		bar := styled(w.st.Quote, "│")
		w.nest++
		lines := w.blocks(n, max(width-2, minWidth), false)
		w.nest--
		for i, l := range lines {
			if l == "" {
				lines[i] = bar
			} else {
				lines[i] = bar + " " + l
			}
		}
		return lines
	case *ast.List:
		return w.list(n, width)
	case *east.Table:
		return w.table(n, width)
	}
	if n.Type() == ast.TypeBlock || n.Type() == ast.TypeDocument {
		return w.blocks(n, width, false)
	}
	return wrap(w.inline(n, lipgloss.NewStyle()), width)
}

// code lays out a code block indented by two columns, each line cut at
// the width: wrapping code would change what it says.
func (w *walker) code(n ast.Node, width int) []string {
	var b strings.Builder
	writeLines(&b, n.Lines(), w.src)
	var out []string
	for _, l := range strings.Split(strings.TrimRight(b.String(), "\n"), "\n") {
		l = strings.TrimRight(safe(l), " ")
		if l == "" {
			out = append(out, "")
			continue
		}
		indent := "  "
		if width < 2+minWidth {
			indent = ""
		}
		if ansi.StringWidth(l) > width-len(indent) {
			l = ansi.Truncate(l, width-len(indent), "…")
		}
		out = append(out, indent+styled(w.st.Block, l))
	}
	return out
}

func writeLines(b *strings.Builder, lines *text.Segments, src []byte) {
	for i := range lines.Len() {
		seg := lines.At(i)
		b.Write(seg.Value(src))
	}
}

// bullets are the list bullets by depth.
var bullets = [...]string{"•", "◦", "▪"}

// list lays out a list: each item's lines after its bullet or number,
// wrapped lines and nested blocks under the item's text (a hanging indent).
func (w *walker) list(n *ast.List, width int) []string {
	if w.nest >= maxNesting {
		// Too deep to mark: each mark would go before those of the
		// lists around it, on a line cut at the width anyway.
		return w.blocks(n, width, false)
	}
	depth := w.lists
	count := n.ChildCount()
	markW := 1
	if n.IsOrdered() {
		markW = len(strconv.Itoa(n.Start+count-1)) + 1
	}
	indent := markW + 1
	if width-indent < minWidth {
		indent = 0 // too narrow to indent: the marks stand on their own lines' starts
	}
	w.nest++
	w.lists++
	defer func() { w.nest--; w.lists-- }()
	var out []string
	num := n.Start
	for item := n.FirstChild(); item != nil; item = item.NextSibling() {
		mark := bullets[depth%len(bullets)]
		if n.IsOrdered() {
			mark = strconv.Itoa(num) + string(n.Marker)
			mark = strings.Repeat(" ", markW-ansi.StringWidth(mark)) + mark
			num++
		}
		lines := w.blocks(item, max(width-indent, minWidth), n.IsTight)
		if len(out) > 0 && !n.IsTight {
			out = append(out, "")
		}
		if len(lines) == 0 {
			lines = []string{""}
		}
		for i, l := range lines {
			switch {
			case i == 0 && indent == 0:
				out = append(out, styled(w.st.Bullet, mark)+" "+l)
			case i == 0:
				out = append(out, styled(w.st.Bullet, mark)+strings.Repeat(" ", indent-markW)+l)
			case l == "":
				out = append(out, "")
			default:
				out = append(out, strings.Repeat(" ", indent)+l)
			}
		}
	}
	return out
}

// wrap breaks styled text into lines of at most width cells, at spaces,
// breaking a word only when it is longer than a line; styles carry over
// line breaks. Hard line breaks are kept.
//
// Hyphens are held while the text is wrapped: ansi.Wrap breaks after
// every hyphen, which leaves the minus of "-2.0 pts" alone at the end of
// a line, and past the width when a hyphenated word ends a line. A line
// it still leaves too wide is broken at the width.
func wrap(s string, width int) []string {
	if s == "" {
		return nil
	}
	held := strings.Contains(s, "-") && !strings.ContainsRune(s, heldHyphen)
	if held {
		s = strings.ReplaceAll(s, "-", string(heldHyphen))
	}
	lines := strings.Split(ansi.Wrap(s, width, ""), "\n")
	for i, l := range lines {
		if ansi.StringWidth(l) > width {
			lines[i] = ansi.Hardwrap(l, width, false)
		}
	}
	s = strings.Join(lines, "\n")
	if held {
		s = strings.ReplaceAll(s, string(heldHyphen), "-")
	}
	// Each line ends its styles and the next starts them again, so that
	// a line can be indented or cut without the style running over.
	var b strings.Builder
	ww := lipgloss.NewWrapWriter(&b)
	_, _ = ww.Write([]byte(s))
	_ = ww.Close()
	lines = strings.Split(b.String(), "\n")
	for i, l := range lines {
		lines[i] = strings.TrimRight(l, " ")
	}
	return lines
}

// heldHyphen stands in for a hyphen while text is wrapped: a private-use
// character, one cell wide like the hyphen.
const heldHyphen = '\uE000'

// styled renders s in st's attributes and colours; a zero style adds
// nothing. The SGR sequence is built here rather than by st.Render, which
// styles each letter of underlined or struck-through text on its own.
func styled(st lipgloss.Style, s string) string {
	if s == "" {
		return ""
	}
	return sgr(st).Styled(s)
}

// sgr is the SGR style of st's text attributes and colours (its other
// properties, such as padding, do not apply to a run of text).
func sgr(st lipgloss.Style) ansi.Style {
	var a ansi.Style
	if st.GetBold() {
		a = a.Bold()
	}
	if st.GetFaint() {
		a = a.Faint()
	}
	if st.GetItalic() {
		a = a.Italic(true)
	}
	if st.GetUnderline() {
		a = a.Underline(true)
	}
	if st.GetStrikethrough() {
		a = a.Strikethrough(true)
	}
	if st.GetReverse() {
		a = a.Reverse(true)
	}
	if c := st.GetForeground(); !noColor(c) {
		a = a.ForegroundColor(c)
	}
	if c := st.GetBackground(); !noColor(c) {
		a = a.BackgroundColor(c)
	}
	return a
}

func noColor(c color.Color) bool {
	_, none := c.(lipgloss.NoColor)
	return c == nil || none
}

// safe makes untrusted text inert for the terminal (control characters
// made visible) and expands tabs, whose width terminals disagree on.
func safe(s string) string {
	return strings.ReplaceAll(textsafe.Clean(s), "\t", "    ")
}

// inline renders n's inline children as one styled string, each run of
// text in its own style merged with those of the spans around it (ANSI
// styles do not nest: an inner reset would end the outer span).
func (w *walker) inline(n ast.Node, st lipgloss.Style) string {
	var b strings.Builder
	w.inlines(&b, n, st)
	return b.String()
}

func (w *walker) inlines(b *strings.Builder, n ast.Node, st lipgloss.Style) {
	for c := n.FirstChild(); c != nil; c = c.NextSibling() {
		w.inlineNode(b, c, st)
	}
}

func (w *walker) inlineNode(b *strings.Builder, n ast.Node, st lipgloss.Style) {
	switch n := n.(type) {
	case *ast.Text:
		b.WriteString(styled(st, safe(string(unescape(n.Value(w.src))))))
		switch {
		case n.HardLineBreak():
			b.WriteByte('\n')
		case n.SoftLineBreak():
			b.WriteByte(' ')
		}
	case *ast.String:
		v := n.Value
		if !n.IsCode() && !n.IsRaw() {
			v = unescape(v)
		}
		b.WriteString(styled(st, safe(string(v))))
	case *ast.CodeSpan:
		var code strings.Builder
		for c := n.FirstChild(); c != nil; c = c.NextSibling() {
			if t, ok := c.(*ast.Text); ok {
				code.Write(t.Segment.Value(w.src))
			}
		}
		v := strings.ReplaceAll(safe(code.String()), "\n", " ")
		if w.st.Marks {
			v = "`" + v + "`"
		}
		b.WriteString(styled(w.st.Code.Inherit(st), v))
	case *ast.Emphasis:
		es := w.st.Emph
		if n.Level >= 2 {
			es = w.st.Strong
		}
		w.inlines(b, n, es.Inherit(st))
	case *east.Strikethrough:
		ss := w.st.Strike.Inherit(st)
		if w.st.Marks {
			b.WriteString(styled(ss, "~~"))
		}
		w.inlines(b, n, ss)
		if w.st.Marks {
			b.WriteString(styled(ss, "~~"))
		}
	case *ast.Link:
		label := w.plainText(n)
		w.inlines(b, n, w.st.Link.Inherit(st))
		w.url(b, string(unescape(n.Destination)), label, st)
	case *ast.Image:
		b.WriteString(styled(st, "[image: "))
		w.inlines(b, n, w.st.Link.Inherit(st))
		b.WriteString(styled(st, "]"))
		w.url(b, string(unescape(n.Destination)), "", st)
	case *ast.AutoLink:
		b.WriteString(styled(w.st.Link.Inherit(st), safe(string(n.Label(w.src)))))
	case *ast.RawHTML:
		var raw strings.Builder
		for i := range n.Segments.Len() {
			seg := n.Segments.At(i)
			raw.Write(seg.Value(w.src))
		}
		b.WriteString(styled(w.st.HTML.Inherit(st), strings.ReplaceAll(safe(raw.String()), "\n", " ")))
	case *east.TaskCheckBox:
		if n.IsChecked {
			b.WriteString(styled(st, "[x] "))
		} else {
			b.WriteString(styled(st, "[ ] "))
		}
	default:
		w.inlines(b, n, st)
	}
}

// url writes a link's destination after its text, unless the text says it.
func (w *walker) url(b *strings.Builder, dest, label string, st lipgloss.Style) {
	dest = safe(dest)
	if dest == "" || strings.TrimSpace(label) == dest || strings.TrimPrefix(dest, "mailto:") == label {
		return
	}
	b.WriteString(styled(st, " "))
	b.WriteString(styled(w.st.URL.Inherit(st), "("+dest+")"))
}

// plainText is n's text without styles, for comparing a link's text with
// its destination.
func (w *walker) plainText(n ast.Node) string {
	var b strings.Builder
	w.inlines(&b, n, lipgloss.NewStyle())
	return ansi.Strip(b.String())
}

// unescape resolves backslash escapes and entity references in one pass,
// as CommonMark reads them: an escaped "&" starts no reference.
func unescape(v []byte) []byte {
	if bytes.IndexByte(v, '\\') < 0 && bytes.IndexByte(v, '&') < 0 {
		return v
	}
	out := make([]byte, 0, len(v))
	for i := 0; i < len(v); i++ {
		c := v[i]
		switch {
		case c == '\\' && i+1 < len(v) && util.IsPunct(v[i+1]):
			out = append(out, v[i+1])
			i++
		case c == '&':
			end := bytes.IndexByte(v[i:], ';')
			if end < 0 || end > 40 {
				out = append(out, c)
				continue
			}
			ref := v[i : i+end+1]
			res := util.ResolveNumericReferences(ref)
			if bytes.Equal(res, ref) {
				res = util.ResolveEntityNames(ref)
			}
			if bytes.Equal(res, ref) {
				out = append(out, c)
				continue
			}
			out = append(out, res...)
			i += end
		default:
			out = append(out, c)
		}
	}
	return out
}
