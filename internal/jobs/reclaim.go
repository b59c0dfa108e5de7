package jobs

import (
	"context"
	"encoding/json"
	"errors"
	"time"

	"github.com/riverqueue/river"
	"github.com/riverqueue/river/rivertype"

	"github.com/parleyhq/parley/internal/debate"
)

// reclaimLoop looks for jobs whose worker died every ReclaimEvery until ctx
// ends.
func (q *Queue) reclaimLoop(ctx context.Context) {
	t := time.NewTicker(q.cfg.ReclaimEvery)
	defer t.Stop()
	for first := true; ; first = false {
		if !first {
			select {
			case <-ctx.Done():
				return
			case <-t.C:
			}
		}
		if _, err := q.reclaim(ctx); err != nil && ctx.Err() == nil {
			q.log.Warn("look for jobs whose worker died", "err", err)
		}
		if _, err := q.unqueueOrphans(ctx); err != nil && ctx.Err() == nil {
			q.log.Warn("look for queued debates whose job is gone", "err", err)
		}
	}
}

// reclaim enqueues a job to take over from each running job whose worker
// is dead, and returns how many it enqueued.
//
// River marks a job running when a worker takes it and does not know when
// that worker dies: its rescuer retries a job only once it has run longer
// than the job timeout (an hour or more for a debate). The debate's lease
// knows sooner: the job's worker renews it every third of its TTL from
// before it prepares the run until the run ends. A running job whose debate
// has no live lease (expired, released, or held by a process of this host
// that is gone) a while after the job started, and whose log says it is
// still running, has lost its worker. The job enqueued to take over is
// unique per dead job (RunDebate.Rescues), so that workers reclaiming at the
// same time enqueue one. The dead job stays as River left it; when River's
// rescuer retries it, its worker finds the debate overtaken or running and
// does nothing.
func (q *Queue) reclaim(ctx context.Context) (int, error) {
	params := river.NewJobListParams().Kinds(Kind).States(rivertype.JobStateRunning).First(1000)
	rows, err := q.db.list(ctx, params)
	if err != nil {
		return 0, err
	}
	n := 0
	now := time.Now()
	for _, job := range rows {
		var args RunDebate
		if err := json.Unmarshal(job.EncodedArgs, &args); err != nil {
			continue
		}
		sum, err := q.store.Get(ctx, args.ID)
		if err != nil {
			continue // deleted: its worker returns at once
		}
		switch sum.Status {
		case debate.StatusRunning, debate.StatusCheckpoint, debate.StatusQueued:
			// Queued: the worker died preparing the run, before its
			// runner appended anything.
		default:
			continue // paused or ended: its worker is returning
		}
		if liveLease(sum) != nil {
			continue
		}
		why := "its process is gone"
		if sum.Lease == nil || debate.OwnerAlive(sum.Lease.Owner) {
			// No lease, or one that expired: a job that has just started
			// may not have taken it yet (it loads the log first, which on
			// a loaded machine takes a while). It is given a lease's time
			// to take one, as a runner that holds one is given to renew
			// it; a reclaim period alone (a tenth of a second in tests)
			// took over a job that was about to run.
			if job.AttemptedAt == nil || now.Sub(*job.AttemptedAt) < max(q.cfg.ReclaimEvery, q.cfg.LeaseTTL) {
				continue
			}
			why = "no lease"
			if sum.Lease != nil {
				why = "lease expired"
			}
		}
		// The job that takes over and its debate.queued event go together;
		// a job another worker enqueued first leaves neither.
		var res *rivertype.JobInsertResult
		err = q.db.inTx(ctx, func(tx txOps) error {
			var err error
			res, err = q.enqueueTx(ctx, tx, args.ID, job.Queue, debate.Queued{Reason: debate.QueuedTakeover, Detail: why},
				&RunDebate{Rescues: job.ID})
			if err == nil && res.UniqueSkippedAsDuplicate {
				return errDuplicate
			}
			return err
		})
		if err != nil && !errors.Is(err, errDuplicate) {
			q.log.Warn("enqueue a job to take over from a dead worker", "debate", args.ID, "job", job.ID, "err", err)
			continue
		}
		if err == nil {
			n++
			q.log.Info("took over from a dead worker", "debate", args.ID, "dead_job", job.ID, "why", why,
				"worker", lastOf(job.AttemptedBy), "job", res.Job.ID)
		}
	}
	return n, nil
}

// errDuplicate rolls back a takeover another worker enqueued first.
var errDuplicate = errors.New("another worker took over first")

func lastOf(s []string) string {
	if len(s) == 0 {
		return ""
	}
	return s[len(s)-1]
}

// jobAlive are the states of a job that will still run, or runs.
var jobAlive = []rivertype.JobState{rivertype.JobStateAvailable, rivertype.JobStatePending, rivertype.JobStateScheduled,
	rivertype.JobStateRetryable, rivertype.JobStateRunning}

// unqueueOrphans pauses each debate whose log says queued but whose job is
// no longer in River's table to run (deleted or cancelled by hand: a job
// that fails for good pauses its debate itself), and returns how many it
// paused. Such a debate would say queued for ever, and a resume refuses a
// queued debate; paused, it says why and resumes (which queues it again).
//
// Its queued event and its job were stored in one transaction, so a debate
// listed as queued had a job; one that finished since left the debate
// running or ended, which the check made holding the debate's lease (no
// runner appends meanwhile) sees.
func (q *Queue) unqueueOrphans(ctx context.Context) (int, error) {
	sums, err := q.store.List(ctx, debate.ListFilter{Status: debate.StatusQueued, Limit: 1000})
	if err != nil || len(sums) == 0 {
		return 0, err
	}
	ids := make([]string, len(sums))
	for i, s := range sums {
		ids[i] = s.ID
	}
	rows, err := q.db.list(ctx, river.NewJobListParams().Kinds(Kind).TagsAny(ids...).States(jobAlive...).First(10000))
	if err != nil {
		return 0, err
	}
	alive := map[string]bool{}
	for _, r := range rows {
		var a RunDebate
		if json.Unmarshal(r.EncodedArgs, &a) == nil {
			alive[a.ID] = true
		}
	}
	n := 0
	for _, s := range sums {
		if alive[s.ID] {
			continue
		}
		paused := false
		err := q.withLease(ctx, s.ID, 0, func() error {
			sum, err := q.store.Get(ctx, s.ID)
			if err != nil || sum.Status != debate.StatusQueued || sum.LastSeq != s.LastSeq {
				return err // it moved on: not an orphan
			}
			e, err := debate.NewEvent(s.ID, time.Now(), debate.Paused{Reason: debate.PauseError,
				Detail: "its job is no longer in the job queue (deleted or cancelled by hand); resume it to queue it again"})
			if err != nil {
				return err
			}
			if _, err := q.store.Append(ctx, s.ID, e); err != nil {
				return err
			}
			paused = true
			return nil
		})
		if errors.Is(err, ErrRunning) {
			continue // a runner has it: not an orphan
		}
		if err != nil {
			q.log.Warn("pause a queued debate whose job is gone", "debate", s.ID, "err", err)
			continue
		}
		if paused {
			n++
			q.log.Info("paused a queued debate whose job is gone", "debate", s.ID)
		}
	}
	return n, nil
}
