package cli

import (
	"bytes"
	"context"
	"errors"
	"path/filepath"
	"slices"
	"strings"
	"time"

	"github.com/spf13/cobra"
	"github.com/spf13/pflag"

	"github.com/parleyhq/parley/internal/app"
	"github.com/parleyhq/parley/internal/sec/secsetup"
	"github.com/parleyhq/parley/internal/shell"
	"github.com/parleyhq/parley/internal/store/sqlite"
)

func newShellCmd(f *Factory) *cobra.Command {
	pace := shell.DefaultPace
	var theme string
	cmd := &cobra.Command{
		Use:   "shell",
		Short: "Open the interactive research shell (also: parley with no arguments, on a terminal)",
		Long: `Open the interactive research shell: /debate with the flags of 'parley debate', /resume, /list,
/show, /export, /ask, /hint, /cost, /model, /help, /quit, and debates asked for in words
("Give me both sides of NVDA", "What's the bull and bear case for Tesla?", "Debate AMD").

While a debate streams, type AGENT: TEXT to queue a hint for that agent's next turn; Ctrl+C
pauses the debate and keeps you in the shell; Ctrl+D leaves.

Colours follow the terminal's background, light or dark, when it says what
it is (until it does, COLORFGBG's background if set, else dark); --theme (or
PARLEY_THEME, or theme: in the config file) fixes them.
NO_COLOR turns them off.`,
		Example: "  parley\n  parley shell\n  parley shell --pace 0\n  parley shell --theme light",
		Args:    noArgs,
		RunE: func(cmd *cobra.Command, args []string) error {
			return runShell(cmd.Context(), f, pace, theme, cmd.Flags().Changed("theme"))
		},
	}
	shellFlags(cmd.Flags(), &pace, &theme)
	return cmd
}

// shellFlags are the shell's flags, which `parley shell` and `parley` with
// no command (the shell, on a terminal) both take.
func shellFlags(fl *pflag.FlagSet, pace *time.Duration, theme *string) {
	fl.DurationVar(pace, "pace", *pace, "time between the lines of a data-only agent's reply, so that an offline debate can be read and coached as it runs (0: at once)")
	fl.StringVar(theme, "theme", "", "`auto|dark|light`: colours for a dark or light terminal background; auto asks the terminal which it has (default: $PARLEY_THEME, the config file's theme, else auto)")
}

// checkShellFlags refuses a --pace or a given --theme the shell could not
// use, as bad input naming the value.
func checkShellFlags(pace time.Duration, theme string, themeGiven bool) error {
	if pace < 0 {
		return usageErrorf("--pace %s: give 0 or a positive duration such as 30ms", pace)
	}
	if themeGiven {
		if _, err := shell.ParseTheme(theme); err != nil {
			return usageErrorf("flag --theme: %w", err)
		}
	}
	return nil
}

// runShell opens the shell on the terminal; theme is the --theme flag,
// given or not.
func runShell(ctx context.Context, f *Factory, pace time.Duration, theme string, themeGiven bool) error {
	if err := checkShellFlags(pace, theme, themeGiven); err != nil {
		return err
	}
	cfg, err := loadConfig(f.Env, f.Formats)
	if err != nil {
		return err
	}
	th, _, err := shellTheme(cfg, theme, themeGiven, f.Env)
	if err != nil {
		return err
	}
	if !f.IO.IsInputTerminal() || !f.IO.IsTerminal() {
		return usageErrorf("the shell needs a terminal: run it in one, or script Parley with 'parley debate' (see 'parley --help')")
	}
	store, err := f.OpenStore(ctx)
	if err != nil {
		return err
	}
	defer store.Close()
	a, err := f.App(store)
	if err != nil {
		return err
	}
	return shell.Run(ctx, f.shellOptions(a, th, pace), f.IO.In, f.IO.Out)
}

