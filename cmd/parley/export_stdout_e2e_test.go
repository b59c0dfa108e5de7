package main_test

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestExportDashIsStandardOutput: "-o -" writes to standard output, as for
// most tools; it wrote a file named "-" in the current directory.
func TestExportDashIsStandardOutput(t *testing.T) {
	dir := t.TempDir()
	env := []string{"PARLEY_DB=" + filepath.Join(dir, "parley.db")}
	mustParley(t, dir, env, "", "debate", "NVDA", "--offline", "--no-checkpoints")
	var sums []struct{ ID string }
	if err := json.Unmarshal([]byte(mustParley(t, dir, env, "", "list", "--json").stdout), &sums); err != nil || len(sums) != 1 {
		t.Fatalf("list: %v %v", err, sums)
	}
	r := mustParley(t, dir, env, "", "export", sums[0].ID, "-o", "-")
	if !strings.HasPrefix(r.stdout, "# NVDA Bull vs. Bear Debate") || strings.Contains(r.stderr, "Wrote") {
		t.Errorf("export -o -: stdout %.80q, stderr %q; want the document on standard output", r.stdout, r.stderr)
	}
	if _, err := os.Stat(filepath.Join(dir, "-")); err == nil {
		t.Error(`export -o - wrote a file named "-"`)
	}
}
