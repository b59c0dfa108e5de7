package crux

import (
	"encoding/json"
	"fmt"
	"regexp"
	"slices"
	"strings"
	"sync"
	"time"

	"github.com/parleyhq/parley/internal/llm"
)

// Stage is where a crux thread stands.
type Stage string

// The stage pipeline.
const (
	Discovery Stage = "DISCOVERY"
	CruxLock  Stage = "CRUX_LOCK"
	Evidence  Stage = "EVIDENCE"
	Converged Stage = "CONVERGED"
)

// Dialogue moves.
const (
	MoveClaim     = "CLAIM"
	MoveQuestion  = "QUESTION"
	MovePropose   = "PROPOSE_QUESTION"
	MoveChallenge = "CHALLENGE"
	MoveConcede   = "CONCEDE"
	MoveCommit    = "COMMIT_POSITION"
	MoveSteelman  = "STEELMAN"
	MoveGrade     = "GRADE_STEELMAN"
	MoveFalsifier = "DECLARE_FALSIFIER"
	MoveEvidence  = "PROVIDE_EVIDENCE"
)

// AllowedMoves are the moves each stage accepts; any other move is refused.
var allowedMoves = map[Stage][]string{
	Discovery: {MoveClaim, MoveQuestion, MovePropose, MoveConcede},
	CruxLock:  {MoveCommit, MoveSteelman, MoveGrade, MoveFalsifier, MoveChallenge},
	Evidence:  {MoveEvidence, MoveChallenge, MoveConcede, MoveSteelman, MoveGrade, MoveCommit},
}

// AllowedMoves returns the moves a stage accepts.
func AllowedMoves(st Stage) []string { return slices.Clone(allowedMoves[st]) }

var allMoves = []string{MoveClaim, MoveQuestion, MovePropose, MoveChallenge, MoveConcede, MoveCommit, MoveSteelman, MoveGrade, MoveFalsifier, MoveEvidence}

// Sides and grades.
const (
	Yes        = "YES"
	No         = "NO"
	Uncertain  = "UNCERTAIN"
	Nuanced    = "NUANCED"
	Accurate   = "ACCURATE"
	Incomplete = "INCOMPLETE"
	Wrong      = "WRONG"
)

// Move is one agent message: a dialogue move and the fields it uses.
type Move struct {
	Move            string    `json:"move"`
	Content         string    `json:"content"`
	Target          string    `json:"target"`
	Question        string    `json:"question"`
	Side            string    `json:"side"`
	Confidence      float64   `json:"confidence"`
	TopClaim        TopClaim  `json:"top_claim"`
	Grade           string    `json:"grade"`
	Falsifier       Falsifier `json:"falsifier"`
	TopClaimChanged bool      `json:"top_claim_changed"`
}

// TopClaim is what an agent is really arguing.
type TopClaim struct {
	Statement  string  `json:"statement"`
	Side       string  `json:"side"` // YES | NO | NUANCED
	Confidence float64 `json:"confidence"`
}

// Falsifier is evidence that would change an agent's mind.
type Falsifier struct {
	Metric     string `json:"metric"`
	Threshold  string `json:"threshold"`
	Deadline   string `json:"deadline"`
	Reasoning  string `json:"reasoning"`
	Agent      string `json:"agent,omitempty"`
	ProposedBy string `json:"proposed_by,omitempty"` // "moderator" when proposed from the dialogue
}

// vague wording makes a falsifier unfalsifiable ("probably correlated").
var vagueRe = sync.OnceValue(func() *regexp.Regexp {
	return regexp.MustCompile(`(?i)\b(probably|maybe|perhaps|likely|unlikely|possibly|might|could|somewhat|significant(ly)?|substantial(ly)?|considerabl[ey]|a lot|lots|many|several|various|correlated|eventually|soon|someday|sometime|generally|tends? to|more or less|reasonabl[ey]|meaningful(ly)?|noticeabl[ey]|materially|a while)\b`)
})

var digitRe = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`[0-9]`) })
var quarterRe = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`^Q([1-4])\s+([0-9]{4})$`) })

