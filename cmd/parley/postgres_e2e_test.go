package main_test

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/parleyhq/parley/internal/llm/fakellm"
	"github.com/parleyhq/parley/internal/store/postgres/pgtest"
)

// TestPostgresOfflineDebate runs a debate with --db postgres://..., then
// reads it back with list and show, by the flag and by PARLEY_DATABASE_URL;
// the SQLite default is not touched.
func TestPostgresOfflineDebate(t *testing.T) {
	url := pgtest.URL(t)
	dir := t.TempDir()
	home := filepath.Join(dir, "home")
	env := []string{"HOME=" + home, "XDG_DATA_HOME=" + filepath.Join(home, "data")}
	r := mustParley(t, dir, env, "", "debate", "NVDA", "--offline", "--db", url)
	if !strings.Contains(r.stdout, "# NVDA Bull vs. Bear Debate") {
		t.Errorf("debate stdout:\n%s", r.stdout)
	}
	id := between(r.stderr, "Debate ", ":")
	if !strings.HasPrefix(id, "DEB-") {
		t.Fatalf("no debate id in stderr:\n%s", r.stderr)
	}
	for _, how := range [][]string{{"--db", url}, nil} {
		e := env
		if how == nil {
			e = append(env, "PARLEY_DATABASE_URL="+url)
		}
		list := mustParley(t, dir, e, "", append([]string{"list"}, how...)...)
		if !strings.Contains(list.stdout, id) || !strings.Contains(list.stdout, "completed") || !strings.Contains(list.stdout, "NVDA") {
			t.Errorf("list %v:\n%s", how, list.stdout)
		}
		show := mustParley(t, dir, e, "", append([]string{"show", id}, how...)...)
		if !strings.Contains(show.stdout, "# NVDA Bull vs. Bear Debate") || !strings.Contains(show.stdout, "completed") {
			t.Errorf("show %v:\n%s", how, show.stdout)
		}
	}
	if _, err := os.Stat(filepath.Join(home, "data", "parley")); !os.IsNotExist(err) {
		t.Errorf("a debate on PostgreSQL touched the default SQLite place: %v", err)
	}
}

// TestPostgresKillAndResume: a debate on PostgreSQL killed mid-turn resumes
// from the log, every turn completed exactly once. PARLEY_DATABASE_URL takes
// precedence over the PARLEY_DB the helpers set.
func TestPostgresKillAndResume(t *testing.T) {
	srv, dir, env := fakeOpenAI(t, loadScript(t, "perspectives.yaml"), fakellm.WithTokenDelay(15*time.Millisecond))
	env = append(env, "PARLEY_DATABASE_URL="+pgtest.URL(t))
	id := killAt(t, dir, env, "r1/rebuttal/", "debate", redisTopic, "--no-checkpoints", "--model", "test-model", "--json")
	done := unfinishedTurns(t, dir, env, id)
	requestsBefore := len(srv.Requests())
	mustParley(t, dir, env, "", "debate", "--resume", id)
	after := exportJSON(t, dir, env, id)
	if after.Status != "completed" {
		t.Fatalf("status after resume = %s", after.Status)
	}
	var got []string
	for _, tr := range after.Turns {
		got = append(got, tr.ID)
	}
	assertSameSet(t, got, wantTurns)
	askedSince(t, srv, requestsBefore, done)
	if _, err := os.Stat(filepath.Join(dir, "parley.db")); !os.IsNotExist(err) {
		t.Errorf("PARLEY_DB was used despite PARLEY_DATABASE_URL: %v", err)
	}
}

// TestPostgresUnstorableIDs: an id no debate can have (not UTF-8, a
// terminal escape, far too long) is "no debate" with exit 2 on PostgreSQL
// too, from every command that takes one, quoted for the terminal; it was
// an internal error with the database's ("invalid byte sequence for
// encoding UTF8").
func TestPostgresUnstorableIDs(t *testing.T) {
	dir := t.TempDir()
	env := []string{"PARLEY_DATABASE_URL=" + pgtest.URL(t)}
	mustParley(t, dir, env, "", "debate", "NVDA", "--offline")
	for _, id := range []string{"\xff", "DEB-\xc3", "DEB-\x1b[31m", strings.Repeat("a", 300)} {
		for _, args := range [][]string{{"show", id}, {"export", id}, {"debate", "--resume", id}, {"delete", id, "--yes"}} {
			r := parley(t, dir, env, "", args...)
			if r.code != 2 || !strings.Contains(r.stderr, "no debate ") || !strings.Contains(r.stderr, "'parley list' shows the debates") {
				t.Errorf("parley %q: exit %d, want 2 and 'no debate'\nstderr: %s", args, r.code, r.stderr)
			}
			if strings.Contains(r.stderr, "invalid byte sequence") || strings.Contains(r.stderr, "\x1b") || strings.Contains(r.stderr, "\xff") || len(r.stderr) > 400 {
				t.Errorf("parley %q: stderr holds the database's error, the raw id or all of it:\n%q", args, r.stderr)
			}
		}
	}
}
