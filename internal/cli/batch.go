package cli

import (
	"bufio"
	"bytes"
	"context"
	"encoding/csv"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"log/slog"
	"os"
	"os/signal"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"text/tabwriter"
	"time"
	"unicode/utf8"

	"github.com/charmbracelet/x/ansi"
	"github.com/spf13/cobra"

	"github.com/parleyhq/parley/internal/app"
	"github.com/parleyhq/parley/internal/debate"
	"github.com/parleyhq/parley/internal/format/bullbear"
	"github.com/parleyhq/parley/internal/jobs"
	"github.com/parleyhq/parley/internal/report"
	"github.com/parleyhq/parley/internal/setup"
	"github.com/parleyhq/parley/internal/textsafe"
	"github.com/parleyhq/parley/internal/view"
)

// BatchOptions are the `parley batch` flags.
type BatchOptions struct {
	Format  string
	File    string
	Offline bool
	// Values are the formats' options given as flags (--snapshot,
	// --deep, ...), declared from the same registry as parley debate's.
	Values setup.Values
	Models app.Models
	Force  bool
	JSON   bool
	CSV    bool
	// Every is how often the progress is refreshed.
	Every time.Duration
	Jobs  WorkerOptions
	// width is the terminal's, which the summary's lines are cut to; 0
	// when it is not a terminal.
	width int
}

// maxBatch bounds a batch: a watchlist, not a crawl.
const maxBatch = 1000

func newBatchCmd(f *Factory) *cobra.Command {
	o := &BatchOptions{}
	// The formats' options are flags, as parley debate's (setup.Union):
	// every format a batch may run (--format) takes its own.
	union, unionErr := setup.Union(f.Formats)
	cmd := &cobra.Command{
		Use:   "batch ITEM... | --file FILE",
		Short: "Debate a list of tickers (or topics) at once, one debate each",
		Long: `Start one debate per item, a ticker for bull vs. bear (the default when every item is one) or a
question for another format, queue them in the debate database and follow them: a live table of
queued, running, done and failed debates with the cost so far, then a summary (ticker, stance,
conviction, cost and id for bull vs. bear) as a table, or --json / --csv.

The debates run as jobs: on this machine by --workers of each provider at once, and by any
'parley worker' sharing the database (PostgreSQL: any number of machines; --workers 0 leaves them
all to those). Debates no person watches have no checkpoints.

Running the same batch again the same day skips the items already debated today the same way (same
options and models; their results are listed again) and goes on with those left unfinished; --force
debates them all anew.`,
		Example: "  parley batch NVDA AAPL GOOGL --offline\n  parley batch --file watchlist.txt --model gpt-4.1 --csv > today.csv\n" +
			"  parley batch --format perspectives \"Redis or PostgreSQL for caching?\" \"Monorepo or polyrepo?\"\n" +
			"  PARLEY_DATABASE_URL=postgres://… parley batch --file watchlist.txt --workers 0",
		RunE: func(cmd *cobra.Command, args []string) error {
			if unionErr != nil {
				return unionErr
			}
			items, err := batchItems(args, o.File)
			if err != nil {
				return err
			}
			o.Values = formatValues(cmd.Flags(), union)
			return runBatch(cmd.Context(), f, o, items, cmd.Flags().Changed)
		},
	}
	fl := cmd.Flags()
	nameVar(fl, &o.Format, "format", "", "debate `format` of every item (default: bullbear when every item is a ticker, else perspectives)")
	fl.StringVar(&o.File, "file", "", "read the items from `FILE`, one a line (# starts a comment)")
	fl.BoolVar(&o.Offline, "offline", false, "no network and no model: data-only agents on the SEC data shipped with Parley (bullbear)")
	formatFlags(fl, union)
	nonBlankVar(fl, &o.Models.Provider, "provider", "model `provider`: anthropic, openai or ollama (default: from the environment)")
	nonBlankVar(fl, &o.Models.Model, "model", "model `name` for every role")
	fl.StringArrayVar(&o.Models.ModelFor, "model-for", nil, "a model for one role, `ROLE=[PROVIDER/]MODEL` (repeatable)")
	fl.BoolVar(&o.Force, "force", false, "debate every item anew, even those debated today")
	fl.BoolVar(&o.JSON, "json", false, "print the summary as JSON")
	fl.BoolVar(&o.CSV, "csv", false, "print the summary as CSV")
	fl.DurationVar(&o.Every, "refresh", time.Second, "how often the progress is refreshed")
	_ = fl.MarkHidden("refresh")
	o.Jobs.addFlags(cmd, 4)
	return cmd
}

