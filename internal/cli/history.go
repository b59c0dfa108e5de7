package cli

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"slices"
	"strconv"
	"strings"
	"text/tabwriter"
	"time"

	"github.com/spf13/cobra"

	"github.com/parleyhq/parley/internal/app"
	"github.com/parleyhq/parley/internal/debate"
	"github.com/parleyhq/parley/internal/report"
	"github.com/parleyhq/parley/internal/store/open"
	"github.com/parleyhq/parley/internal/textsafe"
)

// ListOptions are the `parley list` flags.
type ListOptions struct {
	Format string
	Status string
	Limit  int
	All    bool
	JSON   bool
	// limitSet is whether --limit was given, which --all contradicts.
	limitSet bool
}

func newListCmd(f *Factory, run func(context.Context, *ListOptions) error) *cobra.Command {
	opts := &ListOptions{}
	cmd := &cobra.Command{
		Use:     "list",
		Short:   "List debates, newest first",
		Long:    "List debates, newest first: by when each was created (the CREATED column), so that a debate\nresumed later keeps its place. 'list --json' gives each one's created and updated times.",
		Example: "  parley list\n  parley list --status paused --all\n  parley list --format perspectives --limit 5 --json",
		Args:    noArgs,
		RunE: func(cmd *cobra.Command, args []string) error {
			opts.limitSet = cmd.Flags().Changed("limit")
			if run != nil {
				return run(cmd.Context(), opts)
			}
			return runList(cmd.Context(), f, opts)
		},
	}
	nameVar(cmd.Flags(), &opts.Format, "format", "", "only debates of this `format`")
	nameVar(cmd.Flags(), &opts.Status, "status", "", "only debates in this `status`: "+statusNames(", "))
	cmd.Flags().IntVar(&opts.Limit, "limit", 20, "at most this many, the newest (0 = all)")
	cmd.Flags().BoolVar(&opts.All, "all", false, "every debate that matches (as --limit 0)")
	cmd.Flags().BoolVar(&opts.JSON, "json", false, "print JSON")
	return cmd
}

