package view

import (
	"bytes"
	"log/slog"
	"strings"
	"testing"

	"github.com/charmbracelet/x/ansi"

	"github.com/parleyhq/parley/internal/debate"
	"github.com/parleyhq/parley/internal/iostreams"
)

// onTerminal returns a view drawing on a terminal width columns wide that
// reads no keys, with no spinner (it draws on standard error, on a timer),
// the feed of its events, and what it printed.
func onTerminal(t *testing.T, width int) (*Live, *feed, *bytes.Buffer) {
	t.Helper()
	ios, _, out, _ := iostreams.Test()
	ios.SetTerminal(true, false, false)
	ios.SetWidth(width)
	l := NewLive(ios, false, nil)
	l.spin = nil
	return l, &feed{t: t, l: l}, out
}

// typingRun feeds a bull's turn to a terminal view that takes the keys
// typed, typing a hint while the turn streams when typed is set, and
// returns the screens to compare: while typing, after the Enter, and at
// the end.
func typingRun(t *testing.T, width int, typed bool, resizeTo int) (shots []string, final string) {
	t.Helper()
	ios, _, out, _ := iostreams.Test()
	ios.SetTerminal(true, true, false)
	ios.SetWidth(width)
	l := NewLive(ios, false, nil)
	l.spin = nil // the spinner draws on standard error, on a timer
	l.TakeInput()
	f := &feed{t: t, l: l}
	scr := newScreen(width)
	shot := func() {
		scr.write(out.String())
		out.Reset()
		shots = append(shots, scr.String())
	}
	bull := ref("r1/bull", "bull", "Bull · argument", 1)
	f.send(debate.Created{Format: "bullbear", Topic: "NVDA"})
	f.send(debate.TurnStarted{Turn: bull, Attempt: 1})
	f.send(debate.TurnDelta{Turn: bull.ID, Text: "Margins are high and "})
	if typed {
		l.Typing("b")
		l.Typing("bull: mind")
	}
	f.send(debate.TurnDelta{Turn: bull.ID, Text: "rising on data-center "})
	if typed {
		l.Typing("bull: mind the cycle")
		shot()
	}
	if resizeTo > 0 {
		ios.SetWidth(resizeTo)
		scr.width = resizeTo
	}
	f.send(debate.TurnDelta{Turn: bull.ID, Text: "demand, "})
	if typed {
		l.DoneTyping()
	}
	f.send(debate.HintQueued{ID: 1, Target: "bull", Text: "mind the cycle"})
	if typed {
		shot()
	}
	f.send(debate.TurnDelta{Turn: bull.ID, Text: "which hyperscalers keep funding.\nThe moat is CUDA."})
	f.send(debate.TurnCompleted{Turn: bull, Text: "Margins are high and rising on data-center demand, which hyperscalers keep funding.\nThe moat is CUDA."})
	l.Close()
	shot()
	return shots, shots[len(shots)-1]
}

// TestTypingKeepsTheStreamWhole: a hint typed while a reply streams shows
// on a line of its own below the streamed text, which goes on above it
// unbroken; once entered, its acknowledgement waits below the stream until
// the reply's line ends. The screen at the end is the screen of the same
// debate with no key typed: the terminal's echo of the keys used to land
// in the middle of the streamed line, which then went on, broken, below
// the Enter.
func TestTypingKeepsTheStreamWhole(t *testing.T) {
	shots, final := typingRun(t, 40, true, 0)
	_, untyped := typingRun(t, 40, false, 0)
	if final != untyped {
		t.Errorf("the screen with a hint typed:\n%s\ndiffers from the screen with none:\n%s", final, untyped)
	}
	golden(t, "typing.txt", strings.Join(shots, "─────\n"))
	for _, line := range strings.Split(shots[0], "\n") {
		if strings.Contains(line, "mind") && !strings.HasPrefix(line, "› bull: mind the cycle") {
			t.Errorf("the line typed is drawn inside the stream: %q", line)
		}
	}
}

