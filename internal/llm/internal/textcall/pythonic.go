package textcall

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"math"
	"math/big"
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/parleyhq/parley/internal/llm"
)

// errCutShort says the text ended inside a call.
var errCutShort = errors.New("the call is cut short")

// errTextAfter says text follows a whole list of calls.
var errTextAfter = errors.New("text after the tool calls")

// maxDepth bounds the nesting of a pythonic call's values: deeper is no
// argument a tool takes, and the reader recurses.
const maxDepth = 64

// pythonic reads Llama 3.2's (and Llama 4's) pythonic tool calls, the
// whole reply: a Python list of calls, [NAME(key=value, ...), ...], each
// value a Python literal (a string, a number, True, False, None, or a
// list or dict of them), as vLLM's pythonic parser reads them. Python's
// meaning is kept exactly: 'single' and "double" quotes, triple quotes,
// r prefixes, escapes, adjacent strings joined, underscores and 0x/0o/0b
// in numbers. What has no exact JSON value (a positional argument, a
// tuple, a set, a dict with other than string keys, f-strings, bytes,
// complex numbers, infinities, a name, an expression) is an error: the
// reply was meant as a call and the server should parse it.
func (f *Filter) pythonic(s string) ([]llm.ToolCall, bool, error) {
	calls, err := f.pyCalls(&pyReader{s: strings.TrimSpace(s)})
	if err != nil {
		// The reply starts with "[NAME(" (see Filter.start); it is meant
		// as calls when it ends as a list does, or where the text was
		// cut, or when the list was read whole and text follows it; not
		// when it is prose that starts so.
		meant := errors.Is(err, errCutShort) || errors.Is(err, errTextAfter) || strings.HasSuffix(trimEnd(s), "]")
		return nil, meant, err
	}
	return calls, true, nil
}

// pyCalls reads a list of calls.
func (f *Filter) pyCalls(p *pyReader) ([]llm.ToolCall, error) {
	if !p.eat("[") {
		return nil, errors.New("not a list of calls")
	}
	var calls []llm.ToolCall
	for {
		p.space()
		if len(calls) > 0 && p.eat("]") {
			break // a trailing comma
		}
		name := p.name(true)
		if !f.tools[name] {
			return nil, fmt.Errorf("%.40q is not a tool offered", name)
		}
		args, err := p.args()
		if err != nil {
			return nil, fmt.Errorf("call of %s: %w", name, err)
		}
		calls = append(calls, llm.ToolCall{Name: name, Args: args})
		p.space()
		if p.eat("]") {
			break
		}
		if !p.eat(",") {
			return nil, fmt.Errorf("after the call of %s: %w", name, p.want("\",\" or \"]\""))
		}
	}
	if rest := trimEnd(p.s[p.at:]); rest != "" {
		return nil, fmt.Errorf("%w: %.40q", errTextAfter, rest)
	}
	return calls, nil
}

// pyReader reads Python source from s at at.
type pyReader struct {
	s  string
	at int
}

// space skips white space, which Python ignores inside brackets.
func (p *pyReader) space() {
	for p.at < len(p.s) && strings.IndexByte(" \t\r\n", p.s[p.at]) >= 0 {
		p.at++
	}
}

// eat consumes tok when it comes next.
func (p *pyReader) eat(tok string) bool {
	if strings.HasPrefix(p.s[p.at:], tok) {
		p.at += len(tok)
		return true
	}
	return false
}

// want says what was wanted where the reader is, and what is there.
func (p *pyReader) want(what string) error {
	if p.at >= len(p.s) {
		return fmt.Errorf("want %s: %w", what, errCutShort)
	}
	return fmt.Errorf("want %s at %.20q", what, p.s[p.at:])
}

// name reads an identifier; with tool, a tool's name, which may have "-"
// or "." in it, as tool lists allow.
func (p *pyReader) name(tool bool) string {
	start := p.at
	for p.at < len(p.s) && (identByte(p.s[p.at]) || tool && p.at > start && (p.s[p.at] == '-' || p.s[p.at] == '.')) {
		p.at++
	}
	return p.s[start:p.at]
}

func identByte(c byte) bool {
	return c == '_' || c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9'
}

