package jobs

import (
	"cmp"
	"context"
	"iter"
	"os/exec"
	"path/filepath"
	"slices"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/parleyhq/parley/internal/debate"
	"github.com/parleyhq/parley/internal/llm"
	"github.com/parleyhq/parley/internal/llm/fakellm"
	"github.com/parleyhq/parley/internal/llm/script"
)

// slowProvider answers after a pause, counting the calls in flight.
type slowProvider struct {
	name     string
	pause    time.Duration
	tokens   int
	inFlight atomic.Int32
	peak     atomic.Int32
	mu       sync.Mutex
	starts   []time.Time
}

func (p *slowProvider) Name() string   { return p.name }
func (p *slowProvider) Caps() llm.Caps { return llm.Caps{} }
func (p *slowProvider) Stream(ctx context.Context, _ llm.Request) iter.Seq2[llm.Chunk, error] {
	return func(yield func(llm.Chunk, error) bool) {
		n := p.inFlight.Add(1)
		defer p.inFlight.Add(-1)
		for {
			old := p.peak.Load()
			if n <= old || p.peak.CompareAndSwap(old, n) {
				break
			}
		}
		p.mu.Lock()
		p.starts = append(p.starts, time.Now())
		p.mu.Unlock()
		_ = sleep(ctx, p.pause)
		yield(llm.Chunk{Text: "ok", Usage: &llm.Usage{InputTokens: p.tokens / 2, OutputTokens: p.tokens - p.tokens/2}}, nil)
	}
}

func drain(t *testing.T, p llm.Provider) {
	t.Helper()
	for _, err := range p.Stream(context.Background(), llm.Request{}) {
		if err != nil {
			t.Error(err)
		}
	}
}

// Two workers' queues on one database hold a provider to its concurrency
// limit together.
func TestConcurrencyLimitAcrossWorkers(t *testing.T) {
	eachDB(t, func(t *testing.T, db string) {
		a := newApp(t, db, nil)
		q1 := newQueue(t, a, Config{})
		q2 := newQueue(t, a, Config{})
		if err := q1.Limits().Set(context.Background(), Limit{Provider: "openai", Concurrency: 2}); err != nil {
			t.Fatal(err)
		}
		prov := &slowProvider{name: "openai", pause: 50 * time.Millisecond}
		var wg sync.WaitGroup
		for i := range 8 {
			q := q1
			if i%2 == 1 {
				q = q2
			}
			q.limits.poll = 5 * time.Millisecond
			wg.Go(func() { drain(t, q.Limits().Wrap(prov)) })
		}
		wg.Wait()
		if peak := prov.peak.Load(); peak != 2 {
			t.Fatalf("%d calls at once, want the limit of 2 reached and kept", peak)
		}
		lims, err := q2.Limits().List(context.Background())
		if err != nil || len(lims) != 1 || lims[0].InFlight != 0 {
			t.Fatalf("after the calls: %+v, %v; want openai with no slot held", lims, err)
		}
		// Another provider has no limit.
		other := &slowProvider{name: "anthropic", pause: 20 * time.Millisecond}
		for range 4 {
			wg.Go(func() { drain(t, q1.Limits().Wrap(other)) })
		}
		wg.Wait()
		if other.peak.Load() < 2 {
			t.Fatalf("an unlimited provider ran %d calls at once", other.peak.Load())
		}
	})
}

// A call starts only while the tokens of the window are under the cap.
func TestTokensPerMinuteCap(t *testing.T) {
	eachDB(t, func(t *testing.T, db string) {
		a := newApp(t, db, nil)
		q := newQueue(t, a, Config{})
		q.limits.window, q.limits.poll = 2*time.Second, 10*time.Millisecond
		if err := q.Limits().Set(context.Background(), Limit{Provider: "openai", TokensPerMinute: 100}); err != nil {
			t.Fatal(err)
		}
		prov := &slowProvider{name: "openai", tokens: 60}
		p := q.Limits().Wrap(prov)
		var ends []time.Time
		for range 3 {
			drain(t, p)
			ends = append(ends, time.Now())
		}
		// The second call starts at once (60 < 100); the third waits until
		// the first two calls' second has left the window: at least a
		// second after the second call ended.
		if gap := prov.starts[2].Sub(ends[1]); gap < 900*time.Millisecond {
			t.Fatalf("the third call started %s after the second ended, with 120 tokens in the window over a cap of 100", gap)
		}
		if gap := prov.starts[1].Sub(ends[0]); gap > 500*time.Millisecond {
			t.Fatalf("the second call waited %s under the cap", gap)
		}
	})
}

