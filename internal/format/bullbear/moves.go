package bullbear

import (
	"encoding/json"
	"fmt"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"sync"

	"github.com/parleyhq/parley/internal/debate"
	"github.com/parleyhq/parley/internal/llm"
)

// Contention is a point of fundamental disagreement.
type Contention struct {
	Topic string `json:"topic"`
	Bull  string `json:"bull"`
	Bear  string `json:"bear"`
}

// Bucket is a group of evidence and the side it favours.
type Bucket struct {
	Bucket   string `json:"bucket"`
	Favours  string `json:"favours"` // bull, bear, split
	Evidence string `json:"evidence"`
}

// Synthesis is the moderator's verdict.
type Synthesis struct {
	BullCase    []string     `json:"bull_case"`
	BearCase    []string     `json:"bear_case"`
	Contentions []Contention `json:"contentions"`
	// Consensus is set when the agents agree on the main points; Agreements
	// then lists them.
	Consensus  bool     `json:"consensus"`
	Agreements []string `json:"agreements"`
	Buckets    []Bucket `json:"evidence_buckets"`
	// Score is the conviction, 1-10 (10 = all evidence supports the bull).
	Score int `json:"score"`
	// Conviction is "X/10 because [reasoning]. Would be Y/10 if [condition]."
	Conviction string `json:"conviction"`
	// Stance is the label of Score: STRONG BEAR, LEAN BEAR, NEUTRAL, LEAN
	// BULL, STRONG BULL.
	Stance string `json:"stance"`
	// ThesisBreaker is "Bull thesis breaks if: ..." or "Bear thesis breaks if: ...".
	ThesisBreaker string `json:"thesis_breaker"`
	// Discrepancies are the factual discrepancies and the corrected figures.
	Discrepancies []string `json:"discrepancies"`
	Summary       string   `json:"summary"`
}

// StanceOf maps a score to the spec's labels: 1-3 STRONG BEAR, 4 LEAN BEAR,
// 5 NEUTRAL, 6 LEAN BULL, 7-10 STRONG BULL.
func StanceOf(score int) string {
	switch {
	case score <= 3:
		return "STRONG BEAR"
	case score == 4:
		return "LEAN BEAR"
	case score == 5:
		return "NEUTRAL"
	case score == 6:
		return "LEAN BULL"
	}
	return "STRONG BULL"
}

var (
	convictionRe = sync.OnceValue(func() *regexp.Regexp {
		return regexp.MustCompile(`(?s)^\s*(\d{1,2})/10 because (.+?)\.?\s+Would be (\d{1,2})/10 if (.+?)\.?\s*$`)
	})
	breakerRe = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`^(Bull|Bear) thesis breaks if: \S`) })
)

// ParseConviction reads "X/10 because ... Would be Y/10 if ...".
func ParseConviction(s string) (score, wouldBe int, because, cond string, err error) {
	m := convictionRe().FindStringSubmatch(s)
	if m == nil {
		return 0, 0, "", "", fmt.Errorf("conviction %q is not in the form \"X/10 because [reasoning]. Would be Y/10 if [condition].\"", abbrev(s, 120))
	}
	score, _ = strconv.Atoi(m[1])
	wouldBe, _ = strconv.Atoi(m[3])
	return score, wouldBe, m[2], m[4], nil
}

