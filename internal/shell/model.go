package shell

import (
	"context"
	"fmt"
	"slices"
	"strings"
	"time"
	"unicode/utf8"

	"charm.land/bubbles/v2/spinner"
	"charm.land/bubbles/v2/textinput"
	"charm.land/bubbles/v2/viewport"
	tea "charm.land/bubbletea/v2"
	"charm.land/lipgloss/v2"
	"github.com/charmbracelet/x/ansi"

	"github.com/parleyhq/parley/internal/app"
	"github.com/parleyhq/parley/internal/debate"
	"github.com/parleyhq/parley/internal/format/bullbear"
	"github.com/parleyhq/parley/internal/report"
	"github.com/parleyhq/parley/internal/sec/edgar"
	"github.com/parleyhq/parley/internal/textsafe"
)

// belowLines is how many lines under the input line show what the shell
// says about what was typed (a hint queued, completions, a question).
const belowLines = 2

// Model is the shell's Bubble Tea model. Update handles one message and
// returns the work to do next; long work (starting a debate, running it,
// answering a follow-up) runs in goroutines that report back with messages
// through send.
type Model struct {
	opts Options
	app  *app.App
	ctx  context.Context
	// send delivers a message to Update from another goroutine (the
	// program's Send; tests collect them).
	send func(tea.Msg)
	st   styles
	loc  *time.Location

	width, height int
	// shown is what the viewport holds: the transcript's generation and
	// the live block's lines then (see refresh).
	shown struct {
		gen  int
		live []string
	}
	vp      viewport.Model
	input   textinput.Model
	spin    spinner.Model
	ticking bool
	tr      *transcript

	below []belowLine // under the input line
	// completions is true while below lists what Tab found for the input
	// line as it was: an edit makes the list stale, and it goes.
	completions bool

	run      *run                   // the debate running, nil when none
	current  string                 // the debate the shell is on (for /ask, /cost, /resume)
	views    map[string]*debateView // per debate: what has been shown
	ask      *asking
	question *question
	check    *checkpoint
	busy     string    // what the shell is waiting for ("Starting NVDA…"), "" for nothing
	since    time.Time // when the wait began
	history  *history
	quitArm  bool // Ctrl+C was pressed once at the prompt
	quitting bool // leaving once the running debate has paused
	// leftPaused is the debate the shell paused to leave, to name once
	// its screen is gone.
	leftPaused string
	models     app.Models
	tickers    *edgar.TickerIndex
}

// New returns the shell's model. Its send must be set before a debate runs
// (Run sets it to the program's Send).
func New(ctx context.Context, opts Options) *Model {
	a := *opts.App
	if opts.Theme == "" {
		opts.Theme = ThemeAuto
	}
	// Until the terminal says what its background is (and if it never
	// does), COLORFGBG guesses it, where the terminal sets it; without it
	// the palette is the dark one.
	dark := opts.Theme != ThemeLight
	if opts.Theme == ThemeAuto && opts.Color {
		if d, ok := darkFromColorFGBG(opts.ColorFGBG); ok {
			dark = d
		}
	}
	m := &Model{opts: opts, app: &a, ctx: ctx, st: newStyles(opts.Color, dark), loc: opts.Location, views: map[string]*debateView{}}
	if m.loc == nil {
		m.loc = time.Local
	}
	// Setup notices ("SEC data: …") belong in the transcript.
	a.Env.Notice = noticeWriter{m: m}
	a.DataPace = opts.Pace
	m.tr = newTranscript(m.st)
	m.vp = viewport.New()
	m.vp.MouseWheelEnabled = true
	m.input = textinput.New()
	m.input.Prompt = "› "
	m.input.CharLimit = maxInput
	m.input.SetVirtualCursor(false)
	m.styleInput()
	m.input.Focus()
	m.spin = spinner.New(spinner.WithSpinner(spinner.MiniDot))
	m.history = loadHistory(opts.HistoryFile)
	m.say(dim, "Parley shell. Start a debate with /debate TOPIC|TICKER, or ask in words: \"Give me both sides of NVDA\". /help lists the commands.")
	return m
}

// maxInput bounds the input line, in characters: the longest line that
// means something (a hint of app.MaxHintLen, "AGENT: " before it) with
// room to spare. A paste of megabytes took the shell seconds to take,
// and was echoed whole into the transcript.
const maxInput = app.MaxHintLen + 1000

