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
			// may not have taken it yet.
			if job.AttemptedAt == nil || now.Sub(*job.AttemptedAt) < q.cfg.ReclaimEvery {
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
