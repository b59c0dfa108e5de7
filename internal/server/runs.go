package server

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"sync"

	"github.com/parleyhq/parley/internal/app"
	"github.com/parleyhq/parley/internal/debate"
)

// runs are the debates this server process is running. Each holds its
// debate's lease while it runs; another process (a terminal, another
// server) running a debate is seen through the store only.
type runs struct {
	mu   sync.Mutex
	byID map[string]*run
	wg   sync.WaitGroup
}

// run is one debate running in this process.
type run struct {
	sess   *app.Session
	cancel context.CancelFunc
	human  *webHuman
	done   chan struct{}
	err    error // set before done is closed
}

// webHuman answers checkpoints from the browser or the API: the runner
// waits in Checkpoint until an answer is posted, the context ends (pause)
// or the debate's checkpoint timeout passes (the debate pauses at the
// checkpoint, and an answer posted later resumes it).
type webHuman struct {
	mu      sync.Mutex
	pending *debate.CheckpointReached
	answers chan debate.CheckpointAnswered
	// preset is an answer given before the run reached its checkpoint (a
	// debate paused at a checkpoint, resumed by its answer).
	preset *debate.CheckpointAnswered
}

func newWebHuman(preset *debate.CheckpointAnswered) *webHuman {
	return &webHuman{answers: make(chan debate.CheckpointAnswered, 1), preset: preset}
}

// Checkpoint implements debate.Human.
func (h *webHuman) Checkpoint(ctx context.Context, s *debate.State, c debate.CheckpointReached) (debate.CheckpointAnswered, error) {
	h.mu.Lock()
	if p := h.preset; p != nil {
		h.preset = nil
		h.mu.Unlock()
		return *p, nil
	}
	h.pending = &c
	h.mu.Unlock()
	defer func() {
		h.mu.Lock()
		h.pending = nil
		h.mu.Unlock()
	}()
	select {
	case a := <-h.answers:
		return a, nil
	case <-ctx.Done():
		return debate.CheckpointAnswered{}, ctx.Err()
	}
}

// answer gives the pending checkpoint its answer; false when none waits.
func (h *webHuman) answer(a debate.CheckpointAnswered) bool {
	h.mu.Lock()
	defer h.mu.Unlock()
	if h.pending == nil || (a.ID != "" && a.ID != h.pending.ID) {
		return false
	}
	select {
	case h.answers <- a:
		h.pending = nil
		return true
	default:
		return false
	}
}

// waiting is the checkpoint waiting for an answer, nil if none.
func (h *webHuman) waiting() *debate.CheckpointReached {
	h.mu.Lock()
	defer h.mu.Unlock()
	return h.pending
}

func (rs *runs) get(id string) *run {
	rs.mu.Lock()
	defer rs.mu.Unlock()
	return rs.byID[id]
}

// errRunning is returned when a debate is already running in this process.
var errRunning = errors.New("the debate is already running")

// start runs a prepared session in the background until it ends or
// pauses. ctx is the server's lifetime: shutting the server down pauses
// every debate it runs, resumable.
func (rs *runs) start(ctx context.Context, log *slog.Logger, sess *app.Session, preset *debate.CheckpointAnswered, finish func(context.Context, *app.Session, *debate.State)) error {
	rs.mu.Lock()
	defer rs.mu.Unlock()
	if rs.byID == nil {
		rs.byID = map[string]*run{}
	}
	if _, ok := rs.byID[sess.ID]; ok {
		return fmt.Errorf("debate %s: %w", sess.ID, errRunning)
	}
	rctx, cancel := context.WithCancel(ctx)
	r := &run{sess: sess, cancel: cancel, human: newWebHuman(preset), done: make(chan struct{})}
	rs.byID[sess.ID] = r
	rs.wg.Add(1)
	go func() {
		defer rs.wg.Done()
		defer cancel()
		st, err := sess.Run(rctx, r.human)
		if err == nil && finish != nil {
			finish(context.WithoutCancel(rctx), sess, st)
		}
		var pe *debate.PausedError
		switch {
		case err == nil:
			log.Info("debate completed", "id", sess.ID)
		case errors.As(err, &pe):
			log.Info("debate paused", "id", sess.ID, "reason", pe.Reason)
		default:
			log.Warn("debate stopped", "id", sess.ID, "err", err)
		}
		rs.mu.Lock()
		r.err = err
		delete(rs.byID, sess.ID)
		rs.mu.Unlock()
		close(r.done)
	}()
	return nil
}

// wait waits for every run to stop.
func (rs *runs) wait() { rs.wg.Wait() }
