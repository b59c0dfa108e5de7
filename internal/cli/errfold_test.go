package cli

import (
	"context"
	"path/filepath"
	"strings"
	"testing"

	"github.com/parleyhq/parley/internal/debate"
	"github.com/parleyhq/parley/internal/iostreams"
)

// checkFolded fails unless every line of out fits width columns less one
// and every line after the first of a paragraph is indented: a line of
// standard error printed around the live view (the closing error, the
// checkpoint's menu) was written whole, and the terminal folded it to
// column 0, where only the view's headings start.
func checkFolded(t *testing.T, out string, width int) {
	t.Helper()
	lines := strings.Split(strings.TrimRight(out, "\n"), "\n")
	if len(lines) < 2 {
		t.Errorf("not folded at %d columns:\n%s", width, out)
	}
	for i, l := range lines {
		if len(l) >= width {
			t.Errorf("line %d is %d columns wide on a terminal of %d: %q", i, len(l), width, l)
		}
		if i > 0 && !strings.HasPrefix(l, "  ") {
			t.Errorf("line %d starts at column 0: %q\nall:\n%s", i, l, out)
		}
	}
}

func TestClosingErrorFoldsToTheTerminal(t *testing.T) {
	ios, _, _, errOut := iostreams.Test()
	ios.SetTerminal(true, false, false)
	ios.SetWidth(40)
	if code := Main(context.Background(), []string{"help", "frobnicate", "the", "whole", "thing", "now"}, ios); code != ExitUsage {
		t.Fatalf("exit %d\n%s", code, errOut)
	}
	checkFolded(t, errOut.String(), 40)
}

func TestCheckpointMenuFoldsToTheTerminal(t *testing.T) {
	ios, in, _, errOut := iostreams.Test()
	ios.SetTerminal(true, false, false)
	ios.SetWidth(26)
	in.WriteString("x\nc\n")
	h := newTerminalHuman(ios)
	h.hint = func(target, text string) error { return nil }
	h.targets = func() []string { return nil }
	h.listen()
	if _, err := h.Checkpoint(context.Background(), &debate.State{}, debate.CheckpointReached{ID: "r1", Options: []string{"continue", "guide", "end"}}); err != nil {
		t.Fatal(err)
	}
	// The menu, folded, and the prompt's "> " after it; the retry line.
	out := errOut.String()
	menu, _, _ := strings.Cut(out, "> ")
	checkFolded(t, menu, 26)
	if !strings.Contains(out, "Answer c, g or e.\n") {
		t.Errorf("no retry line:\n%s", out)
	}
}

// TestFoldKeepsCommandsWhole: a command the error names is never broken
// by the fold: pasted back over two lines, the shell ran its first half.
func TestFoldKeepsCommandsWhole(t *testing.T) {
	ios, _, _, _ := iostreams.Test()
	ios.SetTerminal(true, false, false)
	ios.SetWidth(50)
	for _, cmd := range []string{"parley debate --resume DEB-0123abcd --debate-budget 40000", "parley show DEB-0123abcd"} {
		in := "error: debate DEB-0123abcd paused: the token budget is spent; resume with a larger one: " + cmd + "; or 'x'"
		out := errLine(ios, in)
		if !strings.Contains(out, cmd) {
			t.Errorf("%q broken:\n%s", cmd, out)
		}
		if got := strings.Join(strings.Fields(out), " "); got != in {
			t.Errorf("words changed:\n%s\nwant\n%s", got, in)
		}
		checkFolded(t, strings.Replace(out, cmd, "x", 1), 50)
	}
}

// TestClosingLinesFoldToTheTerminal: the lines printed after a debate (its
// totals, where its documents went) fold on a terminal of 20 columns as the
// lines before it do; written whole, the terminal folded them to column 0.
func TestClosingLinesFoldToTheTerminal(t *testing.T) {
	errOut := offlineDebateAt(t, 20)
	out := errOut
	// What follows the spinner's last frame (ESC[K takes it away).
	i := strings.LastIndex(out, "\x1b[K")
	closing := out[i+len("\x1b[K"):]
	if !strings.HasPrefix(closing, "Debate") || !strings.Contains(closing, "turns") {
		t.Fatalf("no closing line:\n%s", out)
	}
	checkFolded(t, closing, 20)
}

// TestNoticesFoldToTheTerminal: a format's notice printed before a debate
// ("SEC data: offline snapshot recorded …") folds on a terminal of 20
// columns as the models line under it does.
func TestNoticesFoldToTheTerminal(t *testing.T) {
	errOut := offlineDebateAt(t, 20)
	notice, _, ok := strings.Cut(errOut, "Models:")
	if !ok || !strings.HasPrefix(notice, "SEC data:") {
		t.Fatalf("no notice before the models line:\n%s", errOut)
	}
	checkFolded(t, notice, 20)
}

// offlineDebateAt runs 'parley debate NVDA --offline' on a terminal of the
// width and returns what it wrote to standard error.
func offlineDebateAt(t *testing.T, width int) string {
	t.Helper()
	ios, _, _, errOut := iostreams.Test()
	ios.SetTerminal(true, false, false)
	ios.SetWidth(width)
	db := filepath.Join(t.TempDir(), "parley.db")
	if code := Main(context.Background(), []string{"--db", db, "debate", "NVDA", "--offline"}, ios); code != ExitOK {
		t.Fatalf("exit %d\n%s", code, errOut)
	}
	return errOut.String()
}
