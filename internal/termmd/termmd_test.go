package termmd

import (
	"fmt"
	"image/color"
	"math"
	"math/rand/v2"
	"os"
	"path/filepath"
	"reflect"
	"regexp"
	"runtime"
	"strings"
	"testing"

	"charm.land/lipgloss/v2"
	"github.com/charmbracelet/x/ansi"
	"github.com/yuin/goldmark/ast"
	east "github.com/yuin/goldmark/extension/ast"
	"github.com/yuin/goldmark/text"
)

func plain(src string, width int) string { return New(Plain()).Render(src, width) }

// TestConstructs: each construct as it looks without colour.
func TestConstructs(t *testing.T) {
	for _, tc := range []struct {
		name, src string
		width     int
		want      string
	}{
		{"headings", "# One\n\n## Two\n\n###### Six", 40, "# One\n\n## Two\n\n###### Six"},
		{"paragraphs", "first line\nsame paragraph\n\nsecond", 40, "first line same paragraph\n\nsecond"},
		{"wrap", "the quick brown fox jumps over the lazy dog", 15, "the quick brown\nfox jumps over\nthe lazy dog"},
		{"emphasis", "*it* **bold** ~~gone~~ `x := 1`", 40, "it bold ~~gone~~ `x := 1`"},
		{"hard break", "one  \ntwo\\\nthree", 40, "one\ntwo\nthree"},
		{"escapes and entities", `\*not em\* &amp; &lt;b&gt; &#65; \&amp;`, 40, "*not em* & <b> A &amp;"},
		{"bullets nested", "- a\n  - b\n    - c\n- d", 40, "• a\n  ◦ b\n    ▪ c\n• d"},
		{"hanging indent", "- one two three four five six", 12, "• one two\n  three four\n  five six"},
		{"ordered", "9. nine\n10. ten wraps here", 10, " 9. nine\n10. ten\n    wraps\n    here"},
		{"loose list", "- a\n\n- b", 40, "• a\n\n• b"},
		{"task list", "- [x] done\n- [ ] open", 40, "• [x] done\n• [ ] open"},
		{"quote", "> quoted text that wraps\n>\n> > inner", 14, "│ quoted text\n│ that wraps\n│\n│ │ inner"},
		{"link", "[the filing](https://sec.gov/a) and [https://x.io](https://x.io) <https://y.io> <a@b.io>", 80,
			"the filing (https://sec.gov/a) and https://x.io https://y.io a@b.io"},
		{"image", "![chart](c.png)", 40, "[image: chart] (c.png)"},
		{"rule", "a\n\n---\n\nb", 5, "a\n\n─────\n\nb"},
		{"fenced code not wrapped", "```go\nfunc f() { return 1234567890 }\n\tx\n```", 20, "  func f() { return…\n      x"},
		{"indented code", "para\n\n    code  line\n", 40, "para\n\n  code  line"},
		{"raw html as text", "a <b>bold</b> c\n\n<div>\nblock\n</div>", 40, "a <b>bold</b> c\n\n<div>\nblock\n</div>"},
		{"minus sign kept with its number", "margin change of -2.0 pts", 18, "margin change of\n-2.0 pts"},
		{"table fits", "| A | Bee |\n|---|--:|\n| x | 1 |\n| yy | 22 |", 40, "A  │ Bee\n───┼────\nx  │   1\nyy │  22"},
		{"table narrowed", "| Name | Comment |\n|---|---|\n| Bull | growth came from data centres |", 20,
			"Name │ Comment\n─────┼──────────────\nBull │ growth came\n     │ from data\n     │ centres"},
		{"table as records", "| A | B | C | D |\n|---|---|---|---|\n| one | two | three | four |", 12,
			"A: one\nB: two\nC: three\nD: four"},
		{"wide runes", "日本語の文章です", 6, "日本語\nの文章\nです"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if got := plain(tc.src, tc.width); got != tc.want {
				t.Errorf("Render(%q, %d):\n%s\nwant:\n%s", tc.src, tc.width, got, tc.want)
			}
		})
	}
}