func runList(ctx context.Context, f *Factory, o *ListOptions) error {
	want := debate.Status(o.Status)
	if want != "" && !slices.Contains(app.Statuses(), want) {
		return usageErrorf("--status %q: choose %s", o.Status, statusNames(" or "))
	}
	if o.Format != "" {
		if _, err := f.Formats.Get(o.Format); err != nil {
			return &UsageError{Err: err}
		}
	}
	if o.Limit < 0 {
		return usageErrorf("--limit %d: give 0 (all) or more", o.Limit)
	}
	limit := o.Limit
	if o.All {
		if o.limitSet && o.Limit != 0 {
			return usageErrorf("--all and --limit %d: give one of them (--all lists every debate)", o.Limit)
		}
		limit = 0
	}
	store, ok, err := f.OpenStoreReadOnly(ctx)
	if err != nil {
		return err
	}
	if !ok {
		if o.JSON {
			fmt.Fprintln(f.IO.Out, "[]")
			return nil
		}
		fmt.Fprintln(f.IO.ErrOut, "No debates yet. Start one: parley debate \"Should we use Redis or PostgreSQL for caching?\"")
		return nil
	}
	defer store.Close()
	a, err := f.App(store)
	if err != nil {
		return err
	}
	// One more than the limit, to tell whether the list is cut.
	ask := limit
	if limit > 0 {
		ask++
	}
	list, err := a.List(ctx, app.ListFilter{Format: o.Format, Status: want, Limit: ask})
	if err != nil {
		return err
	}
	more := limit > 0 && len(list) > limit
	if more {
		list = list[:limit]
	}
	if o.JSON {
		if list == nil {
			list = []debate.Summary{}
		}
		b, err := json.MarshalIndent(list, "", "  ")
		if err != nil {
			return fmt.Errorf("encode the list: %w", err)
		}
		_, err = f.IO.Out.Write(append(textsafe.InertJSON(b), '\n'))
		return err
	}
	if len(list) == 0 {
		if o.Format == "" && o.Status == "" {
			fmt.Fprintln(f.IO.ErrOut, "No debates yet. Start one: parley debate \"Should we use Redis or PostgreSQL for caching?\"")
			return nil
		}
		var what []string
		if o.Format != "" {
			what = append(what, "--format "+o.Format)
		}
		if o.Status != "" {
			what = append(what, "--status "+o.Status)
		}
		fmt.Fprintf(f.IO.ErrOut, "No debates match %s. 'parley list' shows them all.\n", strings.Join(what, " "))
		return nil
	}
	rows := [][]string{{"ID", "FORMAT", "STATUS", "ROUND", "COST", "CREATED", "TOPIC"}}
	var spent []report.Spend
	for _, s := range list {
		sp := report.SummarySpend(s)
		spent = append(spent, sp)
		rows = append(rows, []string{s.ID, s.Format, string(s.Status), strconv.Itoa(s.Round), sp.Cell(), s.Created.Local().Format("2006-01-02 15:04"), app.Truncate(textsafe.Clean(s.Topic), 60)})
	}
	// On a terminal the rows fit its width, rather than wrap each row over
	// two or three lines: fewer columns (CREATED, ROUND, FORMAT, COST, in that
	// order), then a shorter topic. A pipe gets every column.
	const gap = 2
	tw := tabwriter.NewWriter(f.IO.Out, 0, 4, gap, ' ', 0)
	for _, r := range app.FitTable(rows, f.IO.TerminalWidth(), gap, []int{5, 3, 1, 4}, 6, 12) {
		fmt.Fprintln(tw, strings.Join(r, "\t"))
	}
	if err := tw.Flush(); err != nil {
		return err
	}
	// The cells say "unknown" or "≥" without naming the models (they
	// would make the table wrap): the note names them once, on stderr so
	// that the table on stdout reads as before.
	if note := report.TableNote(spent); note != "" {
		fmt.Fprintln(f.IO.ErrOut, errLine(f.IO, note))
	}
	// What to do next, where it is not obvious from the status: a queued
	// debate needs a worker, not a resume (which would run it in this
	// terminal); an interrupted one needs a resume. On stderr, as the note.
	var queued, interrupted bool
	for _, s := range list {
		queued = queued || s.Status == debate.StatusQueued
		interrupted = interrupted || s.Status == debate.StatusInterrupted
	}
	if queued {
		fmt.Fprintln(f.IO.ErrOut, errLine(f.IO, "Queued debates wait for a worker, which runs them: if none runs, start one: "+f.workerCommand()))
	}
	if interrupted {
		fmt.Fprintln(f.IO.ErrOut, errLine(f.IO, "Interrupted debates lost their runner: 'parley debate --resume ID' goes on with one."))
	}
	// A list cut at its limit says so: the oldest row is not the oldest
	// debate. On stderr, as the notes above, each folded to the terminal
	// (errLine): the terminal folded them to column 0, mid-word.
	if more {
		shown := fmt.Sprintf("These are the %d newest", limit)
		if limit == 1 {
			shown = "This is the newest"
		}
		fmt.Fprintln(f.IO.ErrOut, errLine(f.IO, shown+"; more match: --limit N lists more, --all every one."))
	}
	return nil
}

// statusNames are the statuses 'list --status' takes, joined with sep
// before the last.
func statusNames(last string) string {
	var names []string
	for _, s := range app.Statuses() {
		names = append(names, string(s))
	}
	return strings.Join(names[:len(names)-1], ", ") + last + names[len(names)-1]
}

// workerCommand is the command that starts a worker on the database this
// command uses: --db when it was given (PARLEY_DATABASE_URL and PARLEY_DB
// reach the worker as they reached this command), a password in it
// replaced.
func (f *Factory) workerCommand() string {
	if f.DBPath == "" {
		return "parley worker"
	}
	return "parley worker --db " + open.Describe(f.DBPath)
}

// ShowOptions are the `parley show` arguments.
type ShowOptions struct {
	ID      string
	Summary bool
}

func newShowCmd(f *Factory, run func(context.Context, *ShowOptions) error) *cobra.Command {
	opts := &ShowOptions{}
	cmd := &cobra.Command{
		Use:     "show ID",
		Short:   "Show a debate: its status, result and transcript",
		Example: "  parley show DEB-1a2b3c4d\n  parley show DEB-1a2b3c4d --summary",
		Args:    exactID,
		RunE: func(cmd *cobra.Command, args []string) error {
			opts.ID = args[0]
			if run != nil {
				return run(cmd.Context(), opts)
			}
			return runShow(cmd.Context(), f, opts)
		},
	}
	cmd.Flags().BoolVar(&opts.Summary, "summary", false, "the result only, without the transcript")
	return cmd
}

