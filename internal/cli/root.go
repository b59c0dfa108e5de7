// Package cli is Parley's command line: one options struct per command, so
// that flags and behaviour are tested apart, and typed errors mapped to exit
// codes in one place.
package cli

import (
	"context"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"time"

	"github.com/spf13/cobra"
	"github.com/spf13/pflag"

	"github.com/parleyhq/parley/internal/afrun"
	"github.com/parleyhq/parley/internal/app"
	"github.com/parleyhq/parley/internal/debate"
	"github.com/parleyhq/parley/internal/iostreams"
	"github.com/parleyhq/parley/internal/sec/edgar"
	"github.com/parleyhq/parley/internal/setup"
	"github.com/parleyhq/parley/internal/shell"
	"github.com/parleyhq/parley/internal/store/open"
	"github.com/parleyhq/parley/internal/store/sqlite"
	"github.com/parleyhq/parley/internal/textsafe"
)

// Exit codes.
const (
	ExitOK          = 0
	ExitError       = 1 // something failed; the message says what
	ExitUsage       = 2 // bad flags, arguments or input
	ExitPaused      = 3 // the debate stopped in a resumable state
	ExitConfig      = 4 // no model configured, invalid key
	ExitInterrupted = 130
)

// UsageError is bad input: a flag, an argument, a file the user named. It
// is the application layer's input error, so that a format's refusal and a
// flag's share one exit code.
type UsageError = setup.InputError

func usageErrorf(format string, a ...any) error { return &UsageError{Err: fmt.Errorf(format, a...)} }

// ConfigError is a missing or wrong provider configuration.
type ConfigError = setup.ConfigError

// Factory holds what commands share: streams, environment, clock, the store
// and the formats. Tests build their own.
type Factory struct {
	IO      *iostreams.IOStreams
	Env     func(string) string
	Now     func() time.Time
	DBPath  string // --db; "" = default path
	Formats *debate.Formats
}

// dbPath is the database's location and whether the user chose it (--db,
// PARLEY_DATABASE_URL or PARLEY_DB) rather than the default. A postgres://
// or postgresql:// URL selects PostgreSQL; anything else is a SQLite file.
func (f *Factory) dbPath() (path string, chosen bool, err error) {
	if f.DBPath != "" {
		return f.DBPath, true, notAFile("--db", f.DBPath)
	}
	if u := f.Env("PARLEY_DATABASE_URL"); u != "" {
		if !open.IsPostgres(u) {
			return "", false, &ConfigError{Err: fmt.Errorf("PARLEY_DATABASE_URL is %q, not a PostgreSQL URL: set it to postgres://USER:PASSWORD@HOST:PORT/DATABASE, or unset it and use --db FILE or PARLEY_DB for SQLite", open.Describe(u))}
		}
		return u, true, nil
	}
	if p := f.Env("PARLEY_DB"); p != "" {
		return p, true, notAFile("PARLEY_DB", p)
	}
	if path, err = sqlite.DefaultPath(); err != nil {
		return "", false, fmt.Errorf("find the default database path: %w", err)
	}
	return path, false, nil
}

// databaseSetting is where the debates are kept, for 'parley config', and
// which of --db, PARLEY_DATABASE_URL, PARLEY_DB or the default names it; a
// URL's password is not shown.
func (f *Factory) databaseSetting() (setting, error) {
	path, _, err := f.dbPath()
	if err != nil {
		return setting{}, err
	}
	source := "default"
	switch {
	case f.DBPath != "":
		source = "flag --db"
	case f.Env("PARLEY_DATABASE_URL") != "":
		source = "environment PARLEY_DATABASE_URL"
	case f.Env("PARLEY_DB") != "":
		source = "environment PARLEY_DB"
	}
	return setting{"database", open.Describe(path), source}, nil
}

// notAFile refuses a database location given as a URL that is not
// PostgreSQL's (sqlite://x.db, mysql://host/db): read as a SQLite file
// path, it made a directory named "sqlite:" and a database in it.
func notAFile(source, p string) error {
	scheme, _, ok := strings.Cut(p, "://")
	if !ok || open.IsPostgres(p) || scheme == "" || strings.ContainsAny(scheme, "/\\") {
		return nil
	}
	return &UsageError{Err: fmt.Errorf("%s %q is a %s:// URL: give a SQLite file (such as parley.db) or a postgres:// URL", source, open.Describe(p), scheme)}
}

