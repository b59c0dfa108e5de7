// Package view renders a debate's events as they arrive: live in a terminal,
// plain when output is not a terminal, or as a JSON event stream for scripts.
package view

import (
	"encoding/json"
	"fmt"
	"io"
	"os"
	"regexp"
	"strings"
	"sync"
	"time"
	"unicode"
	"unicode/utf8"

	"github.com/charmbracelet/x/ansi"
	"github.com/parleyhq/parley/internal/debate"
	"github.com/parleyhq/parley/internal/iostreams"
	"github.com/parleyhq/parley/internal/report"
	"github.com/parleyhq/parley/internal/textsafe"
	"golang.org/x/term"
)

// Describer turns a completed structured turn (JSON) into lines a person reads.
// Formats provide one; nil prints nothing for structured turns.
type Describer func(t *debate.Turn) string

// Live renders events. Concurrent turns are never interleaved: one turn
// streams live; the others are buffered and appear whole when it ends.
type Live struct {
	io       *iostreams.IOStreams
	cs       iostreams.ColorScheme
	json     bool
	describe Describer
	targets  func(*debate.State) []string

	mu       sync.Mutex
	state    *debate.State
	live     string   // turn streaming now
	running  []string // started, not completed, in start order
	finished []string // completed while another turn was live
	shown    map[string]bool
	// later holds the notices (a refused reply, a failed attempt) of turns
	// that are not the one streaming, printed under their own heading when
	// their turn is shown.
	later map[string][]string
	// held are lines (a hint's acknowledgement) that arrived while the
	// live turn was in the middle of a line: printed where that line
	// ends, so that they do not cut a reply's sentence in two.
	held        []string
	atLineStart bool
	// softEnd: the line was ended by the word wrap, not by the text: the
	// cursor is at a line's start but a paragraph goes on, and a held
	// line waits for its end.
	softEnd bool
	col     int // the cursor's column, for word wrapping
	spin    *spinner
	seen    int64
	seenCh  chan struct{} // closed and replaced whenever seen advances
	// bullets are the list items the turns shown so far printed, as
	// printed: a document printed after the debate does not print them
	// again (Fresh).
	bullets map[string]bool
	// input: the program reads the keys typed (the terminal echoes
	// none), and the view draws the line being typed, and the held
	// lines, in a footer below the streamed text (Typing).
	input  bool
	typing bool
	typed  string
	foot   footer
	// stopSaid: Stopping was told of the stop that Continued will be
	// told the end of.
	stopSaid bool
}

// footer is what the view drew below the streamed text: rows, each cut to
// the terminal's width, so that it can be taken away before the stream
// goes on and drawn again after.
type footer struct {
	rows  []int // each row's width in columns; none: nothing drawn
	below bool  // drawn below a partial line of the stream, not at a line's start
	width int   // the terminal's width when it was drawn
}

// NewLive returns a renderer writing to io.Out. With asJSON it writes one JSON
// event per line and nothing else.
func NewLive(ios *iostreams.IOStreams, asJSON bool, describe Describer) *Live {
	l := &Live{io: ios, cs: ios.Colors(), json: asJSON, describe: describe, state: &debate.State{}, shown: map[string]bool{}, later: map[string][]string{}, atLineStart: true, seenCh: make(chan struct{}), bullets: map[string]bool{}}
	if ios.IsTerminal() && !asJSON && Redrawable(ios.ErrOut) {
		l.spin = newSpinner(ios.ErrOut, ios.TerminalWidth)
		l.spin.io = ios
	}
	return l
}

// Redrawable reports whether the spinner may redraw its line on w, standard
// error, with a carriage return and ESC[K (and so whether what is logged
// there may be shown in the view instead: it is the same screen). Standard output being a terminal
// says nothing of it: "parley debate X 2>log" filled the log with a frame
// every 100 ms, and a dumb terminal (TERM=dumb, as Emacs' shell sets)
// prints the escapes. A writer that is not a file is a test's, which sets
// the terminal itself (iostreams.SetTerminal).
func Redrawable(w io.Writer) bool {
	f, ok := w.(*os.File)
	if !ok {
		return true
	}
	return term.IsTerminal(int(f.Fd())) && os.Getenv("TERM") != "dumb"
}

// Close stops the spinner and ends the line the view left open.
func (l *Live) Close() {
	l.mu.Lock()
	defer l.mu.Unlock()
	if l.spin != nil {
		l.spin.stop()
	}
	l.hideFooter()
	// Keys typed from now on (while the documents are written) are not
	// drawn: nothing would take the line away again.
	l.input, l.typing, l.typed = false, false, ""
	l.flushHeld()
	// What is printed after the view (an error, the closing line) starts
	// a line of its own: a run that stopped mid-reply without a pause
	// to show (its lease taken by another process) left "Round error: …".
	if !l.json {
		l.newline()
	}
}

