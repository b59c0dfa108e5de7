package cli

import (
	"context"
	"errors"
	"fmt"
	"os"
	"os/signal"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"time"

	"github.com/spf13/cobra"
	"github.com/spf13/pflag"

	"github.com/parleyhq/parley/internal/app"
	"github.com/parleyhq/parley/internal/debate"
	"github.com/parleyhq/parley/internal/iostreams"
	"github.com/parleyhq/parley/internal/llm"
	"github.com/parleyhq/parley/internal/setup"
	pstore "github.com/parleyhq/parley/internal/store"
	"github.com/parleyhq/parley/internal/textsafe"
	"github.com/parleyhq/parley/internal/view"
)

// DebateOptions are the `parley debate` flags and arguments: a request to
// the application layer, and what the terminal front-end adds.
type DebateOptions struct {
	setup.Request
	Resume       string
	Models       app.Models
	JSON         bool
	DecisionsDir string
	// Asked are the kinds of the documents asked for by their flags
	// (--issue-draft), written with the others (app.Documents).
	Asked []string

	TurnBudget    int
	DebateBudget  int
	RoundTimeout  time.Duration
	DebateTimeout time.Duration
	CallTimeout   time.Duration
	// CheckpointTimeout pauses the debate when no one answers a checkpoint.
	CheckpointTimeout time.Duration

	set func(name string) bool // whether a flag was given (for resume overrides)
	// plan is the new debate offerResume planned when it found none to
	// resume: the debate starts from it, so that the format's setup (a
	// formal debate's shared context, gathered from --context) runs once.
	plan *app.Plan

	// fromConfig are the format options the config file set.
	fromConfig []string
}

// defaultDebateOptions are the options of a debate with no flag given.
func defaultDebateOptions() *DebateOptions {
	lim := debate.DefaultLimits()
	return &DebateOptions{Request: setup.Request{Format: app.DefaultFormat},
		DecisionsDir: "docs/decisions", TurnBudget: lim.TurnBudget, DebateBudget: lim.DebateBudget,
		RoundTimeout: lim.RoundTimeout, DebateTimeout: lim.DebateTimeout, CallTimeout: lim.CallTimeout,
		CheckpointTimeout: lim.CheckpointTimeout}
}

