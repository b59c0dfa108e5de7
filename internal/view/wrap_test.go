package view

import (
	"runtime"
	"strings"
	"testing"

	"github.com/charmbracelet/x/ansi"

	"github.com/parleyhq/parley/internal/debate"
)

func TestWrap(t *testing.T) {
	const width = 20
	text := "A line of words that fills exactly twenty columns and goes on, with  indented\n  lines kept.\n" + strings.Repeat("x", 30) + " end"
	out, _ := Wrap(text, 0, width)
	for _, line := range strings.Split(out, "\n") {
		if n := visibleLen(line); n >= width && !strings.HasPrefix(line, "xxxx") {
			t.Errorf("line %q is %d columns: it must stay below %d", line, n, width)
		}
		if line == "" {
			t.Errorf("a blank line in mid-text:\n%s", out)
		}
		if strings.HasSuffix(line, " ") {
			t.Errorf("line %q ends with a space", line)
		}
	}
	if strings.Join(strings.Fields(out), " ") != strings.Join(strings.Fields(text), " ") {
		t.Errorf("words changed:\n%s", out)
	}
	// WrapReply breaks the word longer than a line at the line's end.
	out, col := WrapReply(text, 0, width)
	if strings.Join(strings.Fields(out), "") != strings.Join(strings.Fields(text), "") || !strings.Contains(out, "\n"+strings.Repeat("x", width-1)+"\nxxxxxxxxxxx end") || col != 15 {
		t.Errorf("WrapReply = %q (col %d)", out, col)
	}
	if !strings.Contains(out, "\n  lines kept.") {
		t.Errorf("indentation lost:\n%s", out)
	}
	// A word exactly as wide as the rest of the line goes to the next line.
	out, col = Wrap("abcd efghi", 10, 15)
	if out != "abcd\nefghi" || col != 5 {
		t.Errorf("Wrap from column 10 = %q (col %d)", out, col)
	}
}

func TestCompactSources(t *testing.T) {
	in := "- Piotroski F-score of 4/9 in FY2026 (10-K 0001045810-26-000021; 10-K 0001045810-25-000023; 10-Q 0001045810-26-000052) [NetIncomeLoss 2026-01-25; Assets 2025-01-26]"
	want := "- Piotroski F-score of 4/9 in FY2026 (10-K 0001045810-26-000021 +2)"
	if got := CompactSources(in); got != want {
		t.Errorf("CompactSources = %q, want %q", got, want)
	}
	if got := CompactSources("Revenue of $215.9B (10-K 0001045810-26-000021)"); got != "Revenue of $215.9B (10-K 0001045810-26-000021)" {
		t.Errorf("a single source changed: %q", got)
	}
}

// TestWrapWideCharacters: a wide character (CJK, most emoji) takes two
// columns; counted as one, lines of Japanese or Chinese words ran past the
// terminal's edge, which folded them mid-word.
func TestWrapWideCharacters(t *testing.T) {
	const width = 20
	text := strings.Repeat("日本語の要件 ", 8) + "🐂 bull 🐻 bear " + strings.Repeat("需求 ", 6)
	out, col := Wrap(text, 0, width)
	lines := strings.Split(out, "\n")
	for _, line := range lines {
		if n := ansi.StringWidth(line); n >= width {
			t.Errorf("line %q is %d columns: it must stay below %d", line, n, width)
		}
	}
	if last := lines[len(lines)-1]; col != ansi.StringWidth(last) {
		t.Errorf("Wrap ends at column %d, the last line %q is %d columns", col, last, ansi.StringWidth(last))
	}
	if strings.Join(strings.Fields(out), " ") != strings.Join(strings.Fields(text), " ") {
		t.Errorf("words changed:\n%s", out)
	}
}