// Stopping tells the view that the program is about to stop (Ctrl+Z): it
// takes its footer away, and the stream will go on at the start of a line
// of its own (Continued says why). Said before the stop, not only after it:
// the events that arrived meanwhile were shown as soon as the program went
// on, before the signal saying so reached Continued, at the column the
// view had reached (seen in tmux under bash: the line after fg unindented,
// folded by the terminal).
func (l *Live) Stopping() {
	l.mu.Lock()
	defer l.mu.Unlock()
	if l.json {
		return
	}
	if l.spin != nil {
		l.spin.pause()
	}
	l.hideFooter()
	l.lineLeft()
	l.stopSaid = true
}

// Continued tells the view that the program was continued after a stop
// (Ctrl+Z, fg): the shell wrote its lines meanwhile and left the cursor at
// the start of a line of its own. The stream goes on there, as a reply's
// line goes on: indented, wrapped from column 0 (the view went on as if at
// the column it had reached, so the rest of the line stood at column 0
// and the wrap broke it too early), and the footer it drew is gone. After
// Stopping, what was shown since went on where it should: only the footer
// is drawn again, if nothing drew it.
func (l *Live) Continued() {
	l.mu.Lock()
	defer l.mu.Unlock()
	if l.json {
		return
	}
	if l.stopSaid {
		l.stopSaid = false
		if len(l.foot.rows) == 0 {
			l.showFooter()
		}
		return
	}
	l.foot = footer{}
	l.lineLeft()
	l.showFooter()
}

// Resized tells the view that the terminal changed its size: the footer
// (the line being typed, the held lines), cut to the old width, is drawn
// again at the new one at once. It stayed as drawn until the next event or
// key, folded by the terminal into rows the view did not count, or cut
// short of a wider window.
func (l *Live) Resized() {
	l.mu.Lock()
	defer l.mu.Unlock()
	if l.json || len(l.foot.rows) == 0 {
		return
	}
	l.hideFooter()
	l.showFooter()
}

// lineLeft: the shell takes the screen, and leaves the cursor at a line's
// start; a paragraph in the middle goes on there.
func (l *Live) lineLeft() {
	if !l.atLineStart {
		l.softEnd = true
	}
	l.atLineStart, l.col = true, 0
}

// Handle renders one event. Events must arrive in log order.
func (l *Live) Handle(e debate.Event) {
	l.mu.Lock()
	defer l.mu.Unlock()
	defer func() {
		l.seen = e.Seq
		close(l.seenCh)
		l.seenCh = make(chan struct{})
	}()
	if l.json {
		_ = l.state.Apply(e)
		b, _ := json.Marshal(e) // the encoder escapes C0 control characters
		fmt.Fprintf(l.io.Out, "%s\n", textsafe.InertJSON(b))
		return
	}
	// Model output and topics are untrusted: whatever the view prints of an
	// event, its strings are made inert first.
	e.Data = textsafe.JSON(e.Data)
	_ = l.state.Apply(e)
	if l.spin != nil {
		l.spin.pause()
	}
	l.hideFooter()
	l.render(e)
	if !l.midLine() {
		l.flushHeld()
	}
	l.spinFor()
	l.showFooter()
}

// TakeInput says that the program reads the keys typed on the terminal
// itself, the terminal echoing none: the view draws the line being typed
// (Typing) and the acknowledgements it holds in a footer below the
// streamed text, which it takes away and draws again around what it
// prints, so that a streamed sentence goes on whole above them.
func (l *Live) TakeInput() {
	l.mu.Lock()
	defer l.mu.Unlock()
	l.input = !l.json
}

// Typing shows text as the line being typed, below the streamed text.
func (l *Live) Typing(text string) {
	l.mu.Lock()
	defer l.mu.Unlock()
	if !l.input {
		return
	}
	if l.spin != nil {
		l.spin.stop()
	}
	l.hideFooter()
	l.typing, l.typed = true, text
	l.showFooter()
}

// DoneTyping takes the line being typed away (it was entered, or
// emptied); what it asked for is said by the events it leads to.
func (l *Live) DoneTyping() {
	l.mu.Lock()
	defer l.mu.Unlock()
	l.hideFooter()
	l.typing, l.typed = false, ""
	l.spinFor()
	l.showFooter()
}

// Say prints a line of the view's own (why a typed hint was refused): on
// a line of its own, held, as a hint's acknowledgement is, until the
// streamed line ends.
func (l *Live) Say(line string) {
	l.mu.Lock()
	defer l.mu.Unlock()
	if l.spin != nil {
		l.spin.pause()
	}
	l.hideFooter()
	line = l.cs.Yellow(textsafe.Clean(line))
	if l.live != "" && l.midLine() {
		l.held = append(l.held, line)
	} else {
		l.ownLine(line)
	}
	l.spinFor()
	l.showFooter()
}

// NoteWriter returns a writer whose lines the view prints as its own, as
// Say does: what a library logs while a reply streams (a provider adapting
// its calls, EDGAR retrying) went to standard error in the middle of the
// streamed line.
func (l *Live) NoteWriter() io.Writer { return noteWriter{l} }

type noteWriter struct{ l *Live }

func (w noteWriter) Write(p []byte) (int, error) {
	for _, line := range strings.Split(strings.TrimRight(string(p), "\n"), "\n") {
		w.l.Say(line)
	}
	return len(p), nil
}

