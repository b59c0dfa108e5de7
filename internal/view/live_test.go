package view

import (
	"bytes"
	"flag"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"
	"unicode/utf8"

	"github.com/charmbracelet/x/ansi"
	"github.com/parleyhq/parley/internal/debate"
	"github.com/parleyhq/parley/internal/iostreams"
	"github.com/parleyhq/parley/internal/llm"
)

var update = flag.Bool("update", false, "rewrite golden files")

type feed struct {
	t   *testing.T
	seq int64
	l   *Live
}

func (f *feed) send(p debate.Payload) {
	f.t.Helper()
	f.seq++
	e, err := debate.NewEvent("DEB-test", time.Date(2026, 11, 21, 12, 0, 0, 0, time.UTC), p)
	if err != nil {
		f.t.Fatal(err)
	}
	e.Seq = f.seq
	f.l.Handle(e)
}

func ref(id, agent, label string, round int) debate.TurnRef {
	return debate.TurnRef{ID: id, Agent: agent, Role: "debater", Label: label, Round: round}
}

// Concurrent turns never interleave: the first streams live, the other is
// shown whole when the first ends.
func TestLiveConcurrentTurnsAreNotInterleaved(t *testing.T) {
	ios, _, out, _ := iostreams.Test()
	l := NewLive(ios, false, nil)
	f := &feed{t: t, l: l}
	a, b := ref("r1/a", "alpha", "Alpha · argument", 1), ref("r1/b", "beta", "Beta · argument", 1)
	f.send(debate.Created{Format: "perspectives", Topic: "Redis or Postgres?"})
	f.send(debate.PhaseChanged{Phase: "r1", Label: "Round 1: arguments", Round: 1})
	f.send(debate.TurnStarted{Turn: a, Attempt: 1})
	f.send(debate.TurnStarted{Turn: b, Attempt: 1})
	f.send(debate.TurnDelta{Turn: "r1/b", Text: "Beta one. "})
	f.send(debate.TurnDelta{Turn: "r1/a", Text: "Alpha one. "})
	f.send(debate.TurnDelta{Turn: "r1/b", Text: "Beta two."})
	f.send(debate.TurnCompleted{Turn: b, Text: "Beta one. Beta two.", Usage: llm.Usage{OutputTokens: 4}})
	f.send(debate.TurnDelta{Turn: "r1/a", Text: "Alpha two."})
	f.send(debate.TurnFailed{Turn: "r1/a", Attempt: 1, Error: "rate limited", Retryable: true, RetryIn: 2 * time.Second})
	f.send(debate.TurnStarted{Turn: a, Attempt: 2})
	f.send(debate.TurnDelta{Turn: "r1/a", Text: "Alpha again."})
	f.send(debate.TurnCompleted{Turn: a, Text: "Alpha again."})
	f.send(debate.Note{Kind: "perspectives.repetition", Text: "Alpha repeats 70% of its round 1 argument"})
	f.send(debate.CheckpointReached{ID: "r1", Round: 1, Summary: "They disagree on load."})
	f.send(debate.Paused{Reason: debate.PauseCheckpoint, Detail: "no answer within 30m0s"})
	l.Close()
	golden(t, "concurrent.txt", out.String())
	got := out.String()
	if strings.Index(got, "Beta one. Beta two.") < strings.Index(got, "Alpha again.") {
		t.Error("the second turn was shown before the live one finished")
	}
}

func TestLiveJSON(t *testing.T) {
	ios, _, out, _ := iostreams.Test()
	l := NewLive(ios, true, nil)
	f := &feed{t: t, l: l}
	f.send(debate.Created{Format: "perspectives", Topic: "x"})
	f.send(debate.TurnDelta{Turn: "a", Text: "hi"})
	lines := strings.Split(strings.TrimSpace(out.String()), "\n")
	if len(lines) != 2 || !strings.Contains(lines[1], `"type":"turn.delta"`) || !strings.Contains(lines[1], `"seq":2`) {
		t.Errorf("json lines = %q", lines)
	}
}

// TestLiveJSONIsInert: the JSON lines escape what a terminal acts on and
// the encoder writes raw (C1 controls such as U+009B, read as CSI, bidi
// overrides, DEL), so that --json on a terminal is as inert as the view.
func TestLiveJSONIsInert(t *testing.T) {
	ios, _, out, _ := iostreams.Test()
	l := NewLive(ios, true, nil)
	f := &feed{t: t, l: l}
	f.send(debate.Created{Format: "perspectives", Topic: "x\u202eexe.pdf"})
	f.send(debate.TurnDelta{Turn: "a", Text: "\u009b2J\u009b1;1H\x7f\x1b[2J"})
	got := out.String()
	if strings.ContainsAny(got, "\u009b\u202e\x7f\x1b") {
		t.Errorf("json lines hold raw control characters: %q", got)
	}
	if !strings.Contains(got, `\u009b2J\u009b1;1H\u007f\u001b[2J`) || !strings.Contains(got, `x\u202eexe.pdf`) {
		t.Errorf("json lines do not keep the text, escaped: %q", got)
	}
}

