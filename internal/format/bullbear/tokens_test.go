package bullbear_test

import (
	"fmt"
	"strings"
	"testing"

	"github.com/parleyhq/parley/internal/debate"
	"github.com/parleyhq/parley/internal/format/formattest"
	"github.com/parleyhq/parley/internal/llm/script"
)

// prose is a reply of n words that differs per id, as real debaters' do.
func prose(id string, n int) string {
	return formattest.Prose(id, n, strings.Fields("revenue margin cash flow capex hyperscaler demand supply valuation multiple growth "+
		"competition export control inventory backlog pricing gross operating dividend buyback guidance risk "+
		"concentration cycle roadmap software moat")...)
}

// TestTokensDeepDebate runs a deep debate (two rebuttal rounds, the longest
// the format has) with 400-word research, four-point openings and 250-word
// rebuttals. The research and opening requests of the two sides differ
// only from the role line on, after the instructions both share. The
// rebuttals start with one record, the openings and then the rebuttals so
// far, that only grows at its end, so each repeats the previous one's as a
// prefix, whichever side sent it, and each side still sees every argument
// it must answer.
//
// The goals (at most 0.5 of a full-transcript resend, 80% of the
// bytes in a shared prefix) are out of reach here without dropping what a
// role must see or the synthesis's structured output (see
// docs/benchmarks.md): the figures reached are asserted, so that a change
// that costs tokens or breaks a shared prefix fails.
func TestTokensDeepDebate(t *testing.T) {
	opts := nvdaOptions(t)
	opts.Deep = true
	var rules []script.Rule
	point := func(side string, i int) string {
		return prose(fmt.Sprintf("opening/%s/%d", side, i), 80) + " (10-K FY2026)"
	}
	for _, side := range []string{"bull", "bear"} {
		opening := "Case:\n"
		for i := range 4 {
			opening += "- " + point(side, i) + "\n"
		}
		rules = append(rules,
			script.Rule{Tag: "research/" + side, Reply: &script.Reply{Text: prose("research/"+side, 400)}},
			script.Rule{Tag: "opening/" + side, Reply: &script.Reply{Text: opening}})
		op := map[string]string{"bull": "bear", "bear": "bull"}[side]
		for r := 1; r <= 2; r++ {
			id := fmt.Sprintf("rebuttal/%d/%s", r, side)
			text := "> " + point(op, r) + "\n\n" + prose(id, 120) + "\n\n> " + point(op, r+1) + "\n\n" + prose(id+"/2", 120)
			rules = append(rules, script.Rule{Tag: id, Reply: &script.Reply{Text: text}})
		}
	}
	f := newFixture(t, opts, rules...)
	st := f.MustRun()
	rep := f.Tokens()
	t.Log(rep)
	// 0.60 until the claims block came to list the 18 lines and ratios
	// the fact check had come to hold (0.5997 to 0.6052 of a resend: 62
	// tokens more in each debater's instructions, shared by every request).
	if rep.Requests != 9 || rep.Ratio() > 0.61 || rep.Shared() < 0.465 {
		t.Errorf("%v; want 9 requests, at most 0.61 of a resend and at least 46.5%% shared", rep)
	}
	// The second research and opening requests (the two sides' run at
	// once, in either order) repeat the first's up to their role line,
	// after the instructions both sides share.
	phase := map[string]string{"research": "Phase 1 (Research)", "opening": "Phase 2 (Opening)"}
	seen := map[string]bool{}
	for _, r := range rep.PerRequest {
		name, side, _ := strings.Cut(r.Tag, "/")
		if phase[name] == "" || (side != "bull" && side != "bear") {
			continue
		}
		if !seen[name] {
			seen[name] = true // the first of the two: nothing earlier to repeat
			continue
		}
		msgs := f.Requests(r.Tag)[0].Messages
		task := msgs[len(msgs)-1].Text
		role := strings.Index(task, "You are the "+strings.ToUpper(side)+" analyst")
		if role < 0 || !strings.Contains(task[:role], phase[name]) || r.Shared < r.Total-(len(task)-role)-len("\n") {
			t.Errorf("%s repeats %d of %d bytes, want all from its role line on, after the shared instructions (at %d of its %d-byte task)", r.Tag, r.Shared, r.Total, role, len(task))
		}
		delete(phase, name)
	}
	if len(phase) > 0 {
		t.Errorf("no second request for %v", phase)
	}
	keepsDecisionInputs(t, f, st)
	var prev *formattest.RequestShare
	for i, r := range rep.PerRequest {
		if !strings.HasPrefix(r.Tag, "rebuttal/") {
			continue
		}
		// A later rebuttal repeats the earlier one's system prompt and
		// record: all of it but its task.
		if prev != nil && r.Shared < prev.Total-len(f.Requests(prev.Tag)[0].Messages[len(f.Requests(prev.Tag)[0].Messages)-1].Text)-8 {
			t.Errorf("%s repeats %d bytes of an earlier request, want at least the %s request's but its task", r.Tag, r.Shared, prev.Tag)
		}
		msgs := f.Requests(r.Tag)[0].Messages
		if task := msgs[len(msgs)-1].Text; strings.Contains(task, "rebuttal/1/") {
			t.Errorf("%s carries an earlier rebuttal in its task, after the role line, not in the shared record", r.Tag)
		}
		prev = &rep.PerRequest[i]
	}
	last := f.Prompts("rebuttal/2/bear")
	for _, want := range []string{"BULL OPENING:", "BEAR OPENING:", "BULL REBUTTAL (round 1):", "BEAR REBUTTAL (round 1):", "BULL REBUTTAL (round 2):", prose("rebuttal/2/bull/2", 120)} {
		if !strings.Contains(last, want) {
			t.Errorf("the last rebuttal's prompt lacks %q", want)
		}
	}
}

// keepsDecisionInputs checks that the cheaper prompts still carry, in full,
// what each role decides from: an opening its own research summary (every
// figure with its source); a rebuttal every argument the other side has
// made so far; the synthesis both openings, every rebuttal and the fact
// check.
func keepsDecisionInputs(t *testing.T, f *fixture, st *debate.State) {
	t.Helper()
	text := func(id string) string {
		tt := st.Completed(id)
		if tt == nil {
			t.Fatalf("turn %s did not complete", id)
		}
		return strings.TrimSpace(tt.Text)
	}
	for _, side := range []string{"bull", "bear"} {
		if !strings.Contains(f.Prompt("opening/"+side), text("research/"+side)) {
			t.Errorf("the %s opening's prompt lacks its research summary", side)
		}
	}
	order := []string{"opening/bull", "opening/bear", "rebuttal/1/bull", "rebuttal/1/bear", "rebuttal/2/bull", "rebuttal/2/bear"}
	for i, id := range order[2:] {
		side := id[strings.LastIndex(id, "/")+1:]
		prompt := f.Prompt(id)
		for _, earlier := range order[:i+2] {
			if !strings.HasSuffix(earlier, "/"+side) && !strings.Contains(prompt, text(earlier)) {
				t.Errorf("%s's prompt lacks the opponent's %s", id, earlier)
			}
		}
	}
	syn := f.Prompt("synthesis/moderator")
	for _, id := range order {
		if !strings.Contains(syn, text(id)) {
			t.Errorf("the synthesis prompt lacks %s", id)
		}
	}
	if !strings.Contains(syn, "FACT CHECK (by Parley, against the 10-K)") {
		t.Error("the synthesis prompt lacks the fact check")
	}
}