// TestDarkStyles: with colour, constructs carry their styles and nested
// spans keep the outer style after the inner one ends.
func TestDarkStyles(t *testing.T) {
	got := New(Dark()).Render("**bold *both* still bold** ~~x~~", 80)
	for _, want := range []string{
		"\x1b[1mbold \x1b[m",       // strong
		"\x1b[1;3mboth\x1b[m",      // emphasis inside strong: both
		"\x1b[1m still bold\x1b[m", // strong again after the inner span
		"\x1b[2;9mx\x1b[m",         // strikethrough, without its marks
	} {
		if !strings.Contains(got, want) {
			t.Errorf("Render = %q, want it to contain %q", got, want)
		}
	}
	if strings.Contains(got, "~~") {
		t.Errorf("Render = %q: strikethrough marks with a style to show it", got)
	}
}

// TestPaletteContrast: every coloured style of the dark look reads on
// black and of the light look on white (a contrast ratio of at least
// 4.5:1, in 24-bit colour and with 256 colours), a style with a background
// of its own on that background; and the two looks colour the same
// constructs.
func TestPaletteContrast(t *testing.T) {
	dark, light := colours(Dark()), colours(Light())
	for _, look := range []struct {
		name string
		page color.Color
		cols map[string][2]color.Color
	}{{"dark", color.Black, dark}, {"light", color.White, light}} {
		if len(look.cols) == 0 {
			t.Fatalf("%s: no coloured style", look.name)
		}
		for field, fb := range look.cols {
			bg := fb[1]
			if bg == nil {
				bg = look.page
			}
			readable(t, look.name+" "+field, fb[0], bg)
		}
	}
	for field := range dark {
		if _, ok := light[field]; !ok {
			t.Errorf("%s is coloured in the dark look only", field)
		}
	}
	for field := range light {
		if _, ok := dark[field]; !ok {
			t.Errorf("%s is coloured in the light look only", field)
		}
	}
}

// TestContrast: the ratio's known values (WCAG 2).
func TestContrast(t *testing.T) {
	for _, tc := range []struct {
		a, b color.Color
		want float64
	}{
		{color.Black, color.White, 21},
		{color.White, color.White, 1},
		{lipgloss.Color("#767676"), color.White, 4.54},
		{color.White, lipgloss.Color("#767676"), 4.54},
	} {
		if got := Contrast(tc.a, tc.b); math.Abs(got-tc.want) > 0.01 {
			t.Errorf("Contrast(%v, %v) = %.3f, want %.2f", tc.a, tc.b, got, tc.want)
		}
	}
}

// readable fails the test if fg on bg is hard to read (termmd.Legible).
func readable(t *testing.T, what string, fg, bg color.Color) {
	t.Helper()
	if err := Legible(fg, bg); err != nil {
		t.Errorf("%s: %v", what, err)
	}
}

// colours are the foreground and background (nil: none) of every style of
// st that has a foreground, by field name, read by reflection so that a
// style added later is checked too.
func colours(st Styles) map[string][2]color.Color {
	out := map[string][2]color.Color{}
	add := func(name string, s lipgloss.Style) {
		if fg := s.GetForeground(); !noColor(fg) {
			var bg color.Color
			if b := s.GetBackground(); !noColor(b) {
				bg = b
			}
			out[name] = [2]color.Color{fg, bg}
		}
	}
	v := reflect.ValueOf(st)
	for i := range v.NumField() {
		f, name := v.Field(i), v.Type().Field(i).Name
		switch x := f.Interface().(type) {
		case lipgloss.Style:
			add(name, x)
		case [6]lipgloss.Style:
			for j, s := range x {
				add(fmt.Sprintf("%s[%d]", name, j), s)
			}
		}
	}
	return out
}

// sgr matches the select-graphic-rendition sequences the renderer writes.
var sgrRe = regexp.MustCompile(`\x1b\[[0-9;:]*m`)

