package formal

import (
	"encoding/json"
	"fmt"
	"regexp"
	"slices"
	"strings"
	"sync"

	"github.com/parleyhq/parley/internal/argue/gradual"
	"github.com/parleyhq/parley/internal/debate"
	"github.com/parleyhq/parley/internal/llm"
)

// Class is the moderator's classification of one counter-claim.
type Class struct {
	Move   string `json:"move"`
	Kind   string `json:"kind"` // rebut | undercut | none
	Reason string `json:"reason"`
	// By says who settled it: "moderator", or "default" when the
	// moderator's classification could not be used.
	By string `json:"by,omitempty"`
}

// Kind "none": the counter-claim does not bear on what it answers.
const kindNone = "none"

// Rejection is an argument the moderator rejects under the spec's rules 1
// and 8: a straw man, an ad hominem, or one irrelevant to the proposition.
type Rejection struct {
	ID     string `json:"id"` // statement id: P2.1, O3
	Reason string `json:"reason"`
}

// Classification is the moderator's framework turn: the relations the moves
// leave open, and the arguments it rejects.
type Classification struct {
	Relations []Class     `json:"relations"`
	Rejected  []Rejection `json:"rejected"`
}

// Point is a valid point of the losing side, named by argument id.
type Point struct {
	ID    string `json:"id"`
	Point string `json:"point"`
}

// Judgment is the moderator's verdict turn: the prose around the scores.
// The winner is not the moderator's to pick: it follows from the scores.
type Judgment struct {
	Rationale   string   `json:"rationale"`
	ValidPoints []Point  `json:"valid_points"`
	Consensus   string   `json:"consensus"`
	Revisit     []string `json:"revisit"`
	Unaddressed []string `json:"unaddressed"`
	Biases      string   `json:"biases"`
	Focus       string   `json:"focus"`
}

func str(desc string) map[string]any { return map[string]any{"type": "string", "description": desc} }

func strArr(desc string) map[string]any {
	return map[string]any{"type": "array", "items": map[string]any{"type": "string"}, "description": desc}
}

// object is a strict JSON schema object: every property required, no others.
func object(props map[string]any) map[string]any {
	req := make([]string, 0, len(props))
	for k := range props {
		req = append(req, k)
	}
	slices.Sort(req)
	return map[string]any{"type": "object", "properties": props, "required": req, "additionalProperties": false}
}

func schema(name, desc string, v map[string]any) *llm.Schema {
	b, _ := json.Marshal(v)
	return &llm.Schema{Name: name, Description: desc, JSON: b}
}

func movesSchema() *llm.Schema {
	move := object(map[string]any{
		"act":         map[string]any{"type": "string", "enum": acts},
		"replies_to":  str("the id of the open move or statement this move answers (P1, O2, P2.1); empty only for PRO's opening claim"),
		"statement":   str("claim: the statement φ you assert; other acts: empty (the protocol fills in the statement the act is about)"),
		"premises":    strArr("since: the reasons S, one statement each; other acts: empty"),
		"explanation": str("the expanded argument with its evidence, citing the shared context where it helps"),
	})
	return schema("formal_moves", "The speech acts of one turn of a formal persuasion dialogue", object(map[string]any{
		"moves":           map[string]any{"type": "array", "items": move},
		"final_statement": str("closing round only: your final position; otherwise empty"),
	}))
}

func classifySchema() *llm.Schema {
	rel := object(map[string]any{
		"move":   str("the counter-claim's move id"),
		"kind":   map[string]any{"type": "string", "enum": []string{string(gradual.Rebut), string(gradual.Undercut), kindNone}},
		"reason": str("one sentence: why this classification"),
	})
	rej := object(map[string]any{
		"id":     str("the statement id (P2.1, O3)"),
		"reason": str("straw man, ad hominem or irrelevant: say which and why"),
	})
	return schema("framework_review", "The moderator's classification of counter-claims as rebutting or undercutting attacks, and the arguments it rejects", object(map[string]any{
		"relations": map[string]any{"type": "array", "items": rel},
		"rejected":  map[string]any{"type": "array", "items": rej},
	}))
}

