package cli

import (
	"context"
	"path/filepath"
	"strings"
	"testing"

	"github.com/spf13/cobra"

	"github.com/parleyhq/parley/internal/iostreams"
	"github.com/parleyhq/parley/internal/store/sqlite"
)

// TestHelpSaysEachDefaultOnce: in every command's help, a flag whose usage
// says its default (one that depends on the topic, the format, the file
// name or the repository) does not get pflag's "(default …)" as well,
// which named a second, wrong one.
func TestHelpSaysEachDefaultOnce(t *testing.T) {
	var all [][]string
	var walk func(c *cobra.Command, path []string)
	walk = func(c *cobra.Command, path []string) {
		all = append(all, append(append([]string(nil), path...), "--help"))
		for _, sub := range c.Commands() {
			walk(sub, append(path, sub.Name()))
		}
	}
	walk(NewRootCmd(testFactory(t, "", false)), nil)
	for _, args := range all {
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

// TestErrorLineIsInert: an error that quotes what came from outside (here
// an id typed with a terminal title sequence in it) reaches the terminal
// with its control characters made visible.
func TestErrorLineIsInert(t *testing.T) {
	ios, _, _, errOut := iostreams.Test()
	db := filepath.Join(t.TempDir(), "parley.db")
	st, err := sqlite.Open(context.Background(), db)
	if err != nil {
		t.Fatal(err)
	}
	st.Close()
	t.Setenv("PARLEY_DB", db)
	if code := Main(context.Background(), []string{"show", "DEB-\x1b]0;pwned\x07"}, ios); code != ExitUsage {
		t.Errorf("exit %d, want %d", code, ExitUsage)
	}
	if s := errOut.String(); strings.ContainsAny(s, "\x1b\x07") || !strings.Contains(s, "no debate") {
		t.Errorf("error line %q", s)
	}
}

// TestShellFlagGivenToACommand: --pace and --theme, which 'parley --help'
// lists, are the shell's; given to another command they are refused with
// whose they are, not as flags unknown to Parley.
func TestShellFlagGivenToACommand(t *testing.T) {
	for _, args := range [][]string{{"--pace", "0", "debate", "NVDA", "--offline"}, {"list", "--theme", "light"}} {
		ios, _, _, errOut := iostreams.Test()
		if code := Main(context.Background(), args, ios); code != ExitUsage {
			t.Errorf("%v: exit %d, want %d", args, code, ExitUsage)
		}
		if s := errOut.String(); !strings.Contains(s, "is the interactive shell's") || !strings.Contains(s, "parley shell --") {
			t.Errorf("%v: %q", args, s)
		}
	}
}

// TestUnknownFlagSuggests: a mistyped flag suggests the command's flags it
// was probably meant to be, its own and those it inherits (--db), and a
// flag near none is refused as before; bad input, exit 2, either way.
func TestUnknownFlagSuggests(t *testing.T) {
	for _, c := range []struct {
		args []string
		want string // "" when no flag is near
	}{
		{[]string{"debate", "NVDA", "--modle", "x"}, "\t--model\n"},
		{[]string{"debate", "NVDA", "--no-checkpoint"}, "\t--no-checkpoints\n"},
		{[]string{"debate", "NVDA", "--max-round=3"}, "\t--max-rounds\n"},
		{[]string{"list", "--bd", "x.db"}, "\t--db\n"},
		{[]string{"show", "DEB-1", "--zzzz"}, ""},
	} {
		ios, _, _, errOut := iostreams.Test()
		if code := Main(context.Background(), c.args, ios); code != ExitUsage {
			t.Errorf("%v: exit %d, want %d", c.args, code, ExitUsage)
		}
		s := errOut.String()
		if !strings.Contains(s, "unknown flag") || !strings.Contains(s, "--help' for usage") {
			t.Errorf("%v: %q", c.args, s)
		}
		if got := strings.Contains(s, "Did you mean"); got != (c.want != "") || !strings.Contains(s, c.want) {
			t.Errorf("%v: %q, want the suggestion %q", c.args, s, c.want)
		}
	}
}

// TestUnknownCommandSuggests: a mistyped command suggests the commands it
// was probably meant to be (a swap of two letters is one edit, and help is
// one of them), and a word near none says how to debate it; bad input, exit
// 2, either way.
func TestUnknownCommandSuggests(t *testing.T) {
	for _, c := range []struct {
		typed     string
		want, not []string
	}{
		{"hepl", []string{"Did you mean this?\n\thelp"}, []string{"shell"}},
		{"lsit", []string{"\tlist"}, []string{"limits"}},
		{"de", []string{"\tdebate", "\tdelete"}, []string{"\taf"}},
		{"Shwo", []string{"\tshow"}, nil},
		{"Should we use Redis?", []string{`parley debate "Should we use Redis?"`, "'parley --help' lists the commands"}, []string{"Did you mean"}},
		{"xx", []string{"parley debate \"xx\""}, []string{"Did you mean"}},
	} {
		ios, _, _, errOut := iostreams.Test()
		if code := Main(context.Background(), []string{c.typed}, ios); code != ExitUsage {
			t.Errorf("parley %s: exit %d, want %d", c.typed, code, ExitUsage)
		}
		s := errOut.String()
		for _, w := range c.want {
			if !strings.Contains(s, w) {
				t.Errorf("parley %s: %q lacks %q", c.typed, s, w)
			}
		}
		for _, n := range c.not {
			if strings.Contains(s, n) {
				t.Errorf("parley %s: %q has %q", c.typed, s, n)
			}
		}
	}
}

// TestBlankPathFlags: a blank --db (as '--db "$DB"' with DB unset gives
// it) is refused, not read as the default database, the user's own, for a
// command meant for another; so is a blank --out-dir, and a blank value of
// a format's string option.
func TestBlankPathFlags(t *testing.T) {
	for _, args := range [][]string{{"--db", "", "list"}, {"list", "--db", " "}, {"delete", "DEB-00000001", "--yes", "--db", ""},
		{"debate", "NVDA", "--offline", "--out-dir", ""}, {"debate", "Redis?", "--decisions-dir", ""},
		// A format's string options (from the registry) alike: --framework ""
		// ran the debate as if it were not given.
		{"debate", "NVDA", "--offline", "--framework", ""}, {"debate", "Acme", "--format", "council", "--risk", " "},
		{"batch", "NVDA", "--offline", "--framework", ""}} {
		ios, _, _, errOut := iostreams.Test()
		if code := Main(context.Background(), args, ios); code != ExitUsage || !strings.Contains(errOut.String(), "is blank: give its value") {
			t.Errorf("%q: exit %d, want %d and the blank value refused:\n%s", args, code, ExitUsage, errOut)
		}
	}
}
