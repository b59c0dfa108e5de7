package jobs

import (
	"context"
	"fmt"
	"path/filepath"
	"syscall"
	"testing"
	"time"

	"github.com/parleyhq/parley/internal/app"
	"github.com/parleyhq/parley/internal/debate"
	"github.com/parleyhq/parley/internal/llm/fakellm"
	"github.com/parleyhq/parley/internal/llm/script"
)

// BenchmarkPickup measures a job's pick-up latency: from the commit of its
// insert to its worker starting it, one job at a time, on an idle worker.
func BenchmarkPickup(b *testing.B) {
	for _, db := range []string{"sqlite", "postgres"} {
		b.Run(db, func(b *testing.B) {
			a := newApp(b, db, nil)
			q := newQueue(b, a, Config{Workers: 1})
			s, err := q.StartDebate(context.Background(), offlineRequest("NVDA"))
			if err != nil {
				b.Fatal(err)
			}
			waitStatus(b, a.Store, s.ID, debate.StatusCompleted)
			started := make(chan time.Time, 1)
			q.onWork = func(string) { started <- time.Now() }
			var total time.Duration
			b.ResetTimer()
			for range b.N {
				// A job for a completed debate: the worker starts it, sees
				// nothing to run, and is idle again.
				at := time.Now()
				if err := q.enqueue(context.Background(), s.ID, nil, debate.QueuedResumed, ""); err != nil {
					b.Fatal(err)
				}
				total += (<-started).Sub(at)
			}
			b.ReportMetric(float64(total.Microseconds())/float64(b.N)/1000, "ms/pickup")
		})
	}
}

// BenchmarkThroughput runs debates against the fake model server with 1, 2
// and 4 workers (each its own River client, as separate processes would
// be) and reports completed turns a second, and the CPU time this process
// spent per turn.
func BenchmarkThroughput(b *testing.B) {
	sc, err := script.Load(filepath.Join("..", "..", "cmd", "parley", "testdata", "perspectives.yaml"))
	if err != nil {
		b.Fatal(err)
	}
	for _, db := range []string{"sqlite", "postgres"} {
		for _, workers := range []int{1, 2, 4} {
			b.Run(fmt.Sprintf("%s/workers=%d", db, workers), func(b *testing.B) {
				srv := fakellm.Start(sc, fakellm.WithAPIKey("test-key"), fakellm.WithTokenDelay(time.Millisecond))
				defer srv.Close()
				a := newApp(b, db, map[string]string{"OPENAI_BASE_URL": srv.OpenAIURL(), "OPENAI_API_KEY": "test-key"})
				enq := newQueue(b, a, Config{})
				for range workers {
					newQueue(b, a, Config{Workers: 1})
				}
				const debates = 4
				b.ResetTimer()
				turns := 0
				var elapsed, cpu time.Duration
				for range b.N {
					c0, t0 := cpuTime(), time.Now()
					var ids []string
					for range debates {
						s, err := enq.StartDebate(context.Background(), perspectivesRequest(false))
						if err != nil {
							b.Fatal(err)
						}
						ids = append(ids, s.ID)
					}
					for _, id := range ids {
						turns += waitStatus(b, a.Store, id, debate.StatusCompleted).Turns
					}
					elapsed += time.Since(t0)
					cpu += cpuTime() - c0
				}
				b.ReportMetric(float64(turns)/elapsed.Seconds(), "turns/s")
				b.ReportMetric(float64(cpu.Microseconds())/float64(turns)/1000, "cpu-ms/turn")
			})
		}
	}
}

// BenchmarkBookkeeping compares the CPU time per turn of offline debates
// run directly (app.Start, Session.Run) and as jobs on one worker: the
// difference is what River's bookkeeping (insert, fetch, completion,
// polling) and the worker's lease and log checks cost.
func BenchmarkBookkeeping(b *testing.B) {
	for _, db := range []string{"sqlite", "postgres"} {
		for _, mode := range []string{"direct", "jobs"} {
			b.Run(db+"/"+mode, func(b *testing.B) {
				a := newApp(b, db, nil)
				var q *Queue
				done := make(chan *debate.State, 1)
				if mode == "jobs" {
					// Completion is signalled, not polled: polling would
					// cost CPU the direct runs do not spend.
					q = newQueue(b, a, Config{Workers: 1, Finish: func(_ context.Context, _ *app.Session, st *debate.State) { done <- st }})
				}
				turns := 0
				c0 := cpuTime()
				b.ResetTimer()
				for range b.N {
					if q == nil {
						s, err := a.Start(context.Background(), offlineRequest("NVDA"))
						if err != nil {
							b.Fatal(err)
						}
						st, err := s.Run(context.Background(), nil)
						if err != nil {
							b.Fatal(err)
						}
						turns += len(st.Done)
						continue
					}
					if _, err := q.StartDebate(context.Background(), offlineRequest("NVDA")); err != nil {
						b.Fatal(err)
					}
					turns += len((<-done).Done)
				}
				b.ReportMetric(float64((cpuTime()-c0).Microseconds())/float64(turns)/1000, "cpu-ms/turn")
			})
		}
	}
}

// cpuTime is the CPU time this process has used.
func cpuTime() time.Duration {
	var ru syscall.Rusage
	_ = syscall.Getrusage(syscall.RUSAGE_SELF, &ru)
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}
