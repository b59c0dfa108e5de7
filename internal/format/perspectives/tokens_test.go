package perspectives_test

import (
	"fmt"
	"strings"
	"testing"

	"github.com/parleyhq/parley/internal/format/formattest"
	"github.com/parleyhq/parley/internal/format/perspectives"
	"github.com/parleyhq/parley/internal/llm/script"
)

// prose is a reply of n words that differs per id, phrase by phrase, as a
// real debater's does (the repetition check would end a debate that repeats
// itself).
func prose(id string, n int) string {
	return formattest.Prose(id, n, strings.Fields("latency cost operations cache Redis PostgreSQL replica failover memory eviction "+
		"budget team on-call migration interface benchmark throughput durability backup schema index tail p99 "+
		"risk vendor license hosting upgrade incident rollback consistency")...)
}

// eightRounds scripts a three-perspective debate that never converges, with
// 250-word arguments and rebuttals and a moderator who lists open points.
func eightRounds(t *testing.T) *fixture {
	rules := []script.Rule{{Tag: "analysis", Reply: analysisReply(perf, ops, flex)}}
	for r := 1; r <= 8; r++ {
		for _, p := range []string{perf, ops, flex} {
			for _, kind := range []string{"argument", "rebuttal"} {
				id := fmt.Sprintf("r%d/%s/%s", r, kind, slug(p))
				rules = append(rules, script.Rule{Tag: id, Reply: &script.Reply{Text: prose(id, 250)}})
			}
		}
		rules = append(rules, script.Rule{Tag: fmt.Sprintf("r%d/evaluation", r), Reply: &script.Reply{JSON: formattest.JSON(map[string]any{
			"summary": fmt.Sprintf("Round %d: latency and operations still split; flexibility leans to an interface.", r), "agreement": false, "stagnation": false,
			"clear_winner": "", "new_points": true, "decision": "continue", "reason": "new points are still emerging", "off_topic": []string{},
			"open_points": []string{
				fmt.Sprintf("Performance Advocate holds that p99 under 1 ms needs Redis (round %d); Operational Simplicity disputes it", r),
				fmt.Sprintf("Operational Simplicity holds that a second datastore doubles on-call load (round %d); Future Flexibility disputes it", r),
			},
		})}})
	}
	rules = append(rules, script.Rule{Tag: "synthesis", Reply: synthesisReply("Low")})
	return newFixture(t, perspectives.Options{Perspectives: 3, MaxRounds: 8}, rules...)
}

// TestTokensGrowLinearly: over eight rounds the prompts carry older rounds as
// the moderator's summaries and open points, so the debate sends at most half
// of what resending the whole transcript would, and most of every request is
// a prefix a provider has cached.
func TestTokensGrowLinearly(t *testing.T) {
	f := eightRounds(t)
	f.MustRun()
	rep := f.Tokens()
	t.Log(rep)
	if rep.Ratio() > 0.5 {
		t.Errorf("input tokens are %.2f of a full-transcript resend, want at most 0.5: %v", rep.Ratio(), rep)
	}
	if rep.Shared() < 0.8 {
		t.Errorf("%.1f%% of request bytes repeat an earlier prefix, want at least 80%%: %v", 100*rep.Shared(), rep)
	}
	// Nothing contested is dropped: the last round's prompt still lists the
	// open points of round 1 and the synthesis those of every round.
	last := f.Prompt("r8/argument/" + slug(perf))
	if !strings.Contains(last, "needs Redis (round 1)") || !strings.Contains(last, "doubles on-call load (round 6)") {
		t.Errorf("round 8 lost open points of earlier rounds:\n%s", last)
	}
	if !strings.Contains(last, prose("r7/rebuttal/"+slug(ops), 250)[:80]) {
		t.Error("round 8 does not see round 7 in full")
	}
	if strings.Contains(last, "r1/argument/") {
		t.Error("round 8 still carries round 1's full text")
	}
	syn := f.Prompt("synthesis")
	for r := 1; r <= 8; r++ {
		if !strings.Contains(syn, fmt.Sprintf("needs Redis (round %d)", r)) {
			t.Errorf("synthesis prompt lacks round %d's open points", r)
		}
	}
}
