package cli

import (
	"context"
	"encoding/json"
	"errors"
	"io/fs"
	"os"
	"strings"
	"testing"

	"github.com/parleyhq/parley/internal/jobs"
)

func TestLimitsSetAndShow(t *testing.T) {
	f := testFactory(t, "", false)
	db := f.DBPath // the root command's --db flag resets f.DBPath
	run := func(args ...string) (string, error) {
		out := f.IO.Out.(interface {
			String() string
			Reset()
		})
		out.Reset()
		root := NewRootCmd(f)
		root.SetArgs(append(args, "--db", db))
		err := root.ExecuteContext(context.Background())
		return out.String(), err
	}
	if out, err := run("limits"); err != nil || !strings.Contains(out, "No limits: there is no Parley database at "+db+" yet") {
		t.Fatalf("limits with no database: %v\n%s", err, out)
	}
	if out, err := run("limits", "--json"); err != nil || strings.TrimSpace(out) != "[]" {
		t.Fatalf("limits --json with no database: %v\n%s", err, out)
	}
	// Reading the limits created nothing.
	if _, err := os.Stat(db); !errors.Is(err, fs.ErrNotExist) {
		t.Fatalf("parley limits created the database: %v", err)
	}
	// Provider names are the same in any case, as for --provider.
	if _, err := run("limits", "set", "OpenAI", "--concurrency", "3"); err != nil {
		t.Fatal(err)
	}
	if out, err := run("limits"); err != nil || !strings.Contains(out, "openai") || strings.Contains(out, "OpenAI") {
		t.Fatalf("limits after one set: %v\n%s", err, out)
	}
	if _, err := run("limits", "set", "openai", "--tokens-per-minute", "5000"); err != nil {
		t.Fatal(err)
	}
	out, err := run("limits", "--json")
	if err != nil {
		t.Fatal(err)
	}
	var lims []jobs.Limit
	if err := json.Unmarshal([]byte(out), &lims); err != nil || len(lims) != 1 || lims[0].Concurrency != 3 || lims[0].TokensPerMinute != 5000 {
		t.Fatalf("limits after two sets (each keeps the other's value): %v %s", err, out)
	}
	if _, err := run("limits", "set", "gemini", "--concurrency", "1"); err == nil || !strings.Contains(err.Error(), `no provider "gemini": the providers are anthropic, openai, ollama`) {
		t.Errorf("limits set for an unknown provider: %v, want it to list the providers", err)
	}
	// No provider, or two, is bad input that names the providers; a
	// subcommand mistyped is suggested.
	for _, args := range [][]string{{"limits", "set", "--concurrency", "1"}, {"limits", "set", "openai", "anthropic", "--concurrency", "1"}} {
		if _, err := run(args...); ExitCode(err) != ExitUsage || !strings.Contains(err.Error(), "takes one provider, anthropic, openai, ollama") {
			t.Errorf("%v: %v (exit %d), want a usage error naming the providers", args, err, ExitCode(err))
		}
	}
	if _, err := run("limits", "sett", "openai"); ExitCode(err) != ExitUsage || !strings.Contains(err.Error(), "Did you mean this?\n\tset") {
		t.Errorf("limits sett: %v, want set suggested", err)
	}
	for _, bad := range [][]string{{"limits", "set", "gemini", "--concurrency", "1"}, {"limits", "set", "openai"}, {"limits", "set", "openai", "--concurrency", "-1"}, {"limits", "bogus"}} {
		if _, err := run(bad...); ExitCode(err) != ExitUsage {
			t.Errorf("%v: %v, want a usage error", bad, err)
		}
	}
}

// TestLimitsSetSays: what 'limits set' says reads as English whatever is
// set: a limit cleared to 0 is "no limit", not "at most unlimited calls".
func TestLimitsSetSays(t *testing.T) {
	f := testFactory(t, "", false)
	db := f.DBPath
	errOut := f.IO.ErrOut.(interface {
		String() string
		Reset()
	})
	for _, c := range []struct {
		args []string
		want string
	}{
		{[]string{"--concurrency", "2"}, "openai: at most 2 calls at once, no limit on tokens a minute"},
		{[]string{"--tokens-per-minute", "400000"}, "openai: at most 2 calls at once, at most 400000 tokens a minute"},
		{[]string{"--concurrency", "0", "--tokens-per-minute", "0"}, "openai: no limit on calls at once, no limit on tokens a minute"},
	} {
		errOut.Reset()
		root := NewRootCmd(f)
		root.SetArgs(append(append([]string{"limits", "set", "openai"}, c.args...), "--db", db))
		if err := root.ExecuteContext(context.Background()); err != nil {
			t.Fatal(err)
		}
		if got := errOut.String(); !strings.HasPrefix(got, c.want) || strings.Contains(got, "unlimited") {
			t.Errorf("limits set openai %v says:\n%s\nwant %q", c.args, got, c.want)
		}
	}
}

// TestNoDatabaseIsNoDebate: a command on a debate (a resume, a follow-up
// question, a delete) with no database yet says there is no such debate,
// naming where the database would be, and creates none to say so.
func TestNoDatabaseIsNoDebate(t *testing.T) {
	for _, args := range [][]string{{"debate", "--resume", "DEB-00000001"}, {"ask", "DEB-00000001", "--agent", "bull", "Why?"}, {"delete", "DEB-00000001", "--yes"}} {
		f := testFactory(t, "", false)
		db := f.DBPath
		root := NewRootCmd(f)
		root.SetArgs(append(args, "--db", db))
		err := root.ExecuteContext(context.Background())
		if ExitCode(err) != ExitUsage || !strings.Contains(err.Error(), "no debate DEB-00000001: there is no Parley database at "+db+" yet") {
			t.Errorf("%v with no database: %v, want a usage error saying there is none", args, err)
		}
		if _, err := os.Stat(db); !errors.Is(err, fs.ErrNotExist) {
			t.Errorf("%v created the database: %v", args, err)
		}
	}
}
