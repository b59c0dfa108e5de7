package shell

import (
	"fmt"
	"strings"
	"unicode"
	"unicode/utf8"

	"charm.land/lipgloss/v2"
	"github.com/charmbracelet/x/ansi"

	"github.com/parleyhq/parley/internal/termmd"
	"github.com/parleyhq/parley/internal/textsafe"
	"github.com/parleyhq/parley/internal/view"
)

// The transcript is what scrolls above the input line: blocks (a turn, a
// phase heading, a notice, a document). A finished block is rendered once
// per width and its lines kept; only the live block, the turn streaming
// now, is rendered again as its text grows.

// class is how a line of a block looks.
type class int

const (
	plain class = iota
	dim
	warn
	failure
	note
	phase
	hint
)

// segment is a run of a block's text: the agent's words (Markdown once the
// block is finished) or a line about them (a tool call, a retry).
type segment struct {
	meta  bool
	class class
	text  string
}

type block struct {
	head  string // heading, "" for none
	agent string // colours the heading and gives it its mark
	segs  []segment
	// markdown renders the text segments as Markdown once the block is
	// finished; while it streams, they are shown as they come.
	markdown bool
	gap      bool   // a blank line before the block
	turn     string // the turn the block shows, "" for none
	done     bool

	cacheW int
	cache  []string

	// above is how many bytes of a streaming turn's text come before the
	// text the block holds (see stream).
	above int
	// grow holds the last text segment while streamed text is appended to
	// it: appending to a string copied all of it with every delta.
	grow *strings.Builder
}

// write adds streamed text to the block.
func (b *block) write(text string) {
	if n := len(b.segs); n > 0 && !b.segs[n-1].meta {
		if b.grow == nil {
			b.grow = &strings.Builder{}
			b.grow.WriteString(b.segs[n-1].text)
		}
		b.grow.WriteString(text)
		b.segs[n-1].text = b.grow.String()
		return
	}
	b.grow = nil
	b.segs = append(b.segs, segment{text: text})
}

// stream replaces the block's text with the text a turn has streamed so
// far, of which it keeps the last liveTail bytes or so (see tail).
func (b *block) stream(text string) {
	text, above := tail(text)
	b.setText(prose(text))
	b.above = above
}

// liveTail bounds the streamed text of the live block that is laid out
// again with each delta. Each delta made the screen clean, mark and wrap
// all of a turn's text so far: a reply of a megabyte took half a second
// for each, the shell answered no key while it streamed, and /ask, which
// gets every token as a delta, fell behind for an hour. The whole text is
// laid out once, when the turn ends.
const liveTail = 32 << 10

// tail is the end of s that a streaming block shows: all of it up to
// liveTail bytes, else about the last liveTail bytes, from the start of a
// line where one is near; above is the length of what it leaves out.
func tail(s string) (t string, above int) {
	if len(s) <= liveTail {
		return s, 0
	}
	cut := len(s) - liveTail
	if i := strings.IndexByte(s[cut:], '\n'); i >= 0 && i < liveTail/2 {
		cut += i + 1
	}
	for cut < len(s) && !utf8.RuneStart(s[cut]) {
		cut++
	}
	return s[cut:], cut
}

// setText replaces the block's text with a turn's whole text.
func (b *block) setText(text string) {
	b.grow, b.above = nil, 0
	segs := b.segs[:0]
	for _, s := range b.segs {
		if s.meta {
			segs = append(segs, s)
		}
	}
	b.segs = append(segs, segment{text: text})
}

// line adds a line about the turn.
func (b *block) line(c class, text string) {
	b.grow = nil
	b.segs = append(b.segs, segment{meta: true, class: c, text: text})
}

// text is the block's text segments, joined.
func (b *block) text() string {
	var parts []string
	for _, s := range b.segs {
		if !s.meta {
			parts = append(parts, s.text)
		}
	}
	return strings.Join(parts, "")
}

// markdownMargin is the left margin of rendered Markdown, which sets a
// turn's text off from its heading.
const markdownMargin = 2

type transcript struct {
	st     styles
	width  int
	blocks []*block // finished, in order
	live   *block   // the block streaming now, nil for none
	lines  []string // the finished blocks' lines at width
	md     *termmd.Renderer
	// gen counts the changes of lines and of which block is live.
	gen int
}

func newTranscript(st styles) *transcript {
	return &transcript{st: st, md: markdownRenderer(st)}
}

