package iccma

import (
	"bufio"
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/parleyhq/parley/internal/argue"
)

// tasks lists the tasks of the ICCMA solver interface: SE (some
// extension), EE (enumerate extensions), CE (count extensions), DC/DS
// (credulous/skeptical acceptance of the query argument).
func tasks() []string { return []string{"SE", "EE", "CE", "DC", "DS"} }

// Problems lists every supported TASK-SEMANTICS pair, for --problems.
func Problems() []string {
	var out []string
	for _, t := range tasks() {
		for _, s := range argue.AllSemantics() {
			out = append(out, t+"-"+string(s))
		}
	}
	return out
}

// Options selects what Run solves.
type Options struct {
	Problem string    // e.g. "DC-PR"; see Problems
	File    string    // input framework; "-" or "" reads Input
	Format  string    // see Formats; empty means infer from File's extension
	Arg     string    // query argument for DC/DS (a name, or a number in i23)
	Input   io.Reader // read when File is "" or "-"
	// Shown, if set, is how an argument's name is written in the answer;
	// nil writes names as the file has them. afrun sets it when the answer
	// goes to a terminal, which must not act on a name's control
	// characters; a pipe gets the names byte for byte, as ICCMA tooling
	// compares them with the file's.
	Shown func(name string) string
}

// Run solves opts.Problem on the framework in opts.File and writes the
// answer to stdout using ICCMA output conventions. Numeric (i23) input gets
// the 2023 style ("w 1 2 3", "YES"/"NO", counts; EE prints one "w" line per
// extension); apx and tgf get the 2019 style ("[a,b]", "[[a],[b]]", "YES",
// "NO", counts). When ctx ends first, nothing is printed and the error wraps
// argue.ErrCutOff.
func Run(ctx context.Context, opts Options, stdout io.Writer) error {
	task, sem, err := parseProblem(opts.Problem)
	if err != nil {
		return err
	}
	src, name, closeSrc, err := input(opts)
	if err != nil {
		return err
	}
	defer closeSrc()
	in := bufio.NewReaderSize(ctxReader{ctx, src}, sniffBytes)
	// What no framework file starts with, said as such: reading on would
	// report garbage on line 1.
	switch magic, _ := in.Peek(2); {
	case bytes.Equal(magic, []byte{0x1f, 0x8b}):
		// ICCMA distributes instances compressed; solvers are given them
		// plain.
		return fmt.Errorf("iccma: %s is gzip-compressed: decompress it first (gunzip -k FILE, or zcat FILE | ... -f - -fo FORMAT)", name)
	case bytes.Equal(magic, []byte{0xff, 0xfe}), bytes.Equal(magic, []byte{0xfe, 0xff}):
		// Windows PowerShell's > writes UTF-16.
		return fmt.Errorf("iccma: %s is UTF-16 text (as Windows PowerShell's > writes it): save it as UTF-8 or ASCII, e.g. iconv -f UTF-16 -t UTF-8", name)
	}
	format, err := resolveFormat(opts, in, name)
	if err != nil {
		return err
	}
	af, err := readFramework(in, name, opts.stdin(), format)
	if err != nil {
		return err
	}
	arg := -1
	if task == "DC" || task == "DS" {
		if strings.TrimSpace(opts.Arg) == "" {
			return fmt.Errorf("iccma: problem %s needs a query argument: add -a ARG", opts.Problem)
		}
		var ok bool
		if arg, ok = queryIndex(af, format, opts.Arg); !ok {
			return fmt.Errorf("iccma: query argument %s is not an argument of %s (%s)", argue.Quote(opts.Arg), name, argHint(af, format))
		}
	}
	// A query given to SE, EE or CE is left unread: a harness that passes
	// every instance's .arg file along with every task still gets the
	// answer (μ-toksia ignores it too); afrun says so on standard error.
	out := bufio.NewWriter(stdout)
	p := printer{af: af, numeric: format == I23, w: out, shown: opts.Shown}
	switch task {
	case "SE":
		e, ok, err := af.SomeExtension(ctx, sem)
		if err != nil {
			return fmt.Errorf("iccma: %s: %w", opts.Problem, err)
		}
		if !ok {
			p.line("NO")
		} else {
			p.single(e)
		}
	case "EE":
		l := newLister(p, stdout)
		err := af.Enumerate(ctx, sem, l.add)
		if werr := l.finish(err == nil); werr != nil {
			return fmt.Errorf("%w: %w", ErrWrite, werr)
		}
		if err != nil {
			if l.printed > 0 {
				return fmt.Errorf("iccma: %s: %w (%d extensions printed before that: %w)", opts.Problem, err, l.printed, ErrIncomplete)
			}
			return fmt.Errorf("iccma: %s: %w (found %d extensions before that)", opts.Problem, err, l.found)
		}
	case "CE":
		n, err := af.Count(ctx, sem)
		if err != nil {
			return fmt.Errorf("iccma: %s: %w (count so far %d is a lower bound)", opts.Problem, err, n)
		}
		p.line(fmt.Sprint(n))
	case "DC", "DS":
		// ICCMA 2023 follows YES to DC, and NO to DS, with a certificate:
		// an extension that contains the argument, or lacks it. The
		// formats of earlier competitions (apx, tgf) answer YES or NO alone.
		var (
			yes bool
			w   argue.Extension
		)
		switch {
		case task == "DC" && p.numeric:
			yes, w, err = af.CredulousWitness(ctx, sem, arg)
		case task == "DC":
			yes, err = af.Credulous(ctx, sem, arg)
		case p.numeric:
			yes, w, err = af.SkepticalWitness(ctx, sem, arg)
		default:
			yes, err = af.Skeptical(ctx, sem, arg)
		}
		if err != nil {
			return fmt.Errorf("iccma: %s %s: %w", opts.Problem, opts.Arg, err)
		}
		p.line(map[bool]string{true: "YES", false: "NO"}[yes])
		if w != nil && yes == (task == "DC") {
			p.single(w)
		}
	}
	if err := out.Flush(); err != nil {
		return fmt.Errorf("%w: %w", ErrWrite, err)
	}
	return nil
}