// OpenStore opens the debate store for a command that writes to it,
// creating it if need be.
func (f *Factory) OpenStore(ctx context.Context) (debate.Store, error) {
	path, _, err := f.dbPath()
	if err != nil {
		return nil, err
	}
	st, err := open.Open(ctx, path)
	return st, storeError(path, true, err)
}

// noDatabase says where the debate database would be ("" when it exists),
// opening nothing for writing and creating nothing.
func noDatabase(ctx context.Context, f *Factory) (where string, err error) {
	path, _, err := f.dbPath()
	if err != nil {
		return "", err
	}
	st, err := open.OpenExisting(ctx, path)
	switch {
	case errors.Is(err, open.ErrNoDatabase):
		return open.Describe(path), nil
	case err != nil:
		return "", storeError(path, false, err)
	}
	return "", st.Close()
}

// OpenStoreFor opens the debate store for a command that writes to debate
// id, which must exist (a resume, a follow-up question, a delete): with no
// database there is no such debate, and none is created to say so.
func (f *Factory) OpenStoreFor(ctx context.Context, id string) (debate.Store, error) {
	where, err := noDatabase(ctx, f)
	if err != nil {
		return nil, err
	}
	if where != "" {
		return nil, usageErrorf("no debate %s: there is no Parley database at %s yet ('parley list' shows the debates)", id, where)
	}
	return f.OpenStore(ctx)
}

// storeError types a store's opening error for its exit code. A SQLite
// path that cannot hold a database is bad input, worded here for every
// command alike: the path, why it cannot be used, and how to choose
// another; SQLite's own words ("unable to open database file (14)") say
// neither.
func storeError(path string, write bool, err error) error {
	if err == nil {
		return nil
	}
	if !open.IsPostgres(path) {
		if why := badStorePath(path, write); why != "" {
			return &UsageError{Err: &StorePathError{Path: path, Why: why, Err: err}}
		}
	}
	switch {
	case errors.Is(err, sqlite.ErrReadOnly), errors.Is(err, sqlite.ErrNotParley):
		return &UsageError{Err: err}
	case open.IsConfigError(err):
		return &ConfigError{Err: err}
	}
	return err
}

// StorePathError is a database location that cannot be used.
type StorePathError struct {
	Path string // as the user gave it
	Why  string // "its directory /x does not exist", ...
	Err  error  // the store's error
}

func (e *StorePathError) Error() string {
	return fmt.Sprintf("cannot use %s as the Parley database: %s; choose another location with --db or PARLEY_DB", e.Path, e.Why)
}

func (e *StorePathError) Unwrap() error { return e.Err }

// sqliteHeader begins every SQLite database file.
const sqliteHeader = "SQLite format 3\x00"

// badStorePath says why a SQLite database cannot be at path, "" when
// nothing about the place explains the failure. write is whether the
// command creates and writes the database; a reading command needs only a
// database file it can read.
func badStorePath(path string, write bool) string {
	abs, err := filepath.Abs(path)
	if err != nil {
		return ""
	}
	dir := filepath.Dir(abs)
	if fi, err := os.Stat(abs); err == nil {
		if fi.IsDir() {
			return "it is a directory, not a database file"
		}
		if !fi.Mode().IsRegular() {
			return "it is not a regular file"
		}
		fh, err := os.Open(abs)
		if err != nil {
			return "the file cannot be read (" + errors.Unwrap(err).Error() + ")"
		}
		head := make([]byte, len(sqliteHeader))
		n, _ := io.ReadFull(fh, head)
		fh.Close()
		if n > 0 && string(head[:n]) != sqliteHeader { // an empty file is a new database
			return "it is not a database file (a file is there, but not a SQLite database)"
		}
	}
	// The directory, or when it is missing the nearest one above it, which
	// a writing command creates it in.
	place := dir
	for {
		fi, err := os.Stat(place)
		switch {
		case errors.Is(err, fs.ErrNotExist) && !write:
			return "its directory " + dir + " does not exist"
		case errors.Is(err, fs.ErrNotExist) && filepath.Dir(place) != place:
			place = filepath.Dir(place)
			continue
		case err == nil && !fi.IsDir():
			return place + " is not a directory"
		case err != nil:
			return "its directory " + dir + " cannot be reached (" + err.Error() + ")"
		}
		break
	}
	if !write {
		return ""
	}
	// Creating a file is the test that holds for root too, where
	// permission bits say writable on a read-only or virtual filesystem.
	probe, err := os.CreateTemp(place, ".parley-probe-*")
	if err != nil {
		if place != dir {
			return "its directory " + dir + " does not exist, and " + place + " is read-only: Parley cannot create it"
		}
		return "its directory " + dir + " is read-only: Parley cannot create files there"
	}
	probe.Close()
	os.Remove(probe.Name())
	return ""
}

