// Package iccma reads and writes argumentation frameworks in the formats of
// the International Competition on Computational Models of Argumentation
// (ASPARTIX .apx, trivial graph format .tgf and the ICCMA 2023 numeric
// format "p af N") and runs ICCMA-style problems (SE-PR, DC-ST, ...) through
// the solver interface that `parley af` exposes.
package iccma

import (
	"bufio"
	"errors"
	"fmt"
	"io"
	"os"
	"strconv"
	"strings"

	"github.com/parleyhq/parley/internal/argue"
)

// Format names an input format.
type Format string

// Supported formats.
const (
	APX Format = "apx" // ASPARTIX: arg(a). att(a,b).
	TGF Format = "tgf" // names, a "#" line, then "a b" attack lines
	I23 Format = "i23" // ICCMA 2023: "p af N", then "i j" lines; files end in .af
)

// Formats lists the supported input formats, for --formats.
func Formats() []string { return []string{string(APX), string(TGF), string(I23)} }

// ParseFormat accepts a format name; "af" and "iccma23" are aliases of
// "i23": the file extension ICCMA 2023 uses, and the name some solvers
// (μ-toksia) list for it.
func ParseFormat(s string) (Format, error) {
	switch strings.ToLower(s) {
	case "apx":
		return APX, nil
	case "tgf":
		return TGF, nil
	case "i23", "af", "iccma23":
		return I23, nil
	}
	return "", fmt.Errorf("iccma: unknown format %s (valid: %s)", argue.Quote(s), strings.Join(Formats(), ", "))
}

// FormatOf guesses the format from a file name's extension.
func FormatOf(path string) (Format, error) {
	ext := strings.TrimPrefix(extension(path), ".")
	f, err := ParseFormat(ext)
	if err != nil {
		return "", fmt.Errorf("iccma: cannot tell the format of %q from its extension or its first lines; pass one with -fo (%s)", path, strings.Join(Formats(), ", "))
	}
	return f, nil
}

// extension is filepath.Ext. path/filepath sorts late in a binary's
// initialisation order, and importing it would hold `parley af` back behind
// most of the full binary's initialisation (see internal/afrun).
func extension(path string) string {
	for i := len(path) - 1; i >= 0 && !os.IsPathSeparator(path[i]); i-- {
		if path[i] == '.' {
			return path[i:]
		}
	}
	return ""
}

// Parse reads a framework in the given format.
func Parse(r io.Reader, f Format) (*argue.Framework, error) {
	switch f {
	case APX:
		return ParseAPX(r)
	case TGF:
		return ParseTGF(r)
	case I23:
		return ParseI23(r)
	}
	return nil, fmt.Errorf("iccma: unknown format %s (valid: %s)", argue.Quote(string(f)), strings.Join(Formats(), ", "))
}

// Write writes a framework in the given format.
func Write(w io.Writer, af *argue.Framework, f Format) error {
	switch f {
	case APX:
		return WriteAPX(w, af)
	case TGF:
		return WriteTGF(w, af)
	case I23:
		return WriteI23(w, af)
	}
	return fmt.Errorf("iccma: unknown format %s (valid: %s)", argue.Quote(string(f)), strings.Join(Formats(), ", "))
}

// apxDelims cannot occur in an unquoted ASPARTIX name because they
// structure the statements; whitespace is trimmed around names.
const apxDelims = "(),.%\" \t\r\n"

// apxDelim reports whether c is one of apxDelims.
func apxDelim(c byte) bool {
	switch c {
	case '(', ')', ',', '.', '%', '"', ' ', '\t', '\r', '\n':
		return true
	}
	return false
}