func newDebateCmd(f *Factory, run func(context.Context, *DebateOptions) error) *cobra.Command {
	opts := &DebateOptions{}
	lim := debate.DefaultLimits()
	// The formats' options are flags (setup.Union); two formats declaring
	// one name as two kinds is a bug their tests catch, said here too.
	union, unionErr := setup.Union(f.Formats)
	// The documents a format writes only when asked for are flags too.
	asked := app.AskedDocuments(f.Formats)
	cmd := &cobra.Command{
		Use:   "debate TOPIC",
		Short: "Run a debate on a question (or resume one)",
		Long: `Run a structured debate on TOPIC and write its result.

Formats (--format):
  perspectives  (default for questions) a moderator assigns 2-4 perspectives from a catalog, runs rounds of
                parallel arguments and sequential rebuttals, checks convergence, asks you at a checkpoint
                after each round to [C]ontinue, [G]uide or [E]nd, and writes a decision document.
  bullbear      (default for a ticker) bull vs. bear on SEC filings: research with tools, openings,
                quoted rebuttals, fact check, moderator synthesis with a conviction score. Works offline
                with no model: data-only agents argue from the SEC data Parley ships.
  council       analysts argue GO/NOGO round-robin until consensus, else a majority vote.
  crux          two personas find the crux of their disagreement, with steelmen and falsifiers.
  formal        a persuasion dialogue with commitment stores, scored with argumentation semantics.

While a debate runs you can type a hint for an agent (AGENT: TEXT, then Enter; Esc clears the
line): it shows below the streamed text and applies to that agent's next turn. Press Ctrl+C at any moment: the debate pauses and 'parley debate --resume ID' continues it.`,
		Example: `  parley debate "Should we use Redis or PostgreSQL for caching?"
  parley debate "How should we structure the plugin system?" --perspectives 3 --max-rounds 4
  parley debate "GraphQL or REST for the public API?" --no-checkpoints --model-for moderator=claude-opus-4-1
  parley debate NVDA --offline
  parley debate NVDA --deep --framework piotroski --hint "bear: look at customer concentration"
  parley debate "Acme Corp" --format council --max-rounds 3 --risk averse
  parley debate "Is Bitcoin digital gold?" --format crux --agents saylor,hayes
  parley debate --resume DEB-1a2b3c4d
  OPENAI_BASE_URL=http://localhost:11434/v1 parley debate "Monorepo or polyrepo?" --model llama3.1`,
		Args: func(cmd *cobra.Command, args []string) error {
			if unionErr != nil {
				return unionErr
			}
			if cmd.Flags().Changed("resume") && strings.TrimSpace(opts.Resume) == "" {
				// An empty --resume (an unset variable in a script) is
				// not a debate without one: "a topic is required" would
				// send the user after the wrong mistake.
				return usageErrorf("--resume needs the ID of the debate to resume, such as DEB-1a2b3c4d")
			}
			if opts.Resume != "" {
				if len(args) > 0 {
					return usageErrorf("--resume takes no topic: the debate already has one")
				}
				return nil
			}
			if len(args) == 0 {
				// CommandPath is "parley debate" on the command line and
				// "/debate" in the shell, which parses with this command too.
				return usageErrorf("a topic is required: %s \"Should we use Redis or PostgreSQL for caching?\"", cmd.CommandPath())
			}
			if len(args) > 1 {
				return usageErrorf("the topic must be one argument: put it in quotes (got %d arguments)", len(args))
			}
			if args[0] == "-" {
				// Other tools read "-" as standard input; Parley's stdin
				// answers the checkpoints.
				return usageErrorf("the topic is \"-\": parley debate takes the topic as its argument, not from standard input; to read it from a file: %s \"$(cat question.txt)\"", cmd.CommandPath())
			}
			return nil
		},
		RunE: func(cmd *cobra.Command, args []string) error {
			// One argument on the command line (Args); in the shell, the
			// words of an unquoted topic (see parseDebate).
			if len(args) > 0 {
				opts.Topic = strings.Join(args, " ")
			}
			opts.Values = formatValues(cmd.Flags(), union)
			opts.Asked = nil
			for _, d := range asked {
				if v, err := cmd.Flags().GetBool(d.Kind); err == nil && v {
					opts.Asked = append(opts.Asked, d.Kind)
				}
			}
			opts.set = func(name string) bool {
				if name == "out-dir" || name == "decisions-dir" {
					return cmd.Flags().Changed("out-dir") || cmd.Flags().Changed("decisions-dir")
				}
				return cmd.Flags().Changed(name)
			}
			if !opts.set("format") && opts.Resume == "" {
				// A resumed debate is of the format it was created with.
				opts.Format = app.FormatFor(f.Formats, &opts.Request)
			}
			opts.TurnBudget, opts.DebateBudget = lim.TurnBudget, lim.DebateBudget
			opts.RoundTimeout, opts.DebateTimeout, opts.CallTimeout = lim.RoundTimeout, lim.DebateTimeout, lim.CallTimeout
			opts.CheckpointTimeout = lim.CheckpointTimeout
			if opts.Resume == "" {
				// A resumed debate keeps its recorded settings: the config
				// file gives defaults to new debates only.
				c, err := loadConfig(f.Env, f.Formats)
				if err != nil {
					return err
				}
				if _, err := applyConfig(c, opts, opts.set, f.Env); err != nil {
					return err
				}
			}
			if !opts.set("out-dir") && !opts.set("decisions-dir") && opts.DecisionsDir == "docs/decisions" {
				// The decisions of a project belong with the project, not in
				// whatever subdirectory the command ran from.
				if root := gitRoot(); root != "" {
					opts.DecisionsDir = filepath.Join(root, "docs", "decisions")
				}
			}
			given := "--out-dir"
			if !opts.set("out-dir") {
				given = "decisions_dir (the config file)"
			}
			if err := checkOutDir(given, opts.DecisionsDir); err != nil {
				return err
			}
			if run != nil {
				return run(cmd.Context(), opts)
			}
			if err := offerResume(cmd.Context(), f, opts); err != nil {
				return err
			}
			return runDebate(cmd.Context(), f, opts)
		},
	}
	fl := cmd.Flags()
	nameVar(fl, &opts.Format, "format", app.DefaultFormat, "debate `format`: "+strings.Join(f.Formats.Names(), ", ")+" (default: bullbear for a ticker, else perspectives)")
	fl.StringVar(&opts.Resume, "resume", "", "resume the unfinished debate with this `ID`")
	formatFlags(fl, union)
	fl.BoolVar(&opts.NoCheckpoints, "no-checkpoints", false, "run to the end without asking after each round (on --resume: answer every checkpoint \"continue\")")
	nonBlankVar(fl, &opts.Models.Provider, "provider", "model provider: anthropic, openai or ollama (default: detected from the environment)")
	nonBlankVar(fl, &opts.Models.Model, "model", "model `name` for every role")
	fl.StringArrayVar(&opts.Models.ModelFor, "model-for", nil, "a model for one role, `ROLE=[PROVIDER/]MODEL` (repeatable), e.g. moderator=claude-opus-4-1; roles: perspectives moderator, debater; bullbear bull, bear, moderator; council analyst; crux persona, moderator; formal debater (or pro, opp), moderator")
	fl.BoolVar(&opts.JSON, "json", false, "write the event stream as JSON lines instead of the terminal view")
	fl.BoolVar(&opts.Offline, "offline", false, "no network at all: no model, no EDGAR; data-only agents argue from the SEC data shipped with Parley (bullbear)")
	opts.DecisionsDir = "docs/decisions"
	nonBlankVar(fl, &opts.DecisionsDir, "out-dir", outDirUsage(f.Formats, "docs/decisions at the root of the git repository you are in, else docs/decisions in the current directory"))
	nonBlankVar(fl, &opts.DecisionsDir, "decisions-dir", "same as --out-dir")
	// Their usage says their defaults, which depend on the topic, the
	// format or the git repository: pflag's "(default …)" would say a
	// second one.
	fl.Lookup("format").DefValue = ""
	fl.Lookup("out-dir").DefValue = ""
	fl.Lookup("decisions-dir").DefValue = ""
	for _, d := range asked {
		fl.Bool(d.Kind, false, d.Ask)
	}
	fl.Var((*budgetFlag)(&lim.TurnBudget), "turn-budget", "output `tokens` per debater per round (0 or unlimited: no limit)")
	fl.Var((*budgetFlag)(&lim.DebateBudget), "debate-budget", "`tokens` for the whole debate (0 or unlimited: no limit)")
	fl.DurationVar(&lim.RoundTimeout, "round-timeout", lim.RoundTimeout, "time limit per round")
	fl.DurationVar(&lim.DebateTimeout, "debate-timeout", lim.DebateTimeout, "time limit for the whole run")
	fl.DurationVar(&lim.CallTimeout, "call-timeout", lim.CallTimeout, "time limit per model call")
	fl.DurationVar(&lim.CheckpointTimeout, "checkpoint-timeout", lim.CheckpointTimeout, "pause the debate when a checkpoint gets no answer in this time")
	return cmd
}