// ErrWrite is an answer Run found but could not write (a full disk, a
// closed pipe): the input was good, unlike the errors that say what is
// wrong with it.
var ErrWrite = errors.New("iccma: write answer")

// TakesArg reports whether problem (e.g. "DC-PR") asks about a query
// argument: DC and DS do; SE, EE and CE ignore one given. It is false for
// a problem that is not one of Problems.
func TakesArg(problem string) bool {
	task, _, err := parseProblem(problem)
	return err == nil && (task == "DC" || task == "DS")
}

func parseProblem(problem string) (task string, sem argue.Semantics, err error) {
	t, s, ok := strings.Cut(strings.ToUpper(problem), "-")
	if ok && slices.Contains(tasks(), t) {
		if sem, err = argue.ParseSemantics(s); err == nil {
			return t, sem, nil
		}
	}
	return "", "", fmt.Errorf("iccma: unknown problem %s (valid: %s)", argue.Quote(problem), strings.Join(Problems(), ", "))
}

// stdin reports whether opts reads standard input (opts.Input): no file, or "-".
func (opts Options) stdin() bool { return opts.File == "" || opts.File == "-" }

// input opens what opts names: the file, or opts.Input for "" and "-".
// name is how errors refer to it.
func input(opts Options) (r io.Reader, name string, closeFn func(), err error) {
	if opts.stdin() {
		if opts.Input == nil {
			return nil, "", nil, fmt.Errorf("iccma: no input file given")
		}
		return opts.Input, "standard input", func() {}, nil
	}
	f, err := os.Open(opts.File)
	if errors.Is(err, fs.ErrNotExist) {
		return nil, "", nil, fmt.Errorf("iccma: %s does not exist: check the path given to -f (- reads standard input): %w", opts.File, err)
	}
	if err != nil {
		// A missing or unreadable file is the problem to report, not its name.
		return nil, "", nil, fmt.Errorf("iccma: %w", err)
	}
	if fi, err := f.Stat(); err == nil && fi.IsDir() {
		f.Close()
		return nil, "", nil, fmt.Errorf("iccma: %s is a directory: give the path of a framework file (-f FILE)", opts.File)
	}
	return f, opts.File, func() { f.Close() }, nil
}

