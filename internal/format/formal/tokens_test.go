package formal_test

import (
	"encoding/json"
	"fmt"
	"strings"
	"testing"

	"github.com/parleyhq/parley/internal/debate"
	"github.com/parleyhq/parley/internal/format/formal"
	"github.com/parleyhq/parley/internal/format/formattest"
	"github.com/parleyhq/parley/internal/llm"
	"github.com/parleyhq/parley/internal/llm/script"
)

// prose is a text of n words that differs per id, as a real debater's does.
func prose(id string, n int) string {
	return formattest.Prose(id, n, strings.Fields("deploy team service module boundary latency queue CI release ownership binary "+
		"database schema migration incident rollback cost on-call contract interface coupling test")...)
}

// chainRules script a legal debate of the given rounds: PRO defends its claim
// with reasons, OPP asks why of the newest premise, and so on; every move
// explains itself in 80 words.
func chainRules(rounds int) []script.Rule {
	ex := func(m formal.MoveIn, id string) formal.MoveIn { m.Explanation = prose(id, 80); return m }
	rs := []script.Rule{
		rule("r0/pro", moves(ex(mv("claim", "", "We should migrate the monolith to microservices"), "r0/pro"))),
		rule("r0/opp", moves(ex(mv("claim", "P1", "We should keep the monolith and modularise it"), "r0/opp"))),
	}
	for n := 1; n <= rounds; n++ {
		p1, o1, p2, o2 := fmt.Sprintf("r%d/pro-1", n), fmt.Sprintf("r%d/opp-1", n), fmt.Sprintf("r%d/pro-2", n), fmt.Sprintf("r%d/opp-2", n)
		rs = append(rs,
			rule(p1, moves(ex(mv("since", fmt.Sprintf("O%d", 2*n-1), "", prose(p1+"a", 12), prose(p1+"b", 12)), p1))),
			rule(o1, moves(ex(mv("why", fmt.Sprintf("P%d.1", 2*n), ""), o1))),
			rule(p2, moves(ex(mv("since", fmt.Sprintf("O%d", 2*n), "", prose(p2+"a", 12)), p2))),
			rule(o2, moves(ex(mv("why", fmt.Sprintf("P%d.1", 2*n+1), ""), o2))),
		)
	}
	return append(rs,
		rule("closing/pro", closing(prose("closing/pro", 80))),
		rule("closing/opp", closing(prose("closing/opp", 80))),
		rule("framework/classify", classify(formal.Class{Move: "O1", Kind: "rebut", Reason: "It denies the proposition."})),
		rule("verdict", verdictReply("PRO's chain of reasons A2 to A9 survives; OPP only asked why.")))
}

// digest is a shared context of a few pages, as --context gives.
var digest = formal.Context{Dir: ".", Facts: []string{"Go monolith, 40 packages"},
	Digest: "Repository digest:\n" + strings.Repeat("internal/billing/invoice.go: invoices are built from usage records and plans.\n", 60)}

// measure runs a debate and reports its tokens.
func measure(t *testing.T, opts formal.Options, rs []script.Rule) (*fixture, formattest.TokenReport) {
	t.Helper()
	f := newFixture(t, opts, rs...)
	f.MustRun()
	if got := f.Tags(); got[len(got)-1] != "verdict" {
		t.Fatalf("%d rounds: the debate did not reach the verdict: %v", opts.Rounds, got)
	}
	return f, f.Tokens()
}

