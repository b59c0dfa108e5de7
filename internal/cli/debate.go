package cli

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"maps"
	"os"
	"os/signal"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"syscall"
	"time"
	"unicode/utf8"

	"github.com/spf13/cobra"

	"github.com/parleyhq/parley/internal/debate"
	"github.com/parleyhq/parley/internal/format/bullbear"
	"github.com/parleyhq/parley/internal/format/perspectives"
	"github.com/parleyhq/parley/internal/llm"
	"github.com/parleyhq/parley/internal/llm/pricing"
	"github.com/parleyhq/parley/internal/report"
	"github.com/parleyhq/parley/internal/textsafe"
	"github.com/parleyhq/parley/internal/view"
)

// MaxTopicLen bounds the topic: a debate question, not a document.
const MaxTopicLen = 2000

// DebateOptions are the `parley debate` flags and arguments.
type DebateOptions struct {
	Topic         string
	Format        string
	Resume        string
	Perspectives  int
	MaxRounds     int
	NoCheckpoints bool
	Catalog       string
	Models        ModelFlags
	JSON          bool

	// Flags shared by several formats; each format reads those it uses.
	Agents       []string // council, crux: agents or personas
	Rounds       int      // formal: argumentation rounds
	Deep         bool     // bullbear: two rebuttal rounds
	Framework    string   // bullbear: piotroski, altman
	Hints        []string // bullbear: "bull: ..." hints
	Offline      bool     // no network and no model: data-only agents on the shipped SEC snapshot (bullbear)
	Snapshot     bool     // the shipped SEC snapshot instead of EDGAR, with the configured model (bullbear, council)
	Risk         string   // council: neutral | averse
	ContextDir   string   // formal: directory to build the shared context from
	Focus        string   // formal: --perspective ROLE
	Personas     string   // crux: YAML file of personas
	DecisionsDir string
	IssueDraft   bool

	TurnBudget    int
	DebateBudget  int
	RoundTimeout  time.Duration
	DebateTimeout time.Duration
	CallTimeout   time.Duration
	// CheckpointTimeout pauses the debate when no one answers a checkpoint.
	CheckpointTimeout time.Duration

	set func(name string) bool // whether a flag was given (for resume overrides)

	// From the config file.
	maxRoundsFromConfig bool
	customPerspectives  []perspectives.Perspective
}

// defaultDebateOptions are the options of a debate with no flag given.
func defaultDebateOptions() *DebateOptions {
	lim := debate.DefaultLimits()
	return &DebateOptions{Format: "perspectives", MaxRounds: perspectives.DefaultMaxRounds, Rounds: 2, Risk: "neutral",
		DecisionsDir: "docs/decisions", TurnBudget: lim.TurnBudget, DebateBudget: lim.DebateBudget,
		RoundTimeout: lim.RoundTimeout, DebateTimeout: lim.DebateTimeout, CallTimeout: lim.CallTimeout,
		CheckpointTimeout: lim.CheckpointTimeout}
}

