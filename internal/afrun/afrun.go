// Package afrun is Parley's argumentation solver as a command, without a
// command-line framework: the options of the ICCMA solver interface
// (-p PROBLEM -f FILE [-fo FORMAT] [-a ARG]), running them on
// internal/argue, and Early, which lets cmd/parley run `parley af` before
// the rest of its binary initialises. internal/afcmd mounts it as a cobra
// command, for `parley af` and cmd/parley-af.
//
// Why apart from afcmd: a Go process initialises every package linked into
// it before main, in an order the language fixes (packages sorted by import
// path, each as soon as its imports are). A package whose path sorts late
// waits for every earlier one that is ready, and so does everything that
// imports it: cobra (through text/template), pflag (through net),
// path/filepath and runtime/debug would each hold Early back behind the
// language-model SDKs, goldmark and SQLite. So this package imports the
// solver, iostreams and the standard library without those: package flag
// parses, internal/argue/iccma finds a file's extension itself, and afcmd
// prints the banner (internal/version reads the build information). Keep its
// imports that way: cmd/parley's TestAFStartsBeforeTheRest checks what
// initialises.
package afrun

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"os/signal"
	"slices"
	"strings"
	"syscall"
	"time"

	"github.com/parleyhq/parley/internal/argue"
	"github.com/parleyhq/parley/internal/argue/iccma"
	"github.com/parleyhq/parley/internal/iostreams"
	"github.com/parleyhq/parley/internal/textsafe"
)

// Exit codes, the same as the full command line's.
const (
	ExitOK          = 0
	ExitError       = 1   // no answer: cut off, or the solver failed
	ExitUsage       = 2   // bad flags, problem, file or argument
	ExitInterrupted = 130 // 128 + SIGINT; SIGTERM gives 143 (Interrupted.Code)
)

// Interrupted is a run stopped by a signal (Ctrl+C, or SIGTERM from a
// harness or a service manager). It unwraps to context.Canceled, the
// cause every other front-end stops on.
type Interrupted struct{ Signal os.Signal }

func (e *Interrupted) Error() string { return "interrupted by " + signalName(e.Signal) }
func (e *Interrupted) Unwrap() error { return context.Canceled }

// Code is the exit code a shell reports for a process the signal ended,
// 128 plus the signal's number (130 for SIGINT, 143 for SIGTERM), which is
// what scripts and ICCMA harnesses test for.
func (e *Interrupted) Code() int {
	if s, ok := e.Signal.(syscall.Signal); ok {
		return 128 + int(s)
	}
	return ExitInterrupted
}

func signalName(s os.Signal) string {
	switch s {
	case os.Interrupt:
		return "SIGINT"
	case syscall.SIGTERM:
		return "SIGTERM"
	}
	return s.String()
}

// stopGrace is how long a run may take to stop after a signal before the
// process exits without it: the solver looks at its context between steps,
// but a write blocked on a full pipe or one long step does not.
const stopGrace = 2 * time.Second

// onSignal returns ctx cancelled, with an *Interrupted as its cause, when
// SIGINT or SIGTERM arrives, and the function that stops listening (call
// it when the run is over). A run that has not stopped stopGrace after the
// signal, or a second signal, ends the process at once with the same
// message and exit code: a user pressing Ctrl+C gets the prompt back.
func onSignal(ctx context.Context, ios *iostreams.IOStreams) (context.Context, func()) {
	ctx, cancel := context.WithCancelCause(ctx)
	sigs := make(chan os.Signal, 2)
	done := make(chan struct{})
	go func() {
		// The handlers are installed once the run has gone on for
		// signalsAfter: installing them took a third of a millisecond
		// of system time, a tenth of a small framework's whole run
		// (peerbench's geometric mean fell from 2.25 to 2.07). A run
		// that ends sooner is over before a hand can stop it; a signal
		// before then ends the process by its default action, which
		// the shell reports with the same code (128 + the signal).
		wait := time.NewTimer(signalsAfter)
		select {
		case <-done:
			wait.Stop()
			return
		case <-wait.C:
		}
		signal.Notify(sigs, os.Interrupt, syscall.SIGTERM)
		defer signal.Stop(sigs)
		var sig os.Signal
		select {
		case <-done:
			return
		case sig = <-sigs:
		}
		cause := &Interrupted{Signal: sig}
		cancel(cause)
		timer := time.NewTimer(stopGrace)
		defer timer.Stop()
		select {
		case <-done:
			return
		case <-sigs:
		case <-timer.C:
		}
		fmt.Fprintf(ios.ErrOut, "%s %s: stopped before an answer\n", ios.Colors().Red("error:"), cause)
		os.Exit(cause.Code())
	}()
	return ctx, func() {
		close(done)
		cancel(nil)
	}
}

// signalsAfter is how long a run goes on before onSignal installs its
// handlers.
const signalsAfter = 20 * time.Millisecond

