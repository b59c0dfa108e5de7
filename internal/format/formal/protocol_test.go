package formal_test

import (
	"encoding/json"
	"slices"
	"strings"
	"testing"

	"github.com/parleyhq/parley/internal/debate"
	"github.com/parleyhq/parley/internal/format/formal"
	"github.com/parleyhq/parley/internal/format/formattest"
	"github.com/parleyhq/parley/internal/llm/script"
)

// opening scripts round 0: PRO claims P1, OPP counter-claims O1.
func opening() []script.Rule {
	return []script.Rule{
		rule("r0/pro", moves(mv("claim", "", "We should migrate the monolith to microservices"))),
		rule("r0/opp", moves(mv("claim", "P1", "We should keep the monolith and modularise it"))),
	}
}

// fullRules is a one-round debate: PRO defends P1, OPP challenges a premise
// and undercuts the inference, PRO first makes an illegal move (a why of its
// own claim), is refused, then answers; OPP counter-claims a premise and
// concedes another; PRO retracts in the closing.
func fullRules() []script.Rule {
	return append(opening(),
		rule("r1/pro-1", moves(mv("since", "O1", "", "Deploys of unrelated teams block each other", "Services let teams own their release cadence"))),
		rule("r1/opp-1", moves(mv("why", "P2.1", ""), mv("claim", "P2", "Team ownership works inside a modular monolith"))),
		rules("r1/pro-2",
			moves(mv("why", "P1", "")),
			moves(mv("since", "O2", "", "The CI queue averaged 40 minutes last quarter"), mv("claim", "O3", "A modular monolith still ships as one binary, so one bad module blocks every release"))),
		rule("r1/opp-2", moves(mv("claim", "P3.1", "The CI queue is slow because of flaky tests, not the monolith"), mv("concede", "P2.2", ""))),
		rule("closing/pro", closing("Migrate, but module by module; the CI figure was not mine to defend.", mv("retract", "O4", ""))),
		rule("closing/opp", closing("Keep one deployable until the boundaries are proven.")),
		rule("framework/classify", classify(
			formal.Class{Move: "P4", Kind: "rebut", Reason: "It denies that a modular monolith gives ownership."},
			formal.Class{Move: "O4", Kind: "undercut", Reason: "It grants the queue is slow but breaks its link to the monolith."})),
		rule("verdict", verdictReply("OPP's undercut A5 and the undercut A8 of the deploy premise A3 leave the proposition A1 below 0.5; PRO's support A4 was conceded but does not carry it.")),
	)
}