// TestHostile: terminal control sequences in model output, whether
// literal, as entity references or inside code, links and raw HTML, reach
// the output inert; with colour the only escape sequences are the
// renderer's own SGR styles.
func TestHostile(t *testing.T) {
	src := "title\x1b]0;pwned\x07 clear\x1b[2J\u009b31m bidi \u202egnp.exe\r over\n\n" +
		"entity &#27;[2J &#x1b;]8;;http://evil\x1b\\ &#x9b; &#8238;\n\n" +
		"`code \x1b[31m` [link\x1b[5m](http://x\x1b[2J) <span \x1b[1m>\n\n" +
		"```\nblock \x1b[?1049h\x07\n```\n\n<div>\x1b[2J</div>\n\n| h\x1b[7m |\n|---|\n| c\x1b]52;c;AAAA\x07 |\n"
	for _, st := range []Styles{Plain(), Dark(), Light()} {
		got := New(st).Render(src, 60)
		rest := sgrRe.ReplaceAllString(got, "")
		if strings.ContainsAny(rest, "\x1b\x07\r\u009b\u202e") {
			t.Errorf("control characters left in:\n%q", rest)
		}
		if st.Marks && strings.Contains(got, "\x1b") {
			t.Errorf("plain output has an escape sequence:\n%q", got)
		}
		for _, want := range []string{"␛]0;pwned␇", "␛[2J", "⟨U+009B⟩31m", "⟨U+202E⟩"} {
			if !strings.Contains(rest, want) {
				t.Errorf("%q is not shown, visibly, in:\n%s", want, rest)
			}
		}
	}
}

// inputs are Markdown documents: the repo's exported debates and README,
// and random documents mixing every construct.
func inputs(t testing.TB) map[string]string {
	out := map[string]string{}
	var paths []string
	for _, g := range []string{"../format/*/testdata/*.md", "../render/pdf/testdata/*.md", "../../README.md"} {
		m, err := filepath.Glob(g)
		if err != nil {
			t.Fatal(err)
		}
		paths = append(paths, m...)
	}
	if len(paths) < 5 {
		t.Fatalf("found %d Markdown documents in the repo, want the exported debates", len(paths))
	}
	for _, p := range paths {
		b, err := os.ReadFile(p)
		if err != nil {
			t.Fatal(err)
		}
		out[p] = string(b)
	}
	r := rand.New(rand.NewPCG(13, 12))
	for i := range 40 {
		out[fmt.Sprintf("random %d", i)] = randomMarkdown(r)
	}
	return out
}

var words = []string{"revenue", "grew", "65.5%", "-2.0", "pts", "日本語の文章", "🐂", "data-centre", "0001045810-26-000021",
	"a", "supercalifragilisticexpialidocious", "x", "(10-K)", "**strong**", "*em*", "~~gone~~", "`code span`", "[link](https://example.com/a/b)",
	"<b>", "&amp;", "\\*", "https://example.com/very/long/path/that/does/not/fit/anywhere/at/all", "ｆｕｌｌｗｉｄｔｈ", "e\u0301"}

func randomText(r *rand.Rand, n int) string {
	ws := make([]string, n)
	for i := range ws {
		ws[i] = words[r.IntN(len(words))]
	}
	return strings.Join(ws, " ")
}

func randomMarkdown(r *rand.Rand) string {
	var b strings.Builder
	for range 3 + r.IntN(8) {
		switch r.IntN(9) {
		case 0:
			fmt.Fprintf(&b, "%s %s\n\n", strings.Repeat("#", 1+r.IntN(6)), randomText(r, 1+r.IntN(8)))
		case 1:
			for d := range 1 + r.IntN(4) {
				fmt.Fprintf(&b, "%s- %s\n", strings.Repeat("  ", min(d, 2)), randomText(r, 1+r.IntN(20)))
			}
			b.WriteString("\n")
		case 2:
			for i := range 1 + r.IntN(12) {
				fmt.Fprintf(&b, "%d. %s\n", i+1, randomText(r, 1+r.IntN(15)))
			}
			b.WriteString("\n")
		case 3:
			fmt.Fprintf(&b, "> %s\n>\n> > %s\n\n", randomText(r, 5+r.IntN(30)), randomText(r, 3))
		case 4:
			fmt.Fprintf(&b, "```\n%s\n\t%s\n```\n\n", randomText(r, 3+r.IntN(20)), randomText(r, 2))
		case 5:
			cols := 1 + r.IntN(6)
			row := func(n int) string {
				cells := make([]string, cols)
				for i := range cells {
					cells[i] = randomText(r, n)
				}
				return "| " + strings.Join(cells, " | ") + " |\n"
			}
			b.WriteString(row(1))
			b.WriteString("|" + strings.Repeat(" :--: |", cols) + "\n")
			for range 1 + r.IntN(4) {
				b.WriteString(row(1 + r.IntN(6)))
			}
			b.WriteString("\n")
		case 6:
			b.WriteString("***\n\n")
		default:
			fmt.Fprintf(&b, "%s  \n%s\n\n", randomText(r, 5+r.IntN(60)), randomText(r, 1+r.IntN(10)))
		}
	}
	return b.String()
}

