package crux_test

import (
	"encoding/json"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/parleyhq/parley/internal/debate"
	"github.com/parleyhq/parley/internal/format/crux"
	"github.com/parleyhq/parley/internal/format/formattest"
	"github.com/parleyhq/parley/internal/llm/script"
)

const topic = "Is Bitcoin digital gold?"

var created = time.Date(2026, 3, 1, 12, 0, 0, 0, time.UTC)

// mv is a scripted move: every schema field present, as a strict-schema
// model sends it.
func mv(fields map[string]any) script.Reply {
	m := map[string]any{
		"move": "", "content": "", "target": "", "question": "", "side": "", "confidence": 0,
		"top_claim": map[string]any{"statement": "", "side": "", "confidence": 0}, "grade": "",
		"falsifier": map[string]any{"metric": "", "threshold": "", "deadline": "", "reasoning": ""}, "top_claim_changed": false,
	}
	for k, v := range fields {
		m[k] = v
	}
	return script.Reply{JSON: formattest.JSON(m)}
}

func rule(tag string, replies ...script.Reply) script.Rule {
	if len(replies) == 1 {
		return script.Rule{Tag: tag, Reply: &replies[0]}
	}
	return script.Rule{Tag: tag, Replies: replies}
}

func commit(side, claim string) script.Reply {
	claimSide := side
	if side == "UNCERTAIN" {
		claimSide = "NUANCED"
	}
	return mv(map[string]any{"move": "COMMIT_POSITION", "content": "I commit.", "side": side, "confidence": 0.8,
		"top_claim": map[string]any{"statement": claim, "side": claimSide, "confidence": 0.75}})
}

func falsifier(metric, threshold, deadline string) script.Reply {
	return mv(map[string]any{"move": "DECLARE_FALSIFIER", "content": "This would change my mind.",
		"falsifier": map[string]any{"metric": metric, "threshold": threshold, "deadline": deadline, "reasoning": "a hedge holds in a crash"}})
}

func steelman(target string) script.Reply {
	return mv(map[string]any{"move": "STEELMAN", "target": target, "content": "Your strongest case, as you would put it."})
}

func grade(g string) script.Reply {
	return mv(map[string]any{"move": "GRADE_STEELMAN", "grade": g, "content": "That is my view."})
}

func crystal(flipSaylor, flipHayes bool) script.Reply {
	return script.Reply{JSON: formattest.JSON(map[string]any{
		"summary": "They disagree on crash behaviour; the ETF-era drawdown settles it.",
		"counterfactual": []map[string]any{
			{"agent": "saylor", "would_flip": flipSaylor, "reasoning": "his store-of-value claim rests on crash behaviour"},
			{"agent": "hayes", "would_flip": flipHayes, "reasoning": "his liquidity thesis predicts the drawdown"},
		},
	})}
}

type fixture struct{ *formattest.Debate }

func newFixture(t *testing.T, opts crux.Options, rules ...script.Rule) *fixture {
	t.Helper()
	ps, err := crux.BuiltinPersonas()
	if err != nil {
		t.Fatal(err)
	}
	if len(opts.Catalog) == 0 { // with a catalog, the moderator casts
		if opts.Personas, err = ps.Select([]string{"saylor", "hayes"}); err != nil {
			t.Fatal(err)
		}
	}
	return &fixture{formattest.New(t, formattest.Setup{Format: crux.Format{}, ID: "DEB-crux", Topic: topic, Created: created, Options: opts}, rules...)}
}

func kinds(s *debate.State) map[string]int {
	out := map[string]int{}
	for _, n := range s.Notes {
		out[n.Kind]++
	}
	return out
}

func result(t *testing.T, s *debate.State) crux.Result {
	t.Helper()
	return formattest.Verdict[crux.Result](t, s)
}

const question = "Will Bitcoin fall more than 50% in the next 30% S&P 500 drawdown?"

func lockedCruxOptions() crux.Options {
	return crux.Options{DiscoveryMin: 2, DiscoveryMax: 4, EvidenceBudget: 3}
}