// TestTokensGrowLinearly: over eight rounds (the default debate, with no
// --context) the requests carry the moves of older rounds as their move lines
// and only the turns since the answering party's previous one in full, so
// the debate sends at most half of what resending the whole transcript with
// every request would; and every request starts with the format's one
// structured-output schema, one system prompt, the background and the
// dialogue, which grows at its end within a round, so that at least 80% of
// the request bytes repeat an earlier request's prefix, which a provider has
// cached. With a shared context of a few pages in every request (--context),
// which a resend of the transcript would not carry, the ratio is logged, and
// the input still grows by a fraction of what a resend's grows.
func TestTokensGrowLinearly(t *testing.T) {
	_, rep := measure(t, formal.Options{Rounds: 8}, chainRules(8))
	t.Logf("8 rounds: %v", rep)
	if rep.Ratio() > 0.5 {
		t.Errorf("8 rounds: input tokens are %.2f of a full-transcript resend, want at most 0.5: %v", rep.Ratio(), rep)
	}
	if rep.Shared() < 0.8 {
		t.Errorf("8 rounds: %.1f%% of request bytes repeat an earlier prefix, want at least 80%%: %v", 100*rep.Shared(), rep)
	}

	_, rep = measure(t, formal.Options{Rounds: 8, Context: digest}, chainRules(8))
	t.Logf("8 rounds, --context: %v", rep)
	if rep.Shared() < 0.8 {
		t.Errorf("8 rounds, --context: %.1f%% of request bytes repeat an earlier prefix, want at least 80%%", 100*rep.Shared())
	}
	// From round 2 to round 8, PRO's first request grows by the move lines
	// of six rounds; a resend grows by their whole turns, five times as long
	// in this debate (80-word explanations).
	at := map[string]formattest.RequestShare{}
	for _, r := range rep.PerRequest {
		at[r.Tag] = r
	}
	grew, resend := at["r8/pro-1"].Input-at["r2/pro-1"].Input, at["r8/pro-1"].Naive-at["r2/pro-1"].Naive
	t.Logf("r2/pro-1 -> r8/pro-1: input +%d tokens, a resend +%d", grew, resend)
	if 4*grew > resend {
		t.Errorf("from round 2 to 8 a request grew by %d tokens, more than a quarter of a resend's %d", grew, resend)
	}
	for i, r := range rep.PerRequest {
		// Where older explanations are condensed (the first request of a
		// round) the prefix still holds up to them.
		if share := float64(r.Shared) / float64(r.Total); i > 0 && share < 0.5 {
			t.Errorf("request %d (%s) repeats %.0f%% of an earlier prefix, want at least half", i, r.Tag, 100*share)
		}
	}
}

// TestTokensSharePrefixes: a one-round debate with a shared context: the
// moderator's requests too repeat the debaters' prefix (schema, system
// prompt, background, dialogue), so at least 80% of request bytes are in a
// prefix a provider has cached.
func TestTokensSharePrefixes(t *testing.T) {
	_, rep := measure(t, formal.Options{Rounds: 1, Context: digest}, fullRules())
	t.Logf("1 round, --context: %v", rep)
	if rep.Shared() < 0.8 {
		t.Errorf("1 round: %.1f%% of request bytes repeat an earlier prefix, want at least 80%%", 100*rep.Shared())
	}
	for i, r := range rep.PerRequest {
		if share := float64(r.Shared) / float64(r.Total); i > 0 && share < 0.5 {
			t.Errorf("request %d (%s) repeats %.0f%% of an earlier prefix, want at least half", i, r.Tag, 100*share)
		}
	}
	_, rep = measure(t, formal.Options{Rounds: 1}, fullRules())
	t.Logf("1 round: %v", rep)
}

// TestForfeitedOpeningReport: a debate a side forfeited at the opening says
// so instead of printing empty stores, tables and map.
func TestForfeitedOpeningReport(t *testing.T) {
	f := newFixture(t, formal.Options{}, rules("r0/pro", moves(mv("why", "O1", "")), moves(mv("concede", "", ""))))
	s := f.MustRun()
	doc, err := formal.Format{}.Render(s, debate.RenderOptions{})
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(doc, "the debate ended before an argument was exchanged") || strings.Contains(doc, "| ID | Content | Source | Score |") || strings.Contains(doc, "Argument Map (ASCII)") {
		t.Errorf("report:\n%s", doc)
	}
}

// union is r with every field of the format's one schema that r lacks, empty:
// a reply as a provider enforcing that schema sends it.
func union(t *testing.T, r script.Reply) script.Reply {
	t.Helper()
	var doc map[string]any
	if err := json.Unmarshal(r.JSON, &doc); err != nil {
		t.Fatal(err)
	}
	for _, k := range []string{"moves", "relations", "rejected", "valid_points", "revisit", "unaddressed"} {
		if doc[k] == nil {
			doc[k] = []any{}
		}
	}
	for _, k := range []string{"final_statement", "rationale", "consensus", "biases", "focus"} {
		if doc[k] == nil {
			doc[k] = ""
		}
	}
	r.JSON = formattest.JSON(doc)
	return r
}

// TestOneSchemaForEveryParty: the debaters' and the moderator's requests
// carry the same structured-output schema, and replies that fill every field
// of it (the other parties' fields empty, as a provider enforcing the schema
// returns them) run the debate exactly as replies with only their own fields.
func TestOneSchemaForEveryParty(t *testing.T) {
	own := newFixture(t, formal.Options{Rounds: 1}, fullRules()...)
	want := result(t, own.MustRun())
	var rs []script.Rule
	for _, r := range fullRules() {
		if r.Reply != nil {
			u := union(t, *r.Reply)
			r.Reply = &u
		}
		for i := range r.Replies {
			r.Replies[i] = union(t, r.Replies[i])
		}
		rs = append(rs, r)
	}
	f := newFixture(t, formal.Options{Rounds: 1}, rs...)
	got := result(t, f.MustRun())
	if g, w := formattest.JSON(got), formattest.JSON(want); string(g) != string(w) {
		t.Errorf("result with full-schema replies:\n%s\nwant\n%s", g, w)
	}
	var first *llm.Schema
	for _, tag := range f.Tags() {
		for _, req := range f.Requests(tag) {
			switch {
			case req.Schema == nil:
				t.Fatalf("request %s has no structured-output schema", tag)
			case first == nil:
				first = req.Schema
			case req.Schema.Name != first.Name || string(req.Schema.JSON) != string(first.JSON):
				t.Errorf("request %s carries schema %s, the first request %s", tag, req.Schema.Name, first.Name)
			}
		}
	}
}

