package formal_test

import (
	"encoding/json"
	"fmt"
	"hash/fnv"
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
	vocab := strings.Fields("deploy team service module boundary latency queue CI release ownership binary " +
		"database schema migration incident rollback cost on-call contract interface coupling test")
	h := fnv.New64a()
	h.Write([]byte(id))
	x := h.Sum64()
	var b strings.Builder
	b.WriteString(id + ":")
	for range n {
		x ^= x << 13
		x ^= x >> 7
		x ^= x << 17
		b.WriteString(" " + vocab[x%uint64(len(vocab))])
	}
	return b.String()
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

// TestTokensSharePrefixes: every request of the debate, the moderator's
// included, starts with the one structured-output schema of the format, one
// system prompt, the background (with a shared context of a few pages, as
// --context gives) and the dialogue so far, which only grows at its end; the
// party's role, the commitment stores and the task come last. Providers read
// the schema first: the moderator's own schemas used to put its requests
// apart. So every request after the first repeats most of an earlier one as
// a prefix a provider has cached, whichever party spoke before, in a
// one-round debate as in an eight-round one.
func TestTokensSharePrefixes(t *testing.T) {
	for _, rounds := range []int{1, 8} {
		opts := formal.Options{Rounds: rounds, Context: formal.Context{Dir: ".", Facts: []string{"Go monolith, 40 packages"},
			Digest: "Repository digest:\n" + strings.Repeat("internal/billing/invoice.go: invoices are built from usage records and plans.\n", 60)}}
		rs := fullRules()
		if rounds > 1 {
			rs = chainRules(rounds)
		}
		f := newFixture(t, opts, rs...)
		f.MustRun()
		rep := f.Tokens()
		t.Logf("%d rounds: %v", rounds, rep)
		if got := f.Tags(); got[len(got)-1] != "verdict" {
			t.Fatalf("%d rounds: the debate did not reach the verdict: %v", rounds, got)
		}
		for i, r := range rep.PerRequest {
			if i == 0 {
				continue
			}
			// The moderator's tasks (the framework with its scores) are
			// long next to a one-round dialogue: at least half of its
			// requests is still the debaters' prefix.
			want := 0.8
			if r.Tag == "framework/classify" || r.Tag == "verdict" {
				want = 0.5
			}
			if share := float64(r.Shared) / float64(r.Total); share < want {
				t.Errorf("%d rounds: request %d (%s) repeats %.0f%% of an earlier prefix, want at least %.0f%%", rounds, i, r.Tag, 100*share, 100*want)
			}
		}
		if rep.Shared() < 0.8 {
			t.Errorf("%d rounds: %.1f%% of request bytes repeat an earlier prefix, want at least 80%%", rounds, 100*rep.Shared())
		}
	}
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
