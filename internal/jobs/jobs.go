// Package jobs runs debates as River jobs (github.com/riverqueue/river) in
// the database that holds their event logs, SQLite or PostgreSQL, so that
// any number of worker processes, on any machines sharing the database, run
// them.
//
// A RunDebate job runs a debate through the application layer (app.Resume,
// Session.Run) until it ends, pauses, or waits at a checkpoint. No human
// waits inside a job: a checkpoint pauses the debate, and the answer appends
// its event and enqueues the next job in one transaction (Queue.Answer).
// The log stays the single source of truth; a job only says "run this debate
// now", and its worker decides from the log whether there is anything to
// run (see RunDebate.After).
//
// The worker holds the debate's lease from before it prepares the run until
// the run ends, so that one runner, anywhere, runs a debate. A worker that
// dies leaves its job "running" in River's table; the workers still alive
// see that the job's lease is gone (expired, or its process dead on this
// host) and enqueue a job that takes over (Queue.reclaim), which resumes the
// debate from the log: the turn that was cut off is superseded and run
// again, no completed turn is. River's own rescuer, which retries a job that
// has run longer than Config.JobTimeout, is the slower backstop.
package jobs

import (
	"context"
	"encoding/json"
	"fmt"
	"log/slog"
	"os"
	"slices"
	"strings"
	"sync"
	"time"

	"github.com/riverqueue/river"
	"github.com/riverqueue/river/rivertype"

	"github.com/parleyhq/parley/internal/app"
	"github.com/parleyhq/parley/internal/debate"
	"github.com/parleyhq/parley/internal/llm"
	"github.com/parleyhq/parley/internal/store/sqlite"
)

// Kind is RunDebate's job kind in River's table.
const Kind = "parley_run_debate"

// RunDebate is the job that runs a debate.
type RunDebate struct {
	ID string `json:"id" river:"unique"`
	// After is the last sequence number of the debate's log when the job
	// was enqueued. A debate that paused, failed or ended after it is left
	// alone: the job was overtaken (a pause asked after a resume, a
	// duplicate job, a job River retries long after its worker died).
	After int64 `json:"after"`
	// Rescues is the id of the job whose worker died, for a job enqueued
	// to take over from it; at most one is enqueued per dead job.
	Rescues int64 `json:"rescues,omitempty" river:"unique"`
}

// Kind implements river.JobArgs.
func (RunDebate) Kind() string { return Kind }

// Queues: one per provider, so that workers can be given to providers
// separately (a machine next to an Ollama server takes the ollama queue);
// QueueData holds debates no model answers (--offline).
const QueueData = "data"

// Providers are the providers Parley knows, each a queue.
var providers = []string{"anthropic", "openai", "ollama"}

// AllQueues are every queue a debate may be enqueued on.
func AllQueues() []string { return append([]string{QueueData}, providers...) }

// Config configures a Queue.
type Config struct {
	// Workers is how many debates of each queue this process runs at once;
	// 0 makes a Queue that only enqueues (a server whose workers run
	// elsewhere).
	Workers int
	// Queues, when set, are the queues this process works and how many
	// debates of each it runs at once (a provider's name, or QueueData);
	// the default is every queue with Workers.
	Queues map[string]int
	// Finish is called after a debate a worker ran completed (write its
	// documents); nil does nothing.
	Finish func(ctx context.Context, sess *app.Session, st *debate.State)
	Log    *slog.Logger
	// LeaseTTL is the debates' lease time (debate.DefaultLeaseTTL when
	// zero): a worker on another host that died is taken over this long
	// after its last renewal.
	LeaseTTL time.Duration
	// ReclaimEvery is how often a worker looks for jobs whose worker died
	// (LeaseTTL/3 when zero).
	ReclaimEvery time.Duration
	// JobTimeout bounds one job (DefaultJobTimeout when zero): a debate
	// still running then pauses and goes on in a new job. River rescues a
	// job still marked running 10 minutes after it.
	JobTimeout time.Duration
	// StopTimeout is how long Stop lets the turns running finish before it
	// cancels them (they are superseded on resume); DefaultStopTimeout
	// when zero.
	StopTimeout time.Duration
}

// Defaults.
const (
	DefaultJobTimeout  = time.Hour
	DefaultStopTimeout = 2 * time.Minute
	// maxAttempts bounds River's retries of a job whose run fails with an
	// error that is not a pause (a database down, a key missing on this
	// worker): about a day and a half of River's backoff.
	maxAttempts = 10
)

// Queue is River on the debate database: it enqueues debates' runs and,
// with workers, runs them.
type Queue struct {
	app     *app.App
	store   debate.Store
	cfg     Config
	log     *slog.Logger
	db      backend
	handoff chan struct{}
	limits  *Limits
	stopped sync.Once
	bg      sync.WaitGroup
	cancel  context.CancelFunc
	// beforeRun, set by tests, is called once a job holds the lease and
	// before it renews it: a test stops a job there as if its worker froze.
	beforeRun func(ctx context.Context, debateID string)
	// onWork, set by benchmarks, is called when a job starts.
	onWork func(debateID string)
	// clientID names this process in River's table (job.AttemptedBy), with
	// its host and pid, so that a job whose process died on this host is
	// known dead at once.
	clientID string
}