func TestLiveWrapsWordsAtTheTerminalWidth(t *testing.T) {
	ios, _, out, _ := iostreams.Test()
	ios.SetTerminal(true, false, false)
	ios.SetWidth(22) // 20 columns and the reply's indent
	l := NewLive(ios, false, nil)
	f := &feed{t: t, l: l}
	a := ref("a", "alpha", "A", 0)
	f.send(debate.TurnStarted{Turn: a, Attempt: 1})
	f.send(debate.TurnDelta{Turn: "a", Text: "the quick brown fox jum"})
	f.send(debate.TurnDelta{Turn: "a", Text: "ps over the lazy dog again and again"})
	f.send(debate.TurnCompleted{Turn: a, Text: "x"})
	l.Close()
	for _, line := range strings.Split(out.String(), "\n") {
		if visibleLen(line) > 22 {
			t.Errorf("line longer than 22 columns: %q", line)
		}
	}
	if !strings.Contains(out.String(), "\n  the quick brown fox\n") {
		t.Errorf("output:\n%s", out.String())
	}
}

func golden(t *testing.T, name, got string) {
	t.Helper()
	path := filepath.Join("testdata", name)
	if *update {
		if err := os.WriteFile(path, []byte(got), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	want, err := os.ReadFile(path)
	if err != nil {
		t.Fatalf("%v (run with -update to create it)", err)
	}
	if got != string(want) {
		t.Errorf("%s differs from the golden file (run with -update to accept):\n--- got\n%s\n--- want\n%s", name, got, want)
	}
}

// Every line belongs under its agent: a refused reply of a turn that is not
// streaming is shown under that turn's heading, and a turn superseded and
// run again gets its heading again.
func TestLiveLinesUnderTheirAgent(t *testing.T) {
	ios, _, out, _ := iostreams.Test()
	l := NewLive(ios, false, nil)
	f := &feed{t: t, l: l}
	a, b := ref("r1/a", "alpha", "Alpha · argument", 1), ref("r1/b", "beta", "Beta · argument", 1)
	f.send(debate.Created{Format: "perspectives", Topic: "Redis or Postgres?"})
	f.send(debate.TurnStarted{Turn: a, Attempt: 1})
	f.send(debate.TurnStarted{Turn: b, Attempt: 1})
	f.send(debate.TurnDelta{Turn: "r1/a", Text: "Alpha streams."})
	f.send(debate.TurnRepair{Turn: "r1/b", Text: "bad", Error: "no quote"})
	f.send(debate.TurnCompleted{Turn: b, Text: "Beta fixed."})
	f.send(debate.TurnSuperseded{Turn: "r1/a", Partial: "Alpha streams.", Reason: "interrupted"})
	f.send(debate.TurnStarted{Turn: a, Attempt: 2})
	f.send(debate.TurnDelta{Turn: "r1/a", Text: "Alpha again."})
	f.send(debate.TurnCompleted{Turn: a, Text: "Alpha again."})
	got := out.String()
	alpha1 := strings.Index(got, "Alpha · argument")
	beta := strings.Index(got, "Beta · argument")
	refused := strings.Index(got, "Beta · argument: reply refused")
	if refused < 0 {
		refused = strings.Index(got, "reply refused")
	}
	if !(alpha1 >= 0 && beta > alpha1 && refused > beta) {
		t.Errorf("the refusal of beta is not under beta's heading:\n%s", got)
	}
	if strings.Count(got, "Alpha · argument") < 2 || strings.LastIndex(got, "Alpha · argument") > strings.Index(got, "Alpha again.") {
		t.Errorf("alpha's second run has no heading of its own:\n%s", got)
	}
}

// The tool calls of a turn that runs beside the live one are shown under
// its heading when it is shown, not dropped: the research turns of a bull
// vs. bear debate run at once and both call tools.
func TestLiveToolCallsOfAConcurrentTurn(t *testing.T) {
	ios, _, out, _ := iostreams.Test()
	l := NewLive(ios, false, nil)
	f := &feed{t: t, l: l}
	bull, bear := ref("research/bull", "bull", "Bull · research", 0), ref("research/bear", "bear", "Bear · research", 0)
	f.send(debate.Created{Format: "bullbear", Topic: "NVDA"})
	f.send(debate.TurnStarted{Turn: bull, Attempt: 1})
	f.send(debate.TurnStarted{Turn: bear, Attempt: 1})
	f.send(debate.ToolCalled{Turn: "research/bear", Call: llm.ToolCall{ID: "c1", Name: "compute_ratios", Args: []byte(`{}`)}})
	f.send(debate.ToolCalled{Turn: "research/bull", Call: llm.ToolCall{ID: "c2", Name: "xbrl_facts", Args: []byte(`{"limit":2}`)}})
	f.send(debate.ToolResult{Turn: "research/bull", CallID: "c2", Content: "Revenues"})
	f.send(debate.ToolResult{Turn: "research/bear", CallID: "c1", Content: "ratios", Cached: true})
	f.send(debate.TurnDelta{Turn: "research/bull", Text: "Revenue grew."})
	f.send(debate.TurnCompleted{Turn: bull, Text: "Revenue grew."})
	f.send(debate.TurnDelta{Turn: "research/bear", Text: "Margins slipped."})
	f.send(debate.TurnCompleted{Turn: bear, Text: "Margins slipped."})
	got := out.String()
	bullAt, bearAt := strings.Index(got, "── Bull · research ──"), strings.Index(got, "── Bear · research ──")
	bullCall, bearCall := strings.Index(got, "⚙ xbrl_facts"), strings.Index(got, "⚙ compute_ratios")
	bearResult := strings.Index(got, "→ cache hit")
	if bullAt < 0 || bearAt < bullAt || bullCall < bullAt || bullCall > bearAt {
		t.Errorf("the bull's call is not under the bull's heading:\n%s", got)
	}
	if bearCall < bearAt || bearResult < bearCall || bearResult > strings.Index(got, "Margins slipped.") {
		t.Errorf("the bear's call and its result are not under the bear's heading, in order:\n%s", got)
	}
	if strings.Count(got, "⚙") != 2 || strings.Count(got, "→ ") != 2 {
		t.Errorf("want each call and each result once:\n%s", got)
	}
}

// A document printed after the debate does not print again the lists the
// turns printed: a list all of whose items a turn printed (as the terminal
// shows them, one short source mark) becomes one line; a list with a new
// item, and everything else, stays whole.
func TestLiveFreshDropsListsAlreadyPrinted(t *testing.T) {
	ios, _, out, _ := iostreams.Test()
	l := NewLive(ios, false, nil)
	f := &feed{t: t, l: l}
	bull := ref("opening/bull", "bull", "Bull · opening", 0)
	text := "The BULL case:\n\n- Revenue growth of 65.5% in FY2026 (10-K 0001045810-26-000021) [Revenues 2026-01-25]\n" +
		"- Altman Z score of 53.14 (10-Q 0001045810-26-000052; 10-K 0001045810-26-000021)\n"
	f.send(debate.Created{Format: "bullbear", Topic: "NVDA"})
	f.send(debate.TurnStarted{Turn: bull, Attempt: 1})
	f.send(debate.TurnCompleted{Turn: bull, Text: text, NoLLM: true})
	l.Close()
	if strings.Contains(out.String(), "[Revenues") || strings.Contains(out.String(), "; 10-K") {
		t.Errorf("the turn printed its whole provenance:\n%s", out.String())
	}
	doc := "## BULL CASE (2 points)\n\n" +
		"- Revenue growth of 65.5% in FY2026 (10-K 0001045810-26-000021) [Revenues 2026-01-25; Revenues 2025-01-26]\n" +
		"- Altman Z score of 53.14 (10-Q 0001045810-26-000052; 10-K 0001045810-26-000021) [Assets 2026-01-25]\n\n" +
		"## KEY FIGURES\n\n- Revenue: $215,938M in FY2026\n- Altman Z score of 53.14 (10-Q 0001045810-26-000052; 10-K 0001045810-26-000021)\n"
	want := "## BULL CASE (2 points)\n\n(the 2 points printed above)\n\n" +
		"## KEY FIGURES\n\n- Revenue: $215,938M in FY2026\n- Altman Z score of 53.14 (10-Q 0001045810-26-000052; 10-K 0001045810-26-000021)\n"
	if got := l.Fresh(doc); got != want {
		t.Errorf("Fresh:\n%s\nwant:\n%s", got, want)
	}
	// A view that printed nothing leaves the document whole.
	if got := NewLive(ios, false, nil).Fresh(doc); got != doc {
		t.Errorf("Fresh of a view that printed nothing:\n%s", got)
	}
}

// TestLiveSpinnerOnlyOnATerminal: the spinner draws on standard error, so
// standard output being a terminal is not enough: redirected to a file,
// standard error gets no frames.
func TestLiveSpinnerOnlyOnATerminal(t *testing.T) {
	f, err := os.Create(filepath.Join(t.TempDir(), "stderr.log"))
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	ios, _, _, _ := iostreams.Test()
	ios.SetTerminal(true, false, false)
	ios.ErrOut = f
	l := NewLive(ios, false, nil)
	defer l.Close()
	if l.spin != nil {
		t.Error("a spinner draws on a standard error redirected to a file")
	}
}

// TestAbbrevKeepsCharactersWhole: a tool call's arguments or error cut for
// the notice line end at a character's start, never within one (an
// invalid byte on the terminal).
func TestAbbrevKeepsCharactersWhole(t *testing.T) {
	for _, s := range []string{strings.Repeat("é", 60), "x" + strings.Repeat("市場", 40), strings.Repeat("⟨U+202E⟩", 20)} {
		got := abbrev(s, 80)
		if !utf8.ValidString(got) || !strings.HasSuffix(got, "…") || len(got) > 80+len("…") {
			t.Errorf("abbrev(%q) = %q", s, got)
		}
	}
}

// TestLiveHintLine: a queued hint is acknowledged as the spec shows it
// ("💡 Hint queued for Bull"), the agent named as the transcript names it,
// with the hint as read.
func TestLiveHintLine(t *testing.T) {
	ios, _, out, _ := iostreams.Test()
	l := NewLive(ios, false, nil)
	f := &feed{t: t, l: l}
	f.send(debate.Created{Format: "bullbear", Topic: "NVDA"})
	f.send(debate.HintQueued{ID: 1, Target: "bear", Text: "look at customer concentration"})
	f.send(debate.HintQueued{ID: 2, Target: debate.HintAll, Text: "cite the 10-K\x1b[31m"})
	l.Close()
	for _, want := range []string{"💡 Hint queued for Bear: look at customer concentration\n", "💡 Hint queued for both sides: cite the 10-K␛[31m\n"} {
		if !strings.Contains(out.String(), want) {
			t.Errorf("output lacks %q:\n%s", want, out.String())
		}
	}
}

// TestLiveHintDoesNotCutALine: a hint queued while the live turn is in the
// middle of a line is acknowledged on a line of its own where the reply's
// line ends, not between two of its words.
func TestLiveHintDoesNotCutALine(t *testing.T) {
	for _, tc := range []struct {
		name   string
		deltas []string
		want   string
	}{
		{"the reply goes on to a new line", []string{"Margins are ", "high.\nAnd rising", "."}, "Bear · argument (round 1) ──\n  Margins are high.\n💡 Hint queued for Bear: mind the cycle\n  And rising.\n"},
		{"the reply ends", []string{"Margins are ", "high."}, "Bear · argument (round 1) ──\n  Margins are high.\n💡 Hint queued for Bear: mind the cycle\n"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			ios, _, out, _ := iostreams.Test()
			l := NewLive(ios, false, nil)
			f := &feed{t: t, l: l}
			bear := ref("r1/bear", "bear", "Bear · argument", 1)
			f.send(debate.Created{Format: "bullbear", Topic: "NVDA"})
			f.send(debate.TurnStarted{Turn: bear, Attempt: 1})
			f.send(debate.TurnDelta{Turn: bear.ID, Text: tc.deltas[0]})
			f.send(debate.HintQueued{ID: 1, Target: "bear", Text: "mind the cycle"})
			for _, d := range tc.deltas[1:] {
				f.send(debate.TurnDelta{Turn: bear.ID, Text: d})
			}
			f.send(debate.TurnCompleted{Turn: bear, Text: strings.Join(tc.deltas, "")})
			l.Close()
			if !strings.Contains(out.String(), tc.want) {
				t.Errorf("output lacks %q:\n%s", tc.want, out.String())
			}
		})
	}
}

// TestLiveResumingLine: a resumed debate says where it goes on, in the
// transcript's words, not at which event of the log.
func TestLiveResumingLine(t *testing.T) {
	ios, _, out, _ := iostreams.Test()
	l := NewLive(ios, false, nil)
	f := &feed{t: t, l: l}
	a := ref("r1/a", "alpha", "Alpha · argument", 1)
	f.send(debate.Created{Format: "perspectives", Topic: "Redis or Postgres?"})
	f.send(debate.PhaseChanged{Phase: "r1", Label: "Round 1: arguments", Round: 1})
	f.send(debate.TurnStarted{Turn: a, Attempt: 1})
	f.send(debate.TurnCompleted{Turn: a, Text: "Alpha."})
	f.send(debate.Resumed{})
	l.Close()
	if want := "Resuming debate DEB-test at Round 1: arguments (1 turn done)\n"; !strings.Contains(out.String(), want) || strings.Contains(out.String(), "from event") {
		t.Errorf("output lacks %q:\n%s", want, out.String())
	}
}

// TestSpinnerFitsTheTerminal: the spinner's line is cut to the terminal's
// width, or its first part would be left behind at every frame; a terminal
// made narrower while it turns gets frames cut to its new width.
func TestSpinnerFitsTheTerminal(t *testing.T) {
	var buf bytes.Buffer // read after stop, which waits for the drawing goroutine
	var mu sync.Mutex
	width := 40
	s := newSpinner(&buf, func() int { mu.Lock(); defer mu.Unlock(); return width })
	s.start("Dr. Amara Okonkwo-Lindqvist, Chief Risk Officer 風險 is thinking…")
	time.Sleep(150 * time.Millisecond) // frames at 40 columns
	mu.Lock()
	width = 24
	mu.Unlock()
	time.Sleep(250 * time.Millisecond) // frames at 24
	s.stop()

	var frames []string
	for _, f := range strings.Split(buf.String(), "\r\x1b[K") {
		if f != "" {
			frames = append(frames, f)
		}
	}
	if len(frames) < 2 {
		t.Fatalf("frames drawn: %q", frames)
	}
	for _, f := range frames {
		if w := ansi.StringWidth(f); w > 39 {
			t.Errorf("frame %q is %d columns wide on a 40-column terminal", f, w)
		}
		if !strings.HasSuffix(f, "…") {
			t.Errorf("frame %q does not say it was cut", f)
		}
	}
	if last := frames[len(frames)-1]; ansi.StringWidth(last) > 23 {
		t.Errorf("frame %q is %d columns wide after the terminal was made 24 columns wide", last, ansi.StringWidth(last))
	}
}

// TestLiveCloseEndsTheLine: a view closed in the middle of a reply's line
// (the run stopped without a pause to show: another process took its
// lease) ends the line, so that the error printed next starts a line of its
// own rather than after the reply's last word.
func TestLiveCloseEndsTheLine(t *testing.T) {
	ios, _, out, _ := iostreams.Test()
	l := NewLive(ios, false, nil)
	f := &feed{t: t, l: l}
	a := ref("r1/a", "alpha", "Alpha · argument", 1)
	f.send(debate.Created{Format: "perspectives", Topic: "Redis or Postgres?"})
	f.send(debate.TurnStarted{Turn: a, Attempt: 1})
	f.send(debate.TurnDelta{Turn: a.ID, Text: "Round"})
	l.Close()
	if !strings.HasSuffix(out.String(), "Round\n") {
		t.Errorf("output after Close ends %q, want the line ended", out.String()[max(0, out.Len()-20):])
	}
	// A view at the start of a line adds no blank line.
	n := out.Len()
	l.Close()
	if out.Len() != n {
		t.Errorf("a second Close wrote %q", out.String()[n:])
	}
}

// TestLiveHeadingIsOneLine: a turn's heading holds its agent's name, which
// a stored debate may hold line breaks and kilobytes in (a crux persona's
// name, cast by the moderator, once did): the heading is one line,
// bounded, and writes no line that passes for another turn's heading.
func TestLiveHeadingIsOneLine(t *testing.T) {
	ios, _, out, _ := iostreams.Test()
	l := NewLive(ios, false, nil)
	f := &feed{t: t, l: l}
	name := "Saylor\n\n── Moderator · synthesis ──\nRecommendation: buy " + strings.Repeat("long ", 400)
	a := ref("m01/saylor", "saylor", name+" · CLAIM", 1)
	f.send(debate.Created{Format: "crux", Topic: "Is Bitcoin digital gold?"})
	f.send(debate.TurnStarted{Turn: a, Attempt: 1})
	f.send(debate.TurnDelta{Turn: "m01/saylor", Text: "Fixed supply."})
	f.send(debate.TurnCompleted{Turn: a, Text: "Fixed supply."})
	l.Close()
	got := out.String()
	for _, line := range strings.Split(got, "\n") {
		if strings.HasPrefix(line, "── Moderator") || strings.HasPrefix(line, "Recommendation:") {
			t.Errorf("the name wrote a line of its own: %q", line)
		}
		if n := utf8.RuneCountInString(line); n > 200 {
			t.Errorf("a line of %d characters: %.80q…", n, line)
		}
	}
	if !strings.Contains(got, "── Saylor ── Moderator · synthesis ── Recommendation: buy long") {
		t.Errorf("the heading does not keep the name on one line:\n%s", got)
	}
}

// TestLiveAgentsBeforeAnyTurn: the hint targets the view gives (what a hint
// typed is read against) are those SetTargets finds in the state the view
// folded, the debate's Created event included, before any agent spoke.
func TestLiveAgentsBeforeAnyTurn(t *testing.T) {
	ios, _, _, _ := iostreams.Test()
	l := NewLive(ios, false, nil)
	l.SetTargets(func(s *debate.State) []string {
		if s.Format == "bullbear" {
			return []string{"bear", "bull"}
		}
		return s.Debaters()
	})
	f := &feed{t: t, l: l}
	f.send(debate.Created{Format: "bullbear", Topic: "NVDA"})
	if got := strings.Join(l.Agents(), ","); got != "bear,bull" {
		t.Errorf("agents before any turn: %q, want bear,bull", got)
	}
}

// TestLiveRepliesCannotForgeTheViewsLines: a reply whose lines look like
// the view's own (a turn's heading, a phase's banner, a hint's
// acknowledgement), streamed in fragments that cut the markers, shown
// whole, or wrapped onto a line of their own, is indented: the lines at
// column 0 that look structural are exactly the view's, with no colour to
// tell them apart (piped, and a terminal with NO_COLOR).
func TestLiveRepliesCannotForgeTheViewsLines(t *testing.T) {
	forged := "I agree.\n── Moderator · synthesis ──\n═══ Phase 3 (Verdict) ═══\n💡 Hint queued for Bull: concede\nThe bull wins. " +
		strings.Repeat("pad ", 12) + "═══ Round 9 Complete ═══ ── Moderator · verdict ──"
	for _, width := range []int{0, 40} {
		ios, _, out, _ := iostreams.Test()
		if width > 0 {
			ios.SetTerminal(true, false, false)
			ios.SetWidth(width)
		}
		l := NewLive(ios, false, nil)
		l.spin = nil
		f := &feed{t: t, l: l}
		a, b := ref("r1/bull", "bull", "Bull · argument", 1), ref("r1/bear", "bear", "Bear · argument", 1)
		f.send(debate.Created{Format: "bullbear", Topic: "NVDA"})
		f.send(debate.PhaseChanged{Phase: "r1", Label: "Round 1: arguments", Round: 1})
		f.send(debate.TurnStarted{Turn: a, Attempt: 1})
		f.send(debate.TurnStarted{Turn: b, Attempt: 1})
		for i := 0; i < len(forged); i += 7 {
			j := min(i+7, len(forged))
			for j < len(forged) && !utf8.RuneStart(forged[j]) {
				j++
			}
			f.send(debate.TurnDelta{Turn: a.ID, Text: forged[i:j]})
			i = j - 7
		}
		f.send(debate.TurnFailed{Turn: b.ID, Attempt: 1, Error: "HTTP 500: oops\n═══ Decision ═══\n── Moderator · verdict ──"})
		f.send(debate.TurnRepair{Turn: b.ID, Error: "bad move\n═══ Phase 4 ═══"})
		f.send(debate.TurnCompleted{Turn: b, Text: forged})
		f.send(debate.HintQueued{ID: 1, Target: "bull", Text: "margins"})
		f.send(debate.TurnCompleted{Turn: a, Text: forged})
		f.send(debate.CheckpointReached{ID: "r1", Round: 1, Summary: "Even.\n═══ Decision ═══\n── Moderator · verdict ──"})
		l.Close()
		var structural []string
		for _, line := range strings.Split(out.String(), "\n") {
			for _, m := range []string{"──", "═══", "💡"} {
				if strings.HasPrefix(line, m) {
					structural = append(structural, line)
				}
			}
		}
		want := []string{"═══ Round 1: arguments ═══", "── Bull · argument (round 1) ──", "💡 Hint queued for Bull: margins", "── Bear · argument (round 1) ──", "═══ Round 1 Complete ═══"}
		if strings.Join(structural, "\n") != strings.Join(want, "\n") {
			t.Errorf("width %d: the structural lines at column 0 are\n%s\nwant\n%s\noutput:\n%s", width, strings.Join(structural, "\n"), strings.Join(want, "\n"), out.String())
		}
	}
}

// TestLiveTurnGoingLiveMidReplyIsIndented: a turn that streamed while
// another was live, and is still running when that one ends, goes live
// with the text it has so far. That text is a reply's like the rest: wrapped
// and indented, so that it neither starts at column 0 nor forges a
// heading there (it was printed raw: the replayed arguments of a resumed
// debate lost their indent).
func TestLiveTurnGoingLiveMidReplyIsIndented(t *testing.T) {
	for _, width := range []int{0, 40} {
		ios, _, out, _ := iostreams.Test()
		if width > 0 {
			ios.SetTerminal(true, false, false)
			ios.SetWidth(width)
		}
		l := NewLive(ios, false, nil)
		l.spin = nil
		f := &feed{t: t, l: l}
		a, b := ref("r1/a", "alpha", "Alpha · argument", 1), ref("r1/b", "beta", "Beta · argument", 1)
		f.send(debate.Created{Format: "perspectives", Topic: "Redis or Postgres?"})
		f.send(debate.PhaseChanged{Phase: "r1", Label: "Round 1: arguments", Round: 1})
		f.send(debate.TurnStarted{Turn: a, Attempt: 1})
		f.send(debate.TurnStarted{Turn: b, Attempt: 1})
		f.send(debate.TurnDelta{Turn: b.ID, Text: "Beta starts.\n═══ Decision ═══\n── Moderator · verdict ──\nBeta goes on with a sentence long enough to be wrapped. "})
		f.send(debate.TurnDelta{Turn: a.ID, Text: "Alpha."})
		f.send(debate.TurnCompleted{Turn: a, Text: "Alpha."})
		f.send(debate.TurnDelta{Turn: b.ID, Text: "Beta ends."})
		f.send(debate.TurnCompleted{Turn: b, Text: "Beta starts.\n═══ Decision ═══\n── Moderator · verdict ──\nBeta goes on with a sentence long enough to be wrapped. Beta ends."})
		l.Close()
		_, body, _ := strings.Cut(out.String(), "── Beta · argument (round 1) ──\n")
		if body == "" {
			t.Fatalf("width %d: no heading for Beta:\n%s", width, out.String())
		}
		for _, line := range strings.Split(strings.TrimRight(body, "\n"), "\n") {
			if line != "" && !strings.HasPrefix(line, replyIndent) {
				t.Errorf("width %d: a line of Beta's reply is not indented: %q\noutput:\n%s", width, line, out.String())
			}
			if width > 0 && ansi.StringWidth(line) >= width {
				t.Errorf("width %d: a line of Beta's reply is not wrapped: %q", width, line)
			}
		}
	}
}

// TestLiveResumingLineStartsALine: a debate cut off in the middle of a
// reply is resumed on a line of its own, not at the end of the partial
// reply ("Second round. Measured Resuming debate DEB-…").
func TestLiveResumingLineStartsALine(t *testing.T) {
	ios, _, out, _ := iostreams.Test()
	l := NewLive(ios, false, nil)
	f := &feed{t: t, l: l}
	a := ref("r1/a", "alpha", "Alpha · argument", 1)
	f.send(debate.Created{Format: "perspectives", Topic: "Redis or Postgres?"})
	f.send(debate.PhaseChanged{Phase: "r1", Label: "Round 1: arguments", Round: 1})
	f.send(debate.TurnStarted{Turn: a, Attempt: 1})
	f.send(debate.TurnDelta{Turn: a.ID, Text: "Measured at"})
	f.send(debate.Resumed{})
	f.send(debate.TurnSuperseded{Turn: a.ID, Partial: "Measured at"})
	l.Close()
	if !strings.Contains(out.String(), "\nResuming debate DEB-test") {
		t.Errorf("the resuming line does not start a line:\n%s", out.String())
	}
}

// TestLiveTopicCannotForgeTheViewsLines: a topic of several lines (the API
// takes one) is printed with its lines after the first indented, so that
// none of them opens at column 0 as the view's headings do.
func TestLiveTopicCannotForgeTheViewsLines(t *testing.T) {
	ios, _, out, _ := iostreams.Test()
	l := NewLive(ios, false, nil)
	f := &feed{t: t, l: l}
	f.send(debate.Created{Format: "perspectives", Topic: "Redis or Postgres?\n═══ Decision ═══\n── Moderator · verdict ──\nUse Redis."})
	l.Close()
	want := "Redis or Postgres?\n  ═══ Decision ═══\n  ── Moderator · verdict ──\n  Use Redis.\n"
	if !strings.Contains(out.String(), want) {
		t.Errorf("the topic's lines are not indented after the first:\n%s", out.String())
	}
}

// TestLiveBudgetWarningUnderItsTurn: an agent's budget warning is shown
// under that agent's heading. It was printed where it came, under the
// heading of whichever turn streamed then ("── Operational Simplicity ──",
// "⚠ token budget: round 1 / performance-advocate used 62 of 10").
func TestLiveBudgetWarningUnderItsTurn(t *testing.T) {
	ios, _, out, _ := iostreams.Test()
	l := NewLive(ios, false, nil)
	f := &feed{t: t, l: l}
	a, b := ref("r1/a", "alpha", "Alpha · argument", 1), ref("r1/b", "beta", "Beta · argument", 1)
	f.send(debate.Created{Format: "perspectives", Topic: "Redis or Postgres?"})
	f.send(debate.PhaseChanged{Phase: "r1", Label: "Round 1: arguments", Round: 1})
	f.send(debate.TurnStarted{Turn: a, Attempt: 1})
	f.send(debate.TurnStarted{Turn: b, Attempt: 1})
	f.send(debate.TurnDelta{Turn: a.ID, Text: "Alpha streams."})
	f.send(debate.BudgetWarning{Scope: "round 1 / beta", Used: 9, Budget: 10, Turn: b.ID})
	f.send(debate.TurnCompleted{Turn: b, Text: "Beta."})
	f.send(debate.TurnDelta{Turn: a.ID, Text: " Alpha ends."})
	f.send(debate.BudgetWarning{Scope: "round 1 / alpha", Used: 8, Budget: 10, Turn: a.ID})
	f.send(debate.TurnCompleted{Turn: a, Text: "Alpha streams. Alpha ends."})
	l.Close()
	got := out.String()
	_, alpha, _ := strings.Cut(got, "── Alpha · argument (round 1) ──\n")
	alpha, beta, _ := strings.Cut(alpha, "── Beta · argument (round 1) ──\n")
	if !strings.Contains(alpha, "round 1 / alpha used 8 of 10") || strings.Contains(alpha, "round 1 / beta") {
		t.Errorf("Alpha's section holds the wrong warnings:\n%s", got)
	}
	if !strings.Contains(beta, "round 1 / beta used 9 of 10") {
		t.Errorf("Beta's warning is not under Beta's heading:\n%s", got)
	}
	if strings.Contains(got, "Alpha streams.\n⚠") {
		t.Errorf("Beta's warning cut Alpha's streamed line:\n%s", got)
	}
}

// TestLiveSupersededStructuredTurnLeavesNoBlankLines: a structured turn
// cut off mid-reply and run again on resume is not described (it has no
// move): its empty description made a second blank line before the
// turn's heading again.
func TestLiveSupersededStructuredTurnLeavesNoBlankLines(t *testing.T) {
	ios, _, out, _ := iostreams.Test()
	describe := func(t *debate.Turn) string { return string(t.Move) }
	l := NewLive(ios, false, describe)
	f := &feed{t: t, l: l}
	a := ref("m04/hayes", "hayes", "Hayes · DISCOVERY", 2)
	a.Structured = true
	f.send(debate.Created{Format: "crux", Topic: "Is Bitcoin digital gold?"})
	f.send(debate.TurnStarted{Turn: a, Attempt: 1})
	f.send(debate.TurnDelta{Turn: a.ID, Text: `{"move": "PROPO`})
	f.send(debate.Resumed{})
	f.send(debate.TurnSuperseded{Turn: a.ID, Partial: `{"move": "PROPO`})
	f.send(debate.TurnStarted{Turn: a, Attempt: 1})
	f.send(debate.TurnCompleted{Turn: a, Text: `{"move": "PROPOSE"}`, Move: []byte(`"PROPOSE_QUESTION"`)})
	l.Close()
	if strings.Contains(out.String(), "\n\n\n") {
		t.Errorf("two blank lines in a row:\n%q", out.String())
	}
	if !strings.Contains(out.String(), `  "PROPOSE_QUESTION"`) {
		t.Errorf("the completed turn is not described:\n%s", out.String())
	}
}

// TestLiveNoticesCannotForgeTheViewsLines: the view's notices that quote a
// model's text or a server's (an unusable reply's reason, a format's note
// such as crux's refused message, a pause's detail, a failure) start at
// column 0 with their marker, but their folded and broken lines do not: a
// reply padded so that a heading falls at the start of a folded line, or
// holding a line break, passed for the view's own lines there.
func TestLiveNoticesCannotForgeTheViewsLines(t *testing.T) {
	forged := "═══ Decision ═══ bad move " + strings.Repeat("pad ", 12) + "═══ Round 9 Complete ═══ " + strings.Repeat("pad ", 12) +
		"── Moderator · verdict ──\n═══ Decision ═══\n💡 Hint queued for Bull: concede"
	for _, width := range []int{0, 40, 80} {
		ios, _, out, _ := iostreams.Test()
		if width > 0 {
			ios.SetTerminal(true, false, false)
			ios.SetWidth(width)
		}
		l := NewLive(ios, false, nil)
		l.spin = nil
		f := &feed{t: t, l: l}
		a := ref("r1/bull", "bull", "Bull · argument", 1)
		a.Structured = true
		// A topic may come from another person (the API, a batch file),
		// padded so that a heading starts its second line.
		f.send(debate.Created{Format: "perspectives", Topic: "Redis? " + strings.Repeat("pad ", max(width-8, 0)/4) + forged})
		f.send(debate.PhaseChanged{Phase: "r1", Label: "Round 1: arguments", Round: 1})
		f.send(debate.TurnStarted{Turn: a, Attempt: 1})
		f.send(debate.TurnCompleted{Turn: a, Text: "{}", Invalid: forged})
		f.send(debate.Note{Kind: "crux.refused", Text: "Bull's message was refused: " + forged})
		f.send(debate.Paused{Reason: "error", Detail: forged})
		// A clarification the moderator asks for quotes its question.
		f.send(debate.CheckpointReached{ID: "clarify", Summary: "The moderator needs a clarification: " + forged, Options: []string{debate.ActionContinue}})
		f.send(debate.Failed{Error: forged})
		l.Close()
		var structural []string
		for _, line := range strings.Split(out.String(), "\n") {
			for _, m := range []string{"──", "═══", "💡"} {
				if strings.HasPrefix(line, m) {
					structural = append(structural, line)
				}
			}
		}
		want := []string{"═══ Round 1: arguments ═══", "── Bull · argument (round 1) ──"}
		if strings.Join(structural, "\n") != strings.Join(want, "\n") {
			t.Errorf("width %d: the structural lines at column 0 are\n%s\nwant\n%s\noutput:\n%s", width, strings.Join(structural, "\n"), strings.Join(want, "\n"), out.String())
		}
	}
}
