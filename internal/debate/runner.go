package debate

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"log/slog"
	"strings"
	"sync"
	"time"
	"unicode/utf8"

	"github.com/cenkalti/backoff/v5"

	"github.com/parleyhq/parley/internal/llm"
	"github.com/parleyhq/parley/internal/tool"
)

// Model is a provider and the model name to ask it for.
type Model struct {
	Provider llm.Provider
	Name     string
}

// String names the model as "provider/model".
func (m Model) String() string {
	if m.Provider == nil {
		return ""
	}
	return m.Provider.Name() + "/" + m.Name
}

// Cast says who answers each turn: a data-only Responder by agent, else a
// model by agent, by role, or the default model.
type Cast struct {
	Default    Model
	ByRole     map[string]Model
	ByAgent    map[string]Model
	Responders map[string]Responder
}

// model returns the model for a turn, or ok=false when none is configured.
func (c Cast) model(t TurnRef) (Model, bool) {
	if m, ok := c.ByAgent[t.Agent]; ok && m.Provider != nil {
		return m, true
	}
	if m, ok := c.ByRole[t.Role]; ok && m.Provider != nil {
		return m, true
	}
	return c.Default, c.Default.Provider != nil
}

// Human answers checkpoints. Checkpoint blocks until the human answers or ctx
// ends; the runner bounds it with the checkpoint timeout.
type Human interface {
	Checkpoint(ctx context.Context, s *State, c CheckpointReached) (CheckpointAnswered, error)
}

// Runner executes debates for every format: it asks the protocol for the next
// step, runs turns (concurrently when the step holds several), and owns
// retries with backoff, timeouts, token budgets, cancellation, tool loops,
// repair turns and checkpoints. Every event is appended to the store before
// anything depends on it.
type Runner struct {
	Store Store
	Cast  Cast
	Tools *tool.Registry // nil: no tools
	Human Human          // nil: a checkpoint pauses the debate
	// Limits, when non-zero, replace the limits the debate was created with
	// (for example a larger budget on resume).
	Limits *Limits
	// Price returns the cost in USD of a call to model ("provider/model")
	// and whether the model has a price (recorded as TurnCompleted.Priced);
	// nil prices everything at 0, unknown.
	Price func(model string, u llm.Usage) (usd float64, known bool)
	// Now and Sleep are the clock; nil means the real one.
	Now   func() time.Time
	Sleep func(ctx context.Context, d time.Duration) error
	Log   *slog.Logger
	// FlushEvery bounds how long streamed text waits before it is appended as
	// a delta event; deltas are coalesced to keep the log small.
	FlushEvery time.Duration
	// Owner names this runner in the debate's lease; the zero value is this
	// process (ThisProcess). LeaseTTL is how long the lease lasts unless
	// renewed (DefaultLeaseTTL when zero); the runner renews it every third
	// of that while it runs.
	Owner    LeaseOwner
	LeaseTTL time.Duration
	// OnStart are events to append when a run starts, once it holds the
	// lease (a resume's recorded cast changes).
	OnStart []Payload
	// DataPace, when set, streams a data-only reply line by line, this long
	// apart, as a model's reply streams, so that a person watching can read
	// it and coach the agents before their next turns; zero appends it at
	// once (scripts, servers).
	DataPace time.Duration
	// Handoff, when closed, stops the run at the next step boundary: the
	// turns running finish, nothing more starts, and Run returns
	// ErrHandedOff without pausing the debate, so that another runner (a
	// worker elsewhere) goes on from the log. A worker shutting down closes
	// it.
	Handoff <-chan struct{}
	// WatchEvery is how often the runner looks for events other processes
	// appended to its log (hints, pause requests) while nothing it appends
	// shows them (DefaultWatchEvery when zero; negative: never).
	WatchEvery time.Duration

	mu    sync.Mutex              // guards the state of the debate being run; never held across a store write
	cur   *State                  // the debate being run, for Hint
	lost  bool                    // the lease was lost: append nothing more (guarded by mu)
	owner string                  // the lease owner of the run (guarded by mu)
	stop  context.CancelCauseFunc // cancels the run (guarded by mu)

	// logMu orders the writes of the runner's appends and the catch-ups
	// with other processes' events (see appender.go); queue holds the
	// appends waiting to be written. hintMu makes Hint's read of the hint ids
	// and its append of the next one atomic.
	logMu  sync.Mutex
	queue  appendQueue
	hintMu sync.Mutex
}

// DefaultWatchEvery is how often a runner looks for events appended by other
// processes: a pause asked from the server reaches a runner on a worker
// within about this long, even in the middle of a long call.
const DefaultWatchEvery = time.Second

// ErrHandedOff is returned by Run when Handoff stopped it between steps.
var ErrHandedOff = errors.New("the run stopped between steps for another runner to go on")

// errPauseRequested is the cause of a run cancelled by a PauseRequest.
var errPauseRequested = errors.New("a pause was requested")

// DefaultLeaseTTL is how long a runner's lease lasts without renewal: after
// a crash on another host, the debate can be resumed this long after its
// runner died (at once on the same host, where a dead process is seen).
const DefaultLeaseTTL = 30 * time.Second

// PausedError reports a debate that stopped in a resumable state.
type PausedError struct {
	Reason string
	Detail string
	Err    error
}

func (e *PausedError) Error() string {
	msg := "debate paused (" + e.Reason + ")"
	if e.Detail != "" {
		msg += ": " + e.Detail
	}
	return msg
}

func (e *PausedError) Unwrap() error { return e.Err }

// ErrNoModel is returned when a turn needs a model and none is configured.
var ErrNoModel = errors.New("no model configured")

func (r *Runner) now() time.Time {
	if r.Now != nil {
		return r.Now()
	}
	return time.Now()
}

func (r *Runner) sleep(ctx context.Context, d time.Duration) error {
	if r.Sleep != nil {
		return r.Sleep(ctx, d)
	}
	t := time.NewTimer(d)
	defer t.Stop()
	select {
	case <-t.C:
		return nil
	case <-ctx.Done():
		return ctx.Err()
	}
}

func (r *Runner) log() *slog.Logger {
	if r.Log != nil {
		return r.Log
	}
	return slog.New(slog.DiscardHandler)
}

// Create starts a new debate log.
func (r *Runner) Create(ctx context.Context, id string, c Created) error {
	e, err := NewEvent(id, r.now(), c)
	if err != nil {
		return err
	}
	if _, err := r.Store.Append(ctx, id, e); err != nil {
		return fmt.Errorf("create debate %s: %w", id, err)
	}
	return nil
}

