package perspectives_test

import (
	"context"
	"fmt"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/parleyhq/parley/internal/debate"
	"github.com/parleyhq/parley/internal/format/formattest"
	"github.com/parleyhq/parley/internal/format/perspectives"
	"github.com/parleyhq/parley/internal/llm/script"
)

const topic = "Should we use Redis or PostgreSQL for caching?"

// The three perspectives most tests assign, in the analysis's order.
const (
	perf = "Performance Advocate"
	ops  = "Operational Simplicity"
	flex = "Future Flexibility"
)

var created = time.Date(2026, 1, 15, 10, 30, 0, 0, time.UTC)

func slug(name string) string { return strings.ToLower(strings.ReplaceAll(name, " ", "-")) }

func analysisReply(ps ...string) *script.Reply {
	return &script.Reply{JSON: formattest.JSON(map[string]any{
		"domain": "data", "constraints": []string{"the team runs PostgreSQL already"}, "binary": false,
		"perspectives": ps, "rationale": "latency against operations against evolution", "clarifying_question": "",
	})}
}

func evalReply(decision, summary string, offTopic ...string) *script.Reply {
	if offTopic == nil {
		offTopic = []string{}
	}
	return &script.Reply{JSON: formattest.JSON(map[string]any{
		"summary": summary, "agreement": decision == "conclude", "stagnation": false, "clear_winner": "",
		"new_points": decision == "continue", "decision": decision, "reason": map[string]string{"conclude": "the recommendations align", "continue": "new points are still emerging"}[decision], "off_topic": offTopic,
	})}
}

func synthesisReply(confidence string) *script.Reply {
	return &script.Reply{JSON: formattest.JSON(perspectives.Synthesis{
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
	*formattest.Debate
	opts perspectives.Options
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
	d := formattest.New(t, formattest.Setup{Format: perspectives.Format{}, ID: "DEB-test1", Topic: topic, Created: created, Options: opts}, rules...)
	return &fixture{Debate: d, opts: opts}
}

func result(t *testing.T, s *debate.State) perspectives.Result {
	t.Helper()
	return formattest.Verdict[perspectives.Result](t, s)
}

func notes(s *debate.State, kind string) []debate.NoteEvent { return formattest.Notes(s, kind) }

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