func TestFullDebate(t *testing.T) {
	f := newFixture(t, formal.Options{Rounds: 1}, fullRules()...)
	s := f.MustRun()

	wantTags := []string{"r0/pro", "r0/opp", "r1/pro-1", "r1/opp-1", "r1/pro-2", "r1/pro-2", "r1/opp-2", "closing/pro", "closing/opp", "framework/classify", "verdict"}
	if got := f.Tags(); !slices.Equal(got, wantTags) {
		t.Fatalf("requests %v\nwant %v", got, wantTags)
	}
	// The illegal move was refused with the reason, and the debater asked again.
	tu := s.Turns["r1/pro-2"]
	if len(tu.Repairs) != 1 || !strings.Contains(tu.Repairs[0].Error, "you cannot challenge your own statement P1") || tu.Invalid != "" {
		t.Fatalf("repairs %+v invalid %q", tu.Repairs, tu.Invalid)
	}
	if p := f.PromptAt("r1/pro-2", 1); !strings.Contains(p, "illegal move 1 (`why` replying to \"P1\")") {
		t.Errorf("the second request does not show the refusal:\n%s", p)
	}

	r := result(t, s)
	if r.Winner != formal.OPP || r.Scores[formal.PRO] != 0.33 || r.Scores[formal.OPP] != 0.45 {
		t.Errorf("winner %s scores %v", r.Winner, r.Scores)
	}
	score := map[string]float64{}
	for _, a := range r.Arguments {
		score[a.ID] = a.Score
	}
	// The spec's rule by hand: A5 = 0.5 − 0.3·0.5; A3 = 0.5 + 0.2·ε − 0.4·0.5;
	// A1 = 0.5 + 0.2·(A3 + A4) − 0.3·A2 − 0.4·A5.
	for id, want := range map[string]float64{"A1": 0.37, "A2": 0.5, "A3": 0.3, "A4": 0.5, "A5": 0.35, "A6": 0, "A7": 0.5, "A8": 0.5} {
		if score[id] != want {
			t.Errorf("score %s = %.2f, want %.2f", id, score[id], want)
		}
	}
	if !r.Semantics.Converged || !r.Semantics.Acyclic || r.Semantics.Method != "spec" {
		t.Errorf("semantics %+v", r.Semantics)
	}
	wantRel := []formal.RelationView{
		{From: "A2", To: "A1", Kind: "rebut", Move: "O1", By: "protocol"},
		{From: "A3", To: "A1", Kind: "support", Move: "P2", By: "protocol"},
		{From: "A4", To: "A1", Kind: "support", Move: "P2", By: "protocol"},
		{From: "A5", To: "A1", Kind: "undercut", Move: "O3", By: "protocol"},
		{From: "A6", To: "A3", Kind: "support", Move: "P3", By: "protocol"},
		{From: "A7", To: "A5", Kind: "rebut", Move: "P4", By: "moderator"},
		{From: "A8", To: "A3", Kind: "undercut", Move: "O4", By: "moderator"},
	}
	if !slices.Equal(r.Relations, wantRel) {
		t.Errorf("relations\n%+v\nwant\n%+v", r.Relations, wantRel)
	}
	wantC := []formal.CommitmentView{
		{Party: "PRO", Commitments: []string{"A1", "A3", "A4", "A7"}, Retractions: []string{"A6"}, Conceded: []string{}},
		{Party: "OPP", Commitments: []string{"A2", "A5", "A8", "A4"}, Retractions: []string{}, Conceded: []string{"A4"}},
	}
	for i, c := range r.Commitments {
		if c.Party != wantC[i].Party || !slices.Equal(c.Commitments, wantC[i].Commitments) || !slices.Equal(c.Retractions, wantC[i].Retractions) || !slices.Equal(c.Conceded, wantC[i].Conceded) {
			t.Errorf("commitments %+v, want %+v", c, wantC[i])
		}
	}
	m := r.Metrics
	if m != (formal.Metrics{Arguments: 8, Attacks: 4, Rebuts: 2, Undercuts: 2, Supports: 3, Concessions: 1, Retractions: 1, Moves: 10, Refused: 1}) {
		t.Errorf("metrics %+v", m)
	}
	if !slices.Equal(r.ValidPoints, []string{"A4"}) || len(r.Strongest) != 0 {
		t.Errorf("valid points %v (want the conceded A4), strongest %v (none of OPP's scores above 0.5)", r.ValidPoints, r.Strongest)
	}
	// Dung cross-check: A6 is retracted, so withdrawn; A8 undercuts A3,
	// which supports A1: a secondary attack A8→A1.
	if !slices.Equal(r.Dung.Derived, []string{"A8→A1"}) || !slices.Equal(r.Dung.Grounded, []string{"A2", "A4", "A7", "A8"}) {
		t.Errorf("dung %+v", r.Dung)
	}
	if r.Judgment == nil || r.Proposition != "A1" {
		t.Fatalf("judgment %+v proposition %q", r.Judgment, r.Proposition)
	}
	if !strings.Contains(r.Exports.DOT, "digraph") || !strings.Contains(r.Exports.Argdown, "<A1>") || !json.Valid(r.Exports.AIF) {
		t.Errorf("exports %+v", r.Exports)
	}
	md, err := formal.Format{}.Render(s, debate.RenderOptions{})
	if err != nil {
		t.Fatal(err)
	}
	formattest.Golden(t, "testdata/full.md", md)
	sum, err := formal.Format{}.Render(s, debate.RenderOptions{Summary: true})
	if err != nil {
		t.Fatal(err)
	}
	if strings.Contains(sum, "## Transcript") || !strings.Contains(sum, "## Verdict") || !strings.Contains(sum, "### Argument Map (ASCII)") {
		t.Errorf("summary:\n%s", sum)
	}
}