// catchUpLocked folds the events other processes appended to the log
// after the state's last one and before seq before (0: all of them), and
// honours a pause request among them. Callers hold r.logMu and r.mu, so
// that every event of the log beyond s.LastSeq is another process's (or,
// for the writer, one of the batch it is folding, beyond before).
func (r *Runner) catchUpLocked(ctx context.Context, s *State, before int64) error {
	evs, err := r.Store.Load(context.WithoutCancel(ctx), s.ID, s.LastSeq)
	if err != nil {
		return fmt.Errorf("read the events other processes appended to debate %s: %w", s.ID, err)
	}
	for _, e := range evs {
		if before > 0 && e.Seq >= before {
			break
		}
		if err := s.Apply(e); err != nil {
			return err
		}
		if e.Type == TypePauseRequest && r.requestedLocked(s) {
			r.log().Info("pause requested", "debate", s.ID, "seq", e.Seq)
			if r.stop != nil {
				r.stop(errPauseRequested)
			}
		}
	}
	return nil
}

// requestedLocked reports whether the state holds a pause request for this
// run: one for any runner, or for this run's lease owner.
func (r *Runner) requestedLocked(s *State) bool {
	p := s.PauseRequested
	return p != nil && (p.Owner == "" || p.Owner == r.owner)
}

// watch looks for events other processes appended to the log of the debate
// being run, every WatchEvery, until ctx ends.
func (r *Runner) watch(ctx context.Context, id string) {
	every := r.WatchEvery
	if every == 0 {
		every = DefaultWatchEvery
	}
	if every < 0 {
		return
	}
	t := time.NewTicker(every)
	defer t.Stop()
	for {
		select {
		case <-ctx.Done():
			return
		case <-t.C:
		}
		sum, err := r.Store.Get(ctx, id)
		if err != nil {
			if ctx.Err() == nil {
				r.log().Warn("watch the debate's log", "debate", id, "err", err)
			}
			continue
		}
		r.logMu.Lock()
		r.mu.Lock()
		if s := r.cur; s != nil && sum.LastSeq > s.LastSeq && !r.lost {
			if err := r.catchUpLocked(ctx, s, 0); err != nil && ctx.Err() == nil {
				r.log().Warn("watch the debate's log", "debate", id, "err", err)
			}
		}
		r.mu.Unlock()
		r.logMu.Unlock()
	}
}

// interruption is the reason and detail of a pause after ctx ended: a pause
// request, or an interruption (Ctrl+C, a worker stopping, the lease lost).
func interruption(ctx context.Context) (string, string) {
	if errors.Is(context.Cause(ctx), errPauseRequested) {
		return PauseOnRequest, ""
	}
	return PauseInterrupted, ""
}

// interrupted pauses a run whose context ended.
func (r *Runner) interrupted(ctx context.Context, s *State, cause error) error {
	reason, detail := interruption(ctx)
	return r.pause(ctx, s, reason, detail, cause)
}

// Run runs (or resumes) a debate until it completes, pauses or fails. A
// completed turn is never run again; a turn cut off mid-stream is run again
// from its start, its partial text kept in the log as superseded.
//
// Run holds the debate's lease while it runs: a debate another runner holds
// is refused at once with *LeaseHeldError, unless that runner is a process
// of this host that is no longer alive, whose lease is taken over. A runner
// that loses its lease (it could not renew it in time and another took it)
// stops without appending anything more.
func (r *Runner) Run(ctx context.Context, id string, p Protocol) (*State, error) {
	owner := r.Owner
	if owner.ID == "" {
		owner = ThisProcess()
	}
	ttl := r.LeaseTTL
	if ttl <= 0 {
		ttl = DefaultLeaseTTL
	}
	if _, err := r.acquire(ctx, id, owner, ttl); err != nil {
		return nil, err
	}
	runCtx, cancel := context.WithCancelCause(ctx)
	defer cancel(nil)
	r.mu.Lock()
	r.owner, r.stop = owner.ID, cancel
	r.mu.Unlock()
	defer func() {
		r.mu.Lock()
		r.owner, r.stop = "", nil
		r.mu.Unlock()
	}()
	watched := make(chan struct{})
	go func() {
		defer close(watched)
		r.watch(runCtx, id)
	}()
	renewed := make(chan struct{})
	go func() {
		defer close(renewed)
		t := time.NewTicker(ttl / 3)
		defer t.Stop()
		for {
			select {
			case <-runCtx.Done():
				return
			case <-t.C:
			}
			if _, err := r.Store.RenewLease(runCtx, id, owner.ID, ttl); err != nil && runCtx.Err() == nil {
				if errors.Is(err, ErrLeaseLost) {
					r.mu.Lock()
					r.lost = true
					r.mu.Unlock()
					cancel(fmt.Errorf("debate %s: %w", id, err))
					return
				}
				r.log().Warn("renew lease", "debate", id, "err", err)
			}
		}
	}()
	s, err := r.run(runCtx, id, p)
	// Every append of the run is written (or failed) before the lease goes.
	r.settle(ctx)
	cancel(nil)
	<-renewed
	<-watched
	r.mu.Lock()
	lost := r.lost
	r.lost = false
	r.mu.Unlock()
	if lost {
		return s, fmt.Errorf("debate %s: another runner took its lease; this one stopped: %w", id, ErrLeaseLost)
	}
	if rerr := r.Store.ReleaseLease(context.WithoutCancel(ctx), id, owner.ID); rerr != nil {
		r.log().Warn("release lease", "debate", id, "err", rerr)
	}
	return s, err
}

// acquire takes the debate's lease, taking it over from a dead process of
// this host.
func (r *Runner) acquire(ctx context.Context, id string, owner LeaseOwner, ttl time.Duration) (Lease, error) {
	l, err := r.Store.AcquireLease(ctx, id, owner, ttl, "")
	var held *LeaseHeldError
	if errors.As(err, &held) && !OwnerAlive(held.Lease.Owner) {
		r.log().Info("take over the lease of a dead runner", "debate", id, "pid", held.Lease.Owner.PID)
		l, err = r.Store.AcquireLease(ctx, id, owner, ttl, held.Lease.Owner.ID)
	}
	if err != nil && !errors.As(err, &held) {
		return l, fmt.Errorf("take the lease of debate %s: %w", id, err)
	}
	return l, err
}

