package cli

import (
	"context"
	"fmt"
	"strings"

	"github.com/spf13/cobra"

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
		Args:    cobra.NoArgs,
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
	in := f.IO.In
	if err := iccma.Run(ctx, iccma.Options{Problem: o.Problem, File: o.File, Format: o.Format, Arg: o.Arg, Input: in}, f.IO.Out); err != nil {
		return &UsageError{Err: err}
	}
	return nil
}