// args reads "(key=value, ...)" as a JSON object, keys in order.
func (p *pyReader) args() (json.RawMessage, error) {
	p.space()
	if !p.eat("(") {
		return nil, p.want("\"(\"")
	}
	var b bytes.Buffer
	b.WriteByte('{')
	seen := map[string]bool{}
	for {
		p.space()
		if p.eat(")") {
			break
		}
		start := p.at
		key := p.name(false)
		p.space()
		if key == "" || key[0] >= '0' && key[0] <= '9' || !p.eat("=") || p.eat("=") {
			p.at = start
			return nil, fmt.Errorf("an argument without its name (key=value): %w", p.want("a keyword argument"))
		}
		if seen[key] {
			return nil, fmt.Errorf("argument %s given twice", key)
		}
		seen[key] = true
		p.space()
		v, err := p.value(0)
		if err != nil {
			return nil, fmt.Errorf("argument %s: %w", key, err)
		}
		if len(seen) > 1 {
			b.WriteByte(',')
		}
		b.Write(jsonString(key))
		b.WriteByte(':')
		b.Write(v)
		p.space()
		if p.eat(")") {
			break
		}
		if !p.eat(",") {
			return nil, p.want("\",\" or \")\"")
		}
	}
	b.WriteByte('}')
	return b.Bytes(), nil
}

// value reads a literal as JSON.
func (p *pyReader) value(depth int) ([]byte, error) {
	if depth > maxDepth {
		return nil, errors.New("values nested too deep")
	}
	if p.at >= len(p.s) {
		return nil, p.want("a value")
	}
	switch c := p.s[p.at]; {
	case c == '[':
		p.at++
		return p.list(depth)
	case c == '{':
		p.at++
		return p.dict(depth)
	case c == '(':
		return nil, errors.New("a tuple or an expression, which JSON has no value for")
	case c == '"' || c == '\'':
		s, err := p.strings()
		if err != nil {
			return nil, err
		}
		return jsonString(s), nil
	case c == '-' || c == '+' || c == '.' || c >= '0' && c <= '9':
		return p.number()
	}
	start := p.at
	word := p.name(false)
	if p.at < len(p.s) && (p.s[p.at] == '"' || p.s[p.at] == '\'') {
		p.at = start // a prefixed string: r"...", b"..."
		s, err := p.strings()
		if err != nil {
			return nil, err
		}
		return jsonString(s), nil
	}
	switch word {
	case "True":
		return []byte("true"), nil
	case "False":
		return []byte("false"), nil
	case "None":
		return []byte("null"), nil
	}
	p.at = start
	return nil, fmt.Errorf("not a literal: %w", p.want("a value"))
}

// list reads the rest of a list, after "[".
func (p *pyReader) list(depth int) ([]byte, error) {
	var b bytes.Buffer
	b.WriteByte('[')
	for n := 0; ; n++ {
		p.space()
		if p.eat("]") {
			break
		}
		v, err := p.value(depth + 1)
		if err != nil {
			return nil, err
		}
		if n > 0 {
			b.WriteByte(',')
		}
		b.Write(v)
		p.space()
		if p.eat("]") {
			break
		}
		if !p.eat(",") {
			return nil, p.want("\",\" or \"]\" in a list")
		}
	}
	b.WriteByte(']')
	return b.Bytes(), nil
}

// dict reads the rest of a dict, after "{": its keys must be strings, as
// JSON's are.
func (p *pyReader) dict(depth int) ([]byte, error) {
	var b bytes.Buffer
	b.WriteByte('{')
	seen := map[string]bool{}
	for n := 0; ; n++ {
		p.space()
		if p.eat("}") {
			break
		}
		if p.at >= len(p.s) || (p.s[p.at] != '"' && p.s[p.at] != '\'') {
			return nil, p.want("a string key (a set, or a dict with other keys, has no JSON value)")
		}
		key, err := p.strings()
		if err != nil {
			return nil, err
		}
		if seen[key] {
			// Python keeps the last; JSON readers differ.
			return nil, fmt.Errorf("key %.40q given twice in a dict", key)
		}
		seen[key] = true
		p.space()
		if !p.eat(":") {
			return nil, p.want("\":\" in a dict (a set has no JSON value)")
		}
		p.space()
		v, err := p.value(depth + 1)
		if err != nil {
			return nil, err
		}
		if n > 0 {
			b.WriteByte(',')
		}
		b.Write(jsonString(key))
		b.WriteByte(':')
		b.Write(v)
		p.space()
		if p.eat("}") {
			break
		}
		if !p.eat(",") {
			return nil, p.want("\",\" or \"}\" in a dict")
		}
	}
	b.WriteByte('}')
	return b.Bytes(), nil
}