// markdownRenderer renders Markdown in the look of st.
func markdownRenderer(st styles) *termmd.Renderer {
	switch {
	case !st.color:
		return termmd.New(termmd.Plain())
	case st.dark:
		return termmd.New(termmd.Dark())
	}
	return termmd.New(termmd.Light())
}

// restyle renders every finished block again in new looks (the palette
// changed); the live block is rendered on each refresh anyway.
func (t *transcript) restyle(st styles) {
	t.st, t.md = st, markdownRenderer(st)
	for _, b := range t.blocks {
		b.cache = nil
	}
	t.rerender()
}

// add appends a finished block.
func (t *transcript) add(b *block) {
	b.done = true
	t.gen++
	t.blocks = append(t.blocks, b)
	if t.width > 0 {
		t.lines = append(t.lines, t.render(b)...)
	}
}

// setLive makes b the block streaming now.
func (t *transcript) setLive(b *block) { t.live, t.gen = b, t.gen+1 }

// finishLive moves the live block to the finished ones.
func (t *transcript) finishLive() {
	if t.live != nil {
		b := t.live
		t.live = nil
		t.add(b)
	}
}

// resize renders every finished block again at a new width.
func (t *transcript) resize(width int) {
	if width == t.width {
		return
	}
	t.width = width
	t.rerender()
}

// rerender renders the finished blocks' lines again.
func (t *transcript) rerender() {
	t.gen++
	t.lines = t.lines[:0]
	if t.width == 0 {
		return
	}
	for _, b := range t.blocks {
		t.lines = append(t.lines, t.render(b)...)
	}
}

// Lines are the transcript's lines: the finished blocks' as rendered, then
// the live block's, rendered now.
func (t *transcript) Lines() []string {
	out := make([]string, 0, len(t.lines)+32)
	out = append(out, t.lines...)
	if t.live != nil && t.width > 0 {
		out = append(out, t.render(t.live)...)
	}
	return out
}

func (t *transcript) render(b *block) []string {
	if b.done && b.cacheW == t.width && b.cache != nil {
		return b.cache
	}
	w := t.width
	var out []string
	if b.gap {
		out = append(out, "")
	}
	if b.head != "" {
		st := t.st.agentStyle(b.agent)
		for _, l := range foldLines(agentMark(b.agent)+b.head, w) {
			out = append(out, st.Render(l))
		}
	}
	for _, s := range b.segs {
		if !s.meta {
			above := b.above
			if !b.done {
				var cut int
				s.text, cut = tail(s.text)
				above += cut
			}
			if above > 0 {
				for _, l := range wrapLines(fmt.Sprintf("… %d KB of the turn before this (all of it once the turn ends; /show has it)", (above+1023)/1024), w) {
					out = append(out, t.st.dim.Render(l))
				}
			}
		}
		switch {
		case s.meta:
			st := t.classStyle(s.class)
			for _, l := range foldLines(clean(s.text), w) {
				out = append(out, st.Render(l))
			}
		case b.done && b.markdown:
			out = append(out, t.markdown(s.text, w)...)
		case b.markdown:
			// Streaming Markdown is shown as it comes, in the margin the
			// rendered Markdown will have, so that the text stays put when
			// its turn ends.
			out = append(out, indentLines(wrapLines(strings.TrimRight(s.text, "\n"), w-markdownMargin), w)...)
		case b.head != "":
			// A turn described (a structured reply: the moderator's
			// summary, a move's fields) is the model's text too: in the
			// margin of the turn's Markdown, off column 0, where only the
			// shell's own lines start.
			out = append(out, indentLines(wrapLines(strings.TrimRight(s.text, "\n"), w-markdownMargin), w)...)
		default:
			out = append(out, wrapLines(strings.TrimRight(s.text, "\n"), w)...)
		}
	}
	if b.done {
		b.cacheW, b.cache = w, out
	}
	return out
}

func (t *transcript) classStyle(c class) lipgloss.Style {
	switch c {
	case dim:
		return t.st.dim
	case warn:
		return t.st.warn
	case failure:
		return t.st.err
	case note:
		return t.st.note
	case phase:
		return t.st.phase
	case hint:
		return t.st.hint
	}
	return lipgloss.NewStyle()
}