// richRules script a three-round debate with every kind of move and relation
// (claims, counter-claims, an undercut, since moves, whys, a concession and a
// retraction), each move explained in 80 words of its own.
func richRules() []script.Rule {
	ex := func(id string, ms ...formal.MoveIn) *script.Reply {
		for i := range ms {
			ms[i].Explanation = prose(fmt.Sprintf("%s#%d", id, i+1), 80)
		}
		return moves(ms...)
	}
	return []script.Rule{
		rule("r0/pro", ex("r0/pro", mv("claim", "", "We should migrate the monolith to microservices"))),
		rule("r0/opp", ex("r0/opp", mv("claim", "P1", "We should keep the monolith and modularise it"))),
		rule("r1/pro-1", ex("r1/pro-1", mv("since", "O1", "", "Deploys of unrelated teams block each other", "Services let teams own their release cadence"))),
		rule("r1/opp-1", ex("r1/opp-1", mv("why", "P2.1", ""), mv("claim", "P2", "Team ownership works inside a modular monolith"))),
		rule("r1/pro-2", ex("r1/pro-2", mv("since", "O2", "", "The CI queue averaged 40 minutes last quarter"), mv("claim", "O3", "A modular monolith still ships as one binary"))),
		rule("r1/opp-2", ex("r1/opp-2", mv("claim", "P3.1", "The CI queue is slow because of flaky tests"), mv("concede", "P2.2", ""))),
		rule("r2/pro-1", ex("r2/pro-1", mv("why", "O3", ""))),
		rule("r2/opp-1", ex("r2/opp-1", mv("since", "P5", "", "Module boundaries are enforced by the build"))),
		rule("r2/pro-2", ex("r2/pro-2", mv("why", "O6.1", ""))),
		rule("r2/opp-2", ex("r2/opp-2", mv("since", "P6", "", "The build rejects imports across modules"))),
		rule("r3/pro-1", ex("r3/pro-1", mv("claim", "O7.1", "Nothing stops a shared database schema"))),
		rule("r3/opp-1", ex("r3/opp-1", mv("why", "P4", ""))),
		rule("r3/pro-2", ex("r3/pro-2", mv("since", "O8", "", "One binary means one release train"))),
		rule("r3/opp-2", ex("r3/opp-2", mv("concede", "P8.1", ""))),
		rule("closing/pro", closing("Migrate module by module; the CI figure was not mine to defend.", mv("retract", "O4", ""))),
		rule("closing/opp", closing("Keep one deployable until the boundaries are proven.")),
		rule("framework/classify", classify(
			formal.Class{Move: "P4", Kind: "rebut", Reason: "It denies that a modular monolith gives ownership."},
			formal.Class{Move: "O4", Kind: "undercut", Reason: "It grants the queue is slow but breaks its link to the monolith."},
			formal.Class{Move: "P7", Kind: "rebut", Reason: "It denies that the build enforces the boundaries."})),
		rule("verdict", verdictReply("OPP's undercut A5 leaves the proposition A1 below 0.5.")),
	}
}

