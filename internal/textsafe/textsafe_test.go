package textsafe

import (
	"encoding/json"
	"strings"
	"testing"
)

func TestClean(t *testing.T) {
	for _, tc := range []struct{ in, want string }{
		{"plain text\nwith\ttabs", "plain text\nwith\ttabs"},
		{"title\x1b]0;pwned\x07 clear\x1b[2J", "title␛]0;pwned␇ clear␛[2J"},
		{"fake\rreal", "fake␍real"},
		{"line\r\nnext", "line\nnext"},
		{"back\x08\x08space", "back␈␈space"},
		{"del\x7f", "del␡"},
		{"csi\u009b31m", "csi⟨U+009B⟩31m"},
		{"bidi \u202egnp.exe", "bidi ⟨U+202E⟩gnp.exe"},
		{"bad \xff byte", "bad \uFFFD byte"},
		// A hyperlink (OSC 8), the clipboard (OSC 52), a device control
		// string, a raw 8-bit CSI byte, NUL, the bidi isolates.
		{"\x1b]8;;https://evil.example\x1b\\click\x1b]8;;\x1b\\", "␛]8;;https://evil.example␛\\click␛]8;;␛\\"},
		{"\x1b]52;c;cm0gLXJmIH4=\x07 \x1bP+q544e\x1b\\", "␛]52;c;cm0gLXJmIH4=␇ ␛P+q544e␛\\"},
		{"raw \x9b2J nul\x00", "raw \uFFFD2J nul␀"},
		{"\u2066a\u2067b\u2068c\u2069", "⟨U+2066⟩a⟨U+2067⟩b⟨U+2068⟩c⟨U+2069⟩"},
		{"naïve café — ok", "naïve café — ok"},
		// Invisible characters that hide text are shown; those that join
		// emoji and letters or mark direction are kept.
		{"pay\u200bpal \ufeffx\u2060y\u3164", "pay⟨U+200B⟩pal ⟨U+FEFF⟩x⟨U+2060⟩y⟨U+3164⟩"},
		{"ok\U000E0069\U000E0067\U000E006Enore", "ok⟨U+E0069⟩⟨U+E0067⟩⟨U+E006E⟩nore"},
		// The other default-ignorable characters that show nothing, but the
		// variation selectors (emoji, CJK) and Mongolian's.
		{"pay\u00adpal a\u034fb \u115f\u1160\u17b4\u206a\ufff0\U0001BCA0\U0001D173x", "pay⟨U+00AD⟩pal a⟨U+034F⟩b ⟨U+115F⟩⟨U+1160⟩⟨U+17B4⟩⟨U+206A⟩⟨U+FFF0⟩⟨U+1BCA0⟩⟨U+1D173⟩x"},
		{"☺\ufe0f 葛\U000E0100 ᠠ\u180b", "☺\ufe0f 葛\U000E0100 ᠠ\u180b"},
		// A variation selector chooses the glyph of the character before
		// it; one that follows another chooses nothing, and a run of them
		// carries bytes unseen (one for each: "emoji smuggling"). Those
		// after the first are shown.
		{"hi😀\ufe00\ufe01\U000E0100\U000E01EF!", "hi😀\ufe00⟨U+FE01⟩⟨U+E0100⟩⟨U+E01EF⟩!"},
		{"👁\ufe0f\u200d🗨\ufe0f #\ufe0f\u20e3", "👁\ufe0f\u200d🗨\ufe0f #\ufe0f\u20e3"},
		{"👨\u200d👩\u200d👧 می\u200cخواهم \u05d0\u200f1", "👨\u200d👩\u200d👧 می\u200cخواهم \u05d0\u200f1"},
		{"flag 🏴\U000E0067\U000E0062\U000E0073\U000E0063\U000E0074\U000E007F!", "flag 🏴\U000E0067\U000E0062\U000E0073\U000E0063\U000E0074\U000E007F!"},
	} {
		if got := Clean(tc.in); got != tc.want {
			t.Errorf("Clean(%q) = %q, want %q", tc.in, got, tc.want)
		}
	}
}