func verdictSchema() *llm.Schema {
	pt := object(map[string]any{"id": str("an argument id such as A4"), "point": str("why it is valid")})
	return schema("formal_verdict", "The moderator's judgment of a formal debate", object(map[string]any{
		"rationale":    str("why the winning side's arguments were stronger, citing argument ids (A1, A3, ...)"),
		"valid_points": map[string]any{"type": "array", "items": pt, "description": "valid points of the losing side, by argument id"},
		"consensus":    str("a practical recommendation that incorporates the best of both sides"),
		"revisit":      strArr("conditions (new evidence or changes) under which the verdict should be revisited"),
		"unaddressed":  strArr("critical questions left unaddressed"),
		"biases":       str("how each side's stated bias shows in its arguments and how you accounted for it"),
		"focus":        str("only when a role is in focus: the debate seen from that role's viewpoint; otherwise empty"),
	}))
}

var argIDRe = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`\bA[0-9]+\b`) })

func checkClassification(c *Classification, open []*Move, d *dialogue) error {
	phi := d.firstClaim(PRO)
	rejected := map[string]bool{}
	for i := range c.Rejected {
		r := &c.Rejected[i]
		r.ID = strings.TrimSpace(r.ID)
		switch st := d.stmts[r.ID]; {
		case st == nil:
			return fmt.Errorf("%w: rejected %q is not a statement of the debate (a claim such as O3 or a premise such as P2.1)", debate.ErrRepairable, r.ID)
		case r.ID == phi:
			return fmt.Errorf("%w: %s is the proposition under debate: judge it by its support and attacks, do not reject it", debate.ErrRepairable, r.ID)
		case rejected[r.ID]:
			return fmt.Errorf("%w: %s is rejected twice", debate.ErrRepairable, r.ID)
		case strings.TrimSpace(r.Reason) == "":
			return fmt.Errorf("%w: say why %s is rejected", debate.ErrRepairable, r.ID)
		}
		rejected[r.ID] = true
	}
	want := map[string]bool{}
	for _, m := range open {
		want[m.ID] = true
	}
	seen := map[string]bool{}
	for i := range c.Relations {
		r := &c.Relations[i]
		r.Move = strings.TrimSpace(r.Move)
		r.Kind = strings.ToLower(strings.TrimSpace(r.Kind))
		switch {
		case !want[r.Move]:
			return fmt.Errorf("%w: %q is not one of the counter-claims to classify (%s)", debate.ErrRepairable, r.Move, strings.Join(ids(open), ", "))
		case seen[r.Move]:
			return fmt.Errorf("%w: %s is classified twice", debate.ErrRepairable, r.Move)
		case r.Kind != string(gradual.Rebut) && r.Kind != string(gradual.Undercut) && r.Kind != kindNone:
			return fmt.Errorf("%w: %s: kind must be rebut, undercut or none, got %q", debate.ErrRepairable, r.Move, r.Kind)
		}
		seen[r.Move] = true
	}
	var missing []string
	for _, m := range open {
		if !seen[m.ID] {
			missing = append(missing, m.ID)
		}
	}
	if len(missing) > 0 {
		return fmt.Errorf("%w: classify every counter-claim; missing: %s", debate.ErrRepairable, strings.Join(missing, ", "))
	}
	return nil
}

func checkJudgment(j *Judgment, fw *framework) error {
	cited := argIDRe().FindAllString(j.Rationale, -1)
	switch {
	case strings.TrimSpace(j.Rationale) == "":
		return fmt.Errorf("%w: rationale is empty", debate.ErrRepairable)
	case len(cited) == 0 && fw.graph.Len() > 0:
		return fmt.Errorf("%w: the rationale must cite argument ids (A1, A2, ...) from the framework", debate.ErrRepairable)
	case strings.TrimSpace(j.Consensus) == "":
		return fmt.Errorf("%w: consensus is empty", debate.ErrRepairable)
	case len(j.Revisit) == 0:
		return fmt.Errorf("%w: give at least one condition for revisiting the verdict", debate.ErrRepairable)
	}
	for _, id := range cited {
		if _, ok := fw.graph.Argument(id); !ok {
			return fmt.Errorf("%w: the rationale cites %s, which is not an argument of the framework (A1..A%d)", debate.ErrRepairable, id, fw.graph.Len())
		}
	}
	for _, p := range j.ValidPoints {
		if _, ok := fw.graph.Argument(strings.TrimSpace(p.ID)); !ok {
			return fmt.Errorf("%w: valid point %q names no argument of the framework (A1..A%d)", debate.ErrRepairable, p.ID, fw.graph.Len())
		}
	}
	return nil
}

func ids(ms []*Move) []string {
	out := make([]string, len(ms))
	for i, m := range ms {
		out[i] = m.ID
	}
	return out
}