// App is the application layer on a store, with this command line's
// environment and the user's prices (the config file's prices and
// prices_file, PARLEY_PRICES_FILE); notices go to standard error. Every
// command that runs turns (debate, ask, batch, the shell, serve, worker)
// gets its App here, so that each prices its turns alike; a bad price is
// an error before anything runs.
func (f *Factory) App(store debate.Store) (*app.App, error) {
	c, err := loadConfig(f.Env, f.Formats)
	if err != nil {
		return nil, err
	}
	prices, _, err := priceTable(c, f.Env)
	if err != nil {
		return nil, err
	}
	return &app.App{Store: store, Formats: f.Formats, Env: setup.Env{Getenv: f.Env, Now: f.Now, Notice: foldedLines{f.IO}, SECMemo: edgar.NewMemo(0, 0, f.Now)}, Prices: &prices}, nil
}

// foldedLines writes a format's notices ("SEC data: …") to standard error,
// each line folded to the terminal as the lines around the view are
// (errLine): written whole, the terminal folded them to column 0.
type foldedLines struct{ ios *iostreams.IOStreams }

func (w foldedLines) Write(p []byte) (int, error) {
	s, ok := strings.CutSuffix(string(p), "\n")
	if !ok {
		return w.ios.ErrOut.Write(p)
	}
	if _, err := io.WriteString(w.ios.ErrOut, errLine(w.ios, s)+"\n"); err != nil {
		return 0, err
	}
	return len(p), nil
}

// OpenStoreReadOnly opens the debate store for a command that only reads it
// (list, show, export): it creates nothing. Without a database there is
// nothing to read: ok is false, and when the user named the database (--db,
// PARLEY_DATABASE_URL, PARLEY_DB) that is an error saying so.
func (f *Factory) OpenStoreReadOnly(ctx context.Context) (st debate.Store, ok bool, err error) {
	path, chosen, err := f.dbPath()
	if err != nil {
		return nil, false, err
	}
	s, err := open.OpenExisting(ctx, path)
	switch {
	case errors.Is(err, open.ErrNoDatabase) && chosen:
		return nil, false, usageErrorf("no Parley database at %s: check --db, PARLEY_DATABASE_URL or PARLEY_DB (a debate creates the database where they point)", open.Describe(path))
	case errors.Is(err, open.ErrNoDatabase):
		return nil, false, nil
	case err != nil:
		return nil, false, storeError(path, false, err)
	}
	return s, true, nil
}