// TestTypingOnANarrowTerminal: at 20 columns the line typed shows its
// end, where the cursor is, on one row; the stream goes on wrapped.
func TestTypingOnANarrowTerminal(t *testing.T) {
	shots, final := typingRun(t, 20, true, 0)
	_, untyped := typingRun(t, 20, false, 0)
	if final != untyped {
		t.Errorf("the screen with a hint typed:\n%s\ndiffers from the screen with none:\n%s", final, untyped)
	}
	if !strings.Contains(shots[0], "› …: mind the cycle▌\n") {
		t.Errorf("the line typed, at 20 columns:\n%s", shots[0])
	}
	for _, shot := range shots {
		for _, line := range strings.Split(shot, "\n") {
			if n := visibleLen(strings.ReplaceAll(line, "▌", "")); n > 19 {
				t.Errorf("a row of %d columns at 20:\n%s", n, shot)
			}
		}
	}
}

// TestTypingThroughAResize: a terminal resized while a line is typed may
// have moved the stream's last line; the stream goes on at a line's start
// below it, and nothing typed is left on the screen.
func TestTypingThroughAResize(t *testing.T) {
	_, final := typingRun(t, 40, true, 30)
	if strings.Contains(final, "mind the cycle▌") || strings.Contains(final, "› ") {
		t.Errorf("the line typed is left on the screen:\n%s", final)
	}
	for _, want := range []string{"  Margins are high and rising on\n", "  data-center\n  demand, which", "  keep funding.\n💡 Hint queued for Bull: mind\n   the cycle\n  The moat is CUDA."} {
		if !strings.Contains(final, want) {
			t.Errorf("the screen lacks %q:\n%s", want, final)
		}
	}
}

// TestLiveHintWaitsForTheParagraph: a line ended by the word wrap is not
// the end of the reply's line: a hint acknowledged there would cut its
// paragraph in two; it waits for the paragraph's end.
func TestLiveHintWaitsForTheParagraph(t *testing.T) {
	l, f, out := onTerminal(t, 22) // 20 columns and the reply's indent
	bear := ref("r1/bear", "bear", "Bear", 1)
	f.send(debate.Created{Format: "bullbear", Topic: "NVDA"})
	f.send(debate.TurnStarted{Turn: bear, Attempt: 1})
	// A space at the 20th column ends the line.
	f.send(debate.TurnDelta{Turn: bear.ID, Text: "Margins are high ab "})
	f.send(debate.HintQueued{ID: 1, Target: "bear", Text: "mind the cycle"})
	f.send(debate.TurnDelta{Turn: bear.ID, Text: "cd.\nNext."})
	f.send(debate.TurnCompleted{Turn: bear, Text: "Margins are high ab cd.\nNext."})
	l.Close()
	want := "  Margins are high ab\n  cd.\n💡 Hint queued for\n   Bear: mind the\n   cycle\n  Next.\n"
	if !strings.Contains(out.String(), want) {
		t.Errorf("output lacks %q:\n%s", want, out.String())
	}
}

// TestTypingAfterClose: keys typed once the view is closed (while the
// documents are written) draw nothing that would stay among what is
// printed next.
func TestTypingAfterClose(t *testing.T) {
	ios, _, out, _ := iostreams.Test()
	ios.SetTerminal(true, true, false)
	ios.SetWidth(40)
	l := NewLive(ios, false, nil)
	l.spin = nil
	l.TakeInput()
	l.Close()
	out.Reset()
	l.Typing("bull: too late")
	if out.Len() != 0 {
		t.Errorf("a line typed after the view closed was drawn: %q", out.String())
	}
}