// wrapDoc shows a Markdown document in the terminal: one short source mark
// per figure, as the live view shows turns, and wrapped as the live view
// wraps streamed text (tables and code blocks keep their lines; without a
// terminal it is not wrapped).
func wrapDoc(f *Factory, doc string) string {
	doc = view.CompactSources(doc)
	width := f.IO.TerminalWidth()
	lines := strings.Split(doc, "\n")
	code := false
	for i, line := range lines {
		if strings.HasPrefix(line, "```") {
			code = !code
		}
		if code || strings.HasPrefix(line, "|") || strings.HasPrefix(line, "```") {
			continue
		}
		// A Markdown hard break ("\" ending a line of a document's header)
		// is already a line end on a terminal.
		if strings.HasSuffix(line, "\\") && !strings.HasSuffix(line, "\\\\") {
			line = strings.TrimSuffix(line, "\\")
			lines[i] = line
		}
		if width > 0 {
			lines[i], _ = view.Wrap(line, 0, width)
		}
	}
	return strings.Join(lines, "\n")
}

// gitRoot is the root of the git work tree holding the current directory,
// "" outside one.
func gitRoot() string {
	dir, err := os.Getwd()
	if err != nil {
		return ""
	}
	for {
		if _, err := os.Stat(filepath.Join(dir, ".git")); err == nil {
			return dir
		}
		parent := filepath.Dir(dir)
		if parent == dir {
			return ""
		}
		dir = parent
	}
}

// budgetFlag is a token budget flag: a count, or "unlimited" (0).
type budgetFlag int

func (b *budgetFlag) String() string {
	if *b == 0 {
		return "unlimited"
	}
	return strconv.Itoa(int(*b))
}