func TestJSON(t *testing.T) {
	in := []byte(`{"text":"a\u001b[2Jb","n":12345678901234567890,"list":["\r",{"k\u0007":"ok"}]}`)
	var got map[string]any
	if err := json.Unmarshal(JSON(in), &got); err != nil {
		t.Fatal(err)
	}
	if got["text"] != "a␛[2Jb" || got["list"].([]any)[0] != "␍" {
		t.Errorf("JSON cleaned %v", got)
	}
	if _, ok := got["list"].([]any)[1].(map[string]any)["k␇"]; !ok {
		t.Errorf("keys are not cleaned: %v", got)
	}
	if !strings.Contains(string(JSON(in)), "12345678901234567890") {
		t.Error("a large number lost precision")
	}
	safe := []byte(`{"text":"nothing to do"}`)
	if string(JSON(safe)) != string(safe) {
		t.Error("a clean document was rewritten")
	}
}

// TestStyled: Styled escapes bidi and C1 controls but keeps the 7-bit ANSI
// styling a widget added.
func TestStyled(t *testing.T) {
	in := "\x1b[1mabc\u202edef\u0085\x1b[0m😀\ufe0f\ufe0f"
	if got, want := Styled(in), "\x1b[1mabc⟨U+202E⟩def⟨U+0085⟩\x1b[0m😀\ufe0f⟨U+FE0F⟩"; got != want {
		t.Errorf("Styled(%q) = %q, want %q", in, got, want)
	}
	if s := "\x1b[7m plain \x1b[0m"; Styled(s) != s {
		t.Errorf("Styled changed %q", s)
	}
}

// TestShallow: a line may open MaxNesting block quotes and lists, behind
// at most MaxIndent columns of indentation; markers past them are dropped
// and the indentation cut, the text after them kept, and lines that nest no
// deeper are left as they are. A table may have a cell for each byte of
// its rows, or MaxCells. A long run without white space opens one link.
func TestShallow(t *testing.T) {
	deep := strings.Repeat("1. ", MaxNesting)
	wide := "> |" + strings.Repeat("a|", 5000)
	for _, tc := range []struct{ in, want string }{
		{"plain\n> quote\n- a\n  - b\n", "plain\n> quote\n- a\n  - b\n"},
		{deep + "x", deep + "x"},
		{deep + "1. 2) - * + > >x\nnext\n", deep + "x\nnext\n"},
		{"ok\n" + strings.Repeat(">", 100) + " deep\nafter", "ok\n" + strings.Repeat(">", MaxNesting) + "deep\nafter"},
		{strings.Repeat("> - ", 40) + "end", strings.Repeat("> - ", 16) + "end"},
		{strings.Repeat("-", 80), strings.Repeat("-", 80)}, // a rule, not markers
		{strings.Repeat("1.5 ", 40), strings.Repeat("1.5 ", 40)},
		// Indentation in front of markers is cut to MaxIndent columns in
		// all; indentation before text (code) is not.
		{"a\n" + strings.Repeat(" ", 200) + "- deep\n", "a\n" + strings.Repeat(" ", MaxIndent) + "- deep\n"},
		{"> " + strings.Repeat(" ", 100) + "> " + strings.Repeat(" ", 100) + "1. x", "> " + strings.Repeat(" ", 100) + "> " + strings.Repeat(" ", MaxIndent-100) + "1. x"},
		{strings.Repeat("\t", 40) + "* x", strings.Repeat(" ", MaxIndent) + "* x"}, // a tab counts four
		{strings.Repeat(" ", 200) + "code", strings.Repeat(" ", 200) + "code"},
		{strings.Repeat(" ", MaxIndent) + "- x", strings.Repeat(" ", MaxIndent) + "- x"},
		// A table whose rows would hold more cells than they have bytes is
		// text: its delimiter row is escaped. Others are kept.
		{wide + "\n" + "> |" + strings.Repeat("-|", 5000) + "\n" + strings.Repeat("> |b|\n", 10), wide + "\n" + "> \\|" + strings.Repeat("-|", 5000) + "\n" + strings.Repeat("> |b|\n", 10)},
		{"| a | b |\n|---|:-:|\n| 1 | 2 |\n\ntext", "| a | b |\n|---|:-:|\n| 1 | 2 |\n\ntext"},
		// In a run of over MaxRun bytes without white space, the link
		// openings after the first are escaped; shorter runs, and a long
		// address, are left.
		{"x " + strings.Repeat("[a](b", 300) + " [c](d) [e](f)", "x [a](b" + strings.Repeat("[a]\\(b", 299) + " [c](d) [e](f)"},
		{strings.Repeat("[a](b) ", 300), strings.Repeat("[a](b) ", 300)},
		{"[long](https://example.com/?q=" + strings.Repeat("x", 2000) + ")", "[long](https://example.com/?q=" + strings.Repeat("x", 2000) + ")"},
		{"|" + strings.Repeat(" a |", 100) + "\n|" + strings.Repeat("---|", 100) + "\n" + strings.Repeat("| x |\n", 40), "|" + strings.Repeat(" a |", 100) + "\n|" + strings.Repeat("---|", 100) + "\n" + strings.Repeat("| x |\n", 40)},
		// A bracket opened more than MaxNesting deep in its paragraph is
		// escaped, on one line or over many; brackets closed again, escaped
		// ones and those of another paragraph open nothing deeper.
		{strings.Repeat("[", 40) + "a" + strings.Repeat("]", 40), strings.Repeat("[", MaxNesting) + strings.Repeat("\\[", 40-MaxNesting) + "a" + strings.Repeat("]", 40)},
		{strings.Repeat("[\n", 40) + "a", strings.Repeat("[\n", MaxNesting) + strings.Repeat("\\[\n", 40-MaxNesting) + "a"},
		{strings.Repeat("[", 30) + "\n \n" + strings.Repeat("[", 30) + "x", strings.Repeat("[", 30) + "\n \n" + strings.Repeat("[", 30) + "x"},
		{strings.Repeat("\\[", 40) + "a", strings.Repeat("\\[", 40) + "a"},
		{strings.Repeat("[a] ", 100) + strings.Repeat("[[b]] ", 100), strings.Repeat("[a] ", 100) + strings.Repeat("[[b]] ", 100)},
		{"```json\n" + strings.Repeat("[", 40) + "\n```\n" + strings.Repeat("[", 40), "```json\n" + strings.Repeat("[", 40) + "\n```\n" + strings.Repeat("[", MaxNesting) + strings.Repeat("\\[", 40-MaxNesting)},
		// On a line of over MaxRun bytes, a link destination in angle
		// brackets whose ">" is not within MaxRun bytes is escaped: goldmark
		// looks for it up to the line's end at every "](", spaces or not.
		{"x " + strings.Repeat("[a]( <b ", 300), "x " + strings.Repeat("[a]\\( <b ", 300)},
		{strings.Repeat("[a]( <b> ) ", 300), strings.Repeat("[a]( <b> ) ", 300)},
		{strings.Repeat("[a](<b\\>", 300), strings.Repeat("[a]\\(<b\\>", 300)},
	} {
		if got := Shallow(tc.in); got != tc.want {
			t.Errorf("Shallow(%.60q…) = %.80q…, want %.80q…", tc.in, got, tc.want)
		}
	}
}

