package jobs

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"time"

	"github.com/riverqueue/river"
	"github.com/riverqueue/river/rivertype"

	"github.com/parleyhq/parley/internal/app"
	"github.com/parleyhq/parley/internal/debate"
)

// Errors of the control methods, for front-ends that explain them (the
// server answers 409 Conflict).
var (
	// ErrRunning: a runner holds the debate's lease.
	ErrRunning = errors.New("the debate is already running")
	// ErrNotRunning: the debate has ended; nothing can be asked of it.
	ErrNotRunning = errors.New("the debate is not running: it is completed")
	// ErrNoCheckpoint: no checkpoint waits for an answer.
	ErrNoCheckpoint = errors.New("no checkpoint waits for an answer")
)

// insertOpts are a job's options: its queue, and the debate's id as a tag,
// so that the jobs of a debate can be listed.
func insertOpts(id, queue string) *river.InsertOpts {
	return &river.InsertOpts{Queue: queue, Tags: []string{id}}
}

// enqueue enqueues a run of a debate, and appends the debate.queued event
// that says so in the same transaction: the log says queued if and only if
// a job was enqueued. The job's After is that event, so that a pause
// appended after it overtakes the job, and one appended before it does
// not.
func (q *Queue) enqueue(ctx context.Context, id string, models map[string]string, reason, detail string) error {
	err := q.db.inTx(ctx, func(tx txOps) error {
		_, err := q.enqueueTx(ctx, tx, id, queueFor(models), debate.Queued{Reason: reason, Detail: detail}, nil)
		return err
	})
	if err != nil {
		return fmt.Errorf("queue a run of debate %s: %w", id, err)
	}
	return nil
}

// enqueueTx appends events, then the debate.queued event queued (its
// queue filled in), and inserts on queue the job that runs the debate after them,
// in tx. job, when not nil, is the job to insert (its ID and After are
// set here), with opts.
func (q *Queue) enqueueTx(ctx context.Context, tx txOps, id, queue string, queued debate.Queued, job *RunDebate, events ...debate.Event) (*rivertype.JobInsertResult, error) {
	queued.Queue = queue
	e, err := debate.NewEvent(id, time.Now(), queued)
	if err != nil {
		return nil, err
	}
	last, err := tx.append(ctx, id, append(events, e)...)
	if err != nil {
		return nil, err
	}
	args := RunDebate{}
	opts := insertOpts(id, queued.Queue)
	if job != nil {
		args = *job
	}
	args.ID, args.After = id, last
	if args.Rescues != 0 {
		// One job takes over from a dead one, however many workers see it
		// dead at once.
		opts.UniqueOpts = river.UniqueOpts{ByArgs: true}
	}
	return tx.enqueue(ctx, args, opts)
}

// StartDebate creates a debate and enqueues its first run, in one transaction.
func (q *Queue) StartDebate(ctx context.Context, req app.StartRequest) (*app.Session, error) {
	p, err := q.app.Plan(ctx, req)
	if err != nil {
		return nil, err
	}
	return q.StartPlan(ctx, p)
}

// StartPlan is StartDebate from a plan a front-end made to look for a
// debate that asks the same question (app.App.Plan): the format's setup
// runs once, here or in the plan.
func (q *Queue) StartPlan(ctx context.Context, p *app.Plan) (*app.Session, error) {
	return q.app.StartPlan(ctx, p, q.create)
}

// create appends a new debate's debate.created event and enqueues its first
// run in one transaction, so that neither exists without the other.
func (q *Queue) create(ctx context.Context, e debate.Event) error {
	var c debate.Created
	if err := json.Unmarshal(e.Data, &c); err != nil {
		return err
	}
	return q.db.inTx(ctx, func(tx txOps) error {
		_, err := q.enqueueTx(ctx, tx, e.Debate, queueFor(c.Models), debate.Queued{Reason: debate.QueuedCreated}, nil, e)
		return err
	})
}

// load folds a debate's log.
func (q *Queue) load(ctx context.Context, id string) (*debate.State, error) {
	events, err := q.store.Load(ctx, id, 0)
	if err != nil {
		return nil, err
	}
	return debate.Fold(events)
}

// letGoWait bounds how long Resume waits for a runner whose debate has
// paused to let go of its lease.
const letGoWait = 5 * time.Second

// liveLease is the debate's lease if a live runner holds it.
func liveLease(sum debate.Summary) *debate.Lease { return sum.LiveLease(time.Now(), debate.OwnerAlive) }