func TestModeratorClassifiesOnlyOpenRelations(t *testing.T) {
	f := newFixture(t, formal.Options{Rounds: 1}, fullRules()...)
	f.MustRun()
	p := f.PromptAt("framework/classify", 0)
	for _, want := range []string{"- P4 (PRO):", "replies to O3", "- O4 (OPP):", "a premise supporting P2.1"} {
		if !strings.Contains(p, want) {
			t.Errorf("classification prompt lacks %q:\n%s", want, p)
		}
	}
	if strings.Contains(p, "- O3 (OPP):") || strings.Contains(p, "- O1 (OPP):") {
		t.Errorf("the prompt asks about relations the moves settle:\n%s", p)
	}
}

func TestClassificationRefusedThenDefault(t *testing.T) {
	rs := fullRules()
	for i := range rs {
		if rs[i].Tag == "framework/classify" {
			// Misses O4, then names a move that is not a counter-claim.
			rs[i] = rules("framework/classify",
				classify(formal.Class{Move: "P4", Kind: "rebut", Reason: "x"}),
				classify(formal.Class{Move: "O2", Kind: "rebut", Reason: "x"}))
		}
	}
	f := newFixture(t, formal.Options{Rounds: 1}, rs...)
	s := f.MustRun()
	tu := s.Turns["framework/classify"]
	if len(tu.Repairs) != 1 || !strings.Contains(tu.Repairs[0].Error, "missing: O4") || !strings.Contains(tu.Invalid, `"O2" is not one of the counter-claims`) {
		t.Fatalf("repairs %+v invalid %q", tu.Repairs, tu.Invalid)
	}
	if len(notes(s, "formal.classification_fallback")) != 1 {
		t.Errorf("no fallback note: %+v", s.Notes)
	}
	r := result(t, s)
	for _, rel := range r.Relations {
		if rel.Move == "P4" || rel.Move == "O4" {
			if rel.Kind != "rebut" || rel.By != "default" {
				t.Errorf("relation %+v: want a default rebuttal", rel)
			}
		}
	}
}

func TestForfeitAfterRepeatedIllegalMove(t *testing.T) {
	rs := append(opening(),
		rule("r1/pro-1", moves(mv("since", "O1", "", "Deploys of unrelated teams block each other"))),
		// OPP concedes a since move (not a statement), then claims with an
		// empty statement: forfeit.
		rules("r1/opp-1", moves(mv("concede", "P2", "")), moves(mv("claim", "P2.1", ""))),
		rule("r1/pro-2", moves(mv("why", "O1", ""))),
		rule("r1/opp-2", moves(mv("since", "P3", "", "Rewrites stall feature work for a year"))),
		rule("closing/pro", closing("Migrate.")),
		rule("closing/opp", closing("Do not migrate.")),
		rule("framework/classify", classify()),
		rule("verdict", verdictReply("PRO's A1 is supported by A3; OPP's A2 by A4.")),
	)
	f := newFixture(t, formal.Options{Rounds: 1}, rs...)
	s := f.MustRun()
	tu := s.Turns["r1/opp-1"]
	if tu.Invalid == "" || !strings.Contains(tu.Invalid, "a claim needs its statement") || len(tu.Repairs) != 1 || !strings.Contains(tu.Repairs[0].Error, "`concede` admits a statement") {
		t.Fatalf("r1/opp-1: invalid %q repairs %+v", tu.Invalid, tu.Repairs)
	}
	fn := notes(s, "formal.forfeit")
	if len(fn) != 1 || !strings.Contains(fn[0].Text, "OPP forfeits turn r1/opp-1") {
		t.Fatalf("forfeit notes %+v", fn)
	}
	r := result(t, s)
	if r.Metrics.Forfeits != 1 || len(r.Forfeits) != 1 || r.Forfeits[0].Party != "OPP" || r.Metrics.Refused != 1 {
		t.Errorf("forfeits %+v metrics %+v", r.Forfeits, r.Metrics)
	}
	// The debate went on: PRO's why of O1 was answered by OPP's since.
	if len(r.Arguments) != 4 || r.Metrics.Supports != 2 || r.Metrics.Unanswered != 0 {
		t.Errorf("arguments %+v metrics %+v", r.Arguments, r.Metrics)
	}
	md, err := formal.Format{}.Render(s, debate.RenderOptions{})
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(md, "**OPP** forfeits this turn") || !strings.Contains(md, "turns forfeited: 1") {
		t.Errorf("report does not show the forfeit:\n%s", md)
	}
}

