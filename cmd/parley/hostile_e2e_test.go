package main_test

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/parleyhq/parley/internal/llm/fakellm"
	"github.com/parleyhq/parley/internal/llm/script"
)

// hostile is what a compromised or prompt-injected model might send: a
// window-title change, a screen clear, a cursor move, a carriage return and
// backspaces that would overwrite what was printed, C1 controls (U+009B is
// CSI to xterm) and a bidi override that reorders what a reader sees.
const hostile = "Redis wins.\x1b]0;pwned\x07\x1b[2J\x1b[1;1H\rPostgreSQL wins\x08\x08\x08\x08 \u009b2J \u202egnp.exe\x7f"

// TestHostileTextStaysInert: terminal escape sequences in a topic and in
// model replies reach neither the terminal (debate, list, show, export md)
// nor the decision document, Markdown and PDF exports; the JSON export keeps
// the text, escaped.
func TestHostileTextStaysInert(t *testing.T) {
	base := loadScript(t, "perspectives.yaml")
	rules := append([]script.Rule{
		{Tag: "r1/argument/performance-advocate", Reply: &script.Reply{Text: hostile}},
		{Tag: "r1/rebuttal/operational-simplicity", Reply: &script.Reply{Text: "I rebut: " + hostile}},
	}, base.Rules...)
	sc, err := script.New(rules...)
	if err != nil {
		t.Fatal(err)
	}
	_, dir, env := fakeOpenAI(t, sc, fakellm.WithTokenDelay(0))
	topic := "Should we use Redis\x1b[2J or PostgreSQL\x1b]0;x\x07 for caching\u009b2J\u202e?"
	r := mustParley(t, dir, env, "", "debate", topic, "--no-checkpoints", "--model", "test-model")
	inert := func(what, s string) {
		t.Helper()
		for _, c := range []string{"\x1b", "\x07", "\x08", "\r", "\u009b", "\u202e", "\x7f"} {
			if strings.Contains(s, c) {
				t.Errorf("%s contains the control character %q", what, c)
			}
		}
	}
	inert("debate stdout", r.stdout)
	inert("debate stderr", r.stderr)
	if !strings.Contains(r.stdout, "␛]0;pwned␇") {
		t.Errorf("the hostile reply is not shown made visible:\n%s", r.stdout)
	}
	l := mustParley(t, dir, env, "", "list")
	inert("list", l.stdout)
	inert("list --json", mustParley(t, dir, env, "", "list", "--json").stdout)
	id := strings.Fields(strings.Split(l.stdout, "\n")[1])[0]
	inert("show", mustParley(t, dir, env, "", "show", id).stdout)
	inert("export md", mustParley(t, dir, env, "", "export", id, "--as", "md", "--full").stdout)
	pdf := filepath.Join(dir, "d.pdf")
	mustParley(t, dir, env, "", "export", id, "--as", "pdf", "--full", "-o", pdf)
	if b, err := os.ReadFile(pdf); err != nil || strings.Contains(string(b), "pwned\x07") {
		t.Errorf("pdf: %v, or it holds the raw sequence", err)
	}
	docs, _ := filepath.Glob(filepath.Join(dir, "docs", "decisions", "*.md"))
	for _, d := range docs {
		b, _ := os.ReadFile(d)
		inert("decision document", string(b))
	}
	js := mustParley(t, dir, env, "", "export", id, "--as", "json", "--full").stdout
	inert("json export", js)
	if !strings.Contains(js, `\u001b]0;pwned\u0007`) || !strings.Contains(js, `\u009b2J \u202egnp.exe\u007f`) {
		t.Error("the JSON export does not keep the reply, escaped")
	}
}
