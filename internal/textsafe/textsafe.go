// Package textsafe makes untrusted text (topics, model replies, tool
// results) inert before it reaches a terminal or a document: a model's reply
// that contains terminal escape sequences must not retitle the window, clear
// the screen, move the cursor or overwrite what was printed.
//
// Clean keeps newlines and tabs and makes every other control character
// visible instead of acting on it: C0 controls and DEL become their Unicode
// control pictures ("\x1b" → "␛", "\r" → "␍"), C1 controls and the
// bidirectional overrides that can reorder what a reader sees become
// "⟨U+009B⟩". JSON output needs none of this: its encoder escapes control
// characters already.
package textsafe

import (
	"bytes"
	"encoding/json"
	"fmt"
	"strings"
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
	for _, r := range s {
		switch {
		case r == '\n' || r == '\t':
			b.WriteRune(r)
		case r < 0x20:
			b.WriteRune(0x2400 + r) // ␀ … ␟
		case r == 0x7f:
			b.WriteRune('␡')
		case coded(r):
			fmt.Fprintf(&b, "⟨U+%04X⟩", r)
		default:
			b.WriteRune(r) // includes utf8.RuneError for invalid bytes
		}
	}
	return b.String()
}

// Styled escapes, as Clean does, the C1 controls and the bidirectional
// formatting characters of s and leaves the rest: for text a widget has
// already styled with 7-bit ANSI sequences (ESC [ …), which Clean would
// make visible too.
func Styled(s string) string {
	if !strings.ContainsFunc(s, coded) {
		return s
	}
	var b strings.Builder
	b.Grow(len(s) + 16)
	for _, r := range s {
		if coded(r) {
			fmt.Fprintf(&b, "⟨U+%04X⟩", r)
			continue
		}
		b.WriteRune(r)
	}
	return b.String()
}

// coded reports the characters shown by their code point ("⟨U+202E⟩"):
// C1 controls and the bidirectional formatting characters.
func coded(r rune) bool { return (r >= 0x80 && r <= 0x9f) || bidi(r) }

// safe reports whether s needs no change: valid UTF-8 with no control
// character but newline and tab, and no bidirectional override.
func safe(s string) bool {
	for i := 0; i < len(s); {
		c := s[i]
		if c < utf8.RuneSelf {
			if (c < 0x20 && c != '\n' && c != '\t') || c == 0x7f {
				return false
			}
			i++
			continue
		}
		r, size := utf8.DecodeRuneInString(s[i:])
		if r == utf8.RuneError && size == 1 || r <= 0x9f || bidi(r) {
			return false
		}
		i += size
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
// U+009B, which xterm reads as CSI, and the bidirectional formatting
// characters) written as \u escapes instead: the same document to any JSON
// reader, inert where it is printed (curl, parley export --as json, the
// --json streams). In valid JSON they can stand only inside strings, where
// an escape means the same character.
func InertJSON(b []byte) []byte {
	i := firstActive(b)
	if i < 0 {
		return b
	}
	out := make([]byte, 0, len(b)+32)
	out = append(out, b[:i]...)
	for i < len(b) {
		c := b[i]
		if c == 0x7f {
			out = append(out, `\u007f`...)
			i++
			continue
		}
		if c < utf8.RuneSelf {
			out = append(out, c)
			i++
			continue
		}
		r, size := utf8.DecodeRune(b[i:])
		if coded(r) && size > 1 {
			out = fmt.Appendf(out, `\u%04x`, r)
		} else {
			out = append(out, b[i:i+size]...)
		}
		i += size
	}
	return out
}

// firstActive is the index in b of the first DEL, C1 control or
// bidirectional formatting character, or -1.
func firstActive(b []byte) int {
	for i := 0; i < len(b); i++ {
		switch b[i] {
		case 0x7f:
			return i
		case 0xc2, 0xe2:
			if r, size := utf8.DecodeRune(b[i:]); size > 1 && coded(r) {
				return i
			}
		}
	}
	return -1
}