// TestNoteWaitsForTheParagraph: a note logged while a reply streams (a
// provider adapting its calls) is printed on a line of its own where the
// reply's paragraph ends, not in the middle of the streamed line.
func TestNoteWaitsForTheParagraph(t *testing.T) {
	l, f, out := onTerminal(t, 60)
	bull := ref("r1/bull", "bull", "Bull", 1)
	f.send(debate.Created{Format: "bullbear", Topic: "NVDA"})
	f.send(debate.TurnStarted{Turn: bull, Attempt: 1})
	f.send(debate.TurnDelta{Turn: bull.ID, Text: "Margins are "})
	iostreams.NoteLogger(l.NoteWriter(), slog.LevelInfo).Warn("server adapted")
	f.send(debate.TurnDelta{Turn: bull.ID, Text: "high.\nNext."})
	f.send(debate.TurnCompleted{Turn: bull, Text: "Margins are high.\nNext."})
	l.Close()
	if !strings.Contains(out.String(), "\n  Margins are high.\nwarning: server adapted\n  Next.\n") {
		t.Errorf("the note is not under the paragraph:\n%s", out.String())
	}
}

// TestLiveOwnLinesFoldUnderTheirMarker: a line of the view's own longer
// than the terminal (a hint's acknowledgement, a refused reply's notice, a
// tool call) folds at spaces, its continuation lines under the text after
// its indent and marker: the terminal folded it to column 0, where only
// the view's headings and the first lines of its notes start.
func TestLiveOwnLinesFoldUnderTheirMarker(t *testing.T) {
	l, f, out := onTerminal(t, 40)
	bull := ref("r1/bull", "bull", "Bull · argument", 1)
	f.send(debate.Created{Format: "bullbear", Topic: "NVDA"})
	f.send(debate.TurnStarted{Turn: bull, Attempt: 1})
	f.send(debate.HintQueued{ID: 1, Target: "bull", Text: "weigh the cyclical downturn in gaming and the export rules on data-center parts"})
	f.send(debate.TurnRepair{Turn: bull.ID, Error: "the reply named no figure from the filings and cited no source for its claims"})
	l.Say("Hint not queued: the agent named is not one of this debate's agents, which are bull and bear")
	l.Close()
	got := screenShot(40, out.String())
	for _, line := range strings.Split(got, "\n") {
		if n := visibleLen(strings.ReplaceAll(line, "▌", "")); n > 39 {
			t.Errorf("a row of %d columns at 40: %q", n, line)
		}
	}
	for _, want := range []string{
		"💡 Hint queued for Bull: weigh the\n   cyclical downturn",
		"⚠ Bull · argument: reply refused (the\n  reply named",
		"Hint not queued: the agent named is not\n  one of this",
	} {
		if !strings.Contains(got, want) {
			t.Errorf("the screen lacks %q:\n%s", want, got)
		}
	}
}

// TestLiveContinuedAfterAStop: after Ctrl+Z and fg the shell leaves the
// cursor at a line's start; the reply goes on there indented, wrapped from
// column 0, and a hint acknowledged meanwhile still waits for the
// paragraph's end. The view went on as if at the column it had reached:
// the rest of the line stood at column 0, broken early by the wrap.
func TestLiveContinuedAfterAStop(t *testing.T) {
	l, f, out := onTerminal(t, 40)
	bear := ref("r1/bear", "bear", "Bear", 1)
	f.send(debate.Created{Format: "bullbear", Topic: "NVDA"})
	f.send(debate.TurnStarted{Turn: bear, Attempt: 1})
	f.send(debate.TurnDelta{Turn: bear.ID, Text: "Margins are high and rising on "})
	out.WriteString("^Z\n[1]+  Stopped   parley debate NVDA\n$ fg\nparley debate NVDA\n") // the shell's
	l.Continued()
	f.send(debate.HintQueued{ID: 1, Target: "bear", Text: "mind the cycle"})
	f.send(debate.TurnDelta{Turn: bear.ID, Text: "data-center demand which hyperscalers keep funding.\nNext."})
	f.send(debate.TurnCompleted{Turn: bear, Text: "Margins are high and rising on data-center demand which hyperscalers keep funding.\nNext."})
	l.Close()
	want := "parley debate NVDA\n  data-center demand which hyperscalers\n  keep funding.\n💡 Hint queued for Bear: mind the cycle\n  Next.\n"
	if !strings.Contains(out.String(), want) {
		t.Errorf("output lacks %q:\n%s", want, out.String())
	}
}