// ParseAPX reads the ASPARTIX format, a set of ASP facts: statements
// arg(x). and att(x,y). in any order, any whitespace between tokens, %
// comments to the end of the line and %* ... *% block comments, as clingo
// reads them. A name is a run of characters other than apxDelims, or a
// double-quoted string (kept with its quotes, as clingo prints it). Facts
// form a set: an argument declared twice is one argument, and an attack may
// come before the declarations of its arguments; an attack on an argument
// that no arg(...) declares is an error naming its line.
func ParseAPX(r io.Reader) (*argue.Framework, error) {
	// Read as a stream, statement by statement, not whole first: a file
	// that is no apx file (a device such as /dev/zero, a binary) is refused
	// at its first bad statement instead of being read into memory to its
	// end, which for an endless one never comes.
	p := apxParser{r: bufio.NewReaderSize(r, 64<<10), line: 1}
	af, err := p.parse()
	if p.err != nil {
		// What was read is cut short: the error about it says nothing.
		return nil, fmt.Errorf("iccma: read apx: %w", p.err)
	}
	return af, err
}

func (p *apxParser) parse() (*argue.Framework, error) {
	af := argue.New()
	// Attacks whose arguments are not declared yet wait for the end.
	type lateAttack struct {
		from, to string
		line     int
	}
	var late []lateAttack
	for {
		if err := p.skip(); err != nil {
			return nil, err
		}
		if p.eof() {
			break
		}
		line := p.line
		// A keyword is arg or att: a longer run is not read in full.
		kw, err := p.nameMax(len("arg") + 1)
		if err != nil {
			return nil, err
		}
		if kw != "arg" && kw != "att" {
			found := p.snippetAfter(kw)
			hint := " (comments start with %)"
			if h := otherFormat(found, APX); h != "" {
				hint = h
			}
			return nil, fmt.Errorf("iccma: apx line %d: expected arg(...) or att(...), found %s%s", line, argue.Quote(found), hint)
		}
		// so far is the statement read so far, for errors; it is built only
		// for one, as building it for every statement costs a third of the
		// parse of a large file.
		so := func(parts ...string) string { return strings.Join(parts, "") }
		if err := p.expect('('); err != nil {
			return nil, p.expected('(', kw)
		}
		a, err := p.name()
		if err != nil {
			return nil, err
		}
		if a == "" {
			return nil, fmt.Errorf("iccma: apx line %d: missing argument name in %s(...), found %s", p.line, kw, argue.Quote(p.snippet()))
		}
		var b string
		if kw == "att" {
			if err := p.expect(','); err != nil {
				return nil, p.expected(',', so("att(", a))
			}
			if b, err = p.name(); err != nil {
				return nil, err
			}
			if b == "" {
				return nil, fmt.Errorf("iccma: apx line %d: missing second argument in %s, found %s", p.line, argue.Quote("att("+a+",...)"), argue.Quote(p.snippet()))
			}
		}
		stmt := func() string {
			if kw == "att" {
				return so("att(", a, ",", b)
			}
			return so("arg(", a)
		}
		if err := p.expect(')'); err != nil {
			return nil, p.expected(')', stmt())
		}
		if err := p.expect('.'); err != nil {
			return nil, p.expected('.', stmt()+")")
		}
		switch {
		case kw == "arg":
			if _, dup := af.Index(a); !dup {
				if _, err := af.AddArgument(a); err != nil {
					return nil, fmt.Errorf("iccma: apx line %d: %w", line, err)
				}
			}
		default:
			if err := af.AddAttackNames(a, b); err != nil {
				late = append(late, lateAttack{a, b, line})
			}
		}
	}
	for _, l := range late {
		for _, name := range []string{l.from, l.to} {
			if _, ok := af.Index(name); !ok {
				return nil, fmt.Errorf("iccma: apx line %d: %s names %s, which no arg(...) declares: add %s or fix the attack", l.line, argue.Quote("att("+l.from+","+l.to+")."), argue.Quote(name), argue.Quote("arg("+name+")."))
			}
		}
		if err := af.AddAttackNames(l.from, l.to); err != nil {
			return nil, fmt.Errorf("iccma: apx line %d: %w", l.line, err)
		}
	}
	return af, nil
}