// TestNoLineOverWidth: at every width, in colour or not, no line of any
// document is wider than the width, and without colour no line carries an
// escape code.
func TestNoLineOverWidth(t *testing.T) {
	renderers := map[string]*Renderer{"plain": New(Plain()), "dark": New(Dark())}
	for name, src := range inputs(t) {
		for _, width := range []int{1, 2, 3, 5, 8, 13, 20, 33, 40, 57, 80, 120} {
			for look, r := range renderers {
				out := r.Render(src, width)
				if look == "plain" && strings.Contains(out, "\x1b") {
					t.Fatalf("%s at %d, plain: an escape code in the output", name, width)
				}
				for i, l := range strings.Split(out, "\n") {
					if w := ansi.StringWidth(l); w > width {
						t.Fatalf("%s at %d, %s: line %d is %d cells wide: %q", name, width, look, i+1, w, l)
					}
				}
			}
		}
	}
}

// TestWrapKeepsText: wrapping drops nothing but the spaces it breaks at,
// wide runes and long words included.
func TestWrapKeepsText(t *testing.T) {
	r := rand.New(rand.NewPCG(1, 2))
	for range 200 {
		var ws []string
		for range 1 + r.IntN(30) {
			w := words[r.IntN(len(words))]
			if strings.ContainsAny(w, "*`~[<&\\") {
				continue
			}
			ws = append(ws, w)
		}
		src := strings.Join(ws, " ")
		width := 2 + r.IntN(30)
		got := plain(src, width)
		if strings.ReplaceAll(strings.ReplaceAll(got, "\n", ""), " ", "") != strings.ReplaceAll(src, " ", "") {
			t.Fatalf("Render(%q, %d) lost text:\n%s", src, width, got)
		}
	}
}

// typicalTurn is a debate turn of about 600 words with a list and a table.
func typicalTurn() string {
	var b strings.Builder
	b.WriteString("## Bull opening\n\n")
	para := "Revenue growth (YoY) of **65.5%** in FY2026 (10-K 0001045810-26-000021) on *data centre* demand, with operating margin of 60.4% and a change of -2.0 pts that the bear will call decline. "
	for range 6 {
		b.WriteString(strings.Repeat(para, 2) + "\n\n")
	}
	for range 8 {
		b.WriteString("- Cash conversion of `0.86x` means earnings outrun cash, see [the filing](https://www.sec.gov/Archives/edgar/data/1045810/)\n")
	}
	b.WriteString("\n| Metric | FY2025 | FY2026 | Comment |\n|---|--:|--:|---|\n")
	for range 6 {
		b.WriteString("| Revenue | 130.5 | 216.0 | data centre demand drove most of it |\n")
	}
	b.WriteString("\n> The moderator asked for the margin trend.\n")
	return b.String()
}

func TestTypicalTurnSize(t *testing.T) {
	if n := len(strings.Fields(typicalTurn())); n < 550 || n > 750 {
		t.Fatalf("the typical turn has %d words, want about 600", n)
	}
}

