package perspectives

import (
	"encoding/json"
	"slices"

	"github.com/parleyhq/parley/internal/llm"
)

// Analysis is the moderator's reading of the prompt.
type Analysis struct {
	Domain             string   `json:"domain"`
	Constraints        []string `json:"constraints"`
	Binary             bool     `json:"binary"`
	Perspectives       []string `json:"perspectives"`
	Rationale          string   `json:"rationale"`
	ClarifyingQuestion string   `json:"clarifying_question"`
}

// Argument is a debater's argument or rebuttal.
type Argument struct {
	Perspective  string   `json:"perspective"`
	Content      string   `json:"content"`
	RespondingTo []string `json:"responding_to,omitempty"`
}

// Evaluation is the moderator's assessment at the end of a round.
type Evaluation struct {
	Summary     string   `json:"summary"`
	Agreement   bool     `json:"agreement"`
	Stagnation  bool     `json:"stagnation"`
	ClearWinner string   `json:"clear_winner"`
	NewPoints   bool     `json:"new_points"`
	Decision    string   `json:"decision"` // continue | conclude
	Reason      string   `json:"reason"`
	OffTopic    []string `json:"off_topic"`
	// OpenPoints are the claims still contested after the round. Later
	// rounds see older rounds only through the summary and these, so that
	// prompts grow with the number of rounds, not with their text.
	OpenPoints []string `json:"open_points"`
}

// Converged reports whether the evaluation found a convergence signal.
func (e Evaluation) Converged() bool {
	return e.Agreement || e.Stagnation || e.ClearWinner != ""
}

// PerspectiveSummary is one perspective's part of the synthesis.
type PerspectiveSummary struct {
	Name              string   `json:"name"`
	KeyArguments      []string `json:"key_arguments"`
	TradeOffsAccepted []string `json:"trade_offs_accepted"`
}

// Dissent is a perspective that disagrees with the recommendation.
type Dissent struct {
	Perspective string `json:"perspective"`
	View        string `json:"view"`
}

// Synthesis is the moderator's final document content.
type Synthesis struct {
	Perspectives   []PerspectiveSummary `json:"perspectives"`
	Agreement      []string             `json:"agreement"`
	Tensions       []string             `json:"tensions"`
	Recommendation string               `json:"recommendation"`
	Confidence     string               `json:"confidence"` // High | Medium | Low
	Caveats        []string             `json:"caveats"`
	Dissent        []Dissent            `json:"dissent"`
}

func strArr() map[string]any {
	return map[string]any{"type": "array", "items": map[string]any{"type": "string"}}
}

func object(props map[string]any) json.RawMessage {
	req := make([]string, 0, len(props))
	for k := range props {
		req = append(req, k)
	}
	slices.Sort(req)
	b, _ := json.Marshal(map[string]any{"type": "object", "properties": props, "required": req, "additionalProperties": false})
	return b
}

func analysisSchema() *llm.Schema {
	return &llm.Schema{Name: "prompt_analysis", Description: "The moderator's analysis of the question and the perspectives assigned", JSON: object(map[string]any{
		"domain":              map[string]any{"type": "string", "description": "architecture, data, security, UX, process, business, ..."},
		"constraints":         strArr(),
		"binary":              map[string]any{"type": "boolean", "description": "true when the question is a choice between two options"},
		"perspectives":        strArr(),
		"rationale":           map[string]any{"type": "string"},
		"clarifying_question": map[string]any{"type": "string", "description": "empty unless the question is too vague to debate"},
	})}
}

func synthesisSchema() *llm.Schema {
	ps := object(map[string]any{"name": map[string]any{"type": "string"}, "key_arguments": strArr(), "trade_offs_accepted": strArr()})
	ds := object(map[string]any{"perspective": map[string]any{"type": "string"}, "view": map[string]any{"type": "string"}})
	return &llm.Schema{Name: "synthesis", Description: "The decision document's content", JSON: object(map[string]any{
		"perspectives":   map[string]any{"type": "array", "items": ps},
		"agreement":      strArr(),
		"tensions":       strArr(),
		"recommendation": map[string]any{"type": "string"},
		"confidence":     map[string]any{"type": "string", "enum": []string{"High", "Medium", "Low"}},
		"caveats":        strArr(),
		"dissent":        map[string]any{"type": "array", "items": ds},
	})}
}