// apxParser reads ASPARTIX statements from a stream. A read error ends the
// input as its end would, and is kept in err, which ParseAPX reports in
// place of what the parser made of the input cut short.
type apxParser struct {
	r *bufio.Reader
	// win is the reader's buffered input, read from pos on: the parser
	// indexes it as it would a slice of the whole file, which a call to
	// the reader for every byte made a half slower.
	win  []byte
	pos  int
	line int
	err  error
	buf  []byte // the name being read, reused
}

// peek returns the next byte without reading it; ok is false at the end.
func (p *apxParser) peek() (c byte, ok bool) {
	if p.pos < len(p.win) {
		return p.win[p.pos], true
	}
	return p.fill()
}

// fill passes win and takes the reader's next buffer.
func (p *apxParser) fill() (c byte, ok bool) {
	p.sync()
	if _, err := p.r.Peek(1); err != nil {
		if !errors.Is(err, io.EOF) && p.err == nil {
			p.err = err
		}
		return 0, false
	}
	p.win, _ = p.r.Peek(p.r.Buffered())
	return p.win[0], true
}

// sync tells the reader what the parser has read of win, which no longer
// holds anything: the reader's next call may move its buffer.
func (p *apxParser) sync() {
	_, _ = p.r.Discard(p.pos)
	p.win, p.pos = nil, 0
}

func (p *apxParser) eof() bool {
	_, ok := p.peek()
	return !ok
}

// next reads the byte peek returned.
func (p *apxParser) next() { p.pos++ }

// skip passes whitespace and comments; an unclosed block comment is an
// error.
func (p *apxParser) skip() error {
	for {
		c, ok := p.peek()
		switch {
		case !ok:
			return nil
		case c == '\n':
			p.line++
			p.next()
		case c == ' ' || c == '\t' || c == '\r':
			p.next()
		case c == '%':
			p.next()
			if c, ok := p.peek(); ok && c == '*' {
				p.next()
				if err := p.blockComment(); err != nil {
					return err
				}
				continue
			}
			for c, ok := p.peek(); ok && c != '\n'; c, ok = p.peek() {
				p.next()
			}
		default:
			return nil
		}
	}
}

// blockComment passes the rest of a block comment, after its "%*".
func (p *apxParser) blockComment() error {
	line := p.line
	star := false
	for {
		c, ok := p.peek()
		if !ok {
			return fmt.Errorf("iccma: apx line %d: block comment %%* is not closed: end it with *%%", line)
		}
		p.next()
		switch {
		case star && c == '%':
			return nil
		case c == '\n':
			p.line++
		}
		star = c == '*'
	}
}

// maxAPXName bounds a name, as maxLine bounds a line of the other formats.
const maxAPXName = maxLine

// name reads a name: a double-quoted string (with \" and \\ escapes, on
// one line), or a run of characters other than apxDelims.
func (p *apxParser) name() (string, error) { return p.nameMax(maxAPXName) }

// nameMax reads a name as name does, but stops at its first byte past max:
// the name returned is then cut short, longer than max, and an error if
// max is maxAPXName (a name that must be read whole).
func (p *apxParser) nameMax(max int) (string, error) {
	if err := p.skip(); err != nil {
		return "", err
	}
	line := p.line
	p.buf = p.buf[:0]
	c, ok := p.peek()
	if ok && c == '"' {
		p.next()
		p.buf = append(p.buf, c)
		for c, ok := p.peek(); ok && c != '\n'; c, ok = p.peek() {
			p.next()
			p.buf = append(p.buf, c)
			switch {
			case c == '"':
				return string(p.buf), nil
			case c == '\\':
				if c, ok := p.peek(); ok && c != '\n' {
					p.next()
					p.buf = append(p.buf, c)
				}
			}
			if len(p.buf) > max {
				break
			}
		}
		if len(p.buf) <= max {
			return "", fmt.Errorf("iccma: apx line %d: quoted name %s is not closed on its line: end it with \"", line, argue.Quote(p.snippetAfter(string(p.buf))))
		}
	} else {
		for ok && len(p.buf) <= max {
			win := p.win[p.pos:]
			i := 0
			for i < len(win) && !apxDelim(win[i]) {
				i++
			}
			i = min(i, max+1-len(p.buf))
			p.buf = append(p.buf, win[:i]...)
			p.pos += i
			if i < len(win) {
				break
			}
			_, ok = p.peek()
		}
	}
	if len(p.buf) <= max {
		return string(p.buf), nil
	}
	if max < maxAPXName {
		return string(p.buf), nil
	}
	return "", fmt.Errorf("iccma: apx line %d: a name longer than %d MiB, which no apx file has (is this a framework file, and in that format?): %s", line, maxAPXName>>20, argue.Quote(string(p.buf[:20])))
}

