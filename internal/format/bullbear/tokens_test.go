package bullbear_test

import (
	"fmt"
	"strings"
	"testing"

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
// rebuttals. The rebuttals start with one record, the openings and then the
// rebuttals so far, that only grows at its end, so each repeats the previous
// one's as a prefix, whichever side sent it, and each side still sees every
// argument it must answer. (The ratio to a full-transcript resend and the
// debate's shared share are logged, not asserted: with nine requests, the
// research, openings and the moderator's synthesis each bring text no
// earlier request held; see docs/benchmarks.md.)
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
	f.MustRun()
	rep := f.Tokens()
	t.Log(rep)
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
