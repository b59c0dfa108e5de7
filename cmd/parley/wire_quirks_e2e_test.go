package main_test

import (
	"path/filepath"
	"strings"
	"testing"

	"github.com/parleyhq/parley/internal/llm/fakellm"
)

// TestWireQuirkyServer: a debate against an Azure OpenAI deployment URL,
// served by a gateway that starts every body with a byte order mark,
// refuses stream_options, and fronts a reasoning model whose chat template
// opens <think> with no reasoning parser. The debate completes, no
// reasoning reaches the record, and each way the calls were changed is
// said once on stderr.
func TestWireQuirkyServer(t *testing.T) {
	srv := fakellm.Start(loadScript(t, "perspectives.yaml"), fakellm.WithAPIKey("test-key"), fakellm.WithBOM(),
		fakellm.WithRejectedParams("stream_options"), fakellm.WithThinkInText(fakellm.ThinkOrphan))
	defer srv.Close()
	dir := t.TempDir()
	env := []string{"OPENAI_BASE_URL=" + srv.AzureURL("prod-deployment", "2024-10-21"), "OPENAI_API_KEY=test-key", "PARLEY_DB=" + filepath.Join(dir, "parley.db")}
	r := mustParley(t, dir, env, "", "debate", "Should we use Redis or PostgreSQL for caching?", "--no-checkpoints", "--model", "test-model")
	if strings.Contains(r.stdout, "Okay, the user says") {
		t.Errorf("the reasoning reached the terminal:\n%s", r.stdout)
	}
	for _, s := range []string{"field=stream_options", "held back until </think>"} {
		if n := strings.Count(r.stderr, s); n != 1 {
			t.Errorf("stderr says %q %d times, want once:\n%s", s, n, r.stderr)
		}
	}
	id := strings.Fields(strings.Split(mustParley(t, dir, env, "", "list").stdout, "\n")[1])[0]
	e := exportJSON(t, dir, env, id)
	if e.Status != "completed" || len(e.Turns) == 0 {
		t.Fatalf("debate %s: %s with %d turns", id, e.Status, len(e.Turns))
	}
	for _, turn := range e.Turns {
		if strings.Contains(turn.Text, "</think>") || strings.Contains(turn.Text, "Okay, the user says") {
			t.Errorf("turn %s keeps the reasoning: %q", turn.ID, turn.Text)
		}
	}
	for _, rq := range srv.Requests() {
		if rq.Path != "/openai/deployments/prod-deployment/chat/completions" || rq.Header.Get("Api-Key") != "test-key" {
			t.Fatalf("a call went to %s with api-key %q", rq.Path, rq.Header.Get("Api-Key"))
		}
	}
}
