// Package mdsafe makes untrusted Markdown (model output, topics) safe to
// place in a document Parley writes: the exports, the decision documents,
// the dashboard's pages and the PDF.
//
// Inert keeps what Markdown a reader can see (emphasis, lists, links,
// code) and makes two things plain text: images, which a Markdown viewer
// (GitHub, an editor's preview, the dashboard) fetches as soon as the
// document is opened, so that a model can report to a server of its choice
// that, when and by whom it was read, with what it puts in the address
// (what it read in the prompt); and raw HTML, which such viewers render
// (an <img>, a <details> that hides text, a <!-- that swallows the rest of
// the document). A link to javascript:, vbscript:, data: or file: reads
// as text too: a viewer that keeps it runs script or opens a file when it
// is clicked. A character reference to a character that reorders or
// hides text ("&#x202E;") is shown as textsafe.Clean shows the character:
// a renderer reads it as the character, which Clean never saw. Contained
// also closes a code block the text leaves open,
// which would swallow everything a document puts after the text.
//
// Both read Markdown as goldmark does (CommonMark with GitHub's tables,
// strikethrough and task lists), the parser of every renderer of Parley's
// documents, and check their result by parsing it again. This package links
// goldmark; textsafe, which the solver's binary links, must not.
package mdsafe

import (
	"bytes"
	"fmt"
	"slices"
	"strconv"
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/yuin/goldmark"
	"github.com/yuin/goldmark/ast"
	"github.com/yuin/goldmark/extension"
	"github.com/yuin/goldmark/parser"
	"github.com/yuin/goldmark/text"
	"github.com/yuin/goldmark/util"

	"github.com/parleyhq/parley/internal/textsafe"
)

// newParser is goldmark's parser with the extensions Parley's renderers
// enable (server, termmd, pdf): a table or a task list changes what is
// code and what is not.
func newParser() parser.Parser {
	return goldmark.New(goldmark.WithExtensions(extension.Table, extension.Strikethrough, extension.TaskList)).Parser()
}

// Inert returns src with its images and raw HTML made plain text, its
// character references to controls, bidi overrides and invisible
// characters shown as textsafe.Clean shows those characters, and its
// nesting bounded (textsafe.Shallow: goldmark parses deep nesting in more
// than linear time). An image "![alt](url)" reads as written and fetches
// nothing ("!\[alt](url)"); "<img …>", "</div>", "<!--" are shown, not
// rendered ("\<img …>"). Code spans and code blocks, where both are text
// already, and autolinks ("<https://…>") are left as they are.
func Inert(src string) string {
	src = textsafe.Shallow(src)
	if !mayBeActive(src) {
		return src
	}
	if !mayHoldCode(src) {
		return escape(src, nil)
	}
	p := newParser()
	skip := skipped(p, src)
	out := escape(src, skip)
	if len(skip) > 0 && active(p, out) {
		// What is code changed with the escapes (raw HTML had hidden a
		// backtick): escape everything, code included. Every candidate
		// is escaped then, so nothing can be left.
		out = escape(src, nil)
	}
	return out
}

// mayHoldCode reports whether src may hold a code span or a code block:
// a backtick, a tilde (a fence), a tab or four spaces in a row (an
// indented block, within a list item or a quote too). Without any, the
// escapes need no parse: none is in code, and every candidate is escaped.
func mayHoldCode(src string) bool {
	return strings.ContainsAny(src, "`~\t") || strings.Contains(src, "    ")
}

// Contained is Inert(src) that leaves no code block open at its end: a
// fence the text opens and does not close ("```" alone on its last lines)
// would make code of everything a document writes after it, the sections
// and turns that follow included. Such a fence is closed; a fence that
// cannot be closed so is escaped.
func Contained(src string) string {
	s := Inert(src)
	if !strings.Contains(s, "```") && !strings.Contains(s, "~~~") {
		return s
	}
	p := newParser()
	open := openFence(p, s)
	if open == "" {
		return s
	}
	closed := s
	if !strings.HasSuffix(closed, "\n") {
		closed += "\n"
	}
	closed += open
	if openFence(p, closed) == "" {
		return closed
	}
	return escapeFences(s)
}

// sentinel is a paragraph placed after a text to see whether the text
// leaves a block open that would take it in.
const sentinel = "mdsafe-sentinel-paragraph"