// footerLines are the footer's rows: the held lines, then the line being
// typed, each cut to the terminal's width less a column (a row that fills
// the last column leaves some terminals in a pending wrap).
func (l *Live) footerLines(width int) []string {
	if !l.input {
		return nil
	}
	var rows []string
	fit := func(s string) string {
		if width > 1 {
			s = ansi.Truncate(s, width-1, "…")
		}
		return s
	}
	for _, h := range l.held {
		rows = append(rows, fit(h))
	}
	if l.typing {
		// The end of the line typed shows, where the cursor is.
		prompt := l.cs.Cyan("›") + " "
		// Controls are not typed into the line, but a paste may bring
		// a bidirectional override.
		text := textsafe.Clean(l.typed)
		if room := width - 3; width > 1 && ansi.StringWidth(text) > room {
			text = ansi.TruncateLeft(text, ansi.StringWidth(text)-max(room-1, 1), "…")
		}
		rows = append(rows, prompt+text)
	}
	return rows
}

// showFooter draws the footer below the streamed text, the cursor left at
// its end: after the text typed.
func (l *Live) showFooter() {
	width := l.io.TerminalWidth()
	rows := l.footerLines(width)
	if len(rows) == 0 {
		return
	}
	var b strings.Builder
	l.foot = footer{below: !l.atLineStart, width: width}
	if l.foot.below {
		b.WriteString("\n")
	}
	for i, r := range rows {
		if i > 0 {
			b.WriteString("\n")
		}
		b.WriteString("\r\x1b[K" + r)
		l.foot.rows = append(l.foot.rows, ansi.StringWidth(r))
	}
	io.WriteString(l.out(), b.String())
}

// hideFooter takes the footer away and puts the cursor back where the
// streamed text ended. A terminal resized since the footer was drawn may
// have folded its rows and the stream's last line anew: the rows are
// counted at the new width, and the stream goes on at a line's start
// below its last line rather than at a column that may have moved.
func (l *Live) hideFooter() {
	if len(l.foot.rows) == 0 {
		return
	}
	width := l.io.TerminalWidth()
	up := -1
	for _, n := range l.foot.rows {
		up++
		if width > 0 && n > width {
			up += (n - 1) / width
		}
	}
	var b strings.Builder
	b.WriteString("\r")
	if up > 0 {
		fmt.Fprintf(&b, "\x1b[%dA", up)
	}
	b.WriteString("\x1b[J")
	if l.foot.below {
		if width == l.foot.width && (width <= 0 || l.col < width) {
			fmt.Fprintf(&b, "\x1b[A\x1b[%dG", l.col+1)
		} else {
			l.atLineStart, l.col = true, 0
		}
	}
	io.WriteString(l.out(), b.String())
	l.foot = footer{}
}

// Sync waits until the view has shown the event with sequence seq, or a
// moment has passed: a prompt must not appear before what it asks about.
func (l *Live) Sync(seq int64) {
	deadline := time.After(2 * time.Second)
	for {
		l.mu.Lock()
		seen, ch := l.seen, l.seenCh
		if l.spin != nil && seen >= seq {
			l.spin.stop()
		}
		l.mu.Unlock()
		if seen >= seq {
			return
		}
		select {
		case <-ch:
		case <-deadline:
			return
		}
	}
}

// Agents lists the agents a hint can be addressed to, moderators aside:
// those targets (SetTargets) finds in the debate's state as the view has it,
// else the agents that have taken turns so far.
func (l *Live) Agents() []string {
	l.mu.Lock()
	defer l.mu.Unlock()
	if l.targets != nil {
		return l.targets(l.state)
	}
	return l.state.Debaters()
}

// SetTargets sets how Agents reads the hint targets from the debate's state
// (app.App.HintTargets: the format knows its agents before they speak). Call
// it before the debate runs.
func (l *Live) SetTargets(targets func(*debate.State) []string) { l.targets = targets }

func (l *Live) out() io.Writer { return l.io.Out }

func (l *Live) printf(format string, a ...any) {
	s := fmt.Sprintf(format, a...)
	if s == "" {
		return
	}
	ended := strings.HasSuffix(s, "\n")
	if w := l.io.TerminalWidth(); w > 0 {
		s = l.wrap(s, w)
	}
	l.emit(s, ended)
}

// replyIndent starts every line of a reply's text in the view: only the
// view's own lines (a turn's heading, a phase's banner, a hint's
// acknowledgement) start at column 0, so that a reply cannot forge one
// where colour does not tell them apart (NO_COLOR, piped output, a log).
const replyIndent = ReplyIndent

// ReplyIndent starts every line of a reply wherever one is shown, as the
// view shows it: 'parley ask' prints its answer so too.
const ReplyIndent = "  "

// reply prints text of a reply (streamed or whole) or a move described:
// wrapped to the terminal's width less the indent, and every line of it,
// those the wrap makes too, indented.
func (l *Live) reply(s string) {
	if s == "" {
		return
	}
	ended := strings.HasSuffix(s, "\n")
	if w := l.io.TerminalWidth(); w > len(replyIndent)+1 {
		s, _ = WrapReply(s, max(l.col-len(replyIndent), 0), w-len(replyIndent))
	}
	l.emit(IndentLines(s, replyIndent, l.atLineStart), ended)
}