func (b *budgetFlag) Set(s string) error {
	switch strings.ToLower(strings.TrimSpace(s)) {
	case "unlimited", "none", "0":
		*b = 0
		return nil
	}
	n, err := strconv.Atoi(strings.ReplaceAll(strings.TrimSpace(s), "_", ""))
	switch {
	case err != nil:
		return fmt.Errorf("%q is not a token count: give a number such as 4000, or unlimited", s)
	case n < 0:
		return fmt.Errorf("%d: token budgets cannot be negative; give a number such as 4000, or unlimited", n)
	}
	*b = budgetFlag(n)
	return nil
}

func (b *budgetFlag) Type() string { return "tokens" }

func (o *DebateOptions) limits() debate.Limits {
	l := debate.DefaultLimits()
	l.TurnBudget, l.DebateBudget = o.TurnBudget, o.DebateBudget
	l.RoundTimeout, l.DebateTimeout, l.CallTimeout = o.RoundTimeout, o.DebateTimeout, o.CallTimeout
	l.CheckpointTimeout = o.CheckpointTimeout
	return l
}

// formatFlags declares a flag for each format option (setup.Union) but a
// custom one (which only the config file gives): its usage names the
// formats that take it, and its default is theirs when they agree on one.
func formatFlags(fl *pflag.FlagSet, union []setup.Declared) {
	for _, d := range union {
		def, one := d.Default()
		switch d.Kind {
		case setup.Int:
			v, _ := def.(int)
			fl.Int(d.Name, v, d.Help())
		case setup.Bool:
			v, _ := def.(bool)
			fl.Bool(d.Name, v, d.Help())
		case setup.String:
			// A blank value is refused, as --model's is: given empty (a
			// variable unset in a script) it read as not given.
			v, _ := def.(string)
			nonBlankVar(fl, &v, d.Name, d.Help())
		case setup.Strings:
			v, _ := def.([]string)
			if d.Split {
				fl.StringSlice(d.Name, v, d.Help())
			} else {
				fl.StringArray(d.Name, v, d.Help())
			}
		default:
			continue
		}
		if !one {
			// Help says each format's default: pflag's "(default …)"
			// would say a second one. Its zero value is shown as none.
			fl.Lookup(d.Name).DefValue = map[setup.Kind]string{setup.Int: "0", setup.Bool: "false", setup.Strings: "[]"}[d.Kind]
		}
	}
}

// formatValues are the values of the format options' flags given: an
// option not given takes the chosen format's default.
func formatValues(fl *pflag.FlagSet, union []setup.Declared) setup.Values {
	vals := setup.Values{}
	for _, d := range union {
		if fl.Lookup(d.Name) == nil || !fl.Changed(d.Name) {
			continue
		}
		var v any
		switch d.Kind {
		case setup.Int:
			v, _ = fl.GetInt(d.Name)
		case setup.Bool:
			v, _ = fl.GetBool(d.Name)
		case setup.String:
			v, _ = fl.GetString(d.Name)
		case setup.Strings:
			if d.Split {
				v, _ = fl.GetStringSlice(d.Name)
			} else {
				v, _ = fl.GetStringArray(d.Name)
			}
		}
		vals[d.Name] = v
	}
	return vals
}

// setValue sets a format option's value (from the config file).
func (o *DebateOptions) setValue(name string, v any) {
	if o.Values == nil {
		o.Values = setup.Values{}
	}
	o.Values[name] = v
}

// createOnly are the flags that shape a debate when it is created (the
// format and its options); a resume goes on with the ones recorded. (The
// models, budgets, timeouts, --no-checkpoints, --offline and the
// documents' flags apply to a resume.)
func createOnly(formats *debate.Formats) []string {
	names := []string{"format"}
	union, _ := setup.Union(formats)
	for _, d := range union {
		names = append(names, d.Name)
	}
	return names
}

// resumeNote names the create-only flags given with --resume, "" when
// none is: '--resume ID --format council' went on as the debate it was,
// without a word.
func resumeNote(formats *debate.Formats, set func(string) bool) string {
	var ignored []string
	for _, name := range createOnly(formats) {
		if set != nil && set(name) {
			ignored = append(ignored, "--"+name)
		}
	}
	if len(ignored) == 0 {
		return ""
	}
	verb := "is"
	if len(ignored) > 1 {
		verb = "are"
	}
	return fmt.Sprintf("note: %s %s ignored on resume: the debate keeps the options and the shared context it was created with (start a new debate to change them)", strings.Join(ignored, ", "), verb)
}