// expect passes c, which must come next; skip's errors are returned, and
// errMissing when c is not there (see expected).
func (p *apxParser) expect(c byte) error {
	if err := p.skip(); err != nil {
		return err
	}
	if got, ok := p.peek(); !ok || got != c {
		return errMissing
	}
	p.next()
	return nil
}

// errMissing is expect's error for a missing character.
var errMissing = errors.New("missing")

// expected is the error for c missing after what (the statement so far).
func (p *apxParser) expected(c byte, what string) error {
	if err := p.skip(); err != nil {
		return err
	}
	fix := fmt.Sprintf("write %q there", c)
	if c == '.' {
		fix = "end each statement with '.'"
	}
	// what holds names from the file: quoted, as every name in an error.
	return fmt.Errorf("iccma: apx line %d: expected %q after %s, found %s: %s", p.line, c, argue.Quote(what), argue.Quote(p.snippet()), fix)
}

// apxQuoted reports whether name is one quoted string as ParseAPX reads it,
// so that it can be written back as it is.
func apxQuoted(name string) bool {
	p := apxParser{r: bufio.NewReader(strings.NewReader(name)), line: 1}
	got, err := p.name()
	return err == nil && got == name && strings.HasPrefix(name, "\"")
}

// snippet is what comes next in the input, for errors: up to 20 bytes, on
// the current line.
func (p *apxParser) snippet() string { return p.snippetAfter("") }

// snippetAfter is snippet with read, the text just read, before it.
func (p *apxParser) snippetAfter(read string) string {
	const size = 20
	s := read
	if len(s) < size {
		p.sync()
		next, _ := p.r.Peek(size - len(s))
		s += string(next)
	}
	s = s[:min(len(s), size)]
	if i := strings.IndexByte(s, '\n'); i >= 0 {
		s = s[:i]
	}
	if s == "" {
		return "end of input"
	}
	return strings.TrimRight(s, "\r")
}

// WriteAPX writes af in ASPARTIX format. Names containing characters that
// ASPARTIX cannot represent are rejected rather than silently mangled.
func WriteAPX(w io.Writer, af *argue.Framework) error {
	bw := bufio.NewWriter(w)
	for i := range af.Len() {
		name := af.Name(i)
		if strings.ContainsAny(name, apxDelims) && !apxQuoted(name) {
			return fmt.Errorf("iccma: argument name %s cannot be written in apx (it contains one of %q and is not a quoted string)", argue.Quote(name), apxDelims)
		}
		fmt.Fprintf(bw, "arg(%s).\n", name)
	}
	for i := range af.Len() {
		for _, j := range af.Attacks(i) {
			fmt.Fprintf(bw, "att(%s,%s).\n", af.Name(i), af.Name(j))
		}
	}
	if err := bw.Flush(); err != nil {
		return fmt.Errorf("iccma: write apx: %w", err)
	}
	return nil
}

