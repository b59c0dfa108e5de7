package pdf_test

import (
	"bytes"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"runtime"
	"strings"
	"testing"

	"github.com/parleyhq/parley/internal/render/pdf"
)

// pdfText extracts the text of a PDF with poppler's pdftotext (-layout keeps
// table rows on one line). Without poppler-utils the check is skipped: the
// layout cannot be read back otherwise.
func pdfText(t *testing.T, doc []byte) string {
	t.Helper()
	bin, err := exec.LookPath("pdftotext")
	if err != nil {
		t.Skip("pdftotext not found: install poppler-utils (apt-get install poppler-utils) to check the PDF's text")
	}
	path := filepath.Join(t.TempDir(), "doc.pdf")
	if err := os.WriteFile(path, doc, 0o644); err != nil {
		t.Fatal(err)
	}
	out, err := exec.Command(bin, "-layout", "-enc", "UTF-8", path, "-").Output()
	if err != nil {
		t.Fatalf("pdftotext: %v", err)
	}
	return string(out)
}

func render(t *testing.T, title, md string) []byte {
	t.Helper()
	var buf bytes.Buffer
	if err := pdf.Render(&buf, title, md); err != nil {
		t.Fatalf("Render: %v", err)
	}
	b := buf.Bytes()
	if !bytes.HasPrefix(b, []byte("%PDF-")) || !bytes.Contains(b[len(b)-32:], []byte("%%EOF")) {
		t.Fatalf("not a PDF: starts %q", b[:min(len(b), 16)])
	}
	return b
}

// squash collapses runs of spaces, so that checks do not depend on layout.
func squash(s string) string { return regexp.MustCompile(`[ \t]+`).ReplaceAllString(s, " ") }

func mustContain(t *testing.T, text string, want ...string) {
	t.Helper()
	for _, w := range want {
		if !strings.Contains(squash(text), w) {
			t.Errorf("PDF text lacks %q\n--- text ---\n%s", w, text)
		}
	}
}

func TestRenderBullbearExport(t *testing.T) {
	md, err := os.ReadFile("testdata/bullbear.full.md")
	if err != nil {
		t.Fatal(err)
	}
	text := pdfText(t, render(t, "NVDA Bull vs. Bear Debate", string(md)))
	mustContain(t, text,
		"NVDA Bull vs. Bear Debate",
		"BULL CASE (2 points)", "BEAR CASE (2 points)", "KEY FIGURES (per the 10-K)",
		"MODERATOR SYNTHESIS", "Conviction: 7/10 STRONG BULL",
		"Revenue: $215,938M in FY2026", "Free cash flow: $96,676M in FY2026",
		"Bull thesis breaks if: gross margin falls below 60%",
		"Phase 3: Rebuttals", "Gross margin of 71% shows pricing power",
		// The token and cost report is a table: each row reads on one line.
		"Agent Model Turns Input Cached input Output Cost",
		"Bull scripted/test-model 4 423 474 75 unknown",
		"Total 9 1,170 963 197 unknown",
		"Page 1 of 3", "Page 3 of 3",
	)
	// The emoji of the headings are not in the fonts: they are dropped, not
	// printed as boxes or question marks.
	if strings.ContainsAny(text, "🐂🐻\ufffd") {
		t.Errorf("emoji or replacement characters in the PDF text:\n%s", text)
	}
	// The title is printed once, not again from the Markdown's "# " heading.
	if n := strings.Count(strings.SplitN(text, "\f", 2)[0], "NVDA Bull vs. Bear Debate"); n != 1 {
		t.Errorf("title printed %d times on page 1", n)
	}
}

