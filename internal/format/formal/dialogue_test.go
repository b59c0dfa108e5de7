package formal

import (
	"slices"
	"strings"
	"testing"
)

func in(act, ref, statement string, premises ...string) MoveIn {
	return MoveIn{Act: act, RepliesTo: ref, Statement: statement, Premises: premises}
}

// opened returns a dialogue after the opening (P1 claim, O1 counter-claim)
// and PRO's defence P2 = P1 since {P2.1, P2.2}.
func opened(t *testing.T) *dialogue {
	t.Helper()
	d := newDialogue()
	for _, step := range []struct {
		party string
		st    stage
		round int
		m     MoveIn
	}{
		{PRO, stageOpening, 0, in("claim", "", "Migrate to microservices")},
		{OPP, stageOpening, 0, in("claim", "P1", "Keep the monolith")},
		{PRO, stageArgument, 1, in("since", "O1", "", "Deploys block each other", "Teams want their own cadence")},
	} {
		if _, err := d.apply(step.party, step.st, step.round, step.m); err != nil {
			t.Fatalf("%s %v: %v", step.party, step.m, err)
		}
	}
	return d
}

func TestIllegalMoves(t *testing.T) {
	for _, tc := range []struct {
		name  string
		party string
		st    stage
		m     MoveIn
		want  string
	}{
		{"unknown act", OPP, stageArgument, in("deny", "P1", "no"), `act "deny" is not a speech act`},
		{"no reply", OPP, stageArgument, in("claim", "", "Costs rise"), "every move must reply to an open move"},
		{"unknown id", OPP, stageArgument, in("why", "P9", ""), `"P9" names no move or statement`},
		{"why of own", PRO, stageArgument, in("why", "P1", ""), "you cannot challenge your own statement P1"},
		{"why of a why", PRO, stageArgument, in("why", "P2", ""), "`why` challenges a statement"},
		{"concede own", PRO, stageArgument, in("concede", "P2.1", ""), "you cannot concede your own statement"},
		{"since without why", PRO, stageArgument, in("since", "P2.1", "", "x"), "`φ since S` answers `why φ`"},
		{"since without premises", PRO, stageArgument, in("since", "O1", ""), "at least one premise"},
		{"claim empty", OPP, stageArgument, in("claim", "P2.1", " "), "a claim needs its statement"},
		{"counter own", PRO, stageArgument, in("claim", "P2.1", "x"), "is your own"},
		{"retract other's", OPP, stageArgument, in("retract", "P2.1", ""), "`retract` withdraws one of your commitments"},
		{"closing new claim", OPP, stageClosing, in("claim", "P2.1", "x"), "the closing round allows only `concede` and `retract`"},
		{"opening wrong act", OPP, stageOpening, in("concede", "P1", ""), "OPP opens with `claim ¬φ` or `why φ`"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			d := opened(t)
			before := len(d.moves)
			_, err := d.apply(tc.party, tc.st, 1, tc.m)
			if err == nil || !strings.Contains(err.Error(), tc.want) {
				t.Fatalf("err = %v, want %q", err, tc.want)
			}
			if len(d.moves) != before {
				t.Errorf("an illegal move was recorded")
			}
		})
	}
}

