package main_test

import (
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/parleyhq/parley/internal/llm/fakellm"
)

// TestWireNoUsage: against an OpenAI-compatible server that ignores
// stream_options.include_usage (LM Studio, older Ollama, some proxies), a
// priced model's debate says its tokens and cost are unknown, not "0
// tokens, $0.0000".
func TestWireNoUsage(t *testing.T) {
	srv := fakellm.Start(loadScript(t, "perspectives.yaml"), fakellm.WithAPIKey("test-key"), fakellm.WithoutUsage())
	defer srv.Close()
	dir := t.TempDir()
	env := openaiEnv(srv, filepath.Join(dir, "parley.db"))
	r := mustParley(t, dir, env, "", "debate", "Should we use Redis or PostgreSQL for caching?", "--no-checkpoints", "--model", "gpt-5.5")
	line := regexp.MustCompile(`(?m)^Debate DEB-\S+: .*$`).FindString(r.stderr)
	t.Log(line)
	if !strings.Contains(line, "tokens unknown") || !strings.Contains(line, "cost unknown (no token counts from the server for openai/gpt-5.5)") || strings.Contains(line, "no price") || strings.Contains(line, "$0.0000") {
		t.Errorf("closing line %q: want tokens and cost unknown\nstderr:\n%s", line, r.stderr)
	}
}