// ranBefore reports whether a log holds more than its creation, not
// counting its runs' being queued: a debate whose first run a worker takes
// up from the queue starts as one run in a terminal does, not as a resume.
func ranBefore(events []Event) bool {
	n := 0
	for _, e := range events {
		if e.Type != TypeQueued {
			n++
		}
	}
	return n > 1
}

func (r *Runner) run(ctx context.Context, id string, p Protocol) (*State, error) {
	events, err := r.Store.Load(ctx, id, 0)
	if err != nil {
		return nil, fmt.Errorf("load debate %s: %w", id, err)
	}
	s, err := Fold(events)
	if err != nil {
		return nil, err
	}
	if s.Status == StatusCompleted {
		return s, nil
	}
	lim := s.Limits
	if r.Limits != nil {
		lim = *r.Limits
	}
	r.mu.Lock()
	r.cur = s
	r.mu.Unlock()
	defer func() {
		r.mu.Lock()
		r.cur = nil
		r.mu.Unlock()
	}()
	r.mu.Lock()
	requested := r.requestedLocked(s)
	r.mu.Unlock()
	if requested {
		// Asked to pause while no runner ran it (or between two runs).
		return s, r.pause(ctx, s, PauseOnRequest, "", nil)
	}
	if ranBefore(events) {
		res := Resumed{FromSeq: s.LastSeq}
		if c := s.OpenCheckpoint(); c != nil {
			res.Checkpoint = c.ID
		}
		if err := r.append(ctx, s, res); err != nil {
			return s, err
		}
	}
	if err := r.append(ctx, s, r.OnStart...); err != nil {
		return s, err
	}
	for _, t := range s.Interrupted() {
		if err := r.append(ctx, s, TurnSuperseded{Turn: t.ID, Partial: t.Text, Reason: "interrupted; run again from its start"}); err != nil {
			return s, err
		}
	}

	runCtx := ctx
	if lim.DebateTimeout > 0 {
		var cancel context.CancelFunc
		runCtx, cancel = context.WithTimeout(ctx, lim.DebateTimeout)
		defer cancel()
	}
	roundStart := map[int]time.Time{}
	emitOnly := 0 // consecutive steps that only appended events

	for {
		if err := ctx.Err(); err != nil {
			return s, r.interrupted(ctx, s, err)
		}
		if err := runCtx.Err(); err != nil {
			return s, r.pause(ctx, s, PauseTimeout, fmt.Sprintf("the debate ran longer than %s", lim.DebateTimeout), err)
		}
		select {
		case <-r.Handoff:
			return s, ErrHandedOff
		default:
		}
		r.logMu.Lock()
		r.mu.Lock()
		// What other processes appended counts for the next step (a hint
		// for the next turn).
		err := r.catchUpLocked(ctx, s, 0)
		r.logMu.Unlock()
		if err != nil {
			r.mu.Unlock()
			return s, r.pause(ctx, s, PauseError, err.Error(), err)
		}
		if err := ctx.Err(); err != nil { // a pause request among them
			r.mu.Unlock()
			return s, r.interrupted(ctx, s, err)
		}
		step, err := p.Next(s)
		r.mu.Unlock()
		if err != nil {
			return s, r.fail(ctx, s, fmt.Errorf("format %s: %w", s.Format, err))
		}
		if err := r.append(ctx, s, step.Emit...); err != nil {
			return s, err
		}
		if len(step.Emit) > 0 && !step.Done && step.Checkpoint == nil && step.Pause == nil && len(step.Turns) == 0 {
			// A step may only record events (a format's notes); the protocol
			// then sees them in the state. A protocol that keeps doing so
			// without moving on has a bug: stop it rather than loop forever.
			if emitOnly++; emitOnly > maxEmitOnlySteps {
				return s, r.fail(ctx, s, fmt.Errorf("format %s returned %d steps in a row that only emit events", s.Format, emitOnly))
			}
			continue
		}
		emitOnly = 0
		switch {
		case step.Done:
			data, err := json.Marshal(step.Verdict)
			if err != nil {
				return s, r.fail(ctx, s, fmt.Errorf("encode verdict: %w", err))
			}
			if err := r.append(ctx, s, Verdict{Data: data}, Completed{Reason: step.Reason}); err != nil {
				return s, err
			}
			return s, nil
		case step.Checkpoint != nil:
			if err := r.checkpoint(ctx, s, *step.Checkpoint, lim); err != nil {
				return s, err
			}
		case step.Pause != nil:
			return s, r.pause(ctx, s, step.Pause.Reason, step.Pause.Detail, nil)
		case len(step.Turns) > 0:
			if lim.DebateBudget > 0 && s.Usage.Total() >= lim.DebateBudget {
				return s, r.pause(ctx, s, PauseBudget,
					fmt.Sprintf("the debate used %d of its %d tokens; resume with a --debate-budget above %d (0 = unlimited)", s.Usage.Total(), lim.DebateBudget, s.Usage.Total()), nil)
			}
			round := step.Turns[0].Round
			// Round 0 holds the turns outside any round (an opening analysis,
			// a closing synthesis): each such step gets the round timeout of
			// its own instead of sharing the clock of the first one.
			if _, ok := roundStart[round]; !ok || round == 0 {
				roundStart[round] = r.now()
			}
			stepCtx := runCtx
			var cancel context.CancelFunc = func() {}
			if lim.RoundTimeout > 0 {
				// The deadline is measured on the runner's clock, which may be
				// injected: a real-time deadline from a fake start would expire
				// (or never expire) regardless of how long the round ran.
				stepCtx, cancel = context.WithTimeout(runCtx, lim.RoundTimeout-r.now().Sub(roundStart[round]))
			}
			err := r.runTurns(stepCtx, p, s, step.Turns, lim)
			roundExpired := stepCtx.Err() != nil && runCtx.Err() == nil
			cancel()
			if err != nil {
				switch {
				case ctx.Err() != nil:
					return s, r.interrupted(ctx, s, err)
				case runCtx.Err() != nil:
					return s, r.pause(ctx, s, PauseTimeout, fmt.Sprintf("the debate ran longer than %s", lim.DebateTimeout), err)
				case roundExpired:
					return s, r.pause(ctx, s, PauseRoundTimeout, fmt.Sprintf("%s ran longer than %s", stepName(step.Turns[0]), lim.RoundTimeout), err)
				}
				var pe *PausedError
				if errors.As(err, &pe) {
					return s, r.pause(ctx, s, pe.Reason, pe.Detail, pe.Err)
				}
				return s, r.pause(ctx, s, PauseError, err.Error(), err)
			}
			if err := r.warnDebateBudget(ctx, s, lim); err != nil {
				return s, err
			}
		default:
			return s, r.fail(ctx, s, fmt.Errorf("format %s returned an empty step", s.Format))
		}
	}
}

