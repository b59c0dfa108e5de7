package main_test

import (
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/parleyhq/parley/internal/llm/fakellm"
)

// TestWireServerReportedCost: against a server that says what each call
// cost (OpenRouter's usage.cost), a model without a price costs what the
// server said, rather than "cost unknown"; parley list shows it too.
func TestWireServerReportedCost(t *testing.T) {
	srv := fakellm.Start(loadScript(t, "perspectives.yaml"), fakellm.WithAPIKey("test-key"), fakellm.WithUsageShape(fakellm.UsageOpenRouter))
	defer srv.Close()
	dir := t.TempDir()
	env := append(openaiEnv(srv, filepath.Join(dir, "parley.db")), "PARLEY_CONFIG="+os.DevNull)
	r := mustParley(t, dir, env, "", "debate", redisTopic, "--no-checkpoints", "--model", "qwen/qwen3-235b")
	line := regexp.MustCompile(`(?m)^Debate DEB-\S+: .*$`).FindString(r.stderr)
	t.Log(line)
	if !regexp.MustCompile(`\$0\.\d*[1-9]`).MatchString(line) || strings.Contains(line, "unknown") || strings.Contains(line, "no price") {
		t.Errorf("closing line %q: want the cost the server reported\nstderr:\n%s", line, r.stderr)
	}
	l := mustParley(t, dir, env, "", "list")
	if strings.Contains(l.stdout, " unknown ") || strings.Contains(l.stderr, "no price for") {
		t.Errorf("list: want the server's cost, not unknown:\nstdout:\n%s\nstderr:\n%s", l.stdout, l.stderr)
	}
}
