// Package textsafe makes untrusted text (topics, model replies, tool
// results) inert before it reaches a terminal or a document: a model's reply
// that contains terminal escape sequences must not retitle the window, clear
// the screen, move the cursor or overwrite what was printed.
//
// Clean keeps newlines and tabs and makes every other control character
// visible instead of acting on it: C0 controls and DEL become their Unicode
// control pictures ("\x1b" → "␛", "\r" → "␍"), C1 controls and the
// bidirectional overrides that can reorder what a reader sees become
// "⟨U+009B⟩", and so do the invisible characters that can hide text from a
// reader (zero-width space, soft hyphen, word joiner, byte order mark,
// fillers, the other default-ignorable format characters, and the tag
// characters that smuggle ASCII unseen, and a variation selector that
// follows another, as a run of them smuggles bytes), but for those that
// join letters and emoji (ZWJ, ZWNJ) or mark direction in right-to-left
// text (LRM, RLM, ALM). JSON output needs none of this for its C0 controls: its
// encoder escapes them already (see InertJSON for the rest).
package textsafe

import (
	"bytes"
	"encoding/json"
	"fmt"
	"strings"
	"unicode/utf16"
	"unicode/utf8"
)

// Clean returns s with its control characters made visible (see the package
// comment). CRLF line ends become plain newlines first; invalid UTF-8 bytes
// become U+FFFD.
func Clean(s string) string {
	if safe(s) {
		return s
	}
	s = strings.ReplaceAll(s, "\r\n", "\n")
	var b strings.Builder
	b.Grow(len(s) + 16)
	flag, prev := false, rune(0)
	for _, r := range s {
		switch {
		case r == '\n' || r == '\t':
			b.WriteRune(r)
		case r < 0x20:
			b.WriteRune(0x2400 + r) // ␀ … ␟
		case r == 0x7f:
			b.WriteRune('␡')
		case coded(r) || tag(r) && !flag || smuggled(prev, r):
			fmt.Fprintf(&b, "⟨U+%04X⟩", r)
		default:
			b.WriteRune(r) // includes utf8.RuneError for invalid bytes
		}
		flag, prev = inFlag(flag, r), r
	}
	return b.String()
}

// PlainLine reports whether s is one line of plain text: valid UTF-8 that
// Clean leaves as it is, with no line break or tab. A name that heads
// turns in every view (a persona's, a perspective's) must be one: a name
// that breaks the line can write a line that passes for another heading.
func PlainLine(s string) bool { return !strings.ContainsAny(s, "\n\t") && safe(s) }

// Line returns s as Clean shows it, on one line (each run of white space,
// line breaks included, made one space, and the ends trimmed) and cut to
// at most max characters, the last of them "…" when it is cut: for a name
// or a label that heads something, which a line break in it would let
// write a line that passes for another heading.
func Line(s string, max int) string {
	s = strings.Join(strings.Fields(Clean(s)), " ")
	if utf8.RuneCountInString(s) <= max {
		return s
	}
	r := []rune(s)
	return string(r[:max-1]) + "…"
}

// Styled escapes, as Clean does, the C1 controls and the bidirectional
// formatting characters of s and leaves the rest: for text a widget has
// already styled with 7-bit ANSI sequences (ESC [ …), which Clean would
// make visible too.
func Styled(s string) string {
	if !strings.ContainsFunc(s, func(r rune) bool { return coded(r) || tag(r) || variation(r) }) {
		return s
	}
	var b strings.Builder
	b.Grow(len(s) + 16)
	flag, prev := false, rune(0)
	for _, r := range s {
		if coded(r) || tag(r) && !flag || smuggled(prev, r) {
			fmt.Fprintf(&b, "⟨U+%04X⟩", r)
		} else {
			b.WriteRune(r)
		}
		flag, prev = inFlag(flag, r), r
	}
	return b.String()
}

// variation reports the variation selectors, which choose the glyph of the
// character before them (an emoji's or a text presentation, a CJK
// ideograph's form).
func variation(r rune) bool { return VariationSelector(r) }

// VariationSelector reports whether r is a variation selector (U+FE00 to
// U+FE0F, U+E0100 to U+E01EF), which Clean shows when it follows another.
func VariationSelector(r rune) bool {
	return r >= 0xfe00 && r <= 0xfe0f || r >= 0xe0100 && r <= 0xe01ef
}

// smuggled reports a variation selector r that follows another, prev: it
// chooses nothing, and a run of them carries bytes no reader sees, one for
// each selector ("emoji smuggling"). The first after a character is kept.
func smuggled(prev, r rune) bool { return variation(r) && variation(prev) }

// coded reports the characters shown by their code point ("⟨U+202E⟩"):
// C1 controls, the bidirectional formatting characters and the invisible
// ones (tag characters aside, see tag).
func coded(r rune) bool { return (r >= 0x80 && r <= 0x9f) || bidi(r) || invisible(r) }