// maxEmitOnlySteps bounds the steps in a row that only append events.
const maxEmitOnlySteps = 100

func (r *Runner) pause(ctx context.Context, s *State, reason, detail string, cause error) error {
	if err := r.append(ctx, s, Paused{Reason: reason, Detail: detail}); err != nil {
		return errors.Join(err, cause)
	}
	return &PausedError{Reason: reason, Detail: detail, Err: cause}
}

func (r *Runner) fail(ctx context.Context, s *State, cause error) error {
	if err := r.append(ctx, s, Failed{Error: cause.Error()}); err != nil {
		return errors.Join(err, cause)
	}
	return cause
}

func (r *Runner) checkpoint(ctx context.Context, s *State, c CheckpointReached, lim Limits) error {
	if cp := s.Checkpoint(c.ID); cp != nil && cp.Answer != nil {
		return r.fail(ctx, s, fmt.Errorf("format %s asked checkpoint %s again after it was answered", s.Format, c.ID))
	}
	if s.Checkpoint(c.ID) == nil {
		if err := r.append(ctx, s, c); err != nil {
			return err
		}
	}
	if r.Human == nil {
		return r.pause(ctx, s, PauseCheckpointUnanswered, "no one is here to answer; resume the debate to answer the checkpoint", nil)
	}
	hctx := ctx
	if lim.CheckpointTimeout > 0 {
		var cancel context.CancelFunc
		hctx, cancel = context.WithTimeout(ctx, lim.CheckpointTimeout)
		defer cancel()
	}
	ans, err := r.Human.Checkpoint(hctx, s, c)
	if err != nil {
		if ctx.Err() != nil {
			return r.interrupted(ctx, s, err)
		}
		if hctx.Err() != nil {
			return r.pause(ctx, s, PauseCheckpoint, fmt.Sprintf("no answer within %s", lim.CheckpointTimeout), err)
		}
		return r.pause(ctx, s, PauseCheckpointUnanswered, err.Error(), err)
	}
	ans.ID = c.ID
	switch ans.Action {
	case ActionContinue, ActionGuide, ActionEnd:
	default:
		return r.pause(ctx, s, PauseCheckpointUnanswered, fmt.Sprintf("checkpoint answer %q: want continue, guide or end", ans.Action), nil)
	}
	return r.append(ctx, s, ans)
}

func (r *Runner) warnDebateBudget(ctx context.Context, s *State, lim Limits) error {
	if lim.DebateBudget <= 0 || s.Usage.Total()*5 < lim.DebateBudget*4 {
		return nil
	}
	if s.warned("debate") {
		return nil
	}
	return r.append(ctx, s, BudgetWarning{Scope: "debate", Used: s.Usage.Total(), Budget: lim.DebateBudget})
}

// turnPlan is what a turn goroutine needs, computed under the lock so that the
// goroutine never reads the shared state.
type turnPlan struct {
	spec      TurnSpec
	proto     Protocol
	model     Model
	budget    int // the agent's round budget, 0 = unlimited
	responder Responder
	maxTokens int
	toolsLeft int
	// startAfter and started order the turn.started events of a step's
	// concurrent turns as the step lists them, so that every view of the
	// log shows them in the protocol's order (the bull before the bear)
	// whichever goroutine gets to the store first. Nil for a lone turn.
	startAfter <-chan struct{}
	started    chan struct{}
}

// appendStarted appends a turn's first turn.started in step order (see
// turnPlan.startAfter); later attempts need no ordering.
func (r *Runner) appendStarted(ctx context.Context, s *State, p turnPlan, ts TurnStarted) error {
	if p.startAfter != nil && ts.Attempt == 1 {
		select {
		case <-p.startAfter:
		case <-ctx.Done():
			return ctx.Err()
		}
	}
	err := r.append(ctx, s, ts)
	if p.started != nil && ts.Attempt == 1 {
		close(p.started)
	}
	return err
}

func (r *Runner) plan(proto Protocol, s *State, t TurnSpec, lim Limits) (turnPlan, error) {
	if s.Completed(t.ID) != nil {
		return turnPlan{}, fmt.Errorf("format %s asked for turn %s, which is already completed", s.Format, t.ID)
	}
	// A turn asked for JSON in its prompt alone (no schema, to keep the
	// cached prefix) is structured too: the format says so in its TurnRef.
	t.Structured = t.Structured || t.Schema != nil
	p := turnPlan{spec: t, proto: proto, maxTokens: t.MaxTokens, budget: lim.TurnBudget}
	if t.Unbudgeted {
		p.budget = 0
	}
	if resp, ok := r.Cast.Responders[t.Agent]; ok {
		p.responder = resp
		return p, nil
	}
	m, ok := r.Cast.model(t.TurnRef)
	if !ok {
		return p, fmt.Errorf("turn %s (%s): %w", t.ID, t.Agent, ErrNoModel)
	}
	p.model = m
	if p.budget > 0 {
		left := lim.TurnBudget - s.AgentUsage(t.Agent, t.Round).OutputTokens
		if left <= 0 {
			return p, &PausedError{Reason: PauseBudget, Detail: fmt.Sprintf(
				"%s spent its %d-token budget for round %d; resume with a larger --turn-budget (0 = unlimited)", t.Agent, lim.TurnBudget, t.Round)}
		}
		if p.maxTokens == 0 || p.maxTokens > left {
			p.maxTokens = left
		}
	}
	if t.UseTools && r.Tools != nil {
		used := 0
		for _, tt := range s.Turns {
			if tt.Agent == t.Agent && tt.Status == TurnDone {
				used += len(tt.Tools)
			}
		}
		p.toolsLeft = lim.MaxToolCalls - used
		if lim.MaxToolCalls <= 0 {
			p.toolsLeft = 1 << 30
		}
	}
	return p, nil
}