// stripComment drops a line's # comment: one that starts the line or
// follows a space or a tab. A '#' inside a word is the topic's own ("Should
// we port it to C#?" was cut to "...to C").
func stripComment(line string) string {
	for i, r := range line {
		if r == '#' && (i == 0 || line[i-1] == ' ' || line[i-1] == '\t') {
			return line[:i]
		}
	}
	return line
}

// batchItems reads the items of a batch: the arguments, then the file's
// lines; blank lines and # comments are skipped, repeats dropped.
func batchItems(args []string, file string) ([]string, error) {
	for _, a := range args {
		// "parley batch watchlist.txt" would debate the ticker WATCHLIST.TXT.
		if fi, err := os.Stat(a); err == nil && fi.Mode().IsRegular() && strings.ContainsAny(a, "./"+string(os.PathSeparator)) {
			return nil, usageErrorf("%s is a file, not a ticker or a topic: to debate the items in it, one a line, use --file %s", a, a)
		}
	}
	var raw []string
	raw = append(raw, args...)
	if file != "" {
		fh, err := os.Open(file)
		if errors.Is(err, fs.ErrNotExist) {
			return nil, usageErrorf("--file %s does not exist: give the path of a file listing one ticker or topic a line", file)
		}
		if err != nil {
			return nil, usageErrorf("--file %s: %w", file, err)
		}
		defer fh.Close()
		if fi, err := fh.Stat(); err == nil && fi.IsDir() {
			return nil, usageErrorf("--file %s is a directory: give the path of a file listing one ticker or topic a line", file)
		}
		sc := bufio.NewScanner(fh)
		n := 1
		for ; sc.Scan(); n++ {
			line := stripComment(sc.Text())
			if !utf8.ValidString(line) {
				return nil, usageErrorf("--file %s: line %d is not UTF-8 text", file, n)
			}
			raw = append(raw, line)
		}
		if err := sc.Err(); errors.Is(err, bufio.ErrTooLong) {
			// The scanner's own words, "token too long", name
			// neither the line nor what a line should hold.
			return nil, usageErrorf("--file %s: line %d is longer than %d KiB: write one ticker or topic (under %d characters) a line", file, n, bufio.MaxScanTokenSize/1024, app.MaxTopicLen)
		} else if err != nil {
			return nil, usageErrorf("--file %s: %w", file, err)
		}
	}
	var items []string
	seen := map[string]bool{}
	for _, it := range raw {
		it = strings.TrimSpace(it)
		if it == "" || seen[strings.ToUpper(it)] {
			continue
		}
		seen[strings.ToUpper(it)] = true
		items = append(items, it)
	}
	if len(items) == 0 && file != "" && len(args) == 0 {
		return nil, usageErrorf("--file %s lists nothing to debate: write one ticker or topic a line (# starts a comment)", file)
	}
	if len(items) == 0 {
		return nil, usageErrorf("nothing to debate: give tickers or topics (parley batch NVDA AAPL) or --file FILE")
	}
	if len(items) > maxBatch {
		return nil, usageErrorf("%d items: a batch takes up to %d", len(items), maxBatch)
	}
	return items, nil
}

// BatchRow is one item of a batch: its debate and where it stands.
type BatchRow struct {
	Item   string `json:"item"`
	ID     string `json:"id,omitempty"`
	Status string `json:"status"` // queued, running, done, failed
	// Earlier is set for an item debated earlier today (not run again).
	Earlier bool `json:"earlier,omitempty"`
	Turns   int  `json:"turns"`
	// Stance, Score and Conviction are a bull vs. bear verdict's.
	Stance     string `json:"stance,omitempty"`
	Score      int    `json:"score,omitempty"`
	Conviction string `json:"conviction,omitempty"`
	// Result is another format's outcome in a few words.
	Result string `json:"result,omitempty"`
	// CostUSD, LLMTurns and Unpriced are the debate's summary's (see
	// docs/api.md): no LLM turns is a data-only debate, with no model cost;
	// named models have no known price, and CostUSD leaves them out.
	CostUSD  float64  `json:"cost_usd"`
	LLMTurns int      `json:"llm_turns"`
	Unpriced []string `json:"unpriced_models,omitempty"`
	Error    string   `json:"error,omitempty"`
	// queuedAt is the last position of the log of an earlier debate this
	// batch queued again: until the log goes past it, the pause or failure
	// it ended on is the one this batch goes on from, not a result.
	queuedAt int64
}