// strings reads one string literal, or several in a row, which Python
// joins.
func (p *pyReader) strings() (string, error) {
	var b strings.Builder
	for n := 0; ; n++ {
		start := p.at
		if n > 0 {
			p.space()
		}
		prefix := strings.ToLower(p.name(false))
		if p.at >= len(p.s) || (p.s[p.at] != '"' && p.s[p.at] != '\'') {
			if n == 0 {
				return "", p.want("a string")
			}
			p.at = start
			return b.String(), nil
		}
		raw := false
		switch prefix {
		case "", "u":
		case "r":
			raw = true
		default:
			return "", fmt.Errorf("a %s-prefixed string, which is no plain string", prefix)
		}
		s, err := p.str(raw)
		if err != nil {
			return "", err
		}
		b.WriteString(s)
	}
}

// str reads a quoted string, at its opening quote.
func (p *pyReader) str(raw bool) (string, error) {
	q := p.s[p.at : p.at+1]
	if strings.HasPrefix(p.s[p.at:], q+q+q) {
		q = q + q + q
	}
	p.at += len(q)
	var b strings.Builder
	for {
		if p.at >= len(p.s) {
			return "", fmt.Errorf("a string is not closed: %w", errCutShort)
		}
		if strings.HasPrefix(p.s[p.at:], q) {
			p.at += len(q)
			return b.String(), nil
		}
		c := p.s[p.at]
		switch {
		case c == '\n' && len(q) == 1:
			return "", errors.New("a line break in a string that is not triple-quoted")
		case c == '\\' && raw:
			// A raw string keeps the backslash, and a quote after it
			// does not close the string.
			b.WriteByte(c)
			p.at++
			if p.at >= len(p.s) {
				return "", fmt.Errorf("a string is not closed: %w", errCutShort)
			}
			if err := p.char(&b); err != nil {
				return "", err
			}
		case c == '\\':
			if err := p.escape(&b); err != nil {
				return "", err
			}
		default:
			if err := p.char(&b); err != nil {
				return "", err
			}
		}
	}
}

// char copies one character to b.
func (p *pyReader) char(b *strings.Builder) error {
	r, n := utf8.DecodeRuneInString(p.s[p.at:])
	if r == utf8.RuneError && n == 1 {
		return errors.New("a string that is not UTF-8")
	}
	b.WriteString(p.s[p.at : p.at+n])
	p.at += n
	return nil
}

// escape reads a backslash escape into b, as Python does: an escape it
// does not know keeps its backslash.
func (p *pyReader) escape(b *strings.Builder) error {
	p.at++ // the backslash
	if p.at >= len(p.s) {
		return fmt.Errorf("a string is not closed: %w", errCutShort)
	}
	c := p.s[p.at]
	p.at++
	digits, base := 0, 16
	switch c {
	case '\n':
		return nil // a line continued
	case '\\', '\'', '"':
		b.WriteByte(c)
		return nil
	case 'a':
		b.WriteByte('\a')
		return nil
	case 'b':
		b.WriteByte('\b')
		return nil
	case 'f':
		b.WriteByte('\f')
		return nil
	case 'n':
		b.WriteByte('\n')
		return nil
	case 'r':
		b.WriteByte('\r')
		return nil
	case 't':
		b.WriteByte('\t')
		return nil
	case 'v':
		b.WriteByte('\v')
		return nil
	case 'x':
		digits = 2
	case 'u':
		digits = 4
	case 'U':
		digits = 8
	case 'N':
		return errors.New(`a \N{...} escape, which is not read here`)
	default:
		if c >= '0' && c <= '7' {
			// Up to three octal digits, this one the first.
			p.at--
			digits, base = 1, 8
			for digits < 3 && p.at+digits < len(p.s) && p.s[p.at+digits] >= '0' && p.s[p.at+digits] <= '7' {
				digits++
			}
		} else {
			b.WriteByte('\\')
			p.at-- // the character is read as itself
			return nil
		}
	}
	if p.at+digits > len(p.s) {
		return fmt.Errorf("an escape: %w", errCutShort)
	}
	n, err := strconv.ParseUint(p.s[p.at:p.at+digits], base, 32)
	if err != nil {
		return fmt.Errorf("a bad escape %.12q", p.s[p.at-2:])
	}
	p.at += digits
	r := rune(n)
	if !utf8.ValidRune(r) {
		// A surrogate or out of range: no character JSON can hold.
		return fmt.Errorf("an escape of no character (U+%X)", n)
	}
	b.WriteRune(r)
	return nil
}