func exactID(cmd *cobra.Command, args []string) error {
	if len(args) != 1 {
		return usageErrorf("%s takes one debate ID ('parley list' shows them)", cmd.CommandPath())
	}
	return nil
}

// loadDebate folds a stored debate and finds its format.
func loadDebate(ctx context.Context, f *Factory, store debate.Store, typed string) (*debate.State, debate.Format, error) {
	a, err := f.App(store)
	if err != nil {
		return nil, nil, err
	}
	return a.Load(ctx, typed)
}

func runShow(ctx context.Context, f *Factory, o *ShowOptions) error {
	store, ok, err := f.OpenStoreReadOnly(ctx)
	if err != nil {
		return err
	}
	if !ok {
		return usageErrorf("no debate %s: no debate has been run yet ('parley list' shows the debates)", o.ID)
	}
	defer store.Close()
	st, format, err := loadDebate(ctx, f, store, o.ID)
	if err != nil {
		return err
	}
	cs := f.IO.Colors()
	a, err := f.App(store)
	if err != nil {
		return err
	}
	// held is the runner that has the debate now: a resume would be
	// refused, so show says where it runs rather than offer one.
	sd := a.Standing(ctx, st)
	status, held := sd.Status, sd.Held
	// The lines above the document fold to the terminal as the
	// document does (outLine), each command whole: folded by the
	// terminal, they went on at column 0, cut mid-word.
	say := func(format string, a ...any) { fmt.Fprintln(f.IO.Out, outLine(f.IO, fmt.Sprintf(format, a...))) }
	say("%s  %s  %s  created %s", cs.Bold(st.ID), st.Format, status, st.Created.Local().Format(time.DateTime))
	switch {
	case held != nil && st.Status == debate.StatusCheckpoint:
		// The host is read from the database, which other machines write.
		say("Waiting at a checkpoint in process %d on host %s (since %s): answer it there",
			held.Owner.PID, textsafe.Clean(held.Owner.Host), held.Since.Local().Format("15:04"))
	case held != nil:
		say("Running in process %d on host %s (since %s): 'parley show %s' again shows how far it got",
			held.Owner.PID, textsafe.Clean(held.Owner.Host), held.Since.Local().Format("15:04"), st.ID)
	case sd.Shown == debate.StatusQueued:
		say("Queued for a worker, which runs it: if none runs, start one: %s ('parley show %s' again shows how far it got)", f.workerCommand(), st.ID)
	case st.Status != debate.StatusCompleted:
		if p, ok := st.LastPause(); ok && p.Detail != "" {
			// Why it stopped (a rejected key, a budget reached) is what
			// to fix before the resume; the status says only its kind.
			say("Paused because: %s", app.Truncate(textsafe.Clean(p.Detail), 400))
		}
		say("Resume with: parley debate --resume %s", st.ID)
	}
	for _, a := range st.Artifacts {
		// The path was recorded by the process that wrote it, perhaps on
		// another machine sharing the database: shown inert, and said
		// gone when it is not here.
		gone := ""
		if _, err := os.Stat(a.Path); err != nil {
			gone = " (not found here)"
			if m, ok := app.MissingDocument(format, st); ok && m.Kind == a.Kind && st.Status == debate.StatusCompleted {
				gone = fmt.Sprintf(" (not found here: parley debate --resume %s writes it again)", st.ID)
			}
		}
		say("%s: %s%s", app.ArtifactTitle(format, a.Kind), textsafe.Clean(a.Path), gone)
	}
	fmt.Fprintln(f.IO.Out)
	doc, err := app.RenderDoc(format, a.AsShown(ctx, st), o.Summary)
	if err != nil {
		return err
	}
	// A document that cannot be written (a full disk) is an error, as
	// it is for 'parley export'; show said nothing and exited 0.
	if _, err := fmt.Fprint(f.IO.Out, wrapDoc(f, doc)); err != nil {
		return fmt.Errorf("write debate %s: %w", st.ID, err)
	}
	return nil
}