// IndentLines puts indent before every line of s that has text: the first
// when s starts a line (atStart), and each one after a newline.
func IndentLines(s, indent string, atStart bool) string {
	var b strings.Builder
	b.Grow(len(s) + len(s)/16)
	start := atStart
	for i := 0; i < len(s); i++ {
		if start && s[i] != '\n' {
			b.WriteString(indent)
		}
		b.WriteByte(s[i])
		start = s[i] == '\n'
	}
	return b.String()
}

// emit writes s, as printed (wrapped, indented), and keeps the column;
// ended says whether the text itself ended its line (not the wrap).
func (l *Live) emit(s string, ended bool) {
	io.WriteString(l.out(), s)
	l.atLineStart = strings.HasSuffix(s, "\n")
	l.softEnd = l.atLineStart && !ended
	if i := strings.LastIndexByte(s, '\n'); i >= 0 {
		l.col = visibleLen(s[i+1:])
	} else {
		l.col += visibleLen(s)
	}
}

// wrap breaks streamed text at spaces so that words are not cut at the
// terminal's edge; it continues from the current column, since text arrives
// in fragments.
func (l *Live) wrap(s string, width int) string {
	out, _ := Wrap(s, l.col, width)
	return out
}

// Wrap breaks text at spaces for a terminal width columns wide, starting at
// column col; it returns the text and the column it ends at. Lines are kept
// below the full width: a line that fills the last column leaves many
// terminals in a pending wrap, and the newline that follows then shows as a
// blank line in mid-sentence. A word longer than a line is left whole for the
// terminal to fold (see WrapReply).
func Wrap(s string, col, width int) (string, int) { return wrap(s, col, width, false) }

// WrapReply is Wrap for a reply's text, which is shown indented: a word
// longer than a line is broken where the line ends. Folded by the
// terminal, the rest of it went on at column 0, past the reply's indent,
// where a model could start a line that passes for one of the view's own
// without a space ("yyy…ymoderator: …"). (Wrap leaves such a word whole:
// a command in the view's own lines, copied, must be one line.)
func WrapReply(s string, col, width int) (string, int) { return wrap(s, col, width, true) }

func wrap(s string, col, width int, breakLong bool) (string, int) {
	if width <= 1 {
		return s, col
	}
	// A tab moves the cursor to the terminal's next tab stop, which the
	// width counted nothing for: a reply's tabs ran its line past the
	// edge, and the terminal went on with it at column 0. Four spaces,
	// as the shell shows a tab.
	s = strings.ReplaceAll(s, "\t", "    ")
	var b strings.Builder
	b.Grow(len(s) + len(s)/width + 1)
	// Spaces are written when a word follows them on the same line, so
	// that a line broken after them does not end with them. (Trimming
	// them from what was written copied all of it at each break: a reply
	// of a megabyte took four seconds.)
	spaces := 0
	for i := 0; i < len(s); {
		switch c := s[i]; {
		case c == '\n':
			b.WriteString(strings.Repeat(" ", spaces))
			spaces = 0
			b.WriteByte(c)
			col = 0
			i++
		case c == ' ':
			if col+1 >= width {
				// A space at the edge ends the line instead.
				spaces = 0
				b.WriteByte('\n')
				col = 0
			} else {
				spaces++
				col++
			}
			i++
		default:
			j := i
			for j < len(s) && s[j] != ' ' && s[j] != '\n' {
				j++
			}
			word := s[i:j]
			n := visibleLen(word)
			if col > 0 && col+n >= width {
				spaces = 0
				b.WriteByte('\n')
				col = 0
			}
			b.WriteString(strings.Repeat(" ", spaces))
			spaces = 0
			if breakLong && n >= width {
				pieces := ansi.Hardwrap(word, width-1, true)
				b.WriteString(pieces)
				col = visibleLen(pieces[strings.LastIndexByte(pieces, '\n')+1:])
				i = j
				continue
			}
			b.WriteString(word)
			col += n
			i = j
		}
	}
	b.WriteString(strings.Repeat(" ", spaces))
	return b.String(), col
}

// visibleLen is the number of terminal columns s takes, skipping ANSI
// escapes: a wide character (CJK, most emoji) takes two. Counted as one,
// lines of Japanese or Chinese words ran past the terminal's edge.
func visibleLen(s string) int { return ansi.StringWidth(s) }

// ownLine prints a line of the view's own (a hint's acknowledgement, a
// notice about a turn) on a line of its own, wrapped to the terminal with
// its continuation lines indented past its own indent: folded by the
// terminal, they went on at column 0, where only the view's headings and
// the first lines of its notes start.
func (l *Live) ownLine(s string) {
	l.newline()
	l.emit(foldLine(s, l.io.TerminalWidth(), true)+"\n", true)
}

// FoldLine wraps a line of the view's own, or of the program's printed
// around the view on a terminal width columns wide (the models line, the
// checkpoint's menu, the closing error), at spaces, its continuation lines
// indented past its own indent and marker, as the view's lines are: folded
// by the terminal they went on at column 0, where only headings start. A
// width of 0 (not a terminal) leaves it as it is.
func FoldLine(s string, width int) string { return foldLine(s, width, false) }

