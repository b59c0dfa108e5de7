package debate_test

import (
	"context"
	"encoding/json"
	"fmt"
	"runtime"
	"sync"
	"testing"
	"time"

	"github.com/parleyhq/parley/internal/debate"
	"github.com/parleyhq/parley/internal/format/perspectives"
	"github.com/parleyhq/parley/internal/llm"
	"github.com/parleyhq/parley/internal/llm/script"
	"github.com/parleyhq/parley/internal/store/memstore"
)

// seqProto asks for its turns one at a time, in O(1) per step, so that a
// benchmark measures the runner rather than the protocol.
// seqProto runs its turns in order, width at a time (one step of width
// parallel turns, as council's analyses; 0 or 1: one turn a step).
type seqProto struct {
	specs []debate.TurnSpec
	width int
}

func (p *seqProto) Next(s *debate.State) (debate.Step, error) {
	if i := len(s.Done); i < len(p.specs) {
		return debate.Step{Turns: p.specs[i:min(i+max(p.width, 1), len(p.specs))]}, nil
	}
	return debate.Step{Done: true, Verdict: len(s.Done)}, nil
}

func (p *seqProto) Parse(_ *debate.State, _ debate.TurnSpec, text string) (any, error) {
	return toyMove{Text: text}, nil
}

// BenchmarkTurnOverhead measures what the runner costs per turn, around an
// instant provider and an in-memory store: events, fold, planning, streaming,
// parsing and appends. One op is a debate of 100 sequential turns.
func BenchmarkTurnOverhead(b *testing.B) {
	const turns = 100
	p := &seqProto{}
	for i := range turns {
		p.specs = append(p.specs, turn(fmt.Sprintf("t%03d", i), fmt.Sprintf("agent%d", i%3), 1+i/10))
	}
	lim := debate.DefaultLimits()
	ctx := context.Background()
	var ms0, ms1 runtime.MemStats
	runtime.ReadMemStats(&ms0)
	n := 0
	for b.Loop() {
		sc := script.MustNew(script.Rule{TagPrefix: "t", Reply: &script.Reply{Text: "An instant reply of a dozen words, enough to stream in a few chunks."}})
		r := &debate.Runner{Store: memstore.New(), Cast: debate.Cast{Default: debate.Model{Provider: script.NewProvider(sc), Name: "m"}}}
		if err := r.Create(ctx, "bench", debate.Created{Format: "seq", Topic: "bench", Limits: lim}); err != nil {
			b.Fatal(err)
		}
		s, err := r.Run(ctx, "bench", p)
		if err != nil || len(s.Done) != turns {
			b.Fatalf("run: %v (%d turns)", err, len(s.Done))
		}
		n++
	}
	runtime.ReadMemStats(&ms1)
	b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(n*turns), "ns/turn")
	b.ReportMetric(float64(ms1.Mallocs-ms0.Mallocs)/float64(n*turns), "allocs/turn")
}

// stepRecorder remembers the turns of every step the protocol returned.
type stepRecorder struct {
	debate.Protocol
	mu    sync.Mutex
	steps [][]string
}

func (r *stepRecorder) Next(s *debate.State) (debate.Step, error) {
	st, err := r.Protocol.Next(s)
	if len(st.Turns) > 0 {
		ids := make([]string, len(st.Turns))
		for i, t := range st.Turns {
			ids[i] = t.ID
		}
		r.mu.Lock()
		r.steps = append(r.steps, ids)
		r.mu.Unlock()
	}
	return st, err
}

