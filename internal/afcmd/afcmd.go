// Package afcmd is the command line of Parley's argumentation solver: the
// ICCMA solver interface (-p PROBLEM -f FILE [-fo FORMAT] [-a ARG]) on
// internal/argue. `parley af` mounts it in the full command tree, and
// cmd/parley-af runs it alone.
//
// It lives apart from internal/cli because a Go process initialises every
// package linked into it before main runs: the full binary pays that for
// the language-model SDKs, the stores, the server and the shell on every
// command (about 8 ms here, docs/benchmarks.md), which decides the run time
// of any framework solved in a few milliseconds. cmd/parley-af links only
// this package, cobra and the solver, so that competition tooling pays
// only for what it uses. Keep its imports that way.
package afcmd

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"strings"
	"time"

	"github.com/spf13/cobra"

	"github.com/parleyhq/parley/internal/argue"
	"github.com/parleyhq/parley/internal/argue/iccma"
	"github.com/parleyhq/parley/internal/iostreams"
	"github.com/parleyhq/parley/internal/version"
)

// Exit codes, the same as the full command line's.
const (
	ExitOK          = 0
	ExitError       = 1 // no answer: cut off, or the solver failed
	ExitUsage       = 2 // bad flags, problem, file or argument
	ExitInterrupted = 130
)

// UsageError is bad input: a flag, the problem, the file or its contents,
// the query argument.
type UsageError struct{ Err error }

func (e *UsageError) Error() string { return e.Err.Error() }
func (e *UsageError) Unwrap() error { return e.Err }

func usageErrorf(format string, a ...any) error {
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

// New builds the command; use is its name ("af" under parley, "parley-af"
// alone) and typed how a user types it in the examples ("parley af"). run
// replaces Run in tests; nil runs the solver.
func New(ios *iostreams.IOStreams, use, typed string, run func(context.Context, *Options) error) *cobra.Command {
	opts := &Options{}
	cmd := &cobra.Command{
		Use:   use + " -p PROBLEM -f FILE [-fo FORMAT] [-a ARG]",
		Short: "Solve an argumentation framework (ICCMA solver interface)",
		Long: `Solve reasoning problems on abstract argumentation frameworks, following the ICCMA solver
interface: PROBLEM is TASK-SEMANTICS (tasks SE, EE, DC, DS, CE; semantics CO, GR, PR, ST, SST, STG, ID, AD).
Files are ASPARTIX (.apx), trivial graph format (.tgf) or the ICCMA 2023 numeric format (.af/.i23).`,
		Example: fmt.Sprintf("  %[1]s -p SE-GR -f framework.af\n  %[1]s -p DC-PR -f framework.apx -a a3\n  %[1]s --problems", typed),
		Args: func(cmd *cobra.Command, args []string) error {
			if len(args) > 0 {
				return usageErrorf("%s takes no arguments, got %q (see '%s --help')", cmd.CommandPath(), strings.Join(args, " "), cmd.CommandPath())
			}
			return nil
		},
		RunE: func(cmd *cobra.Command, args []string) error {
			if run != nil {
				return run(cmd.Context(), opts)
			}
			return Run(cmd.Context(), ios, opts)
		},
	}
	fl := cmd.Flags()
	fl.StringVarP(&opts.Problem, "problem", "p", "", "the `problem`, e.g. SE-PR or DC-ST")
	fl.StringVarP(&opts.File, "file", "f", "", "the framework `file` (- for standard input)")
	fl.StringVar(&opts.Format, "fo", "", "the file `format`: "+strings.Join(iccma.Formats(), ", ")+" (default: from the file name)")
	fl.StringVarP(&opts.Arg, "arg", "a", "", "the query `argument` for DC and DS problems")
	fl.BoolVar(&opts.Formats, "formats", false, "list the supported file formats")
	fl.BoolVar(&opts.Problems, "problems", false, "list the supported problems")
	fl.BoolVar(&opts.Version, "version", false, "print the version and authors, as a run without arguments does")
	fl.DurationVar(&opts.Timeout, "timeout", 0, "give up after this `duration` (reading included), e.g. 30s; 0 = no limit")
	return cmd
}

// Run solves the problem o names and prints the answer in the ICCMA
// output conventions. Bad input is a *UsageError.
func Run(ctx context.Context, ios *iostreams.IOStreams, o *Options) error {
	switch {
	case *o == Options{} || o.Version:
		// The ICCMA interface: a solver run without arguments names itself,
		// its version and its authors.
		fmt.Fprintf(ios.Out, "%s: the argumentation solver (ICCMA 2023 solver interface)\nThe Parley authors (--help for usage)\n", version.String())
		return nil
	case o.Formats:
		fmt.Fprintf(ios.Out, "[%s]\n", strings.Join(iccma.Formats(), ","))
		return nil
	case o.Problems:
		fmt.Fprintf(ios.Out, "[%s]\n", strings.Join(iccma.Problems(), ","))
		return nil
	case o.Problem == "":
		return usageErrorf("-p PROBLEM is required (--problems lists them)")
	case o.File == "":
		return usageErrorf("-f FILE is required")
	}
	if o.Timeout < 0 {
		return usageErrorf("--timeout %s: give a positive duration such as 30s, or 0 for none", o.Timeout)
	}
	if o.Timeout > 0 {
		var cancel context.CancelFunc
		ctx, cancel = context.WithTimeout(ctx, o.Timeout)
		defer cancel()
	}
	err := iccma.Run(ctx, iccma.Options{Problem: o.Problem, File: o.File, Format: o.Format, Arg: o.Arg, Input: ios.In}, ios.Out)
	switch {
	case err == nil:
		return nil
	case errors.Is(err, context.DeadlineExceeded):
		return fmt.Errorf("no answer within %s (--timeout): the problem is too hard to decide in that time; nothing was printed: %w", o.Timeout, err)
	case errors.Is(err, argue.ErrCutOff), errors.Is(err, context.Canceled):
		return fmt.Errorf("stopped before an answer; nothing was printed: %w", err)
	}
	return &UsageError{Err: err}
}

// Args rewrites the ICCMA interface's "-fo FORMAT", a single-dash flag of
// two letters that the flag parser would read as -f o, to --fo. args are
// the solver's own (after "af" under parley).
func Args(args []string) []string {
	out := slices.Clone(args)
	for i, a := range out {
		if a == "-fo" {
			out[i] = "--fo"
		} else if v, ok := strings.CutPrefix(a, "-fo="); ok {
			out[i] = "--fo=" + v
		}
	}
	return out
}

// Main runs the solver alone, as cmd/parley-af, and returns the exit code.
func Main(ctx context.Context, args []string, ios *iostreams.IOStreams) int {
	cmd := New(ios, "parley-af", "parley-af", nil)
	cmd.SilenceUsage, cmd.SilenceErrors = true, true
	cmd.SetIn(ios.In)
	cmd.SetOut(ios.Out)
	cmd.SetErr(ios.ErrOut)
	cmd.SetFlagErrorFunc(func(c *cobra.Command, err error) error {
		return &UsageError{Err: fmt.Errorf("%w\nRun '%s --help' for usage", err, c.CommandPath())}
	})
	cmd.SetArgs(Args(args))
	err := cmd.ExecuteContext(ctx)
	if err == nil {
		return ExitOK
	}
	fmt.Fprintf(ios.ErrOut, "%s %s\n", ios.Colors().Red("error:"), err)
	var ue *UsageError
	switch {
	case errors.As(err, &ue):
		return ExitUsage
	case errors.Is(err, context.Canceled):
		return ExitInterrupted
	}
	return ExitError
}