// lockedCruxRules script a debate that locks its crux on the first attempt.
func lockedCruxRules() []script.Rule {
	return []script.Rule{
		rule("m01/saylor", mv(map[string]any{"move": "CLAIM", "content": "Fixed supply makes Bitcoin the hardest money."})),
		// A move not allowed in DISCOVERY is refused and asked again.
		rule("m02/hayes",
			mv(map[string]any{"move": "CHALLENGE", "target": "saylor", "content": "Hardness is irrelevant in a liquidity crunch."}),
			mv(map[string]any{"move": "PROPOSE_QUESTION", "question": question, "content": "Crash behaviour is where we split."})),
		rule("m03/saylor", commit("NO", "Bitcoin is a store of value")),
		rule("m04/hayes", commit("YES", "Bitcoin is a liquidity trade")),
		// Saylor tries to challenge before steelmanning: blocked, then steelmans.
		rule("m05/saylor",
			mv(map[string]any{"move": "CHALLENGE", "target": "hayes", "content": "2020 shows the opposite."}),
			steelman("hayes")),
		rule("m06/hayes", grade("ACCURATE")),
		rule("m07/saylor", falsifier("BTC drawdown during the next S&P 500 fall of 30%", "> 50%", "2028-12-31")),
		rule("m08/hayes", steelman("saylor")),
		rule("m09/saylor", grade("ACCURATE")),
		rule("m10/hayes", falsifier("Spot BTC ETF AUM", ">= $100B", "2027-12-31")),
		rule("m11/saylor", mv(map[string]any{"move": "PROVIDE_EVIDENCE", "content": "In March 2020 BTC fell 50% but recovered within two months."})),
		rule("m12/hayes", mv(map[string]any{"move": "CHALLENGE", "target": "saylor", "content": "Recovery is not a hedge."})),
		rule("m13/saylor", mv(map[string]any{"move": "CONCEDE", "content": "Granted, 2020 was a liquidity event.", "top_claim_changed": false})),
		rule("moderator/crystallise", crystal(true, true)),
	}
}

