package jobs

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"time"

	"github.com/riverqueue/river"
	"github.com/riverqueue/river/rivertype"

	"github.com/parleyhq/parley/internal/app"
	"github.com/parleyhq/parley/internal/debate"
)

// worker runs RunDebate jobs.
type worker struct {
	river.WorkerDefaults[RunDebate]
	q *Queue
}

// Timeout implements river.Worker.
func (w *worker) Timeout(*river.Job[RunDebate]) time.Duration { return w.q.cfg.JobTimeout }

// Work implements river.Worker.
func (w *worker) Work(ctx context.Context, job *river.Job[RunDebate]) error {
	err := w.q.work(ctx, job.JobRow.ID, job.Attempt, job.Args)
	if err != nil {
		w.q.failed(context.WithoutCancel(ctx), job.JobRow, job.Args.ID, err)
	}
	return err
}

// failed records in a debate's log that its job's attempt failed with err,
// so that the log keeps saying where the debate stands: River retries the
// job later (debate.queued, reason retry, with the error), or, after its
// last attempt, gives up on it, and the debate pauses (reason error) to be
// resumed once the cause is fixed; a log must not say queued for a job no
// worker will run. A job snoozed or cancelled on purpose, and a debate
// that has stopped or ended meanwhile, are left as they are.
func (q *Queue) failed(ctx context.Context, job *rivertype.JobRow, id string, err error) {
	var snooze *river.JobSnoozeError
	var cancel *river.JobCancelError
	if errors.As(err, &snooze) || errors.As(err, &cancel) {
		return
	}
	log := q.log.With("debate", id, "job", job.ID, "attempt", job.Attempt)
	sum, gerr := q.store.Get(ctx, id)
	if gerr != nil {
		log.Warn("record the failed attempt in the debate's log", "err", gerr)
		return
	}
	switch sum.Status {
	case debate.StatusRunning, debate.StatusCheckpoint, debate.StatusQueued:
	default:
		return
	}
	var p debate.Payload = debate.Queued{Queue: job.Queue, Reason: debate.QueuedRetry,
		Detail: fmt.Sprintf("attempt %d of %d failed: %v", job.Attempt, job.MaxAttempts, err)}
	if job.Attempt >= job.MaxAttempts {
		p = debate.Paused{Reason: debate.PauseError,
			Detail: fmt.Sprintf("the job queue gave up after %d attempts: %v; fix the cause and resume it", job.Attempt, err)}
	}
	e, nerr := debate.NewEvent(id, time.Now(), p)
	if nerr == nil {
		_, nerr = q.store.Append(ctx, id, e)
	}
	if nerr != nil {
		log.Warn("record the failed attempt in the debate's log", "err", nerr)
	}
}

// overtaken says why a job has nothing to run: the debate ended, or paused
// or failed after the job was enqueued. "" means run it.
func overtaken(events []debate.Event, after int64) string {
	var last debate.Event
	for _, e := range events {
		switch e.Type {
		case debate.TypeCompleted:
			return "the debate is completed"
		case debate.TypePaused, debate.TypeFailed:
			last = e
		}
	}
	if last.Seq > after {
		return fmt.Sprintf("the debate stopped (%s, event %d) after the job was queued (event %d)", last.Type, last.Seq, after)
	}
	return ""
}

// recordedModels are the debate's models as its log records them.
func recordedModels(events []debate.Event) map[string]string {
	st, err := debate.Fold(events)
	if err != nil {
		return nil
	}
	return st.Models
}