// styleInput gives the input line the shell's looks.
func (m *Model) styleInput() {
	ist := textinput.DefaultStyles(m.st.dark)
	// The input's own placeholder grey is too pale on black: the shell's
	// dim instead, which is faint text without colour.
	ist.Focused = textinput.StyleState{Text: lipgloss.NewStyle(), Placeholder: m.st.dim, Suggestion: m.st.dim, Prompt: m.st.prompt}
	ist.Blurred = ist.Focused
	ist.Cursor.Color = nil
	if m.st.color {
		ist.Cursor.Color = lipgloss.Color(m.st.pal.cursor)
	}
	m.input.SetStyles(ist)
}

// Init implements tea.Model: with the auto theme, it asks the terminal for
// its background colour. The answer comes as a message when it comes, so
// start-up never waits for it; a terminal that does not answer keeps the
// first guess (COLORFGBG's, else dark).
func (m *Model) Init() tea.Cmd {
	if m.opts.Color && m.opts.Theme == ThemeAuto {
		return tea.RequestBackgroundColor
	}
	return nil
}

// setDark switches to the dark palette or the light one and renders the
// transcript again in it.
func (m *Model) setDark(dark bool) {
	if !m.opts.Color || m.st.dark == dark {
		return
	}
	m.st = newStyles(m.opts.Color, dark)
	m.styleInput()
	m.tr.restyle(m.st)
}

// now is the clock of the debates the shell runs.
func (m *Model) now() time.Time {
	if m.app.Env.Now != nil {
		return m.app.Env.Now()
	}
	return time.Now()
}

// noticeWriter puts a format's setup notices in the transcript.
type noticeWriter struct{ m *Model }

func (w noticeWriter) Write(p []byte) (int, error) {
	if w.m.send != nil {
		w.m.send(noticeMsg{text: strings.TrimRight(string(p), "\n")})
	}
	return len(p), nil
}

type noticeMsg struct{ text string }

// Update implements tea.Model.
func (m *Model) Update(msg tea.Msg) (tea.Model, tea.Cmd) {
	var cmds []tea.Cmd
	switch msg := msg.(type) {
	case tea.WindowSizeMsg:
		// Whether the view follows the end is decided before the
		// transcript is wrapped anew: a narrower window makes more lines,
		// and the old offset would no longer be at the bottom.
		follow := m.width == 0 || m.vp.AtBottom()
		m.width, m.height = msg.Width, msg.Height
		m.layout()
		m.vp.SetContentLines(m.tr.Lines())
		m.shown.gen = -1
		if follow {
			m.vp.GotoBottom()
		}
	case tea.KeyPressMsg:
		cmds = append(cmds, m.key(msg))
	case tea.PasteMsg:
		room := maxInput - utf8.RuneCountInString(m.input.Value())
		var cmd tea.Cmd
		m.input, cmd = m.input.Update(msg)
		cmds = append(cmds, cmd)
		if utf8.RuneCountInString(msg.Content) > room {
			m.setBelow(fmt.Sprintf("The paste was cut: a line takes up to %s characters (a hint up to %s, a topic or a question up to %s).",
				report.Thousands(maxInput), report.Thousands(app.MaxHintLen), report.Thousands(app.MaxTopicLen)))
		}
	case tea.MouseWheelMsg:
		var cmd tea.Cmd
		m.vp, cmd = m.vp.Update(msg)
		cmds = append(cmds, cmd)
	case spinner.TickMsg:
		if !m.waiting() {
			m.ticking = false
			break
		}
		var cmd tea.Cmd
		m.spin, cmd = m.spin.Update(msg)
		cmds = append(cmds, cmd)
	case noticeMsg:
		m.say(dim, clean(msg.text))
	case tea.BackgroundColorMsg:
		// The terminal's answer at start-up, or a change it reports
		// later; a fixed theme ignores it.
		if m.opts.Theme == ThemeAuto {
			m.setDark(msg.IsDark())
		}
	default:
		cmds = append(cmds, m.handle(msg))
	}
	if m.waiting() && !m.ticking {
		m.ticking = true
		cmds = append(cmds, m.spin.Tick)
	}
	m.refresh()
	return m, tea.Batch(cmds...)
}

// key handles a key press. The completions listed under the input line
// go once the line they were found for is edited (typed, recalled,
// cleared), and the prompt of a question or checkpoint that waits, which
// they took the place of, comes back.
func (m *Model) key(k tea.KeyPressMsg) tea.Cmd {
	before := m.input.Value()
	cmd := m.press(k)
	// Tab itself extends the word to what the completions share.
	if m.completions && k.String() != "tab" && m.input.Value() != before {
		m.clearBelow()
	}
	return cmd
}