// BenchmarkRender is the time to render a finished turn once.
func BenchmarkRender(b *testing.B) {
	src := typicalTurn()
	for _, look := range []struct {
		name string
		st   Styles
	}{{"dark", Dark()}, {"plain", Plain()}} {
		b.Run(look.name, func(b *testing.B) {
			r := New(look.st)
			b.ReportAllocs()
			for b.Loop() {
				if r.Render(src, 100) == "" {
					b.Fatal("nothing rendered")
				}
			}
		})
	}
}

// TestTableKeepsWords: when every column's widest word fits, a narrowed
// table breaks no word; the long sentence takes the lines instead.
func TestTableKeepsWords(t *testing.T) {
	src := "| Agent | Model | Cost |\n| --- | --- | --- |\n| Bear | openai/test-model | unknown, as there is no price for the model in the table of prices |\n"
	out := New(Plain()).Render(src, 40)
	if !strings.Contains(out, "openai/test-model") {
		t.Errorf("the model name is cut in two:\n%s", out)
	}
	for _, l := range strings.Split(out, "\n") {
		if w := ansi.StringWidth(l); w > 40 {
			t.Errorf("line of %d cells at width 40: %q", w, l)
		}
	}
	widths, ok := fitWords([]int{5, 17, 70}, []int{5, 17, 6}, 44)
	if !ok || widths[0] != 5 || widths[1] != 17 || widths[0]+widths[1]+widths[2] != 44 {
		t.Errorf("fitWords = %v, %v; want 5, 17 and the rest (22)", widths, ok)
	}
	if _, ok := fitWords([]int{20, 20}, []int{15, 15}, 25); ok {
		t.Error("fitWords fitted words wider than the table")
	}
}

// TestTableKeepsFigures: a table too wide for its widest words is
// narrowed, or laid out as records, without cutting a figure or a name in
// two: "$0.0123" on one line and "3" on the next reads as another number.
// Only words longer than keepWord (identifiers, URLs) may be broken.
func TestTableKeepsFigures(t *testing.T) {
	src := "| Agent | Model | Turns | Input | Cached input | Output | Cost |\n|---|---|--:|--:|--:|--:|--:|\n" +
		"| Performance Advocate | anthropic/claude-sonnet-4-5 | 4 | 12,345,678 | 4,352 | 124 | $0.0123 |\n" +
		"| Total | | 8 | 8,576 | 8,704 | 488 | $1,234.5678 |\n"
	figures := []string{"Performance", "Advocate", "12,345,678", "4,352", "$0.0123", "8,576", "8,704", "$1,234.5678"}
	for _, width := range []int{30, 40, 50, 60, 70, 80, 100} {
		out := New(Plain()).Render(src, width)
		for _, f := range figures {
			if !strings.Contains(out, f) {
				t.Errorf("at width %d %q is cut in two:\n%s", width, f, out)
			}
		}
		for _, l := range strings.Split(out, "\n") {
			if w := ansi.StringWidth(l); w > width {
				t.Errorf("line of %d cells at width %d: %q", w, width, l)
			}
		}
	}
}

// TestDeepNestingCostIsLinear: a reply that nests block quotes or lists
// deeper and deeper on one line ("> > > …", "1. 1. 1. …") costs in
// proportion to its length. Each level added a bar or a mark to every line
// below it and walked up its ancestors, and goldmark parses such nesting in
// more than linear time: a few hundred kilobytes took minutes, and the
// walk then overflowed the stack, which kills the process (the live view,
// the shell). The memory allocated stands for the cost: four times the
// depth may cost four times as much, not sixteen.
func TestDeepNestingCostIsLinear(t *testing.T) {
	r := New(Dark())
	for name, unit := range map[string]string{"quotes": "> ", "ordered": "1. ", "bullets": "- ", "mixed": "> - "} {
		t.Run(name, func(t *testing.T) {
			cost := func(n int) uint64 {
				var before, after runtime.MemStats
				runtime.ReadMemStats(&before)
				r.Render(strings.Repeat(unit, n)+"deep", 80)
				runtime.ReadMemStats(&after)
				return after.TotalAlloc - before.TotalAlloc
			}
			small, large := cost(2000), cost(8000)
			if large > 6*small {
				t.Errorf("nesting 4 times as deep allocates %.1f times as much (%d KB, was %d KB)", float64(large)/float64(small), large>>10, small>>10)
			}
		})
	}
}

