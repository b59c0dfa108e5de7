package perspectives_test

import (
	"context"
	"encoding/json"
	"flag"
	"fmt"
	"iter"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/parleyhq/parley/internal/debate"
	"github.com/parleyhq/parley/internal/format/perspectives"
	"github.com/parleyhq/parley/internal/llm"
	"github.com/parleyhq/parley/internal/llm/script"
	"github.com/parleyhq/parley/internal/store/memstore"
)

var update = flag.Bool("update", false, "rewrite the golden files in testdata/")

const topic = "Should we use Redis or PostgreSQL for caching?"

// The three perspectives most tests assign, in the analysis's order.
const (
	perf = "Performance Advocate"
	ops  = "Operational Simplicity"
	flex = "Future Flexibility"
)

var created = time.Date(2026, 1, 15, 10, 30, 0, 0, time.UTC)

func slug(name string) string { return strings.ToLower(strings.ReplaceAll(name, " ", "-")) }

func mustJSON(v any) json.RawMessage {
	b, err := json.Marshal(v)
	if err != nil {
		panic(err)
	}
	return b
}

func analysisReply(ps ...string) *script.Reply {
	return &script.Reply{JSON: mustJSON(map[string]any{
		"domain": "data", "constraints": []string{"the team runs PostgreSQL already"}, "binary": false,
		"perspectives": ps, "rationale": "latency against operations against evolution", "clarifying_question": "",
	})}
}

func evalReply(decision, summary string, offTopic ...string) *script.Reply {
	if offTopic == nil {
		offTopic = []string{}
	}
	return &script.Reply{JSON: mustJSON(map[string]any{
		"summary": summary, "agreement": decision == "conclude", "stagnation": false, "clear_winner": "",
		"new_points": decision == "continue", "decision": decision, "reason": map[string]string{"conclude": "the recommendations align", "continue": "new points are still emerging"}[decision], "off_topic": offTopic,
	})}
}

func synthesisReply(confidence string) *script.Reply {
	return &script.Reply{JSON: mustJSON(perspectives.Synthesis{
		Perspectives: []perspectives.PerspectiveSummary{
			{Name: perf, KeyArguments: []string{"Redis answers in under a millisecond"}, TradeOffsAccepted: []string{"a second datastore"}},
			{Name: ops, KeyArguments: []string{"one database is one thing to run"}, TradeOffsAccepted: []string{"slower cache hits"}},
			{Name: flex, KeyArguments: []string{"an interface keeps the choice reversible"}, TradeOffsAccepted: []string{"an abstraction layer"}},
		},
		Agreement:      []string{"Cache behind an interface", "Measure hit latency before deciding"},
		Tensions:       []string{"Performance Advocate vs Operational Simplicity on a second datastore"},
		Recommendation: "Start with PostgreSQL unlogged tables behind a cache interface; move to Redis when p99 exceeds 5ms.",
		Confidence:     confidence,
		Caveats:        []string{"Traffic grows tenfold"},
		Dissent:        []perspectives.Dissent{{Perspective: perf, View: "Redis from day one avoids a migration."}},
	})}
}

// phrases give each round and kind its own wording, so that a debater's
// arguments of two rounds share few word trigrams (no repetition flag).
var phrases = map[string]string{
	"1/argument": "Sub-millisecond reads matter because checkout calls the cache nine times per request.",
	"1/rebuttal": "Granted, a second datastore costs on-call time; measured p99 still decides it.",
	"2/argument": "Unlogged tables remove WAL overhead, yet vacuum pressure grows with churn.",
	"2/rebuttal": "An interface lets us swap engines later without touching handlers.",
	"3/argument": "Staffing is the binding constraint this quarter, not hardware.",
	"3/rebuttal": "If traffic triples, revisit; until then simplicity wins.",
}

// words returns the text scripted for a turn id ("r2/argument/<slug>").
func words(id string) string {
	parts := strings.Split(id, "/")
	return fmt.Sprintf("[%s] %s", parts[2], phrases[strings.TrimPrefix(parts[0], "r")+"/"+parts[1]])
}

// roundRules scripts the arguments and rebuttals of a round for the given
// perspectives, each with distinct text.
func roundRules(r int, ps ...string) []script.Rule {
	var out []script.Rule
	for _, p := range ps {
		for _, kind := range []string{"argument", "rebuttal"} {
			id := fmt.Sprintf("r%d/%s/%s", r, kind, slug(p))
			out = append(out, script.Rule{Tag: id, Reply: &script.Reply{Text: words(id)}})
		}
	}
	return out
}

// fixture is one perspectives debate on the script provider and a memstore.
type fixture struct {
	t      *testing.T
	id     string
	store  *memstore.Store
	prov   *script.Provider
	runner *debate.Runner
	proto  debate.Protocol
	opts   perspectives.Options
}

