package cli

import (
	"context"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"net"
	"net/http"
	"os"
	"os/signal"
	"runtime"
	"syscall"
	"time"

	"github.com/spf13/cobra"

	"github.com/parleyhq/parley/internal/jobs"
	"github.com/parleyhq/parley/internal/ops"
	"github.com/parleyhq/parley/internal/server"
)

// ServeOptions are the `parley serve` flags.
type ServeOptions struct {
	Addr         string
	Token        string
	DecisionsDir string
	NoResume     bool
	// MaxStreams bounds the event streams open at once
	// (server.ConnLimits.Streams).
	MaxStreams int
	// PDFRenders bounds the PDF layouts at once (server.Config.PDFRenders).
	PDFRenders int
	// Jobs are the in-process workers: debates run as jobs in the
	// database, --workers of each queue here (0: all on 'parley worker's).
	Jobs WorkerOptions
}

func newServeCmd(f *Factory, run func(context.Context, *ServeOptions) error) *cobra.Command {
	opts := &ServeOptions{}
	cmd := &cobra.Command{
		Use:   "serve",
		Short: "Serve the web dashboard and the HTTP API",
		Long: `Serve a web dashboard and an HTTP/SSE API on the debate database: start debates from a form,
watch them stream, answer checkpoints, give hints, pause, resume and export. Debates started here
are queued in the database and run by this process's workers (--workers of each provider at once)
and by any 'parley worker' on the same database; debates run by other processes (a terminal) are
followed live. A debate whose worker died is taken over by another, or by this server when it starts.

It listens on 127.0.0.1 only, unless given a token (--token or PARLEY_TOKEN): every request must
then carry it (Authorization: Bearer TOKEN for the API, a sign-in form for the browser).
The API is described at /api/openapi.json and in docs/api.md.`,
		Example: "  parley serve\n  parley serve --addr 127.0.0.1:8080\n  PARLEY_TOKEN=$(openssl rand -hex 16) parley serve --addr 0.0.0.0:7878",
		Args:    noArgs,
		RunE: func(cmd *cobra.Command, args []string) error {
			if !cmd.Flags().Changed("token") {
				opts.Token = f.Env("PARLEY_TOKEN")
			}
			if run != nil {
				return run(cmd.Context(), opts)
			}
			return runServe(cmd.Context(), f, opts)
		},
	}
	cmd.Flags().StringVar(&opts.Addr, "addr", "127.0.0.1:7878", "`host:port` to listen on")
	cmd.Flags().StringVar(&opts.Token, "token", "", "require this `token` of every request (default $PARLEY_TOKEN); needed to listen beyond loopback")
	cmd.Flags().StringVar(&opts.DecisionsDir, "out-dir", "", outDirUsage(f.Formats, "none; export them"))
	cmd.Flags().BoolVar(&opts.NoResume, "no-resume", false, "do not resume the debates this server was running when it stopped")
	cmd.Flags().IntVar(&opts.MaxStreams, "max-streams", server.DefaultConnLimits().Streams, "event streams (live views of debates) open at once over every client; beyond it a stream is refused with 503 and Retry-After, and the dashboard retries later")
	cmd.Flags().IntVar(&opts.PDFRenders, "pdf-renders", runtime.GOMAXPROCS(0), "PDF exports laid out at once (each takes a core for seconds with a long debate); twice as many wait, and beyond them an export as PDF is refused with 503 and Retry-After")
	opts.Jobs.addFlags(cmd, 4)
	return cmd
}

func runServe(ctx context.Context, f *Factory, o *ServeOptions) error {
	if err := server.CheckBind(o.Addr, o.Token); err != nil {
		return &UsageError{Err: err}
	}
	// 0 or less would be taken as the default by ConnLimits: refused,
	// rather than served as something else than asked.
	if o.MaxStreams < 1 {
		return usageErrorf("--max-streams %d: give how many event streams may be open at once, 1 or more (default %d)", o.MaxStreams, server.DefaultConnLimits().Streams)
	}
	if o.PDFRenders < 1 {
		return usageErrorf("--pdf-renders %d: give how many PDFs may be laid out at once, 1 or more (default %d, the cores this process may use)", o.PDFRenders, runtime.GOMAXPROCS(0))
	}
	lim := server.DefaultConnLimits()
	lim.Streams = o.MaxStreams
	// The address first: a server that cannot serve must not start workers,
	// which would take queued debates from the database and then drop them.
	ln, err := net.Listen("tcp", o.Addr)
	if err != nil {
		return &UsageError{Err: fmt.Errorf("cannot listen on %s: %w (choose another with --addr)", o.Addr, err)}
	}
	defer ln.Close()
	store, err := f.OpenStore(ctx)
	if err != nil {
		return err
	}
	defer store.Close()
	ctx, stop := signal.NotifyContext(ctx, os.Interrupt, syscall.SIGTERM)
	defer stop()

	log := slog.New(slog.NewTextHandler(f.IO.ErrOut, &slog.HandlerOptions{Level: slog.LevelInfo}))
	a, err := f.App(store)
	if err != nil {
		return err
	}
	a.Log = log
	a.Env.Notice = io.Discard // notices are for a person at a terminal, as in a worker
	calls := &ops.Calls{}     // for /metrics
	a.WrapProvider = calls.Wrap
	// Debates run as jobs in the database: --workers of each queue in this
	// process, and any number of 'parley worker's elsewhere.
	jcfg, err := o.Jobs.config(log, finisher(a, o.DecisionsDir, log))
	if err != nil {
		return err
	}
	q, err := jobs.New(ctx, a, jcfg)
	if err != nil {
		return err
	}
	if err := q.StartWorkers(ctx); err != nil {
		return err
	}
	srv, err := server.New(ctx, server.Config{App: a, Token: o.Token, Log: log, DecisionsDir: o.DecisionsDir, Jobs: q, Calls: calls, Conn: lim, PDFRenders: o.PDFRenders})
	if err != nil {
		return err
	}
	hs := server.NewHTTPServer(ctx, srv.Handler(), lim)
	if !o.NoResume {
		srv.Resume(ctx)
	}
	fmt.Fprintf(f.IO.ErrOut, "Parley is serving on http://%s (Ctrl+C stops it; the debates running go back to the queue)\n", ln.Addr())
	errc := make(chan error, 1)
	go func() { errc <- hs.Serve(ln) }()
	select {
	case err := <-errc:
		return err
	case <-ctx.Done():
	}
	shutdown, cancel := context.WithTimeout(context.WithoutCancel(ctx), 10*time.Second)
	defer cancel()
	err = hs.Shutdown(shutdown)
	srv.Wait()
	if errors.Is(err, http.ErrServerClosed) {
		err = nil
	}
	// The turns running finish (up to --stop-timeout), then their debates
	// go back to the queue, for another worker or this server's next start.
	sctx, scancel := context.WithTimeout(context.WithoutCancel(ctx), o.Jobs.StopTimeout+30*time.Second)
	defer scancel()
	if serr := q.Stop(sctx); serr != nil && err == nil {
		err = fmt.Errorf("stop the workers: %w", serr)
	}
	fmt.Fprintln(f.IO.ErrOut, "Parley stopped serving; the debates it was running go on when a worker (or this server) starts again.")
	return err
}
