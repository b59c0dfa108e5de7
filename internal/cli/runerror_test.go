package cli

import (
	"context"
	"errors"
	"fmt"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/parleyhq/parley/internal/debate"
	"github.com/parleyhq/parley/internal/iostreams"
	"github.com/parleyhq/parley/internal/llm"
)

// TestRunErrorSaysTheCauseOnce: a debate paused by a refused request or key
// ends with a line saying what to fix; on a terminal, where the pause and
// the provider's answer were just printed, that line does not repeat them,
// and piped (stderr read alone) it does. Either way the error is a
// configuration error.
func TestRunErrorSaysTheCauseOnce(t *testing.T) {
	answer := "registry.ollama.ai/library/gemma does not support tools"
	for _, kind := range []llm.ErrorKind{llm.ErrBadRequest, llm.ErrAuth} {
		cause := &llm.Error{Provider: "ollama", Kind: kind, Err: errors.New(answer)}
		paused := &debate.PausedError{Reason: "error", Detail: "turn research/bull: " + cause.Error(), Err: cause}
		for _, shown := range []bool{true, false} {
			err := describeRunError(nil, "DEB-1", fmt.Errorf("run: %w", paused), shown, nil)
			var ce *ConfigError
			if !errors.As(err, &ce) || ExitCode(err) != ExitConfig {
				t.Errorf("%s, shown %v: %T %v, want a configuration error", kind, shown, err, err)
			}
			if !strings.Contains(err.Error(), "parley debate --resume DEB-1") {
				t.Errorf("%s, shown %v: no resume line: %v", kind, shown, err)
			}
			if got := strings.Contains(err.Error(), answer); got == shown {
				t.Errorf("%s, shown %v: the provider's answer in the closing line: %v, want %v:\n%v", kind, shown, got, !shown, err)
			}
		}
	}
}

// TestRunErrorOnABudget: a debate paused on its budget ends with the resume
// that goes on, with a larger budget of the kind it spent; the plain resume
// the closing line gave paused it again before its next turn.
func TestRunErrorOnABudget(t *testing.T) {
	for _, c := range []struct {
		st   *debate.State
		want string
	}{
		{&debate.State{Limits: debate.Limits{DebateBudget: 3000, TurnBudget: 2000}, Usage: llm.Usage{InputTokens: 3500, OutputTokens: 221}},
			"parley debate --resume DEB-1 --debate-budget N (N above 3721, or 0 for no limit)"},
		{&debate.State{Limits: debate.Limits{DebateBudget: 50000, TurnBudget: 2000}, Usage: llm.Usage{InputTokens: 3500, OutputTokens: 221}},
			"parley debate --resume DEB-1 --turn-budget N (N above 2000, or 0 for no limit)"},
	} {
		paused := &debate.PausedError{Reason: debate.PauseBudget, Detail: "the budget"}
		for _, shown := range []bool{true, false} {
			err := describeRunError(nil, "DEB-1", fmt.Errorf("run: %w", paused), shown, c.st)
			if err == nil || !strings.Contains(err.Error(), c.want) {
				t.Errorf("shown %v: %v, want %q", shown, err, c.want)
			}
		}
	}
}

// TestRunErrorNamesTheResumesLimits: a debate resumed with a new timeout
// and paused on it again is told to go above the timeout it was resumed
// with, not the one it was created with (the log keeps that one; the
// resume's holds for its run only).
func TestRunErrorNamesTheResumesLimits(t *testing.T) {
	db := filepath.Join(t.TempDir(), "parley.db")
	run := func(args ...string) string {
		t.Helper()
		ios, _, _, errOut := iostreams.Test()
		if code := Main(context.Background(), append([]string{"--db", db, "debate"}, args...), ios); code != ExitPaused {
			t.Fatalf("%v: exit %d, want %d (paused)\n%s", args, code, ExitPaused, errOut)
		}
		return errOut.String()
	}
	id := regexp.MustCompile(`DEB-[0-9a-f]{8}`).FindString(run("NVDA", "--offline", "--debate-timeout", "1ms"))
	if id == "" {
		t.Fatal("no debate id")
	}
	out := run("--resume", id, "--debate-timeout", "2ms")
	if want := "resume with: parley debate --resume " + id + " (another 2ms), or with more time: --debate-timeout D (D above 2ms)"; !strings.Contains(out, want) {
		t.Errorf("want %q in:\n%s", want, out)
	}
}
