package server

import (
	"fmt"
	"strings"
	"testing"
)

// TestMarkdownCache: a completed turn's Markdown is rendered once, not
// again for every view of the page (the page fetches its panel after
// every event); what the cache answers is what rendering gives, and it
// keeps within its bytes, the least recently used dropped first.
func TestMarkdownCache(t *testing.T) {
	plain, cached := newMarkdown(), newCachedMarkdown(64<<10)
	docs := []string{"# Title\n\n**bold** and [a link](https://example.com)", "- a\n- b\n\n| x | y |\n|---|---|\n| 1 | 2 |\n", "<script>x</script> ![img](https://evil.example/t.png)"}
	for range 3 {
		for _, d := range docs {
			if got, want := cached.HTML(d), plain.HTML(d); got != want {
				t.Errorf("cached HTML of %q = %q, want %q", d, got, want)
			}
		}
	}
	if r := cached.cache.renders; r != len(docs) {
		t.Errorf("%d renders for %d documents viewed three times; want one each", r, len(docs))
	}
	doc := "# T\n\nLead.\n\n## One\n\nx\n\n## Two\n\ny\n"
	for range 2 {
		title, lead, secs := cached.sections(doc)
		wt, wl, ws := plain.sections(doc)
		if title != wt || lead != wl || fmt.Sprint(secs) != fmt.Sprint(ws) {
			t.Errorf("cached sections (%q, %q, %v), want (%q, %q, %v)", title, lead, secs, wt, wl, ws)
		}
	}
	// Documents whose HTML passes the budget in all: the oldest go.
	for i := range 200 {
		cached.HTML(fmt.Sprintf("paragraph %d %s", i, strings.Repeat("word ", 200)))
	}
	if c := cached.cache; c.size > c.max {
		t.Errorf("the cache holds %d bytes, over its %d", c.size, c.max)
	}
	before := cached.cache.renders
	cached.HTML(docs[0])
	if cached.cache.renders != before+1 {
		t.Error("the least recently used document was not dropped")
	}
}

// TestTableAlignmentNeedsNoInlineStyle: the pages' CSP allows no inline
// style, so a column's alignment given as style="text-align:right" was
// dropped (and logged as a violation for every cell); it is an align
// attribute, which the policy does not govern.
func TestTableAlignmentNeedsNoInlineStyle(t *testing.T) {
	out := string(newMarkdown().HTML("| a | b | c |\n|--:|:-:|---|\n| 1 | 2 | 3 |\n"))
	if strings.Contains(out, "style=") || !strings.Contains(out, `<th align="right">a</th>`) || !strings.Contains(out, `<td align="center">2</td>`) {
		t.Errorf("table alignment in HTML:\n%s", out)
	}
}
