package afrun_test

import (
	"context"
	"math/rand/v2"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/parleyhq/parley/internal/afcmd"
	"github.com/parleyhq/parley/internal/afrun"
	"github.com/parleyhq/parley/internal/iostreams"
)

// cobraReads is how the full command line reads `parley af ARGS`: the
// options its command runs with, or ok false if it refuses them.
func cobraReads(args []string) (afrun.Options, bool) {
	ios, _, _, _ := iostreams.Test()
	var got *afrun.Options
	cmd := afcmd.New(ios, "af", "parley af", func(_ context.Context, o *afrun.Options) error {
		got = o
		return nil
	})
	cmd.SilenceErrors, cmd.SilenceUsage = true, true
	cmd.SetOut(ios.Out)
	cmd.SetErr(ios.ErrOut)
	cmd.SetArgs(afrun.Args(args))
	if err := cmd.Execute(); err != nil || got == nil {
		return afrun.Options{}, false
	}
	return *got, true
}

// Every command line Early takes, cobra reads the same way: Early must
// never run what the full command line would have read differently. Its
// command lines are made of the flags in every spelling, values, flag-like
// values and forms the two parsers read differently (-problem, --p,
// -pSE-PR), in random orders.
func TestEarlyReadsAsCobraDoes(t *testing.T) {
	tokens := []string{
		"-p", "--problem", "-p=SE-PR", "--problem=DC-CO", "-pSE-PR", "-problem", "--p",
		"-f", "--file", "-f=x.af", "--file=y.apx", "-file",
		"-fo", "--fo", "-fo=apx", "--fo=tgf",
		"-a", "--arg", "-a=3", "--a", "-arg",
		"--formats", "--problems", "--version", "--formats=false", "--problems=true", "-formats",
		"--timeout", "--timeout=1s", "-timeout", "--timeout=-2s",
		"-h", "--help", "--db", "-v",
		"SE-PR", "DC-ST", "x.af", "-", "--", "1s", "5", "-1", "-x1", "a b",
	}
	rng := rand.New(rand.NewPCG(13, 1))
	var taken, checked int
	for range 20000 {
		args := make([]string, rng.IntN(7))
		for i := range args {
			args[i] = tokens[rng.IntN(len(tokens))]
		}
		early, ok := afrun.Parse(afrun.Args(args))
		if !ok {
			continue
		}
		taken++
		full, fullOK := cobraReads(args)
		if !fullOK {
			t.Errorf("Early takes %q, the full command line refuses it", args)
			continue
		}
		if diff := cmp.Diff(full, early); diff != "" {
			t.Errorf("%q read differently (-cobra +early):\n%s", args, diff)
		}
		checked++
	}
	// The test means something only if Early takes a good share.
	if taken < 1000 {
		t.Fatalf("Early took only %d of the command lines", taken)
	}
	t.Logf("Early took and cobra read alike %d command lines", checked)
}

// The command lines a user or ICCMA tooling types are taken early; help,
// the banner and anything the two parsers could read differently are left
// to the full command line.
func TestEarlyTakes(t *testing.T) {
	for _, c := range []struct {
		args []string
		want bool
	}{
		{[]string{"-p", "SE-PR", "-f", "x.af"}, true},
		{[]string{"-p", "DC-CO", "-f", "x.apx", "-fo", "apx", "-a", "a1"}, true},
		{[]string{"-p", "DS-ST", "-f", "-", "-fo=i23", "-a", "3", "--timeout", "30s"}, true},
		{[]string{"--problem=SE-GR", "--file", "x.tgf"}, true},
		{[]string{"--problems"}, true},
		{[]string{"--formats"}, true},
		{[]string{}, false},                     // the banner names the build: afcmd prints it
		{[]string{"--version"}, false},          // the same
		{[]string{"--help"}, false},             // help lists the full command line's global flags
		{[]string{"-h"}, false},                 //
		{[]string{"-pSE-PR", "-f", "x"}, false}, // package flag cannot read it
		{[]string{"-problem", "SE-PR"}, true},   // Args makes it --problem (pflag would read -p roblem)
		{[]string{"--db", "x.db", "-p", "SE-PR"}, false},
		{[]string{"-p", "SE-PR", "x.af"}, false}, // an argument: the full command line says why not
	} {
		if _, got := afrun.Parse(afrun.Args(c.args)); got != c.want {
			t.Errorf("Early takes %q: %v, want %v", c.args, got, c.want)
		}
	}
	if _, ok := afrun.Early(context.Background(), []string{"debate", "x"}, nil); ok {
		t.Error("Early took a debate")
	}
}

// Args writes the solver's long flags typed after one dash with two, and
// leaves values alone, even those that look like flags.
func TestArgs(t *testing.T) {
	for _, c := range []struct{ in, want []string }{
		{[]string{"-problem", "SE-PR", "-file", "x.af"}, []string{"--problem", "SE-PR", "--file", "x.af"}},
		{[]string{"-fo", "apx", "-fo=tgf", "-arg=a1", "-formats"}, []string{"--fo", "apx", "--fo=tgf", "--arg=a1", "--formats"}},
		{[]string{"-a", "-fo", "-f", "-file"}, []string{"-a", "-fo", "-f", "-file"}},
		{[]string{"--arg", "-problem", "-p", "-file"}, []string{"--arg", "-problem", "-p", "-file"}},
		{[]string{"-timeout", "1s", "-help", "-x", "-pSE-PR"}, []string{"--timeout", "1s", "--help", "-x", "-pSE-PR"}},
		{[]string{"--", "-problem"}, []string{"--", "-problem"}},
	} {
		if got := afrun.Args(c.in); !slices.Equal(got, c.want) {
			t.Errorf("Args(%q) = %q, want %q", c.in, got, c.want)
		}
	}
}