// TestLockedCrux runs the pipeline end to end: a question in DISCOVERY, a
// blocked challenge refused and repaired, a lock, evidence and a validated crux.
func TestLockedCrux(t *testing.T) {
	f := newFixture(t, lockedCruxOptions(), lockedCruxRules()...)
	s := f.MustRun()

	want := []string{"m01/saylor", "m02/hayes", "m02/hayes", "m03/saylor", "m04/hayes", "m05/saylor", "m05/saylor", "m06/hayes", "m07/saylor",
		"m08/hayes", "m09/saylor", "m10/hayes", "m11/saylor", "m12/hayes", "m13/saylor", "moderator/crystallise"}
	if got := f.Tags(); !slices.Equal(got, want) {
		t.Fatalf("requests %v\nwant %v", got, want)
	}
	if r := s.Turns["m02/hayes"].Repairs; len(r) != 1 || !strings.Contains(r[0].Error, "CHALLENGE is not allowed in the DISCOVERY stage") {
		t.Errorf("m02 repairs %+v", r)
	}
	if r := s.Turns["m05/saylor"].Repairs; len(r) != 1 || !strings.Contains(r[0].Error, "CHALLENGE is blocked until Hayes grades your steelman") {
		t.Errorf("m05 repairs %+v", r)
	}
	// The grading turn is told it must grade, and sees the steelman.
	if pr := f.Prompt("m06/hayes"); !strings.Contains(pr, "Required: Saylor steelmanned your position: grade it now.") || !strings.Contains(pr, "Your strongest case") {
		t.Errorf("m06 prompt:\n%s", pr)
	}
	if pr := f.Prompt("m11/saylor"); !strings.Contains(pr, question) || !strings.Contains(pr, "Spot BTC ETF AUM >= $100B by 2027-12-31") || !strings.Contains(pr, "stage EVIDENCE") {
		t.Errorf("m11 prompt:\n%s", pr)
	}
	k := kinds(s)
	for kind, n := range map[string]int{
		"crux.message_posted": 13, "crux.stage_transition": 3, "crux.steelman_attempt": 2, "crux.steelman_graded": 2,
		"crux.commitment_made": 2, "crux.falsifier_declared": 2, "crux.lock_attempted": 1, "crux.lock_succeeded": 1,
		"crux.lock_failed": 0, "crux.debate_complete": 1, "crux.move_refused": 0,
	} {
		if k[kind] != n {
			t.Errorf("%d %s notes, want %d (all: %v)", k[kind], kind, n, k)
		}
	}
	res := result(t, s)
	c := res.Crux
	if c.Question != question || !c.Locked || !c.Validated || c.Positions["saylor"].Side != "NO" || c.Positions["hayes"].Side != "YES" ||
		len(c.Falsifiers) != 2 || len(c.ResolutionCriteria) != 2 || !c.Counterfactual["hayes"].WouldFlip {
		t.Errorf("crux %+v", c)
	}
	if sm := res.Steelmans; len(sm) != 2 || sm[0].From != "saylor" || sm[0].Grade != crux.Accurate || sm[1].From != "hayes" || sm[1].Grade != crux.Accurate || sm[1].Attempts != 1 {
		t.Errorf("steelmans %+v", sm)
	}
	if len(res.Stages) != 3 || res.Stages[0].To != crux.CruxLock || res.Stages[1].To != crux.Evidence || res.Stages[2].To != crux.Converged || res.Messages != 13 ||
		len(res.Concessions) != 1 || !res.Concessions[0].Cheap || res.Concessions[0].Agent != "saylor" {
		t.Errorf("result %+v", res)
	}
	// The verdict has the spec's shape: {"crux": {question, positions, falsifiers, counterfactual, validated}}.
	var shape struct {
		Crux map[string]json.RawMessage `json:"crux"`
	}
	if err := json.Unmarshal(s.Verdict, &shape); err != nil {
		t.Fatal(err)
	}
	for _, key := range []string{"question", "positions", "falsifiers", "counterfactual", "validated"} {
		if _, ok := shape.Crux[key]; !ok {
			t.Errorf("verdict crux lacks %q", key)
		}
	}
	doc, err := crux.Format{}.Render(s, debate.RenderOptions{})
	if err != nil {
		t.Fatal(err)
	}
	formattest.Golden(t, "testdata/locked_crux.full.md", doc)
	for _, w := range []string{"# Crux: " + question, "**Validated:** yes", "- **Saylor: NO** (confidence 80%)", "✓ steelmans_accurate", "## Steelmans\n\n- Saylor → Hayes: **ACCURATE** after 1 attempt", "### CRUX_LOCK", "**5. Saylor — STEELMAN → Hayes**", "- Saylor (message 13, cheap: the top claim is unchanged)"} {
		if !strings.Contains(doc, w) {
			t.Errorf("report lacks %q:\n%s", w, doc)
		}
	}
}

