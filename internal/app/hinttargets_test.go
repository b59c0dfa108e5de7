package app

import (
	"context"
	"encoding/json"
	"errors"
	"slices"
	"strings"
	"testing"

	"github.com/parleyhq/parley/internal/debate"
	"github.com/parleyhq/parley/internal/format/council"
	"github.com/parleyhq/parley/internal/format/crux"
)

// TestHintBeforeFirstTurn: a hint to an agent the debate's format knows
// (bullbear's bull and bear, council's analysts, crux's personas) is
// resolved before that agent has had a turn; a name the debate does not
// have is still refused, naming the agents it has.
func TestHintBeforeFirstTurn(t *testing.T) {
	ctx := context.Background()
	a := testApp(t, nil)
	s, err := a.Start(ctx, offlineBullbear("NVDA"))
	if err != nil {
		t.Fatal(err)
	}
	st, _, err := a.Load(ctx, s.ID)
	if err != nil {
		t.Fatal(err)
	}
	if len(st.Debaters()) != 0 {
		t.Fatalf("a debate just created has had turns: %v", st.Debaters())
	}
	if got := a.HintTargets(st); !slices.Equal(got, []string{"bear", "bull"}) {
		t.Errorf("bullbear targets before any turn: %v, want bear, bull", got)
	}
	target, text, err := ParseHint(a.HintTargets(st), "bull: look at margins")
	if err != nil || target != "bull" || text != "look at margins" {
		t.Errorf("bull: look at margins before the bull spoke: %q %q %v", target, text, err)
	}
	_, _, err = ParseHint(a.HintTargets(st), "pelican: look at margins")
	var he *HintError
	if !errors.As(err, &he) || !strings.Contains(err.Error(), "bear, bull") {
		t.Errorf("unknown agent: %v, want the error naming bear, bull", err)
	}

	opts, _ := json.Marshal(council.Options{Agents: council.DefaultAgents(), MaxRounds: 2, Risk: "neutral"})
	cs := &debate.State{Format: council.Name, Topic: "Should we buy ACME?", Options: opts}
	var want []string
	for _, ag := range council.DefaultAgents() {
		want = append(want, ag.ID)
	}
	slices.Sort(want)
	if got := a.HintTargets(cs); !slices.Equal(got, want) {
		t.Errorf("council targets before any turn: %v, want %v", got, want)
	}

	copts, _ := json.Marshal(crux.Options{Personas: []crux.Persona{{ID: "skeptic", Name: "Skeptic", Viewpoint: "no"}, {ID: "optimist", Name: "Optimist", Viewpoint: "yes"}}, DiscoveryMin: 2, DiscoveryMax: 6})
	xs := &debate.State{Format: crux.Name, Topic: "Is Bitcoin digital gold?", Options: copts}
	if got := a.HintTargets(xs); !slices.Equal(got, []string{"optimist", "skeptic"}) {
		t.Errorf("crux targets with the personas given: %v, want optimist, skeptic", got)
	}
}