// New returns a Queue on a's store, which must be a SQLite or PostgreSQL
// store: River's tables are created in the same database. Start starts its
// workers.
func New(ctx context.Context, a *app.App, cfg Config) (*Queue, error) {
	if cfg.LeaseTTL <= 0 {
		cfg.LeaseTTL = debate.DefaultLeaseTTL
	}
	if cfg.ReclaimEvery <= 0 {
		cfg.ReclaimEvery = cfg.LeaseTTL / 3
	}
	if cfg.JobTimeout <= 0 {
		cfg.JobTimeout = DefaultJobTimeout
	}
	if cfg.StopTimeout <= 0 {
		cfg.StopTimeout = DefaultStopTimeout
	}
	log := cfg.Log
	if log == nil {
		log = slog.New(slog.DiscardHandler)
	}
	q := &Queue{app: a, store: a.Store, cfg: cfg, log: log, handoff: make(chan struct{})}
	host, _ := os.Hostname()
	q.clientID = fmt.Sprintf("parley_%s_%d_%d", sanitize(host), os.Getpid(), time.Now().UnixNano())

	workers := river.NewWorkers()
	if err := river.AddWorkerSafely(workers, &worker{q: q}); err != nil {
		return nil, fmt.Errorf("register the debate worker: %w", err)
	}
	rc := &river.Config{
		ID:                   q.clientID,
		Workers:              workers,
		JobTimeout:           cfg.JobTimeout,
		RescueStuckJobsAfter: cfg.JobTimeout + 10*time.Minute,
		SoftStopTimeout:      cfg.StopTimeout,
		MaxAttempts:          maxAttempts,
		// River's own logs are about River; ours name the debates.
		Logger: slog.New(levelHandler{log.Handler(), slog.LevelWarn}),
	}
	if queues := q.queues(); len(queues) > 0 {
		rc.Queues = map[string]river.QueueConfig{}
		for name, n := range queues {
			rc.Queues[name] = river.QueueConfig{MaxWorkers: n}
		}
	}
	var err error
	switch st := a.Store.(type) {
	case *sqlite.Store:
		q.db, err = newSQLite(ctx, st, rc, log)
		if err == nil {
			q.limits = newLimits(sqliteLimits{db: st.DB(), now: time.Now}, log)
			err = q.limits.db.init(ctx)
		}
	default:
		q.db, q.limits, err = newOther(ctx, a.Store, rc, log)
	}
	if err != nil {
		return nil, err
	}
	// Every run this queue starts or runs respects the limits shared
	// through the database: the providers' and, on PostgreSQL (several
	// machines), the SEC's; SQLite is one machine, whose file limiter
	// already holds the SEC's.
	ac := *a
	outer := a.WrapProvider // the caller's (metrics), around the limits
	ac.WrapProvider = func(p llm.Provider) llm.Provider {
		p = q.limits.Wrap(p)
		if outer != nil {
			p = outer(p)
		}
		return p
	}
	if _, isSQLite := a.Store.(*sqlite.Store); !isSQLite {
		ac.Env.SECRate = q.limits.SECRate()
	}
	q.app = &ac
	return q, nil
}

// Works says whether this process runs debates of any queue (it has
// workers); a server with none leaves its queued debates to 'parley worker'.
func (q *Queue) Works() bool { return len(q.queues()) > 0 }

// Serves says whether this process works the named queue; with queue ""
// (not known), whether it works any.
func (q *Queue) Serves(queue string) bool {
	if queue == "" {
		return q.Works()
	}
	return q.queues()[queue] > 0
}

// queues are the queues this process works, with their workers.
func (q *Queue) queues() map[string]int {
	if len(q.cfg.Queues) > 0 {
		return q.cfg.Queues
	}
	if q.cfg.Workers <= 0 {
		return nil
	}
	out := map[string]int{}
	for _, name := range AllQueues() {
		out[name] = q.cfg.Workers
	}
	return out
}

// ParseQueues reads --queue values: NAME=N (a provider or "data"), each once.
func ParseQueues(specs []string) (map[string]int, error) {
	out := map[string]int{}
	for _, spec := range specs {
		name, n, ok := strings.Cut(spec, "=")
		name = strings.TrimSpace(name)
		var count int
		if _, err := fmt.Sscan(strings.TrimSpace(n), &count); !ok || err != nil || count < 1 {
			return nil, fmt.Errorf("--queue %q: write NAME=N with N at least 1, for example openai=4", spec)
		}
		if !slices.Contains(AllQueues(), name) {
			return nil, fmt.Errorf("--queue %q: no queue %q; the queues are %s", spec, name, strings.Join(AllQueues(), ", "))
		}
		if _, dup := out[name]; dup {
			return nil, fmt.Errorf("--queue %s given twice", name)
		}
		out[name] = count
	}
	return out, nil
}