// ParseTGF reads the trivial graph format: one argument per line, its name
// the first word and the rest of the line a label (ignored), a line "#",
// then one attack "from to" per line, with an optional label after it.
// Blank lines are ignored, and an argument listed twice is one argument.
// A file without the "#" line lists arguments and no attacks, unless a line
// has more than a name: then the "#" line is taken to be missing (its
// attacks would be read as labelled arguments), and that is an error.
func ParseTGF(r io.Reader) (*argue.Framework, error) {
	af := argue.New()
	sc := bufio.NewScanner(r)
	sc.Buffer(make([]byte, 64*1024), maxLine)
	edges := false
	labelled, labelledText := 0, "" // the first argument line with a label
	ln := 1
	first := "" // the first line that is not blank
	for ; sc.Scan(); ln++ {
		text := sc.Text()
		if ln == 1 {
			text = strings.TrimPrefix(text, "\uFEFF") // an editor's byte order mark
		}
		fields := strings.Fields(text)
		if first == "" && len(fields) > 0 {
			first = strings.TrimSpace(text)
		}
		switch {
		case len(fields) == 0:
			continue
		case fields[0] == "#":
			if edges {
				return nil, fmt.Errorf("iccma: tgf line %d: a second \"#\" line: one \"#\" line parts the arguments from the attacks", ln)
			}
			edges = true
		case !edges:
			if strings.HasPrefix(fields[0], "#") {
				return nil, fmt.Errorf("iccma: tgf line %d: found %s where an argument's name belongs: names do not start with #, and the line parting arguments from attacks is \"#\" alone", ln, argue.Quote(strings.TrimSpace(text)))
			}
			if len(fields) > 1 && labelled == 0 {
				labelled, labelledText = ln, strings.TrimSpace(text)
			}
			if _, dup := af.Index(fields[0]); dup {
				continue
			}
			if _, err := af.AddArgument(fields[0]); err != nil {
				return nil, fmt.Errorf("iccma: tgf line %d: %w", ln, err)
			}
		default:
			if len(fields) < 2 {
				return nil, fmt.Errorf("iccma: tgf line %d: expected an attack \"from to\", found %s", ln, argue.Quote(strings.TrimSpace(text)))
			}
			if err := af.AddAttackNames(fields[0], fields[1]); err != nil {
				return nil, fmt.Errorf("iccma: tgf line %d: %w: list every argument before the \"#\" line", ln, err)
			}
		}
	}
	if err := sc.Err(); err != nil {
		return nil, scanError("tgf", ln, err)
	}
	if h := otherFormat(first, TGF); !edges && h != "" {
		// An apx file has no "#" line and one word a line: read as tgf it
		// would be a framework of arguments named "arg(a).".
		return nil, fmt.Errorf("iccma: tgf: the file has no \"#\" line and starts %s%s", argue.Quote(first), h)
	}
	if !edges && labelled > 0 {
		return nil, fmt.Errorf("iccma: tgf line %d: %s is an argument with a label or an attack, and the file has no \"#\" line: put a line \"#\" between the arguments and the attacks (after the arguments if there are none)", labelled, argue.Quote(labelledText))
	}
	return af, nil
}

// maxLine bounds a line of a tgf or i23 file (bufio.Scanner's buffer).
const maxLine = 16 << 20

// scanError reports a failed read of line ln of a line-based format.
func scanError(format string, ln int, err error) error {
	if errors.Is(err, bufio.ErrTooLong) {
		return fmt.Errorf("iccma: %s line %d: longer than %d MiB, which no %s line is (is this a framework file, and in that format?): %w", format, ln, maxLine>>20, format, err)
	}
	return fmt.Errorf("iccma: read %s: %w", format, err)
}

// WriteTGF writes af in trivial graph format.
func WriteTGF(w io.Writer, af *argue.Framework) error {
	bw := bufio.NewWriter(w)
	for i := range af.Len() {
		name := af.Name(i)
		if len(strings.Fields(name)) != 1 || strings.Fields(name)[0] != name || strings.HasPrefix(name, "#") {
			return fmt.Errorf("iccma: argument name %s cannot be written in tgf (whitespace or leading #)", argue.Quote(name))
		}
		fmt.Fprintln(bw, name)
	}
	fmt.Fprintln(bw, "#")
	for i := range af.Len() {
		for _, j := range af.Attacks(i) {
			fmt.Fprintf(bw, "%s %s\n", af.Name(i), af.Name(j))
		}
	}
	if err := bw.Flush(); err != nil {
		return fmt.Errorf("iccma: write tgf: %w", err)
	}
	return nil
}

