package server

import (
	"bytes"
	"html/template"
	"strings"

	"github.com/yuin/goldmark"
	"github.com/yuin/goldmark/ast"
	"github.com/yuin/goldmark/extension"
	"github.com/yuin/goldmark/renderer/html"
	"github.com/yuin/goldmark/text"

	"github.com/parleyhq/parley/internal/textsafe"
	"github.com/parleyhq/parley/internal/textsafe/mdsafe"
)

// markdown renders untrusted Markdown (model output, topics) as HTML: raw
// HTML and images are shown as text (mdsafe.Inert: an image is fetched
// when the page shows it, and raw HTML that starts a reply, a <script> or
// <!-- block, hid the whole reply), dangerous link destinations such as
// javascript: URLs are dropped (goldmark's safe mode, without
// html.WithUnsafe, would drop raw HTML too); nesting is bounded
// (textsafe.Shallow, through Inert), which goldmark parses in more than
// linear time.
type markdown struct{ md goldmark.Markdown }

func newMarkdown() markdown {
	return markdown{md: goldmark.New(
		goldmark.WithExtensions(extension.Table, extension.Strikethrough),
		goldmark.WithRendererOptions(html.WithHardWraps()),
	)}
}

// HTML renders src; on a rendering error the text is shown escaped.
func (m markdown) HTML(src string) template.HTML {
	var b bytes.Buffer
	if err := m.md.Convert([]byte(mdsafe.Inert(src)), &b); err != nil {
		return template.HTML("<pre>" + template.HTMLEscapeString(src) + "</pre>")
	}
	return template.HTML(b.String()) // goldmark in safe mode: no raw HTML, no dangerous URLs
}

// section is one "## " section of a document.
type section struct {
	Title string
	Body  template.HTML
}

// sections splits a Markdown document at its "## " headings, for a report
// whose sections fold. The text before the first heading is the lead, with
// the "# " title removed (the page shows it). The headings are those a
// Markdown reader finds, at the top level: a "## " line in a code block is
// code (model text holds "~~~" fences, and "```" within "````" ones).
func (m markdown) sections(doc string) (title string, lead template.HTML, out []section) {
	src := []byte(textsafe.Shallow(doc))
	type cut struct {
		start, end int // the heading's lines
		title      string
		level      int
	}
	var cuts []cut
	for n := m.md.Parser().Parse(text.NewReader(src)).FirstChild(); n != nil; n = n.NextSibling() {
		h, ok := n.(*ast.Heading)
		if !ok || h.Level > 2 || h.Lines().Len() == 0 {
			continue
		}
		first, last := h.Lines().At(0), h.Lines().At(h.Lines().Len()-1)
		start := bytes.LastIndexByte(src[:first.Start], '\n') + 1
		end := lineEnd(src, last.Stop)
		if t := bytes.TrimLeft(src[start:first.Start], " "); len(t) == 0 || t[0] != '#' {
			end = lineEnd(src, end) // a setext heading: its underline too
		}
		var b strings.Builder
		for i := range h.Lines().Len() {
			seg := h.Lines().At(i)
			b.Write(seg.Value(src))
		}
		cuts = append(cuts, cut{start, end, strings.TrimSpace(b.String()), h.Level})
	}
	var secs []cut
	leadText := string(src)
	for _, c := range cuts {
		if c.level == 2 {
			secs = append(secs, c)
		}
	}
	if len(secs) > 0 {
		leadText = string(src[:secs[0].start])
	}
	for _, c := range cuts {
		if c.level == 1 && (len(secs) == 0 || c.start < secs[0].start) {
			title = c.title // the page shows it
			leadText = string(src[:c.start]) + leadText[c.end:]
			break
		}
	}
	lead = m.HTML(leadText)
	for i, c := range secs {
		bodyEnd := len(src)
		if i+1 < len(secs) {
			bodyEnd = secs[i+1].start
		}
		out = append(out, section{Title: c.title, Body: m.HTML(string(src[c.end:bodyEnd]))})
	}
	return title, lead, out
}

// lineEnd is the index just past the line break that ends the line at i.
func lineEnd(src []byte, i int) int {
	if j := bytes.IndexByte(src[i:], '\n'); j >= 0 {
		return i + j + 1
	}
	return len(src)
}