func newDebateCmd(f *Factory, run func(context.Context, *DebateOptions) error) *cobra.Command {
	opts := &DebateOptions{}
	lim := debate.DefaultLimits()
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

While a debate runs you can type a hint for an agent (AGENT: TEXT); it applies to that agent's
next turn. Press Ctrl+C at any moment: the debate pauses and 'parley debate --resume ID' continues it.`,
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
			if opts.Resume != "" {
				if len(args) > 0 {
					return usageErrorf("--resume takes no topic: the debate already has one")
				}
				return nil
			}
			if len(args) == 0 {
				return usageErrorf("a topic is required: parley debate \"Should we use Redis or PostgreSQL for caching?\"")
			}
			if len(args) > 1 {
				return usageErrorf("the topic must be one argument: put it in quotes (got %d arguments)", len(args))
			}
			return nil
		},
		RunE: func(cmd *cobra.Command, args []string) error {
			if len(args) == 1 {
				opts.Topic = args[0]
			}
			opts.set = func(name string) bool {
				if name == "out-dir" || name == "decisions-dir" {
					return cmd.Flags().Changed("out-dir") || cmd.Flags().Changed("decisions-dir")
				}
				return cmd.Flags().Changed(name)
			}
			if !opts.set("format") && impliesBullbear(opts) {
				opts.Format = bullbear.Name
			}
			opts.TurnBudget, opts.DebateBudget = lim.TurnBudget, lim.DebateBudget
			opts.RoundTimeout, opts.DebateTimeout, opts.CallTimeout = lim.RoundTimeout, lim.DebateTimeout, lim.CallTimeout
			opts.CheckpointTimeout = lim.CheckpointTimeout
			if opts.Resume == "" {
				// A resumed debate keeps its recorded settings: the config
				// file gives defaults to new debates only.
				c, err := loadConfig(f.Env)
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
			if run != nil {
				return run(cmd.Context(), opts)
			}
			if err := offerBullbearResume(cmd.Context(), f, opts); err != nil {
				return err
			}
			return runDebate(cmd.Context(), f, opts)
		},
	}
	fl := cmd.Flags()
	fl.StringVar(&opts.Format, "format", "perspectives", "debate `format`: "+strings.Join(f.Formats.Names(), ", "))
	fl.StringVar(&opts.Resume, "resume", "", "resume the unfinished debate with this `ID`")
	fl.IntVar(&opts.Perspectives, "perspectives", 0, "number of debaters, 2-4 (default: the moderator decides)")
	fl.IntVar(&opts.MaxRounds, "max-rounds", perspectives.DefaultMaxRounds, "cap on rounds (perspectives; council: 1-5, default 3)")
	fl.BoolVar(&opts.NoCheckpoints, "no-checkpoints", false, "run to the end without asking after each round")
	fl.StringVar(&opts.Catalog, "catalog", "", "YAML `file` extending or overriding the perspective catalog")
	fl.StringVar(&opts.Models.Provider, "provider", "", "model provider: anthropic, openai or ollama (default: detected from the environment)")
	fl.StringVar(&opts.Models.Model, "model", "", "model `name` for every role")
	fl.StringArrayVar(&opts.Models.ModelFor, "model-for", nil, "a model for one role, `ROLE=[PROVIDER/]MODEL` (repeatable), e.g. moderator=claude-opus-4-1; roles: perspectives moderator, debater; bullbear bull, bear, moderator; council analyst; crux persona, moderator; formal debater (or pro, opp), moderator")
	fl.BoolVar(&opts.JSON, "json", false, "write the event stream as JSON lines instead of the terminal view")
	fl.StringSliceVar(&opts.Agents, "agents", nil, "agents or personas, comma-separated (council, crux)")
	fl.IntVar(&opts.Rounds, "rounds", 2, "argumentation rounds (formal)")
	fl.BoolVar(&opts.Deep, "deep", false, "two rebuttal rounds (bullbear)")
	fl.StringVar(&opts.Framework, "framework", "", "scoring `framework` for the debate: piotroski or altman (bullbear)")
	fl.StringArrayVar(&opts.Hints, "hint", nil, "guidance for one agent, `AGENT: TEXT` (repeatable; bullbear)")
	fl.BoolVar(&opts.Offline, "offline", false, "no network at all: no model, no EDGAR; data-only agents argue from the SEC data shipped with Parley (bullbear)")
	fl.BoolVar(&opts.Snapshot, "snapshot", false, "the SEC data shipped with Parley instead of live EDGAR, with your model (bullbear, council)")
	fl.StringVar(&opts.Risk, "risk", "neutral", "risk stance: neutral or averse (council)")
	fl.StringVar(&opts.ContextDir, "context", "", "`directory` whose code, docs and git history form the shared context (formal)")
	fl.StringVar(&opts.Focus, "perspective", "", "focus one `role` (formal)")
	fl.StringVar(&opts.Personas, "personas", "", "YAML `file` of personas (crux)")
	fl.StringVar(&opts.DecisionsDir, "out-dir", "docs/decisions", "`directory` for the decision document (default: docs/decisions at the root of the git repository you are in, else here)")
	fl.StringVar(&opts.DecisionsDir, "decisions-dir", "docs/decisions", "same as --out-dir")
	fl.BoolVar(&opts.IssueDraft, "issue-draft", false, "also write an issue draft made from the decision")
	fl.Var((*budgetFlag)(&lim.TurnBudget), "turn-budget", "output `tokens` per debater per round (0 or unlimited: no limit)")
	fl.Var((*budgetFlag)(&lim.DebateBudget), "debate-budget", "`tokens` for the whole debate (0 or unlimited: no limit)")
	fl.DurationVar(&lim.RoundTimeout, "round-timeout", lim.RoundTimeout, "time limit per round")
	fl.DurationVar(&lim.DebateTimeout, "debate-timeout", lim.DebateTimeout, "time limit for the whole run")
	fl.DurationVar(&lim.CallTimeout, "call-timeout", lim.CallTimeout, "time limit per model call")
	fl.DurationVar(&lim.CheckpointTimeout, "checkpoint-timeout", lim.CheckpointTimeout, "pause the debate when a checkpoint gets no answer in this time")
	return cmd
}

// wrapDoc wraps a Markdown document for the terminal it is printed on, as
// the live view wraps streamed text; tables and code blocks keep their
// lines. Without a terminal the document is printed as it is.
func wrapDoc(f *Factory, doc string) string {
	width := f.IO.TerminalWidth()
	if width <= 0 {
		return doc
	}
	lines := strings.Split(doc, "\n")
	code := false
	for i, line := range lines {
		if strings.HasPrefix(line, "```") {
			code = !code
		}
		if code || strings.HasPrefix(line, "|") || strings.HasPrefix(line, "```") {
			continue
		}
		lines[i], _ = view.Wrap(line, 0, width)
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

