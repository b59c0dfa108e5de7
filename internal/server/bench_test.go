package server

import (
	"bufio"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"runtime"
	"slices"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/parleyhq/parley/internal/app"
	"github.com/parleyhq/parley/internal/debate"
	"github.com/parleyhq/parley/internal/llm/fakellm"
	"github.com/parleyhq/parley/internal/setup"
	"github.com/parleyhq/parley/internal/store/postgres"
	"github.com/parleyhq/parley/internal/store/postgres/pgtest"
	"github.com/parleyhq/parley/internal/store/sqlite"
)

// benchServer serves a SQLite store in a temp dir, as `parley serve` does.
func benchServer(b *testing.B, env map[string]string) (*Server, *httptest.Server, debate.Store) {
	b.Helper()
	store, err := sqlite.Open(context.Background(), filepath.Join(b.TempDir(), "parley.db"))
	if err != nil {
		b.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	a := &app.App{Store: store, Formats: app.DefaultFormats(), Env: setup.Env{Getenv: func(k string) string { return env[k] }, Now: time.Now, Notice: io.Discard}}
	srv, err := New(ctx, Config{App: a})
	if err != nil {
		b.Fatal(err)
	}
	hs := httptest.NewServer(srv.Handler())
	b.Cleanup(func() { cancel(); hs.CloseClientConnections(); hs.Close(); srv.Wait(); store.Close() })
	return srv, hs, store
}

// seedDebate creates an empty debate to stream events into.
func seedDebate(b *testing.B, store debate.Store, id string) {
	b.Helper()
	e, _ := debate.NewEvent(id, time.Now(), debate.Created{Format: "perspectives", Topic: "bench", Limits: debate.DefaultLimits()})
	if _, err := store.Append(context.Background(), id, e); err != nil {
		b.Fatal(err)
	}
}

// sseReader reads one subscriber's stream and reports each event's
// sequence number.
func sseReader(b *testing.B, url string, seqs chan<- int64) (stop func()) {
	b.Helper()
	ctx, cancel := context.WithCancel(context.Background())
	req, _ := http.NewRequestWithContext(ctx, "GET", url, nil)
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		b.Fatal(err)
	}
	go func() {
		defer resp.Body.Close()
		sc := bufio.NewScanner(resp.Body)
		sc.Buffer(make([]byte, 1<<20), 1<<20)
		for sc.Scan() {
			if line, ok := strings.CutPrefix(sc.Text(), "id: "); ok {
				var n int64
				fmt.Sscan(line, &n)
				seqs <- n
			}
		}
	}()
	return cancel
}

func percentiles(b *testing.B, d []time.Duration) {
	slices.Sort(d)
	if len(d) == 0 {
		return
	}
	b.ReportMetric(float64(d[len(d)/2].Microseconds()), "p50-µs")
	b.ReportMetric(float64(d[len(d)*99/100].Microseconds()), "p99-µs")
}

// BenchmarkSSEDelivery is the latency from appending an event to the store
// to its arrival at an SSE client of the server.
func BenchmarkSSEDelivery(b *testing.B) {
	_, hs, store := benchServer(b, nil)
	seedDebate(b, store, "DEB-bench001")
	seqs := make(chan int64, 16)
	defer sseReader(b, hs.URL+"/api/debates/DEB-bench001/events?after=1", seqs)()
	e, _ := debate.NewEvent("DEB-bench001", time.Now(), debate.TurnDelta{Turn: "t", Text: "token "})
	lat := make([]time.Duration, 0, b.N)
	b.ResetTimer()
	for b.Loop() {
		start := time.Now()
		seq, err := store.Append(context.Background(), "DEB-bench001", e)
		if err != nil {
			b.Fatal(err)
		}
		for got := range seqs {
			if got == seq {
				break
			}
		}
		lat = append(lat, time.Since(start))
	}
	percentiles(b, lat)
}