// ValidateFalsifier checks that a falsifier is concrete: a named metric, a
// numeric threshold, a dated deadline after the debate began, and no vague
// wording in any of them.
func ValidateFalsifier(f Falsifier, after time.Time) error {
	metric, threshold, deadline := strings.TrimSpace(f.Metric), strings.TrimSpace(f.Threshold), strings.TrimSpace(f.Deadline)
	switch {
	case len(metric) < 3:
		return fmt.Errorf("the falsifier needs a metric: what is measured (for example \"Spot BTC ETF AUM\")")
	case threshold == "":
		return fmt.Errorf("the falsifier needs a threshold (for example \">= $100B\")")
	case !digitRe().MatchString(threshold):
		return fmt.Errorf("threshold %q has no number: give a measurable value (for example \">= $100B\" or \"drops > 50%%\")", threshold)
	}
	for name, v := range map[string]string{"metric": metric, "threshold": threshold, "deadline": deadline} {
		if w := vagueRe().FindString(v); w != "" {
			return fmt.Errorf("the %s %q is vague (%q): state what is measured, the number and the date", name, v, w)
		}
	}
	d, err := parseDeadline(deadline)
	if err != nil {
		return err
	}
	if !after.IsZero() && !d.After(after) {
		return fmt.Errorf("deadline %s is not after the debate began (%s): a falsifier must be checkable in the future", deadline, after.Format(time.DateOnly))
	}
	return nil
}

// parseDeadline reads a deadline as the last day it names: 2027-12-31,
// 2027-12, 2027 or Q4 2027.
func parseDeadline(s string) (time.Time, error) {
	if t, err := time.Parse(time.DateOnly, s); err == nil {
		return t, nil
	}
	if t, err := time.Parse("2006-01", s); err == nil {
		return t.AddDate(0, 1, -1), nil
	}
	if t, err := time.Parse("2006", s); err == nil {
		return t.AddDate(1, 0, -1), nil
	}
	if m := quarterRe().FindStringSubmatch(strings.ToUpper(s)); m != nil {
		t, _ := time.Parse("2006", m[2])
		q := int(m[1][0] - '0')
		return t.AddDate(0, 3*q, -1), nil
	}
	if s == "" {
		return time.Time{}, fmt.Errorf("the falsifier needs a deadline: a date such as 2027-12-31")
	}
	return time.Time{}, fmt.Errorf("deadline %q is not a date: use YYYY-MM-DD, YYYY-MM, YYYY or Q1-Q4 YYYY", s)
}

var auxRe = sync.OnceValue(func() *regexp.Regexp {
	return regexp.MustCompile(`(?i)^(is|are|was|were|will|would|does|do|did|can|could|should|shall|has|have|had|must|may)\b`)
})
var openRe = sync.OnceValue(func() *regexp.Regexp {
	return regexp.MustCompile(`(?i)^(how|what|which|when|why|who|whom|where|to what extent)\b`)
})

// ValidateBinaryQuestion checks that a crux question can be answered YES or
// NO: no open or measurement question ("How much...?").
func ValidateBinaryQuestion(q string) error {
	q = strings.TrimSpace(q)
	switch {
	case len(q) < 10:
		return fmt.Errorf("the question %q is too short: ask a full yes/no question", q)
	case openRe().MatchString(q):
		return fmt.Errorf("%q is an open or measurement question: ask one that is answered YES or NO (\"Is ...?\", \"Will ...?\")", q)
	case !auxRe().MatchString(q):
		return fmt.Errorf("%q is not a yes/no question: start it with Is, Are, Will, Does, Can, Should... ", q)
	case !strings.HasSuffix(q, "?"):
		return fmt.Errorf("%q is not a question: end it with a question mark", q)
	}
	return nil
}

func str(desc string) map[string]any {
	m := map[string]any{"type": "string"}
	if desc != "" {
		m["description"] = desc
	}
	return m
}

func num(desc string) map[string]any {
	return map[string]any{"type": "number", "description": desc}
}

func object(props map[string]any) map[string]any {
	req := make([]string, 0, len(props))
	for k := range props {
		req = append(req, k)
	}
	slices.Sort(req)
	return map[string]any{"type": "object", "properties": props, "required": req, "additionalProperties": false}
}