func TestOpeningForfeitEndsDebate(t *testing.T) {
	f := newFixture(t, formal.Options{}, rules("r0/pro", moves(mv("why", "O1", "")), moves(mv("concede", "", ""))))
	s := f.MustRun()
	r := result(t, s)
	if r.Winner != formal.OPP || !strings.Contains(r.EndReason, "PRO forfeited the opening") || len(f.Tags()) != 2 {
		t.Errorf("winner %s, end %q, requests %v", r.Winner, r.EndReason, f.Tags())
	}
}

func TestVerdictMustCiteArguments(t *testing.T) {
	rs := fullRules()
	for i := range rs {
		if rs[i].Tag == "verdict" {
			rs[i] = rules("verdict", verdictReply("OPP argued better."), verdictReply("A99 decides it."))
		}
	}
	f := newFixture(t, formal.Options{Rounds: 1}, rs...)
	s := f.MustRun()
	tu := s.Turns["verdict"]
	if len(tu.Repairs) != 1 || !strings.Contains(tu.Repairs[0].Error, "must cite argument ids") || !strings.Contains(tu.Invalid, "cites A99") {
		t.Fatalf("repairs %+v invalid %q", tu.Repairs, tu.Invalid)
	}
	r := result(t, s)
	if r.Judgment != nil || !strings.Contains(r.JudgmentNote, "could not be used") || r.Winner != formal.OPP {
		t.Errorf("judgment %+v note %q winner %s", r.Judgment, r.JudgmentNote, r.Winner)
	}
	if len(notes(s, "formal.verdict_fallback")) != 1 {
		t.Errorf("no verdict fallback note")
	}
}

func TestPromptsCarryPersonasContextAndOpenMoves(t *testing.T) {
	opts := formal.Options{Rounds: 1, Focus: "opp", Context: formal.Context{Dir: "/src/shop", Facts: []string{"shop: 120 files"}, Digest: "## Files of shop\ncmd/ (3 files)\n"}}
	f := newFixture(t, opts, fullRules()...)
	f.MustRun()
	p := f.PromptAt("r1/opp-1", 0)
	for _, want := range []string{
		"Cautious architect focused on quality and long-term health", "Prefers solutions that minimize risk and technical debt",
		"The user asked to focus on your viewpoint", "## Files of shop",
		"[P2] PRO P1 since {P2.1", "C_PRO = {P1, P2.1, P2.2}",
		"- PRO's statements you may challenge (why), attack (claim: a counter-claim) or concede: P1, P2.1, P2.2",
		"- PRO's inferences you may undercut (claim replying to the since move: its premises do not support its conclusion): P2 (P1 since P2.1, P2.2)",
		"Make 1 to 6 moves",
	} {
		if !strings.Contains(p, want) {
			t.Errorf("OPP's prompt lacks %q:\n%s", want, p)
		}
	}
	if p := f.PromptAt("r1/pro-2", 0); !strings.Contains(p, `- O1: OPP's statement "We should keep the monolith and modularise it" — why, claim (counter-claim), concede; it attacks your P1: defend P1 with `+"`since`"+` (replies_to O1), or `+"`retract`"+` P1`) ||
		!strings.Contains(p, "- O2: OPP asks why P2.1") {
		t.Errorf("PRO's open moves:\n%s", p)
	}
	if p := f.PromptAt("r1/pro-1", 0); !strings.Contains(p, "Make 1 to 4 moves") || strings.Contains(p, "focus on your viewpoint") {
		t.Errorf("PRO's prompt treats PRO as in focus:\n%s", p)
	}
	if p := f.PromptAt("verdict", 0); !strings.Contains(p, "the OPP viewpoint the user focused on") || !strings.Contains(p, "Winner by the scores: OPP") {
		t.Errorf("verdict prompt:\n%s", p)
	}
}

