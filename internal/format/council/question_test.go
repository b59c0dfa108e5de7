package council

import (
	"context"
	"encoding/json"
	"reflect"
	"testing"
	"time"

	"github.com/parleyhq/parley/internal/setup"
)

// TestAsksIsQuestionOfSetup: the question a council request asks, said
// without looking its subject up, is the question of the options Setup
// builds, whether the subject is a question, a listed ticker or a
// ticker-like word nobody lists; requests that differ ask differently.
func TestAsksIsQuestionOfSetup(t *testing.T) {
	t.Setenv("XDG_CACHE_HOME", t.TempDir())
	ctx := context.Background()
	env := setup.Env{Getenv: func(string) string { return "" }, Now: func() time.Time { return time.Date(2026, 11, 25, 9, 0, 0, 0, time.UTC) }}
	rounds := func(name string) bool { return name == "max-rounds" }
	reqs := map[string]setup.Request{
		"question":           {Topic: "Should we rewrite the billing service in Go?", Values: setup.Values{"risk": "neutral"}},
		"agents":             {Topic: "Should we rewrite the billing service in Go?", Values: setup.Values{"risk": "averse", "agents": []string{"cfo", "cto", "ceo"}}},
		"rounds":             {Topic: "Should we rewrite the billing service in Go?", Given: rounds, Values: setup.Values{"risk": "neutral", "max-rounds": 2}},
		"listed":             {Topic: "NVDA", Values: setup.Values{"risk": "neutral"}},
		"listed, --snapshot": {Topic: "nvda", Values: setup.Values{"risk": "neutral", "snapshot": true}},
		"not listed":         {Topic: "ZZZZ", Values: setup.Values{"risk": "neutral"}},
	}
	asked := map[string]string{}
	for name, req := range reqs {
		q, err := Format{}.Asks(env, &req)
		if err != nil {
			t.Fatalf("%s: Asks: %v", name, err)
		}
		opts, err := Format{}.Setup(ctx, env, &req)
		if err != nil {
			t.Fatalf("%s: Setup: %v", name, err)
		}
		got, err := Format{}.Question(opts)
		if err != nil {
			t.Fatal(err)
		}
		var x, y any
		if err := json.Unmarshal(q, &x); err != nil {
			t.Fatal(err)
		}
		if err := json.Unmarshal(got, &y); err != nil {
			t.Fatal(err)
		}
		if !reflect.DeepEqual(x, y) {
			t.Errorf("%s: Asks %s, the question of Setup's options %s", name, q, got)
		}
		asked[name] = string(q)
	}
	for _, pair := range [][2]string{{"question", "agents"}, {"question", "rounds"}, {"question", "listed"}} {
		if asked[pair[0]] == asked[pair[1]] {
			t.Errorf("%s and %s ask the same question %s", pair[0], pair[1], asked[pair[0]])
		}
	}
	live := setup.Env{Getenv: func(k string) string {
		if k == "SEC_USER_AGENT" {
			return "Parley Test test@example.com"
		}
		return ""
	}}
	q, err := Format{}.Asks(live, &setup.Request{Topic: "NVDA", Values: setup.Values{"risk": "neutral"}})
	if err != nil {
		t.Fatal(err)
	}
	if string(q) == asked["listed"] {
		t.Errorf("EDGAR and the snapshot ask the same question %s", q)
	}
}
