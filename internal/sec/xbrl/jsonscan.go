package xbrl

import (
	"bytes"
	"encoding/json"
	"fmt"
	"unicode/utf8"
)

// reader reads JSON from a byte slice in place, without building tokens or
// values: Parse uses it to find where each tag's object starts and ends, and
// decodeTag to decode one tag's facts straight into rawFacts.
//
// It is a hand-rolled reader rather than encoding/json because the outline of
// a companyfacts document is its bracket structure: encoding/json validates
// and tokenises all 4 MB to find it (a full validity pass before any
// decoding, then reflection per value), and encoding/json/jsontext, which
// could skip values, is only built with GOEXPERIMENT=jsonv2 in Go 1.26.
type reader struct {
	data []byte
	pos  int
	// base is the offset of data[0] in the document, so that errors about a
	// tag decoded on its own name a byte of the file.
	base int
}

// maxDepth is encoding/json's nesting limit, kept so that a hostile document
// cannot exhaust the stack of the strict skipper.
const maxDepth = 10000

// errorf reports a syntax or type error at the current position.
func (r *reader) errorf(format string, args ...any) error {
	return fmt.Errorf("at byte %d: %s", r.base+r.pos, fmt.Sprintf(format, args...))
}

// truncated reports the end of the input where a value was still open.
func (r *reader) truncated() error {
	return fmt.Errorf("unexpected end of JSON after byte %d: the document is truncated "+
		"(download it again; a complete companyfacts file ends with \"}}}\")", r.base+len(r.data))
}

// unexpected reports the byte at the current position, which does not fit
// where it is.
func (r *reader) unexpected(want string) error {
	if r.pos >= len(r.data) {
		return r.truncated()
	}
	return r.errorf("want %s, found %s", want, describe(r.data[r.pos]))
}

// describe names the JSON value that starts with c, for error messages.
func describe(c byte) string {
	switch {
	case c == '"':
		return "a string"
	case c == '{':
		return "an object"
	case c == '[':
		return "an array"
	case c == 't' || c == 'f':
		return "a boolean"
	case c == 'n':
		return "null"
	case c == '-' || (c >= '0' && c <= '9'):
		return "a number"
	case c >= 0x20 && c < 0x7f:
		return fmt.Sprintf("the character %q", c)
	}
	return fmt.Sprintf("the byte 0x%02x", c)
}

// peek skips whitespace and returns the next byte, or 0 at the end.
func (r *reader) peek() byte {
	for r.pos < len(r.data) {
		switch c := r.data[r.pos]; c {
		case ' ', '\t', '\n', '\r':
			r.pos++
		default:
			return c
		}
	}
	return 0
}

// end checks that only whitespace follows the document.
func (r *reader) end() error {
	if r.peek(); r.pos < len(r.data) {
		return r.errorf("want the end of the document, found %s", describe(r.data[r.pos]))
	}
	return nil
}

// open consumes the '{' or '[' that starts a container.
func (r *reader) open(c byte) error {
	if r.peek() != c {
		if c == '{' {
			return r.unexpected("an object")
		}
		return r.unexpected("an array")
	}
	r.pos++
	return nil
}

// member moves to the next member of an object whose '{' was consumed. It
// returns the key's literal (quotes included) and whether the key contains
// escapes, leaving r.pos at the value, or done at the closing '}'.
func (r *reader) member(first bool) (key []byte, escaped, done bool, err error) {
	c := r.peek()
	if c == '}' {
		r.pos++
		return nil, false, true, nil
	}
	if !first {
		if c != ',' {
			return nil, false, false, r.unexpected("',' or '}' after an object member")
		}
		r.pos++
		c = r.peek()
	}
	if c != '"' {
		return nil, false, false, r.unexpected("an object key (a string)")
	}
	key, escaped, err = r.str()
	if err != nil {
		return nil, false, false, err
	}
	if r.peek() != ':' {
		return nil, false, false, r.unexpected("':' after an object key")
	}
	r.pos++
	return key, escaped, false, nil
}

// element moves to the next element of an array whose '[' was consumed,
// leaving r.pos at the element, or reports done at the closing ']'.
func (r *reader) element(first bool) (done bool, err error) {
	c := r.peek()
	if c == ']' {
		r.pos++
		return true, nil
	}
	if !first {
		if c != ',' {
			return false, r.unexpected("',' or ']' after an array element")
		}
		r.pos++
	}
	return false, nil
}

// str reads the string at r.pos strictly (no raw control characters, only
// JSON's escapes) and returns its literal, quotes included.
func (r *reader) str() (lit []byte, escaped bool, err error) {
	d := r.data
	start := r.pos
	for i := start + 1; i < len(d); i++ {
		switch c := d[i]; {
		case c == '"':
			r.pos = i + 1
			return d[start:r.pos], escaped, nil
		case c == '\\':
			escaped = true
			if i+1 >= len(d) {
				r.pos = len(d)
				return nil, false, r.truncated()
			}
			switch d[i+1] {
			case '"', '\\', '/', 'b', 'f', 'n', 'r', 't':
				i++
			case 'u':
				if i+6 > len(d) {
					r.pos = len(d)
					return nil, false, r.truncated()
				}
				for _, h := range d[i+2 : i+6] {
					if !isHex(h) {
						r.pos = i
						return nil, false, r.errorf("invalid \\u escape in a string")
					}
				}
				i += 5
			default:
				r.pos = i
				return nil, false, r.errorf("invalid escape \\%c in a string", d[i+1])
			}
		case c < 0x20:
			r.pos = i
			return nil, false, r.errorf("control character 0x%02x in a string (it must be escaped)", c)
		}
	}
	r.pos = len(d)
	return nil, false, r.truncated()
}