// openFence is the closing fence the code block src leaves open needs
// ("```", "~~~~"), "" when src leaves none open.
func openFence(p parser.Parser, src string) string {
	doc := []byte(src + "\n\n" + sentinel + "\n")
	root := p.Parse(text.NewReader(doc))
	last := root.LastChild()
	if para, ok := last.(*ast.Paragraph); ok && para.Lines().Len() == 1 {
		if seg := para.Lines().At(0); string(bytes.TrimSpace(seg.Value(doc))) == sentinel {
			return ""
		}
	}
	code, ok := last.(*ast.FencedCodeBlock)
	if !ok || code.Lines().Len() == 0 {
		return "```" // not a fence goldmark left open; escapeFences decides
	}
	// The opening fence is the line before the block's first line.
	start := code.Lines().At(0).Start
	lineStart := bytes.LastIndexByte(doc[:max(start-1, 0)], '\n') + 1
	line := strings.TrimLeft(string(doc[lineStart:start]), " ")
	if line == "" || (line[0] != '`' && line[0] != '~') {
		return "```"
	}
	n := len(line) - len(strings.TrimLeft(line, line[:1]))
	return strings.Repeat(line[:1], n)
}

// escapeFences escapes every line that could open or close a fenced code
// block ("```", "~~~" after at most three spaces), which then reads as
// text.
func escapeFences(s string) string {
	lines := strings.Split(s, "\n")
	for i, l := range lines {
		t := strings.TrimLeft(l, " ")
		if len(l)-len(t) <= 3 && (strings.HasPrefix(t, "```") || strings.HasPrefix(t, "~~~")) {
			lines[i] = l[:len(l)-len(t)] + "\\" + t
		}
	}
	return strings.Join(lines, "\n")
}

// mayBeActive reports whether src holds anything escape would change: an
// image's "![" or a "<" that could start an HTML tag, comment or
// declaration.
func mayBeActive(src string) bool {
	for i := 0; i < len(src)-1; i++ {
		if (src[i] == '!' && src[i+1] == '[') || (src[i] == '<' && tagStart(src[i+1])) {
			return true
		}
		if src[i] == '&' {
			if _, shown := hiddenEntity(src[i:]); shown != "" {
				return true
			}
		}
		if src[i] == ']' && (src[i+1] == '(' || src[i+1] == ':') && dangerousDest(src[i+2:]) {
			return true
		}
	}
	return false
}

// dangerousDest reports whether the link destination s starts with (after
// the "(" of an inline link or the ":" of a definition, so after
// whitespace and an optional "<") names a scheme that runs script or opens
// a file when clicked: javascript:, vbscript:, data:, file:. It reads the
// scheme as a viewer does: backslash escapes and character references
// resolved ("&#106;avascript:"), the whitespace and controls a browser
// drops ("java\tscript:") dropped, letters in any case.
func dangerousDest(s string) bool {
	s = strings.TrimLeft(s, " \t")
	s = strings.TrimPrefix(strings.TrimPrefix(s, "\r"), "\n")
	s = strings.TrimPrefix(strings.TrimLeft(s, " \t"), "<")
	var scheme []byte // the destination's first characters, as a viewer reads them
	add := func(r rune) {
		switch {
		case r >= utf8.RuneSelf:
			scheme = append(scheme, 0xff) // in no scheme
		case r > ' ' && r != 0x7f:
			scheme = append(scheme, byte(unicode.ToLower(r)))
		}
	}
	for i := 0; i < len(s) && len(scheme) < 16 && !bytes.Contains(scheme, []byte(":")); i++ {
		switch c := s[i]; {
		case c == '\\' && i+1 < len(s) && isPunct(s[i+1]):
			i++
			add(rune(s[i]))
		case c == '&':
			n, chars := entity(s[i:])
			if n == 0 {
				add('&')
				continue
			}
			for _, r := range chars {
				add(r)
			}
			i += n - 1
		default:
			add(rune(c))
		}
	}
	name, _, ok := bytes.Cut(scheme, []byte(":"))
	if !ok {
		return false
	}
	switch string(name) {
	case "javascript", "vbscript", "data", "file":
		return true
	}
	return false
}