// maxI23Args bounds the header. A framework costs 8 bytes per declared
// argument (see argue.Framework) plus what a solver then needs per argument,
// so ten million stays within a few hundred megabytes; a corrupt
// "p af 99999999999" is refused with a clear error instead of exhausting
// memory.
const maxI23Args = 10_000_000

// ParseI23 reads the ICCMA 2023 format: lines starting with # are comments;
// the first other line is "p af N"; each further line is an attack "i j"
// with 1 ≤ i, j ≤ N. Arguments are named "1".."N". Blank lines, surrounding
// whitespace, CRLF line ends, a UTF-8 byte order mark and repeated attacks
// are accepted, as ICCMA's own readers take them.
func ParseI23(r io.Reader) (*argue.Framework, error) {
	sc := bufio.NewScanner(r)
	sc.Buffer(make([]byte, 64*1024), maxLine)
	// The header allocates nothing by itself: the framework's arrays are
	// built from the attacks once they are read (argue.NewNumbered).
	var af *argue.Framework
	headerLine := 0
	ln := 1
	for ; sc.Scan(); ln++ {
		line := sc.Text()
		if ln == 1 {
			line = strings.TrimPrefix(line, "\uFEFF") // an editor's byte order mark
		}
		text := uncomment(line)
		if text == "" {
			continue
		}
		fields := strings.Fields(text)
		if af == nil {
			if len(fields) != 3 || fields[0] != "p" || fields[1] != "af" {
				hint := headerHint(text, fields)
				if h := otherFormat(text, I23); h != "" {
					hint = h
				}
				return nil, fmt.Errorf("iccma: i23 line %d: expected header \"p af N\", found %s%s", ln, argue.Quote(text), hint)
			}
			n, err := strconv.Atoi(fields[2])
			if err != nil || n < 0 || n > maxI23Args {
				return nil, fmt.Errorf("iccma: i23 line %d: bad argument count %s in the header: want a number of arguments from 0 to %d (is the header corrupt?)", ln, argue.Quote(fields[2]), maxI23Args)
			}
			af, headerLine = argue.NewNumbered(n), ln
			continue
		}
		if len(fields) != 2 {
			if len(fields) > 0 && fields[0] == "p" {
				return nil, fmt.Errorf("iccma: i23 line %d: a second header %s (the first is on line %d): a file holds one framework", ln, argue.Quote(text), headerLine)
			}
			return nil, fmt.Errorf("iccma: i23 line %d: expected an attack \"i j\", found %s (comments start with #)", ln, argue.Quote(text))
		}
		from, err1 := strconv.Atoi(fields[0])
		to, err2 := strconv.Atoi(fields[1])
		if err1 != nil || err2 != nil || from < 1 || to < 1 || from > af.Len() || to > af.Len() {
			return nil, fmt.Errorf("iccma: i23 line %d: attack %s must be two argument numbers in 1..%d%s", ln, argue.Quote(text), af.Len(), attackHint(fields, err1, err2, af.Len(), headerLine))
		}
		if err := af.AddAttack(from-1, to-1); err != nil {
			return nil, fmt.Errorf("iccma: i23 line %d: %w", ln, err)
		}
	}
	if err := sc.Err(); err != nil {
		return nil, scanError("i23", ln, err)
	}
	if af == nil {
		return nil, fmt.Errorf("iccma: i23: missing header \"p af N\" (the input has no line but comments and blank ones): start the file with \"p af N\", N the number of arguments")
	}
	return af, nil
}