// foldLine is FoldLine; with breakLong a word longer than a line is
// broken where the line ends (WrapReply), for the view's lines that quote
// a model or a server (an error, a refused reply): folded by the
// terminal, its rest started a line at column 0.
func foldLine(s string, width int, breakLong bool) string {
	if width <= 0 {
		return s
	}
	// Continuation lines start under the text after the line's own
	// indent and its marker ("💡 ", "⚠ ", "⚙ "), or past the indent of
	// a reply's lines when it has none.
	plain := ansi.Strip(s)
	body := strings.TrimLeft(plain, " ")
	n := len(plain) - len(body) + len(replyIndent)
	if mark, _, ok := strings.Cut(body, " "); ok && !strings.ContainsFunc(mark, isWordRune) {
		n = len(plain) - len(body) + ansi.StringWidth(mark) + 1
	}
	indent := strings.Repeat(" ", n)
	if width < len(indent)+minFold {
		// Too narrow to fold with an indent: wrapped at spaces only.
		return must(wrap(s, 0, width, breakLong))
	}
	// Wrap copies text up to its first break as it is, so the rest
	// of s follows the first line, less the space broken at.
	first, _, folded := strings.Cut(must(wrap(s, 0, width, breakLong)), "\n")
	if folded {
		rest := strings.TrimLeft(strings.TrimPrefix(s[len(first):], "\n"), " ")
		s = first + "\n" + IndentLines(must(wrap(rest, 0, width-len(indent), breakLong)), indent, true)
	}
	return s
}

// minFold is the narrowest a folded line's continuation may be: on a
// terminal of 20 columns the view's lines (a heading with a perspective's
// name, which a model chose) still fold under their marker, not at
// column 0.
const minFold = 10

func isWordRune(r rune) bool { return unicode.IsLetter(r) || unicode.IsDigit(r) }

// must is the text of Wrap's answer.
func must(s string, _ int) string { return s }

// midLine reports whether the text streamed is in the middle of a line
// of its own, the terminal's line having ended at a word wrap or not.
func (l *Live) midLine() bool { return !l.atLineStart || l.softEnd }

func (l *Live) newline() {
	if !l.atLineStart {
		l.printf("\n")
	}
}