// invisible reports the characters that show nothing and join or separate
// nothing a reader needs: text made of them, or hidden between them, cannot
// be seen. Zero-width joiners and non-joiners (emoji, Persian, Indic
// scripts) and the implicit direction marks (right-to-left text) are not
// among them.
func invisible(r rune) bool {
	switch r {
	case 0x200b, // zero-width space
		0x00ad,                         // soft hyphen, shown only where a line breaks
		0x034f,                         // combining grapheme joiner
		0x180e,                         // Mongolian vowel separator
		0xfeff,                         // byte order mark, zero-width no-break space
		0x115f, 0x1160, 0x3164, 0xffa0, // Hangul fillers
		0x17b4, 0x17b5: // Khmer inherent vowels, not to be written
		return true
	}
	return (r >= 0x2060 && r <= 0x206f) || // word joiner, invisible operators, deprecated format characters (and the bidi isolates)
		(r >= 0xfff0 && r <= 0xfffb) || // unassigned ignorables, interlinear annotation
		(r >= 0x1bca0 && r <= 0x1bca3) || // shorthand format controls
		(r >= 0x1d173 && r <= 0x1d17a) // musical formatting controls
}

// tag reports the tag characters (U+E0000 to U+E007F): invisible copies of
// ASCII, which can carry a message a reader does not see. Only the
// subdivision flags (🏴 followed by tags, as in the flag of Scotland) use
// them to show something; those are kept.
func tag(r rune) bool { return r >= 0xe0000 && r <= 0xe007f }

// inFlag reports whether the rune after r is still within a flag's tag
// sequence, flag saying whether r was.
func inFlag(flag bool, r rune) bool {
	return r == 0x1f3f4 || flag && r >= 0xe0020 && r <= 0xe007e
}

// safe reports whether s needs no change: valid UTF-8 with no control
// character but newline and tab, and no bidirectional override.
func safe(s string) bool {
	prev := rune(0)
	for i := 0; i < len(s); {
		c := s[i]
		if c < utf8.RuneSelf {
			if (c < 0x20 && c != '\n' && c != '\t') || c == 0x7f {
				return false
			}
			i++
			prev = rune(c)
			continue
		}
		r, size := utf8.DecodeRuneInString(s[i:])
		if r == utf8.RuneError && size == 1 || r <= 0x9f || coded(r) || tag(r) || smuggled(prev, r) {
			return false
		}
		i += size
		prev = r
	}
	return true
}

// bidi reports the explicit directional formatting characters (embeddings,
// overrides, isolates), which can make text read in another order than it
// is stored.
func bidi(r rune) bool {
	return (r >= 0x202a && r <= 0x202e) || (r >= 0x2066 && r <= 0x2069)
}

// JSON returns a JSON document with Clean applied to every string in it, keys
// included, for views that decode events and print their fields. A document
// that does not decode is returned unchanged (the decoder that reads it next
// reports the error).
func JSON(data []byte) []byte {
	if safe(string(data)) && !bytes.Contains(data, []byte(`\u`)) && !bytes.Contains(data, []byte(`\r`)) && !bytes.Contains(data, []byte(`\b`)) && !bytes.Contains(data, []byte(`\f`)) {
		return data
	}
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.UseNumber()
	var v any
	if err := dec.Decode(&v); err != nil {
		return data
	}
	out, err := json.Marshal(cleanValue(v))
	if err != nil {
		return data
	}
	return out
}

func cleanValue(v any) any {
	switch x := v.(type) {
	case string:
		return Clean(x)
	case []any:
		for i := range x {
			x[i] = cleanValue(x[i])
		}
		return x
	case map[string]any:
		out := make(map[string]any, len(x))
		for k, val := range x {
			out[Clean(k)] = cleanValue(val)
		}
		return out
	}
	return v
}

// InertJSON returns an encoded JSON document with the characters a terminal
// may act on that JSON encoders write raw (DEL, the C1 controls such as
// U+009B, which xterm reads as CSI, the bidirectional formatting
// characters, and the invisible ones Clean shows, tag characters included,
// flags' too) written as \u escapes instead (a surrogate pair beyond the
// Basic Multilingual Plane): the same document to any JSON reader, inert
// where it is printed (curl, parley export --as json, the --json streams).
// In valid JSON they can stand only inside strings, where an escape means
// the same character.
func InertJSON(b []byte) []byte {
	i := firstActive(b)
	if i < 0 {
		return b
	}
	out := make([]byte, 0, len(b)+32)
	out = append(out, b[:i]...)
	prev := rune(0)
	if i > 0 {
		prev, _ = utf8.DecodeLastRune(b[:i])
	}
	for i < len(b) {
		c := b[i]
		if c == 0x7f {
			out = append(out, `\u007f`...)
			i++
			prev = rune(c)
			continue
		}
		if c < utf8.RuneSelf {
			out = append(out, c)
			i++
			prev = rune(c)
			continue
		}
		r, size := utf8.DecodeRune(b[i:])
		active := size > 1 && (coded(r) || tag(r) || smuggled(prev, r))
		switch {
		case active && r > 0xffff:
			hi, lo := utf16.EncodeRune(r)
			out = fmt.Appendf(out, `\u%04x\u%04x`, hi, lo)
		case active:
			out = fmt.Appendf(out, `\u%04x`, r)
		default:
			out = append(out, b[i:i+size]...)
		}
		i += size
		prev = r
	}
	return out
}

// firstActive is the index in b of the first DEL, C1 control,
// bidirectional formatting, invisible or tag character, or -1.
func firstActive(b []byte) int {
	prev := rune(0)
	for i := 0; i < len(b); i++ {
		switch c := b[i]; {
		case c == 0x7f:
			return i
		case c >= 0xc2:
			r, size := utf8.DecodeRune(b[i:])
			if size > 1 && (coded(r) || tag(r) || smuggled(prev, r)) {
				return i
			}
			i += size - 1
			prev = r
		default:
			prev = rune(c)
		}
	}
	return -1
}