// TestInertJSON: DEL, C1 controls, bidi overrides, invisible and tag
// characters, which encoders leave raw, are escaped; the document decodes
// to the same value.
func TestInertJSON(t *testing.T) {
	v := map[string]string{"text": "csi\u009b31m del\x7f bidi\u202egnp.exe\u2066 naïve → ok \u2028 😀\ufe0f\U000E0101"}
	in, err := json.Marshal(v)
	if err != nil {
		t.Fatal(err)
	}
	out := InertJSON(in)
	if strings.ContainsAny(string(out), "\u009b\x7f\u202e\u2066") {
		t.Errorf("InertJSON left an active character raw: %q", out)
	}
	if !strings.Contains(string(out), `csi\u009b31m del\u007f bidi\u202egnp.exe\u2066 naïve → ok`) || !strings.Contains(string(out), "😀\ufe0f\\udb40\\udd01") {
		t.Errorf("InertJSON(%s) = %s", in, out)
	}
	var back map[string]string
	if err := json.Unmarshal(out, &back); err != nil || back["text"] != v["text"] {
		t.Errorf("the escaped document decodes to %q (%v), want %q", back["text"], err, v["text"])
	}
	// Invisible characters, those beyond the Basic Multilingual Plane as
	// surrogate pairs, and tag characters, which carry ASCII unseen (a
	// flag's too: JSON is read by programs).
	v = map[string]string{"text": "pay\u00adpal a\u034fb \U0001D173 hidden:\U000E0041\U000E0042 flag 🏴\U000E0067\U000E007F"}
	if in, err = json.Marshal(v); err != nil {
		t.Fatal(err)
	}
	out = InertJSON(in)
	if want := `pay\u00adpal a\u034fb \ud834\udd73 hidden:\udb40\udc41\udb40\udc42 flag 🏴\udb40\udc67\udb40\udc7f`; !strings.Contains(string(out), want) {
		t.Errorf("InertJSON(%s) = %s, want %s in it", in, out, want)
	}
	if err := json.Unmarshal(out, &back); err != nil || back["text"] != v["text"] {
		t.Errorf("the escaped document decodes to %q (%v), want %q", back["text"], err, v["text"])
	}
	if plain := []byte(`{"a":"naïve → ok"}`); &InertJSON(plain)[0] != &plain[0] {
		t.Error("a document with nothing to escape was copied")
	}
}