// checkOutDir refuses a directory for the decision documents that cannot
// be one, a file or a path through a file, before the debate runs: found
// when the document was written, it came after every turn had run (and been
// paid for). given is how the user named it (--out-dir, the config file's
// decisions_dir).
func checkOutDir(given, dir string) error {
	switch p := app.FileInPath(dir); {
	case p == "":
		return nil
	case p == filepath.Clean(dir):
		return usageErrorf("%s %s is a file, not a directory: give the directory for the decision document", given, dir)
	default:
		return usageErrorf("%s %s: %s is a file, not a directory: give the directory for the decision document", given, dir, p)
	}
}

func runDebate(ctx context.Context, f *Factory, o *DebateOptions) error {
	openStore := f.OpenStore
	if o.Resume != "" {
		openStore = func(ctx context.Context) (debate.Store, error) { return f.OpenStoreFor(ctx, o.Resume) }
	}
	store, err := openStore(ctx)
	if err != nil {
		return err
	}
	defer store.Close()

	ctx, stop := signal.NotifyContext(ctx, os.Interrupt, syscall.SIGTERM)
	defer stop()
	ctx, f, stopWatch := watchOutput(ctx, f)
	defer stopWatch()

	a, err := f.App(store)
	if err != nil {
		return err
	}
	var sess *app.Session
	if o.Resume != "" {
		id, err := resolveID(ctx, store, o.Resume)
		if err != nil {
			return err
		}
		if note := resumeNote(f.Formats, o.set); note != "" {
			fmt.Fprintln(f.IO.ErrOut, errLine(f.IO, note))
		}
		if err := a.RunningElsewhere(ctx, id); err != nil {
			return err
		}
		sess, err = a.Resume(ctx, app.ResumeRequest{ID: id, Models: o.Models, Offline: o.Offline, Limits: o.limitOverrides()})
		if errors.Is(err, app.ErrCompleted) {
			return resumeCompleted(ctx, f, o, a, id)
		}
		if err != nil {
			return err
		}
		for _, n := range sess.Notices {
			fmt.Fprintln(f.IO.ErrOut, errLine(f.IO, textsafe.Clean(n)))
		}
	} else if o.plan != nil {
		if sess, err = a.StartPlan(ctx, o.plan, nil); err != nil {
			return err
		}
	} else if sess, err = a.Start(ctx, o.startRequest()); err != nil {
		return err
	}
	fmt.Fprintln(f.IO.ErrOut, errLine(f.IO, app.DescribeCast(sess.Models, sess.DataOnly)))
	return runSession(ctx, f, o, store, a, sess)
}