func (l *Live) render(e debate.Event) {
	switch e.Type {
	case debate.TypeCreated:
		// Folded under its indent, as the view's other lines are: the
		// wrap put the format's name at column 0.
		l.ownLine(l.cs.Bold("Debate "+e.Debate) + " " + l.cs.Dim("("+l.state.Format+")"))
		// A topic of several lines (one pasted, or sent to the API)
		// has its lines after the first indented, and folds under
		// them: only the view's own lines start at column 0.
		l.ownLine(IndentLines(strings.TrimRight(l.state.Topic, "\n"), replyIndent, false))
	case debate.TypeResumed:
		// The run before may have stopped in the middle of a reply.
		l.ownLine(l.cs.Dim(resumingLine(e.Debate, l.state)))
	case debate.TypePhase:
		var p debate.PhaseChanged
		if e.Decode(&p) == nil {
			l.newline()
			// Folded under its marker, as a turn's heading is: the
			// terminal folded a long phase's name to column 0.
			l.printf("\n")
			l.ownLine(l.cs.Bold("═══ " + p.Label + " ═══"))
		}
	case debate.TypeTurnStarted:
		var p debate.TurnStarted
		if e.Decode(&p) != nil {
			return
		}
		if p.Attempt > 1 && l.live == p.Turn.ID {
			l.ownLine(l.cs.Dim(fmt.Sprintf("↻ %s: attempt %d, from the start", label(p.Turn), p.Attempt)))
			return
		}
		if !contains(l.running, p.Turn.ID) {
			l.running = append(l.running, p.Turn.ID)
		}
		if l.live == "" {
			l.goLive(p.Turn.ID)
		}
	case debate.TypeTurnDelta:
		var p debate.TurnDelta
		if e.Decode(&p) == nil && p.Turn == l.live && !l.structured(p.Turn) {
			text := CompactSources(p.Text)
			if i := strings.LastIndexByte(text, '\n'); i >= 0 && len(l.held) > 0 {
				l.reply(text[:i+1])
				l.flushHeld()
				text = text[i+1:]
			}
			l.reply(text)
		}
	case debate.TypeTurnCompleted:
		var p debate.TurnCompleted
		if e.Decode(&p) != nil {
			return
		}
		l.running = remove(l.running, p.Turn.ID)
		if l.live == p.Turn.ID {
			l.endTurn(p.Turn.ID)
			l.live = ""
			for _, id := range l.finished {
				l.showWhole(id)
			}
			l.finished = nil
			if len(l.running) > 0 {
				l.goLive(l.running[0])
			}
		} else {
			l.finished = append(l.finished, p.Turn.ID)
		}
	case debate.TypeTurnFailed:
		var p debate.TurnFailed
		if e.Decode(&p) == nil {
			msg := fmt.Sprintf("⚠ %s: attempt %d failed: %s", l.labelOf(p.Turn), p.Attempt, errorLine(p.Error))
			if p.RetryIn > 0 {
				msg += fmt.Sprintf(" (retrying in %s)", p.RetryIn.Round(time.Millisecond))
			}
			l.notice(p.Turn, l.cs.Yellow(msg))
		}
	case debate.TypeTurnSuperseded:
		var p debate.TurnSuperseded
		if e.Decode(&p) == nil {
			if p.Partial != "" {
				l.notice(p.Turn, l.cs.Dim(fmt.Sprintf("(the interrupted reply of %s is kept in the log; it runs again from its start)", l.labelOf(p.Turn))))
			}
			// The turn runs again from its start: it gets its heading again.
			if l.live == p.Turn {
				l.endTurn(p.Turn)
				l.live = ""
			}
			l.running = remove(l.running, p.Turn)
			delete(l.shown, p.Turn)
		}
	case debate.TypeTurnRepair:
		var p debate.TurnRepair
		if e.Decode(&p) == nil {
			l.notice(p.Turn, l.cs.Yellow(fmt.Sprintf("⚠ %s: reply refused (%s); asking once more", l.labelOf(p.Turn), errorLine(p.Error))))
		}
	case debate.TypeToolCalled:
		var p debate.ToolCalled
		if e.Decode(&p) == nil {
			// A turn running beside the live one keeps its calls for
			// when it is shown, under its own heading.
			l.notice(p.Turn, l.cs.Dim(fmt.Sprintf("  ⚙ %s %s", p.Call.Name, abbrev(string(p.Call.Args), 80))))
		}
	case debate.TypeToolResult:
		var p debate.ToolResult
		if e.Decode(&p) == nil {
			status := "ok"
			if p.Cached {
				status = "cache hit"
			}
			if p.IsError {
				status = "error: " + abbrev(p.Content, 80)
			}
			l.notice(p.Turn, l.cs.Dim("    → "+status))
		}
	case debate.TypeHintQueued:
		var p debate.HintQueued
		if e.Decode(&p) == nil {
			line := l.cs.Cyan(hintLine(l.state, p))
			if l.live != "" && l.midLine() {
				l.held = append(l.held, line)
				return
			}
			l.ownLine(line)
		}
	case debate.TypeBudgetWarning:
		var p debate.BudgetWarning
		if e.Decode(&p) == nil {
			line := l.cs.Yellow(fmt.Sprintf("⚠ token budget: %s used %d of %d", p.Scope, p.Used, p.Budget))
			if p.Turn != "" {
				// Under the turn's own heading, not the live one's.
				l.notice(p.Turn, line)
				return
			}
			l.ownLine(line)
		}
	case debate.TypeCheckpoint:
		var p debate.CheckpointReached
		if e.Decode(&p) == nil {
			l.newline()
			if p.Round > 0 {
				l.printf("\n")
				l.ownLine(l.cs.Bold(fmt.Sprintf("═══ Round %d Complete ═══", p.Round)))
				// The summary is the moderator's text: its lines after
				// the first are indented as a reply's, so that none
				// opens at column 0 as the view's own.
				l.printf("Moderator: ")
				l.reply(strings.TrimRight(p.Summary, "\n") + "\n")
				l.printf("\n")
			} else {
				// A summary that quotes the moderator (the question of
				// a clarification) has its lines after the first
				// indented and folds under them: none opens at column 0.
				l.printf("\n")
				l.ownLine(IndentLines(strings.TrimRight(p.Summary, "\n"), replyIndent, false))
				l.printf("\n")
			}
		}
	case debate.TypePaused:
		var p debate.Paused
		if e.Decode(&p) == nil {
			msg := "Paused: " + p.Reason
			if p.Detail != "" {
				msg += " (" + errorLine(p.Detail) + ")"
			}
			l.ownLine(l.cs.Yellow(msg))
		}
	case debate.TypeFailed:
		var p debate.Failed
		if e.Decode(&p) == nil {
			l.ownLine(l.cs.Red("Failed: " + errorLine(p.Error)))
		}
	case debate.TypeCompleted:
		l.newline()
	default:
		if strings.HasPrefix(e.Type, debate.TypeFormatEventPrefix) {
			var n debate.Note
			if json.Unmarshal(e.Data, &n) == nil && n.Text != "" {
				// A note quotes model text (crux's refused message):
				// one line, folded under its marker.
				l.ownLine(l.cs.Magenta("• " + errorLine(n.Text)))
			}
		}
	}
}

func (l *Live) structured(id string) bool {
	t := l.state.Turns[id]
	return t != nil && t.Structured
}

func (l *Live) labelOf(id string) string {
	if t := l.state.Turns[id]; t != nil {
		return label(t.TurnRef)
	}
	return id
}

// label is how the view heads turn t (report.TurnLabel: one line, bounded).
func label(t debate.TurnRef) string { return report.TurnLabel(t) }

func (l *Live) header(t *debate.Turn) {
	l.newline()
	h := "── " + label(t.TurnRef)
	if t.Round > 0 {
		h += fmt.Sprintf(" (round %d)", t.Round)
	}
	h += " ──"
	// Folded under its marker: the label holds a name a model may have
	// chosen (a perspective's, a persona's), which folded by the
	// terminal went on at column 0.
	l.printf("\n")
	l.ownLine(l.cs.Agent(t.Agent, h))
}