// resolveFormat is opts.Format, else what the head of the input says when
// it opens as only i23 or apx files do (a file named .af may hold ASPARTIX
// facts, as some tools name theirs), else the file name's extension, else
// a tgf "#" line in the head (see sniff). The head is peeked, not read, so
// that a pipe (standard input, /dev/stdin, a shell's <(...)) is parsed from
// its start: opening such a path a second time finds it drained.
func resolveFormat(opts Options, in *bufio.Reader, name string) (Format, error) {
	if opts.Format != "" {
		return ParseFormat(opts.Format)
	}
	head, _ := in.Peek(sniffBytes)
	sf, sniffed := sniff(head)
	if sniffed && sf != TGF {
		return sf, nil
	}
	stdin := opts.stdin()
	var err error
	if !stdin {
		var f Format
		if f, err = FormatOf(opts.File); err == nil {
			return f, nil
		}
	}
	// A tgf file is told by its "#" line, which may come late, so only
	// the head is looked at and a miss keeps the error that asks for a
	// format.
	if sniffed {
		return sf, nil
	}
	if len(bytes.TrimSpace(head)) == 0 {
		// Nothing to tell a format by: asking for -fo would only lead
		// to "missing header" once it is given.
		label := name
		if !stdin {
			label = strconv.Quote(opts.File)
		}
		return "", fmt.Errorf("iccma: %s is empty: give it a framework (i23 starts with \"p af N\"), or pass -fo to read it as an empty one", label)
	}
	if stdin {
		return "", fmt.Errorf("iccma: cannot tell the format of %s from its first lines; pass one with -fo (%s)", name, strings.Join(Formats(), ", "))
	}
	return "", err
}

// ErrIncomplete is an EE answer cut off after some of its extensions were
// printed: they are genuine, but not all. The list is left open (no
// closing bracket in the apx and tgf style); the i23 style has no end to
// leave out, so the exit code and standard error are what tell.
var ErrIncomplete = errors.New("the list printed is incomplete")

// sniffBytes is how much of an input resolveFormat looks at.
const sniffBytes = 64 << 10

func readFramework(in io.Reader, name string, stdin bool, format Format) (*argue.Framework, error) {
	af, err := Parse(in, format)
	if err != nil {
		if stdin {
			return nil, fmt.Errorf("standard input: %w", err) // as a file is named: Parse says "iccma:"
		}
		// Parse's errors already name the package and the line.
		return nil, fmt.Errorf("%s: %w", name, err)
	}
	return af, nil
}

// ctxReader stops reading when ctx ends, so that a time bound covers
// reading a huge framework too.
type ctxReader struct {
	ctx context.Context
	r   io.Reader
}

func (c ctxReader) Read(p []byte) (int, error) {
	if err := c.ctx.Err(); err != nil {
		return 0, fmt.Errorf("%w: reading stopped: %w", argue.ErrCutOff, err)
	}
	return c.r.Read(p)
}