// BenchmarkCriticalPathRatio runs a 3-perspective, 2-round perspectives
// debate against a provider that takes a fixed time per reply, and reports
// wall-clock time over the critical-path lower bound: the sum, over the
// sequential steps, of the slowest reply in the step. A ratio near 1 means
// the runner adds little and runs concurrent turns in parallel; arguments
// run one after the other would show as about 1.33 (16 replies of latency
// instead of 12 steps).
func BenchmarkCriticalPathRatio(b *testing.B) {
	const latency = 20 * time.Millisecond
	ps := []string{"Performance Advocate", "Operational Simplicity", "Future Flexibility"}
	slugs := []string{"performance-advocate", "operational-simplicity", "future-flexibility"}
	js := func(v any) json.RawMessage { d, _ := json.Marshal(v); return d }
	delay := map[string]time.Duration{}
	var rules []script.Rule
	add := func(tag string, rep script.Reply) {
		rep.Delay = script.Duration(latency)
		delay[tag] = latency
		rules = append(rules, script.Rule{Tag: tag, Reply: &rep})
	}
	add("analysis", script.Reply{JSON: js(map[string]any{"domain": "data", "constraints": []string{}, "binary": false,
		"perspectives": ps, "rationale": "r", "clarifying_question": ""})})
	for r := 1; r <= 2; r++ {
		for i, sl := range slugs {
			add(fmt.Sprintf("r%d/argument/%s", r, sl), script.Reply{Text: fmt.Sprintf("Round %d argument %d: point %s.", r, i, sl)})
			add(fmt.Sprintf("r%d/rebuttal/%s", r, sl), script.Reply{Text: fmt.Sprintf("Round %d rebuttal %d: answer %s.", r, i, sl)})
		}
		decision := map[int]string{1: "continue", 2: "conclude"}[r]
		add(fmt.Sprintf("r%d/evaluation", r), script.Reply{JSON: js(map[string]any{"summary": "s", "decision": decision, "reason": "r"})})
	}
	add("synthesis", script.Reply{JSON: js(map[string]any{"recommendation": "do it", "confidence": "Medium"})})

	cat, err := perspectives.LoadCatalog("")
	if err != nil {
		b.Fatal(err)
	}
	opts := js(perspectives.Options{Perspectives: 3, MaxRounds: 2, Catalog: cat})
	ctx := context.Background()
	var lower time.Duration
	n := 0
	for b.Loop() {
		proto, err := perspectives.Format{}.Protocol("Should we use Redis or PostgreSQL for caching?", opts)
		if err != nil {
			b.Fatal(err)
		}
		rec := &stepRecorder{Protocol: proto}
		prov := script.NewProvider(script.MustNew(rules...))
		r := &debate.Runner{Store: memstore.New(), Cast: debate.Cast{Default: debate.Model{Provider: prov, Name: "m"}}}
		if err := r.Create(ctx, "bench", debate.Created{Format: perspectives.Name, Topic: "caching", Options: opts, Limits: debate.DefaultLimits()}); err != nil {
			b.Fatal(err)
		}
		s, err := r.Run(ctx, "bench", rec)
		if err != nil || s.Status != debate.StatusCompleted {
			b.Fatalf("run: %v (%s)", err, s.Status)
		}
		if got := len(prov.Requests()); got != 16 {
			b.Fatalf("%d requests, want 16", got)
		}
		lower = criticalPath(b, rec.steps, delay, prov.Requests())
		n++
	}
	perOp := b.Elapsed() / time.Duration(n)
	b.ReportMetric(float64(perOp)/float64(lower), "ratio")
	b.ReportMetric(float64(lower.Milliseconds()), "lowerbound-ms")
}

// criticalPath sums the slowest scripted latency of each step, from the
// script's own delays and the steps the protocol returned.
func criticalPath(b *testing.B, steps [][]string, delay map[string]time.Duration, reqs []llm.Request) time.Duration {
	var total time.Duration
	for _, st := range steps {
		var slowest time.Duration
		for _, id := range st {
			d, ok := delay[id]
			if !ok {
				b.Fatalf("no scripted latency for turn %s", id)
			}
			slowest = max(slowest, d)
		}
		total += slowest
	}
	if len(steps) != 12 || len(reqs) != 16 {
		b.Fatalf("%d steps for %d requests, want 12 for 16", len(steps), len(reqs))
	}
	return total
}
