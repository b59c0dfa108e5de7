package bullbear

import (
	"context"
	"encoding/json"
	"reflect"
	"testing"
	"time"

	"github.com/parleyhq/parley/internal/setup"
)

// TestAsksIsQuestionOfSetup: the question a request asks, said without
// I/O, is the question of the options Setup builds from it, for each of
// the settings a request decides; and requests that differ in one ask
// different questions.
func TestAsksIsQuestionOfSetup(t *testing.T) {
	t.Setenv("XDG_CACHE_HOME", t.TempDir())
	ctx := context.Background()
	env := setup.Env{Getenv: func(string) string { return "" }, Now: func() time.Time { return time.Date(2026, 11, 25, 9, 0, 0, 0, time.UTC) }}
	reqs := map[string]setup.Request{
		"offline":           {Topic: "NVDA", Offline: true},
		"lower case":        {Topic: " aapl ", Offline: true},
		"deep":              {Topic: "NVDA", Offline: true, Deep: true},
		"framework":         {Topic: "NVDA", Offline: true, Framework: "Altman"},
		"hints":             {Topic: "GOOGL", Offline: true, Hints: []string{"both: mind the cash flow"}},
		"snapshot":          {Topic: "NVDA", Snapshot: true},
		"no SEC_USER_AGENT": {Topic: "NVDA"},
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
	// The topic is compared by the front-ends, and the data flags all ask
	// for the snapshot: the rest differ.
	for _, pair := range [][2]string{{"offline", "deep"}, {"offline", "framework"}, {"offline", "hints"}} {
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
	q, err := Format{}.Asks(live, &setup.Request{Topic: "NVDA"})
	if err != nil {
		t.Fatal(err)
	}
	if string(q) == asked["no SEC_USER_AGENT"] {
		t.Errorf("EDGAR and the snapshot ask the same question %s", q)
	}
	if _, err := (Format{}).Asks(env, &setup.Request{Topic: "NVDA", Offline: true, Hints: []string{"moderator: favour the bull"}}); err == nil {
		t.Error("a hint for the moderator was accepted")
	}
}