// press handles a key press: the keys the shell takes, else the input
// line's editing keys.
func (m *Model) press(k tea.KeyPressMsg) tea.Cmd {
	s := k.String()
	if s != "ctrl+c" {
		m.quitArm = false
	}
	switch s {
	case "ctrl+c":
		return m.interrupt()
	case "ctrl+d":
		return m.quit()
	case "ctrl+z":
		// As a shell's job control stops a program: the terminal is
		// given back as it was, and fg takes it again. The screen took
		// the key (it reads keys raw) and did nothing.
		return tea.Suspend
	case "enter":
		line := m.input.Value()
		m.input.SetValue("")
		m.history.reset()
		// What follows the line is what the user wants to see.
		m.vp.GotoBottom()
		return m.submit(line)
	case "tab":
		m.complete()
		return nil
	case "up":
		if v, ok := m.history.prev(m.input.Value()); ok {
			m.input.SetValue(v)
			m.input.CursorEnd()
		}
		return nil
	case "down":
		if v, ok := m.history.next(); ok {
			m.input.SetValue(v)
			m.input.CursorEnd()
		}
		return nil
	case "pgup":
		m.vp.PageUp()
		return nil
	case "pgdown":
		m.vp.PageDown()
		return nil
	}
	var cmd tea.Cmd
	m.input, cmd = m.input.Update(k)
	return cmd
}

// interrupt is Ctrl+C: it stops what runs (the debate pauses, a follow-up
// is dropped), else clears the input, else asks to press it again to leave.
func (m *Model) interrupt() tea.Cmd {
	switch {
	case m.ask != nil:
		m.ask.cancel()
		m.setBelow("Stopping the follow-up…")
		return nil
	case m.run != nil && !m.run.stopping:
		m.run.stopping = true
		m.run.cancel()
		if m.check != nil {
			// What was typed answered the checkpoint, which no longer
			// waits: Enter would take it for a request (a question typed
			// as guidance could start a debate).
			m.input.SetValue("")
		}
		m.setBelow("Pausing the debate…")
		return nil
	case m.question != nil:
		m.question = nil
		m.setBelow("Question dropped.")
		return nil
	case m.input.Value() != "":
		m.input.SetValue("")
		return nil
	case m.quitArm:
		return m.quit()
	}
	m.quitArm = true
	m.setBelow("Press Ctrl+C again to leave (or Ctrl+D, /quit).")
	return nil
}

// quit leaves the shell; a running debate is paused first.
func (m *Model) quit() tea.Cmd {
	m.quitting = true
	if m.ask != nil {
		m.ask.cancel()
	}
	if m.run != nil {
		if !m.run.stopping {
			m.run.stopping = true
			m.run.cancel()
		}
		m.setBelow("Pausing the debate before leaving…")
		return nil
	}
	return tea.Quit
}

// shutdown pauses a debate still running when the program has ended (a
// signal, Ctrl+D, /quit), and waits until its pause is recorded; note says
// that it is paused and how to go on, for the terminal once the shell's
// screen is gone.
func (m *Model) shutdown() (note string) {
	if m.ask != nil {
		m.ask.cancel()
	}
	if r := m.run; r != nil {
		r.cancel()
		<-r.finished
		r.subCancel()
		// Said once the screen is back: the shell left with the debate
		// paused and nothing said of it, or of how to go on.
		if sum, err := m.app.Store.Get(context.WithoutCancel(m.ctx), r.id); err == nil && sum.Status == debate.StatusPaused {
			m.leftPaused = r.id
		}
	}
	if id := m.leftPaused; id != "" {
		note = fmt.Sprintf("Debate %s is paused: 'parley debate --resume %s' (or /resume in the shell) goes on with it.", id, id)
	}
	return note
}

// waiting reports whether the spinner shows: something was asked and
// nothing visible has come back yet.
func (m *Model) waiting() bool {
	if m.busy != "" {
		return true
	}
	if m.ask != nil && m.ask.block != nil && m.ask.block.text() == "" {
		return true
	}
	if m.run != nil {
		if v := m.views[m.run.id]; v != nil && v.live != "" {
			t := v.state.Turns[v.live]
			return t != nil && (hidden(t) || t.Text == "")
		}
		return !m.run.stopping && m.check == nil
	}
	return false
}

// wait starts the spinner for what the shell now waits on.
func (m *Model) wait(what string) {
	m.busy, m.since = what, m.now()
}

// belowLine is a line under the input line, kept unstyled so that it is
// drawn in the palette of the moment.
type belowLine struct {
	class class
	text  string
}