// checkRoles refuses a --model-for role the format has no turn for: a
// model given for it would silently never be used.
func checkRoles(format debate.Format, mf ModelFlags) error {
	r, ok := format.(interface{ Roles() []string })
	if !ok {
		return nil
	}
	for _, spec := range mf.ModelFor {
		role, _, _ := strings.Cut(spec, "=")
		role = strings.TrimSpace(role)
		if !slices.Contains(r.Roles(), role) {
			return usageErrorf("--model-for %s: the %s format has no role %q; its roles are %s", spec, format.Name(), role, strings.Join(r.Roles(), ", "))
		}
	}
	return nil
}

// dataFlag names the flag that asked for the shipped SEC snapshot ("" when
// none did).
func (o *DebateOptions) dataFlag() string {
	switch {
	case o.Offline:
		return "--offline"
	case o.Snapshot:
		return "--snapshot"
	}
	return ""
}

// recordedSnapshot is secSource's flag for a resumed debate whose options
// record whether it used the snapshot.
func recordedSnapshot(snapshot bool) string {
	if snapshot {
		return "the debate was started on the shipped snapshot"
	}
	return ""
}

// modelFlags reports whether any model flag was given.
func (o *DebateOptions) modelFlags() bool {
	return o.Models.Provider != "" || o.Models.Model != "" || len(o.Models.ModelFor) > 0
}