// Early answers and fails as the full command line does: the answer on
// standard output, "error: ..." and the exit code of bad input or no answer.
func TestEarlyRuns(t *testing.T) {
	dir := t.TempDir()
	af := filepath.Join(dir, "f.af")
	if err := os.WriteFile(af, []byte("p af 3\n1 2\n2 3\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		args       []string
		code       int
		out, error string
	}{
		{[]string{"af", "-p", "SE-GR", "-f", af}, 0, "w 1 3\n", ""},
		{[]string{"af", "-p", "DC-PR", "-f", af, "-a", "2"}, 0, "NO\n", ""},
		{[]string{"af", "-p", "SE-XX", "-f", af}, 2, "", "error: "},
		{[]string{"af", "-p", "SE-GR", "-f", filepath.Join(dir, "none.af")}, 2, "", "error: "},
		{[]string{"af", "-f", af}, 2, "", "error: -p PROBLEM is required"},
		// A query given with a task that takes none is ignored, as μ-toksia
		// ignores it, and said so: harnesses may pass it with every task.
		{[]string{"af", "-p", "SE-GR", "-f", af, "-a", "2"}, 0, "w 1 3\n", "note: SE-GR takes no query argument; -a \"2\" is ignored\n"},
		// An unknown problem is the error, with no note before it that
		// reads as if the problem were known to take no query.
		{[]string{"af", "-p", "DC-XX", "-f", af, "-a", "2"}, 2, "", "error: iccma: unknown problem \"DC-XX\""},
	} {
		ios, _, out, errOut := iostreams.Test()
		code, ok := afrun.Early(context.Background(), c.args, ios)
		if !ok || code != c.code || out.String() != c.out || !strings.HasPrefix(errOut.String(), c.error) || strings.HasPrefix(c.error, "note:") && errOut.String() != c.error || (c.error == "") != (errOut.Len() == 0) {
			t.Errorf("%q: ok %v, exit %d, out %q, err %q; want exit %d, out %q, err %q…", c.args, ok, code, out, errOut, c.code, c.out, c.error)
		}
	}
}

// Argument names are the file's bytes. On a terminal their escape
// sequences are shown, not acted on; a pipe gets them byte for byte, as
// ICCMA tooling compares them with the file's. Errors, which quote the
// file, its name and the flags, never carry a control character.
func TestHostileNames(t *testing.T) {
	dir := t.TempDir()
	// A name that clears the screen, one that retitles the window, one
	// that writes the clipboard (OSC 52), one with the 8-bit CSI (U+009B)
	// and one that reverses the text after it.
	names := []string{"a\x1b[2J", "b\x1b]0;pwned\a", "c\x1b]52;c;ZXZpbA==\x1b\\", "d\u009b31m", "e\u202eevil"}
	var src strings.Builder
	for _, n := range names {
		src.WriteString("arg(" + n + ").\n")
	}
	hostile := filepath.Join(dir, "h\x1b[2J.apx")
	if err := os.WriteFile(hostile, []byte(src.String()), 0o644); err != nil {
		t.Fatal(err)
	}
	leaks := func(s string) bool {
		return strings.ContainsFunc(s, func(r rune) bool {
			return r < 0x20 && r != '\n' || r >= 0x7f && r <= 0x9f || r == 0x202e
		})
	}
	run := func(terminal bool, args ...string) (string, string) {
		ios, _, out, errOut := iostreams.Test()
		ios.SetTerminal(terminal, false, false)
		afrun.Early(context.Background(), append([]string{"af"}, args...), ios)
		return out.String(), errOut.String()
	}

	out, errOut := run(true, "-p", "SE-GR", "-f", hostile)
	if leaks(out) || errOut != "" {
		t.Errorf("on a terminal: out %q, err %q: want the names' controls shown", out, errOut)
	}
	if want := "[a␛[2J,b␛]0;pwned␇,c␛]52;c;ZXZpbA==␛\\,d⟨U+009B⟩31m,e⟨U+202E⟩evil]\n"; out != want {
		t.Errorf("on a terminal: out %q, want %q", out, want)
	}
	out, _ = run(false, "-p", "SE-GR", "-f", hostile)
	if want := "[" + strings.Join(names, ",") + "]\n"; out != want {
		t.Errorf("to a pipe: out %q, want the names as the file has them, %q", out, want)
	}

	for _, args := range [][]string{
		{"-p", "DC-GR", "-f", hostile, "-a", "x\x1b[2J"},          // an unknown query, the hint quoting a name
		{"-p", "SE-GR", "-f", filepath.Join(dir, "no\x1b[2J.af")}, // a missing file
		{"-p", "SE-GR", "-f", hostile, "-fo", "\x1b]0;x\a"},       // an unknown format
		{"-p", "\x1b[2J", "-f", hostile, "-a", "x"},               // an unknown problem, with the note on the query
		{"-p", "SE-GR", "-f", filepath.Join(dir, "\x1b[2J")},      // no format to tell
	} {
		_, errOut := run(false, args...)
		if errOut == "" || leaks(errOut) {
			t.Errorf("%q: err %q: want an error with no control character", args, errOut)
		}
	}
	// A file whose name holds an escape, its contents bad.
	bad := filepath.Join(dir, "bad\x1b]0;x\a.apx")
	if err := os.WriteFile(bad, []byte("arg(a).\natt(a,\x1b[31mz).\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	if _, errOut := run(false, "-p", "SE-GR", "-f", bad); errOut == "" || leaks(errOut) {
		t.Errorf("bad file: err %q: want an error with no control character", errOut)
	}
}