// BenchmarkSSEFanout1000 appends events to a debate followed by 1,000 SSE
// subscribers: the time until every subscriber has each event.
func BenchmarkSSEFanout1000(b *testing.B) {
	const subscribers = 1000
	_, hs, store := benchServer(b, nil)
	seedDebate(b, store, "DEB-bench002")
	http.DefaultTransport.(*http.Transport).MaxIdleConnsPerHost = subscribers
	seqs := make(chan int64, subscribers*4)
	for range subscribers {
		defer sseReader(b, hs.URL+"/api/debates/DEB-bench002/events?after=1", seqs)()
	}
	e, _ := debate.NewEvent("DEB-bench002", time.Now(), debate.TurnDelta{Turn: "t", Text: "token "})
	var lat []time.Duration
	b.ResetTimer()
	for b.Loop() {
		start := time.Now()
		seq, err := store.Append(context.Background(), "DEB-bench002", e)
		if err != nil {
			b.Fatal(err)
		}
		for n := 0; n < subscribers; {
			if <-seqs == seq {
				n++
			}
		}
		lat = append(lat, time.Since(start))
	}
	percentiles(b, lat)
}

// BenchmarkServe200Debates runs 200 perspectives debates at once in one
// server against the fake model server at 20 ms per token, and reports the
// server process's peak RSS and its CPU time per completed turn.
func BenchmarkServe200Debates(b *testing.B) {
	const debates = 200
	sc := loadBenchScript(b)
	llm := fakellm.Start(sc, fakellm.WithAPIKey("test-key"), fakellm.WithTokenDelay(20*time.Millisecond))
	defer llm.Close()
	env := map[string]string{"OPENAI_BASE_URL": llm.OpenAIURL(), "OPENAI_API_KEY": "test-key"}
	for b.Loop() {
		_, hs, store := benchServer(b, env)
		var before syscall.Rusage
		_ = syscall.Getrusage(syscall.RUSAGE_SELF, &before)
		start := time.Now()
		ids := make([]string, debates)
		var wg sync.WaitGroup
		for i := range debates {
			wg.Go(func() {
				resp, err := http.Post(hs.URL+"/api/debates", "application/json",
					strings.NewReader(`{"topic":"Should we use Redis or PostgreSQL for caching? (`+fmt.Sprint(i)+`)","no_checkpoints":true}`))
				if err != nil {
					b.Error(err)
					return
				}
				var c struct{ ID string }
				_ = json.NewDecoder(resp.Body).Decode(&c)
				resp.Body.Close()
				ids[i] = c.ID
			})
		}
		wg.Wait()
		turns := 0
		for _, id := range ids {
			for {
				sum, err := store.Get(context.Background(), id)
				if err != nil {
					b.Fatal(err)
				}
				if sum.Status == debate.StatusCompleted || sum.Status == debate.StatusFailed {
					turns += sum.Turns
					break
				}
				time.Sleep(50 * time.Millisecond)
			}
		}
		elapsed := time.Since(start)
		var after syscall.Rusage
		_ = syscall.Getrusage(syscall.RUSAGE_SELF, &after)
		cpu := time.Duration(after.Utime.Nano()+after.Stime.Nano()-before.Utime.Nano()-before.Stime.Nano()) * time.Nanosecond
		b.ReportMetric(float64(turns)/debates, "turns/debate")
		b.ReportMetric(elapsed.Seconds(), "wall-s")
		// The fake model server runs in this process too: its share is in
		// the CPU figure, so the figure is an upper bound for Parley's.
		b.ReportMetric(float64(cpu.Microseconds())/float64(turns)/1000, "cpu-ms/turn")
		b.ReportMetric(float64(peakRSS())/1024, "peak-RSS-MiB")
	}
}

// peakRSS is the process's peak resident set size in KiB (Linux).
func peakRSS() int64 {
	b, err := os.ReadFile("/proc/self/status")
	if err != nil {
		return 0
	}
	for _, line := range strings.Split(string(b), "\n") {
		if v, ok := strings.CutPrefix(line, "VmHWM:"); ok {
			var kb int64
			fmt.Sscan(strings.TrimSpace(strings.TrimSuffix(strings.TrimSpace(v), "kB")), &kb)
			return kb
		}
	}
	return 0
}