// clearBelow empties the lines under the input line but for the prompt of
// a question or checkpoint that waits.
func (m *Model) clearBelow() {
	if p := m.pendingPrompt(); p != "" {
		m.setBelow(p)
		return
	}
	m.setBelow()
}

// setBelow puts plain lines under the input line.
func (m *Model) setBelow(lines ...string) {
	m.completions = false
	m.below = m.below[:0]
	for _, l := range lines {
		m.below = append(m.below, belowLine{plain, l})
	}
}

// say adds a line to the transcript.
func (m *Model) say(c class, text string) {
	m.tr.add(&block{segs: []segment{{meta: true, class: c, text: text}}})
}

// echo shows what the user typed in the transcript, as a chat shows a
// message: commands and questions, never hints.
func (m *Model) echo(line string) {
	m.tr.add(&block{gap: true, segs: []segment{{meta: true, class: hint, text: "› " + clean(line)}}})
}

// layout sizes the viewport to the window.
func (m *Model) layout() {
	m.tr.resize(m.width)
	m.vp.SetWidth(m.width)
	m.vp.SetHeight(max(1, m.height-2-belowLines))
	m.input.SetWidth(max(1, m.width-ansi.StringWidth(m.input.Prompt)-1))
}

// refresh puts the transcript in the viewport, following the end unless
// the user scrolled up.
func (m *Model) refresh() {
	if m.width == 0 {
		return
	}
	follow := m.vp.AtBottom()
	lines := m.tr.Lines()
	// The viewport measures every line it is given: with a long
	// transcript (a reply of a megabyte is 13,000 lines) that took tens
	// of milliseconds, at every key, every frame of the spinner. It is
	// given the lines again only when they changed.
	live := lines[len(m.tr.lines):]
	if m.shown.gen == m.tr.gen && slices.Equal(live, m.shown.live) {
		m.input.Placeholder = m.placeholder()
		return
	}
	m.shown.gen, m.shown.live = m.tr.gen, slices.Clone(live)
	m.vp.SetContentLines(lines)
	if follow {
		m.vp.GotoBottom()
	}
	m.input.Placeholder = m.placeholder()
}

func (m *Model) placeholder() string {
	switch {
	case m.question != nil:
		return m.question.placeholder
	case m.check != nil:
		return m.check.placeholder()
	case m.run != nil:
		agent, text := m.hintExample()
		return "a hint, e.g. " + agent + ": " + text + " · Ctrl+C pauses"
	case m.ask != nil:
		return "Ctrl+C stops the answer"
	}
	return "/debate TOPIC|TICKER, a question like \"Give me both sides of NVDA\", or /help"
}

// hintExample is an example hint for the running debate, addressed to one
// of its own agents: "bull" means nothing in a perspectives debate.
func (m *Model) hintExample() (agent, text string) {
	v := m.views[m.run.id]
	if v == nil || v.state.Format == bullbear.Name {
		return "bull", "mention the new AI chip"
	}
	if t := m.hintTargets(v); len(t) > 0 {
		return t[0], "weigh the running cost"
	}
	return "AGENT", "TEXT"
}

// View implements tea.Model.
func (m *Model) View() tea.View {
	if m.width == 0 {
		return tea.NewView("")
	}
	var b strings.Builder
	b.WriteString(m.vp.View())
	b.WriteString("\n")
	b.WriteString(m.statusLine())
	b.WriteString("\n")
	// What is typed or pasted may hold a right-to-left override or the
	// like, which would reorder the line as shown: escape them, as all
	// other text the shell shows is (the widget has styled the line, so
	// only those, not its ANSI sequences), and keep the line to the width.
	b.WriteString(ansi.Truncate(textsafe.Styled(m.input.View()), m.width, "…"))
	below := m.belowRows()
	for i := range belowLines {
		b.WriteString("\n")
		if i < len(below) {
			line := ansi.Truncate(below[i].text, m.width, "…")
			if below[i].class != plain {
				line = m.tr.classStyle(below[i].class).Render(line)
			}
			b.WriteString(line)
		}
	}
	v := tea.NewView(b.String())
	v.AltScreen = true
	v.MouseMode = tea.MouseModeCellMotion
	v.WindowTitle = "parley"
	if c := m.input.Cursor(); c != nil {
		c.Y += m.vp.Height() + 1
		v.Cursor = c
	}
	return v
}