func TestRenderPerspectivesExport(t *testing.T) {
	md, err := os.ReadFile("testdata/perspectives.full.md")
	if err != nil {
		t.Fatal(err)
	}
	text := pdfText(t, render(t, "Decision: Should we use Redis or PostgreSQL for caching?", string(md)))
	mustContain(t, text,
		"Perspectives Considered", "Performance Advocate", "Points of Agreement", "Recommendation",
		"Confidence: Medium", "Start with PostgreSQL unlogged tables",
		"Transcript", "Round 1",
	)
	// "**Date:** ...", "**Debate ID:** ..." stay on lines of their own.
	mustContain(t, text, "Date: 2026-01-15\n", "Debate ID: DEB-test1\n")
}

func TestRenderTable(t *testing.T) {
	md := `## Tokens and cost

| Agent | Input | Output | Cached | Cost |
| --- | ---: | ---: | ---: | ---: |
| bull | 1,200 | 300 | 800 | $0.0081 |
| bear | 1,100 | 290 | 750 | $0.0077 |
| **Total** | **2,300** | **590** | **1,550** | **$0.0158** |
`
	text := pdfText(t, render(t, "Usage", md))
	// A table reads as a table: each row on one line, cells in order.
	for _, row := range []string{
		"Agent Input Output Cached Cost",
		"bull 1,200 300 800 $0.0081",
		"bear 1,100 290 750 $0.0077",
		"Total 2,300 590 1,550 $0.0158",
	} {
		mustContain(t, text, row)
	}
}

func TestRenderLongTableWrapsAndBreaksPages(t *testing.T) {
	var b strings.Builder
	b.WriteString("| # | Claim | Source |\n| - | - | - |\n")
	long := strings.Repeat("a claim long enough to wrap over several lines of a narrow column ", 3)
	for i := range 60 {
		b.WriteString("| " + strings.Repeat("x", i%3+1) + " | " + long + " | 10-K FY2026 |\n")
	}
	text := pdfText(t, render(t, "Claims", b.String()))
	if !strings.Contains(text, "Page 2 of") {
		t.Fatalf("a 60-row table fits on one page?\n%s", text)
	}
	// The header repeats on the next page.
	pages := strings.Split(text, "\f")
	if !strings.Contains(squash(pages[1]), "# Claim Source") {
		t.Errorf("page 2 does not repeat the table header:\n%s", pages[1])
	}
}

func TestRenderOddInput(t *testing.T) {
	for name, md := range map[string]string{
		"empty":    "",
		"emoji":    "# 🐂 Bull 👨‍👩‍👧 case ⚖️\n\n- 🚀🚀 **to the moon** 🌕\n",
		"invalid":  "bad \xff\xfe bytes and a tab\there",
		"code":     "```\nfunc main() {\n\tprintln(\"hi\")\n}\n```\n",
		"nested":   "1. one\n   - a\n     - deep `code` and [link](https://example.com)\n2. two\n\n> quoted\n> text\n\n---\n\n<b>html</b>\n",
		"longword": strings.Repeat("x", 2000),
		"cjk":      "## 市场 analysis\n\n| 公司 | 收入 |\n| - | - |\n| 英伟达 | 2,159 |\n",
	} {
		t.Run(name, func(t *testing.T) {
			render(t, "Odd "+name, md)
		})
	}
}

// A long line of code wraps at a word boundary, not mid-word; a table with
// no row draws no empty frame.
func TestRenderCodeWrapAndEmptyTable(t *testing.T) {
	long := strings.Repeat("evidence ", 20) + "internal/billing/invoice_builder.go"
	doc := render(t, "Wrap", "# Wrap\n\n```\n"+long+"\n```\n\n| Agent | Cost |\n| --- | ---: |\n")
	text := squash(pdfText(t, doc))
	if !strings.Contains(text, "internal/billing/invoice_builder.go") {
		t.Errorf("a word was broken:\n%s", text)
	}
	for _, l := range strings.Split(text, "\n") {
		if f := strings.Fields(l); len(f) > 0 && strings.HasPrefix(f[0], "vidence") {
			t.Errorf("a word was broken at the line's start: %q", l)
		}
	}
	if !strings.Contains(text, "(none)") || strings.Contains(text, "Agent Cost") {
		t.Errorf("an empty table was drawn:\n%s", text)
	}
}

