package cli

import (
	"context"
	"strings"
	"testing"
)

// TestResumeNamesIgnoredOptions: a resume keeps the options the debate was
// created with; every option given with --resume that it will not use is
// named, not only --context, --rounds and --perspective ('--resume ID
// --format council' went on as the bull vs. bear debate it was, without a
// word).
func TestResumeNamesIgnoredOptions(t *testing.T) {
	t.Setenv("XDG_CACHE_HOME", t.TempDir())
	f := testFactory(t, "", false)
	id, db := pausedBullbear(t, f), f.DBPath
	root := NewRootCmd(f)
	root.SetArgs([]string{"--db", db, "debate", "--resume", id, "--format", "council", "--deep", "--hint", "bull: margins", "--framework", "altman", "--no-checkpoints"})
	if err := root.Execute(); err != nil {
		t.Fatal(err)
	}
	errOut := f.IO.ErrOut.(interface{ String() string }).String()
	note := ""
	for _, l := range strings.Split(errOut, "\n") {
		if strings.HasPrefix(l, "note:") {
			note = l
		}
	}
	for _, flag := range []string{"--format", "--deep", "--hint", "--framework"} {
		if !strings.Contains(note, flag) {
			t.Errorf("the note does not name %s:\n%s", flag, errOut)
		}
	}
	if strings.Contains(note, "--no-checkpoints") {
		t.Errorf("the note names --no-checkpoints, which a resume uses:\n%s", note)
	}
}

// TestShellResumeNamesIgnoredOptions: the shell's '/debate --resume ID
// --format council' carries the same note for the shell to say.
func TestShellResumeNamesIgnoredOptions(t *testing.T) {
	f := testFactory(t, "", false)
	req, err := f.parseDebate(context.Background(), []string{"--resume", "DEB-1", "--format", "council", "--turn-budget", "5000"})
	if err != nil {
		t.Fatal(err)
	}
	if len(req.Notes) != 1 || !strings.Contains(req.Notes[0], "--format is ignored on resume") || strings.Contains(req.Notes[0], "--turn-budget") {
		t.Errorf("notes %q, want --format named, not --turn-budget", req.Notes)
	}
}