func TestResumeRerunsNothing(t *testing.T) {
	rs := fullRules()
	// Stop before the verdict: the run pauses for want of a rule.
	f := newFixture(t, formal.Options{Rounds: 1}, rs[:len(rs)-1]...)
	if _, err := f.Run(); err == nil {
		t.Fatal("the run without a verdict rule did not stop")
	}
	f.Rescript(rs...)
	s := f.MustRun()
	tags := f.Tags()
	if !slices.Equal(tags, []string{"verdict"}) {
		t.Errorf("the resumed run asked %v, want only the verdict", tags)
	}
	if len(result(t, s).Relations) != 7 {
		t.Errorf("resumed verdict differs")
	}
}

func TestOptions(t *testing.T) {
	for _, tc := range []struct {
		o    formal.Options
		want string
	}{
		{formal.Options{Rounds: -1}, "--rounds -1: choose 1 to 10"},
		{formal.Options{Rounds: 11}, "--rounds 11"},
		{formal.Options{Focus: "judge"}, `--perspective "judge": choose PRO`},
		{formal.Options{Method: "magic"}, "magic"},
	} {
		if err := tc.o.Validate(); err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%+v: %v, want %q", tc.o, err, tc.want)
		}
	}
	o := formal.Options{Focus: "Moderator"}
	if err := o.Validate(); err != nil || o.Rounds != 2 || o.Focus != "MOD" || o.Method != "spec" {
		t.Errorf("defaults: %+v %v", o, err)
	}
}

func TestConcedingThePropositionSettlesTheDebate(t *testing.T) {
	rs := append(opening(),
		rule("r1/pro-1", moves(mv("since", "O1", "", "Deploys of unrelated teams block each other"))),
		rule("r1/opp-1", moves(mv("concede", "P2.1", ""), mv("concede", "P1", ""))),
		rule("closing/pro", closing("Migrate.")),
		rule("closing/opp", closing("Granted.", mv("retract", "O1", ""))),
		rule("framework/classify", classify()),
		rule("verdict", verdictReply("OPP conceded A1, supported by A3.")),
	)
	f := newFixture(t, formal.Options{Rounds: 2}, rs...)
	s := f.MustRun()
	if got := f.Tags(); !slices.Equal(got, []string{"r0/pro", "r0/opp", "r1/pro-1", "r1/opp-1", "closing/pro", "closing/opp", "framework/classify", "verdict"}) {
		t.Fatalf("requests %v: the argumentation should stop once OPP concedes φ", got)
	}
	if n := notes(s, "formal.settled"); len(n) != 1 || !strings.Contains(n[0].Text, "OPP conceded the proposition P1") {
		t.Errorf("settled notes %+v", n)
	}
	r := result(t, s)
	if r.Winner != formal.PRO || r.DecidedBy != "OPP conceded the proposition P1" || r.EndReason != r.DecidedBy {
		t.Errorf("winner %s decided by %q, end %q", r.Winner, r.DecidedBy, r.EndReason)
	}
	if r.Metrics.Retractions != 1 || r.Commitments[1].Retractions[0] != "A2" {
		t.Errorf("OPP's closing retraction was not recorded: %+v %+v", r.Metrics, r.Commitments)
	}
}

func TestModeratorRejectsArgument(t *testing.T) {
	rs := fullRules()
	for i := range rs {
		if rs[i].Tag == "framework/classify" {
			rels := []formal.Class{
				{Move: "P4", Kind: "rebut", Reason: "It denies that a modular monolith gives ownership."},
				{Move: "O4", Kind: "undercut", Reason: "It breaks the premise's link."},
			}
			bad := formal.Classification{Relations: rels, Rejected: []formal.Rejection{{ID: "P1", Reason: "weak"}}}
			good := formal.Classification{Relations: rels, Rejected: []formal.Rejection{{ID: "O4", Reason: "ad hominem: it blames the team, not the build"}}}
			rs[i] = rules("framework/classify", &script.Reply{JSON: formattest.JSON(bad)}, &script.Reply{JSON: formattest.JSON(good)})
		}
	}
	f := newFixture(t, formal.Options{Rounds: 1}, rs...)
	s := f.MustRun()
	if tu := s.Turns["framework/classify"]; len(tu.Repairs) != 1 || !strings.Contains(tu.Repairs[0].Error, "P1 is the proposition under debate") {
		t.Fatalf("repairs %+v", tu.Repairs)
	}
	r := result(t, s)
	for _, a := range r.Arguments {
		switch a.ID {
		case "A8":
			if a.Rejected == "" || a.Score != 0 {
				t.Errorf("rejected argument %+v", a)
			}
		case "A3": // no longer undercut by a rejected argument: 0.5 + 0.2·ε − 0.4·ε
			if a.Score != 0.5 {
				t.Errorf("A3 = %.2f, want 0.50", a.Score)
			}
		}
	}
	if slices.Contains(r.Dung.Grounded, "A8") || len(r.Dung.Derived) != 0 {
		t.Errorf("dung %+v still counts the rejected A8", r.Dung)
	}
	if p := f.PromptAt("verdict", 0); !strings.Contains(p, "(rejected by you: ad hominem") {
		t.Errorf("verdict prompt does not show the rejection")
	}
}

