package bullbear_test

import (
	"encoding/json"
	"testing"

	"github.com/parleyhq/parley/internal/debate"
	"github.com/parleyhq/parley/internal/format/bullbear"
)

// A hint applies in the phase of the agent's first turn that has not
// started: typed while the bull's opening streams, it reaches the bull's
// rebuttal.
func TestHintApplies(t *testing.T) {
	for _, deep := range []bool{false, true} {
		opts := bullbear.Options{Ticker: "NVDA", Deep: deep}
		raw, err := json.Marshal(opts)
		if err != nil {
			t.Fatal(err)
		}
		s := &debate.State{Topic: "NVDA", Options: raw, Turns: map[string]*debate.Turn{}}
		start := func(id string) {
			s.Turns[id] = &debate.Turn{TurnRef: debate.TurnRef{ID: id}, Status: debate.TurnRunning}
		}
		f := bullbear.Format{}
		check := func(agent, want string) {
			t.Helper()
			if got := f.HintApplies(s, agent); got != want {
				t.Errorf("deep %v, %s: %q, want %q", deep, agent, got, want)
			}
		}
		check("bull", "Phase 1 (Research)")
		check("moderator", "")
		start("research/bull")
		start("research/bear")
		check("bull", "Phase 2 (Bull Opening)")
		start("opening/bull")
		rebuttal := "Phase 3 (Bull Rebuttal)"
		if deep {
			rebuttal = "Phase 3 (Bull Rebuttal, Round 1)"
		}
		check("bull", rebuttal)
		check("bear", "Phase 2 (Bear Opening)")
		start("rebuttal/1/bull")
		if deep {
			check("bull", "Phase 3 (Bull Rebuttal, Round 2)")
			start("rebuttal/2/bull")
		}
		check("bull", "")
	}
}