// TestLockFailures drives the moderator's escalation through the runner: a
// framed question when discovery finds none, a clarifying prompt, forced
// binary framing, falsifiers proposed from the dialogue, and an unlocked end.
func TestLockFailures(t *testing.T) {
	vague := falsifier("BTC and stocks", "probably correlated", "2028-12-31")
	rules := []script.Rule{
		rule("m01/saylor", mv(map[string]any{"move": "CLAIM", "content": "Scarcity."})),
		rule("m02/hayes", mv(map[string]any{"move": "CLAIM", "content": "Liquidity."})),
		rule("moderator/frame-question", script.Reply{JSON: formattest.JSON(map[string]any{"question": "Is Bitcoin a hedge against inflation?", "rationale": "they split on it"})}),
		rule("m03/saylor", commit("UNCERTAIN", "Bitcoin is a store of value")),
		rule("m04/hayes", commit("UNCERTAIN", "Bitcoin is a liquidity trade")),
		// Lock 1 fails. A vague falsifier is refused twice: the turn is spent.
		rule("m05/saylor", vague, vague),
		rule("m06/hayes", falsifier("Spot BTC ETF AUM", ">= $100B", "2027-12-31")),
		// Lock 2 fails: binary framing forced.
		rule("moderator/binary-framing", script.Reply{JSON: formattest.JSON(map[string]any{"question": question, "rationale": "the sharpest split"})}),
		rule("m07/saylor", commit("UNCERTAIN", "Bitcoin is a store of value"), commit("NO", "Bitcoin is a store of value")),
		rule("m08/hayes", commit("YES", "Bitcoin is a liquidity trade")),
		// Lock 3 fails: the moderator proposes a falsifier for Saylor.
		rule("moderator/falsifiers", script.Reply{JSON: formattest.JSON(map[string]any{"falsifiers": []map[string]any{
			{"agent": "saylor", "metric": "BTC drawdown during the next S&P 500 fall of 30%", "threshold": "> 50%", "deadline": "2028-12-31", "reasoning": "Saylor said it holds in crashes"},
		}})}),
		rule("m09/saylor", steelman("hayes")),
		rule("m10/hayes", grade("INCOMPLETE")),
		// Lock 4 (the last) fails on the steelmans: the debate ends unlocked.
		rule("moderator/crystallise", crystal(true, false)),
	}
	f := newFixture(t, crux.Options{DiscoveryMin: 1, DiscoveryMax: 2, LockBudget: 2, LockRetryBudget: 2}, rules...)
	s := f.MustRun()
	want := []string{"m01/saylor", "m02/hayes", "moderator/frame-question", "m03/saylor", "m04/hayes", "m05/saylor", "m05/saylor", "m06/hayes",
		"moderator/binary-framing", "m07/saylor", "m07/saylor", "m08/hayes", "moderator/falsifiers", "m09/saylor", "m10/hayes", "moderator/crystallise"}
	if got := f.Tags(); !slices.Equal(got, want) {
		t.Fatalf("requests %v\nwant %v", got, want)
	}
	if tr := s.Turns["m05/saylor"]; tr.Invalid == "" || !strings.Contains(tr.Invalid, "no number") {
		t.Errorf("m05 %+v", tr)
	}
	if r := s.Turns["m07/saylor"].Repairs; len(r) != 1 || !strings.Contains(r[0].Error, "forced a binary framing") {
		t.Errorf("m07 repairs %+v", r)
	}
	if pr := f.Prompt("m05/saylor"); !strings.Contains(pr, "After lock attempt 1: The crux did not lock") {
		t.Errorf("m05 prompt lacks the clarifying intervention:\n%s", pr)
	}
	k := kinds(s)
	for kind, n := range map[string]int{"crux.lock_attempted": 4, "crux.lock_failed": 4, "crux.lock_succeeded": 0, "crux.move_refused": 1,
		"crux.moderator_intervention": 3 + 3, "crux.debate_complete": 1} {
		if k[kind] != n {
			t.Errorf("%d %s notes, want %d (all: %v)", k[kind], kind, n, k)
		}
	}
	res := result(t, s)
	c := res.Crux
	if c.Locked || c.Validated || c.Question != question || len(res.LockAttempts) != 4 || res.Refused != 1 || !strings.Contains(res.EndReason, "no crux could be locked in 4 attempts") {
		t.Errorf("result %+v", res)
	}
	if len(res.Interventions) != 3 || res.Interventions[0].Kind != crux.InterveneClarify || res.Interventions[1].Kind != crux.InterveneBinary || res.Interventions[2].Kind != crux.InterveneFalsifiers {
		t.Errorf("interventions %+v", res.Interventions)
	}
	if len(c.Falsifiers) != 2 || c.Falsifiers[0].ProposedBy != "moderator" {
		t.Errorf("falsifiers %+v", c.Falsifiers)
	}
	// The spec's locked crux carries the steelmans beside commitments and
	// falsifiers: here Saylor's was graded INCOMPLETE and Hayes never tried.
	if sm := res.Steelmans; len(sm) != 2 || sm[0].From != "saylor" || sm[0].To != "hayes" || sm[0].Grade != crux.Incomplete || sm[0].Attempts != 1 ||
		sm[1].From != "hayes" || sm[1].Attempts != 0 || sm[1].Grade != "" {
		t.Errorf("steelmans %+v", sm)
	}
	doc, err := crux.Format{}.Render(s, debate.RenderOptions{Summary: true})
	if err != nil {
		t.Fatal(err)
	}
	formattest.Golden(t, "testdata/lock_failures.summary.md", doc)
	failed := map[string]bool{}
	for _, v := range c.Validation {
		failed[v.Name] = !v.Passed
	}
	if !failed[crux.CheckLocked] || !failed[crux.CheckRelevant] || failed[crux.CheckDisagreement] || failed[crux.CheckFalsifiers] {
		t.Errorf("validation %+v", c.Validation)
	}
}