// BenchmarkPanel draws the panel of a debate of 24 completed turns of
// 4 KB of Markdown each: the page fetches it again after every event but
// a streamed delta, for every reader.
func BenchmarkPanel(b *testing.B) {
	srv, _, store := benchServer(b, nil)
	id := "DEB-0000bench"
	at := time.Now()
	var turn strings.Builder
	for i := range 8 {
		fmt.Fprintf(&turn, "## Point %d\n\nThe **margin** rose to *73%%* as [data centre](https://example.com/dc) demand grew; `capex` follows.\n\n- first, with a [link](https://example.com/a)\n- second, **bold** and ~~gone~~\n\n| Metric | FY25 | FY26 |\n|---|--:|--:|\n| Revenue | 130.5 | 216.0 |\n\n> A quoted line.\n\n", i)
	}
	evs := []debate.Payload{debate.Created{Format: "perspectives", Topic: "bench", Limits: debate.DefaultLimits()}}
	for i := range 24 {
		ref := debate.TurnRef{ID: fmt.Sprintf("r1/argument/%d", i), Agent: fmt.Sprintf("agent-%d", i%4), Role: "debater", Phase: "r1"}
		evs = append(evs, debate.TurnStarted{Turn: ref, Attempt: 1}, debate.TurnCompleted{Turn: ref, Text: turn.String(), Model: "openai/x"})
	}
	for _, p := range evs {
		e, err := debate.NewEvent(id, at, p)
		if err != nil {
			b.Fatal(err)
		}
		if _, err := store.Append(context.Background(), id, e); err != nil {
			b.Fatal(err)
		}
	}
	b.ReportAllocs()
	for b.Loop() {
		if _, _, err := srv.buildPanel(context.Background(), id); err != nil {
			b.Fatal(err)
		}
	}
}

// manyDebates is how many debates BenchmarkManyDebates seeds: a busy
// team's database after a year or two.
const manyDebates = 50_000

// batchAppender appends the debates of a batch in one transaction: the
// SQL stores' AppendTx.
type batchAppender func(ctx context.Context, batch map[string][]debate.Event) error

func sqliteBatches(s *sqlite.Store) batchAppender {
	return func(ctx context.Context, batch map[string][]debate.Event) error {
		tx, err := s.DB().BeginTx(ctx, nil)
		if err != nil {
			return err
		}
		defer tx.Rollback()
		for id, evs := range batch {
			if _, err := s.AppendTx(ctx, tx, id, evs...); err != nil {
				return err
			}
		}
		return tx.Commit()
	}
}

func postgresBatches(s *postgres.Store) batchAppender {
	return func(ctx context.Context, batch map[string][]debate.Event) error {
		tx, err := s.Pool().Begin(ctx)
		if err != nil {
			return err
		}
		defer tx.Rollback(context.WithoutCancel(ctx))
		for id, evs := range batch {
			if _, err := s.AppendTx(ctx, tx, id, evs...); err != nil {
				return err
			}
		}
		return tx.Commit(ctx)
	}
}