// notice prints a line about a turn under its own heading: now when it is
// the turn streaming (or none is), else when the turn is shown.
func (l *Live) notice(turn, line string) {
	if l.live != "" && l.live != turn {
		l.later[turn] = append(l.later[turn], line)
		return
	}
	l.ownLine(line)
}

// flushHeld prints the lines held until the live turn's line ended.
func (l *Live) flushHeld() {
	for _, line := range l.held {
		l.ownLine(line)
	}
	l.held = nil
}

// flushLater prints the notices kept for a turn, under its heading.
func (l *Live) flushLater(id string) {
	for _, line := range l.later[id] {
		l.ownLine(line)
	}
	delete(l.later, id)
}

func (l *Live) goLive(id string) {
	t := l.state.Turns[id]
	if t == nil {
		return
	}
	l.live = id
	l.header(t)
	l.flushLater(id)
	// The text it streamed while another turn was live is a reply's:
	// wrapped and indented as the rest of it will be, never at column 0.
	if !t.Structured && t.Text != "" {
		l.reply(CompactSources(t.Text))
	}
}

// endTurn finishes the live turn's output.
func (l *Live) endTurn(id string) {
	t := l.state.Turns[id]
	if t == nil {
		return
	}
	// A turn cut off (superseded, to run again) has no move to describe:
	// its description was an empty line, a second blank line before the
	// turn's heading again.
	if t.Structured && l.describe != nil && t.Status == debate.TurnDone {
		if d := strings.TrimRight(l.describe(t), "\n"); d != "" {
			l.reply(d + "\n")
		}
	}
	if t.Invalid != "" {
		l.ownLine(l.cs.Yellow("⚠ unusable reply: " + errorLine(t.Invalid)))
	}
	l.newline()
	// A hint typed while the turn streamed is acknowledged under it,
	// before the turns that ran beside it are shown.
	l.flushHeld()
	l.shown[id] = true
	if !t.Structured {
		for _, line := range strings.Split(t.Text, "\n") {
			if k, ok := bulletKey(line); ok {
				l.bullets[k] = true
			}
		}
	}
}

// bulletKey is a top-level list item as the terminal shows it (one short
// source mark), to compare items printed in turns with a document's.
func bulletKey(line string) (string, bool) {
	item, ok := strings.CutPrefix(strings.TrimRight(line, " \r"), "- ")
	if !ok {
		return "", false
	}
	item = strings.TrimSpace(CompactSources(item))
	return item, item != ""
}

// Fresh returns doc, a document printed after the debate (the decision),
// without the lists the turns already printed word for word: a list whose
// every item a turn printed is replaced by one line saying so, so that each
// item shows once on the terminal. A list with any new item stays whole.
func (l *Live) Fresh(doc string) string {
	l.mu.Lock()
	defer l.mu.Unlock()
	lines := strings.Split(doc, "\n")
	out := make([]string, 0, len(lines))
	for i := 0; i < len(lines); {
		j := i
		all := true
		for ; j < len(lines); j++ {
			k, ok := bulletKey(lines[j])
			if !ok {
				break
			}
			all = all && l.bullets[k]
		}
		switch {
		case j == i:
			out = append(out, lines[i])
			i++
			continue
		case all:
			out = append(out, fmt.Sprintf("(the %d points printed above)", j-i))
		default:
			out = append(out, lines[i:j]...)
		}
		i = j
	}
	return strings.Join(out, "\n")
}

func (l *Live) showWhole(id string) {
	t := l.state.Turns[id]
	if t == nil || l.shown[id] {
		return
	}
	l.header(t)
	l.flushLater(id)
	if !t.Structured {
		l.reply(CompactSources(t.Text))
	}
	l.endTurn(id)
}

var (
	// xbrlTagsRe is a list of the XBRL tags a figure came from, as
	// "[NetIncomeLoss 2026-01-25; Assets 2025-01-26]".
	xbrlTagsRe = sync.OnceValue(func() *regexp.Regexp {
		return regexp.MustCompile(` ?\[[A-Za-z]+ \d{4}-\d{2}-\d{2}(?:; [A-Za-z]+ \d{4}-\d{2}-\d{2})*\]`)
	})
	// filingsRe is a list of filings, as "(10-K 0001045810-26-000021;
	// 10-Q 0001045810-26-000052)".
	filingsRe = sync.OnceValue(func() *regexp.Regexp {
		return regexp.MustCompile(`\((10-[KQ](?:/A)? \d{10}-\d{2}-\d{6})((?:; 10-[KQ](?:/A)? \d{10}-\d{2}-\d{6})+)\)`)
	})
)

// CompactSources keeps one short source mark per figure in the terminal: the
// XBRL tag lists go, and a list of filings shows its first; the log and the
// exports keep the whole provenance.
func CompactSources(text string) string {
	text = xbrlTagsRe().ReplaceAllString(text, "")
	return filingsRe().ReplaceAllStringFunc(text, func(m string) string {
		sub := filingsRe().FindStringSubmatch(m)
		return fmt.Sprintf("(%s +%d)", sub[1], strings.Count(sub[2], ";"))
	})
}