// validate checks the options that need no I/O.
func (o *DebateOptions) validate() error {
	if o.Resume != "" {
		return nil
	}
	topic := strings.TrimSpace(o.Topic)
	switch {
	case topic == "":
		return usageErrorf("the topic is empty: ask a question, for example \"Should we use Redis or PostgreSQL for caching?\"")
	case !utf8.ValidString(topic):
		return usageErrorf("the topic is not valid UTF-8")
	case utf8.RuneCountInString(topic) > MaxTopicLen:
		return usageErrorf("the topic is %d characters; keep it under %d: state the decision, not the background", utf8.RuneCountInString(topic), MaxTopicLen)
	}
	o.Topic = topic
	if o.MaxRounds < 1 {
		return usageErrorf("--max-rounds %d: give at least 1", o.MaxRounds)
	}
	if o.TurnBudget < 0 || o.DebateBudget < 0 {
		return usageErrorf("token budgets cannot be negative (0 means unlimited)")
	}
	for name, d := range map[string]time.Duration{"--round-timeout": o.RoundTimeout, "--debate-timeout": o.DebateTimeout, "--call-timeout": o.CallTimeout, "--checkpoint-timeout": o.CheckpointTimeout} {
		if d <= 0 {
			return usageErrorf("%s %s: give a positive duration such as 2m", name, d)
		}
	}
	return nil
}

func (o *DebateOptions) limits() debate.Limits {
	l := debate.DefaultLimits()
	l.TurnBudget, l.DebateBudget = o.TurnBudget, o.DebateBudget
	l.RoundTimeout, l.DebateTimeout, l.CallTimeout = o.RoundTimeout, o.DebateTimeout, o.CallTimeout
	l.CheckpointTimeout = o.CheckpointTimeout
	return l
}

func newDebateID() string {
	var b [4]byte
	_, _ = rand.Read(b[:])
	return "DEB-" + hex.EncodeToString(b[:])
}

