package main

import (
	"bytes"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// build compiles the command into a temporary directory.
func build(t *testing.T) string {
	t.Helper()
	bin := filepath.Join(t.TempDir(), "parley-af")
	if out, err := exec.Command("go", "build", "-o", bin, ".").CombinedOutput(); err != nil {
		t.Fatalf("go build: %v\n%s", err, out)
	}
	return bin
}

// TestSolverAlone: the binary answers as `parley af` does (the ICCMA
// interface, -fo included), and bad input exits 2 naming what is wrong.
func TestSolverAlone(t *testing.T) {
	bin := build(t)
	dir := t.TempDir()
	af := filepath.Join(dir, "chain.af")
	// 1 attacks 2, 2 attacks 3: the grounded extension is {1, 3}.
	if err := os.WriteFile(af, []byte("p af 3\n1 2\n2 3\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	cases := []struct {
		args  []string
		stdin string
		code  int
		out   string // a line the output must hold
		err   string // text standard error must hold
	}{
		{args: []string{"-p", "SE-GR", "-f", af}, out: "w 1 3"},
		{args: []string{"-p", "DC-PR", "-f", af, "-a", "3"}, out: "YES"},
		{args: []string{"-p", "DS-ST", "-f", af, "-a", "2"}, out: "NO"},
		{args: []string{"-p", "SE-GR", "-f", "-", "-fo", "i23"}, stdin: "p af 2\n1 2\n", out: "w 1"},
		{args: []string{"--problems"}, out: "DS-AD"},
		{args: nil, out: "ICCMA 2023 solver interface"}, // the interface's banner
		{args: []string{"--version"}, out: "ICCMA 2023 solver interface"},
		// A path to a pipe: the head that tells the format is peeked, not
		// drained before the framework is read.
		{args: []string{"-p", "SE-GR", "-f", "/dev/stdin"}, stdin: "p af 2\n1 2\n", out: "w 1"},
		{args: []string{"-p", "SE-GR", "-f", "-"}, stdin: "p af 2\n1 2\n", out: "w 1"},
		{args: []string{"-p", "DC-CO", "-f", af, "-a", "3\n"}, out: "YES"},
		{args: []string{"-p", "SE-GR", "-f", dir}, code: 2, err: "is a directory"},
		{args: []string{"-p", "DC-AD", "-f", af, "-a", "3"}, out: "YES"},
		{args: []string{"-p", "XX-PR", "-f", af}, code: 2, err: "unknown problem"},
		{args: []string{"-p", "SE-GR"}, code: 2, err: "-f FILE is required"},
		{args: []string{"-f", af}, code: 2, err: "-p PROBLEM is required"},
		{args: []string{"-p", "DC-CO", "-f", af, "-a", "9"}, code: 2, err: "9"},
		{args: []string{"-p", "SE-GR", "-f", filepath.Join(dir, "missing.af")}, code: 2, err: "missing.af"},
		{args: []string{"--bogus"}, code: 2, err: "unknown flag"},
		// Files as other tools write them: apx facts in any order, tgf
		// labels, CRLF; and ones read in the wrong format say so.
		{args: []string{"-p", "SE-GR", "-f", "-", "-fo", "apx"}, stdin: "att(a,b).\r\n% c\r\narg(a). arg(b).", out: "[a]"},
		{args: []string{"-p", "DC-GR", "-f", "-", "-fo", "tgf", "-a", "2"}, stdin: "1 Alice\r\n2 Bob\r\n#\r\n1 2 rebuts\r\n", out: "NO"},
		{args: []string{"-p", "SE-GR", "-f", "-", "-fo", "tgf"}, stdin: "arg(a).\n", code: 2, err: "pass -fo apx"},
		{args: []string{"-p", "SE-GR", "-f", "-", "-fo", "i23"}, stdin: "\x1f\x8b\x08\x00", code: 2, err: "gzip-compressed"},
		{args: []string{"extra"}, code: 2, err: "takes no arguments"},
		// Text from the command line is quoted cut short in errors, as
		// names from files are (it was repeated whole: 100 kB each).
		{args: []string{"-p", "SE-GR", "-f", af, strings.Repeat("y", 100_000)}, code: 2, err: "… (100000 bytes) (see"},
		{args: []string{"-p", strings.Repeat("y", 100_000), "-f", af}, code: 2, err: "… (100000 bytes) (valid:"},
		{args: []string{"-p", "SE-GR", "-f", af, "-fo", strings.Repeat("y", 100_000)}, code: 2, err: "… (100000 bytes) (valid:"},
		{args: []string{"-p", "DC-CO", "-f", af, "-a", strings.Repeat("y", 100_000)}, code: 2, err: "… (100000 bytes) is not an argument"},
	}
	for _, c := range cases {
		cmd := exec.Command(bin, c.args...)
		cmd.Stdin = strings.NewReader(c.stdin)
		var out, errOut bytes.Buffer
		cmd.Stdout, cmd.Stderr = &out, &errOut
		err := cmd.Run()
		code := 0
		if ee, ok := err.(*exec.ExitError); ok {
			code = ee.ExitCode()
		} else if err != nil {
			t.Fatal(err)
		}
		if code != c.code || !strings.Contains(out.String(), c.out) || !strings.Contains(errOut.String(), c.err) {
			t.Errorf("parley-af %s: exit %d, stdout %q, stderr %q; want exit %d, %q in stdout, %q in stderr",
				strings.Join(c.args, " "), code, out.String(), errOut.String(), c.code, c.out, c.err)
		}
	}
}

// TestLinksOnlyTheSolver: the binary exists to start fast, which it does
// only while it links nothing beyond the solver (every linked package is
// initialised before main): no model SDK, store, server or shell.
func TestLinksOnlyTheSolver(t *testing.T) {
	out, err := exec.Command("go", "list", "-deps", ".").Output()
	if err != nil {
		t.Fatalf("go list: %v", err)
	}
	allowed := []string{
		"github.com/parleyhq/parley/cmd/parley-af",
		"github.com/parleyhq/parley/internal/afcmd",
		"github.com/parleyhq/parley/internal/afrun",
		"github.com/parleyhq/parley/internal/argue",
		"github.com/parleyhq/parley/internal/iostreams",
		// iostreams' notes escape what libraries log (c38fe0e): the
		// standard library only.
		"github.com/parleyhq/parley/internal/textsafe",
		"github.com/parleyhq/parley/internal/version",
		"github.com/spf13/",
		"golang.org/x/sys/",
		"golang.org/x/term",
		"vendor/",
	}
	for _, pkg := range strings.Fields(string(out)) {
		first, _, _ := strings.Cut(pkg, "/")
		if !strings.Contains(first, ".") && !strings.HasPrefix(pkg, "vendor/") {
			continue // the standard library
		}
		ok := false
		for _, a := range allowed {
			ok = ok || strings.HasPrefix(pkg, a)
		}
		if !ok {
			t.Errorf("parley-af links %s: keep internal/afcmd's imports to the solver (see its package comment)", pkg)
		}
	}
}
