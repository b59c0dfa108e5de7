package main_test

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

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