// Check validates a synthesis against the spec's rules.
func (s *Synthesis) Check() error {
	bad := func(format string, a ...any) error {
		return fmt.Errorf("%w: %s", debate.ErrRepairable, fmt.Sprintf(format, a...))
	}
	if s.Score < 1 || s.Score > 10 {
		return bad("score must be 1 to 10, got %d", s.Score)
	}
	x, y, _, _, err := ParseConviction(s.Conviction)
	if err != nil {
		return bad("%v", err)
	}
	if x != s.Score {
		return bad("the conviction says %d/10 but score is %d", x, s.Score)
	}
	if y < 1 || y > 10 {
		return bad("\"Would be %d/10\": give a score from 1 to 10", y)
	}
	s.Stance = strings.ToUpper(strings.TrimSpace(s.Stance))
	if want := StanceOf(s.Score); s.Stance != want {
		return bad("stance %q does not match score %d: %d/10 is %s", s.Stance, s.Score, s.Score, want)
	}
	if !breakerRe().MatchString(strings.TrimSpace(s.ThesisBreaker)) {
		return bad("thesis_breaker must read \"Bull thesis breaks if: [specific condition]\" or \"Bear thesis breaks if: [specific condition]\"")
	}
	n := len(s.Contentions)
	switch {
	case s.Consensus && len(s.Agreements) == 0:
		return bad("consensus is true but agreements is empty: list what both agents agree on")
	case !s.Consensus && (n < 2 || n > 5):
		return bad("identify 2 to 5 key contentions (got %d); if the agents agree, set consensus and list the agreements", n)
	case n > 5:
		return bad("at most 5 key contentions (got %d)", n)
	}
	for i, c := range s.Contentions {
		if strings.TrimSpace(c.Topic) == "" {
			return bad("contention %d has no topic", i+1)
		}
	}
	for _, b := range s.Buckets {
		if !slices.Contains([]string{"bull", "bear", "split"}, b.Favours) {
			return bad("evidence bucket %q: favours must be bull, bear or split, got %q", b.Bucket, b.Favours)
		}
	}
	if len(s.BullCase) == 0 || len(s.BearCase) == 0 {
		return bad("bull_case and bear_case must each list the side's strongest points")
	}
	return nil
}

func strArr() map[string]any {
	return map[string]any{"type": "array", "items": map[string]any{"type": "string"}}
}

func object(props map[string]any) map[string]any {
	req := make([]string, 0, len(props))
	for k := range props {
		req = append(req, k)
	}
	slices.Sort(req)
	return map[string]any{"type": "object", "properties": props, "required": req, "additionalProperties": false}
}

// synthesisSchema is the moderator's reply. It carries no range or count
// keywords (minimum, maximum, maxItems): OpenAI's strict mode refuses them
// for fine-tuned models and Anthropic's structured outputs for every
// model, so the limits are in the prompt (and the score's in its
// description), and Check enforces them (score 1 to 10, 2 to 5
// contentions).
func synthesisSchema() *llm.Schema {
	str := func(desc string) map[string]any { return map[string]any{"type": "string", "description": desc} }
	contention := object(map[string]any{"topic": str("e.g. Moat durability"), "bull": str("the bull's position"), "bear": str("the bear's position")})
	bucket := object(map[string]any{
		"bucket":   str("growth, profitability, cash flow, balance sheet, valuation, competition, ..."),
		"favours":  map[string]any{"type": "string", "enum": []string{"bull", "bear", "split"}},
		"evidence": str("the evidence in this bucket"),
	})
	b, _ := json.Marshal(object(map[string]any{
		"bull_case":        strArr(),
		"bear_case":        strArr(),
		"contentions":      map[string]any{"type": "array", "items": contention},
		"consensus":        map[string]any{"type": "boolean", "description": "true when the agents agree on the main points"},
		"agreements":       strArr(),
		"evidence_buckets": map[string]any{"type": "array", "items": bucket},
		"score":            map[string]any{"type": "integer", "description": "1 to 10"},
		"conviction":       str("X/10 because [reasoning]. Would be Y/10 if [condition]."),
		"stance":           map[string]any{"type": "string", "enum": []string{"STRONG BEAR", "LEAN BEAR", "NEUTRAL", "LEAN BULL", "STRONG BULL"}},
		"thesis_breaker":   str("Bull thesis breaks if: [specific condition]  OR  Bear thesis breaks if: [specific condition]"),
		"discrepancies":    strArr(),
		"summary":          str("which evidence favours each side, in 2-4 sentences"),
	}))
	return &llm.Schema{Name: "bullbear_synthesis", Description: "The moderator's synthesis of a bull vs. bear debate", JSON: b}
}