func TestPassWhenNothingIsOpen(t *testing.T) {
	rs := []script.Rule{
		rule("r0/pro", moves(mv("claim", "", "We should migrate the monolith to microservices"))),
		// OPP forfeits its opening: PRO has nothing to answer in r1/pro-1.
		rules("r0/opp", moves(mv("concede", "P1", "")), moves(mv("retract", "P1", ""))),
		rule("r1/opp-1", moves(mv("why", "P1", ""))),
		rule("r1/pro-2", moves(mv("since", "O1", "", "Deploys of unrelated teams block each other"))),
		rule("r1/opp-2", moves(mv("claim", "P2.1", "Flaky tests block deploys, not the monolith"))),
		rule("closing/pro", closing("Migrate.")),
		rule("closing/opp", closing("Stay.")),
		rule("framework/classify", classify(formal.Class{Move: "O2", Kind: "undercut", Reason: "It blames the tests."})),
		rule("verdict", verdictReply("A1 keeps the support of A2.")),
	}
	f := newFixture(t, formal.Options{Rounds: 1}, rs...)
	s := f.MustRun()
	if slices.Contains(f.Tags(), "r1/pro-1") {
		t.Errorf("PRO was asked to move with nothing to answer: %v", f.Tags())
	}
	if n := notes(s, "formal.pass"); len(n) != 1 || !strings.Contains(n[0].Text, "PRO passes turn r1/pro-1") {
		t.Errorf("pass notes %+v", n)
	}
	if n := notes(s, "formal.forfeit"); len(n) != 1 {
		t.Errorf("forfeit notes %+v", n)
	}
	if r := result(t, s); r.Metrics.Passes != 1 || r.Metrics.Forfeits != 1 {
		t.Errorf("metrics %+v", r.Metrics)
	}
	md, err := formal.Format{}.Render(s, debate.RenderOptions{})
	if err != nil || !strings.Contains(md, "**PRO** passes: OPP made no move it could answer.") {
		t.Errorf("report does not show the pass (%v):\n%s", err, md)
	}
}

func TestUnansweredChallengeIsReported(t *testing.T) {
	rs := fullRules()
	for i := range rs {
		if rs[i].Tag == "r1/opp-2" {
			rs[i] = rule("r1/opp-2", moves(mv("claim", "P3.1", "The CI queue is slow because of flaky tests, not the monolith"), mv("concede", "P2.2", ""), mv("why", "P4", "")))
		}
	}
	f := newFixture(t, formal.Options{Rounds: 1}, rs...)
	s := f.MustRun()
	r := result(t, s)
	if len(r.Unanswered) != 1 || !strings.HasPrefix(r.Unanswered[0], "O6: OPP asked why of A7") || r.Metrics.Unanswered != 1 {
		t.Errorf("unanswered %v metrics %+v", r.Unanswered, r.Metrics)
	}
	if p := f.PromptAt("closing/pro", 0); !strings.Contains(p, "- O6: OPP asks why P4, unanswered — `retract` P4 (replies_to O6)") || strings.Contains(p, "answer with `since`") {
		t.Errorf("PRO's closing prompt does not show the open challenge:\n%s", p)
	}
	md, err := formal.Format{}.Render(s, debate.RenderOptions{Summary: true})
	if err != nil || !strings.Contains(md, "- O6: OPP asked why of A7") {
		t.Errorf("report (%v):\n%s", err, md)
	}
	d := formal.Format{}.Describe(s.Turns["r1/opp-2"])
	if !strings.Contains(d, "**OPP [O6]** `why` P4") {
		t.Errorf("Describe = %q", d)
	}
}

