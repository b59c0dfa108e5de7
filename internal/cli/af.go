package cli

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"time"

	"github.com/spf13/cobra"

	"github.com/parleyhq/parley/internal/argue"
	"github.com/parleyhq/parley/internal/argue/iccma"
)

// AFOptions are the `parley af` flags, which follow the ICCMA solver
// interface so that competition tooling can run Parley's solver.
type AFOptions struct {
	Problem  string
	File     string
	Format   string
	Arg      string
	Formats  bool
	Problems bool
	// Timeout bounds the whole run, reading included (0: none).
	Timeout time.Duration
}

func newAFCmd(f *Factory, run func(context.Context, *AFOptions) error) *cobra.Command {
	opts := &AFOptions{}
	cmd := &cobra.Command{
		Use:   "af -p PROBLEM -f FILE [-fo FORMAT] [-a ARG]",
		Short: "Solve an argumentation framework (ICCMA solver interface)",
		Long: `Solve reasoning problems on abstract argumentation frameworks, following the ICCMA solver
interface: PROBLEM is TASK-SEMANTICS (tasks SE, EE, DC, DS, CE; semantics CO, GR, PR, ST, SST, STG, ID).
Files are ASPARTIX (.apx), trivial graph format (.tgf) or the ICCMA 2023 numeric format (.af/.i23).`,
		Example: "  parley af -p SE-GR -f framework.af\n  parley af -p DC-PR -f framework.apx -a a3\n  parley af --problems",
		Args:    noArgs,
		RunE: func(cmd *cobra.Command, args []string) error {
			if run != nil {
				return run(cmd.Context(), opts)
			}
			return runAF(cmd.Context(), f, opts)
		},
	}
	fl := cmd.Flags()
	fl.StringVarP(&opts.Problem, "problem", "p", "", "the `problem`, e.g. SE-PR or DC-ST")
	fl.StringVarP(&opts.File, "file", "f", "", "the framework `file` (- for standard input)")
	fl.StringVar(&opts.Format, "fo", "", "the file `format`: "+strings.Join(iccma.Formats(), ", ")+" (default: from the file name)")
	fl.StringVarP(&opts.Arg, "arg", "a", "", "the query `argument` for DC and DS problems")
	fl.BoolVar(&opts.Formats, "formats", false, "list the supported file formats")
	fl.BoolVar(&opts.Problems, "problems", false, "list the supported problems")
	fl.DurationVar(&opts.Timeout, "timeout", 0, "give up after this `duration` (reading included), e.g. 30s; 0 = no limit")
	return cmd
}

func runAF(ctx context.Context, f *Factory, o *AFOptions) error {
	switch {
	case o.Formats:
		fmt.Fprintf(f.IO.Out, "[%s]\n", strings.Join(iccma.Formats(), ","))
		return nil
	case o.Problems:
		fmt.Fprintf(f.IO.Out, "[%s]\n", strings.Join(iccma.Problems(), ","))
		return nil
	case o.Problem == "":
		return usageErrorf("-p PROBLEM is required (parley af --problems lists them)")
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
	in := f.IO.In
	err := iccma.Run(ctx, iccma.Options{Problem: o.Problem, File: o.File, Format: o.Format, Arg: o.Arg, Input: in}, f.IO.Out)
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
