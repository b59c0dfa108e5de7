// Package afcmd is the command line of Parley's argumentation solver, the
// cobra command for internal/afrun: `parley af` mounts it in the full
// command tree, and cmd/parley-af runs it alone.
//
// It lives apart from internal/cli because a Go process initialises every
// package linked into it before main runs: the full binary pays that for
// the language-model SDKs, the stores, the server and the shell on every
// command (about 5 ms and a thousand page faults here, docs/benchmarks.md),
// which decides the run time of any framework solved in a few milliseconds.
// cmd/parley-af links only this package, cobra and the solver, so that
// competition tooling pays only for what it uses. Keep its imports that
// way. (cmd/parley itself runs `parley af` through afrun.Early, before
// that initialisation.)
package afcmd

import (
	"context"
	"fmt"
	"strings"

	"github.com/spf13/cobra"

	"github.com/parleyhq/parley/internal/afrun"
	"github.com/parleyhq/parley/internal/argue"
	"github.com/parleyhq/parley/internal/argue/iccma"
	"github.com/parleyhq/parley/internal/iostreams"
	"github.com/parleyhq/parley/internal/version"
)

// New builds the command; use is its name ("af" under parley, "parley-af"
// alone) and typed how a user types it in the examples ("parley af"). run
// replaces Run in tests; nil runs the solver.
func New(ios *iostreams.IOStreams, use, typed string, run func(context.Context, *afrun.Options) error) *cobra.Command {
	opts := &afrun.Options{}
	cmd := &cobra.Command{
		Use:   use + " -p PROBLEM -f FILE [-fo FORMAT] [-a ARG]",
		Short: "Solve an argumentation framework (ICCMA solver interface)",
		Long: `Solve reasoning problems on abstract argumentation frameworks, following the ICCMA solver
interface: PROBLEM is TASK-SEMANTICS (tasks SE, EE, DC, DS, CE; semantics CO, GR, PR, ST, SST, STG, ID, AD).
Files are ASPARTIX (.apx), trivial graph format (.tgf) or the ICCMA 2023 numeric format (.af/.i23).
Answers follow the conventions of the format: for i23 those of ICCMA 2023 (an
extension is a line "w 1 3 5"; DC YES and DS NO are followed by one as the certificate, an extension
that contains the query argument or lacks it), for apx and tgf those of ICCMA 2019 ([a1,a3], and
YES or NO alone).`,
		Example: fmt.Sprintf("  %[1]s -p SE-GR -f framework.af\n  %[1]s -p DC-PR -f framework.apx -a a3\n  %[1]s --problems", typed),
		Args: func(cmd *cobra.Command, args []string) error {
			if len(args) > 0 {
				return afrun.UsageErrorf("%s takes no arguments, got %s (see '%s --help')", cmd.CommandPath(), argue.Quote(strings.Join(args, " ")), cmd.CommandPath())
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

// Run prints the solver's banner if o asks for it, and otherwise solves the
// problem o names (afrun.Run).
func Run(ctx context.Context, ios *iostreams.IOStreams, o *afrun.Options) error {
	if o.Banner() {
		// The ICCMA interface: a solver run without arguments names itself,
		// its version and its authors.
		if _, err := fmt.Fprintf(ios.Out, "%s: the argumentation solver (ICCMA 2023 solver interface)\nThe Parley authors (--help for usage)\n", version.String()); err != nil {
			return fmt.Errorf("write the banner: %w", err)
		}
		return nil
	}
	return afrun.Run(ctx, ios, o)
}

// Main runs the solver alone, as cmd/parley-af, and returns the exit code.
func Main(ctx context.Context, args []string, ios *iostreams.IOStreams) int {
	cmd := New(ios, "parley-af", "parley-af", nil)
	cmd.SilenceUsage, cmd.SilenceErrors = true, true
	cmd.SetIn(ios.In)
	cmd.SetOut(ios.Out)
	cmd.SetErr(ios.ErrOut)
	cmd.SetFlagErrorFunc(func(c *cobra.Command, err error) error {
		return &afrun.UsageError{Err: fmt.Errorf("%w\nRun '%s --help' for usage", err, c.CommandPath())}
	})
	cmd.SetArgs(afrun.Args(args))
	return afrun.Exit(ios, cmd.ExecuteContext(ctx))
}
