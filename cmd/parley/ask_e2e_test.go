package main_test

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/parleyhq/parley/internal/llm/fakellm"
	"github.com/parleyhq/parley/internal/llm/script"
)

// TestAskEndToEnd runs a bull vs. bear debate against the fake server, then
// asks the bear and the moderator follow-up questions: each answer streams
// to standard output, lands in the debate's log as ask/N/AGENT, and shows in
// the full export.
func TestAskEndToEnd(t *testing.T) {
	base := loadScript(t, "bullbear.yaml")
	sc, err := script.New(append(base.Rules,
		script.Rule{Tag: "ask/1/bear", Reply: &script.Reply{Text: "Cash conversion above 1x for two years would turn me bullish."}},
		script.Rule{Tag: "ask/2/moderator", Reply: &script.Reply{Text: "Earnings quality matters most: it decides whether growth is paid in cash."}},
	)...)
	if err != nil {
		t.Fatal(err)
	}
	srv := fakellm.Start(sc, fakellm.WithAPIKey("test-key"))
	defer srv.Close()
	dir := t.TempDir()
	env := openaiEnv(srv, filepath.Join(dir, "parley.db"))
	if r := parley(t, dir, env, "", "debate", "NVDA", "--offline", "--model", "test-model"); r.code != 0 {
		t.Fatalf("debate: exit %d\n%s", r.code, r.stderr)
	}
	list := parley(t, dir, env, "", "list", "--json")
	id := between(list.stdout, `"id": "`, `"`)

	r := parley(t, dir, env, "", "ask", id, "--agent", "bear", "--model", "test-model", "What would make you turn bullish?")
	if r.code != 0 {
		t.Fatalf("ask: exit %d\nstdout:\n%s\nstderr:\n%s", r.code, r.stdout, r.stderr)
	}
	if !strings.Contains(r.stdout, "Bear · follow-up (openai/test-model)") || !strings.Contains(r.stdout, "Cash conversion above 1x for two years") {
		t.Errorf("ask stdout:\n%s", r.stdout)
	}
	if !strings.Contains(r.stderr, "Saved as ask/1/bear in debate "+id) {
		t.Errorf("ask stderr:\n%s", r.stderr)
	}
	// The question reached the model with the debate as context.
	reqs := srv.Requests()
	last := reqs[len(reqs)-1]
	if last.Parsed.Tag != "ask/1/bear" || !strings.Contains(string(last.Body), "What would make you turn bullish?") || !strings.Contains(string(last.Body), "BEAR OPENING:") {
		t.Fatalf("last request %s:\n%s", last.Parsed.Tag, last.Body)
	}
	r = parley(t, dir, env, "", "ask", id, "--agent", "moderator", "--model", "test-model", "Which", "contention", "matters", "most?")
	if r.code != 0 {
		t.Fatalf("ask moderator: exit %d\n%s", r.code, r.stderr)
	}

	e := exportJSON(t, dir, env, id)
	var got []string
	for _, tr := range e.Turns {
		got = append(got, tr.ID)
	}
	assertSameSet(t, got, []string{"research/bull", "research/bear", "opening/bull", "opening/bear", "rebuttal/1/bull", "rebuttal/1/bear", "synthesis/moderator", "ask/1/bear", "ask/2/moderator"})
	if e.Status != "completed" {
		t.Errorf("status after follow-ups: %s", e.Status)
	}
	if r := parley(t, dir, env, "", "export", id, "-o", filepath.Join(dir, "debate.md")); r.code != 0 {
		t.Fatalf("export: %s", r.stderr)
	}
	doc, _ := os.ReadFile(filepath.Join(dir, "debate.md"))
	for _, want := range []string{"### Follow-up Questions", "**Q1 (to the bear):** What would make you turn bullish?",
		"#### Bear answers Q1 (openai/test-model)", "**Q2 (to the moderator):** Which contention matters most?", "Earnings quality matters most"} {
		if !strings.Contains(string(doc), want) {
			t.Errorf("export lacks %q:\n%s", want, doc)
		}
	}
}

func TestAskRefusalsEndToEnd(t *testing.T) {
	dir := t.TempDir()
	env := []string{"PARLEY_DB=" + filepath.Join(dir, "parley.db")}
	if r := parley(t, dir, env, "", "debate", "NVDA", "--offline"); r.code != 0 {
		t.Fatalf("debate: exit %d\n%s", r.code, r.stderr)
	}
	list := parley(t, dir, env, "", "list", "--json")
	id := between(list.stdout, `"id": "`, `"`)
	for _, c := range []struct {
		args []string
		code int
		want string
	}{
		{[]string{"ask", id, "--agent", "bear", "Why?"}, 4, "needs a language model"},
		{[]string{"ask", id, "--agent", "judge", "Why?"}, 2, "ask bull, bear or moderator"},
		{[]string{"ask", id, "--agent", "bear"}, 2, "give the debate ID and a question"},
		{[]string{"ask", "DEB-none", "--agent", "bear", "Why?"}, 2, "no debate DEB-none"},
	} {
		r := parley(t, dir, env, "", c.args...)
		if r.code != c.code || !strings.Contains(r.stderr, c.want) {
			t.Errorf("%v: exit %d, want %d with %q\n%s", c.args, r.code, c.code, c.want, r.stderr)
		}
	}
}