// allocated is the bytes that rendering md allocates.
func allocated(t *testing.T, md string) uint64 {
	t.Helper()
	var before, after runtime.MemStats
	runtime.ReadMemStats(&before)
	if err := pdf.Render(io.Discard, "Long", md); err != nil {
		t.Fatal(err)
	}
	runtime.ReadMemStats(&after)
	return after.TotalAlloc - before.TotalAlloc
}

// TestRenderCostIsLinear: what laying out a paragraph costs grows with its
// length, not with the square of it. A model's reply of a megabyte on one
// line (hostile, or a runaway) took hours to export as a PDF, in the CLI
// and in the dashboard, because fpdf's Write converts its whole string to
// runes again for every character it lays out. The memory allocated stands
// for that cost: four times the text may cost four times as much, and a
// little more for the pages, but not sixteen times.
func TestRenderCostIsLinear(t *testing.T) {
	for name, doc := range map[string]func(n int) string{
		"words":       func(n int) string { return strings.Repeat("word ", n/5) },
		"one word":    func(n int) string { return strings.Repeat("x", n) },
		"with a link": func(n int) string { return "[" + strings.Repeat("link ", n/5) + "](https://example.com)" },
		"raw HTML":    func(n int) string { return strings.Repeat("<div>\n", n/6) },
		// Scripts the fonts lack (printed as code points), right-to-left
		// text, and letters under stacks of combining marks.
		"CJK and emoji": func(n int) string { return strings.Repeat("中文字符 👍🏽 ", n/20) },
		"right to left": func(n int) string { return strings.Repeat("שלום مرحبا ", n/20) },
		"combining":     func(n int) string { return strings.Repeat("Z\u0336\u0337\u0338\u0489e\u0301 ", n/13) },
	} {
		t.Run(name, func(t *testing.T) {
			small, large := allocated(t, doc(16<<10)), allocated(t, doc(64<<10))
			if large > 6*small {
				t.Errorf("a paragraph 4 times as long allocates %.1f times as much (%d MB, was %d MB): the cost grows faster than the text", float64(large)/float64(small), large>>20, small>>20)
			}
		})
	}
}

// TestLinksOnlyToTheWeb: a PDF link opens what it names when clicked, and a
// reader hands a javascript:, file: or relative destination to a script
// engine or the file system (a relative one resolves against the PDF's own
// folder). Only http, https and mailto destinations become links; the
// other links' text is printed, unlinked.
func TestLinksOnlyToTheWeb(t *testing.T) {
	md := "See [js](javascript:alert(1)), [JS](  JaVaScRiPt:alert(2)), [file](file:///etc/passwd), [rel](../../secret.txt), " +
		"[data](data:text/html,x), <file:///C:/Windows/calc.exe> and [web](https://example.com/a), <http://example.org/b>, [mail](mailto:a@example.com).\n"
	doc := render(t, "Links", md)
	var got []string
	for _, m := range regexp.MustCompile(`/URI \(((?:[^)\\]|\\.)*)\)`).FindAllSubmatch(doc, -1) {
		got = append(got, string(m[1]))
	}
	want := []string{"https://example.com/a", "http://example.org/b", "mailto:a@example.com"}
	if strings.Join(got, " ") != strings.Join(want, " ") {
		t.Errorf("the PDF links to %q, want only %q", got, want)
	}
	mustContain(t, pdfText(t, doc), "See js, JS, file, rel, data, file:///C:/Windows/calc.exe and web")
}

