package bullbear

import (
	"fmt"

	"github.com/parleyhq/parley/internal/debate"
)

// HintApplies names the phase in which a hint for agent given now takes
// effect (spec: "hints apply to the next phase the target agent
// participates in"): the phase of the agent's first turn that has not
// started yet, since a turn that has started was prompted already. It is ""
// when the agent takes no more turns (the moderator takes no hints at all).
func (Format) HintApplies(s *debate.State, agent string) string {
	if agent != AgentBull && agent != AgentBear {
		return ""
	}
	p, err := protocolFor(s.Topic, s.Options)
	if err != nil {
		return ""
	}
	type turn struct{ id, label string }
	turns := []turn{
		{researchID(agent), "Phase 1 (Research)"},
		{openingID(agent), fmt.Sprintf("Phase 2 (%s Opening)", title(agent))},
	}
	for r := 1; r <= p.Rounds(); r++ {
		label := fmt.Sprintf("Phase 3 (%s Rebuttal)", title(agent))
		if p.Rounds() > 1 {
			label = fmt.Sprintf("Phase 3 (%s Rebuttal, Round %d)", title(agent), r)
		}
		turns = append(turns, turn{rebuttalID(r, agent), label})
	}
	// A reconciliation is asked only when the fact check found a figure off.
	if fc, ok := factCheckNote(s); ok && len(fc.Discrepancies) > 0 {
		turns = append(turns, turn{reconcileID(agent), "Phase 4 (Reconciliation)"})
	}
	for _, t := range turns {
		if s.Turns[t.id] == nil {
			return t.label
		}
	}
	return ""
}