func (r *Runner) runTurns(ctx context.Context, proto Protocol, s *State, turns []TurnSpec, lim Limits) error {
	r.mu.Lock()
	plans := make([]turnPlan, 0, len(turns))
	for _, t := range turns {
		p, err := r.plan(proto, s, t, lim)
		if err != nil {
			r.mu.Unlock()
			return err
		}
		plans = append(plans, p)
	}
	r.mu.Unlock()

	if len(plans) == 1 {
		return r.runTurn(ctx, s, plans[0], lim)
	}
	parent := ctx
	ctx, cancel := context.WithCancelCause(ctx)
	defer cancel(nil)
	sem := make(chan struct{}, max(lim.Concurrency, 0))
	if lim.Concurrency <= 0 {
		sem = make(chan struct{}, len(plans))
	}
	errs := make([]error, len(plans))
	var prev chan struct{}
	for i := range plans {
		plans[i].startAfter, plans[i].started = prev, make(chan struct{})
		prev = plans[i].started
	}
	var wg sync.WaitGroup
	// Slots are taken in the step's order, before each turn starts, so that
	// under a concurrency limit turns start in a deterministic order.
	for i, p := range plans {
		select {
		case sem <- struct{}{}:
		case <-ctx.Done():
			errs[i] = ctx.Err()
			continue
		}
		wg.Go(func() {
			defer func() { <-sem }()
			if err := r.runTurn(ctx, s, p, lim); err != nil {
				errs[i] = err
				// One turn failing for good stops its siblings: the step is
				// redone on resume.
				cancel(fmt.Errorf("turn %s: %w", p.spec.ID, err))
			}
		})
	}
	wg.Wait()
	// Report the failures, not the cancellations they caused in the sibling
	// turns: "context canceled" says nothing about what went wrong.
	if parent.Err() == nil && context.Cause(ctx) != nil {
		var causes []error
		for _, err := range errs {
			if err != nil && !errors.Is(err, context.Canceled) {
				causes = append(causes, err)
			}
		}
		if len(causes) > 0 {
			return joinTurnErrors(causes)
		}
	}
	return joinTurnErrors(errs)
}

// joinTurnErrors joins the failures of turns run together, as errors.Join
// does, except that turns that failed the same way (a rejected key, a server
// that cannot be reached) are named together and the error said once: three
// analysts refused the same key printed the same long line three times in
// the pause and the exit message.
func joinTurnErrors(errs []error) error {
	var kept []error
	for _, err := range errs {
		if err != nil {
			kept = append(kept, err)
		}
	}
	switch len(kept) {
	case 0:
		return nil
	case 1:
		return kept[0]
	}
	return turnErrors(kept)
}

// turnErrors are the failures of turns run together; errors.Is and As see
// every one of them.
type turnErrors []error

func (t turnErrors) Unwrap() []error { return t }

func (t turnErrors) Error() string {
	type group struct {
		msg   string
		turns []string
	}
	var groups []*group
	byMsg := map[string]*group{}
	for _, err := range t {
		text := err.Error()
		turn, msg := "", text
		// "turn ID: message", as runTurn words a turn's failure.
		if rest, ok := strings.CutPrefix(text, "turn "); ok {
			if id, m, ok := strings.Cut(rest, ": "); ok && !strings.ContainsAny(id, " \n") {
				turn, msg = id, m
			}
		}
		key := msg
		if turn == "" {
			key = "\x00" + text // not grouped with turns' failures
		}
		g := byMsg[key]
		if g == nil {
			g = &group{msg: msg}
			byMsg[key] = g
			groups = append(groups, g)
		}
		if turn != "" {
			g.turns = append(g.turns, turn)
		}
	}
	lines := make([]string, 0, len(groups))
	for _, g := range groups {
		switch len(g.turns) {
		case 0:
			lines = append(lines, g.msg)
		case 1:
			lines = append(lines, "turn "+g.turns[0]+": "+g.msg)
		default:
			lines = append(lines, "turns "+strings.Join(g.turns, ", ")+": "+g.msg)
		}
	}
	return strings.Join(lines, "\n")
}

// runTurn runs one turn with retries.
func (r *Runner) runTurn(ctx context.Context, s *State, p turnPlan, lim Limits) error {
	if p.responder != nil {
		return r.respond(ctx, s, p)
	}
	bo := backoff.NewExponentialBackOff()
	bo.InitialInterval = lim.BackoffBase
	if bo.InitialInterval <= 0 {
		bo.InitialInterval = 500 * time.Millisecond
	}
	bo.MaxInterval = lim.BackoffMax
	if bo.MaxInterval <= 0 {
		bo.MaxInterval = 30 * time.Second
	}
	attempts := max(lim.MaxAttempts, 1)
	for attempt := 1; ; attempt++ {
		if err := r.appendStarted(ctx, s, p, TurnStarted{Turn: p.spec.TurnRef, Attempt: attempt, Model: p.model.String()}); err != nil {
			return err
		}
		callCtx, cancel := ctx, context.CancelFunc(func() {})
		if lim.CallTimeout > 0 {
			callCtx, cancel = context.WithTimeout(ctx, lim.CallTimeout)
		}
		done, err := r.attempt(callCtx, s, p)
		callTimedOut := callCtx.Err() != nil && ctx.Err() == nil
		cancel()
		if err == nil {
			return r.complete(ctx, s, p, done)
		}
		if ctx.Err() != nil {
			// Named like the turn's other failures: a sibling's failure
			// that cancelled this turn as its own reply arrived is one of
			// the step's failures too.
			return fmt.Errorf("turn %s: %w", p.spec.ID, err)
		}
		retryable := llm.IsRetryable(err) || callTimedOut
		if callTimedOut {
			err = fmt.Errorf("call timed out after %s: %w", lim.CallTimeout, err)
		}
		wait := bo.NextBackOff()
		tooLong := false
		if ra := llm.RetryAfterOf(err); ra > wait {
			wait = ra
			// A quota that resets in hours (or a hostile Retry-After) must
			// not leave the debate sleeping with nothing said: it stops,
			// saying when to resume.
			switch limit := max(MaxRetryAfter, bo.MaxInterval); {
			case ra > llm.LongestMeantWait:
				// No quota resets so late: there is no time to
				// resume at, only a server that will not answer.
				tooLong = true
				err = fmt.Errorf("%w\nthe server asks to wait %s before trying again, which no rate limit means: Parley gives up rather than wait; "+
					"the server (or a proxy in front of it) sends a broken Retry-After, or refuses these calls: check it, or use another", err, llm.WaitText(ra))
			case ra > limit:
				tooLong = true
				err = fmt.Errorf("%w\nthe server asks to wait %s before trying again, more than Parley waits (%s): resume the debate after that", err, llm.WaitText(ra), llm.WaitText(limit))
			}
		}
		// A failure likely to come again (a server's invalid JSON) is
		// tried fewer times than the limit, each try a paid call.
		tries := attempts
		if t := llm.TriesOf(err); t > 0 {
			tries = min(tries, t)
		}
		last := !retryable || tooLong || attempt >= tries
		fail := TurnFailed{Turn: p.spec.ID, Attempt: attempt, Error: err.Error(), Retryable: retryable}
		if !last {
			fail.RetryIn = wait
		}
		if aerr := r.append(ctx, s, fail); aerr != nil {
			return aerr
		}
		r.log().Warn("turn attempt failed", "turn", p.spec.ID, "attempt", attempt, "err", err, "retry_in", fail.RetryIn)
		if last {
			if retryable {
				return fmt.Errorf("turn %s failed %d times: %w", p.spec.ID, attempt, err)
			}
			return fmt.Errorf("turn %s: %w", p.spec.ID, err)
		}
		if err := r.sleep(ctx, wait); err != nil {
			return err
		}
	}
}