// TestLiveStoppedShownBeforeContinued: the events that arrived while the
// program was stopped are shown as soon as it goes on, before the signal
// saying so reaches Continued: told of the stop before it (Stopping), the
// view shows them at the line's start the shell left, indented, and
// Continued arriving after them does not take the cursor for a line's
// start again. They went on at the column the view had reached (seen in
// tmux under bash: the line after fg unindented, folded by the terminal).
func TestLiveStoppedShownBeforeContinued(t *testing.T) {
	l, f, out := onTerminal(t, 40)
	bear := ref("r1/bear", "bear", "Bear", 1)
	f.send(debate.Created{Format: "bullbear", Topic: "NVDA"})
	f.send(debate.TurnStarted{Turn: bear, Attempt: 1})
	f.send(debate.TurnDelta{Turn: bear.ID, Text: "Margins are high and rising on "})
	l.Stopping()
	out.WriteString("^Z\n[1]+  Stopped   parley debate NVDA\n$ fg\nparley debate NVDA\n") // the shell's
	f.send(debate.TurnDelta{Turn: bear.ID, Text: "data-center demand which "})
	l.Continued()
	f.send(debate.TurnDelta{Turn: bear.ID, Text: "hyperscalers keep funding.\nNext."})
	f.send(debate.TurnCompleted{Turn: bear, Text: "Margins are high and rising on data-center demand which hyperscalers keep funding.\nNext."})
	l.Close()
	want := "parley debate NVDA\n  data-center demand which hyperscalers\n  keep funding.\n  Next.\n"
	if !strings.Contains(out.String(), want) {
		t.Errorf("output lacks %q:\n%s", want, out.String())
	}
}

// TestResizedRedrawsTheTypedLine: the line being typed, cut to the width of
// the terminal when drawn, is drawn again at once when the terminal is
// resized, at the new width with the end typed showing: it waited for the
// next event or key, folded by the terminal or cut short of a wider window.
func TestResizedRedrawsTheTypedLine(t *testing.T) {
	ios, _, out, _ := iostreams.Test()
	ios.SetTerminal(true, true, false)
	ios.SetWidth(60)
	l := NewLive(ios, false, nil)
	l.spin = nil
	l.TakeInput()
	f := &feed{t: t, l: l}
	bull := ref("r1/bull", "bull", "Bull · argument", 1)
	f.send(debate.Created{Format: "bullbear", Topic: "NVDA"})
	f.send(debate.TurnStarted{Turn: bull, Attempt: 1})
	typed := "bull: " + strings.Repeat("weigh the cycle ", 4) + "END"
	l.Typing(typed)
	if !strings.Contains(out.String(), "› …ycle") {
		t.Fatalf("the line typed is not drawn: %q", out.String())
	}
	for _, width := range []int{30, 100} {
		out.Reset()
		ios.SetWidth(width)
		l.Resized()
		drawn := out.String()
		i := strings.LastIndex(drawn, "\r\x1b[K")
		if i < 0 || !strings.Contains(drawn[:i], "\x1b[J") {
			t.Fatalf("resized to %d: the footer was not taken away and drawn again: %q", width, drawn)
		}
		row := drawn[i+len("\r\x1b[K"):]
		if n := ansi.StringWidth(row); n >= width || !strings.HasSuffix(row, "END") || width == 100 && row != "› "+typed {
			t.Errorf("resized to %d: the line typed is drawn as %q (%d columns)", width, row, n)
		}
	}
	// With nothing drawn below the stream, a resize draws nothing.
	l.DoneTyping()
	out.Reset()
	l.Resized()
	if out.Len() != 0 {
		t.Errorf("resized with no line typed: %q", out.String())
	}
}
