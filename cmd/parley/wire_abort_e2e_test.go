package main_test

import (
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/parleyhq/parley/internal/llm/fakellm"
)

// TestWireAbortedGenerations: against vLLM's /v1/messages on an engine
// that aborts every generation half way (a null stop_reason), no half
// reply stands as a turn: each call is retried, and the debate stops
// saying why, rather than complete with shortened turns.
func TestWireAbortedGenerations(t *testing.T) {
	srv := fakellm.Start(loadScript(t, "perspectives.yaml"), fakellm.WithAPIKey("test-key"), fakellm.WithFinishReason("abort"))
	defer srv.Close()
	dir := t.TempDir()
	env := []string{"ANTHROPIC_BASE_URL=" + srv.AnthropicURL(), "ANTHROPIC_API_KEY=test-key", "PARLEY_DB=" + filepath.Join(dir, "parley.db")}
	r := parley(t, dir, env, "", "debate", redisTopic, "--no-checkpoints", "--model", "test-model")
	t.Logf("exit %d\nstderr:\n%s", r.code, r.stderr)
	if r.code == 0 {
		t.Errorf("the debate completed on aborted generations:\n%s", r.stdout)
	}
	if !strings.Contains(r.stderr, "without a stop_reason") {
		t.Errorf("stderr does not say why:\n%s", r.stderr)
	}
	if n := len(srv.Requests()); n < 2 {
		t.Errorf("%d requests: the aborted call was not tried again", n)
	}
	id := regexp.MustCompile(`DEB-[0-9a-f]+`).FindString(r.stderr)
	if id == "" {
		t.Fatalf("no debate named:\n%s", r.stderr)
	}
	if e := exportJSON(t, dir, env, id); len(e.Turns) != 0 {
		t.Errorf("debate %s recorded %d turns from aborted generations: %+v", id, len(e.Turns), e.Turns)
	}
}