// attemptResult is a finished attempt, before it is recorded.
type attemptResult struct {
	text    string
	move    any
	invalid string
	usage   llm.Usage
	model   string
}

// streamer coalesces text deltas into delta events. It hands a delta to the
// append queue without waiting for the store (streamed text is for live
// views; the turn's boundaries are what must be durable), and while that
// delta is being written it keeps coalescing, so that a stream faster than
// the disk costs fewer, larger deltas rather than a queue of small ones.
type streamer struct {
	r     *Runner
	s     *State
	ctx   context.Context
	turn  string
	buf   strings.Builder
	last  time.Time
	every time.Duration
	// inflight is the last delta handed over, until it is written.
	inflight *appendEntry
}

func (w *streamer) write(text string) error {
	w.buf.WriteString(text)
	if w.buf.Len() < 512 && w.r.now().Sub(w.last) < w.every {
		return nil
	}
	if w.inflight != nil && !w.inflight.settled() {
		return nil
	}
	return w.flush()
}

// flush hands the buffered text over as a delta event. It reports the
// failure of an earlier delta, so that a store that stopped working fails
// the attempt as a synchronous append would.
func (w *streamer) flush() error {
	if w.inflight != nil && w.inflight.settled() {
		err := w.inflight.err
		w.inflight = nil
		if err != nil {
			return err
		}
	}
	if w.buf.Len() == 0 {
		return nil
	}
	text := w.buf.String()
	w.buf.Reset()
	w.last = w.r.now()
	w.r.mu.Lock()
	e, err := w.r.enqueueLocked(w.ctx, w.s, TurnDelta{Turn: w.turn, Text: text})
	w.r.mu.Unlock()
	if err != nil {
		return err
	}
	w.inflight = e
	w.r.handOver()
	return nil
}

func (r *Runner) attempt(ctx context.Context, s *State, p turnPlan) (attemptResult, error) {
	every := r.FlushEvery
	if every == 0 {
		every = 50 * time.Millisecond
	}
	w := &streamer{r: r, s: s, ctx: ctx, turn: p.spec.ID, every: every, last: r.now()}
	msgs := append([]llm.Message(nil), p.spec.Messages...)
	var tools []llm.ToolSpec
	if p.spec.UseTools && r.Tools != nil && p.toolsLeft > 0 {
		tools = r.Tools.Specs()
	}
	toolsLeft := p.toolsLeft
	res := attemptResult{model: p.model.String()}
	var full strings.Builder
	callBytes := 0 // tool calls' names and arguments, which count towards MaxReplyBytes
	repaired := false
	for {
		req := llm.Request{
			Model: p.model.Name, System: p.spec.System, Messages: msgs, CacheSystem: true,
			Tools: tools, Schema: p.spec.Schema, MaxTokens: p.maxTokens, Temperature: p.spec.Temperature, Tag: p.spec.ID,
		}
		var seg strings.Builder
		var calls []llm.ToolCall
		stop, detail := "", ""
		oversize := false
		for c, err := range p.model.Provider.Stream(ctx, req) {
			if err != nil {
				_ = w.flush()
				return res, err
			}
			if c.Text != "" {
				c.Text = ModelText(c.Text)
				if room := MaxReplyBytes - full.Len() - seg.Len() - callBytes; len(c.Text) > room {
					// Stop reading: breaking the loop closes the connection.
					c.Text, oversize = strings.ToValidUTF8(c.Text[:max(room, 0)], ""), true
				}
				seg.WriteString(c.Text)
				if err := w.write(c.Text); err != nil {
					return res, err
				}
				if oversize {
					break
				}
			}
			if c.ToolCall != nil {
				// Calls are model output a server sends, as many and as
				// large as it likes: their bytes count as the text's do.
				if callBytes += len(c.ToolCall.Name) + len(c.ToolCall.Args); full.Len()+seg.Len()+callBytes > MaxReplyBytes {
					oversize = true
					break
				}
				calls = append(calls, *c.ToolCall)
			}
			if c.Usage != nil {
				res.usage = res.usage.Add(*c.Usage)
			}
			if c.StopReason != "" {
				stop, detail = c.StopReason, c.StopDetail
			}
		}
		if err := w.flush(); err != nil {
			return res, err
		}
		if full.Len() > 0 && seg.Len() > 0 {
			full.WriteString("\n\n")
		}
		full.WriteString(seg.String())

		if oversize {
			// A server that streams without end (or a hostile one) must not
			// fill memory and the log; what it sent is kept, marked. The
			// usage never came: the tokens it cost are unknown.
			res.usage.Unreported = true
			res.text = full.String()
			res.invalid = fmt.Sprintf("the reply was cut at %d KB: no turn asks for that much; the server kept sending", MaxReplyBytes>>10)
			return res, nil
		}

		if len(calls) > 0 && tools == nil {
			// Calls when no tool was offered (the calls are used up, or
			// this is a repair) are not made, nor answered: a server that
			// calls tools in every reply looped here for ever. The reply's
			// text is the answer.
			calls, stop = nil, ""
		}
		if len(calls) > toolsLeft+1 {
			// One call past the limit is told so; the rest of a reply of
			// a thousand calls is dropped from the exchange, not recorded
			// and answered one by one.
			calls = calls[:toolsLeft+1]
		}
		if len(calls) > 0 {
			msgs = append(msgs, llm.Message{Role: llm.RoleAssistant, Text: seg.String(), ToolCalls: calls})
			results := make([]llm.ToolResult, 0, len(calls))
			for _, call := range calls {
				if err := r.append(ctx, s, ToolCalled{Turn: p.spec.ID, Call: call}); err != nil {
					return res, err
				}
				out, isErr, cached := "", false, false
				if toolsLeft <= 0 {
					out, isErr = "tool call limit reached: answer with the evidence you have", true
				} else {
					toolsLeft--
					var err error
					out, cached, err = r.callTool(ctx, call)
					if err != nil {
						if ctx.Err() != nil {
							return res, err
						}
						out, isErr = err.Error(), true
					}
				}
				if err := r.append(ctx, s, ToolResult{Turn: p.spec.ID, CallID: call.ID, Name: call.Name, Content: out, IsError: isErr, Cached: cached}); err != nil {
					return res, err
				}
				results = append(results, llm.ToolResult{CallID: call.ID, Content: out, IsError: isErr})
			}
			msgs = append(msgs, llm.Message{Role: llm.RoleUser, ToolResults: results})
			if toolsLeft <= 0 {
				tools = nil
			}
			if stop == llm.StopToolUse || stop == "" {
				continue
			}
		}

		final := seg.String()
		if llm.Incomplete(stop) || stop == llm.StopRefusal {
			// A reply cut at the token limit is not an answer, even when
			// what came parses; one the model declined to give is not one
			// either. A cut reply is asked for again, shorter, once; not
			// one cut at the end of the context window, which the prompt
			// with the cut reply in it no longer fits.
			why := StopProblem(stop, detail, p.maxTokens, p.model.Name)
			if stop == llm.StopMaxTokens && !repaired {
				repaired = true
				if err := r.append(ctx, s, TurnRepair{Turn: p.spec.ID, Text: final, Error: why}); err != nil {
					return res, err
				}
				full.Reset()
				msgs = appendRepair(msgs, final, "Your previous reply was "+why+
					".\nReply again with the whole answer, shorter, so that it fits; in the requested format, with no other text.")
				tools = nil
				continue
			}
			res.text, res.invalid = full.String(), why
			return res, nil
		}
		r.mu.Lock()
		move, perr := r.parse(p.proto, s, p.spec, final)
		r.mu.Unlock()
		if perr == nil {
			res.text, res.move = full.String(), move
			return res, nil
		}
		if errors.Is(perr, ErrRepairable) && !repaired {
			repaired = true
			if err := r.append(ctx, s, TurnRepair{Turn: p.spec.ID, Text: final, Error: problem(perr)}); err != nil {
				return res, err
			}
			full.Reset()
			msgs = appendRepair(msgs, final, RepairPrompt(perr))
			tools = nil
			continue
		}
		res.text, res.invalid = full.String(), problem(perr)
		return res, nil
	}
}