// BenchmarkRenderHostile renders replies a model may send to make every
// Markdown view slow, at 1, 10 and 100 KB: the time per byte should not
// grow with the size. Emphasis runs ("*a **a "), a "[a]" on every line of
// one paragraph (goldmark walked the paragraph's lines back at each), and
// link destinations in angle brackets never closed ("[a]( <b": goldmark
// looked for the ">" to the line's end at each) are among them.
func BenchmarkRenderHostile(b *testing.B) {
	r := New(Plain())
	for _, c := range []struct{ name, unit string }{
		{"emphasis", "*a **a "}, {"emphasis-lines", "*a\n**a\n"}, {"delimiters", "a**b c* "},
		{"bracket-lines", "[a]\n"}, {"angle-destinations", "[a]( <b"}, {"angle-lines", "[a](<b\n"},
		{"titles", "[a](b \"x\n"}, {"definitions", "[a]: u\n"},
	} {
		for _, size := range []int{1 << 10, 10 << 10, 100 << 10} {
			src := strings.Repeat(c.unit, size/len(c.unit))
			b.Run(fmt.Sprintf("%s/%dk", c.name, size>>10), func(b *testing.B) {
				b.SetBytes(int64(len(src)))
				for b.Loop() {
					r.Render(src, 80)
				}
			})
		}
	}
}

// TestFlattenBoundsSpans: emphasis and strikethrough spans nested deeper
// than maxNesting are replaced by what they hold, their text kept in
// order. The walker recursed once for each span with kilobytes of stack:
// a megabyte of "*a **a " … " a** a*" (150,000 deep) overflowed the stack,
// a fatal error that ended the shell.
func TestFlattenBoundsSpans(t *testing.T) {
	for name, src := range map[string]string{
		"emphasis": strings.Repeat("*a **a ", 3000) + "b" + strings.Repeat(" a** a*", 3000),
		"strike":   strings.Repeat("~~a *a ", 3000) + "b" + strings.Repeat(" a* a~~", 3000),
		"in lists": "- " + strings.Repeat("**x *y ", 500) + "z" + strings.Repeat(" y* x**", 500) + "\n- " + strings.Repeat("_a ", 100) + "end" + strings.Repeat(" a_", 100) + "\n",
		"shallow":  "*a **b ~~c~~ b** a* and **more**",
	} {
		t.Run(name, func(t *testing.T) {
			r := New(Plain())
			source := []byte(src)
			doc := r.md.Parse(text.NewReader(source))
			before := texts(doc, source)
			deepest := spanDepth(doc)
			flatten(doc, maxNesting)
			if d := spanDepth(doc); d > maxNesting || (deepest <= maxNesting && d != deepest) {
				t.Errorf("spans %d deep after flatten (%d before), want at most %d, and as before when within it", d, deepest, maxNesting)
			}
			if after := texts(doc, source); after != before {
				t.Errorf("the text changed:\n%.200q\nwant\n%.200q", after, before)
			}
		})
	}
}

// spanDepth is how deep emphasis and strikethrough spans nest in n.
func spanDepth(n ast.Node) int {
	deepest := 0
	for c := n.FirstChild(); c != nil; c = c.NextSibling() {
		d := spanDepth(c)
		switch c.(type) {
		case *ast.Emphasis, *east.Strikethrough:
			d++
		}
		deepest = max(deepest, d)
	}
	return deepest
}

// texts is the text of n's Text nodes, in order.
func texts(n ast.Node, src []byte) string {
	var b strings.Builder
	_ = ast.Walk(n, func(n ast.Node, entering bool) (ast.WalkStatus, error) {
		if t, ok := n.(*ast.Text); ok && entering {
			b.Write(t.Segment.Value(src))
			b.WriteByte('|')
		}
		return ast.WalkContinue, nil
	})
	return b.String()
}