// spinFor shows the spinner while the live turn has produced nothing
// visible yet.
func (l *Live) spinFor() {
	if l.spin == nil || l.live == "" || l.typing {
		return
	}
	t := l.state.Turns[l.live]
	if t == nil || t.Status != debate.TurnRunning {
		return
	}
	if t.Structured || t.Text == "" {
		l.spin.start(label(t.TurnRef) + " is thinking…")
	}
}

func contains(list []string, s string) bool {
	for _, x := range list {
		if x == s {
			return true
		}
	}
	return false
}

func remove(list []string, s string) []string {
	out := list[:0]
	for _, x := range list {
		if x != s {
			out = append(out, x)
		}
	}
	return out
}

// resumingLine says where a resumed debate goes on, in the words the
// transcript used: the phase it stood at and the turns already done ("from
// event 107" named an internal counter).
func resumingLine(id string, s *debate.State) string {
	return "Resuming debate " + id + ResumedAt(s)
}

// ResumedAt says where a resumed debate goes on, for a line that names the
// resume: " at Round 1: moderator evaluation (9 turns done)".
func ResumedAt(s *debate.State) string {
	at := ""
	if s.Phase.Label != "" {
		at = " at " + textsafe.Clean(s.Phase.Label)
	}
	switch n := len(s.Done); n {
	case 0:
		return at + " (no turn done yet)"
	case 1:
		return at + " (1 turn done)"
	default:
		return fmt.Sprintf("%s (%d turns done)", at, n)
	}
}

// hintLine is the spec's acknowledgement of a hint ("💡 Hint queued for
// Bull"), with the agent named as the transcript names it and the hint
// itself, cut short, so that a hint typed while text streams can be seen to
// have been read as meant.
func hintLine(s *debate.State, h debate.HintQueued) string {
	who := report.AgentNamer(s)(h.Target)
	if h.Target == debate.HintAll {
		who = "every agent"
		if s.Format == "bullbear" {
			who = "both sides"
		}
	}
	return fmt.Sprintf("💡 Hint queued for %s: %s", who, abbrev(textsafe.Clean(h.Text), 60))
}

// errorLine is an error's text on one line: a server's error or a refused
// reply quotes text from outside, whose line breaks would write lines at
// column 0 that pass for the view's own headings.
func errorLine(s string) string { return textsafe.Line(s, 2000) }

func abbrev(s string, n int) string {
	s = strings.Join(strings.Fields(s), " ")
	if len(s) > n {
		// Cut at a character's start: half a character is an invalid
		// byte on the terminal (tool arguments and errors quote model
		// output, in any script).
		cut := n - 1
		for cut > 0 && !utf8.RuneStart(s[cut]) {
			cut--
		}
		return s[:cut] + "…"
	}
	return s
}

// spinner draws a one-line activity indicator on the error stream, so that
// it never mixes into output that is piped or captured.
type spinner struct {
	w     io.Writer
	width func() int // the terminal's columns now; 0 if unknown
	// io restores the terminal if the spinner's goroutine panics; nil
	// for none.
	io     *iostreams.IOStreams
	mu     sync.Mutex
	text   string
	active bool
	quit   chan struct{}
	done   chan struct{}
}

func newSpinner(w io.Writer, width func() int) *spinner { return &spinner{w: w, width: width} }

// start shows text after a turning frame until stop. The line is cut to
// the terminal's width at each frame: "\r\x1b[K" clears only the line the
// cursor is on, so a line that wrapped would leave its first part behind at
// every frame, a new line of it ten times a second (an agent's label is a
// persona's name and title, which a model writes), and a terminal made
// narrower while it turns would wrap it.
func (s *spinner) start(text string) {
	s.mu.Lock()
	s.text = text
	if s.active {
		s.mu.Unlock()
		return
	}
	s.active = true
	s.quit, s.done = make(chan struct{}), make(chan struct{})
	quit, done := s.quit, s.done
	s.mu.Unlock()
	go func() {
		defer s.io.RestoreOnPanic()
		defer close(done)
		frames := []string{"⠋", "⠙", "⠹", "⠸", "⠼", "⠴", "⠦", "⠧", "⠇", "⠏"}
		t := time.NewTicker(100 * time.Millisecond)
		defer t.Stop()
		for i := 0; ; i++ {
			s.mu.Lock()
			text := s.text
			if w := s.width(); w > 0 {
				// The frame and a space take two columns; the
				// last column is left free, as some terminals
				// wrap when it is written.
				text = ansi.Truncate(text, max(w-3, 1), "…")
			}
			fmt.Fprintf(s.w, "\r\x1b[K%s %s", frames[i%len(frames)], text)
			s.mu.Unlock()
			select {
			case <-quit:
				s.mu.Lock()
				fmt.Fprint(s.w, "\r\x1b[K")
				s.mu.Unlock()
				return
			case <-t.C:
			}
		}
	}()
}

// pause clears the spinner line before other output.
func (s *spinner) pause() { s.stop() }

func (s *spinner) stop() {
	s.mu.Lock()
	if !s.active {
		s.mu.Unlock()
		return
	}
	s.active = false
	close(s.quit)
	done := s.done
	s.mu.Unlock()
	<-done
}
