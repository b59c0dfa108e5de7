package perspectives_test

import (
	"errors"
	"os"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/parleyhq/parley/internal/debate"
	"github.com/parleyhq/parley/internal/format/perspectives"
	"github.com/parleyhq/parley/internal/llm/script"
)

// TestInvalidSynthesisPausesThenResumes: a synthesis that fails validation
// even after its repair does not complete the debate: it pauses, resumable,
// and the resume asks the moderator again.
func TestInvalidSynthesisPausesThenResumes(t *testing.T) {
	rules := []script.Rule{{Tag: "analysis", Reply: analysisReply(perf, ops, flex)}}
	rules = append(rules, roundRules(1, perf, ops, flex)...)
	rules = append(rules,
		script.Rule{Tag: "r1/evaluation", Reply: evalReply("conclude", "Round 1: all accept PostgreSQL first.")},
		script.Rule{Tag: "synthesis", Reply: &script.Reply{Text: "I recommend PostgreSQL; no JSON from me."}},
	)
	f := newFixture(t, perspectives.Options{Perspectives: 3, MaxRounds: 2}, rules...)
	s, err := f.Run()
	var pe *debate.PausedError
	if !errors.As(err, &pe) || pe.Reason != debate.PauseInvalidResult || !strings.Contains(pe.Detail, "resume to ask for it again") {
		t.Fatalf("Run: %v, want a pause for an invalid result", err)
	}
	if s.Status != debate.StatusPaused || len(s.Verdict) != 0 {
		t.Fatalf("status %s with verdict %s: an invalid synthesis must not complete the debate", s.Status, s.Verdict)
	}
	f.Rescript(script.Rule{Tag: "synthesis/retry-2", Reply: synthesisReply("Medium")})
	s = f.MustRun()
	if got := f.Tags(); len(got) != 1 || got[0] != "synthesis/retry-2" {
		t.Errorf("the resume asked %v, want only synthesis/retry-2", got)
	}
	doc, err := perspectives.Format{}.Render(s, debate.RenderOptions{Summary: true})
	if err != nil || !strings.Contains(doc, "Start with PostgreSQL unlogged tables") || !strings.Contains(doc, "**Confidence:** Medium") {
		t.Errorf("the document after the resume lacks the synthesis (%v):\n%s", err, doc)
	}
}

func TestDecisionPath(t *testing.T) {
	long := strings.Repeat("é", 40) + " über naïve café résumé " + strings.Repeat("x", 80)
	for _, tc := range []struct{ topic, want string }{
		{"Should we use Redis or PostgreSQL for caching?", "docs/2026-01-15-should-we-use-redis-or-postgresql-for-caching-ba1aa4a0.md"},
		{"Café: naïve façade?", "docs/2026-01-15-cafe-naive-facade-ba1aa4a0.md"},
		{"数据库选择", "docs/2026-01-15-decision-ba1aa4a0.md"},
		{"../../etc/passwd\x00", "docs/2026-01-15-etc-passwd-ba1aa4a0.md"},
	} {
		s := &debate.State{ID: "DEB-ba1aa4a0", Topic: tc.topic, Created: created}
		if got := perspectives.DecisionPath("docs", s); got != tc.want {
			t.Errorf("DecisionPath(%q) = %q, want %q", tc.topic, got, tc.want)
		}
	}
	got := perspectives.DecisionPath("docs", &debate.State{ID: "DEB-ba1aa4a0", Topic: long, Created: created})
	name := strings.TrimPrefix(got, "docs/")
	if !utf8.ValidString(name) || len(name) > 100 || strings.ContainsAny(name, "éüï /") || !strings.HasSuffix(name, "-ba1aa4a0.md") {
		t.Errorf("long accented topic gives %q", got)
	}
	// Two debates on one topic on one day get two files.
	a := perspectives.DecisionPath("docs", &debate.State{ID: "DEB-00000001", Topic: "Same topic", Created: created})
	b := perspectives.DecisionPath("docs", &debate.State{ID: "DEB-00000002", Topic: "Same topic", Created: created})
	if a == b {
		t.Errorf("two debates share %s", a)
	}
}

// TestCustomPerspectiveWithoutTensions: the spec's own custom perspective
// declares no tensions; it pairs with a perspective whose priorities differ
// and not with one that shares them.
func TestCustomPerspectiveWithoutTensions(t *testing.T) {
	dir := t.TempDir()
	path := dir + "/settings.yaml"
	if err := os.WriteFile(path, []byte(`debate:
  custom_perspectives:
    - name: "Compliance First"
      priorities: [audit trails, data residency, SOC2 requirements]
      trade_offs: "Will accept development slowdown for compliance"
`), 0o600); err != nil {
		t.Fatal(err)
	}
	cat, err := perspectives.LoadCatalog(path)
	if err != nil {
		t.Fatal(err)
	}
	if !cat.InTension([]string{"Compliance First", "Performance Advocate"}) {
		t.Error("Compliance First cannot be paired with Performance Advocate")
	}
	cat = append(cat, perspectives.Perspective{Name: "Audit Fan", Priorities: []string{"complete audit trails"}, TradeOffs: "x"})
	if cat.InTension([]string{"Compliance First", "Audit Fan"}) {
		t.Error("two perspectives sharing their priorities were paired as opposed")
	}
}
