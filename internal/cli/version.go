package cli

import (
	"fmt"

	"github.com/spf13/cobra"

	pversion "github.com/parleyhq/parley/internal/version"
)

// version describes this build (see internal/version).
func version() string { return pversion.String() }

func newVersionCmd(f *Factory) *cobra.Command {
	return &cobra.Command{
		Use:   "version",
		Short: "Print Parley's version and the revision it was built from",
		Args:  noArgs,
		RunE: func(cmd *cobra.Command, args []string) error {
			_, err := fmt.Fprintln(f.IO.Out, version())
			return err
		},
	}
}