// uncomment is an i23 line without its comment and surrounding blanks. The
// format's comments are lines starting with #; a # after a header or an
// attack ("1 2 # why") is taken as a comment too, as μ-toksia and other
// solvers' stream readers take it, rather than refusing a framework whose
// meaning is plain.
func uncomment(line string) string {
	if i := strings.IndexByte(line, '#'); i >= 0 {
		line = line[:i]
	}
	return strings.TrimSpace(line)
}

// otherFormat says which other format line looks like, for an error
// reading it as format f: a file given the wrong -fo or extension.
func otherFormat(line string, f Format) string {
	if g, ok := sniff([]byte(line)); ok && g != f {
		return fmt.Sprintf(" (this looks like the %s format: pass -fo %s)", g, g)
	}
	return ""
}

// headerHint says what a line found where the header belongs suggests.
func headerHint(text string, fields []string) string {
	switch {
	case strings.Contains(text, "\r"):
		return ": the lines end in a bare carriage return; convert the file to LF (or CRLF) line ends"
	case len(fields) == 2:
		return ": the header \"p af N\" must come before the attacks"
	case len(fields) > 3 && fields[0] == "p" && fields[1] == "af":
		return ": the header holds one number, N, the number of arguments"
	case len(fields) > 0 && strings.EqualFold(fields[0], "p"):
		return ": write it in lower case, with one number"
	}
	return ""
}

// attackHint says how to fix an attack line with a bad argument number.
func attackHint(fields []string, err1, err2 error, n, headerLine int) string {
	if err1 != nil || err2 != nil {
		return " (arguments are whole numbers)"
	}
	if fields[0] == "0" || fields[1] == "0" || strings.HasPrefix(fields[0], "-") || strings.HasPrefix(fields[1], "-") {
		return " (arguments are numbered from 1)"
	}
	return fmt.Sprintf(" (the header on line %d declares %d arguments: raise N there or fix the attack)", headerLine, n)
}

// WriteI23 writes af in ICCMA 2023 format. Argument i is written as number
// i+1; when the names are not already "1".."N", a "# <number> <name>"
// comment line per argument preserves them for readers (ParseI23 ignores
// comments, as the format requires).
func WriteI23(w io.Writer, af *argue.Framework) error {
	bw := bufio.NewWriter(w)
	fmt.Fprintf(bw, "p af %d\n", af.Len())
	for i := range af.Len() {
		if name := af.Name(i); name != strconv.Itoa(i+1) {
			fmt.Fprintf(bw, "# %d %s\n", i+1, strings.ReplaceAll(name, "\n", " "))
		}
	}
	for i := range af.Len() {
		for _, j := range af.Attacks(i) {
			fmt.Fprintf(bw, "%d %d\n", i+1, j+1)
		}
	}
	if err := bw.Flush(); err != nil {
		return fmt.Errorf("iccma: write i23: %w", err)
	}
	return nil
}

// sniff tells the format from the start of a file whose name does not say
// it: "p af N" opens an i23 file, "arg(" an apx one, and a line "#" parts a
// tgf file's arguments from its attacks. A line "#" is also an i23
// comment, so it decides only when no i23 header follows it. ok is false
// when none matches.
func sniff(head []byte) (f Format, ok bool) {
	hash := false // a line "#" was seen
	for line := range strings.Lines(strings.TrimPrefix(string(head), "\uFEFF")) {
		line = strings.TrimSpace(line)
		fields := strings.Fields(line)
		if !strings.HasPrefix(line, "#") {
			// An i23 header with a comment after it, "p af 3 # ...".
			fields = strings.Fields(uncomment(line))
		}
		switch {
		case line == "" || strings.HasPrefix(line, "%"):
			continue // blank, or an apx comment
		case len(fields) == 3 && fields[0] == "p" && fields[1] == "af":
			return I23, true
		case strings.HasPrefix(line, "arg(") || strings.HasPrefix(line, "att("):
			return APX, true
		case line == "#":
			hash = true
		case strings.HasPrefix(line, "#"):
			continue // an i23 comment; no tgf line starts so
		case hash:
			return TGF, true // an attack after the "#" line
		}
	}
	return TGF, hash
}