// seedMany writes n small debates to s in transactions of 1,000 (one
// durable commit each, not one per debate): nine in ten completed, the
// rest failed, paused, running without a runner (interrupted), queued, and
// 20 running with a live lease, over all five formats.
func seedMany(b *testing.B, s debate.Store, appendBatch batchAppender, n int) {
	b.Helper()
	ctx := context.Background()
	formats := []string{"bullbear", "council", "crux", "formal", "perspectives"}
	start := time.Now().Add(-time.Duration(n) * time.Minute).Truncate(time.Second)
	batch := map[string][]debate.Event{}
	for i := range n {
		id := fmt.Sprintf("DEB-%08d", i)
		at := start.Add(time.Duration(i) * time.Minute)
		ps := []debate.Payload{debate.Created{Format: formats[i%len(formats)], Topic: fmt.Sprintf("Topic %d", i), Limits: debate.DefaultLimits()}}
		for t := range 2 {
			ps = append(ps, debate.TurnCompleted{Turn: debate.TurnRef{ID: fmt.Sprintf("t%d", t), Agent: "bull", Round: 1}, Text: "An argument.", Model: "openai/gpt-4o", CostUSD: 0.01})
		}
		switch {
		case i%100 == 1:
			ps = append(ps, debate.Failed{Error: "bench"})
		case i%100 == 2:
			ps = append(ps, debate.Paused{Reason: debate.PauseBudget})
		case i%100 == 3, i >= n-20: // interrupted, or running below
		case i%100 == 4:
			ps = append(ps, debate.Queued{Queue: "data", Reason: debate.QueuedCreated})
		default:
			ps = append(ps, debate.Completed{})
		}
		evs := make([]debate.Event, len(ps))
		for k, p := range ps {
			e, err := debate.NewEvent(id, at, p)
			if err != nil {
				b.Fatal(err)
			}
			evs[k] = e
		}
		batch[id] = evs
		if len(batch) == 1000 || i == n-1 {
			if err := appendBatch(ctx, batch); err != nil {
				b.Fatal(err)
			}
			clear(batch)
		}
	}
	owner := debate.LeaseOwner{ID: "bench-runner", Host: "elsewhere", PID: 1, Started: time.Now()}
	for i := n - 20; i < n; i++ {
		if _, err := s.AcquireLease(ctx, fmt.Sprintf("DEB-%08d", i), owner, time.Hour, ""); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkManyDebates serves GET /metrics and the list API, filtered by
// status and not, from a database of 50,000 debates, SQLite and (with
// PARLEY_TEST_POSTGRES) PostgreSQL: what a Prometheus scrape every 15 s,
// and a dashboard's filtered list, cost at that size.
func BenchmarkManyDebates(b *testing.B) {
	b.Run("sqlite", func(b *testing.B) {
		srv, _, st := benchServer(b, nil)
		seedMany(b, st, sqliteBatches(st.(*sqlite.Store)), manyDebates)
		benchMany(b, srv.Handler())
	})
	b.Run("postgres", func(b *testing.B) {
		st, err := postgres.Open(context.Background(), pgtest.URL(b))
		if err != nil {
			b.Fatal(err)
		}
		defer st.Close()
		seedMany(b, st, postgresBatches(st), manyDebates)
		// Statistics as autovacuum would have them on a table this size.
		if _, err := st.Pool().Exec(context.Background(), `VACUUM ANALYZE debates`); err != nil {
			b.Fatal(err)
		}
		ctx, cancel := context.WithCancel(context.Background())
		defer cancel()
		srv, err := New(ctx, Config{App: &app.App{Store: st, Formats: app.DefaultFormats(), Env: setup.Env{Getenv: func(string) string { return "" }, Now: time.Now, Notice: io.Discard}}})
		if err != nil {
			b.Fatal(err)
		}
		benchMany(b, srv.Handler())
	})
}

func benchMany(b *testing.B, h http.Handler) {
	for _, c := range []struct{ name, path string }{
		{"metrics", "/metrics"},
		{"list/newest20", "/api/debates?limit=20"},
		{"list/completed20", "/api/debates?status=completed&limit=20"},
		{"list/failed20", "/api/debates?status=failed&limit=20"},
		{"list/interrupted20", "/api/debates?status=interrupted&limit=20"},
		{"list/running20", "/api/debates?status=running&limit=20"},
	} {
		b.Run(c.name, func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				rec := httptest.NewRecorder()
				h.ServeHTTP(rec, httptest.NewRequest("GET", c.path, nil))
				if rec.Code != http.StatusOK {
					b.Fatalf("GET %s: %d %s", c.path, rec.Code, rec.Body)
				}
			}
		})
	}
}

// BenchmarkSSEStreamMemory opens 1,000 event streams of one running debate
// and reports the heap each holds (the server's and the client's side, in
// this one process): what many subscribers cost at rest.
func BenchmarkSSEStreamMemory(b *testing.B) {
	const n = 1000
	for b.Loop() {
		func() {
			_, hs, store := benchServer(b, nil)
			seedDebate(b, store, "DEB-00000aaa")
			tr := &http.Transport{MaxIdleConnsPerHost: n}
			defer tr.CloseIdleConnections()
			client := &http.Client{Transport: tr}
			ctx, cancel := context.WithCancel(context.Background())
			defer cancel()
			var ms runtime.MemStats
			runtime.GC()
			runtime.ReadMemStats(&ms)
			before := ms.HeapAlloc
			open := make(chan error, n)
			for range n {
				go func() {
					req, _ := http.NewRequestWithContext(ctx, "GET", hs.URL+"/api/debates/DEB-00000aaa/events", nil)
					resp, err := client.Do(req)
					if err != nil {
						open <- err
						return
					}
					defer resp.Body.Close()
					_, err = bufio.NewReader(resp.Body).ReadString('\n')
					open <- err
					<-ctx.Done()
				}()
			}
			for range n {
				if err := <-open; err != nil {
					b.Fatal(err)
				}
			}
			runtime.GC()
			runtime.ReadMemStats(&ms)
			b.ReportMetric(float64(ms.HeapAlloc-before)/n/1024, "KiB/stream")
		}()
	}
}
