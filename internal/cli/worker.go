package cli

import (
	"context"
	"fmt"
	"io"
	"log/slog"
	"net"
	"net/http"
	"os"
	"os/signal"
	"syscall"
	"time"

	"github.com/spf13/cobra"

	"github.com/parleyhq/parley/internal/app"
	"github.com/parleyhq/parley/internal/debate"
	"github.com/parleyhq/parley/internal/jobs"
	"github.com/parleyhq/parley/internal/ops"
	"github.com/parleyhq/parley/internal/server"
	"github.com/parleyhq/parley/internal/textsafe"
)

// WorkerOptions are the `parley worker` flags, shared with `parley serve`'s
// in-process workers.
type WorkerOptions struct {
	Workers      int
	Queues       []string
	DecisionsDir string
	LogFormat    string
	MetricsAddr  string // serve /healthz and /metrics here ("" = off)
	StopTimeout  time.Duration
	// LeaseTTL and ReclaimEvery tune how soon a dead worker's debates are
	// taken over; hidden, for tests and operators who know why.
	LeaseTTL     time.Duration
	ReclaimEvery time.Duration
}

func (o *WorkerOptions) addFlags(cmd *cobra.Command, workers int) {
	fl := cmd.Flags()
	fl.IntVar(&o.Workers, "workers", workers, "debates of each queue (one per provider, and \"data\" for --offline) this process runs at once")
	fl.StringSliceVar(&o.Queues, "queue", nil, "work only these queues, `NAME=N` debates at once each (anthropic, openai, ollama, data); repeatable")
	fl.DurationVar(&o.StopTimeout, "stop-timeout", jobs.DefaultStopTimeout, "on SIGTERM, how long the turns running may take to finish before they are cut off (and run again by another worker)")
	fl.DurationVar(&o.LeaseTTL, "lease-ttl", debate.DefaultLeaseTTL, "lease time of the debates this process runs: a dead worker on another host is taken over this long after")
	fl.DurationVar(&o.ReclaimEvery, "reclaim-every", 0, "how often to look for debates whose worker died (default: a third of --lease-ttl)")
	_ = fl.MarkHidden("lease-ttl")
	_ = fl.MarkHidden("reclaim-every")
}

// config is the queue's configuration.
func (o *WorkerOptions) config(log *slog.Logger, finish func(context.Context, *app.Session, *debate.State)) (jobs.Config, error) {
	if o.Workers < 0 {
		return jobs.Config{}, usageErrorf("--workers %d: give 0 or more", o.Workers)
	}
	// The queue reads 0 or less as its default of 2 minutes, while this
	// process waited 30 s more than the value given for its workers to
	// stop: refused, rather than taken as something else.
	if o.StopTimeout <= 0 {
		return jobs.Config{}, usageErrorf("--stop-timeout %s: give how long the turns running may take to finish when stopping, above 0 (default %s)", o.StopTimeout, jobs.DefaultStopTimeout)
	}
	queues, err := jobs.ParseQueues(o.Queues)
	if err != nil {
		return jobs.Config{}, &UsageError{Err: err}
	}
	return jobs.Config{Workers: o.Workers, Queues: queues, Finish: finish, Log: log,
		LeaseTTL: o.LeaseTTL, ReclaimEvery: o.ReclaimEvery, StopTimeout: o.StopTimeout}, nil
}

func newWorkerCmd(f *Factory) *cobra.Command {
	opts := &WorkerOptions{}
	cmd := &cobra.Command{
		Use:   "worker",
		Short: "Run debates queued in the database (any number of workers, on any machines)",
		Long: `Run the debates queued in the debate database: started or resumed by 'parley serve', 'parley batch'
or another front-end. Any number of workers, on any machines sharing one PostgreSQL database
(--db postgres://… or PARLEY_DATABASE_URL), run them together; on a SQLite file, workers on the one
machine do. Each runs up to --workers debates of each provider at once.

A worker that dies mid-turn leaves its debates to the others, which resume them from the log: the
turn cut off is run again, no completed turn is. On SIGTERM or Ctrl+C a worker stops taking debates,
lets the turns running finish (up to --stop-timeout) and hands each debate back to the queue.

It logs one JSON object a line (--log-format text for people) with the debate's id.`,
		Example: "  parley worker --db postgres://parley@db.internal/parley\n  PARLEY_DATABASE_URL=postgres://… parley worker --workers 8\n  parley worker --queue ollama=2 --queue data=4",
		Args:    noArgs,
		RunE: func(cmd *cobra.Command, args []string) error {
			return runWorker(cmd.Context(), f, opts)
		},
	}
	opts.addFlags(cmd, 4)
	cmd.Flags().StringVar(&opts.DecisionsDir, "out-dir", "", outDirUsage(f.Formats, "none; export them"))
	cmd.Flags().StringVar(&opts.LogFormat, "log-format", "json", "log as `json` (one object a line) or text")
	cmd.Flags().StringVar(&opts.MetricsAddr, "metrics-addr", "", "serve /healthz and /metrics (Prometheus) on this `host:port` (default: off)")
	return cmd
}