// NewRootCmd builds the command tree.
func NewRootCmd(f *Factory) *cobra.Command {
	pace, theme := shell.DefaultPace, ""
	root := &cobra.Command{
		Use:   "parley",
		Short: "Structured adversarial debates between LLM agents, to stress-test a decision",
		Long: `Parley runs structured debates between LLM agents that argue assigned sides, critique each other's
assumptions, and a moderator that synthesises a balanced verdict with the strongest counterarguments.

Every debate is an append-only event log: interrupt it at any moment (Ctrl+C) and resume it later
with nothing lost.`,
		SilenceUsage:  true,
		SilenceErrors: true,
		Args:          unknownCommand,
		// With no command, a terminal opens the shell; anything else (a
		// pipe, a script) gets the help, as before the shell existed.
		RunE: func(cmd *cobra.Command, args []string) error {
			if f.IO.IsInputTerminal() && f.IO.IsTerminal() {
				return runShell(cmd.Context(), f, pace, theme, cmd.Flags().Changed("theme"))
			}
			// The shell's flags are checked whether or not it opens, so
			// that a script's 'parley --theme purple' fails here as it
			// would on a terminal, rather than pass with the help.
			if err := checkShellFlags(pace, theme, cmd.Flags().Changed("theme")); err != nil {
				return err
			}
			if f.IO.IsTerminal() && !f.IO.IsInputTerminal() {
				// Shell commands piped in ("echo /list | parley") are not
				// read: said, rather than the help shown as if nothing had
				// been asked.
				fmt.Fprintln(f.IO.ErrOut, "note: standard input is not a terminal, so the shell does not open and what it holds is not read; script Parley with its commands ('parley list', 'parley debate NVDA --offline')")
			}
			return cmd.Help()
		},
	}
	// The shell's flags, for the shell `parley` opens on a terminal.
	shellFlags(root.Flags(), &pace, &theme)
	// Not blank: '--db "$DB"' with DB unset read the default database,
	// the user's own, for a command meant for another ('delete --yes').
	// Its default is none, as StringVar's "" made it.
	f.DBPath = ""
	nonBlankVar(root.PersistentFlags(), &f.DBPath, "db", "debate database: a SQLite `file`, or a postgres:// URL (default: $PARLEY_DATABASE_URL, $PARLEY_DB or a file in the user data dir)")
	root.SetIn(f.IO.In)
	root.SetOut(f.IO.Out)
	root.SetErr(f.IO.ErrOut)
	root.SetFlagErrorFunc(func(c *cobra.Command, err error) error {
		// The shell's own flags, listed in 'parley --help', given to
		// another command: say whose they are.
		for _, name := range []string{"pace", "theme"} {
			if c != root && c.Flags().Lookup(name) == nil && strings.Contains(err.Error(), "unknown flag: --"+name) {
				return &UsageError{Err: fmt.Errorf("%w: --%s is the interactive shell's, as in 'parley --%s …' or 'parley shell --%s …'; %s does not take it", err, name, name, name, c.CommandPath())}
			}
		}
		if s := suggestFlags(c, err); len(s) > 0 {
			return &UsageError{Err: fmt.Errorf("%w\n\nDid you mean this?\n\t--%s\nRun '%s --help' for usage", err, strings.Join(s, "\n\t--"), c.CommandPath())}
		}
		return &UsageError{Err: fmt.Errorf("%w\nRun '%s --help' for usage", flagValueError(err), c.CommandPath())}
	})
	root.Version = version()
	root.SetVersionTemplate("{{.Version}}\n")
	root.AddCommand(newDebateCmd(f, nil), newListCmd(f, nil), newShowCmd(f, nil), newExportCmd(f, nil), newAskCmd(f, nil), newAFCmd(f, nil),
		newDeleteCmd(f, nil), newVersionCmd(f), newConfigCmd(f), newServeCmd(f, nil), newShellCmd(f), newWorkerCmd(f), newBatchCmd(f), newLimitsCmd(f))
	registerCompletions(root, f)
	strictHelpCommands(root)
	return root
}

// flagValueError words a flag's bad value by the kind the flag wants, with
// an example: pflag's own words end in the parser's ('time: invalid
// duration "abc"'), which name neither the flag's kind nor a valid value.
func flagValueError(err error) error {
	// A flag given without its value: say what the value is, in the
	// words of the flag's help ("--resume needs its ID: resume the
	// unfinished debate with this ID"), not only that one is missing.
	var vre *pflag.ValueRequiredError
	if errors.As(err, &vre) && vre.GetFlag() != nil {
		fl := vre.GetFlag()
		name, usage := pflag.UnquoteUsage(fl)
		switch name {
		case "", "string", "strings", "stringArray":
			name = "value"
		case "int", "int64", "int32", "uint", "uint64", "float64", "float32":
			name = "number"
		}
		flag := "--" + fl.Name
		if vre.GetSpecifiedShortnames() != "" {
			flag = "-" + fl.Shorthand
		}
		return fmt.Errorf("%s needs its %s: %s", flag, name, usage)
	}
	var ive *pflag.InvalidValueError
	if !errors.As(err, &ive) {
		return err
	}
	name := "--" + ive.GetFlag().Name
	if errors.Is(err, errBlankValue) {
		_, usage := pflag.UnquoteUsage(ive.GetFlag())
		return fmt.Errorf("%s %q is blank: give its value (%s), or leave %s out for the default", name, ive.GetValue(), usage, name)
	}
	switch ive.GetFlag().Value.Type() {
	case "duration":
		return fmt.Errorf("%s %q is not a duration: give one such as 2m, 90s or 1h30m", name, ive.GetValue())
	case "int", "int64", "int32", "uint", "uint64":
		if errors.Is(err, strconv.ErrRange) {
			// A whole number, but past what the flag holds: "is not
			// a whole number" told the user to write what they had.
			return fmt.Errorf("%s %s is too large a number: give a smaller one", name, ive.GetValue())
		}
		return fmt.Errorf("%s %q is not a whole number: give one such as 3", name, ive.GetValue())
	case "float64", "float32":
		return fmt.Errorf("%s %q is not a number: give one such as 0.5", name, ive.GetValue())
	case "bool":
		return fmt.Errorf("%s=%s: give %s=true or %s=false", name, ive.GetValue(), name, name)
	}
	return err
}