func schema(name, desc string, obj map[string]any) *llm.Schema {
	b, _ := json.Marshal(obj)
	return &llm.Schema{Name: name, Description: desc, JSON: b}
}

func falsifierObject() map[string]any {
	return object(map[string]any{
		"metric":    str("what is measured, e.g. \"Spot BTC ETF AUM\""),
		"threshold": str("a number with a comparator, e.g. \">= $100B\""),
		"deadline":  str("YYYY-MM-DD"),
		"reasoning": str("why this would change your mind"),
	})
}

func moveSchema() *llm.Schema {
	return schema("dialogue_move", "One message in the crux debate: a move and the fields it uses (empty strings and 0 for fields it does not use)", object(map[string]any{
		"move":       map[string]any{"type": "string", "enum": allMoves},
		"content":    str("the message itself"),
		"target":     str("the persona id a STEELMAN, GRADE_STEELMAN or CHALLENGE addresses"),
		"question":   str("PROPOSE_QUESTION: the binary (yes/no) question"),
		"side":       str("COMMIT_POSITION: YES, NO or UNCERTAIN"),
		"confidence": num("COMMIT_POSITION: 0 to 1"),
		"top_claim": object(map[string]any{
			"statement":  str("what you are really arguing"),
			"side":       str("YES, NO or NUANCED"),
			"confidence": num("0 to 1"),
		}),
		"grade":             str("GRADE_STEELMAN: ACCURATE, INCOMPLETE or WRONG"),
		"falsifier":         falsifierObject(),
		"top_claim_changed": map[string]any{"type": "boolean", "description": "CONCEDE: whether the concession changes your top claim"},
	}))
}

// Frame is the moderator's binary framing of the question.
type Frame struct {
	Question  string `json:"question"`
	Rationale string `json:"rationale"`
}

func frameSchema() *llm.Schema {
	return schema("binary_framing", "The moderator's binary framing of the crux question", object(map[string]any{
		"question":  str("a question answered YES or NO"),
		"rationale": str("why this is where the personas disagree"),
	}))
}

// Proposals are falsifiers the moderator proposes from the dialogue.
type Proposals struct {
	Falsifiers []Falsifier `json:"falsifiers"`
}

func proposalsSchema() *llm.Schema {
	f := falsifierObject()
	f["properties"].(map[string]any)["agent"] = str("the persona id whose position this falsifier tests")
	f["required"] = append(f["required"].([]string), "agent")
	slices.Sort(f["required"].([]string))
	return schema("falsifier_proposals", "Falsifiers proposed from the dialogue", object(map[string]any{
		"falsifiers": map[string]any{"type": "array", "items": f},
	}))
}

// Crystallisation is the moderator's final reading of the debate.
type Crystallisation struct {
	Summary        string           `json:"summary"`
	Counterfactual []Counterfactual `json:"counterfactual"`
}

// Counterfactual says whether an agent's top claim flips if the crux flips.
type Counterfactual struct {
	Agent     string `json:"agent"`
	WouldFlip bool   `json:"would_flip"`
	Reasoning string `json:"reasoning"`
}

func crystalSchema() *llm.Schema {
	return schema("crystallisation", "The final crux", object(map[string]any{
		"summary": str("what the debate established and where the personas still disagree"),
		"counterfactual": map[string]any{"type": "array", "items": object(map[string]any{
			"agent":      str("persona id"),
			"would_flip": map[string]any{"type": "boolean", "description": "would this persona's top claim flip if the crux resolved against it"},
			"reasoning":  str(""),
		})},
	}))
}

func castSchema() *llm.Schema {
	persona := object(map[string]any{
		"id":         str("the persona's id: a catalog id, or a new one of lowercase letters, digits and hyphens"),
		"name":       str("the persona's name"),
		"viewpoint":  str("the position and the reasoning it rests on"),
		"priorities": map[string]any{"type": "array", "items": map[string]any{"type": "string"}},
	})
	return schema("cast", "The two personas of the crux debate", object(map[string]any{
		"personas":  map[string]any{"type": "array", "items": persona},
		"rationale": str("why these two disagree on the topic"),
	}))
}
