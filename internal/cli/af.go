package cli

import (
	"context"
	"errors"

	"github.com/spf13/cobra"

	"github.com/parleyhq/parley/internal/afcmd"
	"github.com/parleyhq/parley/internal/afrun"
)

// AFOptions are the `parley af` flags (the ICCMA solver interface).
type AFOptions = afrun.Options

// newAFCmd mounts the solver's command (internal/afcmd, also built alone as
// cmd/parley-af); its bad input takes this command line's usage error.
func newAFCmd(f *Factory, run func(context.Context, *AFOptions) error) *cobra.Command {
	if run == nil {
		run = func(ctx context.Context, o *AFOptions) error {
			err := afcmd.Run(ctx, f.IO, o)
			if ue := (*afrun.UsageError)(nil); errors.As(err, &ue) {
				return &UsageError{Err: ue.Err}
			}
			return err
		}
	}
	return afcmd.New(f.IO, "af", "parley af", run)
}