// Reservations of the SEC's rate from two workers are spaced one interval
// apart, whoever takes them.
func TestSECRateAcrossWorkers(t *testing.T) {
	eachDB(t, func(t *testing.T, db string) {
		a := newApp(t, db, nil)
		qs := []*Queue{newQueue(t, a, Config{}), newQueue(t, a, Config{})}
		const interval = time.Second
		// A reservation's wait is from a moment between the call and its
		// return, which the machine's load spreads apart: each slot is
		// known to lie in [from, to]. Two slots are too close only if even
		// the latest the second can be is within the interval of the
		// earliest the first can be; two reservations given one slot are.
		type slot struct{ from, to time.Duration }
		var mu sync.Mutex
		var slots []slot
		var wg sync.WaitGroup
		start := time.Now()
		for i := range 16 {
			wg.Go(func() {
				before := time.Since(start)
				d, err := qs[i%2].limits.db.reserve(context.Background(), "sec-test", interval)
				if err != nil {
					t.Error(err)
					return
				}
				mu.Lock()
				slots = append(slots, slot{before + d, time.Since(start) + d})
				mu.Unlock()
			})
		}
		wg.Wait()
		slices.SortFunc(slots, func(a, b slot) int { return cmp.Compare(a.from+a.to, b.from+b.to) })
		for i := 1; i < len(slots); i++ {
			if gap := slots[i].to - slots[i-1].from; gap < interval-100*time.Millisecond {
				t.Fatalf("reservations %d and %d are at most %s apart, want %s: %v", i-1, i, gap, interval, slots)
			}
		}
		if r := qs[0].Limits().SECRate(); r.interval != time.Second/8 {
			t.Fatalf("the SEC rate is one request per %s, want 8 a second", r.interval)
		}
	})
}

// The debates a worker runs respect the limits: three arguments that would
// run at once run one at a time under a concurrency of 1.
func TestWorkerRunsUnderLimits(t *testing.T) {
	sc, err := script.Load(filepath.Join("..", "..", "cmd", "parley", "testdata", "perspectives.yaml"))
	if err != nil {
		t.Fatal(err)
	}
	srv := fakellm.Start(sc, fakellm.WithAPIKey("test-key"), fakellm.WithTokenDelay(time.Millisecond))
	t.Cleanup(srv.Close)
	a := newApp(t, "sqlite", map[string]string{"OPENAI_BASE_URL": srv.OpenAIURL(), "OPENAI_API_KEY": "test-key"})
	q := newQueue(t, a, Config{Workers: 1})
	q.limits.poll = 5 * time.Millisecond
	if err := q.Limits().Set(context.Background(), Limit{Provider: "openai", Concurrency: 1}); err != nil {
		t.Fatal(err)
	}
	s, err := q.StartDebate(context.Background(), perspectivesRequest(false))
	if err != nil {
		t.Fatal(err)
	}
	peak := 0
	for {
		peak = max(peak, srv.Active())
		if sum, _ := a.Store.Get(context.Background(), s.ID); sum.Status == "completed" {
			break
		}
		time.Sleep(time.Millisecond)
	}
	if peak != 1 {
		t.Fatalf("%d calls at once under a concurrency limit of 1", peak)
	}
}

// A call slot whose process died on this host (a worker killed mid-call) is
// free at once, not when it expires minutes later: the workers left go on.
// A live process's slot is kept.
func TestSlotOfDeadProcessFreed(t *testing.T) {
	eachDB(t, func(t *testing.T, db string) {
		ctx := context.Background()
		a := newApp(t, db, nil)
		q := newQueue(t, a, Config{})
		q.limits.poll = 5 * time.Millisecond
		if err := q.Limits().Set(ctx, Limit{Provider: "openai", Concurrency: 2}); err != nil {
			t.Fatal(err)
		}
		gone := exec.Command("true")
		if err := gone.Run(); err != nil {
			t.Fatal(err)
		}
		dead := debate.ThisProcess()
		dead.PID = gone.Process.Pid
		for _, h := range []string{slotHolder(dead), slotHolder(debate.ThisProcess())} {
			if ok, err := q.limits.db.tryAcquire(ctx, "openai", h, 2, time.Hour); err != nil || !ok {
				t.Fatalf("hold a slot as %s: %v, %v", h, ok, err)
			}
		}
		cctx, cancel := context.WithTimeout(ctx, 10*time.Second)
		defer cancel()
		for _, err := range q.Limits().Wrap(&slowProvider{name: "openai"}).Stream(cctx, llm.Request{}) {
			if err != nil {
				t.Fatalf("a call waited for the slot of a dead process: %v", err)
			}
		}
		lims, err := q.Limits().List(ctx)
		if err != nil || len(lims) != 1 || lims[0].InFlight != 1 {
			t.Fatalf("after the call: %+v, %v; want the live process's slot still held", lims, err)
		}
	})
}
