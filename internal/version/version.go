// Package version says which build of Parley is running, for `parley
// version` and the solver's ICCMA banner alike.
package version

import (
	"fmt"
	"runtime/debug"
)

// String describes this build: the module version and the VCS revision the
// Go toolchain recorded, "(devel)" and "unknown" when it recorded none
// (go run, or a build with -buildvcs=false).
func String() string {
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