// TestCondensedDialogueKeepsDecisionInputs: the last requests of a debate
// whose older rounds are condensed still carry every move (its id, party,
// act and what it replies to), every statement with its text and every
// relation of the argumentation framework; the explanations are carried for
// the turns since the answering party's previous turn, and older ones are not.
func TestCondensedDialogueKeepsDecisionInputs(t *testing.T) {
	f := newFixture(t, formal.Options{Rounds: 3}, richRules()...)
	s := f.MustRun()
	r := result(t, s)
	if r.Metrics.Refused != 0 || len(r.Forfeits) != 0 || r.Metrics.Rebuts == 0 || r.Metrics.Undercuts == 0 || r.Metrics.Supports == 0 ||
		r.Metrics.Concessions == 0 || r.Metrics.Retractions == 0 {
		t.Fatalf("the script does not play every kind of move: metrics %+v forfeits %v", r.Metrics, r.Forfeits)
	}
	stmt := map[string]formal.ArgumentView{} // argument id → argument
	for _, a := range r.Arguments {
		stmt[a.ID] = a
	}
	for _, tag := range []string{"r3/opp-2", "closing/opp", "framework/classify", "verdict"} {
		p := f.Prompt(tag)
		lines := map[string]string{} // move id → its line in the dialogue
		for _, l := range strings.Split(p, "\n") {
			if id, _, ok := strings.Cut(strings.TrimPrefix(l, "["), "] "); ok && strings.HasPrefix(l, "[") {
				lines[id] = l
			}
		}
		var played int
		for _, id := range []string{"r0/pro", "r0/opp", "r1/pro-1", "r1/opp-1", "r1/pro-2", "r1/opp-2", "r2/pro-1", "r2/opp-1", "r2/pro-2", "r2/opp-2",
			"r3/pro-1", "r3/opp-1", "r3/pro-2", "r3/opp-2", "closing/pro", "closing/opp"} {
			tu := s.Turns[id]
			if tu == nil || tu.Move == nil {
				continue
			}
			var tm formal.TurnMove
			if err := json.Unmarshal(tu.Move, &tm); err != nil {
				t.Fatal(err)
			}
			for _, m := range tm.Moves {
				played++
				l, ok := lines[m.ID]
				switch {
				case !ok:
					if tag != "r3/opp-2" || !strings.HasPrefix(id, "r3/opp-2") && !strings.HasPrefix(id, "closing/") {
						t.Errorf("%s: move %s of %s is missing", tag, m.ID, id)
					}
					continue
				case !strings.HasPrefix(l, fmt.Sprintf("[%s] %s ", m.ID, m.Party)):
					t.Errorf("%s: move %s is not %s's: %s", tag, m.ID, m.Party, l)
				case m.Act == formal.ActClaim && !strings.Contains(l, fmt.Sprintf("claim %q", m.Statement)):
					t.Errorf("%s: claim %s lacks its statement: %s", tag, m.ID, l)
				case m.Act == formal.ActClaim && m.Target != "" && !strings.Contains(l, "against "+m.Target) && !strings.Contains(l, "inference of "+m.RepliesTo):
					t.Errorf("%s: counter-claim %s lacks what it attacks: %s", tag, m.ID, l)
				case m.Act == formal.ActSince && !strings.Contains(l, m.Target+" since {"):
					t.Errorf("%s: since %s lacks its conclusion %s: %s", tag, m.ID, m.Target, l)
				case m.Act != formal.ActClaim && m.Act != formal.ActSince && !strings.Contains(l, m.Act+" "+m.Target):
					t.Errorf("%s: %s lacks its act and statement: %s", tag, m.ID, l)
				}
				for _, pr := range m.Premises {
					if !strings.Contains(l, fmt.Sprintf("%s %q", pr.ID, pr.Text)) {
						t.Errorf("%s: since %s lacks premise %s: %s", tag, m.ID, pr.ID, l)
					}
				}
			}
		}
		if played != r.Metrics.Moves {
			t.Fatalf("%d moves checked, the debate played %d", played, r.Metrics.Moves)
		}
		// Every argument and relation of the framework is in the request.
		for _, a := range r.Arguments {
			if !strings.Contains(p, fmt.Sprintf("%q", a.Text)) && tag != "r3/opp-2" {
				t.Errorf("%s: argument %s (%s %q) is missing", tag, a.ID, a.Statement, a.Text)
			}
		}
		for _, rel := range r.Relations {
			if _, ok := lines[rel.Move]; !ok && tag != "r3/opp-2" {
				t.Errorf("%s: the move %s of relation %s -%s-> %s is missing", tag, rel.Move, rel.From, rel.Kind, rel.To)
			}
		}
	}
	// Explanations: r3/opp-2 answers r3/pro-2 and sees round 3 from r2/opp-2
	// on in full; round 1's explanations are condensed away.
	p := f.Prompt("r3/opp-2")
	for _, id := range []string{"r2/opp-2#1", "r3/pro-1#1", "r3/opp-1#1", "r3/pro-2#1"} {
		if !strings.Contains(p, prose(id, 80)[:60]) {
			t.Errorf("r3/opp-2 lacks the explanation of %s", id)
		}
	}
	for _, id := range []string{"r0/pro#1", "r1/pro-1#1", "r1/opp-2#2", "r2/pro-2#1"} {
		if strings.Contains(p, id+":") {
			t.Errorf("r3/opp-2 still carries the explanation of %s", id)
		}
	}
	if p := f.Prompt("r3/pro-1"); !strings.Contains(p, prose("r2/opp-2#1", 80)[:60]) || strings.Contains(p, "r2/pro-2#1:") {
		t.Error("r3/pro-1 does not carry exactly the turn it answers (r2/opp-2) in full")
	}
}