// MaxRetryAfter is the longest Retry-After a turn waits for (or the
// backoff's maximum, when that is longer).
const MaxRetryAfter = 5 * time.Minute

// MaxReplyBytes bounds the text of one turn's reply, tool rounds included.
// A turn asks for a few thousand tokens (tens of KB); a server that sends a
// thousand times more is broken or hostile, and what it sends is stored and
// shown.
const MaxReplyBytes = 1 << 20

// ModelText makes model text (a turn's delta, a follow-up's answer)
// storable: NUL characters (a JSON "\u0000" decodes to one) are dropped, as
// PostgreSQL's text refuses them and no reply needs them, and bytes that
// are not UTF-8 (a provider that does not decode JSON) become U+FFFD. Other control characters are kept: the
// front-ends escape them when they show the text.
func ModelText(s string) string {
	if strings.IndexByte(s, 0) >= 0 {
		s = strings.ReplaceAll(s, "\x00", "")
	}
	if !utf8.ValidString(s) {
		s = strings.ToValidUTF8(s, "\uFFFD")
	}
	return s
}

// StopProblem says why a reply that stopped for stop is not an answer
// (a turn's, a follow-up's).
// detail is what the server said of it (see llm.Chunk.StopDetail).
func StopProblem(stop, detail string, maxTokens int, model string) string {
	switch stop {
	case llm.StopRefusal:
		why := "refusal"
		if detail != "" {
			why += ", " + detail
		}
		return fmt.Sprintf("the model declined to answer (%s): the same request meets the same refusal; rephrase the topic, or give this role another model (--model-for ROLE=MODEL)", why)
	case llm.StopContextWindow:
		return fmt.Sprintf("cut off at the end of the context window of model %q before it was complete: the prompt leaves too little room for the reply; "+
			"use a model with a larger context window, give the server a larger one (vLLM --max-model-len, llama.cpp -c, Ollama num_ctx), or run fewer rounds (--max-rounds)", model)
	}
	if maxTokens > 0 {
		return fmt.Sprintf("cut off at the %d-token limit before it was complete", maxTokens)
	}
	return "cut off at the model's token limit before it was complete"
}

// appendRepair adds the model's unusable reply and the prompt that says why
// to a conversation. An empty reply (a reasoning model that spent its
// tokens thinking, a server that sent nothing) is left out: the APIs refuse
// an empty assistant message.
func appendRepair(msgs []llm.Message, reply, prompt string) []llm.Message {
	if strings.TrimSpace(reply) != "" {
		msgs = append(msgs, llm.Message{Role: llm.RoleAssistant, Text: reply})
	}
	return append(msgs, llm.Message{Role: llm.RoleUser, Text: prompt})
}

// parse calls the protocol's parser, turning a panic into an error: a bad
// reply must never crash a debate.
func (r *Runner) parse(proto Protocol, s *State, t TurnSpec, text string) (move any, err error) {
	defer func() {
		if v := recover(); v != nil {
			err = fmt.Errorf("parse turn %s: panic: %v", t.ID, v)
		}
	}()
	return proto.Parse(s, t, text)
}

// RepairPrompt is the message that shows a model why its reply was refused.
func RepairPrompt(err error) string {
	return "Your previous reply could not be used: " + problem(err) +
		"\nReply again with the corrected answer only, in the requested format, with no other text."
}

// maxProblem bounds what a parse error says (see problem).
const maxProblem = 2 << 10

