package debate_test

import (
	"context"
	"encoding/json"
	"fmt"
	"iter"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/parleyhq/parley/internal/debate"
	"github.com/parleyhq/parley/internal/llm"
	"github.com/parleyhq/parley/internal/llm/script"
	"github.com/parleyhq/parley/internal/store/memstore"
)

// t0 is the fake clock's start: deliberately in the past, so that any code
// mixing the injected clock with real deadlines shows up.
var t0 = time.Date(2025, 3, 14, 9, 26, 53, 0, time.UTC)

// fakeClock is the Runner's clock in tests: Now is frozen unless Sleep
// advances it, and Sleep records what the runner wanted to wait instead of
// waiting.
type fakeClock struct {
	mu     sync.Mutex
	now    time.Time
	sleeps []time.Duration
}

func newClock() *fakeClock { return &fakeClock{now: t0} }

func (c *fakeClock) Now() time.Time {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.now
}

func (c *fakeClock) Sleep(ctx context.Context, d time.Duration) error {
	c.mu.Lock()
	c.sleeps = append(c.sleeps, d)
	c.now = c.now.Add(d)
	c.mu.Unlock()
	return ctx.Err()
}

func (c *fakeClock) Sleeps() []time.Duration {
	c.mu.Lock()
	defer c.mu.Unlock()
	return append([]time.Duration(nil), c.sleeps...)
}

// toyStep is one step of toyProto: turns to run together, or a checkpoint.
type toyStep struct {
	label      string
	turns      []debate.TurnSpec
	checkpoint *debate.CheckpointReached
}

// toyProto walks a fixed list of steps: the first step with a turn not yet
// completed (or a checkpoint not yet answered) is next. An "end" answer ends
// the debate. Its verdict lists the completed turns' texts in step order.
type toyProto struct {
	steps []toyStep
	// parse, when set, replaces the default parser (which accepts any text).
	parse func(t debate.TurnSpec, text string) (any, error)
}

type toyMove struct {
	Text string `json:"text"`
}

type toyVerdict struct {
	Turns  []string `json:"turns"` // "id=text"
	Reason string   `json:"reason,omitempty"`
}

func (p *toyProto) Next(s *debate.State) (debate.Step, error) {
	for _, st := range p.steps {
		if st.checkpoint != nil {
			cp := s.Checkpoint(st.checkpoint.ID)
			if cp == nil || cp.Answer == nil {
				return debate.Step{Checkpoint: st.checkpoint}, nil
			}
			if cp.Answer.Action == debate.ActionEnd {
				return p.done(s, "ended at checkpoint "+cp.ID), nil
			}
			continue
		}
		var missing []debate.TurnSpec
		for _, t := range st.turns {
			if s.Completed(t.ID) == nil {
				missing = append(missing, t)
			}
		}
		if len(missing) > 0 {
			step := debate.Step{Turns: missing}
			if st.label != "" && s.Phase.Label != st.label {
				step.Emit = []debate.Payload{debate.PhaseChanged{Phase: st.label, Label: st.label, Round: missing[0].Round}}
			}
			return step, nil
		}
	}
	return p.done(s, "all steps done"), nil
}

func (p *toyProto) done(s *debate.State, reason string) debate.Step {
	v := toyVerdict{Reason: reason}
	for _, st := range p.steps {
		for _, t := range st.turns {
			if c := s.Completed(t.ID); c != nil {
				v.Turns = append(v.Turns, t.ID+"="+c.Text)
			}
		}
	}
	return debate.Step{Done: true, Verdict: v, Reason: reason}
}

func (p *toyProto) Parse(s *debate.State, t debate.TurnSpec, text string) (any, error) {
	if p.parse != nil {
		return p.parse(t, text)
	}
	return toyMove{Text: text}, nil
}

func turn(id, agent string, round int) debate.TurnSpec {
	return debate.TurnSpec{
		TurnRef:  debate.TurnRef{ID: id, Agent: agent, Role: "debater", Round: round},
		System:   "You are " + agent + ".",
		Messages: []llm.Message{{Role: llm.RoleUser, Text: "Say your part for " + id + "."}},
	}
}

func turns(ts ...debate.TurnSpec) toyStep { return toyStep{turns: ts} }

// testLimits are limits that never make a test wait for real: no backoff is
// slept (the fake clock records it), and timeouts are generous.
func testLimits() debate.Limits {
	l := debate.DefaultLimits()
	l.CallTimeout = 10 * time.Second
	l.RoundTimeout = time.Minute
	l.DebateTimeout = time.Minute
	l.TurnBudget = 0
	l.BackoffBase = 100 * time.Millisecond
	l.BackoffMax = time.Second
	l.CheckpointTimeout = time.Minute
	return l
}

// env is a runner wired to a script provider, a memstore and a fake clock.
type env struct {
	t      *testing.T
	store  *memstore.Store
	prov   *script.Provider
	clock  *fakeClock
	runner *debate.Runner
}

func newEnv(t *testing.T, rules ...script.Rule) *env {
	t.Helper()
	sc, err := script.New(rules...)
	if err != nil {
		t.Fatal(err)
	}
	e := &env{t: t, store: memstore.New(), prov: script.NewProvider(sc), clock: newClock()}
	e.runner = e.newRunner(e.prov)
	t.Cleanup(func() { _ = e.store.Close() })
	return e
}