// hiddenEntity reads the character reference s starts with ("&#x202E;",
// "&#8238;", "&ZeroWidthSpace;"): its length and, when the characters it
// stands for are some textsafe.Clean makes visible (controls, bidi
// overrides, invisible characters), them made visible; "" for any other
// reference, or none. Every renderer, a browser's page too, reads the
// reference as the character, which Clean never saw.
func hiddenEntity(s string) (n int, shown string) {
	n, chars := entity(s)
	if n == 0 {
		return 0, ""
	}
	if c := textsafe.Clean(chars); c != chars {
		return n, c
	}
	// A variation selector written as a reference may follow another,
	// which Clean shows (a run of them hides bytes); no reader needs one
	// written so.
	if r, size := utf8.DecodeRuneInString(chars); size == len(chars) && textsafe.VariationSelector(r) {
		return n, fmt.Sprintf("⟨U+%04X⟩", r)
	}
	return 0, ""
}

// entity reads the character reference s starts with: its length and the
// characters it stands for, as CommonMark reads them; 0 for none.
func entity(s string) (n int, chars string) {
	end := strings.IndexByte(s[:min(len(s), 40)], ';')
	if end < 3 {
		return 0, ""
	}
	ref := s[1:end]
	switch {
	case ref[0] == '#':
		hex := ref[1] == 'x' || ref[1] == 'X'
		digits := ref[1:]
		base := 10
		if hex {
			digits, base = ref[2:], 16
		}
		if digits == "" || len(digits) > 7 {
			return 0, ""
		}
		v, err := strconv.ParseUint(digits, base, 32)
		if err != nil {
			return 0, ""
		}
		if v == 0 || v > unicode.MaxRune || v >= 0xd800 && v <= 0xdfff {
			v = unicode.ReplacementChar // as CommonMark reads them
		}
		chars = string(rune(v))
	default:
		e, ok := util.LookUpHTML5EntityByName(ref)
		if !ok {
			return 0, ""
		}
		chars = string(e.Characters)
	}
	return end + 1, chars
}

// tagStart reports whether c, after "<", may start raw HTML: a tag name, a
// closing tag, a comment or declaration, a processing instruction.
func tagStart(c byte) bool {
	return isLetter(c) || c == '/' || c == '!' || c == '?'
}

// span is a byte range [start, end) of the source.
type span struct{ start, end int }

// skipped lists, in order, the ranges of src escape leaves alone: the text
// of code spans and code blocks.
func skipped(p parser.Parser, src string) []span {
	var out []span
	_ = ast.Walk(p.Parse(text.NewReader([]byte(src))), func(n ast.Node, entering bool) (ast.WalkStatus, error) {
		if !entering {
			return ast.WalkContinue, nil
		}
		switch n := n.(type) {
		case *ast.CodeSpan:
			for c := n.FirstChild(); c != nil; c = c.NextSibling() {
				if t, ok := c.(*ast.Text); ok {
					out = append(out, span{t.Segment.Start, t.Segment.Stop})
				}
			}
			return ast.WalkSkipChildren, nil
		case *ast.FencedCodeBlock, *ast.CodeBlock:
			lines := n.Lines()
			for i := range lines.Len() {
				seg := lines.At(i)
				out = append(out, span{seg.Start, seg.Stop})
			}
			return ast.WalkSkipChildren, nil
		}
		return ast.WalkContinue, nil
	})
	slices.SortFunc(out, func(a, b span) int { return a.start - b.start })
	return out
}

