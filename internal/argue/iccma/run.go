package iccma

import (
	"bufio"
	"context"
	"fmt"
	"io"
	"os"
	"slices"
	"strings"

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
	format, err := resolveFormat(opts)
	if err != nil {
		return err
	}
	af, err := readFramework(ctx, opts, format)
	if err != nil {
		return err
	}
	arg := -1
	if task == "DC" || task == "DS" {
		if opts.Arg == "" {
			return fmt.Errorf("iccma: problem %s needs a query argument (-a)", opts.Problem)
		}
		var ok bool
		if arg, ok = af.Index(opts.Arg); !ok {
			return fmt.Errorf("iccma: query argument %q is not an argument of %s (%d arguments%s)", opts.Arg, opts.File, af.Len(), argHint(af, format))
		}
	} else if opts.Arg != "" {
		return fmt.Errorf("iccma: problem %s takes no query argument, got %q", opts.Problem, opts.Arg)
	}
	out := bufio.NewWriter(stdout)
	p := printer{af: af, numeric: format == I23, w: out}
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
		exts, err := af.Extensions(ctx, sem)
		if err != nil {
			return fmt.Errorf("iccma: %s: %w (found %d extensions before that)", opts.Problem, err, len(exts))
		}
		p.all(exts)
	case "CE":
		n, err := af.Count(ctx, sem)
		if err != nil {
			return fmt.Errorf("iccma: %s: %w (count so far %d is a lower bound)", opts.Problem, err, n)
		}
		p.line(fmt.Sprint(n))
	case "DC", "DS":
		var yes bool
		if task == "DC" {
			yes, err = af.Credulous(ctx, sem, arg)
		} else {
			yes, err = af.Skeptical(ctx, sem, arg)
		}
		if err != nil {
			return fmt.Errorf("iccma: %s %s: %w", opts.Problem, opts.Arg, err)
		}
		p.line(map[bool]string{true: "YES", false: "NO"}[yes])
	}
	if err := out.Flush(); err != nil {
		return fmt.Errorf("iccma: write answer: %w", err)
	}
	return nil
}

func parseProblem(problem string) (task string, sem argue.Semantics, err error) {
	t, s, ok := strings.Cut(strings.ToUpper(problem), "-")
	if ok && slices.Contains(tasks(), t) {
		if sem, err = argue.ParseSemantics(s); err == nil {
			return t, sem, nil
		}
	}
	return "", "", fmt.Errorf("iccma: unknown problem %q (valid: %s)", problem, strings.Join(Problems(), ", "))
}

func resolveFormat(opts Options) (Format, error) {
	if opts.Format != "" {
		return ParseFormat(opts.Format)
	}
	if opts.File == "" || opts.File == "-" {
		return "", fmt.Errorf("iccma: reading standard input needs an explicit format (%s)", strings.Join(Formats(), ", "))
	}
	f, err := FormatOf(opts.File)
	if err == nil {
		return f, nil
	}
	// A name without a known extension: the file's first lines may tell.
	// An i23 file opens with its "p af" line; a tgf one is told by its "#"
	// line, which may come late, so only the head is read and a miss keeps
	// the error that asks for a format.
	file, oerr := os.Open(opts.File)
	if oerr != nil {
		// A missing or unreadable file is the problem to report, not its name.
		return "", fmt.Errorf("iccma: %w", oerr)
	}
	defer file.Close()
	head := make([]byte, 64<<10)
	n, _ := io.ReadFull(file, head)
	if sf, ok := sniff(head[:n]); ok {
		return sf, nil
	}
	return "", err
}

func readFramework(ctx context.Context, opts Options, format Format) (*argue.Framework, error) {
	if opts.File == "" || opts.File == "-" {
		if opts.Input == nil {
			return nil, fmt.Errorf("iccma: no input file given")
		}
		af, err := Parse(ctxReader{ctx, opts.Input}, format)
		if err != nil {
			return nil, fmt.Errorf("iccma: standard input: %w", err)
		}
		return af, nil
	}
	f, err := os.Open(opts.File)
	if err != nil {
		return nil, fmt.Errorf("iccma: %w", err)
	}
	defer f.Close()
	af, err := Parse(ctxReader{ctx, f}, format)
	if err != nil {
		// Parse's errors already name the package and the line.
		return nil, fmt.Errorf("%s: %w", opts.File, err)
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

func argHint(af *argue.Framework, format Format) string {
	if format == I23 {
		return ", numbered 1.." + fmt.Sprint(af.Len())
	}
	if af.Len() > 0 {
		return ", e.g. " + af.Name(0)
	}
	return ""
}

type printer struct {
	af      *argue.Framework
	numeric bool
	w       io.Writer
}

func (p printer) line(s string) { fmt.Fprintln(p.w, s) }

func (p printer) single(e argue.Extension) {
	if p.numeric {
		// Written name by name: an extension of millions of arguments
		// would otherwise be held as strings, then joined, then printed.
		io.WriteString(p.w, "w")
		for _, a := range e {
			io.WriteString(p.w, " ")
			io.WriteString(p.w, p.af.Name(a))
		}
		io.WriteString(p.w, "\n")
		return
	}
	p.line(p.bracket(e))
}

func (p printer) bracket(e argue.Extension) string {
	return "[" + strings.Join(p.af.Names(e), ",") + "]"
}

func (p printer) all(exts []argue.Extension) {
	if p.numeric {
		if len(exts) == 0 {
			p.line("NO")
		}
		for _, e := range exts {
			p.single(e)
		}
		return
	}
	parts := make([]string, len(exts))
	for i, e := range exts {
		parts[i] = p.bracket(e)
	}
	p.line("[" + strings.Join(parts, ",") + "]")
}