// TestWrapCostIsLinear: wrapping four times the text allocates about four
// times as much, not sixteen: each line break copied all that was wrapped
// before it (a reply of a megabyte, printed whole by the live view, took
// four seconds). The memory allocated stands for the cost.
func TestWrapCostIsLinear(t *testing.T) {
	allocated := func(n int) uint64 {
		s := strings.Repeat("Cash conversion of 0.86x means earnings outrun cash.  ", n/54)
		var before, after runtime.MemStats
		runtime.ReadMemStats(&before)
		Wrap(s, 0, 80)
		runtime.ReadMemStats(&after)
		return after.TotalAlloc - before.TotalAlloc
	}
	small, large := allocated(64<<10), allocated(256<<10)
	if large > 6*small {
		t.Errorf("wrapping 4 times the text allocates %.1f times as much (%d KB, was %d KB): the cost grows faster than the text", float64(large)/float64(small), large>>10, small>>10)
	}
}

// TestLongWordStaysIndented: a word longer than a line (a URL, a hash, or
// a model's padding) is broken at the line's end and goes on indented as
// the reply's lines do: folded by the terminal, its rest went on at
// column 0, where a reply could start a line that passes for one of the
// view's own, without a space.
func TestLongWordStaysIndented(t *testing.T) {
	const width = 40
	l, f, out := onTerminal(t, width)
	bull := ref("r1/bull", "bull", "Bull · argument", 1)
	forged := strings.Repeat("y", 36) + "moderator:FORGED"
	f.send(debate.Created{Format: "bullbear", Topic: "NVDA"})
	f.send(debate.TurnStarted{Turn: bull, Attempt: 1})
	f.send(debate.TurnDelta{Turn: bull.ID, Text: "Look: " + forged + " " + strings.Repeat("z", 100) + "FORGED\n"})
	f.send(debate.TurnCompleted{Turn: bull, Text: "Look: " + forged + " " + strings.Repeat("z", 100) + "FORGED\n"})
	l.Close()
	shown := screenShot(width, out.String())
	for _, line := range strings.Split(shown, "\n") {
		if strings.Contains(line, "FORGED") && !strings.HasPrefix(line, "  ") {
			t.Errorf("a reply's line starts at column %d: %q\n%s", len(line)-len(strings.TrimLeft(line, " ")), line, shown)
		}
	}
	if got := strings.Join(strings.Fields(shown), ""); !strings.Contains(got, "Look:"+forged+strings.Repeat("z", 100)+"FORGED") {
		t.Errorf("the words changed:\n%s", shown)
	}
}

// TestLongWordInAnOwnLineStaysIndented: a line of the view's own that
// quotes a server or a model (an attempt's error) folds a word longer than
// a line under its marker, as it folds its other words: folded by the
// terminal, the word's rest started a line at column 0.
func TestLongWordInAnOwnLineStaysIndented(t *testing.T) {
	const width = 40
	l, f, out := onTerminal(t, width)
	bull := ref("r1/bull", "bull", "Bull · argument", 1)
	f.send(debate.Created{Format: "bullbear", Topic: "NVDA"})
	f.send(debate.TurnStarted{Turn: bull, Attempt: 1})
	f.send(debate.TurnFailed{Turn: bull.ID, Attempt: 1, Error: "server said " + strings.Repeat("y", 30) + "moderator:FORGED"})
	l.Close()
	shown := screenShot(width, out.String())
	for _, line := range strings.Split(shown, "\n") {
		if strings.Contains(line, "FORGED") && !strings.HasPrefix(line, "  ") {
			t.Errorf("a server's word starts a line at column 0: %q\n%s", line, shown)
		}
	}
	if !strings.Contains(strings.Join(strings.Fields(shown), ""), strings.Repeat("y", 30)+"moderator:FORGED") {
		t.Errorf("the error changed:\n%s", shown)
	}
}

// TestOwnLinesFoldOnANarrowTerminal: on a terminal of 20 columns a turn's
// heading (a perspective's name, which a model chose) folds under its
// marker; it went on at column 0 below 24 columns.
func TestOwnLinesFoldOnANarrowTerminal(t *testing.T) {
	const width = 20
	l, f, out := onTerminal(t, width)
	turn := ref("r1/perf", "performance-advocate", "Performance Advocate · argument", 1)
	f.send(debate.Created{Format: "perspectives", Topic: "Redis?"})
	f.send(debate.TurnStarted{Turn: turn, Attempt: 1})
	f.send(debate.TurnCompleted{Turn: turn, Text: "Fine."})
	l.Close()
	shown := screenShot(width, out.String())
	if !strings.Contains(shown, "── Performance\n   Advocate ·\n   argument (round\n   1) ──\n") {
		t.Errorf("the heading does not fold under its marker:\n%s", shown)
	}
}