// escape writes src with a backslash before the "[" of every "![" and
// before every "<" that may start raw HTML, and with the character
// references that hide or reorder text made visible (hiddenEntity),
// outside the skipped ranges.
// A backslash escape already there is copied as it is.
func escape(src string, skip []span) string {
	var b strings.Builder
	b.Grow(len(src) + 16)
	openers := dangerousOpeners(src, skip)
	for i := 0; i < len(src); i++ {
		for len(skip) > 0 && skip[0].end <= i {
			skip = skip[1:]
		}
		if len(skip) > 0 && skip[0].start <= i {
			b.WriteString(src[i:skip[0].end])
			i = skip[0].end - 1
			continue
		}
		c := src[i]
		switch {
		case c == '\\' && i+1 < len(src) && isPunct(src[i+1]):
			b.WriteString(src[i : i+2])
			i++
			continue
		case c == '&':
			if n, shown := hiddenEntity(src[i:]); shown != "" {
				b.WriteString(shown)
				i += n - 1
				continue
			}
		case c == '!' && i+1 < len(src) && src[i+1] == '[':
			b.WriteString(`!\[`)
			i++
			continue
		case c == ']' && i+1 < len(src) && (src[i+1] == '(' || src[i+1] == ':') && dangerousDest(src[i+2:]):
			// "[text](javascript:…)" and "[ref]: javascript:…" read as
			// text: the "]" escaped closes no link and makes no
			// definition, its "[" escaped opens none that a later "]("
			// would close.
			b.WriteByte('\\')
		case c == '[' && openers[i]:
			b.WriteByte('\\')
		case c == '<' && i+1 < len(src) && tagStart(src[i+1]):
			if n := autolink(src[i:]); n > 0 && !dangerousDest(src[i+1:]) {
				b.WriteString(src[i : i+n])
				i += n - 1
				continue
			}
			b.WriteByte('\\')
		}
		b.WriteByte(c)
	}
	return b.String()
}

// autolink is the length of the URI autolink s starts with
// ("<https://example.com>", as CommonMark defines it), 0 if none: a link,
// which no viewer fetches, and the escape would show its brackets.
func autolink(s string) int {
	i := 1
	for i < len(s) && i <= 33 && (isLetter(s[i]) || i > 1 && (s[i] >= '0' && s[i] <= '9' || s[i] == '+' || s[i] == '.' || s[i] == '-')) {
		i++
	}
	if i < 3 || i > 33 || i >= len(s) || s[i] != ':' || !isLetter(s[1]) {
		return 0
	}
	for i++; i < len(s); i++ {
		switch c := s[i]; {
		case c == '>':
			return i + 1
		case c <= ' ' || c == '<' || c == 0x7f:
			return 0
		}
	}
	return 0
}

func isLetter(c byte) bool { return c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' }

// dangerousOpeners is the set of the "[" that open a link or definition
// to a dangerous destination (dangerousDest), outside the skipped ranges:
// brackets paired as a stack pairs them, as CommonMark pairs a link's, an
// image's "![" aside (escape makes it text).
func dangerousOpeners(src string, skip []span) map[int]bool {
	if !strings.Contains(src, "](") && !strings.Contains(src, "]:") {
		return nil
	}
	var out map[int]bool
	var open []int
	for i := 0; i < len(src); i++ {
		for len(skip) > 0 && skip[0].end <= i {
			skip = skip[1:]
		}
		if len(skip) > 0 && skip[0].start <= i {
			i = skip[0].end - 1
			continue
		}
		switch c := src[i]; {
		case c == '\\' && i+1 < len(src) && isPunct(src[i+1]):
			i++
		case c == '[' && (i == 0 || src[i-1] != '!'):
			open = append(open, i)
		case c == ']' && len(open) > 0:
			o := open[len(open)-1]
			open = open[:len(open)-1]
			if i+1 < len(src) && (src[i+1] == '(' || src[i+1] == ':') && dangerousDest(src[i+2:]) {
				if out == nil {
					out = map[int]bool{}
				}
				out[o] = true
			}
		case c == '\n' && i+1 < len(src) && src[i+1] == '\n':
			open = open[:0] // a blank line ends the paragraph and its brackets
		}
	}
	return out
}

// isPunct reports the ASCII punctuation a backslash escapes in Markdown.
func isPunct(c byte) bool {
	return c >= '!' && c <= '/' || c >= ':' && c <= '@' || c >= '[' && c <= '`' || c >= '{' && c <= '~'
}

// active reports whether src, parsed, holds an image, raw HTML or a link
// to a dangerous destination (dangerousDest).
func active(p parser.Parser, src string) bool {
	found := false
	b := []byte(src)
	_ = ast.Walk(p.Parse(text.NewReader(b)), func(n ast.Node, entering bool) (ast.WalkStatus, error) {
		switch n := n.(type) {
		case *ast.Image, *ast.RawHTML, *ast.HTMLBlock:
			found = true
		case *ast.Link:
			found = dangerousDest(string(n.Destination))
		case *ast.AutoLink:
			found = dangerousDest(string(n.URL(b)))
		}
		if found {
			return ast.WalkStop, nil
		}
		return ast.WalkContinue, nil
	})
	return found
}
