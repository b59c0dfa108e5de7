package main_test

import (
	"bytes"
	"context"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/parleyhq/parley/internal/cli"
	"github.com/parleyhq/parley/internal/iostreams"
)

// `parley af` runs before the rest of the binary initialises
// (cmd/parley/internal/afearly): the language-model SDKs, goldmark and
// SQLite are not initialised for it, and it answers exactly as the full
// command line does. Command lines it leaves to the full command line
// (help, the banner, forms package flag reads differently) initialise
// everything, as any other command does.
func TestAFStartsBeforeTheRest(t *testing.T) {
	dir := t.TempDir()
	af := filepath.Join(dir, "f.af")
	if err := os.WriteFile(af, []byte("p af 4\n1 2\n2 1\n3 4\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	heavy := []string{
		"github.com/openai/openai-go/v3",
		"github.com/anthropics/anthropic-sdk-go/v2",
		"github.com/yuin/goldmark/extension",
		"modernc.org/sqlite",
	}
	for _, c := range []struct {
		args  []string
		early bool
	}{
		{[]string{"af", "-p", "SE-GR", "-f", af}, true},
		{[]string{"af", "-p", "DC-PR", "-f", af, "-a", "1"}, true},
		{[]string{"af", "-p", "SE-PR", "-f", af, "-a", "1"}, true}, // the query ignored, with a note
		{[]string{"af", "-p", "EE-ST", "-fo", "i23", "-f", af}, true},
		{[]string{"af", "--problems"}, true},
		{[]string{"af", "-p", "SE-XX", "-f", af}, true},
		{[]string{"af", "-p", "SE-GR", "-f", filepath.Join(dir, "none.af")}, true},
		{[]string{"af", "-p", "SE-GR"}, true},
		{[]string{"af", "--help"}, false},
		{[]string{"af"}, false},
		{[]string{"af", "-pSE-GR", "-f", af}, false},
		{[]string{"af", "-p", "SE-GR", "-f", af, "extra"}, false},
	} {
		// The same answer, error and exit code as the full command line,
		// which runs here in process.
		got := parley(t, dir, nil, "", c.args...)
		ios, _, out, errOut := iostreams.Test()
		code := cli.Main(context.Background(), c.args, ios)
		if got.stdout != out.String() || got.stderr != errOut.String() || got.code != code {
			t.Errorf("parley %q: exit %d, out %q, err %q; the full command line: exit %d, out %q, err %q",
				c.args, got.code, got.stdout, got.stderr, code, out, errOut)
		}
		// What initialised before it answered.
		traced := parley(t, dir, []string{"GODEBUG=inittrace=1"}, "", c.args...)
		inits := map[string]bool{}
		for line := range strings.Lines(traced.stderr) {
			if f := strings.Fields(line); len(f) > 1 && f[0] == "init" {
				inits[f[1]] = true
			}
		}
		for _, p := range heavy {
			if inits[p] == c.early {
				t.Errorf("parley %q: %s initialised: %v, want %v", c.args, p, inits[p], !c.early)
			}
		}
	}
}

// `parley af` stopped by a signal exits with the shell's code for it and a
// line on standard error, whether it ran early or through the full command
// line (-pCE-ST is read by cobra only), as cmd/parley-af's TestSignalStops
// checks in more cases.
func TestAFSignal(t *testing.T) {
	dir := t.TempDir()
	var b strings.Builder
	fmt.Fprintf(&b, "p af %d\n", 140)
	for i := range 70 { // 2^70 stable extensions: CE-ST does not end
		fmt.Fprintf(&b, "%d %d\n%d %d\n", 2*i+1, 2*i+2, 2*i+2, 2*i+1)
	}
	af := filepath.Join(dir, "pairs.af")
	if err := os.WriteFile(af, []byte(b.String()), 0o644); err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		args []string
		sig  syscall.Signal
		code int
	}{
		{[]string{"af", "-p", "CE-ST", "-f", af}, syscall.SIGINT, 130},
		{[]string{"af", "-pCE-ST", "-f", af}, syscall.SIGTERM, 143},
	} {
		ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
		cmd := command(ctx, t, dir, nil, c.args...)
		var out, errOut bytes.Buffer
		cmd.Stdout, cmd.Stderr = &out, &errOut
		if err := cmd.Start(); err != nil {
			t.Fatal(err)
		}
		time.Sleep(time.Second) // the full command line initialises first
		if err := cmd.Process.Signal(c.sig); err != nil {
			t.Fatal(err)
		}
		err := cmd.Wait()
		cancel()
		code := 0
		if ee, ok := err.(*exec.ExitError); ok {
			code = ee.ExitCode()
		}
		if code != c.code || out.Len() != 0 || !strings.Contains(errOut.String(), "interrupted by SIG") {
			t.Errorf("parley %q, %s: exit %d, stdout %q, stderr %q; want exit %d, nothing printed, interrupted on stderr",
				c.args, c.sig, code, out.String(), errOut.String(), c.code)
		}
	}
}