// strictHelpCommands makes 'parley completion SHELL' and 'parley help
// COMMAND' refuse what they do not know as bad input (exit 2), as every
// other command does: cobra's own print the help and exit 0 ("Unknown help
// topic"), so a script's typo passes unnoticed.
func strictHelpCommands(root *cobra.Command) {
	root.InitDefaultCompletionCmd()
	for _, c := range root.Commands() {
		if c.Name() == "completion" && c.Run == nil && c.RunE == nil {
			// Runnable, its NoArgs refuses an unknown shell with cobra's
			// 'unknown command "x" for "parley completion"'.
			c.RunE = func(cmd *cobra.Command, args []string) error { return cmd.Help() }
		}
	}
	root.SetHelpCommand(&cobra.Command{
		Use:   "help [command]",
		Short: "Help about any command",
		Long:  "Help provides help for any command in the application.\nSimply type parley help [path to command] for full details.",
		ValidArgsFunction: func(cmd *cobra.Command, args []string, toComplete string) ([]string, cobra.ShellCompDirective) {
			var names []string
			for _, c := range root.Commands() {
				if c.IsAvailableCommand() && strings.HasPrefix(c.Name(), toComplete) {
					names = append(names, c.Name())
				}
			}
			return names, cobra.ShellCompDirectiveNoFileComp
		},
		RunE: func(cmd *cobra.Command, args []string) error {
			c, rest, err := root.Find(args)
			if err != nil || c == nil || len(rest) > 0 {
				return usageErrorf("no help on %q: 'parley help' lists the commands", strings.Join(args, " "))
			}
			return c.Help()
		},
	})
}

// Main runs the command line and returns the exit code.
func Main(ctx context.Context, args []string, ios *iostreams.IOStreams) int {
	f := &Factory{IO: ios, Env: os.Getenv, Now: time.Now, Formats: app.DefaultFormats()}
	root := NewRootCmd(f)
	root.SetArgs(iccmaArgs(args))
	err := root.ExecuteContext(ctx)
	if err == nil {
		return ExitOK
	}
	code := ExitCode(err)
	cs := ios.Colors()
	// Errors quote what came from outside (a topic, an id typed, a
	// server's answer): whatever path they took, none reaches the
	// terminal as a control sequence.
	fmt.Fprintln(ios.ErrOut, errLine(ios, cs.Red("error:")+" "+textsafe.Clean(err.Error())))
	return code
}

// noArgs refuses arguments to a command that takes none, as bad input.
func noArgs(cmd *cobra.Command, args []string) error {
	if len(args) > 0 {
		return usageErrorf("%s takes no arguments, got %q (see '%s --help')", cmd.CommandPath(), strings.Join(args, " "), cmd.CommandPath())
	}
	return nil
}

// iccmaArgs lets `parley af` take the ICCMA solver interface's "-fo FORMAT"
// as competition tooling passes it.
func iccmaArgs(args []string) []string {
	if len(args) == 0 || args[0] != "af" {
		return args
	}
	return append([]string{"af"}, afrun.Args(args[1:])...)
}

// ExitCode maps an error to the process exit code.
func ExitCode(err error) int {
	var (
		ue *UsageError
		ae *afrun.UsageError
		ie *afrun.Interrupted
		ce *ConfigError
		pe *debate.PausedError
		le *debate.LeaseHeldError
	)
	switch {
	case err == nil:
		return ExitOK
	case errors.As(err, &ue), errors.As(err, &le):
		return ExitUsage
	case errors.As(err, &ae):
		// The solver's command (internal/afcmd) words its own bad input,
		// such as a stray argument, before any RunE could rewrap it: exit
		// 2 as parley-af and the early path (afrun.Exit) do.
		return ExitUsage
	case strings.HasPrefix(err.Error(), "unknown command "):
		// cobra's own error for a mistyped command: bad input too.
		return ExitUsage
	case errors.As(err, &ie):
		// `parley af` stopped by a signal: 130 for SIGINT, 143 for
		// SIGTERM, as its early path and parley-af exit (afrun.Exit).
		return ie.Code()
	case errors.As(err, &ce):
		return ExitConfig
	case errors.As(err, &pe):
		if pe.Reason == debate.PauseInterrupted {
			return ExitInterrupted
		}
		return ExitPaused
	case errors.Is(err, context.Canceled):
		return ExitInterrupted
	}
	return ExitError
}
