package cli

import (
	"strings"
	"testing"
)

// TestHelpSaysEachDefaultOnce: a flag whose usage says its default (one
// that depends on the topic, the format or the repository) does not get
// pflag's "(default …)" as well, which named a second, wrong one.
func TestHelpSaysEachDefaultOnce(t *testing.T) {
	for _, args := range [][]string{{"debate", "--help"}, {"batch", "--help"}, {"serve", "--help"}, {"--help"}} {
		f := testFactory(t, "", false)
		root := NewRootCmd(f)
		root.SetArgs(args)
		if err := root.Execute(); err != nil {
			t.Fatal(err)
		}
		out := f.IO.Out.(interface{ String() string }).String()
		for _, l := range strings.Split(out, "\n") {
			if strings.Count(l, "default") > 1 && strings.Contains(l, "(default ") {
				t.Errorf("parley %s: a default said twice: %q", strings.Join(args, " "), strings.TrimSpace(l))
			}
		}
	}
}