// newRunner is a fresh Runner on the same store and clock, as a resumed
// process would make.
func (e *env) newRunner(p llm.Provider) *debate.Runner {
	return &debate.Runner{
		Store: e.store,
		Cast:  debate.Cast{Default: debate.Model{Provider: p, Name: "test-model"}},
		Now:   e.clock.Now,
		Sleep: e.clock.Sleep,
	}
}

// withProvider swaps in a new script (as after fixing a key), with a fresh Runner.
func (e *env) withScript(rules ...script.Rule) {
	e.t.Helper()
	sc, err := script.New(rules...)
	if err != nil {
		e.t.Fatal(err)
	}
	e.prov = script.NewProvider(sc)
	r := e.newRunner(e.prov)
	r.Human, r.Tools, r.Limits = e.runner.Human, e.runner.Tools, e.runner.Limits
	e.runner = r
}

func (e *env) create(id string, lim debate.Limits) {
	e.t.Helper()
	if err := e.runner.Create(context.Background(), id, debate.Created{Format: "toy", Topic: "a toy question", Limits: lim}); err != nil {
		e.t.Fatal(err)
	}
}

func (e *env) events(id string) []debate.Event {
	e.t.Helper()
	evs, err := e.store.Load(context.Background(), id, 0)
	if err != nil {
		e.t.Fatal(err)
	}
	return evs
}

// fold folds the stored log, independently of the state Run returned.
func (e *env) fold(id string) *debate.State {
	e.t.Helper()
	s, err := debate.Fold(e.events(id))
	if err != nil {
		e.t.Fatal(err)
	}
	return s
}

func (e *env) requests(tag string) []llm.Request {
	var out []llm.Request
	for _, r := range e.prov.Requests() {
		if r.Tag == tag {
			out = append(out, r)
		}
	}
	return out
}

// decodeAll returns the payloads of the events of one type, in log order.
func decodeAll[T debate.Payload](t *testing.T, evs []debate.Event) []T {
	t.Helper()
	var out []T
	var zero T
	for _, e := range evs {
		if e.Type != zero.EventType() {
			continue
		}
		var p T
		if err := json.Unmarshal(e.Data, &p); err != nil {
			t.Fatalf("decode %s: %v", e.Type, err)
		}
		out = append(out, p)
	}
	return out
}

// index returns the position of the first event matching type and turn id
// (for turn events), or -1.
func index(evs []debate.Event, typ, turnID string) int {
	for i, e := range evs {
		if e.Type != typ {
			continue
		}
		if turnID == "" || eventTurn(e) == turnID {
			return i
		}
	}
	return -1
}

func eventTurn(e debate.Event) string {
	var probe struct {
		Turn json.RawMessage `json:"turn"`
	}
	if json.Unmarshal(e.Data, &probe) != nil || len(probe.Turn) == 0 {
		return ""
	}
	var id string
	if json.Unmarshal(probe.Turn, &id) == nil {
		return id
	}
	var ref debate.TurnRef
	if json.Unmarshal(probe.Turn, &ref) == nil {
		return ref.ID
	}
	return ""
}

func types(evs []debate.Event) string {
	var b strings.Builder
	for _, e := range evs {
		fmt.Fprintf(&b, "%d %s %s\n", e.Seq, e.Type, eventTurn(e))
	}
	return b.String()
}

func text(s string) *script.Reply { return &script.Reply{Text: s} }

// hookProvider wraps a provider to act at points of a stream: before it
// starts, and after each chunk it yields. Tests use it to cancel a run in the
// middle of a turn or to prove that turns overlap.
type hookProvider struct {
	llm.Provider
	before  func(ctx context.Context, req llm.Request)
	onChunk func(req llm.Request, i int, c llm.Chunk)
	after   func(req llm.Request)
}

func (h *hookProvider) Stream(ctx context.Context, req llm.Request) iter.Seq2[llm.Chunk, error] {
	return func(yield func(llm.Chunk, error) bool) {
		if h.before != nil {
			h.before(ctx, req)
		}
		i := 0
		for c, err := range h.Provider.Stream(ctx, req) {
			if !yield(c, err) {
				return
			}
			if err == nil && h.onChunk != nil {
				h.onChunk(req, i, c)
			}
			i++
		}
		if h.after != nil {
			h.after(req)
		}
	}
}

// barrier is released once n parties arrived; wait fails the test when they
// do not all arrive in time (they were not running concurrently).
type barrier struct {
	mu      sync.Mutex
	n       int
	arrived map[string]bool
	all     chan struct{}
}

func newBarrier(n int) *barrier {
	return &barrier{n: n, arrived: map[string]bool{}, all: make(chan struct{})}
}

// arrive returns true when every party arrived within d.
func (b *barrier) arrive(who string, d time.Duration) bool {
	b.mu.Lock()
	b.arrived[who] = true
	if len(b.arrived) == b.n {
		close(b.all)
	}
	b.mu.Unlock()
	select {
	case <-b.all:
		return true
	case <-time.After(d):
		return false
	}
}

// humanFunc answers checkpoints with a function.
type humanFunc func(ctx context.Context, s *debate.State, c debate.CheckpointReached) (debate.CheckpointAnswered, error)

func (f humanFunc) Checkpoint(ctx context.Context, s *debate.State, c debate.CheckpointReached) (debate.CheckpointAnswered, error) {
	return f(ctx, s, c)
}
