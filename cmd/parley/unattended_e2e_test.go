package main_test

import (
	"strings"
	"testing"
)

// TestResumeNoCheckpoints: a perspectives debate run with nobody to
// answer its checkpoint pauses there and says to use --no-checkpoints;
// resuming it with --no-checkpoints, again with no one at standard input,
// answers that checkpoint and the later ones "continue" and runs to the
// end. It used to pause at the same checkpoint again.
func TestResumeNoCheckpoints(t *testing.T) {
	_, dir, env := fakeOpenAI(t, loadScript(t, "perspectives.yaml"))
	r := parley(t, dir, env, "", "debate", "Should we use Redis or PostgreSQL for caching?", "--model", "test-model")
	if r.code != 3 || !strings.Contains(r.stderr, "use --no-checkpoints to run unattended") {
		t.Fatalf("with standard input closed: exit %d, want 3 (paused at the checkpoint)\n%s", r.code, r.stderr)
	}
	id := between(r.stderr, "parley debate --resume ", "\n")
	if id == "" {
		t.Fatalf("no resume line:\n%s", r.stderr)
	}
	r = parley(t, dir, env, "", "debate", "--resume", id, "--no-checkpoints")
	if r.code != 0 {
		t.Fatalf("--resume %s --no-checkpoints: exit %d\nstdout:\n%s\nstderr:\n%s", id, r.code, r.stdout, r.stderr)
	}
	if !strings.Contains(r.stderr, "Checkpoint: continuing (--no-checkpoints)") {
		t.Errorf("the checkpoint is not said to be answered:\n%s", r.stderr)
	}
	if l := mustParley(t, dir, env, "", "list", "--json").stdout; !strings.Contains(l, `"status": "completed"`) {
		t.Errorf("list after the resume:\n%s", l)
	}
}
