package debate_test

import (
	"context"
	"fmt"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/parleyhq/parley/internal/debate"
	"github.com/parleyhq/parley/internal/llm/script"
	"github.com/parleyhq/parley/internal/store/postgres"
	"github.com/parleyhq/parley/internal/store/postgres/pgtest"
	"github.com/parleyhq/parley/internal/store/sqlite"
)

// cpuTime is the CPU time (user and system) the process has used.
func cpuTime(b *testing.B) time.Duration {
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
		b.Fatal(err)
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}

// BenchmarkTurnCPUSQLite measures Parley's own CPU time per turn at zero
// model latency, with the durable SQLite store on disk: a 300-word reply
// streamed a word at a time (as the SDKs deliver it, without their decoding),
// the deltas, the turn's durable boundaries, folding, planning and parsing.
// One op is a debate of 20 sequential turns; cpu-ms/turn is the figure to
// watch (profile it with -cpuprofile).
func BenchmarkTurnCPUSQLite(b *testing.B) {
	dir := b.TempDir()
	benchTurnCPU(b, 1, func(n int) (debate.Store, error) {
		return sqlite.Open(context.Background(), filepath.Join(dir, fmt.Sprintf("bench%d.db", n)))
	})
}

// BenchmarkTurnCPUSQLiteParallel is BenchmarkTurnCPUSQLite with the turns
// four at a time, as council's analyses run: four streams' deltas share
// the append queue, so more of them coalesce into one write, or more
// writes are made while another turn waits for its durable boundary.
func BenchmarkTurnCPUSQLiteParallel(b *testing.B) {
	dir := b.TempDir()
	benchTurnCPU(b, 4, func(n int) (debate.Store, error) {
		return sqlite.Open(context.Background(), filepath.Join(dir, fmt.Sprintf("bench%d.db", n)))
	})
}

// BenchmarkTurnCPUPostgres is BenchmarkTurnCPUSQLite on the PostgreSQL
// store (PARLEY_TEST_POSTGRES; skipped without it). cpu-ms/turn counts this
// process only, not the server's work; wall-ms/turn includes the round trips.
func BenchmarkTurnCPUPostgres(b *testing.B) {
	benchTurnCPU(b, 1, func(int) (debate.Store, error) {
		return postgres.Open(context.Background(), pgtest.URL(b))
	})
}

func benchTurnCPU(b *testing.B, width int, open func(n int) (debate.Store, error)) {
	const turns = 20
	p := &seqProto{width: width}
	for i := range turns {
		p.specs = append(p.specs, turn(fmt.Sprintf("t%03d", i), fmt.Sprintf("agent%d", i%3), 1+i/10))
	}
	var reply strings.Builder
	for i := range 300 {
		fmt.Fprintf(&reply, "word%d ", i%17)
	}
	ctx := context.Background()
	lim := debate.DefaultLimits()
	var cpu time.Duration
	n := 0
	for b.Loop() {
		// Opening a new database (a new schema, migrated, for PostgreSQL)
		// is not a turn's cost.
		b.StopTimer()
		st, err := open(n)
		if err != nil {
			b.Fatal(err)
		}
		sc := script.MustNew(script.Rule{TagPrefix: "t", Reply: &script.Reply{Text: reply.String()}})
		r := &debate.Runner{Store: st, Cast: debate.Cast{Default: debate.Model{Provider: script.NewProvider(sc), Name: "m"}}}
		if err := r.Create(ctx, "bench", debate.Created{Format: "seq", Topic: "bench", Limits: lim}); err != nil {
			b.Fatal(err)
		}
		b.StartTimer()
		c0 := cpuTime(b)
		s, err := r.Run(ctx, "bench", p)
		cpu += cpuTime(b) - c0
		if err != nil || len(s.Done) != turns {
			b.Fatalf("run: %v (%d turns)", err, len(s.Done))
		}
		st.Close()
		n++
	}
	b.ReportMetric(float64(cpu.Microseconds())/1000/float64(n*turns), "cpu-ms/turn")
	b.ReportMetric(float64(b.Elapsed().Microseconds())/1000/float64(n*turns), "wall-ms/turn")
}