// problem is what a reply's parse error says, cut to maxProblem bytes. A
// parser names what it refused, often by quoting it ("unknown move %q"),
// and that is model output of up to MaxReplyBytes: a hostile reply was
// repeated whole in the repair event, the turn's Invalid, the pause that
// follows, every notice the terminal prints of them and the repair prompt
// the model is sent.
func problem(err error) string {
	s := err.Error()
	if len(s) <= maxProblem {
		return s
	}
	cut := maxProblem
	for cut > 0 && !utf8.RuneStart(s[cut]) {
		cut--
	}
	return fmt.Sprintf("%s… (%d more bytes)", s[:cut], len(s)-cut)
}

func (r *Runner) callTool(ctx context.Context, call llm.ToolCall) (string, bool, error) {
	var hit bool
	out, err := r.Tools.Call(tool.WithCacheReport(ctx, &hit), call.Name, call.Args)
	return out, hit, err
}

func (r *Runner) complete(ctx context.Context, s *State, p turnPlan, res attemptResult) error {
	var move json.RawMessage
	if res.move != nil {
		b, err := json.Marshal(res.move)
		if err != nil {
			return fmt.Errorf("encode move of turn %s: %w", p.spec.ID, err)
		}
		move = b
	}
	var (
		cost   float64
		priced bool
	)
	if r.Price != nil {
		cost, priced = r.Price(p.model.String(), res.usage)
	}
	var evs []Payload
	r.mu.Lock()
	if budget := p.budget; budget > 0 {
		used := s.AgentUsage(p.spec.Agent, p.spec.Round).OutputTokens + res.usage.OutputTokens
		scope := fmt.Sprintf("round %d / %s", p.spec.Round, p.spec.Agent)
		if used*5 >= budget*4 && !s.warned(scope) {
			// Before the completion: the views show it under the
			// turn's heading while the turn is still theirs to show.
			evs = append(evs, BudgetWarning{Scope: scope, Used: used, Budget: budget, Turn: p.spec.ID})
		}
	}
	evs = append(evs, TurnCompleted{
		Turn: p.spec.TurnRef, Text: res.text, Move: move, Invalid: res.invalid,
		Usage: res.usage, CostUSD: cost, Priced: priced, Model: res.model, Hints: p.spec.Hints,
	})
	e, err := r.enqueueLocked(ctx, s, evs...)
	r.mu.Unlock()
	if err != nil {
		return err
	}
	return r.await(e)
}

// respond runs a data-only turn. It is not retried: a Responder's failure is a
// data problem that retrying will not fix.
func (r *Runner) respond(ctx context.Context, s *State, p turnPlan) error {
	if err := r.appendStarted(ctx, s, p, TurnStarted{Turn: p.spec.TurnRef, Attempt: 1, Model: DataOnlyModel}); err != nil {
		return err
	}
	r.mu.Lock()
	snapshot := s.clone()
	r.mu.Unlock()
	text, err := p.responder.Respond(ctx, snapshot, p.spec)
	if err != nil {
		if aerr := r.append(ctx, s, TurnFailed{Turn: p.spec.ID, Attempt: 1, Error: err.Error()}); aerr != nil {
			return errors.Join(err, aerr)
		}
		return fmt.Errorf("turn %s: %w", p.spec.ID, err)
	}
	if err := r.streamReply(ctx, s, p.spec.ID, text); err != nil {
		return err
	}
	r.mu.Lock()
	move, perr := r.parse(p.proto, s, p.spec, text)
	r.mu.Unlock()
	var raw json.RawMessage
	if perr == nil && move != nil {
		if raw, err = json.Marshal(move); err != nil {
			return fmt.Errorf("encode move of turn %s: %w", p.spec.ID, err)
		}
	}
	tc := TurnCompleted{Turn: p.spec.TurnRef, Text: text, Move: raw, Hints: p.spec.Hints, NoLLM: true, Model: DataOnlyModel}
	if perr != nil {
		tc.Invalid = problem(perr)
	}
	return r.append(ctx, s, tc)
}

// streamReply appends a data-only reply as the turn's streamed text: at
// once, or line by line at DataPace. Cut off (Ctrl+C), the turn is left
// with its partial text, as a model's turn is, and runs again on resume.
func (r *Runner) streamReply(ctx context.Context, s *State, turn, text string) error {
	if r.DataPace <= 0 {
		return r.append(ctx, s, TurnDelta{Turn: turn, Text: text})
	}
	first := true
	for line := range strings.Lines(text) {
		if !first {
			if err := r.sleep(ctx, r.DataPace); err != nil {
				return err
			}
		}
		first = false
		if err := r.append(ctx, s, TurnDelta{Turn: turn, Text: line}); err != nil {
			return err
		}
	}
	return nil
}

// ErrNotRunning is returned by Hint when no debate is being run.
var ErrNotRunning = errors.New("no debate is running")

// Hint queues human guidance for an agent (HintAll for every agent) of the
// debate being run. It is safe to call while turns run: the hint is appended
// at once and the format applies it to the agent's next turn, so a turn in
// progress finishes undisturbed. A hint for every agent reaches the next
// turn of each agent, not only the first to take a turn.
func (r *Runner) Hint(ctx context.Context, target, text string) (HintQueued, error) {
	// One Hint at a time, from reading the ids to the new hint in the
	// state, so that two hints never get one id.
	r.hintMu.Lock()
	defer r.hintMu.Unlock()
	r.logMu.Lock()
	r.mu.Lock()
	unlock := func() {
		r.mu.Unlock()
		r.logMu.Unlock()
	}
	if r.cur == nil {
		unlock()
		return HintQueued{}, ErrNotRunning
	}
	// Hints other processes queued count for the new hint's id.
	if err := r.catchUpLocked(ctx, r.cur, 0); err != nil {
		unlock()
		return HintQueued{}, err
	}
	id := 0
	for _, h := range r.cur.Hints {
		id = max(id, h.ID)
	}
	h := HintQueued{ID: id + 1, Target: target, Text: text}
	e, err := r.enqueueLocked(ctx, r.cur, h)
	unlock()
	if err != nil {
		return h, err
	}
	return h, r.await(e)
}

// stepName names a step for a round timeout: its round, or the phase of a
// step outside the rounds (an opening analysis, a closing synthesis), which
// was "round 0".
func stepName(t TurnSpec) string {
	switch {
	case t.Round > 0:
		return fmt.Sprintf("round %d", t.Round)
	case t.Phase != "":
		return fmt.Sprintf("the %s step", t.Phase)
	}
	return "a step outside the rounds"
}