// TestShallowBracketWork: goldmark pays, for each bracket a paragraph's
// "]" closes, one step for each line of the paragraph after the bracket's
// (it finds the bracket's line from the paragraph's last), so a reply of
// "[a]" on each of its lines cost the square of its lines. Brackets are
// escaped once a document's steps would pass its budget (MaxBracketWork,
// or BracketWorkPerByte for each of its bytes); a document whose
// paragraphs are short, or a long list of links (each item its own
// paragraph), is left as it is.
func TestShallowBracketWork(t *testing.T) {
	for _, in := range []string{
		strings.Repeat("see [a] and [b](c)\n", 30) + "\n" + strings.Repeat("see [a] and [b](c)\n", 30),
		strings.Repeat("- [a link](https://example.com/)\n", 5000),
		strings.Repeat("1. [a link](https://example.com/)\n", 5000),
		strings.Repeat("> - [a link](https://example.com/)\n", 5000),
		strings.Repeat("# [a]\n[b]\n", 5000),
	} {
		if got := Shallow(in); got != in {
			t.Errorf("Shallow changed %.60q…", in)
		}
	}
	for _, tc := range []struct {
		name string
		in   string
	}{
		{"one per line", strings.Repeat("[a]\n", 100_000)},
		{"after a list", strings.Repeat("- x\n", 10) + strings.Repeat("[a] [b]\n", 50_000)},
		{"continued as 2.", "a\n" + strings.Repeat("2. [a]\n", 50_000)},
		{"quoted", strings.Repeat("> [a]\n", 50_000)},
	} {
		t.Run(tc.name, func(t *testing.T) {
			got := Shallow(tc.in)
			// The paragraph is the whole text (after the list): its
			// steps are those of the brackets left open to goldmark.
			lines := strings.Split(strings.TrimSuffix(got, "\n"), "\n")
			start := 0
			for start < len(lines) && strings.HasPrefix(lines[start], "- ") {
				start++
			}
			lines = lines[start:]
			steps := 0
			for i, l := range lines {
				steps += (len(lines) - i) * (strings.Count(l, "[") - strings.Count(l, "\\["))
			}
			if budget := max(MaxBracketWork, BracketWorkPerByte*len(tc.in)); steps > budget {
				t.Errorf("goldmark would take %d steps for the brackets, over the budget of %d", steps, budget)
			}
			if strings.ReplaceAll(got, "\\[", "[") != tc.in {
				t.Errorf("Shallow changed more than brackets: %.80q", got)
			}
		})
	}
}

func TestPlainLine(t *testing.T) {
	for s, want := range map[string]bool{
		"Performance Advocate": true, "セイラー 🟠": true, "مرحبا": true, "👩‍💻 Dev": true,
		"a\nb": false, "a\tb": false, "a\x1b[2J": false, "a\u009bb": false, "a\u202eb": false, "a\u200bb": false, "a\xffb": false, "a\r": false,
	} {
		if got := PlainLine(s); got != want {
			t.Errorf("PlainLine(%q) = %v, want %v", s, got, want)
		}
	}
}

func TestLine(t *testing.T) {
	for _, c := range []struct {
		in   string
		max  int
		want string
	}{
		{"Performance Advocate · argument", 60, "Performance Advocate · argument"},
		{"  Saylor\n\n── Moderator ──\r\nbuy\t ", 60, "Saylor ── Moderator ── buy"},
		{"Evil\x1b]0;pwned\x07\u202e", 60, "Evil␛]0;pwned␇⟨U+202E⟩"},
		{"セイラー 🟠 long name", 8, "セイラー 🟠 …"},
		{"abcdef", 6, "abcdef"},
	} {
		if got := Line(c.in, c.max); got != c.want {
			t.Errorf("Line(%q, %d) = %q, want %q", c.in, c.max, got, c.want)
		}
	}
}
