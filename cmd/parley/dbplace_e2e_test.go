package main_test

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// TestMistypedDatabaseCreatesNothing: reading commands with a --db that
// does not exist say so and create neither the directory nor a database.
func TestMistypedDatabaseCreatesNothing(t *testing.T) {
	dir := t.TempDir()
	missing := filepath.Join(dir, "no", "such", "dir", "x.db")
	for _, args := range [][]string{{"list"}, {"show", "DEB-00000000"}, {"export", "DEB-00000000"}} {
		r := parley(t, dir, nil, "", append([]string{"--db", missing}, args...)...)
		if r.code != 2 || !strings.Contains(r.stderr, "no Parley database at "+missing) {
			t.Errorf("%v: exit %d, want 2 saying there is no database:\n%s", args, r.code, r.stderr)
		}
	}
	if _, err := os.Stat(filepath.Join(dir, "no")); !os.IsNotExist(err) {
		t.Errorf("a reading command created %s", filepath.Join(dir, "no"))
	}
	// With the default location and no database yet, list just says so.
	r := mustParley(t, dir, nil, "", "list")
	if !strings.Contains(r.stderr, "No debates yet") {
		t.Errorf("list on a new machine:\n%s", r.stderr)
	}
	// A filter that matches nothing says so, not "No debates yet".
	_, d2, env := fakeOpenAI(t, loadScript(t, "perspectives.yaml"))
	mustParley(t, d2, env, "", "debate", redisTopic, "--no-checkpoints", "--model", "test-model")
	r = mustParley(t, d2, env, "", "list", "--status", "paused")
	if !strings.Contains(r.stderr, "No debates match --status paused") {
		t.Errorf("list --status paused with no match:\n%s", r.stderr)
	}
}

// mountTmpfs mounts a tmpfs of size at a new directory for the test, or
// skips the test where mounting is not allowed (not root).
func mountTmpfs(t *testing.T, size string) string {
	t.Helper()
	dir := t.TempDir()
	if out, err := exec.Command("mount", "-t", "tmpfs", "-o", "size="+size, "tmpfs", dir).CombinedOutput(); err != nil {
		t.Skipf("cannot mount a tmpfs here (%v: %s); the test needs root", err, out)
	}
	t.Cleanup(func() { _ = exec.Command("umount", "-l", dir).Run() })
	return dir
}

// TestReadOnlyDatabasePlace: with the database on a read-only filesystem,
// list and show still read it; a debate is refused with exit 2 saying the
// place is read-only.
func TestReadOnlyDatabasePlace(t *testing.T) {
	mnt := mountTmpfs(t, "16m")
	srv, dir, _ := fakeOpenAI(t, loadScript(t, "perspectives.yaml"))
	env := openaiEnv(srv, filepath.Join(mnt, "parley.db"))
	mustParley(t, dir, env, "", "debate", redisTopic, "--no-checkpoints", "--model", "test-model")
	if out, err := exec.Command("mount", "-o", "remount,ro", mnt).CombinedOutput(); err != nil {
		t.Skipf("cannot remount read-only: %v %s", err, out)
	}
	l := mustParley(t, dir, env, "", "list")
	if !strings.Contains(l.stdout, "completed") {
		t.Errorf("list on a read-only database:\n%s\n%s", l.stdout, l.stderr)
	}
	r := parley(t, dir, env, "", "debate", redisTopic, "--no-checkpoints", "--model", "test-model")
	if r.code != 2 || !strings.Contains(r.stderr, "is read-only") || !strings.Contains(r.stderr, "--db") {
		t.Errorf("debate on a read-only database: exit %d, want 2 saying it is read-only:\n%s", r.code, r.stderr)
	}
}

// TestDiskFull: a debate whose database fills its 2 MB filesystem stops
// with a clear error; once space is freed, --resume completes it with
// nothing lost.
func TestDiskFull(t *testing.T) {
	mnt := mountTmpfs(t, "2m")
	srv, dir, _ := fakeOpenAI(t, loadScript(t, "perspectives.yaml"))
	env := openaiEnv(srv, filepath.Join(mnt, "parley.db"))
	// Leave the database little room: a filler takes most of the space.
	filler := filepath.Join(mnt, "filler")
	if err := os.WriteFile(filler, make([]byte, 1900<<10), 0o600); err != nil {
		t.Fatal(err)
	}
	r := parley(t, dir, env, "", "debate", redisTopic, "--no-checkpoints", "--model", "test-model", "--json")
	if r.code == 0 {
		t.Skip("the debate fit in the space left; nothing to test")
	}
	if !strings.Contains(r.stderr, "full") {
		t.Errorf("a full disk: exit %d, want an error saying the disk is full:\n%s", r.code, r.stderr)
	}
	id := ""
	for _, line := range strings.Split(r.stdout, "\n") {
		if i := strings.Index(line, `"debate":"`); i >= 0 {
			id = line[i+10 : i+22]
			break
		}
	}
	if err := os.Remove(filler); err != nil {
		t.Fatal(err)
	}
	if id == "" {
		// The debate could not even be created: a new run must work now.
		mustParley(t, dir, env, "", "debate", redisTopic, "--no-checkpoints", "--model", "test-model")
		return
	}
	mustParley(t, dir, env, "", "debate", "--resume", id)
	e := exportJSON(t, dir, env, id)
	var got []string
	for _, tr := range e.Turns {
		got = append(got, tr.ID)
	}
	if e.Status != "completed" {
		t.Fatalf("status after the resume: %s", e.Status)
	}
	assertSameSet(t, got, wantTurns)
}
