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

// turnSchema is the one structured-output schema of every request of a
// formal debate, the debaters' and the moderator's: the fields of a debater's
// turn, of the moderator's framework review and of its verdict, each party
// filling its own and leaving the others empty.
//
// Why one schema for three kinds of reply: providers read a request's
// structured-output schema before its system prompt (OpenAI's response
// format, Anthropic's output format or forced tool), so the moderator's
// requests, each with a schema of its own, shared no cached prefix with the
// debaters' (64% of request bytes in a shared prefix at one round). Sending
// no schema at all (the schemas as text in the prompts, Parse checking each
// reply) would share as much, but it gives up constrained decoding: every
// malformed reply then costs a repair request, and the runner marks only a
// turn with a schema as structured, so the live views would stream raw JSON.
// A shared schema keeps the provider's guarantee and the live views for the
// price of about 200 cached tokens of moderator fields in each debater
// request (and an empty array or string per unused field in each reply).
func turnSchema() *llm.Schema {
	move := object(map[string]any{
		"act":         map[string]any{"type": "string", "enum": acts},
		"replies_to":  str("the id of the open move or statement this move answers (P1, O2, P2.1); empty only for PRO's opening claim"),
		"statement":   str("claim: the statement φ you assert; other acts: empty (the protocol fills in the statement the act is about)"),
		"premises":    strArr("since: the reasons S, one statement each; other acts: empty"),
		"explanation": str("the expanded argument with its evidence, citing the shared context where it helps"),
	})
	rel := object(map[string]any{
		"move":   str("the counter-claim's move id"),
		"kind":   map[string]any{"type": "string", "enum": []string{string(gradual.Rebut), string(gradual.Undercut), kindNone}},
		"reason": str("one sentence: why this classification"),
	})
	rej := object(map[string]any{
		"id":     str("the statement id (P2.1, O3)"),
		"reason": str("straw man, ad hominem or irrelevant: say which and why"),
	})
	pt := object(map[string]any{"id": str("an argument id such as A4"), "point": str("why it is valid")})
	arr := func(items map[string]any, desc string) map[string]any {
		return map[string]any{"type": "array", "items": items, "description": desc}
	}
	// The fields' meanings are in each party's task; here only who fills
	// them, so that the schema every request carries stays short.
	return schema("formal_turn", "One turn of a formal persuasion dialogue. Fill only the fields of your turn "+
		"(PRO and OPP: moves, final_statement; MOD's framework review: relations, rejected; MOD's verdict: the others); leave the rest empty", object(map[string]any{
		"moves":           arr(move, "PRO and OPP: the speech acts of the turn"),
		"final_statement": str("PRO and OPP, closing round only: your final position"),
		"relations":       arr(rel, "MOD's framework review: every counter-claim to classify, once"),
		"rejected":        arr(rej, "MOD's framework review: statements rejected as straw man, ad hominem or irrelevant; usually none"),
		"rationale":       str("MOD's verdict: why the winning side's arguments were stronger, citing argument ids"),
		"valid_points":    arr(pt, "MOD's verdict: valid points of the losing side"),
		"consensus":       str("MOD's verdict: a practical recommendation"),
		"revisit":         strArr("MOD's verdict: conditions for revisiting it"),
		"unaddressed":     strArr("MOD's verdict: critical questions left unaddressed"),
		"biases":          str("MOD's verdict: how each side's bias shows and how you accounted for it"),
		"focus":           str("MOD's verdict: the focused role's viewpoint, when a role is in focus"),
	}))
}

// turnReply is a reply under turnSchema. Every party's fields decode (the
// schema makes each reply carry all of them); Parse keeps the fields of the
// party that answered.
type turnReply struct {
	Reply
	Classification
	Judgment
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