// runSession runs a debate with the terminal as its live view and its
// human, then writes and prints its documents.
func runSession(ctx context.Context, f *Factory, o *DebateOptions, store debate.Store, a *app.App, sess *app.Session) error {
	id := sess.ID
	human := newTerminalHuman(f.IO)
	live := view.NewLive(f.IO, o.JSON, sess.Describer())
	human.sync = live.Sync
	human.hint = func(target, text string) error {
		_, err := sess.Hint(ctx, target, text)
		return err
	}
	live.SetTargets(a.HintTargets)
	human.targets = live.Agents
	// On a terminal the keys typed are read one by one and the view shows
	// the line being typed below the streamed text: the terminal's echo
	// landed inside a streamed sentence, which then went on, broken, after
	// the Enter.
	if f.IO.IsTerminal() && f.IO.IsInputTerminal() && !o.JSON {
		if cooked, quiet, done, err := f.IO.QuietInput(live.Stopping); err == nil {
			defer done()
			human.keys, human.cooked, human.quiet = live, cooked, quiet
			live.TakeInput()
		}
	}
	if f.IO.IsTerminal() && !o.JSON {
		defer f.IO.OnContinue(live.Continued)()
		defer f.IO.OnResize(live.Resized)()
	}
	human.listen()
	if notes := f.IO.Notes(); notes != nil && f.IO.IsTerminal() && !o.JSON && view.Redrawable(f.IO.ErrOut) {
		// What a library logs on its own goes into the view, on a line of
		// its own, not into the middle of a streamed line or over the
		// spinner.
		defer notes.Redirect(live.NoteWriter())()
	}
	viewCtx, cancelView := context.WithCancel(context.WithoutCancel(ctx))
	viewDone := make(chan struct{})
	go func() {
		// A panic in the view would end the process with the terminal
		// quiet (no echo, the paste mode on): restored first.
		defer f.IO.RestoreOnPanic()
		defer close(viewDone)
		// Resubscribe: a read of the log that fails (PostgreSQL restarting)
		// must not end the view while the run goes on: --json would lose
		// the rest of the stream without a word.
		for e, err := range pstore.Resubscribe(viewCtx, store, id, 0) {
			if err != nil {
				return
			}
			live.Handle(e)
		}
	}()

	var answers debate.Human = human
	if o.Resume != "" && o.NoCheckpoints {
		answers = app.Unattended{Said: func(debate.CheckpointReached) {
			fmt.Fprintln(f.IO.ErrOut, errLine(f.IO, "Checkpoint: continuing (--no-checkpoints)"))
		}}
	}
	st, runErr := sess.Run(ctx, answers)
	// The documents are part of the debate: written and recorded before the
	// view closes, so that --json streams every event, artifact.written too.
	var written []debate.ArtifactWritten
	var finishErr error
	if runErr == nil {
		written, finishErr = a.WriteArtifacts(ctx, sess.Format, st, o.documents())
	}
	// Let the view show the last event before anything else is printed.
	if sum, err := store.Get(context.WithoutCancel(ctx), id); err == nil {
		live.Sync(sum.LastSeq)
	} else if st != nil {
		live.Sync(st.LastSeq)
	}
	cancelView()
	<-viewDone
	live.Close()
	if lost := (*OutputLostError)(nil); errors.As(context.Cause(ctx), &lost) {
		// The view's output went nowhere: what the debate did is said
		// here, on standard error, with how to read or go on with it.
		if runErr != nil {
			return fmt.Errorf("debate %s paused: %w; write it elsewhere, then resume with: parley debate --resume %s", id, lost, id)
		}
		return fmt.Errorf("debate %s completed, but %w; read it with: parley show %s", id, lost, id)
	}
	if runErr != nil {
		if st != nil {
			// The advice names the limits this run held to.
			held := *st
			held.Limits = sess.RunLimits(st)
			st = &held
		}
		// On a terminal the view has just shown the pause and why
		// ("Paused: …"); the error adds how to go on, not the why again.
		return describeRunError(f, id, runErr, f.IO.IsTerminal() && !o.JSON, st)
	}
	if finishErr != nil {
		return finishErr
	}
	return printFinish(f, o, sess.Format, st, written, live.Fresh)
}

// limitOverrides are the budgets and timeouts given on a resume: they
// replace the recorded ones, so that a debate paused on its budget can go
// on with a larger one.
func (o *DebateOptions) limitOverrides() func(*debate.Limits) {
	return func(l *debate.Limits) {
		for flag, apply := range map[string]func(){
			"turn-budget": func() { l.TurnBudget = o.TurnBudget }, "debate-budget": func() { l.DebateBudget = o.DebateBudget },
			"round-timeout": func() { l.RoundTimeout = o.RoundTimeout }, "debate-timeout": func() { l.DebateTimeout = o.DebateTimeout },
			"call-timeout": func() { l.CallTimeout = o.CallTimeout }, "checkpoint-timeout": func() { l.CheckpointTimeout = o.CheckpointTimeout },
		} {
			if o.set != nil && o.set(flag) {
				apply()
			}
		}
	}
}

func (o *DebateOptions) documents() app.Documents {
	return app.Documents{Dir: o.DecisionsDir, Asked: o.Asked}
}

// resumeCompleted writes again the documents of a completed debate whose
// decision document is missing; otherwise there is nothing to resume.
func resumeCompleted(ctx context.Context, f *Factory, o *DebateOptions, a *app.App, id string) error {
	events, err := a.Store.Load(ctx, id, 0)
	if err != nil {
		return err
	}
	st, err := debate.Fold(events)
	if err != nil {
		return err
	}
	format, err := f.Formats.Get(st.Format)
	var missing debate.Document
	ok := false
	if err == nil {
		missing, ok = app.MissingDocument(format, st)
	}
	if !ok {
		return usageErrorf("debate %s is already completed: 'parley show %s' or 'parley export %s'", id, id, id)
	}
	if o.set == nil || !o.set("decisions-dir") {
		if dir := app.DocumentsDir(format, st); dir != "" {
			o.DecisionsDir = dir // where they were written
		}
	}
	written, err := a.WriteArtifacts(ctx, format, st, o.documents())
	if err != nil {
		return err
	}
	fmt.Fprintln(f.IO.ErrOut, errLine(f.IO, app.MissingNote(id, missing)))
	for _, a := range written {
		fmt.Fprintln(f.IO.ErrOut, errLine(f.IO, fmt.Sprintf("%s written to %s", app.ArtifactTitle(format, a.Kind), a.Path)))
	}
	return nil
}