// TestRenderShowsWhatTheFontsLack: characters the fonts have no glyph for
// (Chinese, Korean, emoji) are printed as their code points, in the title,
// text, tables and code, and a note at the end says so; fpdf drew blank
// boxes for them, and emoji were dropped, so that a verdict given as 👎
// left an empty cell. What the fonts have (Greek, Cyrillic, ✓)
// prints as written, and the emoji that decorate headings are dropped.
func TestRenderShowsWhatTheFontsLack(t *testing.T) {
	md := "## 🐂 Bull case\n\nVerdict: 👍 采用 PostgreSQL, Ελληνικά Русский ✓\n\n한국어 and `代码`.\n\n" +
		"| Option | Vote |\n| --- | --- |\n| Redis | 👎 |\n\n```\n数据 = 1\n```\n"
	text := squash(pdfText(t, render(t, "市场 Title", md)))
	mustContain(t, text,
		"⟨U+5E02⟩⟨U+573A⟩ Title",
		"Verdict: ⟨U+1F44D⟩ ⟨U+91C7⟩⟨U+7528⟩ PostgreSQL, Ελληνικά Русский ✓",
		"⟨U+D55C⟩⟨U+AD6D⟩⟨U+C5B4⟩ and ⟨U+4EE3⟩⟨U+7801⟩.",
		"Redis ⟨U+1F44E⟩",
		"⟨U+6570⟩⟨U+636E⟩ = 1",
		"are shown by their code points, as ⟨U+5E02⟩;",
	)
	if !strings.Contains(text, "Bull case") || strings.Contains(text, "U+1F402") {
		t.Errorf("the heading's emoji is not dropped, or the heading is lost:\n%s", text)
	}
	// Without such characters there is no note.
	if plain := pdfText(t, render(t, "Title", "## 🐂 Bull case\n\nΕλληνικά ✓\n")); strings.Contains(plain, "code points") {
		t.Errorf("a note about characters outside the fonts, with none:\n%s", plain)
	}
}

// TestRenderNamesControlPictures: the visible forms every view gives a
// control character (textsafe.Clean's ␛, ␇, ␡), which DejaVu has no glyph
// for, print as the control's name in the title, text, headings, tables and
// code, "⟨ESC⟩"; they printed as "⟨U+241B⟩", with the note about
// characters the fonts lack, as if the text held a character the PDF could
// not print.
func TestRenderNamesControlPictures(t *testing.T) {
	md := "## Heading ␛]0;x␇\n\nThe topic: Redis␛[2J or ␡ PostgreSQL␤?\n\n| Reply | Note |\n| --- | --- |\n| ␀ | ␈␉ |\n\n```\nx = \"␛[31m\"\n```\n"
	text := squash(pdfText(t, render(t, "Redis␛[2J or PostgreSQL?", md)))
	mustContain(t, text,
		"Redis⟨ESC⟩[2J or PostgreSQL?",
		"Heading ⟨ESC⟩]0;x⟨BEL⟩",
		"The topic: Redis⟨ESC⟩[2J or ⟨DEL⟩ PostgreSQL⟨NL⟩?",
		"⟨NUL⟩ ⟨BS⟩⟨HT⟩",
		`x = "⟨ESC⟩[31m"`,
	)
	if strings.Contains(text, "U+24") || strings.Contains(text, "code points") {
		t.Errorf("a control picture is shown by its code point, or noted as a character the fonts lack:\n%s", text)
	}
}

// TestRenderSaysRightToLeftIsNotReordered: fpdf has no bidirectional
// algorithm nor Arabic shaping, so right-to-left text is printed left to
// right in the order it is stored, its letters unjoined, which reads
// backwards; a note at the end says so and points to the Markdown export,
// as for the characters the fonts lack. Other text gets no note.
func TestRenderSaysRightToLeftIsNotReordered(t *testing.T) {
	for _, md := range []string{"Verdict: שלום עולם\n", "| a |\n|---|\n| مرحبا |\n", "```\nx = \"שלום\"\n```\n"} {
		text := squash(pdfText(t, render(t, "Title", md)))
		mustContain(t, text, "Right-to-left text (such as Hebrew or Arabic) is printed left to right")
	}
	if text := squash(pdfText(t, render(t, "Title", "Ελληνικά Русский ✓ e\u0301\n"))); strings.Contains(text, "Right-to-left") {
		t.Errorf("a note about right-to-left text, with none:\n%s", text)
	}
}