// Resume enqueues a run of a debate that has not ended and that no runner
// runs.
func (q *Queue) Resume(ctx context.Context, id string) error {
	sum, err := q.store.Get(ctx, id)
	if err != nil {
		return err
	}
	if sum.Status == debate.StatusCompleted {
		return fmt.Errorf("debate %s: %w", id, app.ErrCompleted)
	}
	// A runner that has just paused (or failed) lets go of its lease a
	// moment after its event is in the log: a resume asked in that moment
	// (a Resume click right after Pause) waits for it rather than be told
	// the debate is running.
	deadline := time.Now().Add(letGoWait)
	for l := liveLease(sum); l != nil; l = liveLease(sum) {
		stopped := sum.Status == debate.StatusPaused || sum.Status == debate.StatusFailed
		if !stopped || time.Now().After(deadline) {
			return fmt.Errorf("debate %s (pid %d on %s): %w", id, l.Owner.PID, l.Owner.Host, ErrRunning)
		}
		select {
		case <-ctx.Done():
			return ctx.Err()
		case <-time.After(50 * time.Millisecond):
		}
		if sum, err = q.store.Get(ctx, id); err != nil {
			return err
		}
	}
	st, err := q.load(ctx, id)
	if err != nil {
		return err
	}
	return q.enqueue(ctx, id, st.Models, debate.QueuedResumed, "")
}

// Continue sees that a debate that has not ended goes on: it enqueues a run
// unless one is queued or a live runner holds the debate.
func (q *Queue) Continue(ctx context.Context, id string) error {
	sum, err := q.store.Get(ctx, id)
	if err != nil {
		return err
	}
	if sum.Status == debate.StatusCompleted || liveLease(sum) != nil {
		return nil
	}
	queued, err := q.Queued(ctx, id)
	if err != nil || queued[id] {
		return err
	}
	return q.Resume(ctx, id)
}

// withLease runs fn holding the debate's lease, waiting up to wait for a
// runner that holds it to let go (a run pausing at a checkpoint lets go a
// moment after its pause is in the log). Holding it keeps runners out while
// fn reads the log and appends to it.
func (q *Queue) withLease(ctx context.Context, id string, wait time.Duration, fn func() error) error {
	owner := debate.ThisProcess()
	deadline := time.Now().Add(wait)
	for {
		_, err := acquire(ctx, q.store, id, owner, q.cfg.LeaseTTL, q.log)
		var held *debate.LeaseHeldError
		if errors.As(err, &held) && time.Now().Before(deadline) {
			select {
			case <-ctx.Done():
				return ctx.Err()
			case <-time.After(50 * time.Millisecond):
			}
			continue
		}
		if errors.As(err, &held) {
			return fmt.Errorf("debate %s: %w", id, ErrRunning)
		}
		if err != nil {
			return err
		}
		break
	}
	defer func() {
		if err := q.store.ReleaseLease(context.WithoutCancel(ctx), id, owner.ID); err != nil {
			q.log.Warn("release the lease", "debate", id, "err", err)
		}
	}()
	return fn()
}

// Answer answers the checkpoint a debate waits at and enqueues its next run,
// in one transaction: the answer is in the log if and only if a job will act
// on it. ans.ID, when set, must name that checkpoint.
//
// A checkpoint that a live runner still holds after that wait is being
// asked of a person by that runner's front-end (a terminal running the
// debate with checkpoints): only it takes the answer, and the error names
// the process and the way to answer here instead (pause, then answer).
func (q *Queue) Answer(ctx context.Context, id string, ans debate.CheckpointAnswered) error {
	err := q.answer(ctx, id, ans)
	if !errors.Is(err, ErrRunning) {
		return err
	}
	sum, gerr := q.store.Get(ctx, id)
	if gerr != nil {
		return err
	}
	if l := liveLease(sum); l != nil && sum.Status == debate.StatusCheckpoint {
		return fmt.Errorf("debate %s waits at its checkpoint in the process that runs it (pid %d on %s), which asks for the answer: answer it there, or pause the debate and answer it then: %w",
			id, l.Owner.PID, l.Owner.Host, ErrRunning)
	}
	return err
}

// answer is Answer, holding the lease.
func (q *Queue) answer(ctx context.Context, id string, ans debate.CheckpointAnswered) error {
	return q.withLease(ctx, id, 5*time.Second, func() error {
		st, err := q.load(ctx, id)
		if err != nil {
			return err
		}
		cp := st.OpenCheckpoint()
		if cp == nil || st.Status == debate.StatusCompleted {
			return fmt.Errorf("debate %s (%s): %w", id, st.Status, ErrNoCheckpoint)
		}
		if ans.ID != "" && ans.ID != cp.ID {
			return &otherCheckpointError{debate: id, asked: ans.ID, open: cp.ID}
		}
		ans.ID = cp.ID
		e, err := debate.NewEvent(id, time.Now(), ans)
		if err != nil {
			return err
		}
		return q.db.inTx(ctx, func(tx txOps) error {
			_, err := q.enqueueTx(ctx, tx, id, queueFor(st.Models), debate.Queued{Reason: debate.QueuedAnswered}, nil, e)
			return err
		})
	})
}