func describeRunError(f *Factory, id string, err error, pauseShown bool, st *debate.State) error {
	var pe *debate.PausedError
	var le *llm.Error
	var held *debate.LeaseHeldError
	hint := fmt.Sprintf("resume with: parley debate --resume %s", id)
	if errors.As(err, &pe) && pe.Reason == debate.PauseBudget {
		if h := budgetHint(id, st); h != "" {
			hint = h
		}
	}
	if errors.As(err, &pe) {
		if h := timeoutHint(id, pe.Reason, st); h != "" {
			hint = h
		}
	}
	// On a terminal the pause, with the provider's answer, was printed
	// just above: the closing line points at it rather than say it again.
	cause := err
	switch {
	case pauseShown:
		cause = &shownAbove{err: err}
	case errors.As(err, &pe) && pe.Detail != "":
		// The closing line says the debate paused: its cause is the
		// turn and the provider's answer, not "debate paused (error)" again.
		cause = &pauseDetail{pe}
	}
	switch {
	case errors.As(err, &held):
		return held
	case errors.As(err, &le) && le.Kind == llm.ErrAuth && errors.Is(err, llm.ErrNoAPIKey):
		return &ConfigError{Err: fmt.Errorf("debate %s paused: no API key is set for the provider (%w); set it, then %s", id, cause, hint)}
	case errors.As(err, &le) && le.Kind == llm.ErrAuth:
		return &ConfigError{Err: fmt.Errorf("debate %s paused: the provider rejected the API key (%w); fix the key, then %s", id, cause, hint)}
	case errors.As(err, &le) && le.Kind == llm.ErrBadRequest:
		// The provider's error says what to change (the model, the address,
		// a parameter, the context window); a resume can switch the model.
		fix := "change what it names (a resume takes --model), then " + hint
		if pauseShown {
			return &ConfigError{Err: fmt.Errorf("debate %s paused: the provider refused the request (%w); %s", id, cause, fix)}
		}
		// The answer may end in a hint of its own on a line of its own.
		return &ConfigError{Err: fmt.Errorf("debate %s paused: the provider refused the request: %w\n%s", id, cause, fix)}
	case errors.As(err, &pe) && pauseShown:
		return &debate.PausedError{Reason: pe.Reason, Detail: hint, Err: pe.Err}
	case errors.As(err, &pe):
		return &debate.PausedError{Reason: pe.Reason, Detail: strings.TrimSpace(pe.Detail + "\n" + hint), Err: pe.Err}
	case errors.Is(err, debate.ErrNoModel):
		return &ConfigError{Err: err}
	}
	return fmt.Errorf("debate %s: %w; %s", id, err, hint)
}

// budgetHint is how to resume a debate paused on a budget: with a larger
// one. The plain 'parley debate --resume ID' the closing line gave paused it
// again before its next turn, on the same advice.
func budgetHint(id string, st *debate.State) string {
	switch {
	case st == nil:
		return ""
	case st.Limits.DebateBudget > 0 && st.Usage.Total() >= st.Limits.DebateBudget:
		return fmt.Sprintf("resume with a larger budget: parley debate --resume %s --debate-budget N (N above %d, or 0 for no limit)", id, st.Usage.Total())
	case st.Limits.TurnBudget > 0:
		return fmt.Sprintf("resume with a larger budget: parley debate --resume %s --turn-budget N (N above %d, or 0 for no limit)", id, st.Limits.TurnBudget)
	}
	return ""
}

// timeoutHint is how to resume a debate paused on a timeout. Each run has
// the debate's time again, so a plain resume goes on; but a turn that
// alone takes longer pauses it there every time, and the flag that gives it
// more time went unsaid.
func timeoutHint(id, reason string, st *debate.State) string {
	switch {
	case st == nil:
		return ""
	case reason == debate.PauseTimeout && st.Limits.DebateTimeout > 0:
		return fmt.Sprintf("resume with: parley debate --resume %s (another %s), or with more time: --debate-timeout D (D above %s)", id, st.Limits.DebateTimeout, st.Limits.DebateTimeout)
	case reason == debate.PauseRoundTimeout && st.Limits.RoundTimeout > 0:
		return fmt.Sprintf("resume with: parley debate --resume %s (another %s a round), or with more time: --round-timeout D (D above %s)", id, st.Limits.RoundTimeout, st.Limits.RoundTimeout)
	}
	return ""
}

