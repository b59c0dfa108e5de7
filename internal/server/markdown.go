package server

import (
	"bytes"
	"html/template"
	"strings"

	"github.com/yuin/goldmark"
	"github.com/yuin/goldmark/extension"
	"github.com/yuin/goldmark/renderer/html"

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
// the "# " title removed (the page shows it).
func (m markdown) sections(doc string) (title string, lead template.HTML, out []section) {
	var cur *section
	var buf strings.Builder
	flush := func() {
		if cur == nil {
			lead = m.HTML(buf.String())
		} else {
			cur.Body = m.HTML(buf.String())
			out = append(out, *cur)
		}
		buf.Reset()
	}
	code := false
	for _, line := range strings.SplitAfter(doc, "\n") {
		if strings.HasPrefix(line, "```") {
			code = !code
		}
		switch {
		case !code && title == "" && cur == nil && strings.HasPrefix(line, "# "):
			title = strings.TrimSpace(strings.TrimPrefix(line, "# "))
		case !code && strings.HasPrefix(line, "## "):
			flush()
			cur = &section{Title: strings.TrimSpace(strings.TrimPrefix(line, "## "))}
		default:
			buf.WriteString(line)
		}
	}
	flush()
	return title, lead, out
}