// UsageError is bad input: a flag, the problem, the file or its contents,
// the query argument.
type UsageError struct{ Err error }

func (e *UsageError) Error() string { return e.Err.Error() }
func (e *UsageError) Unwrap() error { return e.Err }

// UsageErrorf is a UsageError with a formatted message.
func UsageErrorf(format string, a ...any) error {
	return &UsageError{Err: fmt.Errorf(format, a...)}
}

// Options are the flags, which follow the ICCMA solver interface so that
// competition tooling can run Parley's solver.
type Options struct {
	Problem  string
	File     string
	Format   string
	Arg      string
	Formats  bool
	Problems bool
	Version  bool
	// Timeout bounds the whole run, reading included (0: none).
	Timeout time.Duration
}

// Banner reports whether o asks for the solver's banner, its name, version
// and authors: --version, or no flags at all, as the ICCMA interface has
// it. Run does not print it; afcmd.Run does, because the banner names the
// build (internal/version, which imports runtime/debug: see the package
// comment on imports).
func (o *Options) Banner() bool { return *o == Options{} || o.Version }

// Run solves the problem o names and prints the answer in the ICCMA
// output conventions. Bad input is a *UsageError.
func Run(ctx context.Context, ios *iostreams.IOStreams, o *Options) error {
	switch {
	case o.Formats:
		return writeOut(ios, "[%s]\n", strings.Join(iccma.Formats(), ","))
	case o.Problems:
		return writeOut(ios, "[%s]\n", strings.Join(iccma.Problems(), ","))
	case o.Problem == "":
		return UsageErrorf("-p PROBLEM is required (--problems lists them)")
	case o.File == "":
		return UsageErrorf("-f FILE is required")
	}
	if o.Timeout < 0 {
		return UsageErrorf("--timeout %s: give a positive duration such as 30s, or 0 for none", o.Timeout)
	}
	ctx, stop := onSignal(ctx, ios)
	defer stop()
	if o.Timeout > 0 {
		var cancel context.CancelFunc
		ctx, cancel = context.WithTimeout(ctx, o.Timeout)
		defer cancel()
	}
	if o.Arg != "" && !iccma.TakesArg(o.Problem) && slices.Contains(iccma.Problems(), strings.ToUpper(o.Problem)) {
		// Not an error: ICCMA harnesses may pass an instance's query with
		// every task, and the answer does not depend on it. An unknown
		// problem is left to its error: the note would read as if it were
		// known.
		fmt.Fprintf(ios.ErrOut, "note: %s takes no query argument; -a %q is ignored\n", textsafe.Clean(strings.ToUpper(o.Problem)), o.Arg)
	}
	iopts := iccma.Options{Problem: o.Problem, File: o.File, Format: o.Format, Arg: o.Arg, Input: ios.In}
	if ios.IsTerminal() {
		// A name is the file's bytes: on a terminal its escape sequences
		// would act (clear the screen, retitle the window, write the
		// clipboard), so they are shown instead. A pipe or a file gets
		// the names unchanged, as the ICCMA tools that read the answer
		// compare them with the framework's.
		iopts.Shown = textsafe.Clean
	}
	err := iccma.Run(ctx, iopts, ios.Out)
	var sig *Interrupted
	switch {
	case err == nil:
		return nil
	case errors.As(context.Cause(ctx), &sig) && (errors.Is(err, argue.ErrCutOff) || errors.Is(err, context.Canceled)):
		return fmt.Errorf("%w, stopped before %s: %w", sig, unanswered(err), err)
	case errors.Is(err, context.DeadlineExceeded):
		return fmt.Errorf("no answer within %s (--timeout): the problem is too hard to decide in that time; %s: %w", o.Timeout, printed(err), err)
	case errors.Is(err, argue.ErrCutOff), errors.Is(err, context.Canceled):
		return fmt.Errorf("stopped before %s: %w", unanswered(err), err)
	case errors.Is(err, iccma.ErrWrite):
		// Not bad input (exit 2): the answer was found.
		return err
	}
	return &UsageError{Err: err}
}

// unanswered and printed say what a run cut off left on standard output:
// nothing, or (EE) the extensions found so far, a list left open.
func unanswered(err error) string {
	if errors.Is(err, iccma.ErrIncomplete) {
		return "the whole answer"
	}
	return "an answer; nothing was printed"
}

func printed(err error) string {
	if errors.Is(err, iccma.ErrIncomplete) {
		return "what was printed is not the whole answer"
	}
	return "nothing was printed"
}

// writeOut prints a line of the solver's own on standard output; one that
// cannot be written (a full disk) is an error, not exit 0 with nothing
// printed.
func writeOut(ios *iostreams.IOStreams, format string, a ...any) error {
	if _, err := fmt.Fprintf(ios.Out, format, a...); err != nil {
		return fmt.Errorf("write the answer: %w", err)
	}
	return nil
}