// pauseDetail is a pause's cause as its detail says it (the turn and the
// provider's answer), without the "debate paused" its line already says.
type pauseDetail struct{ pe *debate.PausedError }

func (e *pauseDetail) Error() string { return e.pe.Detail }
func (e *pauseDetail) Unwrap() error { return e.pe }

// shownAbove is an error already printed above the line that names it.
type shownAbove struct{ err error }

func (*shownAbove) Error() string   { return "its answer is above" }
func (e *shownAbove) Unwrap() error { return e.err }

// printFinish prints the decision (without the lists the live view already
// printed: fresh) and where its documents went.
func printFinish(f *Factory, o *DebateOptions, format debate.Format, st *debate.State, written []debate.ArtifactWritten, fresh func(string) string) error {
	doc, err := app.RenderDoc(format, st, true)
	if err != nil {
		return err
	}
	cs := f.IO.Colors()
	if !o.JSON {
		fmt.Fprintf(f.IO.Out, "\n%s\n\n%s", view.FoldLine(cs.Bold("═══ Decision ═══"), f.IO.TerminalWidth()), wrapDoc(f, fresh(doc)))
	}
	// The closing lines fold to the terminal as the lines around the
	// view do (errLine): written whole, the terminal folded them to
	// column 0, a path or an id cut in the middle.
	for _, a := range written {
		fmt.Fprintln(f.IO.ErrOut, errLine(f.IO, fmt.Sprintf("%s written to %s", app.ArtifactTitle(format, a.Kind), a.Path)))
	}
	fmt.Fprintln(f.IO.ErrOut, errLine(f.IO, fmt.Sprintf("Debate %s: %s", st.ID, app.DebateTotals(st))))
	return nil
}

// errLine is s as printed on standard error around the live view: on a
// terminal each of its lines folded at spaces to the width, continuation
// lines indented, as the view's own lines are (the terminal folded a long
// models line or closing error to column 0, where only headings start).
// A command it names ("resume with: parley debate --resume DEB-…") is
// never broken: pasted back over two lines, the shell would run its first
// half. Standard error redirected (2>log) takes it as it is.
func errLine(ios *iostreams.IOStreams, s string) string {
	if !ios.IsTerminal() || !view.Redrawable(ios.ErrOut) {
		return s
	}
	return foldLines(s, ios.TerminalWidth())
}

// outLine is errLine for a line of standard output, folded when it is a
// terminal (the lines 'parley show' prints above the document).
func outLine(ios *iostreams.IOStreams, s string) string {
	return foldLines(s, ios.TerminalWidth())
}

// foldLines folds each line of s to width (0: as it is), keeping each
// command it names whole.
func foldLines(s string, width int) string {
	if width <= 0 {
		return s
	}
	lines := strings.Split(s, "\n")
	for i, line := range lines {
		line = view.FoldLine(glueCommands(line), width)
		lines[i] = strings.ReplaceAll(line, glue, " ")
	}
	return strings.Join(lines, "\n")
}

// glue stands for a space inside a command while a line is folded (a
// no-break space, which no message of parley's holds).
const glue = "\u00a0"

// glueCommands joins the words of each command line names ("parley …",
// up to a closing quote, a ";", a ", ", a ")" or the line's end) so that
// a fold does not break it.
func glueCommands(line string) string {
	var b strings.Builder
	for {
		i := strings.Index(line, "parley ")
		if i < 0 || (i > 0 && line[i-1] != ' ' && line[i-1] != '\'' && line[i-1] != '(') {
			if i < 0 {
				b.WriteString(line)
				return b.String()
			}
			b.WriteString(line[:i+len("parley ")])
			line = line[i+len("parley "):]
			continue
		}
		b.WriteString(line[:i])
		cmd := line[i:]
		end := len(cmd)
		for _, stop := range []string{"'", ";", ", ", ")"} {
			if j := strings.Index(cmd, stop); j >= 0 && j < end {
				end = j
			}
		}
		b.WriteString(strings.ReplaceAll(cmd[:end], " ", glue))
		line = cmd[end:]
	}
}

// outDirUsage is the usage of --out-dir: where the documents completed
// debates write go, naming the formats that write them (app.WrittenDocuments),
// with its default.
func outDirUsage(formats *debate.Formats, def string) string {
	which := app.WrittenDocuments(formats)
	if which == "" {
		which = "none of the formats writes one"
	}
	return "`directory` for the documents completed debates write (" + which + ") (default: " + def + ")"
}