// queueFor is the queue of a debate: the provider of its default model, or
// of its first recorded model, or QueueData when no model answers it.
func queueFor(models map[string]string) string {
	ref, ok := models["*"]
	if !ok {
		for _, role := range slices.Sorted(mapsKeys(models)) {
			ref = models[role]
			break
		}
	}
	p, _, _ := strings.Cut(ref, "/")
	if slices.Contains(providers, p) {
		return p
	}
	return QueueData
}

func mapsKeys(m map[string]string) func(func(string) bool) {
	return func(yield func(string) bool) {
		for k := range m {
			if !yield(k) {
				return
			}
		}
	}
}

// Limits are the limits every worker on the database respects.
func (q *Queue) Limits() *Limits { return q.limits }

// StartWorkers starts the workers, if any, and the watch for jobs whose worker
// died. The workers stop with Stop, or when ctx ends.
func (q *Queue) StartWorkers(ctx context.Context) error {
	if len(q.queues()) == 0 {
		return nil
	}
	if err := q.db.start(ctx); err != nil {
		return fmt.Errorf("start the workers on the %s database: %w", q.db.name(), err)
	}
	rctx, cancel := context.WithCancel(context.WithoutCancel(ctx))
	q.cancel = cancel
	q.bg.Go(func() { q.reclaimLoop(rctx) })
	q.log.Info("workers started", "queues", q.queues(), "client", q.clientID, "database", q.db.name())
	return nil
}

// Stop stops the workers gracefully: no job starts any more, the runs hand
// their debates over between steps (the turns running finish, the job goes
// back to the queue for another worker), and after StopTimeout the turns
// still running are cancelled (their debates pause and a job is enqueued to
// go on). It returns when every job has returned.
func (q *Queue) Stop(ctx context.Context) error {
	var err error
	q.stopped.Do(func() {
		close(q.handoff)
		if q.cancel != nil {
			q.cancel()
		}
		q.bg.Wait()
		if len(q.queues()) > 0 {
			err = q.db.stop(ctx)
		}
	})
	return err
}

// sanitize keeps a host name fit for River's client id.
func sanitize(s string) string {
	return strings.Map(func(r rune) rune {
		switch {
		case r >= 'a' && r <= 'z', r >= 'A' && r <= 'Z', r >= '0' && r <= '9', r == '-', r == '.':
			return r
		}
		return '-'
	}, s)
}

// levelHandler drops records below a level.
type levelHandler struct {
	slog.Handler
	min slog.Level
}

func (h levelHandler) Enabled(ctx context.Context, l slog.Level) bool {
	return l >= h.min && h.Handler.Enabled(ctx, l)
}

func (h levelHandler) WithAttrs(as []slog.Attr) slog.Handler {
	return levelHandler{h.Handler.WithAttrs(as), h.min}
}

func (h levelHandler) WithGroup(name string) slog.Handler {
	return levelHandler{h.Handler.WithGroup(name), h.min}
}

// JobCounts counts the debate jobs by state (available, running,
// retryable, scheduled, completed…), at most 10,000 a state, for metrics.
//
// A running job that another job took over (its worker died: see reclaim)
// stays running in River until River's rescuer retries it, an hour or more
// later; it is counted as "overtaken", not running, so that the running
// count is the debates being run.
func (q *Queue) JobCounts(ctx context.Context) (map[string]int, error) {
	out := map[string]int{}
	rescued := map[int64]bool{}
	var running []*rivertype.JobRow
	for _, state := range []rivertype.JobState{rivertype.JobStateAvailable, rivertype.JobStateRunning, rivertype.JobStateRetryable,
		rivertype.JobStateScheduled, rivertype.JobStateCompleted, rivertype.JobStateDiscarded, rivertype.JobStateCancelled} {
		jobs, err := q.db.list(ctx, river.NewJobListParams().States(state).First(10000))
		if err != nil {
			return nil, fmt.Errorf("count %s jobs: %w", state, err)
		}
		out[string(state)] = len(jobs)
		for _, j := range jobs {
			var args RunDebate
			if json.Unmarshal(j.EncodedArgs, &args) == nil && args.Rescues != 0 {
				rescued[args.Rescues] = true
			}
		}
		if state == rivertype.JobStateRunning {
			running = jobs
		}
	}
	out[StateOvertaken] = 0
	for _, j := range running {
		if rescued[j.ID] {
			out[string(rivertype.JobStateRunning)]--
			out[StateOvertaken]++
		}
	}
	return out, nil
}

// StateOvertaken is JobCounts' state of a running job whose worker died and
// whose debate another job took over.
const StateOvertaken = "overtaken"