func isHex(c byte) bool {
	return (c >= '0' && c <= '9') || (c >= 'a' && c <= 'f') || (c >= 'A' && c <= 'F')
}

// number reads the number at r.pos by JSON's grammar and returns its text.
func (r *reader) number() ([]byte, error) {
	d := r.data
	start := r.pos
	i := start
	digits := func() bool {
		j := i
		for i < len(d) && d[i] >= '0' && d[i] <= '9' {
			i++
		}
		return i > j
	}
	if i < len(d) && d[i] == '-' {
		i++
	}
	switch {
	case i >= len(d):
		r.pos = i
		return nil, r.truncated()
	case d[i] == '0':
		i++
	case d[i] >= '1' && d[i] <= '9':
		digits()
	default:
		r.pos = i
		return nil, r.unexpected("a digit in a number")
	}
	if i < len(d) && d[i] == '.' {
		i++
		if !digits() {
			r.pos = i
			return nil, r.unexpected("a digit after the decimal point")
		}
	}
	if i < len(d) && (d[i] == 'e' || d[i] == 'E') {
		i++
		if i < len(d) && (d[i] == '+' || d[i] == '-') {
			i++
		}
		if !digits() {
			r.pos = i
			return nil, r.unexpected("a digit in the exponent")
		}
	}
	r.pos = i
	return d[start:i], nil
}

// literal reads true, false or null.
func (r *reader) literal() ([]byte, error) {
	for _, w := range [...]string{"true", "false", "null"} {
		if bytes.HasPrefix(r.data[r.pos:], []byte(w)) {
			start := r.pos
			r.pos += len(w)
			return r.data[start:r.pos], nil
		}
		if len(r.data)-r.pos < len(w) && bytes.HasPrefix([]byte(w), r.data[r.pos:]) {
			r.pos = len(r.data)
			return nil, r.truncated()
		}
	}
	return nil, r.unexpected("a JSON value")
}

// value reads any value strictly and returns its text: what an
// UnmarshalJSON method is given.
func (r *reader) value() ([]byte, error) {
	r.peek()
	start := r.pos
	if err := r.skipStrict(0); err != nil {
		return nil, err
	}
	return r.data[start:r.pos], nil
}

// skipStrict moves past the value at r.pos, checking its syntax.
func (r *reader) skipStrict(depth int) error {
	if depth > maxDepth {
		return r.errorf("JSON nested deeper than %d levels", maxDepth)
	}
	switch c := r.peek(); {
	case c == '{':
		r.pos++
		for first := true; ; first = false {
			_, _, done, err := r.member(first)
			if err != nil || done {
				return err
			}
			if err := r.skipStrict(depth + 1); err != nil {
				return err
			}
		}
	case c == '[':
		r.pos++
		for first := true; ; first = false {
			done, err := r.element(first)
			if err != nil || done {
				return err
			}
			if err := r.skipStrict(depth + 1); err != nil {
				return err
			}
		}
	case c == '"':
		_, _, err := r.str()
		return err
	case c == '-' || (c >= '0' && c <= '9'):
		_, err := r.number()
		return err
	case r.pos >= len(r.data):
		return r.truncated()
	default:
		_, err := r.literal()
		return err
	}
}

// skipOutline moves past the object or array at r.pos, matching brackets and
// finding the end of each string, without checking anything else: enough to
// know where a tag's facts end, at memory speed. The facts are checked when
// they are decoded (decodeTag), so a document whose damage lies inside a tag
// is reported by the call that reads that tag.
func (r *reader) skipOutline() error {
	d := r.data
	var stackBuf [16]byte
	stack := stackBuf[:0]
	for i := r.pos; i < len(d); i++ {
		switch d[i] {
		case '"':
			// A byte loop, not bytes.IndexByte: the strings of a
			// companyfacts document are a few bytes long, shorter than
			// a vectorised search's set-up pays for.
			i++
			for i < len(d) && d[i] != '"' {
				if d[i] == '\\' {
					i++
				}
				i++
			}
			if i >= len(d) {
				r.pos = len(d)
				return r.truncated()
			}
		case '{':
			stack = append(stack, '}')
		case '[':
			stack = append(stack, ']')
		case '}', ']':
			if len(stack) == 0 || stack[len(stack)-1] != d[i] {
				r.pos = i
				return r.errorf("unbalanced %q", d[i])
			}
			stack = stack[:len(stack)-1]
			if len(stack) == 0 {
				r.pos = i + 1
				return nil
			}
		}
	}
	r.pos = len(d)
	return r.truncated()
}

// keyString returns an object key (or a string value) as a Go string,
// decoding escapes and replacing invalid UTF-8 as encoding/json does.
func keyString(lit []byte, escaped bool) (string, error) {
	s := lit[1 : len(lit)-1]
	if !escaped && utf8.Valid(s) {
		return string(s), nil
	}
	var out string
	if err := json.Unmarshal(lit, &out); err != nil {
		return "", err
	}
	return out, nil
}