// belowRows are the rows under the input line: the lines below wrapped to
// the width when they fit in belowLines rows that way (a question ends in
// its "[y/N]", which a cut line hid), else the last belowLines lines, each
// cut to the width.
func (m *Model) belowRows() []belowLine {
	var rows []belowLine
	for _, l := range m.below {
		for _, r := range strings.Split(ansi.Wrap(l.text, max(1, m.width-1), ""), "\n") {
			rows = append(rows, belowLine{l.class, r})
		}
	}
	if m.width > 1 && len(rows) <= belowLines {
		return rows
	}
	if len(m.below) > belowLines {
		return m.below[len(m.below)-belowLines:]
	}
	return m.below
}

// statusLine shows the format, where the debate is and what it cost, and
// while the shell waits a spinner with the time waited and the tokens used.
func (m *Model) statusLine() string {
	var format, topic string
	var rest []string
	if v := m.views[m.current]; v != nil && v.state.ID != "" {
		s := v.state
		format, topic = s.Format, clean(s.Topic)
		switch {
		case s.Phase.Label != "":
			rest = append(rest, s.Phase.Label)
		case s.Phase.Round > 0:
			rest = append(rest, fmt.Sprintf("round %d", s.Phase.Round))
		}
		status := s.Status
		if m.check != nil && m.run != nil && m.run.id == s.ID {
			// A checkpoint waits for its answer in the input line: say so
			// from the moment it asks, before the log's event (the
			// checkpoint, or the resume at it) reaches this view.
			status = debate.StatusCheckpoint
		}
		rest = append(rest, string(status), spent(v).Cell())
	} else {
		rest = append(rest, "parley", "no debate yet")
	}
	wait := ""
	if m.waiting() {
		wait = "  " + m.spin.View() + " " + m.waitLine()
	}
	line := fitStatus(m.width, format, topic, rest, wait)
	if pad := m.width - ansi.StringWidth(line); pad > 0 {
		line += strings.Repeat(" ", pad)
	}
	return m.st.status.Render(line)
}

// Topic cells in the status line: at most maxStatusTopic, and at least
// minStatusTopic (or the whole topic) while other parts make room.
const (
	maxStatusTopic = 40
	minStatusTopic = 12
)

// fitStatus composes the status line in width cells: format · topic ·
// rest (phase, status, cost), then wait. The line is cut at its end, and
// its end says what the debate does now (its status, its cost, the spinner
// and the agent it waits for, the only sign that a long turn is alive), so
// what gives way first is what the transcript already shows: the topic is
// cut down to minStatusTopic cells, then the format is left out, then the
// topic, and only then is the end cut.
func fitStatus(width int, format, topic string, rest []string, wait string) string {
	compose := func(format, topic string) string {
		var parts []string
		for _, p := range append([]string{format, topic}, rest...) {
			if p != "" {
				parts = append(parts, p)
			}
		}
		return " " + strings.Join(parts, " · ") + wait
	}
	topic = ansi.Truncate(topic, maxStatusTopic, "…")
	line := compose(format, topic)
	if over := ansi.StringWidth(line) - width; over > 0 && topic != "" {
		room := max(ansi.StringWidth(topic)-over, min(minStatusTopic, ansi.StringWidth(topic)))
		topic = ansi.Truncate(topic, room, "…")
		line = compose(format, topic)
	}
	if ansi.StringWidth(line) > width && format != "" {
		line = compose("", topic)
	}
	if ansi.StringWidth(line) > width && topic != "" {
		line = compose("", "")
	}
	return ansi.Truncate(line, width, "…")
}

// spent is what the debate cost so far.
func spent(v *debateView) report.Spend {
	return report.Total(report.Usage(v.state)).Spend()
}

// waitLine says what the shell waits for, for how long, with the tokens
// the debate has used so far.
func (m *Model) waitLine() string {
	what, since := m.busy, m.since
	tokens := -1
	switch {
	case what != "":
	case m.ask != nil:
		what, since = m.ask.label+" is thinking…", m.ask.since
	case m.run != nil:
		what = "waiting for the next turn…"
		if v := m.views[m.run.id]; v != nil {
			tokens = v.state.Usage.Total()
			if t := v.state.Turns[v.live]; t != nil {
				what, since = label(t.TurnRef)+" is thinking…", t.Started
			}
		}
	}
	s := fmt.Sprintf("%s %s", what, elapsed(m.now().Sub(since)))
	if tokens > 0 {
		s += " · " + report.Thousands(tokens) + " tokens"
	}
	return s
}

func elapsed(d time.Duration) string {
	if d < 0 {
		d = 0
	}
	return d.Truncate(time.Second).String()
}
