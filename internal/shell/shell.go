// Package shell is Parley's interactive research shell (spec bullbear.md,
// "REPL commands", "Natural language triggers", "Resume Flow"): slash
// commands, natural-language triggers ("Give me both sides of NVDA"), hints
// typed while agents stream, follow-up questions, all on the application
// layer (internal/app) like every other front-end.
//
// The screen is a transcript in a viewport above a fixed input line. Every
// update of a running debate comes from one subscription to its event log,
// the same log the command line's live view and the server read: the shell
// never draws what the runner does, only what the log says it did.
// Finished blocks are rendered once; only the streaming tail is rendered
// again as text arrives. Typing never writes to the transcript, so a hint
// typed mid-stream cannot land mid-sentence.
package shell

import (
	"context"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"runtime/debug"
	"time"

	tea "charm.land/bubbletea/v2"

	"github.com/parleyhq/parley/internal/app"
	"github.com/parleyhq/parley/internal/debate"
	"github.com/parleyhq/parley/internal/iostreams"
	"github.com/parleyhq/parley/internal/sec/edgar"
	"github.com/parleyhq/parley/internal/setup"
)

// DebateRequest is a /debate command line, read as `parley debate` reads
// its flags (the command line's own parser, config file defaults
// included), so that /debate takes exactly the same flags.
type DebateRequest struct {
	Start app.StartRequest
	// Resume is the debate id given with --resume: that debate is resumed.
	Resume string
	// Limits are the budgets and timeouts given, applied on resume.
	Limits func(*debate.Limits)
	// Docs says where a finished debate's documents go.
	Docs app.Documents
	// Help is the usage text when --help was asked for; nothing runs.
	Help string
	// Notes are said before the debate runs: the options given with
	// --resume that the resumed debate does not use.
	Notes []string
}

// Options are what the shell needs from its host.
type Options struct {
	// App is the application layer; its Store holds the debates. The shell
	// uses a copy whose notices go to the transcript.
	App *app.App
	// ParseDebate reads a /debate command line (the words after /debate).
	ParseDebate func(ctx context.Context, args []string) (*DebateRequest, error)
	// DebateFlags are /debate's flags ("--deep", ...), for completion.
	DebateFlags []string
	// HistoryFile keeps the input history between sessions; "" keeps none.
	HistoryFile string
	// Color is false with NO_COLOR or a dumb terminal.
	Color bool
	// Theme is the palette with colour: the terminal's background decides
	// with ThemeAuto (or ""), once it answers; until then (and if it never
	// does) ColorFGBG guesses it, else the palette is dark.
	Theme Theme
	// ColorFGBG is the terminal's COLORFGBG ("fg;bg" or "fg;default;bg",
	// ANSI colour indices), which rxvt, Konsole, iTerm2 and some xterms
	// set: with ThemeAuto, its background is the first guess. "" (or a
	// value not understood) guesses nothing.
	ColorFGBG string
	// Pace streams the replies of Parley's data-only agents line by line,
	// this long apart, so that an offline debate can be read and coached
	// as it runs; zero shows each reply at once.
	Pace time.Duration
	// Location is where times are shown (nil: local time).
	Location *time.Location
	// Companies is the SEC ticker list that names resolve through (env is
	// the shell's, whose notices go to the transcript); nil uses the list
	// shipped with Parley.
	Companies func(ctx context.Context, env setup.Env) (*edgar.TickerIndex, error)
}

// goPanicMsg is a panic of one of the shell's own goroutines (a debate's
// run, its log's subscription, a follow-up's answer), with where it
// happened.
type goPanicMsg struct {
	value any
	stack []byte
}

// guard, deferred first in a goroutine of the shell's own, hands a panic
// to the program's loop, which panics again with it there (Model.Update).
// Bubble Tea recovers a panic in its loop: it restores the terminal (the
// main screen, the echo, the cursor), prints the panic and ends Run, and
// the shell pauses the debate as on leaving. A panic in a goroutine of
// the shell's own ended the process at once, the terminal left raw in
// the alternate screen.
func guard(send func(tea.Msg)) {
	if r := recover(); r != nil {
		send(goPanicMsg{value: r, stack: debug.Stack()})
	}
}

// DefaultPace is the reading pace of data-only replies in the shell.
const DefaultPace = 30 * time.Millisecond

// Run runs the shell on a terminal until the user leaves. A debate still
// running then is paused, as Ctrl+C pauses it, before Run returns.
func Run(ctx context.Context, opts Options, in io.Reader, out io.Writer) error {
	if opts.App == nil || opts.ParseDebate == nil {
		return errors.New("shell: an App and a debate parser are required")
	}
	m := New(ctx, opts)
	p := tea.NewProgram(m, tea.WithContext(ctx), tea.WithInput(in), tea.WithOutput(out))
	m.send = p.Send
	// While the program owns the screen, a line on standard error would
	// draw over it: what a library logs on its own (a provider adapting
	// its calls to a server, EDGAR retrying) goes to the transcript, as a
	// format's setup notices do.
	logged := slog.Default()
	slog.SetDefault(iostreams.NoteLogger(noticeWriter{m: m}, slog.LevelInfo))
	_, err := p.Run()
	slog.SetDefault(logged)
	// Whatever ended the program (Ctrl+D, /quit, a signal), a debate still
	// running is paused and recorded as such before the process exits.
	if note := m.shutdown(); note != "" {
		fmt.Fprintln(out, note)
	}
	if errors.Is(err, tea.ErrProgramKilled) && ctx.Err() != nil {
		return nil
	}
	if err != nil && !errors.Is(err, tea.ErrInterrupted) {
		return fmt.Errorf("shell: %w", err)
	}
	return nil
}
