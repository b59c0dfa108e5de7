package main_test

import (
	"context"
	"encoding/json"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/parleyhq/parley/internal/store/postgres/pgtest"
)

// TestListQueuedBatch: a debate `parley batch --workers 0` queued and that
// no worker has taken up lists as queued, not interrupted, in `parley list`
// (table and --json) and `parley show`, on SQLite and PostgreSQL, with the
// hint to start a worker rather than resume it by hand; once `parley
// worker` runs it, it lists as completed and the batch ends.
func TestListQueuedBatch(t *testing.T) {
	for _, db := range []string{"sqlite", "postgres"} {
		t.Run(db, func(t *testing.T) {
			dir := t.TempDir()
			env := []string{"PARLEY_DB=" + filepath.Join(dir, "parley.db")}
			if db == "postgres" {
				env = []string{"PARLEY_DATABASE_URL=" + pgtest.URL(t)}
			}
			ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
			defer cancel()
			batch := command(ctx, t, dir, env, "batch", "NVDA", "--offline", "--workers", "0", "--json")
			out, errOut := &syncBuffer{}, &syncBuffer{}
			batch.Stdout, batch.Stderr = out, errOut
			if err := batch.Start(); err != nil {
				t.Fatal(err)
			}
			t.Cleanup(func() { _ = batch.Process.Kill(); _ = batch.Wait() })
			for deadline := time.Now().Add(time.Minute); !strings.Contains(errOut.String(), "1 queued, 0 running"); time.Sleep(20 * time.Millisecond) {
				if time.Now().After(deadline) {
					t.Fatalf("the batch never queued its debate:\n%s", errOut.String())
				}
			}

			listJSON := func() []struct{ ID, Status string } {
				t.Helper()
				var l []struct{ ID, Status string }
				r := mustParley(t, dir, env, "", "list", "--json")
				if err := json.Unmarshal([]byte(r.stdout), &l); err != nil || len(l) != 1 {
					t.Fatalf("list --json: %v\n%s", err, r.stdout)
				}
				return l
			}
			l := listJSON()
			id := l[0].ID
			if l[0].Status != "queued" {
				t.Errorf("list --json: %+v, want the batch's debate queued", l)
			}
			r := mustParley(t, dir, env, "", "list")
			if !strings.Contains(r.stdout, id) || !strings.Contains(r.stdout, "queued") || strings.Contains(r.stdout, "interrupted") {
				t.Errorf("list:\n%s", r.stdout)
			}
			if !strings.Contains(r.stderr, "Queued debates wait for a worker, which runs them: if none runs, start one: parley worker") ||
				strings.Contains(r.stderr, "--resume") {
				t.Errorf("list's hint, want: start a worker, not --resume:\n%s", r.stderr)
			}
			if r := mustParley(t, dir, env, "", "list", "--status", "queued", "--json"); !strings.Contains(r.stdout, id) {
				t.Errorf("list --status queued does not list it:\n%s", r.stdout)
			}
			if r := mustParley(t, dir, env, "", "list", "--status", "interrupted", "--json"); strings.TrimSpace(r.stdout) != "[]" {
				t.Errorf("list --status interrupted lists it:\n%s", r.stdout)
			}
			r = mustParley(t, dir, env, "", "show", id, "--summary")
			if !strings.Contains(r.stdout, "queued (waiting for a worker to take it up)") ||
				!strings.Contains(r.stdout, "Queued for a worker, which runs it: if none runs, start one: parley worker") ||
				strings.Contains(r.stdout, "Resume with") {
				t.Errorf("show of a queued debate:\n%s", r.stdout)
			}

			_, wlog := startWorker(t, dir, env, "--workers", "1")
			if err := batch.Wait(); err != nil {
				t.Fatalf("the batch, once a worker ran its debate: %v\n%s\nworker:\n%s", err, errOut.String(), wlog.String())
			}
			rows := batchJSON(t, run{stdout: out.String(), stderr: errOut.String()})
			if len(rows) != 1 || rows[0].ID != id || rows[0].Status != "done" {
				t.Errorf("batch rows: %+v", rows)
			}
			if l := listJSON(); l[0].Status != "completed" {
				t.Errorf("list --json after the worker ran it: %+v", l)
			}
			if r := mustParley(t, dir, env, "", "list"); strings.Contains(r.stderr, "Queued") || !strings.Contains(r.stdout, "completed") {
				t.Errorf("list after the worker ran it:\n%s\n%s", r.stdout, r.stderr)
			}
		})
	}
}

// TestResumeOfferQueued: starting a bull vs. bear debate that asks what a
// queued one asks does not offer to resume the queued one here (its worker
// would contend with this process): it says the debate is queued for a
// worker, and starts the new one.
func TestResumeOfferQueued(t *testing.T) {
	dir := t.TempDir()
	env := []string{"PARLEY_DB=" + filepath.Join(dir, "parley.db")}
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	batch := command(ctx, t, dir, env, "batch", "NVDA", "--offline", "--workers", "0", "--json")
	errOut := &syncBuffer{}
	batch.Stdout, batch.Stderr = &syncBuffer{}, errOut
	if err := batch.Start(); err != nil {
		t.Fatal(err)
	}
	for deadline := time.Now().Add(time.Minute); !strings.Contains(errOut.String(), "1 queued, 0 running"); time.Sleep(20 * time.Millisecond) {
		if time.Now().After(deadline) {
			t.Fatalf("the batch never queued its debate:\n%s", errOut.String())
		}
	}
	_ = batch.Process.Kill()
	_ = batch.Wait()
	var l []struct{ ID, Status string }
	if err := json.Unmarshal([]byte(mustParley(t, dir, env, "", "list", "--json").stdout), &l); err != nil || len(l) != 1 || l[0].Status != "queued" {
		t.Fatalf("list --json: %+v, %v; want one queued debate", l, err)
	}
	queued := l[0].ID

	// Resumed by hand, it would run here while its job waits for a worker:
	// refused (exit 2), saying a worker runs it, before anything runs.
	res := parley(t, dir, env, "", "debate", "--resume", queued)
	if res.code != 2 || !strings.Contains(res.stderr, queued+" is queued for a worker") || !strings.Contains(res.stderr, "parley worker") || strings.Contains(res.stdout, "Phase") {
		t.Errorf("debate --resume of the queued debate: exit %d, want 2 naming the worker\nstdout:\n%s\nstderr:\n%s", res.code, res.stdout, res.stderr)
	}

	r := mustParley(t, dir, env, "", "debate", "NVDA", "--offline")
	want := "A debate on NVDA is queued for a worker (" + queued + "; 'parley show " + queued + "' shows how far it got); this starts a new one."
	if !strings.Contains(r.stderr, want) || strings.Contains(r.stderr, "--resume "+queued) {
		t.Errorf("stderr, want %q and no resume of the queued debate:\n%s", want, r.stderr)
	}
	if strings.Contains(r.stdout, queued) {
		t.Errorf("the new debate ran as the queued one:\n%s", r.stdout)
	}
}