// shellOptions are the shell's options on f's terminal and environment.
// The environment is read here, not in the shell, so that its tests give
// their own.
func (f *Factory) shellOptions(a *app.App, th shell.Theme, pace time.Duration) shell.Options {
	history := ""
	if p, err := sqlite.DefaultPath(); err == nil {
		history = filepath.Join(filepath.Dir(p), "shell_history")
	}
	var flags []string
	newDebateCmd(f, nil).Flags().VisitAll(func(fl *pflag.Flag) {
		if fl.Name != "json" && fl.Name != "resume" {
			flags = append(flags, "--"+fl.Name)
		}
	})
	return shell.Options{
		App: a, ParseDebate: f.parseDebate, DebateFlags: flags, HistoryFile: history,
		Color: f.IO.ColorEnabled(), Theme: th, ColorFGBG: f.Env("COLORFGBG"), Pace: pace,
		Companies: secsetup.Tickers,
	}
}

// parseDebate reads a /debate command line with 'parley debate”s own
// flags, config file defaults and format inference.
func (f *Factory) parseDebate(ctx context.Context, args []string) (*shell.DebateRequest, error) {
	var got *DebateOptions
	cmd := newDebateCmd(f, func(_ context.Context, o *DebateOptions) error {
		got = o
		return nil
	})
	var out bytes.Buffer
	cmd.SetOut(&out)
	cmd.SetErr(&out)
	cmd.SetArgs(args)
	cmd.SilenceErrors, cmd.SilenceUsage = true, true
	cmd.Use = "/debate TOPIC|TICKER"
	// The shell takes a topic of several words unquoted, as typed
	// ("/debate Should we use Redis? --format council"), when they stand
	// together: words split by a flag might be a flag's, or two topics.
	oneTopic := cmd.Args
	cmd.Args = func(c *cobra.Command, topic []string) error {
		if len(topic) < 2 {
			return oneTopic(c, topic)
		}
		if !standTogether(args, topic) {
			return usageErrorf("the topic's words are split by a flag (%s): put the flags after the topic, or the topic in quotes", app.Truncate(strings.Join(topic, " "), 60))
		}
		return oneTopic(c, topic[:1])
	}
	// Worded as 'parley debate' words them (the root's flag error function
	// does not reach a command run on its own).
	cmd.SetFlagErrorFunc(func(_ *cobra.Command, err error) error {
		return &UsageError{Err: flagValueError(err)}
	})
	if err := cmd.ExecuteContext(ctx); err != nil {
		var ue *UsageError
		if errors.As(err, &ue) {
			return nil, err
		}
		return nil, &UsageError{Err: err}
	}
	if got == nil {
		return &shell.DebateRequest{Help: out.String()}, nil
	}
	if got.JSON {
		// The shell shows the debate; it has no event stream to write.
		return nil, usageErrorf("--json is for scripts: 'parley debate --json …' writes the event stream as JSON lines; the shell shows the debate")
	}
	req := &shell.DebateRequest{Start: got.startRequest(), Resume: got.Resume, Limits: got.limitOverrides(), Docs: got.documents()}
	if got.Resume != "" {
		if note := resumeNote(f.Formats, got.set); note != "" {
			req.Notes = []string{note}
		}
	}
	return req, nil
}

// standTogether reports whether words are a run of line's, in order, with
// nothing between them.
func standTogether(line, words []string) bool {
	for i := range line {
		if len(line)-i >= len(words) && slices.Equal(line[i:i+len(words)], words) {
			return true
		}
	}
	return false
}

// startRequest is the request to the application layer for a new debate.
func (o *DebateOptions) startRequest() app.StartRequest {
	req := o.Request
	given := o.set
	// What the config file set is a default, not asked for: Given is the
	// flags alone.
	req.FromConfig = o.fromConfig
	req.Given = func(name string) bool { return given != nil && given(name) }
	return app.StartRequest{Request: req, Models: o.Models, Limits: o.limits()}
}
