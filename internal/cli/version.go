package cli

import (
	"fmt"
	"runtime/debug"

	"github.com/spf13/cobra"
)

// version describes this build: the module version and the VCS revision the
// Go toolchain recorded, "(devel)" and "unknown" when it recorded none
// (go run, or a build with -buildvcs=false).
func version() string {
	v, rev, dirty, at := "(devel)", "unknown", false, ""
	if bi, ok := debug.ReadBuildInfo(); ok {
		if bi.Main.Version != "" {
			v = bi.Main.Version
		}
		for _, s := range bi.Settings {
			switch s.Key {
			case "vcs.revision":
				rev = s.Value
				if len(rev) > 12 {
					rev = rev[:12]
				}
			case "vcs.modified":
				dirty = s.Value == "true"
			case "vcs.time":
				at = s.Value
			}
		}
	}
	out := fmt.Sprintf("parley %s (revision %s", v, rev)
	if dirty {
		out += ", modified"
	}
	if at != "" {
		out += ", " + at
	}
	return out + ")"
}

func newVersionCmd(f *Factory) *cobra.Command {
	return &cobra.Command{
		Use:   "version",
		Short: "Print Parley's version and the revision it was built from",
		Args:  noArgs,
		RunE: func(cmd *cobra.Command, args []string) error {
			fmt.Fprintln(f.IO.Out, version())
			return nil
		},
	}
}
