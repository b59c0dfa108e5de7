package server

import (
	"bytes"
	"container/list"
	"crypto/sha256"
	"html/template"
	"strings"
	"sync"

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
//
// With a cache (newCachedMarkdown), what it rendered lately is kept: the
// page fetches its panel again after every event but a streamed delta,
// for every reader, and a completed turn's Markdown does not change.
type markdown struct {
	md    goldmark.Markdown
	cache *renderCache // nil: none
}

func newMarkdown() markdown {
	return markdown{md: goldmark.New(
		// Alignment as an attribute: the CSP allows no inline style.
		goldmark.WithExtensions(extension.NewTable(extension.WithTableCellAlignMethod(extension.TableCellAlignAttribute)), extension.Strikethrough),
		goldmark.WithRendererOptions(html.WithHardWraps()),
	)}
}

// newCachedMarkdown is newMarkdown with a cache of up to max bytes of
// sources and their HTML.
func newCachedMarkdown(max int) markdown {
	m := newMarkdown()
	m.cache = newRenderCache(max)
	return m
}

// markdownCacheBytes bounds the cache of a server's pages: the Markdown of
// a few hundred debates' turns, a few MB each at most.
const markdownCacheBytes = 64 << 20

// HTML renders src; on a rendering error the text is shown escaped.
func (m markdown) HTML(src string) template.HTML {
	if m.cache == nil {
		return m.render(src)
	}
	key := sha256.Sum256([]byte("html\x00" + src))
	if v, ok := m.cache.get(key); ok {
		return v.(template.HTML)
	}
	h := m.render(src)
	m.cache.put(key, h, len(src)+len(h))
	return h
}

// render is HTML without the cache.
func (m markdown) render(src string) template.HTML {
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
	if m.cache == nil {
		return m.split(doc)
	}
	key := sha256.Sum256([]byte("sections\x00" + doc))
	if v, ok := m.cache.get(key); ok {
		c := v.(cutDoc)
		return c.title, c.lead, c.secs
	}
	title, lead, out = m.split(doc)
	size := len(doc) + len(title) + len(lead)
	for _, s := range out {
		size += len(s.Title) + len(s.Body)
	}
	m.cache.put(key, cutDoc{title, lead, out}, size)
	return title, lead, out
}

// cutDoc is what sections returns, as the cache keeps it.
type cutDoc struct {
	title string
	lead  template.HTML
	secs  []section
}

// split is sections without the cache.
func (m markdown) split(doc string) (title string, lead template.HTML, out []section) {
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

// renderCache keeps rendered documents by the SHA-256 of what they were
// rendered from, up to max bytes (as put is told them), dropping the least
// recently used first. A key names its source, so an entry is never stale;
// callers must not change a value they get.
type renderCache struct {
	mu      sync.Mutex
	max     int
	size    int
	order   *list.List // of *cacheEntry, the most recently used first
	byKey   map[[sha256.Size]byte]*list.Element
	renders int // puts, for tests
}

func newRenderCache(max int) *renderCache {
	return &renderCache{max: max, order: list.New(), byKey: map[[sha256.Size]byte]*list.Element{}}
}

type cacheEntry struct {
	key  [sha256.Size]byte
	val  any
	size int
}

func (c *renderCache) get(key [sha256.Size]byte) (any, bool) {
	c.mu.Lock()
	defer c.mu.Unlock()
	el, ok := c.byKey[key]
	if !ok {
		return nil, false
	}
	c.order.MoveToFront(el)
	return el.Value.(*cacheEntry).val, true
}

// put keeps val, of size bytes, unless it alone would take more than a
// quarter of the cache.
func (c *renderCache) put(key [sha256.Size]byte, val any, size int) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.renders++
	if size > c.max/4 {
		return
	}
	if el, ok := c.byKey[key]; ok {
		// Rendered twice at once by two requests: the same value.
		c.order.MoveToFront(el)
		return
	}
	c.byKey[key] = c.order.PushFront(&cacheEntry{key: key, val: val, size: size})
	c.size += size
	for c.size > c.max {
		old := c.order.Back()
		e := old.Value.(*cacheEntry)
		c.order.Remove(old)
		delete(c.byKey, e.key)
		c.size -= e.size
	}
}