// spend is what the row's debate cost, for showing.
func (r *BatchRow) spend() report.Spend {
	return report.Spend{USD: r.CostUSD, Turns: r.Turns, LLMTurns: r.LLMTurns, Unpriced: r.Unpriced}
}

// Batch statuses.
const (
	batchQueued  = "queued"
	batchRunning = "running"
	batchDone    = "done"
	batchFailed  = "failed"
)

func (r *BatchRow) final() bool { return r.Status == batchDone || r.Status == batchFailed }

func runBatch(ctx context.Context, f *Factory, o *BatchOptions, items []string, changed func(string) bool) error {
	if o.JSON && o.CSV {
		return usageErrorf("--json and --csv: choose one")
	}
	given := setup.Request{Offline: o.Offline, Values: o.Values}
	if err := app.CheckDataFlags(o.Offline, given.Bool(setup.SnapshotName)); err != nil {
		return err // an input error: exit 2, before anything is opened
	}
	// Bull vs. bear on tickers is what a batch is first for (a watchlist):
	// how items are spelt is the batch's own business (a ticker typed in
	// lower case is one: the items are asked about in capitals), as is the
	// summary's TICKER table (writeBatch). The rule for the format their
	// requests imply is the application layer's (app.FormatFor), as parley
	// debate's: the format every item implies with the options given.
	format := o.Format
	if format == "" {
		reqs := make([]*setup.Request, len(items))
		for i, it := range items {
			r := given
			r.Topic = strings.ToUpper(it)
			reqs[i] = &r
		}
		format = app.FormatFor(f.Formats, reqs...)
	}
	if _, err := f.Formats.Get(format); err != nil {
		return &UsageError{Err: err}
	}
	if format == bullbear.Name {
		// A ticker typed in lower case is the same ticker (nvda is
		// NVDA); anything else stays as typed, so that the error that
		// refuses it quotes the user's words, not "SHOULD WE?".
		for i, it := range items {
			if t, ok := bullbear.Ticker(strings.ToUpper(it)); ok {
				items[i] = t
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

	// The workers' own messages would scramble the table: only their
	// warnings and errors are shown, and above the live table, held until
	// it is drawn again.
	live := f.IO.IsTerminal() && !o.JSON && !o.CSV
	var logOut io.Writer = f.IO.ErrOut
	logs := &heldLog{}
	if live {
		logOut = logs
	}
	log := slog.New(slog.NewTextHandler(logOut, &slog.HandlerOptions{Level: slog.LevelWarn}))
	// Whatever way the batch ends, nothing held is lost.
	defer logs.release(f.IO.ErrOut)
	a, err := f.App(store)
	if err != nil {
		return err
	}
	a.Log = log
	a.Env.Notice = io.Discard
	jcfg, err := o.Jobs.config(log, finisher(a, "", log))
	if err != nil {
		return err
	}
	q, err := jobs.New(ctx, a, jcfg)
	if err != nil {
		return err
	}

	base := defaultDebateOptions()
	base.Format, base.Offline, base.Models = format, o.Offline, o.Models
	for name, v := range o.Values {
		base.setValue(name, v)
	}
	base.NoCheckpoints = true // nobody answers a checkpoint in a batch
	base.set = func(name string) bool { return name == "format" || changed(name) }
	cfg, err := loadConfig(f.Env, f.Formats)
	if err != nil {
		return err
	}
	if _, err := applyConfig(cfg, base, base.set, f.Env); err != nil {
		return err
	}

	rows := make([]*BatchRow, len(items))
	today := f.Now()
	for i, it := range items {
		rows[i] = &BatchRow{Item: it, Status: batchQueued}
		if err := startItem(ctx, a, q, base, rows[i], today, o.Force); err != nil {
			// A model the format needs and the environment lacks is the
			// batch's problem, not the item's: every item would fail on
			// it. It is said once, whole, with the model configuration's
			// exit code, before anything runs (an item refused for its
			// own input, an unknown ticker, is checked before the model).
			var ce *ConfigError
			if errors.As(err, &ce) {
				return err
			}
			rows[i].Status, rows[i].Error = batchFailed, err.Error()
		}
	}
	if err := q.StartWorkers(ctx); err != nil {
		return err
	}
	stopWorkers := sync.OnceFunc(func() {
		sctx, cancel := context.WithTimeout(context.WithoutCancel(ctx), o.Jobs.StopTimeout+30*time.Second)
		defer cancel()
		if err := q.Stop(sctx); err != nil {
			log.Warn("stop the workers", "err", err)
		}
	})
	defer stopWorkers()

	p := &progress{w: f.IO.ErrOut, live: live}
	if live {
		p.w, p.logs, p.errW, p.width = f.IO.Out, logs, f.IO.ErrOut, f.IO.TerminalWidth
	}
	interrupted := false
	for {
		if err := refresh(ctx, store, q, rows); err != nil && ctx.Err() == nil {
			return err
		}
		p.show(rows)
		if allFinal(rows) {
			break
		}
		select {
		case <-ctx.Done():
			interrupted = true
		case <-time.After(o.Every):
		}
		if interrupted {
			break
		}
	}
	p.clear()
	logs.release(f.IO.ErrOut)
	if interrupted {
		// The debates this process ran are handed back when its workers
		// stop: the table says what they are then (queued again, or
		// running where another process's worker holds them), not what
		// they were when Ctrl+C came.
		stopWorkers()
		rctx, cancel := context.WithTimeout(context.WithoutCancel(ctx), 30*time.Second)
		err := refresh(rctx, store, q, rows)
		cancel()
		if err != nil {
			log.Warn("read the debates' status after stopping", "err", err)
		}
	}
	if live {
		o.width = f.IO.TerminalWidth()
	}
	if err := writeBatch(f.IO.Out, rows, format, o); err != nil {
		return err
	}
	if interrupted {
		return batchInterrupted{}
	}
	return batchOutcome(rows)
}

// batchInterrupted is a batch stopped by Ctrl+C or SIGTERM: it exits as
// an interrupted command does (130), saying what became of its debates.
type batchInterrupted struct{}

func (batchInterrupted) Error() string {
	return "batch interrupted: its debates stay queued; run the same batch again to follow them (or leave them to 'parley worker')"
}

func (batchInterrupted) Unwrap() error { return context.Canceled }

// batchOutcome says what became of a batch's failed items and what to do
// about them. A debate that started and stopped (a budget, a timeout, a
// provider that kept failing) is resumed by running the batch again; an
// item refused before its debate started (an unknown ticker, a topic the
// format cannot debate) fails the same way again until it is fixed.
//
// A refused item's reason is given whole here: the table cuts it to its
// column (and a terminal's width), where the fix it ends with ("to debate
// MSFT, go online with SEC_USER_AGENT set") was lost.
func batchOutcome(rows []*BatchRow) error {
	var stopped, refused int
	var reasons []string
	for _, r := range rows {
		switch {
		case r.Status != batchFailed:
		case r.ID != "":
			stopped++
		default:
			refused++
			reason := textsafe.Clean(r.Error)
			if !strings.Contains(reason, r.Item) {
				reason = textsafe.Clean(r.Item) + ": " + reason
			}
			reasons = append(reasons, "  "+reason)
		}
	}
	if stopped+refused == 0 {
		return nil
	}
	var parts []string
	if stopped > 0 {
		parts = append(parts, fmt.Sprintf("%d stopped (see the table): running the batch again resumes %s", stopped, plural(stopped, "it", "them")))
	}
	if refused > 0 {
		parts = append(parts, fmt.Sprintf("%d could not start: fix or remove %s, as running the batch unchanged fails the same way:\n%s", refused, plural(refused, "that item", "those items"), strings.Join(reasons, "\n")))
	}
	return fmt.Errorf("%d of %d debates failed: %s", stopped+refused, len(rows), strings.Join(parts, "; "))
}

func plural(n int, one, many string) string {
	if n == 1 {
		return one
	}
	return many
}

func allFinal(rows []*BatchRow) bool {
	for _, r := range rows {
		if !r.final() {
			return false
		}
	}
	return true
}

// startItem starts an item's debate, or finds today's that asks the same
// question (app.App.Find): a completed one is listed as it is, an unfinished
// one goes on (queued again unless it runs or waits in the queue); --force
// starts anew. Today's debates of the item asked otherwise (--deep, another
// framework, a model) are left alone. A new debate starts from the plan the
// lookup used, so that its setup (a bull vs. bear debate's SEC data) runs
// once.
func startItem(ctx context.Context, a *app.App, q *jobs.Queue, base *DebateOptions, row *BatchRow, today time.Time, force bool) error {
	o := *base
	o.Topic = row.Item
	p, err := a.Plan(ctx, o.startRequest())
	if err != nil {
		return err
	}
	if !force {
		y, m, d := today.Local().Date()
		found, err := a.Find(ctx, p, app.Earlier{Since: time.Date(y, m, d, 0, 0, 0, 0, time.Local)})
		if err != nil {
			return fmt.Errorf("%w (--force starts a new debate)", err)
		}
		if found != nil {
			row.ID = found.ID
			if found.Status == debate.StatusCompleted {
				row.Earlier = true
				return nil
			}
			row.queuedAt = found.LastSeq
			return q.Continue(ctx, found.ID)
		}
	}
	sess, err := q.StartPlan(ctx, p)
	if err != nil {
		return err
	}
	row.ID = sess.ID
	return nil
}

// refresh reads where each row's debate stands.
func refresh(ctx context.Context, store debate.Store, q *jobs.Queue, rows []*BatchRow) error {
	for _, r := range rows {
		if r.ID == "" || r.final() {
			continue
		}
		sum, err := store.Get(ctx, r.ID)
		if err != nil {
			return err
		}
		r.Turns, r.CostUSD, r.LLMTurns, r.Unpriced = sum.Turns, sum.CostUSD, sum.LLMTurns, sum.Unpriced
		switch sum.Status {
		case debate.StatusCompleted:
			r.Status = batchDone
			if err := r.readVerdict(ctx, store); err != nil {
				return err
			}
		case debate.StatusFailed, debate.StatusPaused:
			if sum.LastSeq <= r.queuedAt {
				r.Status = batchQueued // queued again; no worker took it up yet
				continue
			}
			st, err := foldDebate(ctx, store, r.ID)
			if err != nil {
				return err
			}
			// A paused debate in a batch stopped: nobody is there to resume
			// it (a budget, a timeout, a provider that kept failing).
			r.Status, r.Error = batchFailed, st.Failure
			if sum.Status == debate.StatusPaused && len(st.Pauses) > 0 {
				p := st.Pauses[len(st.Pauses)-1]
				r.Error = "paused (" + p.Reason + ")"
				if p.Detail != "" {
					r.Error += ": " + p.Detail
				}
			}
		default:
			r.Status = batchQueued
			// A runner that died (a worker killed on this host) runs
			// nothing: its debate waits to be taken over.
			if sum.LiveLease(time.Now(), debate.OwnerAlive) != nil {
				r.Status = batchRunning
			}
		}
	}
	return nil
}

func foldDebate(ctx context.Context, store debate.Store, id string) (*debate.State, error) {
	evs, err := store.Load(ctx, id, 0)
	if err != nil {
		return nil, err
	}
	return debate.Fold(evs)
}

// readVerdict fills a completed row's outcome from the debate's verdict.
func (r *BatchRow) readVerdict(ctx context.Context, store debate.Store) error {
	st, err := foldDebate(ctx, store, r.ID)
	if err != nil {
		return err
	}
	if st.Format == bullbear.Name {
		var res bullbear.Result
		if json.Unmarshal(st.Verdict, &res) == nil && res.Synthesis != nil {
			r.Stance, r.Score, r.Conviction = res.Synthesis.Stance, res.Synthesis.Score, res.Synthesis.Conviction
		}
		return nil
	}
	r.Result = outcome(st.Verdict)
	return nil
}

// outcome is another format's result in a few words: a perspectives
// recommendation, a council decision, a formal winner.
func outcome(verdict json.RawMessage) string {
	var v struct {
		Synthesis *struct {
			Recommendation string `json:"recommendation"`
			Confidence     string `json:"confidence"`
		} `json:"synthesis"`
		Decision string `json:"decision"`
		Winner   string `json:"winner"`
	}
	if json.Unmarshal(verdict, &v) != nil {
		return ""
	}
	switch {
	case v.Synthesis != nil && v.Synthesis.Recommendation != "":
		s := v.Synthesis.Recommendation
		if v.Synthesis.Confidence != "" {
			s += " (confidence " + strings.ToLower(v.Synthesis.Confidence) + ")"
		}
		return s
	case v.Decision != "":
		return v.Decision
	case v.Winner != "":
		return "winner: " + v.Winner
	}
	return ""
}

// progress shows a batch as it goes: on a terminal a table redrawn in
// place, elsewhere a line each time the counts change.
type progress struct {
	w     io.Writer
	live  bool
	lines int    // lines drawn last, to redraw over them
	last  string // the counts line printed last
	// logs holds the workers' log lines while the live table is drawn,
	// printed to errW above its next drawing: written between two
	// drawings they scrambled it (the redraw erased from the wrong line).
	logs *heldLog
	errW io.Writer
	// width is the terminal's now (0: not known), which the live table's
	// lines are kept within: a row longer than the terminal took two of
	// its lines, the redraw went up by one, and each drawing left the
	// top of the last behind.
	width func() int
}

// heldLog is a log's output held back until it can be printed without
// breaking a live table, or passed straight through once released.
type heldLog struct {
	mu   sync.Mutex
	held bytes.Buffer
	out  io.Writer // nil while held
}

func (h *heldLog) Write(p []byte) (int, error) {
	h.mu.Lock()
	defer h.mu.Unlock()
	if h.out != nil {
		return h.out.Write(p)
	}
	return h.held.Write(p)
}

// flush writes the lines held so far to w.
func (h *heldLog) flush(w io.Writer) {
	h.mu.Lock()
	defer h.mu.Unlock()
	if h.held.Len() > 0 {
		_, _ = w.Write(h.held.Bytes())
		h.held.Reset()
	}
}

// release writes the lines held to w and passes later ones straight to it.
func (h *heldLog) release(w io.Writer) {
	h.flush(w)
	h.mu.Lock()
	h.out = w
	h.mu.Unlock()
}

func counts(rows []*BatchRow) (queued, running, done, failed int, cost report.Spend) {
	for _, r := range rows {
		switch r.Status {
		case batchQueued:
			queued++
		case batchRunning:
			running++
		case batchDone:
			done++
		case batchFailed:
			failed++
		}
		cost = cost.Add(r.spend())
	}
	return
}

func countsLine(rows []*BatchRow) string {
	q, r, d, fl, cost := counts(rows)
	return fmt.Sprintf("%d queued, %d running, %d done, %d failed; %s", q, r, d, fl, cost.Text("cost so far"))
}

func (p *progress) show(rows []*BatchRow) {
	line := countsLine(rows)
	if !p.live {
		if line != p.last {
			fmt.Fprintf(p.w, "batch: %s\n", line)
			p.last = line
		}
		return
	}
	var b strings.Builder
	tw := tabwriter.NewWriter(&b, 0, 0, 2, ' ', 0)
	fmt.Fprintln(tw, "ITEM\tSTATUS\tTURNS\tCOST\tID")
	for _, r := range rows {
		fmt.Fprintf(tw, "%s\t%s\t%d\t%s\t%s\n", cell(r.Item, 40), r.Status, r.Turns, r.spend().Cell(), r.ID)
	}
	tw.Flush()
	if w := p.termWidth(); w > 0 {
		// Rows are cut as the summary's are; the counts line is folded,
		// since what it ends with (the cost so far) matters.
		table := strings.Split(strings.TrimSuffix(b.String(), "\n"), "\n")
		b.Reset()
		for _, row := range table {
			if ansi.StringWidth(row) >= w {
				row = ansi.Truncate(row, w-1, "…")
			}
			b.WriteString(row + "\n")
		}
		line = view.FoldLine(line, w)
	}
	b.WriteString(line + "\n")
	p.clear()
	if p.logs != nil {
		p.logs.flush(p.errW)
	}
	fmt.Fprint(p.w, b.String())
	p.lines = strings.Count(b.String(), "\n")
}

func (p *progress) termWidth() int {
	if p.width == nil {
		return 0
	}
	return p.width()
}

// clear erases the table drawn last, from the start of its first line: the
// terminal may have echoed a key (^C) after it, moving the cursor along.
func (p *progress) clear() {
	if p.live && p.lines > 0 {
		fmt.Fprintf(p.w, "\r\x1b[%dA\x1b[J", p.lines)
		p.lines = 0
	}
}

// cell makes untrusted text fit a table cell: inert, one line, short.
func cell(s string, n int) string {
	s = strings.Join(strings.Fields(textsafe.Clean(s)), " ")
	if utf8.RuneCountInString(s) > n {
		r := []rune(s)
		s = string(r[:n-1]) + "…"
	}
	return s
}

// writeBatch prints the summary: a table, JSON or CSV.
func writeBatch(w io.Writer, rows []*BatchRow, format string, o *BatchOptions) error {
	switch {
	case o.JSON:
		out := make([]BatchRow, len(rows))
		for i, r := range rows {
			out[i] = *r
		}
		b, err := json.MarshalIndent(out, "", "  ")
		if err != nil {
			return fmt.Errorf("encode the batch summary: %w", err)
		}
		_, err = w.Write(append(textsafe.InertJSON(b), '\n'))
		return err
	case o.CSV:
		cw := csv.NewWriter(w)
		// New columns go last, for readers that take them by position.
		_ = cw.Write([]string{"item", "id", "status", "earlier", "stance", "score", "conviction", "result", "turns", "cost_usd", "error", "llm_turns", "unpriced_models"})
		for _, r := range rows {
			_ = cw.Write([]string{csvSafe(r.Item), r.ID, r.Status, strconv.FormatBool(r.Earlier), r.Stance, scoreText(r.Score),
				csvSafe(r.Conviction), csvSafe(r.Result), strconv.Itoa(r.Turns), strconv.FormatFloat(r.CostUSD, 'f', 6, 64), csvSafe(r.Error),
				strconv.Itoa(r.LLMTurns), csvSafe(strings.Join(r.Unpriced, " "))})
		}
		cw.Flush()
		return cw.Error()
	}
	// On a terminal the lines are cut to its width, the free text first
	// made narrower so that the id and the status stay in view: a
	// failed item's reason ran on to the next line, between the rows.
	out, text := w, 50
	var table bytes.Buffer
	if o.width > 0 {
		out, text = &table, max(12, (o.width-40)/2)
	}
	tw := tabwriter.NewWriter(out, 0, 0, 2, ' ', 0)
	if format == bullbear.Name {
		fmt.Fprintln(tw, "TICKER\tSTANCE\tCONVICTION\tCOST\tID\tSTATUS")
	} else {
		fmt.Fprintln(tw, "TOPIC\tRESULT\tCOST\tID\tSTATUS")
	}
	var total report.Spend
	for _, r := range rows {
		status := r.Status
		switch {
		case r.Earlier:
			status += " (earlier today)"
		case r.Error != "":
			status += ": " + cell(r.Error, 60)
		}
		if format == bullbear.Name {
			conv := ""
			if r.Score > 0 {
				conv = scoreText(r.Score) + "/10"
			}
			fmt.Fprintf(tw, "%s\t%s\t%s\t%s\t%s\t%s\n", cell(r.Item, 12), r.Stance, conv, r.spend().Cell(), r.ID, status)
		} else {
			fmt.Fprintf(tw, "%s\t%s\t%s\t%s\t%s\n", cell(r.Item, text), cell(r.Result, text), r.spend().Cell(), r.ID, status)
		}
		total = total.Add(r.spend())
	}
	if err := tw.Flush(); err != nil {
		return err
	}
	if o.width > 0 {
		for _, l := range strings.SplitAfter(table.String(), "\n") {
			if line := strings.TrimSuffix(l, "\n"); utf8.RuneCountInString(line) > o.width {
				l = string([]rune(line)[:o.width-1]) + "…\n"
			}
			if _, err := io.WriteString(w, l); err != nil {
				return err
			}
		}
	}
	// An item that could not start (an unknown ticker) has no debate: it
	// is counted apart, not as a debate.
	started := 0
	for _, r := range rows {
		if r.ID != "" {
			started++
		}
	}
	counted := fmt.Sprintf("%d %s", started, plural(started, "debate", "debates"))
	if n := len(rows) - started; n > 0 {
		counted += fmt.Sprintf(" (%d %s could not start)", n, plural(n, "item", "items"))
	}
	_, err := fmt.Fprintf(w, "%s, %s\n", counted, total.Text("total cost"))
	return err
}

func scoreText(s int) string {
	if s == 0 {
		return ""
	}
	return strconv.Itoa(s)
}

// csvSafe keeps a cell from being read as a formula by a spreadsheet.
func csvSafe(s string) string {
	s = textsafe.Clean(s)
	if s != "" && strings.ContainsRune("=+-@\t\r", rune(s[0])) {
		return "'" + s
	}
	return s
}