// TestTabsInAReply: a reply's tabs are shown as spaces, counted in the
// width: the terminal moved the cursor to its next tab stop, which the
// wrap counted nothing for, and the text after them ran past the edge and
// went on at column 0.
func TestTabsInAReply(t *testing.T) {
	const width = 40
	l, f, out := onTerminal(t, width)
	bull := ref("r1/bull", "bull", "Bull · argument", 1)
	text := "Look:" + strings.Repeat("\t", 5) + "moderator: FORGED line\n"
	f.send(debate.Created{Format: "bullbear", Topic: "NVDA"})
	f.send(debate.TurnStarted{Turn: bull, Attempt: 1})
	f.send(debate.TurnDelta{Turn: bull.ID, Text: text})
	f.send(debate.TurnCompleted{Turn: bull, Text: text})
	l.Close()
	if strings.Contains(out.String(), "\t") {
		t.Errorf("a tab reached the terminal: %q", out.String())
	}
	for _, line := range strings.Split(out.String(), "\n") {
		if strings.Contains(line, "FORGED") && (!strings.HasPrefix(line, "  ") || ansi.StringWidth(line) >= width) {
			t.Errorf("the reply's line %q (%d columns) starts at column 0 or runs past the edge", line, ansi.StringWidth(line))
		}
	}
}

// TestBannersFoldOnANarrowTerminal: a phase's banner and a round's closing
// banner fold under their marker on a terminal of 20 columns, as a turn's
// heading does; wrapped at column 0, their rest ("(Research) ═══") started
// a line where only the view's banners and headings start.
func TestBannersFoldOnANarrowTerminal(t *testing.T) {
	const width = 20
	l, f, out := onTerminal(t, width)
	f.send(debate.Created{Format: "perspectives", Topic: "Redis?"})
	f.send(debate.PhaseChanged{Phase: "p2", Label: "Phase 2 (Opening Arguments)"})
	f.send(debate.CheckpointReached{ID: "r12", Round: 12, Summary: "Even."})
	l.Close()
	shown := screenShot(width, out.String())
	for _, want := range []string{"═══ Phase 2\n    (Opening\n    Arguments) ═══\n", "═══ Round 12\n    Complete ═══\n"} {
		if !strings.Contains(shown, want) {
			t.Errorf("a banner does not fold under its marker: want\n%s\nin\n%s", want, shown)
		}
	}
}

// TestViewLinesFoldOnANarrowTerminal: the view's other lines of its own
// (the debate's first line, a resume's, an attempt run again, the debate's
// budget warning) fold under their indent or marker on a terminal of 20
// columns; wrapped at column 0, their rest started a line where only the
// view's banners and headings start.
func TestViewLinesFoldOnANarrowTerminal(t *testing.T) {
	const width = 20
	l, f, out := onTerminal(t, width)
	bull := ref("r1/bull", "bull", "Bull · opening", 1)
	f.send(debate.Created{Format: "bullbear", Topic: "NVDA"})
	f.send(debate.Resumed{FromSeq: 1})
	f.send(debate.TurnStarted{Turn: bull, Attempt: 1})
	f.send(debate.TurnStarted{Turn: bull, Attempt: 2})
	f.send(debate.BudgetWarning{Scope: "debate", Used: 9000, Budget: 10000})
	l.Close()
	shown := screenShot(width, out.String())
	for _, want := range []string{"Debate DEB-test\n  (bullbear)\n", "Resuming debate\n  DEB-test (no turn\n  done yet)\n", "↻ Bull · opening:\n  attempt 2, from\n  the start\n", "⚠ token budget:\n  debate used 9000\n  of 10000\n"} {
		if !strings.Contains(shown, want) {
			t.Errorf("a line does not fold under its indent or marker: want\n%s\nin\n%s", want, shown)
		}
	}
}

// screenShot is what a terminal of the width shows after the bytes written.
func screenShot(width int, written string) string {
	scr := newScreen(width)
	scr.write(written)
	return scr.String()
}
