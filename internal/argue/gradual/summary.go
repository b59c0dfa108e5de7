package gradual

import (
	"cmp"
	"slices"
)

// SurvivalThreshold is the formal spec's line for a surviving argument:
// score strictly above it.
const SurvivalThreshold = 0.5

// SideSummary aggregates one side's scores for the moderator's judgment
// ("which arguments survived", "which side has stronger surviving
// arguments").
type SideSummary struct {
	Side      Side
	Arguments int
	Surviving int      // arguments scoring above SurvivalThreshold
	Mean      float64  // mean score of all the side's arguments (0 if none)
	Ranked    []string // the side's argument ids, strongest first (ties by id)
}

// Summarise groups scores by side, in the order PRO, OPP, MOD, then any
// other side, skipping sides without arguments. Arguments missing from
// scores count as 0.
func Summarise(g *Graph, scores map[string]float64) []SideSummary {
	bySide := map[Side]*SideSummary{}
	var order []Side
	for _, s := range []Side{Pro, Opp, Mod} {
		bySide[s] = &SideSummary{Side: s}
		order = append(order, s)
	}
	for _, a := range g.args {
		s, ok := bySide[a.Side]
		if !ok {
			s = &SideSummary{Side: a.Side}
			bySide[a.Side] = s
			order = append(order, a.Side)
		}
		s.Arguments++
		s.Mean += scores[a.ID]
		if scores[a.ID] > SurvivalThreshold {
			s.Surviving++
		}
		s.Ranked = append(s.Ranked, a.ID)
	}
	var out []SideSummary
	for _, side := range order {
		s := bySide[side]
		if s.Arguments == 0 {
			continue
		}
		s.Mean /= float64(s.Arguments)
		slices.SortFunc(s.Ranked, func(x, y string) int {
			if c := cmp.Compare(scores[y], scores[x]); c != 0 {
				return c
			}
			return cmp.Compare(x, y)
		})
		out = append(out, *s)
	}
	return out
}