// work runs one RunDebate job.
func (q *Queue) work(ctx context.Context, jobID int64, attempt int, args RunDebate) error {
	id := args.ID
	if q.onWork != nil {
		q.onWork(id)
	}
	log := q.log.With("debate", id, "job", jobID, "attempt", attempt)
	events, err := q.store.Load(ctx, id, 0)
	if errors.Is(err, debate.ErrNotFound) {
		log.Info("nothing to run: the debate was deleted")
		return nil
	}
	if err != nil {
		return fmt.Errorf("load debate %s: %w", id, err)
	}
	if why := overtaken(events, args.After); why != "" {
		log.Info("nothing to run", "why", why)
		return nil
	}

	// The lease is taken before the run is prepared (preparing may fetch
	// filings for a while), so that a worker that dies while preparing is
	// seen dead like one that dies mid-turn.
	// The owner names the job, so that its lease says which job holds it,
	// and that a lease left by a worker that died says a job will go on
	// (debate.Summary.Shown).
	owner := debate.JobOwner(jobID)
	if _, err := acquireForJob(ctx, q.store, id, owner, jobID, q.cfg.LeaseTTL, log); err != nil {
		var held *debate.LeaseHeldError
		if errors.As(err, &held) {
			// Another runner is on it (a terminal, a job still ending): look
			// again shortly; by then it has ended, or this job is overtaken.
			wait := min(time.Second<<min(attempt, 5), q.cfg.LeaseTTL)
			log.Info("the debate is running elsewhere; trying again", "holder", held.Lease.Owner.ID, "host", held.Lease.Owner.Host, "in", wait)
			return river.JobSnooze(wait)
		}
		return err
	}
	if q.beforeRun != nil {
		q.beforeRun(ctx, id)
	}
	renewCtx, stopRenew := context.WithCancel(ctx)
	renewed := make(chan struct{})
	go func() {
		defer close(renewed)
		renew(renewCtx, q.store, id, owner.ID, q.cfg.LeaseTTL, log)
	}()
	defer func() {
		stopRenew()
		<-renewed
		if err := q.store.ReleaseLease(context.WithoutCancel(ctx), id, owner.ID); err != nil {
			log.Warn("release the lease", "err", err)
		}
	}()

	a := *q.app
	a.Owner, a.Handoff, a.Log = owner, q.handoff, log
	// A debate with no model was started offline: it stays off the network
	// (no market data, no web search) on every worker.
	sess, err := a.Resume(ctx, app.ResumeRequest{ID: id, Offline: len(recordedModels(events)) == 0})
	if errors.Is(err, app.ErrCompleted) {
		return nil
	}
	if err != nil {
		log.Error("cannot resume the debate", "err", err)
		return fmt.Errorf("resume debate %s: %w", id, err)
	}
	start := time.Now()
	log.Info("running", "format", sess.Format.Name(), "queued_after", args.After)
	st, err := sess.Run(ctx, nil)
	models := sess.Models
	if st != nil {
		models = st.Models
	}
	var pe *debate.PausedError
	switch {
	case err == nil:
		log.Info("completed", "took", time.Since(start).Round(time.Millisecond), "cost_usd", st.CostUSD)
		if q.cfg.Finish != nil {
			q.cfg.Finish(context.WithoutCancel(ctx), sess, st)
		}
		return nil
	case errors.Is(err, debate.ErrHandedOff):
		// This worker is stopping: a new job, with its debate.queued event,
		// goes back to the queue for another worker, which goes on from the
		// next step. (Snoozing this job would leave the log saying running
		// with no runner: interrupted, to be resumed by hand.) Should that
		// fail, this job is snoozed as the fallback.
		if ierr := q.enqueue(context.WithoutCancel(ctx), id, models, debate.QueuedHandover, ""); ierr != nil {
			log.Warn("queue the debate again on handing it over; snoozing its job", "err", ierr)
			return river.JobSnooze(0)
		}
		log.Info("handed over between steps")
		return nil
	case errors.As(err, &pe) && ctx.Err() != nil && pe.Reason == debate.PauseInterrupted:
		// River cancelled the job (its timeout, or this worker stopping
		// after the grace period): the debate paused with its turns cut
		// off; a new job goes on from the log, elsewhere if need be.
		if ierr := q.enqueue(context.WithoutCancel(ctx), id, models, debate.QueuedCutOff, context.Cause(ctx).Error()); ierr != nil {
			log.Error("the debate paused when its job was cancelled, and could not be queued again; resume it", "err", ierr)
			return nil
		}
		log.Info("cut off; queued again", "reason", context.Cause(ctx))
		return nil
	case errors.As(err, &pe):
		log.Info("paused", "reason", pe.Reason, "detail", pe.Detail)
		return nil
	case errors.Is(err, debate.ErrLeaseLost):
		log.Warn("another runner took the debate's lease; this one stopped", "err", err)
		return nil
	case st != nil && st.Status == debate.StatusFailed:
		log.Error("the debate failed", "err", err)
		return river.JobCancel(err)
	}
	log.Error("the run stopped", "err", err)
	return err
}

// acquire takes a debate's lease for owner, taking it over from a dead
// process of this host.
func acquire(ctx context.Context, store debate.Store, id string, owner debate.LeaseOwner, ttl time.Duration, log *slog.Logger) (debate.Lease, error) {
	l, err := store.AcquireLease(ctx, id, owner, ttl, "")
	var held *debate.LeaseHeldError
	if errors.As(err, &held) && !debate.OwnerAlive(held.Lease.Owner) {
		log.Info("take over the lease of a dead runner", "pid", held.Lease.Owner.PID)
		l, err = store.AcquireLease(ctx, id, owner, ttl, held.Lease.Owner.ID)
	}
	if err != nil && !errors.As(err, &held) {
		return l, fmt.Errorf("take the lease of debate %s: %w", id, err)
	}
	return l, err
}

// acquireForJob is acquire for the run of job jobID, which also takes the
// lease over from an earlier attempt of the same job. That attempt has
// ended: River starts an attempt only once the one before returned (or,
// rescuing a stuck job, long after its timeout cancelled it). Its lease is
// left when its release failed, as when the database restarted under the
// run: the attempt fails, its release fails too, and without this the
// retry (on this worker or another) would wait for the lease to expire,
// saying the debate runs elsewhere, while nothing runs it.
func acquireForJob(ctx context.Context, store debate.Store, id string, owner debate.LeaseOwner, jobID int64, ttl time.Duration, log *slog.Logger) (debate.Lease, error) {
	l, err := acquire(ctx, store, id, owner, ttl, log)
	var held *debate.LeaseHeldError
	if !errors.As(err, &held) {
		return l, err
	}
	if n, ok := held.Lease.Owner.Job(); !ok || n != jobID || held.Lease.Owner.ID == owner.ID {
		return l, err
	}
	log.Info("take over the lease an earlier attempt of this job left", "holder", held.Lease.Owner.ID, "host", held.Lease.Owner.Host)
	l, err = store.AcquireLease(ctx, id, owner, ttl, held.Lease.Owner.ID)
	if err != nil && !errors.As(err, &held) {
		return l, fmt.Errorf("take the lease of debate %s: %w", id, err)
	}
	return l, err
}

// renew renews a lease every third of its ttl until ctx ends. The runner
// renews it too while it runs; this covers the preparation before.
func renew(ctx context.Context, store debate.Store, id, ownerID string, ttl time.Duration, log *slog.Logger) {
	t := time.NewTicker(ttl / 3)
	defer t.Stop()
	for {
		select {
		case <-ctx.Done():
			return
		case <-t.C:
		}
		if _, err := store.RenewLease(ctx, id, ownerID, ttl); err != nil && ctx.Err() == nil {
			if errors.Is(err, debate.ErrLeaseLost) {
				return // the runner released it, or lost it and stops
			}
			log.Warn("renew the lease", "err", err)
		}
	}
}