// Hint queues guidance for an agent's next turn of a debate that has not
// ended, wherever it runs (app.App.QueueHint). target and text are checked
// by the caller (app.ResolveHint).
func (q *Queue) Hint(ctx context.Context, id, target, text string) (debate.HintQueued, error) {
	h, err := q.app.QueueHint(ctx, id, target, text)
	if errors.Is(err, app.ErrCompleted) {
		return h, fmt.Errorf("debate %s: %w", id, ErrNotRunning)
	}
	return h, err
}

// Pause pauses a debate: the runner that runs it, on any worker, is asked
// to (debate.PauseRequest) and Pause waits until it has, up to wait; a
// debate no runner runs (its job still queued, or its runner dead) is paused
// at once, and its queued job then has nothing to run. A paused debate
// stays paused; an ended one is ErrNotRunning.
func (q *Queue) Pause(ctx context.Context, id string, wait time.Duration) error {
	deadline := time.Now().Add(wait)
	asked := ""
	for {
		sum, err := q.store.Get(ctx, id)
		if err != nil {
			return err
		}
		switch sum.Status {
		case debate.StatusCompleted:
			return fmt.Errorf("debate %s: %w", id, ErrNotRunning)
		case debate.StatusPaused, debate.StatusFailed:
			return nil
		}
		if l := liveLease(sum); l != nil {
			if asked != l.Owner.ID {
				e, err := debate.NewEvent(id, time.Now(), debate.PauseRequest{Owner: l.Owner.ID})
				if err != nil {
					return err
				}
				if _, err := q.store.Append(ctx, id, e); err != nil {
					return fmt.Errorf("ask debate %s to pause: %w", id, err)
				}
				asked = l.Owner.ID
			}
			if time.Now().After(deadline) {
				return fmt.Errorf("debate %s was asked to pause and has not yet (its runner pauses within seconds)", id)
			}
			select {
			case <-ctx.Done():
				return ctx.Err()
			case <-time.After(50 * time.Millisecond):
			}
			continue
		}
		err = q.withLease(ctx, id, 0, func() error {
			st, err := q.load(ctx, id)
			if err != nil {
				return err
			}
			if st.Status == debate.StatusCompleted || st.Status == debate.StatusPaused || st.Status == debate.StatusFailed {
				return nil
			}
			e, err := debate.NewEvent(id, time.Now(), debate.Paused{Reason: debate.PauseOnRequest, Detail: "paused before a worker took it up"})
			if err != nil {
				return err
			}
			_, err = q.store.Append(ctx, id, e)
			return err
		})
		if errors.Is(err, ErrRunning) {
			continue // a worker took it up meanwhile: ask its runner
		}
		return err
	}
}

// Queued reports which of the given debates have a job waiting in River's
// table (not yet started, or to be retried), so that Continue does not
// enqueue a second. Where a debate stands is its log's to say
// (debate.Summary.Shown), not this.
func (q *Queue) Queued(ctx context.Context, ids ...string) (map[string]bool, error) {
	out := map[string]bool{}
	if len(ids) == 0 {
		return out, nil
	}
	params := river.NewJobListParams().Kinds(Kind).TagsAny(ids...).
		States(rivertype.JobStateAvailable, rivertype.JobStatePending, rivertype.JobStateScheduled, rivertype.JobStateRetryable).
		First(10000)
	rows, err := q.db.list(ctx, params)
	if err != nil {
		return nil, fmt.Errorf("list queued jobs: %w", err)
	}
	for _, r := range rows {
		var a RunDebate
		if json.Unmarshal(r.EncodedArgs, &a) == nil {
			out[a.ID] = true
		}
	}
	return out, nil
}

// otherCheckpointError is an answer to a checkpoint that no longer waits
// (answered, or from a stale page) while another one does: it is
// ErrNoCheckpoint for that id, and names the one that waits.
type otherCheckpointError struct{ debate, asked, open string }

func (e *otherCheckpointError) Error() string {
	return fmt.Sprintf("debate %s: checkpoint %.40q does not wait for an answer; checkpoint %s does: answer that one", e.debate, e.asked, e.open)
}

func (e *otherCheckpointError) Unwrap() error { return ErrNoCheckpoint }
