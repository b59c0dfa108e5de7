package council

import (
	"encoding/json"
	"slices"

	"github.com/parleyhq/parley/internal/llm"
)

// Positions an analyst can take.
const (
	GO   = "GO"
	NOGO = "NOGO"
)

// Position is one analyst's typed answer in one debate round.
type Position struct {
	Agent       string   `json:"agent"`
	Name        string   `json:"name"`
	Round       int      `json:"round"`
	Position    string   `json:"position"` // GO | NOGO
	Confidence  float64  `json:"confidence"`
	Rationale   string   `json:"rationale"`
	Challenges  []string `json:"challenges"`
	PersuadedBy string   `json:"persuaded_by,omitempty"`
	// Fallback marks the spec's fallback position (NOGO, confidence 0) taken
	// when the reply could not be parsed even after a repair.
	Fallback       bool   `json:"fallback,omitempty"`
	FallbackReason string `json:"fallback_reason,omitempty"`
}

// reply is what a debate turn answers; Position is built from it.
type reply struct {
	Position    string   `json:"position"`
	Confidence  float64  `json:"confidence"`
	Rationale   string   `json:"rationale"`
	Challenges  []string `json:"challenges"`
	PersuadedBy string   `json:"persuaded_by"`
}

// Round is one full round-robin of the debate.
type Round struct {
	Round             int        `json:"round"`
	Positions         []Position `json:"positions"`
	ConsensusReached  bool       `json:"consensus_reached"`
	ConsensusPosition string     `json:"consensus_position,omitempty"`
}

// CheckConsensus reports whether every position in a round agrees, and on what.
func CheckConsensus(ps []Position) (bool, string) {
	if len(ps) == 0 {
		return false, ""
	}
	for _, p := range ps[1:] {
		if p.Position != ps[0].Position {
			return false, ""
		}
	}
	return true, ps[0].Position
}

// MajorityVote decides from the final round; a tie is NOGO.
func MajorityVote(rounds []Round) string {
	if len(rounds) == 0 {
		return NOGO
	}
	goes, nogos := tally(rounds[len(rounds)-1].Positions)
	if goes > nogos {
		return GO
	}
	return NOGO
}

func tally(ps []Position) (goes, nogos int) {
	for _, p := range ps {
		if p.Position == GO {
			goes++
		} else {
			nogos++
		}
	}
	return goes, nogos
}

// positionSchema is an agent's reply. confidence carries no minimum and
// maximum: OpenAI's strict mode refuses them for fine-tuned models and
// Anthropic's structured outputs for every model; the description and the
// prompt say 0 to 1, and Parse enforces it.
func positionSchema() *llm.Schema {
	b, _ := json.Marshal(map[string]any{
		"type": "object",
		"properties": map[string]any{
			"position":     map[string]any{"type": "string", "enum": []string{GO, NOGO}},
			"confidence":   map[string]any{"type": "number", "description": "0 to 1"},
			"rationale":    map[string]any{"type": "string"},
			"challenges":   map[string]any{"type": "array", "items": map[string]any{"type": "string"}},
			"persuaded_by": map[string]any{"type": "string", "description": "who and which argument changed your position; empty when it did not change"},
		},
		"required":             slices.Sorted(slices.Values([]string{"position", "confidence", "rationale", "challenges", "persuaded_by"})),
		"additionalProperties": false,
	})
	return &llm.Schema{Name: "debate_position", Description: "Your position in this debate round", JSON: b}
}