// markdown renders a finished text as Markdown for the width, in the
// margin. Without colour it carries no escape codes at all, only the
// structure (heading marks, bullets, indentation, quote bars).
func (t *transcript) markdown(text string, width int) []string {
	margin := markdownMargin
	if width <= 2*markdownMargin {
		margin = 0
	}
	lines := strings.Split(t.md.Render(text, width-margin), "\n")
	pad := strings.Repeat(" ", margin)
	for i, l := range lines {
		if l != "" {
			lines[i] = pad + l
		}
	}
	return lines
}

// indentLines puts the Markdown margin before each line of a reply that
// has text, unless the window is too narrow for one.
func indentLines(lines []string, width int) []string {
	if width <= 2*markdownMargin {
		return lines
	}
	pad := strings.Repeat(" ", markdownMargin)
	for i, l := range lines {
		if l != "" {
			lines[i] = pad + l
		}
	}
	return lines
}

// foldLines wraps a line of the shell's own (a notice, a heading, a
// warning that quotes an error) as wrapLines does, with the lines the wrap
// makes indented past the line's own indent and its marker ("⚠ ", "💡 ",
// "› "), as the live view's FoldLine does: at column 0 they could not be
// told from the shell's own lines, and a reply or an error quoted in one
// could start a line there that passes for a heading or a prompt. Lines
// of text's own (a table, a usage) are kept as they are.
func foldLines(text string, width int) []string {
	var out []string
	for _, line := range strings.Split(text, "\n") {
		wrapped := wrapLines(line, width)
		if len(wrapped) == 1 {
			out = append(out, wrapped...)
			continue
		}
		body := strings.TrimLeft(line, " ")
		n := len(line) - len(body) + markdownMargin
		if mark, _, ok := strings.Cut(body, " "); ok && mark != "" && !strings.ContainsFunc(mark, isWordRune) {
			n = len(line) - len(body) + ansi.StringWidth(mark) + 1
		}
		first := strings.TrimRight(wrapped[0], " ")
		if width-n < minFold || !strings.HasPrefix(line, first) {
			// Too narrow to fold under an indent (or not wrapped as
			// read): wrapped from column 0.
			out = append(out, wrapped...)
			continue
		}
		out = append(out, first)
		pad := strings.Repeat(" ", n)
		for _, l := range wrapLines(strings.TrimLeft(line[len(first):], " "), width-n) {
			out = append(out, pad+l)
		}
	}
	return out
}

// minFold is the narrowest a folded line's continuation may be.
const minFold = 12

func isWordRune(r rune) bool { return unicode.IsLetter(r) || unicode.IsDigit(r) }

// wrapLines breaks text into lines of at most width columns, at spaces,
// breaking a word only when it is longer than a line. A line that fills
// the width exactly is one line: the renderer places every line, so no
// blank line follows it.
//
// Hyphens are held while the text is wrapped, as termmd holds them:
// lipgloss.Wrap breaks after every hyphen, which split the commands and
// ids the shell's messages give to be typed or copied ("--\nmodel NAME",
// "DEB-\n1a2b3c4d").
func wrapLines(text string, width int) []string {
	if width <= 0 {
		return strings.Split(text, "\n")
	}
	held := strings.Contains(text, "-") && !strings.ContainsRune(text, heldHyphen)
	if held {
		text = strings.ReplaceAll(text, "-", string(heldHyphen))
	}
	lines := strings.Split(lipgloss.Wrap(text, width, ""), "\n")
	if held {
		for i, l := range lines {
			lines[i] = strings.ReplaceAll(l, string(heldHyphen), "-")
		}
	}
	return lines
}

// heldHyphen stands for a hyphen while text is wrapped: a private-use
// character, one column wide, that no breakpoint matches.
const heldHyphen = '\uE000'

// clean makes untrusted text (topics, model output) inert for the terminal;
// tabs become spaces, whose width every terminal agrees on.
func clean(s string) string { return strings.ReplaceAll(textsafe.Clean(s), "\t", "    ") }

// oneLine is untrusted text quoted in a line of the shell's own (an
// error, a reason, a note, a topic): inert, on one line, bounded, so that
// none of it starts a line that passes for one of the shell's.
func oneLine(s string) string { return textsafe.Line(s, 2000) }

// prose is an agent's text or a document for the screen: inert, with one
// short source mark per figure (the log and the exports keep the whole
// provenance).
func prose(s string) string { return view.CompactSources(clean(s)) }