func runDebate(ctx context.Context, f *Factory, o *DebateOptions) error {
	if err := o.validate(); err != nil {
		return err
	}
	var (
		cast      debate.Cast
		models    map[string]string
		endpoints map[string]string
		changes   []debate.CastChanged
	)
	if o.Resume == "" {
		if fm, err := f.Formats.Get(o.Format); err == nil {
			if err := checkRoles(fm, o.Models); err != nil {
				return err
			}
		}
		switch {
		case o.Offline && o.modelFlags():
			return usageErrorf("--offline runs with no model and no network; drop --provider/--model/--model-for, or use --snapshot to run your model on the SEC data shipped with Parley")
		case o.Offline && o.Format != bullbear.Name:
			return usageErrorf("--offline runs with no model, and the %s format needs one; use --snapshot for the SEC data shipped with Parley with your model", o.Format)
		case o.Offline:
			// No model at all, whatever the environment offers.
		default:
			var err error
			if cast, models, endpoints, err = resolveCastEndpoints(o.Models, f.Env); err != nil {
				return &ConfigError{Err: err}
			}
		}
	}
	store, err := f.OpenStore(ctx)
	if err != nil {
		return err
	}
	defer store.Close()

	ctx, stop := signal.NotifyContext(ctx, os.Interrupt, syscall.SIGTERM)
	defer stop()

	var (
		id     string
		format debate.Format
		topic  string
		opts   json.RawMessage
		lim    *debate.Limits
	)
	if o.Resume != "" {
		if id, err = resolveID(ctx, store, o.Resume); err != nil {
			return err
		}
		sum, err := store.Get(ctx, id)
		if err != nil {
			if errors.Is(err, debate.ErrNotFound) {
				return usageErrorf("no debate %s: 'parley list' shows the debates", id)
			}
			return err
		}
		if sum.Status == debate.StatusCompleted {
			return resumeCompleted(ctx, f, o, store, id)
		}
		if format, err = f.Formats.Get(sum.Format); err != nil {
			return err
		}
		if err := checkRoles(format, o.Models); err != nil {
			return err
		}
		// Budgets and timeouts given on resume replace the stored ones, so
		// that a debate paused on its budget can go on with a larger one.
		events, err := store.Load(ctx, id, 0)
		if err != nil {
			return err
		}
		st, err := debate.Fold(events)
		if err != nil {
			return err
		}
		l := st.Limits
		for flag, apply := range map[string]func(){
			"turn-budget": func() { l.TurnBudget = o.TurnBudget }, "debate-budget": func() { l.DebateBudget = o.DebateBudget },
			"round-timeout": func() { l.RoundTimeout = o.RoundTimeout }, "debate-timeout": func() { l.DebateTimeout = o.DebateTimeout },
			"call-timeout": func() { l.CallTimeout = o.CallTimeout }, "checkpoint-timeout": func() { l.CheckpointTimeout = o.CheckpointTimeout },
		} {
			if o.set != nil && o.set(flag) {
				apply()
			}
		}
		lim = &l
		topic, opts = st.Topic, st.Options
		// The recorded cast is the cast: a resume never picks up another
		// model from the environment. Flags change it only explicitly, and
		// the change is recorded.
		models, endpoints = maps.Clone(st.Models), maps.Clone(st.Endpoints)
		if o.Offline && len(models) > 0 {
			return usageErrorf("debate %s runs with %s; --offline would switch it to data-only agents: resume without --offline", id, describeCast(models, nil))
		}
		if o.modelFlags() {
			if changes, err = overrideCast(o.Models, models, f.Env); err != nil {
				return &ConfigError{Err: err}
			}
			for _, c := range changes {
				if models == nil {
					models = map[string]string{}
				}
				models[c.Role] = c.To
				if p, _, _ := strings.Cut(c.To, "/"); c.Endpoint != "" {
					if endpoints == nil {
						endpoints = map[string]string{}
					}
					endpoints[p] = c.Endpoint
				}
			}
		}
		if cast, err = castFromRecord(id, models, endpoints, f.Env); err != nil {
			return &ConfigError{Err: err}
		}
	} else {
		if format, err = f.Formats.Get(o.Format); err != nil {
			return &UsageError{Err: err}
		}
		if err := checkRoles(format, o.Models); err != nil {
			return err
		}
		adapter, ok := formatCLIs()[format.Name()]
		if !ok {
			return usageErrorf("format %s cannot be started from the command line yet", format.Name())
		}
		if opts, err = adapter.Options(ctx, f, o); err != nil {
			return err
		}
		topic = o.Topic
	}
	proto, err := format.Protocol(topic, opts)
	if err != nil {
		return &UsageError{Err: err}
	}
	adapter, ok := formatCLIs()[format.Name()]
	if !ok {
		return usageErrorf("format %s cannot be run from the command line yet", format.Name())
	}
	tools, err := adapter.Prepare(ctx, f, o, topic, opts, &cast)
	if err != nil {
		return err
	}
	for _, c := range changes {
		from, to := c.From, c.To
		if from == "" {
			from = "data-only agents"
		}
		if to == "" {
			to = "data-only agents"
		}
		fmt.Fprintf(f.IO.ErrOut, "%s now answers with %s, was %s\n", roleName(c.Role), to, from)
	}
	fmt.Fprintln(f.IO.ErrOut, describeCast(models, slices.Sorted(maps.Keys(cast.Responders))))

	runner := &debate.Runner{Store: store, Cast: cast, Tools: tools, Limits: lim, Now: f.Now, Price: priceFunc()}
	for _, c := range changes {
		runner.OnStart = append(runner.OnStart, c)
	}
	human := newTerminalHuman(f.IO)
	if o.Resume == "" {
		id = newDebateID()
		if err := runner.Create(ctx, id, debate.Created{Format: format.Name(), Topic: topic, Options: opts, Limits: o.limits(), Models: models, Endpoints: endpoints}); err != nil {
			return err
		}
	}
	runner.Human = human

	var describe view.Describer
	if d, ok := format.(interface{ Describe(*debate.Turn) string }); ok {
		describe = d.Describe
	}
	live := view.NewLive(f.IO, o.JSON, describe)
	human.sync = live.Sync
	human.hint = func(target, text string) error {
		_, err := runner.Hint(ctx, target, text)
		return err
	}
	human.targets = live.Agents
	human.listen()
	viewCtx, cancelView := context.WithCancel(context.WithoutCancel(ctx))
	viewDone := make(chan struct{})
	go func() {
		defer close(viewDone)
		for e, err := range store.Subscribe(viewCtx, id, 0) {
			if err != nil {
				return
			}
			live.Handle(e)
		}
	}()

	st, runErr := runner.Run(ctx, id, proto)
	// The documents are part of the debate: written and recorded before the
	// view closes, so that --json streams every event, artifact.written too.
	var written []debate.ArtifactWritten
	var finishErr error
	if runErr == nil {
		written, finishErr = writeArtifacts(ctx, f, o, store, format, st)
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
	if runErr != nil {
		return describeRunError(f, id, runErr)
	}
	if finishErr != nil {
		return finishErr
	}
	return printFinish(f, o, format, st, written)
}

// resumeCompleted writes again the documents of a completed debate whose
// decision document is missing; otherwise there is nothing to resume.
func resumeCompleted(ctx context.Context, f *Factory, o *DebateOptions, store debate.Store, id string) error {
	events, err := store.Load(ctx, id, 0)
	if err != nil {
		return err
	}
	st, err := debate.Fold(events)
	if err != nil {
		return err
	}
	if !missingDecision(st) {
		return usageErrorf("debate %s is already completed: 'parley show %s' or 'parley export %s'", id, id, id)
	}
	format, err := f.Formats.Get(st.Format)
	if err != nil {
		return err
	}
	for _, a := range st.Artifacts {
		if a.Kind == "decision" && (o.set == nil || !o.set("decisions-dir")) {
			o.DecisionsDir = filepath.Dir(a.Path) // where it was written first
		}
	}
	written, err := writeArtifacts(ctx, f, o, store, format, st)
	if err != nil {
		return err
	}
	fmt.Fprintf(f.IO.ErrOut, "Debate %s was completed but its decision document was missing; it is written again.\n", id)
	for _, a := range written {
		fmt.Fprintf(f.IO.ErrOut, "%s written to %s\n", artifactName(a.Kind), a.Path)
	}
	return nil
}

func artifactName(kind string) string {
	if n, ok := map[string]string{"decision": "Decision document", "issue-draft": "Issue draft"}[kind]; ok {
		return n
	}
	return kind
}

func describeRunError(f *Factory, id string, err error) error {
	var pe *debate.PausedError
	var le *llm.Error
	var held *debate.LeaseHeldError
	hint := fmt.Sprintf("resume with: parley debate --resume %s", id)
	switch {
	case errors.As(err, &held):
		return held
	case errors.As(err, &le) && le.Kind == llm.ErrAuth:
		return &ConfigError{Err: fmt.Errorf("debate %s paused: the provider rejected the API key (%w); fix the key, then %s", id, err, hint)}
	case errors.As(err, &le) && le.Kind == llm.ErrBadRequest:
		return &ConfigError{Err: fmt.Errorf("debate %s paused: the provider refused the request (%w): check --model; then %s", id, err, hint)}
	case errors.As(err, &pe):
		return &debate.PausedError{Reason: pe.Reason, Detail: strings.TrimSpace(pe.Detail + "\n" + hint), Err: pe.Err}
	case errors.Is(err, debate.ErrNoModel):
		return &ConfigError{Err: err}
	}
	return fmt.Errorf("debate %s: %w; %s", id, err, hint)
}

// writeArtifacts writes a completed debate's documents (the decision
// document of a perspectives debate, its issue draft) atomically and records
// each as an artifact.written event.
func writeArtifacts(ctx context.Context, f *Factory, o *DebateOptions, store debate.Store, format debate.Format, st *debate.State) ([]debate.ArtifactWritten, error) {
	if format.Name() != perspectives.Name || o.DecisionsDir == "" {
		return nil, nil
	}
	doc, err := renderDoc(format, st, true)
	if err != nil {
		return nil, err
	}
	var out []debate.ArtifactWritten
	path := perspectives.DecisionPath(o.DecisionsDir, st)
	if err := writeFileAtomic(path, []byte(doc)); err != nil {
		return nil, fmt.Errorf("write the decision document: %w (the debate is saved: parley export %s -o FILE, or parley debate --resume %s to write it again)", err, st.ID, st.ID)
	}
	if err := appendArtifact(ctx, store, st.ID, f.Now(), "decision", path); err != nil {
		return nil, err
	}
	out = append(out, debate.ArtifactWritten{Kind: "decision", Path: path})
	if o.IssueDraft {
		draft, err := perspectives.Format{}.IssueDraft(st)
		if err != nil {
			return out, err
		}
		ipath := strings.TrimSuffix(path, ".md") + "-issue.md"
		if err := writeFileAtomic(ipath, []byte(textsafe.Clean(draft))); err != nil {
			return out, fmt.Errorf("write the issue draft: %w", err)
		}
		if err := appendArtifact(ctx, store, st.ID, f.Now(), "issue-draft", ipath); err != nil {
			return out, err
		}
		out = append(out, debate.ArtifactWritten{Kind: "issue-draft", Path: ipath})
	}
	return out, nil
}

// printFinish prints the decision and where its documents went.
func printFinish(f *Factory, o *DebateOptions, format debate.Format, st *debate.State, written []debate.ArtifactWritten) error {
	doc, err := renderDoc(format, st, true)
	if err != nil {
		return err
	}
	cs := f.IO.Colors()
	if !o.JSON {
		fmt.Fprintf(f.IO.Out, "\n%s\n\n%s", cs.Bold("═══ Decision ═══"), wrapDoc(f, doc))
	}
	for _, a := range written {
		fmt.Fprintf(f.IO.ErrOut, "%s written to %s\n", artifactName(a.Kind), a.Path)
	}
	u := st.Usage
	cost := report.Dollars(report.Total(report.Usage(st)))
	if cost == "—" {
		cost = "no cost (no LLM)"
	}
	fmt.Fprintf(f.IO.ErrOut, "Debate %s: %d turns, %d input tokens (%d cached), %d output tokens, %s\n",
		st.ID, len(st.Done), u.InputTokens, u.CacheReadTokens, u.OutputTokens, cost)
	return nil
}

// missingDecision reports whether a completed perspectives debate lacks its
// decision document: never recorded (the process died between the
// debate's completion and the write) or recorded and gone from disk.
func missingDecision(st *debate.State) bool {
	if st.Format != perspectives.Name {
		return false
	}
	for _, a := range st.Artifacts {
		if a.Kind == "decision" {
			if _, err := os.Stat(a.Path); err == nil {
				return false
			}
		}
	}
	return true
}

func appendArtifact(ctx context.Context, store debate.Store, id string, at time.Time, kind, path string) error {
	e, err := debate.NewEvent(id, at, debate.ArtifactWritten{Kind: kind, Path: path})
	if err != nil {
		return err
	}
	_, err = store.Append(ctx, id, e)
	return err
}

// writeFileAtomic writes through a temporary file and a rename, so that a
// failure never leaves a half-written document.
func writeFileAtomic(path string, data []byte) error {
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		return err
	}
	tmp, err := os.CreateTemp(filepath.Dir(path), "."+filepath.Base(path)+".*")
	if err != nil {
		return err
	}
	defer os.Remove(tmp.Name())
	if _, err := tmp.Write(data); err != nil {
		tmp.Close()
		return err
	}
	if err := tmp.Sync(); err != nil {
		tmp.Close()
		return err
	}
	if err := tmp.Close(); err != nil {
		return err
	}
	return os.Rename(tmp.Name(), path)
}

// priceFunc prices a call made with a "provider/model" from the built-in
// table; local servers cost nothing, unknown models are counted as 0.
func priceFunc() func(string, llm.Usage) float64 {
	table := pricing.Default()
	return func(model string, u llm.Usage) float64 {
		provider, name, _ := strings.Cut(model, "/")
		usd, _ := table.CostFor(provider, name, u)
		return usd
	}
}