// queryIndex finds the query argument. Surrounding whitespace is dropped
// (an argument read from an ICCMA .arg file may keep its newline), and an
// i23 argument is a number as the file's attack lines are: "07" and "+7"
// name argument 7 there as well.
func queryIndex(af *argue.Framework, format Format, arg string) (int, bool) {
	arg = strings.TrimSpace(arg)
	if i, ok := af.Index(arg); ok {
		return i, true
	}
	switch format {
	case I23:
		if n, err := strconv.Atoi(arg); err == nil {
			return af.Index(strconv.Itoa(n))
		}
	case APX:
		// A quoted apx name keeps its quotes (see ParseAPX), which a shell
		// strips from -a "a b": the name is looked up quoted too.
		q := `"` + strings.NewReplacer(`\`, `\\`, `"`, `\"`).Replace(arg) + `"`
		return af.Index(q)
	}
	return 0, false
}

func argHint(af *argue.Framework, format Format) string {
	switch {
	case af.Len() == 0:
		return "the framework has no arguments, so no query can be asked"
	case af.Len() == 1 && format == I23:
		return "1 argument, numbered 1"
	case af.Len() == 1:
		return fmt.Sprintf("1 argument, %s", argue.Quote(af.Name(0)))
	case format == I23:
		return fmt.Sprintf("%d arguments, numbered 1..%d", af.Len(), af.Len())
	}
	return fmt.Sprintf("%d arguments, e.g. %s", af.Len(), argue.Quote(af.Name(0)))
}

type printer struct {
	af      *argue.Framework
	numeric bool
	w       io.Writer
	shown   func(string) string // see Options.Shown
}

// name is argument a's name as the answer writes it.
func (p printer) name(a int) string {
	if p.shown == nil {
		return p.af.Name(a)
	}
	return p.shown(p.af.Name(a))
}

func (p printer) line(s string) { fmt.Fprintln(p.w, s) }

func (p printer) single(e argue.Extension) {
	if p.numeric {
		// Written name by name: an extension of millions of arguments
		// would otherwise be held as strings, then joined, then printed.
		io.WriteString(p.w, "w")
		for _, a := range e {
			io.WriteString(p.w, " ")
			io.WriteString(p.w, p.name(a))
		}
		io.WriteString(p.w, "\n")
		return
	}
	p.line(p.bracket(e))
}

func (p printer) bracket(e argue.Extension) string {
	names := make([]string, len(e))
	for i, a := range e {
		names[i] = p.name(a)
	}
	return "[" + strings.Join(names, ",") + "]"
}

// A lister prints EE's extensions as the search finds them, so that
// memory does not grow with their number (2^70 on 70 pairs of mutually
// attacking arguments). Up to heldInts argument indices it holds them and
// prints them sorted (slices.Compare) when the search ends, as the answer
// always was; a list that outgrows that is printed as it goes on: the
// held part sorted, then each extension as found.
type lister struct {
	p     printer // writes to buf
	buf   *bytes.Buffer
	dst   io.Writer
	held  []argue.Extension
	size  int // argument indices in held, plus one per extension
	found int
	// printed counts the extensions written to dst; streaming is set once
	// the held ones went out.
	printed   int
	emitted   int // extensions in buf or dst
	streaming bool
	flushed   time.Time
	err       error // the first write error; the search stops on it
}

// heldInts bounds what a lister holds to print sorted: 4 MB of indices.
const heldInts = 1 << 19

// streamBytes and streamEvery are when a streaming lister writes what it
// has: 64 kB of text, or a tenth of a second after its last write.
const (
	streamBytes = 64 << 10
	streamEvery = 100 * time.Millisecond
)

func newLister(p printer, dst io.Writer) *lister {
	l := &lister{buf: new(bytes.Buffer), dst: dst}
	l.p, l.p.w = p, l.buf
	return l
}

// add takes the next extension found (argue.Enumerate's callback): false
// stops the search after a write error.
func (l *lister) add(e argue.Extension) bool {
	l.found++
	if !l.streaming {
		l.held = append(l.held, e)
		if l.size += len(e) + 1; l.size <= heldInts {
			return true
		}
		l.streaming = true
		l.flushed = time.Now()
		l.emitHeld()
		return l.flush()
	}
	l.emit(e)
	if l.buf.Len() >= streamBytes || time.Since(l.flushed) >= streamEvery {
		return l.flush()
	}
	return true
}

func (l *lister) emitHeld() {
	slices.SortFunc(l.held, slices.Compare)
	for _, e := range l.held {
		l.emit(e)
	}
	l.held = nil
}

// emit puts e in the buffer, after the list's opening or a separator.
func (l *lister) emit(e argue.Extension) {
	switch {
	case l.p.numeric:
		l.p.single(e)
	case l.emitted == 0:
		l.buf.WriteString("[" + l.p.bracket(e))
	default:
		l.buf.WriteString("," + l.p.bracket(e))
	}
	l.emitted++
}

// flush writes the whole extensions in the buffer; it never writes part of
// one, so what a stopped run has printed ends at an extension's end.
func (l *lister) flush() bool {
	if l.err == nil && l.buf.Len() > 0 {
		_, l.err = l.dst.Write(l.buf.Bytes())
		l.printed = l.emitted
		l.flushed = time.Now()
	}
	l.buf.Reset()
	return l.err == nil
}

// finish ends the list: complete, the held extensions sorted and the
// list's end (its closing bracket; NO for an empty i23 list); cut off,
// only what a streaming list has found, the list left open. It returns
// the first write error.
func (l *lister) finish(complete bool) error {
	switch {
	case complete:
		l.emitHeld()
		switch {
		case l.p.numeric && l.emitted == 0:
			l.buf.WriteString("NO\n")
		case l.p.numeric:
		case l.emitted == 0:
			l.buf.WriteString("[]\n")
		default:
			l.buf.WriteString("]\n")
		}
	case !l.streaming:
		l.held = nil // nothing printed: no answer, as other tasks cut off
	}
	l.flush()
	return l.err
}