// Args rewrites a long flag written after one dash ("-fo FORMAT", the ICCMA
// interface's own two-letter flag, and "-problem", "-file", ... which users
// of single-dash solvers type) to two dashes: the flag parser would read
// -fo as -f o and -problem as -p roblem. A flag's value is left as it is,
// even when it looks like a flag. args are the solver's own (after "af"
// under parley).
func Args(args []string) []string {
	out := slices.Clone(args)
	value := false // out[i] is the value of the flag before it
	for i, a := range out {
		if value {
			value = false
			continue
		}
		if a == "--" {
			break
		}
		if !strings.HasPrefix(a, "-") {
			continue
		}
		name, _, hasValue := strings.Cut(strings.TrimLeft(a, "-"), "=")
		if !strings.HasPrefix(a, "--") && longFlag(name) {
			out[i] = "-" + a
		}
		value = !hasValue && takesValue(name)
	}
	return out
}

// longFlag reports whether name is one of the solver's flags of more than
// one letter, takesValue whether the flag name takes a value; afcmd.New
// defines them.
func longFlag(name string) bool {
	switch name {
	case "fo", "problem", "file", "arg", "formats", "problems", "version", "timeout", "help":
		return true
	}
	return false
}

func takesValue(name string) bool {
	switch name {
	case "p", "problem", "f", "file", "a", "arg", "fo", "timeout":
		return true
	}
	return false
}

// Exit prints err as the full command line does ("error: ..." on standard
// error) and returns the exit code.
func Exit(ios *iostreams.IOStreams, err error) int {
	if err == nil {
		return ExitOK
	}
	// Cleaned: errors quote the file's lines, names and the file's own
	// name, any of which may hold escape sequences.
	fmt.Fprintf(ios.ErrOut, "%s %s\n", ios.Colors().Red("error:"), textsafe.Clean(err.Error()))
	var (
		ue  *UsageError
		sig *Interrupted
	)
	switch {
	case errors.As(err, &ue):
		return ExitUsage
	case errors.As(err, &sig):
		return sig.Code()
	case errors.Is(err, context.Canceled):
		return ExitInterrupted
	}
	return ExitError
}

// Early runs `parley af` (args are parley's, "af" first) as the full
// command line would, when it is sure to read args as the full command line
// does: the solver's own flags only, each in a form both this parser
// (package flag) and cobra's read alike, and no help asked. Otherwise it
// does nothing and returns false, so that the full command line answers
// (help with its global flags, flag errors in its words, forms such as
// -pSE-PR). cmd/parley calls it before the rest of its binary initialises
// (cmd/parley/internal/afearly).
func Early(ctx context.Context, args []string, ios *iostreams.IOStreams) (code int, ok bool) {
	if len(args) == 0 || args[0] != "af" {
		return 0, false
	}
	o, ok := parse(Args(args[1:]))
	if !ok {
		return 0, false
	}
	return Exit(ios, Run(ctx, ios, &o)), true
}

// parse reads args (after Args) with package flag, and reports whether
// Early may run them: every flag plain (see plainFlags), no positional
// argument, no banner.
func parse(args []string) (Options, bool) {
	if !plainFlags(args) {
		return Options{}, false
	}
	var o Options
	fs := flag.NewFlagSet("parley af", flag.ContinueOnError)
	fs.SetOutput(io.Discard)
	for _, name := range []string{"p", "problem"} {
		fs.StringVar(&o.Problem, name, "", "")
	}
	for _, name := range []string{"f", "file"} {
		fs.StringVar(&o.File, name, "", "")
	}
	for _, name := range []string{"a", "arg"} {
		fs.StringVar(&o.Arg, name, "", "")
	}
	fs.StringVar(&o.Format, "fo", "", "")
	fs.BoolVar(&o.Formats, "formats", false, "")
	fs.BoolVar(&o.Problems, "problems", false, "")
	fs.BoolVar(&o.Version, "version", false, "")
	fs.DurationVar(&o.Timeout, "timeout", 0, "")
	err := fs.Parse(args)
	return o, err == nil && fs.NArg() == 0 && !o.Banner()
}

// plainFlags reports whether every flag in args is written as package flag
// and cobra (pflag) both read it: a one-letter name after one dash, a longer
// one after two. They differ otherwise: flag reads -problem X as the flag
// problem, pflag as -p with the value "roblem". A value that looks like a
// flag makes it false too, and so does "--" (the two read a flag's value
// "--" differently), which only sends that command line the slow way.
func plainFlags(args []string) bool {
	for _, a := range args {
		name, dashes := strings.TrimLeft(a, "-"), len(a)-len(strings.TrimLeft(a, "-"))
		name, _, _ = strings.Cut(name, "=")
		switch {
		case dashes == 0, a == "-":
			// An argument, or a value: - is standard input.
		case dashes == 1 && len(name) == 1, dashes == 2 && len(name) > 1:
		default:
			return false
		}
	}
	return true
}