// inertJSONWriter writes JSON documents, one a Write as slog's JSON
// handler writes its records, with the characters a terminal acts on
// escaped (textsafe.InertJSON).
type inertJSONWriter struct{ w io.Writer }

func (i inertJSONWriter) Write(p []byte) (int, error) {
	if _, err := i.w.Write(textsafe.InertJSON(p)); err != nil {
		return 0, err
	}
	return len(p), nil
}

// workerLog is the structured log of a worker.
func workerLog(w io.Writer, format string) (*slog.Logger, error) {
	hopts := &slog.HandlerOptions{Level: slog.LevelInfo}
	switch format {
	case "json":
		// slog's JSON encoder leaves C1 controls, bidi overrides and DEL
		// raw, and a worker logs what servers and models said; its text
		// handler quotes them already.
		// Durations are written as the text format and the flags write
		// them ("1.5s", "2m0s"): slog's JSON encoder writes nanoseconds
		// with no unit ("took":198000000, "stop_timeout":120000000000).
		jopts := *hopts
		jopts.ReplaceAttr = func(_ []string, a slog.Attr) slog.Attr {
			if a.Value.Kind() == slog.KindDuration {
				a.Value = slog.StringValue(a.Value.Duration().String())
			}
			return a
		}
		return slog.New(slog.NewJSONHandler(inertJSONWriter{w}, &jopts)), nil
	case "text":
		return slog.New(slog.NewTextHandler(w, hopts)), nil
	}
	return nil, usageErrorf("--log-format %q: choose json or text", format)
}

func runWorker(ctx context.Context, f *Factory, o *WorkerOptions) error {
	log, err := workerLog(f.IO.ErrOut, o.LogFormat)
	if err != nil {
		return err
	}
	if o.Workers == 0 && len(o.Queues) == 0 {
		return usageErrorf("--workers 0 runs nothing: give at least 1")
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
	a.Log = log
	calls := &ops.Calls{} // for /metrics
	a.WrapProvider = calls.Wrap
	a.Env.Notice = io.Discard // notices are for a person at a terminal
	cfg, err := o.config(log, finisher(a, o.DecisionsDir, log))
	if err != nil {
		return err
	}
	ctx, stop := signal.NotifyContext(ctx, os.Interrupt, syscall.SIGTERM)
	defer stop()
	// The metrics address is taken before any debate is: a worker that
	// cannot serve it stops before it has taken work it would drop.
	var ln net.Listener
	if o.MetricsAddr != "" {
		if ln, err = net.Listen("tcp", o.MetricsAddr); err != nil {
			return usageErrorf("--metrics-addr %s: cannot listen: %v (choose another address)", o.MetricsAddr, err)
		}
		defer ln.Close()
	}
	q, err := jobs.New(ctx, a, cfg)
	if err != nil {
		return err
	}
	if err := q.StartWorkers(ctx); err != nil {
		return err
	}
	if ln != nil {
		serveOps(ctx, ln, &ops.Handler{Store: store, Jobs: q, Started: time.Now(), Role: "worker", Calls: calls}, log)
	}
	<-ctx.Done()
	log.Info("stopping: the turns running finish, then their debates go back to the queue", "stop_timeout", o.StopTimeout)
	sctx, cancel := context.WithTimeout(context.WithoutCancel(ctx), o.StopTimeout+30*time.Second)
	defer cancel()
	if err := q.Stop(sctx); err != nil {
		return fmt.Errorf("stop the workers: %w", err)
	}
	log.Info("stopped")
	return nil
}

// finisher writes a completed debate's documents, as the terminal does.
func finisher(a *app.App, dir string, log *slog.Logger) func(context.Context, *app.Session, *debate.State) {
	return func(ctx context.Context, sess *app.Session, st *debate.State) {
		if _, err := a.WriteArtifacts(ctx, sess.Format, st, app.Documents{Dir: dir}); err != nil {
			log.Warn("write the decision document", "debate", sess.ID, "err", err)
		}
	}
}

// serveOps serves a worker's /healthz and /metrics on ln until ctx ends.
func serveOps(ctx context.Context, ln net.Listener, h *ops.Handler, log *slog.Logger) {
	mux := http.NewServeMux()
	mux.HandleFunc("GET /healthz", h.Healthz)
	mux.HandleFunc("GET /metrics", h.Metrics)
	hs := server.NewHTTPServer(ctx, mux, server.DefaultConnLimits())
	go func() { _ = hs.Serve(ln) }()
	go func() {
		<-ctx.Done()
		_ = hs.Close()
	}()
	log.Info("serving /healthz and /metrics", "addr", ln.Addr().String())
}