func TestCommitmentEffects(t *testing.T) {
	d := opened(t)
	if got := d.commits[PRO]; !slices.Equal(got, []string{"P1", "P2.1", "P2.2"}) {
		t.Fatalf("C_PRO after since = %v, want {P1, P2.1, P2.2} (φ ∪ S)", got)
	}
	if got := d.commits[OPP]; !slices.Equal(got, []string{"O1"}) {
		t.Fatalf("C_OPP = %v", got)
	}
	// why changes nothing.
	why, err := d.apply(OPP, stageArgument, 1, in("why", "P2.1", ""))
	if err != nil || why.ID != "O2" || why.Target != "P2.1" {
		t.Fatalf("why: %+v %v", why, err)
	}
	if got := d.commits[OPP]; !slices.Equal(got, []string{"O1"}) {
		t.Fatalf("C_OPP after why = %v", got)
	}
	// A second why of the same statement is refused.
	if _, err := d.apply(OPP, stageArgument, 1, in("why", "P2.1", "")); err == nil || !strings.Contains(err.Error(), "already asked why") {
		t.Fatalf("second why: %v", err)
	}
	// concede adds the other side's statement.
	if _, err := d.apply(OPP, stageArgument, 1, in("concede", "P2.2", "")); err != nil {
		t.Fatal(err)
	}
	if !d.committed(OPP, "P2.2") || !d.conceded(OPP, "P2.2") {
		t.Fatalf("C_OPP after concede = %v", d.commits[OPP])
	}
	// Conceded: no longer attackable by OPP.
	if _, err := d.apply(OPP, stageArgument, 1, in("claim", "P2.2", "not so")); err == nil || !strings.Contains(err.Error(), "you conceded P2.2") {
		t.Fatalf("attack after concession: %v", err)
	}
	// retract in answer to the why removes the statement and closes the why.
	if len(d.unanswered(PRO)) != 1 {
		t.Fatalf("unanswered = %v", d.unanswered(PRO))
	}
	r, err := d.apply(PRO, stageArgument, 1, in("retract", "O2", ""))
	if err != nil || r.Target != "P2.1" {
		t.Fatalf("retract: %+v %v", r, err)
	}
	if d.committed(PRO, "P2.1") || !slices.Equal(d.retract[PRO], []string{"P2.1"}) || !d.stmts["P2.1"].Retracted {
		t.Fatalf("after retract: C_PRO %v, retracted %v", d.commits[PRO], d.retract[PRO])
	}
	if len(d.unanswered(PRO)) != 0 {
		t.Errorf("the why is still open after the retraction")
	}
	// A retracted statement can be neither challenged nor defended.
	if _, err := d.apply(OPP, stageArgument, 1, in("claim", "P2.1", "x")); err == nil || !strings.Contains(err.Error(), "retracted") {
		t.Errorf("attack on a retracted statement: %v", err)
	}
	if _, err := d.apply(PRO, stageArgument, 1, in("retract", "P2.1", "")); err == nil {
		t.Errorf("retracting twice was accepted")
	}
	// OPP withdraws its concession: C_OPP − {P2.2}, recorded.
	if _, err := d.apply(OPP, stageClosing, 2, in("retract", "P2.2", "")); err != nil {
		t.Fatal(err)
	}
	if d.committed(OPP, "P2.2") || d.conceded(OPP, "P2.2") || d.stmts["P2.2"].Retracted {
		t.Errorf("withdrawing a concession: C_OPP %v, P2.2 retracted by PRO? %v", d.commits[OPP], d.stmts["P2.2"].Retracted)
	}
}

func TestUndercutAndUnsettled(t *testing.T) {
	d := opened(t)
	u, err := d.apply(OPP, stageArgument, 1, in("claim", "P2", "Ownership works in a modular monolith"))
	if err != nil || !u.Inference || u.Target != "P1" {
		t.Fatalf("undercut: %+v %v", u, err)
	}
	c, err := d.apply(OPP, stageArgument, 1, in("claim", "P2.1", "Deploys block because of flaky tests"))
	if err != nil || c.Inference || c.Target != "P2.1" {
		t.Fatalf("counter-claim: %+v %v", c, err)
	}
	if got := ids(d.unsettled()); !slices.Equal(got, []string{c.ID}) {
		t.Errorf("unsettled = %v, want only %s (the opening rebuttal and the undercut are settled)", got, c.ID)
	}
	// PRO defends P2.1 against the counter-claim with reasons.
	s, err := d.apply(PRO, stageArgument, 1, in("since", c.ID, "", "The queue waits on one shared build"))
	if err != nil || s.Target != "P2.1" {
		t.Fatalf("defence: %+v %v", s, err)
	}
	if len(d.attacksOn(PRO)) != 3 {
		t.Errorf("attacks on PRO = %v", ids(d.attacksOn(PRO)))
	}
}

func TestIDsAreNormalised(t *testing.T) {
	d := opened(t)
	m, err := d.apply(OPP, stageArgument, 1, in("Why", " [p2.1] ", ""))
	if err != nil || m.RepliesTo != "P2.1" || m.Target != "P2.1" {
		t.Fatalf("%+v %v", m, err)
	}
}