// TestModelTextOpensNoSection: the moderator's paragraphs and lists are
// model text; a heading in them ("## Recommendation", or a line underlined
// with "===") must not become a section of the report.
func TestModelTextOpensNoSection(t *testing.T) {
	rs := fullRules()
	hostile := "A5 and A8 leave A1 below 0.5.\n## Recommendation\nAdopt it now\n===\nTrust this section."
	for i := range rs {
		if rs[i].Tag == "verdict" {
			r := verdictReply(hostile)
			var j formal.Judgment
			if err := json.Unmarshal(r.JSON, &j); err != nil {
				t.Fatal(err)
			}
			j.Consensus, j.Biases = hostile, hostile
			j.Revisit = []string{"Deploys slow down\n## Recommendation"}
			rs[i] = rule("verdict", &script.Reply{JSON: formattest.JSON(j)})
		}
	}
	s := newFixture(t, formal.Options{Rounds: 1}, rs...).MustRun()
	md, err := formal.Format{}.Render(s, debate.RenderOptions{})
	if err != nil {
		t.Fatal(err)
	}
	for _, l := range strings.Split(md, "\n") {
		if strings.HasPrefix(l, "## Recommendation") || l == "===" {
			t.Errorf("model text opened a section: %q in\n%s", l, md)
		}
	}
	if !strings.Contains(md, "Trust this section.") || !strings.Contains(md, "- Deploys slow down ## Recommendation") {
		t.Errorf("model text lost:\n%s", md)
	}
}

// TestReportHeadingShowsTheTopicAsGiven: the report's heading quotes the
// topic as it was given, as every other format's heading does. It was
// written with Go's %q, which put backslashes before the topic's quotes
// and backslashes and wrote its control characters as Go escapes (\x1b),
// where the exports show them by their visible form (␛).
func TestReportHeadingShowsTheTopicAsGiven(t *testing.T) {
	given := `Should we move "billing" to C:\svc` + "\x1b[2J?"
	s := formattest.New(t, formattest.Setup{Format: formal.Format{}, ID: "DEB-formal2", Topic: given, Created: created, Options: formal.Options{Rounds: 1}}, fullRules()...).MustRun()
	md, err := formal.Format{}.Render(s, debate.RenderOptions{})
	if err != nil {
		t.Fatal(err)
	}
	heading, _, _ := strings.Cut(md, "\n")
	// As given, in Markdown: the "[" escaped, as a topic's markup is
	// (mdsafe.Literal), and nothing else.
	if want := `# Debate: "Should we move "billing" to C:\svc` + "\x1b\\[2J?\""; heading != want {
		t.Errorf("heading %q, want %q", heading, want)
	}
}

// TestReportQuotesMovesAsGiven: the report quotes each move's statement and
// premises as the debater wrote them; they were written with Go's %q, which
// put a backslash before every quote mark in them ("Team \"ownership\"
// works") and wrote control characters as Go escapes, where every view
// shows them by their visible form.
func TestReportQuotesMovesAsGiven(t *testing.T) {
	rs := fullRules()
	for i, r := range rs {
		switch r.Tag {
		case "r1/pro-1":
			rs[i] = rule("r1/pro-1", moves(mv("since", "O1", "", `Deploys of "unrelated" teams block each other`, `Services let teams own their "release cadence"`)))
		case "r1/opp-1":
			rs[i] = rule("r1/opp-1", moves(mv("why", "P2.1", ""), mv("claim", "P2", `Team "ownership" works inside a modular monolith`)))
		}
	}
	s := formattest.New(t, formattest.Setup{Format: formal.Format{}, ID: "DEB-formal3", Topic: "Should we split the monolith?", Created: created, Options: formal.Options{Rounds: 1}}, rs...).MustRun()
	md, err := formal.Format{}.Render(s, debate.RenderOptions{})
	if err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{`"Team "ownership" works inside a modular monolith"`, `"Services let teams own their "release cadence""`, `"Deploys of "unrelated" teams block each other"`} {
		if !strings.Contains(md, want) {
			t.Errorf("the report lacks %s:\n%s", want, md)
		}
	}
	if strings.Contains(md, `\"`) {
		t.Errorf("the report escapes quote marks:\n%s", md)
	}
}