func newFixture(t *testing.T, opts perspectives.Options, rules ...script.Rule) *fixture {
	t.Helper()
	if opts.Catalog == nil {
		c, err := perspectives.LoadCatalog("")
		if err != nil {
			t.Fatal(err)
		}
		opts.Catalog = c
	}
	sc, err := script.New(rules...)
	if err != nil {
		t.Fatal(err)
	}
	f := &fixture{t: t, id: "DEB-test1", store: memstore.New(), prov: script.NewProvider(sc), opts: opts}
	t.Cleanup(func() { _ = f.store.Close() })
	f.runner = &debate.Runner{
		Store: f.store,
		Cast:  debate.Cast{Default: debate.Model{Provider: f.prov, Name: "test-model"}},
		Now:   func() time.Time { return created },
		Sleep: func(ctx context.Context, d time.Duration) error { return ctx.Err() },
	}
	raw := mustJSON(opts)
	f.proto, err = perspectives.Format{}.Protocol(topic, raw)
	if err != nil {
		t.Fatal(err)
	}
	lim := debate.DefaultLimits()
	if err := f.runner.Create(context.Background(), f.id, debate.Created{Format: perspectives.Name, Topic: topic, Options: raw, Limits: lim}); err != nil {
		t.Fatal(err)
	}
	return f
}

func (f *fixture) run() (*debate.State, error) {
	return f.runner.Run(context.Background(), f.id, f.proto)
}

func (f *fixture) mustRun() *debate.State {
	f.t.Helper()
	s, err := f.run()
	if err != nil {
		f.t.Fatalf("Run: %v\nrequests: %v", err, f.tags())
	}
	if s.Status != debate.StatusCompleted {
		f.t.Fatalf("status %s", s.Status)
	}
	return s
}

func (f *fixture) tags() []string {
	var out []string
	for _, r := range f.prov.Requests() {
		out = append(out, r.Tag)
	}
	return out
}

func (f *fixture) requests(tag string) []llm.Request {
	var out []llm.Request
	for _, r := range f.prov.Requests() {
		if r.Tag == tag {
			out = append(out, r)
		}
	}
	return out
}

// prompt is all the text of the (first) request for a tag.
func (f *fixture) prompt(tag string) string {
	f.t.Helper()
	rs := f.requests(tag)
	if len(rs) == 0 {
		f.t.Fatalf("no request for %s; requests: %v", tag, f.tags())
	}
	var b strings.Builder
	b.WriteString(rs[0].System)
	for _, m := range rs[0].Messages {
		b.WriteString("\n" + m.Text)
	}
	return b.String()
}

func (f *fixture) events() []debate.Event {
	evs, err := f.store.Load(context.Background(), f.id, 0)
	if err != nil {
		f.t.Fatal(err)
	}
	return evs
}

func result(t *testing.T, s *debate.State) perspectives.Result {
	t.Helper()
	var r perspectives.Result
	if err := json.Unmarshal(s.Verdict, &r); err != nil {
		t.Fatalf("verdict %s: %v", s.Verdict, err)
	}
	return r
}

func notes(s *debate.State, kind string) []debate.NoteEvent {
	var out []debate.NoteEvent
	for _, n := range s.Notes {
		if n.Kind == kind {
			out = append(out, n)
		}
	}
	return out
}

func golden(t *testing.T, name, got string) {
	t.Helper()
	path := filepath.Join("testdata", name)
	if *update {
		if err := os.MkdirAll("testdata", 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(path, []byte(got), 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	want, err := os.ReadFile(path)
	if err != nil {
		t.Fatalf("%v (run with -update to create it)", err)
	}
	if got != string(want) {
		t.Errorf("%s differs from the golden file (run with -update to accept):\n--- got\n%s\n--- want\n%s", name, got, want)
	}
}

// answers is a Human that answers checkpoints by id and records what it saw.
type answers struct {
	mu   sync.Mutex
	by   map[string]debate.CheckpointAnswered
	seen []debate.CheckpointReached
}

func (a *answers) Checkpoint(_ context.Context, _ *debate.State, c debate.CheckpointReached) (debate.CheckpointAnswered, error) {
	a.mu.Lock()
	defer a.mu.Unlock()
	a.seen = append(a.seen, c)
	ans, ok := a.by[c.ID]
	if !ok {
		return debate.CheckpointAnswered{}, fmt.Errorf("test human has no answer for checkpoint %s", c.ID)
	}
	return ans, nil
}

// barrierProvider holds requests whose tag has a prefix until n of them are
// in flight, proving that they run concurrently.
type barrierProvider struct {
	llm.Provider
	prefix string
	n      int

	mu      sync.Mutex
	arrived int
	all     chan struct{}
	failed  bool
}

func (b *barrierProvider) Stream(ctx context.Context, req llm.Request) iter.Seq2[llm.Chunk, error] {
	if strings.HasPrefix(req.Tag, b.prefix) {
		b.mu.Lock()
		b.arrived++
		if b.arrived == b.n {
			close(b.all)
		}
		b.mu.Unlock()
		select {
		case <-b.all:
		case <-time.After(5 * time.Second):
			b.mu.Lock()
			b.failed = true
			b.mu.Unlock()
		}
	}
	return b.Provider.Stream(ctx, req)
}