// number reads an int or a float as JSON, exactly: ints of any size,
// floats as float64 (Python's own).
func (p *pyReader) number() ([]byte, error) {
	start := p.at
	if p.s[p.at] == '-' || p.s[p.at] == '+' {
		p.at++
	}
	body := p.at
	for p.at < len(p.s) {
		c := p.s[p.at]
		if identByte(c) || c == '.' || (c == '-' || c == '+') && p.at > body && (p.s[p.at-1] == 'e' || p.s[p.at-1] == 'E') && !hexLike(p.s[body:p.at]) {
			p.at++
			continue
		}
		break
	}
	tok, neg := p.s[body:p.at], p.s[start] == '-'
	bad := fmt.Errorf("not a number Python and JSON share: %.30q", p.s[start:p.at])
	if tok == "" {
		return nil, bad
	}
	digits, base := tok, 10
	if len(tok) > 1 && tok[0] == '0' {
		switch tok[1] {
		case 'x', 'X':
			digits, base = tok[2:], 16
		case 'o', 'O':
			digits, base = tok[2:], 8
		case 'b', 'B':
			digits, base = tok[2:], 2
		}
	}
	clean, ok := underscores(digits, base)
	if !ok || clean == "" {
		return nil, bad
	}
	if base == 10 && strings.ContainsAny(clean, ".eE") {
		if strings.ContainsAny(clean, "xXpPnNiI_") {
			return nil, bad // no hex floats, inf or nan
		}
		f, err := strconv.ParseFloat(clean, 64)
		if err != nil || math.IsInf(f, 0) {
			return nil, bad
		}
		if neg {
			f = -f
		}
		return strconv.AppendFloat(nil, f, 'g', -1, 64), nil
	}
	if base == 10 && len(clean) > 1 && clean[0] == '0' && strings.Trim(clean, "0") != "" {
		return nil, bad // 012 is an error in Python 3
	}
	n, ok := new(big.Int).SetString(clean, base)
	if !ok {
		return nil, bad
	}
	if neg {
		n.Neg(n)
	}
	return []byte(n.String()), nil
}

// hexLike reports a number that starts as a hexadecimal one, in which
// "e" is a digit, not an exponent.
func hexLike(s string) bool {
	return len(s) > 1 && s[0] == '0' && (s[1] == 'x' || s[1] == 'X')
}

// underscores drops the underscores of a number's digits in base, which
// Python allows one at a time between digits.
func underscores(s string, base int) (string, bool) {
	if !strings.Contains(s, "_") {
		return s, true
	}
	var b strings.Builder
	for i := 0; i < len(s); i++ {
		if s[i] == '_' {
			// 0x_ff: after a prefix, one may come first.
			if i == 0 && base == 10 || i == len(s)-1 || i > 0 && !isDigit(s[i-1], base) || !isDigit(s[i+1], base) {
				return "", false
			}
			continue
		}
		b.WriteByte(s[i])
	}
	return b.String(), true
}

func isDigit(c byte, base int) bool {
	if base == 16 {
		return c >= '0' && c <= '9' || c >= 'a' && c <= 'f' || c >= 'A' && c <= 'F'
	}
	return c >= '0' && c < '0'+byte(min(base, 10))
}

// jsonString is s as a JSON string, with <, > and & as they are.
func jsonString(s string) []byte {
	var b bytes.Buffer
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(false)
	_ = enc.Encode(s)
	return bytes.TrimSuffix(b.Bytes(), []byte("\n"))
}
