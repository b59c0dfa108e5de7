package main_test

import (
	"bytes"
	"context"
	"encoding/csv"
	"encoding/json"
	"errors"
	"fmt"
	"net"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/parleyhq/parley/internal/llm/fakellm"
	"github.com/parleyhq/parley/internal/store/postgres/pgtest"
)

type batchRow struct {
	Item       string  `json:"item"`
	ID         string  `json:"id"`
	Status     string  `json:"status"`
	Earlier    bool    `json:"earlier"`
	Turns      int     `json:"turns"`
	Stance     string  `json:"stance"`
	Score      int     `json:"score"`
	Conviction string  `json:"conviction"`
	CostUSD    float64 `json:"cost_usd"`
	LLMTurns   *int    `json:"llm_turns"`
	Error      string  `json:"error"`
}

func batchJSON(t *testing.T, r run) []batchRow {
	t.Helper()
	var rows []batchRow
	if err := json.Unmarshal([]byte(r.stdout), &rows); err != nil {
		t.Fatalf("batch --json: %v\n%s\n%s", err, r.stdout, r.stderr)
	}
	return rows
}

// TestBatchOfflineSQLite debates three tickers in one process on SQLite with
// no model: one debate each, a verdict each; the same batch again the same
// day lists them again without running them; --force runs them anew.
func TestBatchOfflineSQLite(t *testing.T) {
	dir := t.TempDir()
	env := []string{"PARLEY_DB=" + filepath.Join(dir, "parley.db")}
	list := filepath.Join(dir, "watchlist.txt")
	if err := os.WriteFile(list, []byte("nvda\n# the rest\nAAPL  # apple\n\nNVDA\ngoogl\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	r := mustParley(t, dir, env, "", "batch", "--file", list, "--offline", "--json")
	rows := batchJSON(t, r)
	if len(rows) != 3 {
		t.Fatalf("%d rows, want NVDA, AAPL, GOOGL once each: %+v", len(rows), rows)
	}
	ids := map[string]string{}
	for i, want := range []string{"NVDA", "AAPL", "GOOGL"} {
		row := rows[i]
		if row.Item != want || row.Status != "done" || row.Earlier || row.Turns != 7 || !strings.HasPrefix(row.ID, "DEB-") ||
			row.LLMTurns == nil || *row.LLMTurns != 0 {
			t.Errorf("row %d: %+v", i, row)
		}
		if row.Score < 1 || row.Score > 10 || !strings.Contains(row.Stance, "B") && row.Stance != "NEUTRAL" || !strings.HasPrefix(row.Conviction, fmt.Sprintf("%d/10 because", row.Score)) {
			t.Errorf("%s: stance %q score %d", row.Item, row.Stance, row.Score)
		}
		ids[row.Item] = row.ID
	}
	if !strings.Contains(r.stderr, "0 queued, 0 running, 3 done, 0 failed; no cost (no model used)") {
		t.Errorf("no progress on stderr:\n%s", r.stderr)
	}

	// Again the same day: nothing runs, the table lists them.
	start := time.Now()
	r = mustParley(t, dir, env, "", "batch", "NVDA", "AAPL", "GOOGL", "--offline", "--csv")
	recs, err := csv.NewReader(strings.NewReader(r.stdout)).ReadAll()
	if err != nil || len(recs) != 4 || recs[0][0] != "item" {
		t.Fatalf("--csv: %v\n%s", err, r.stdout)
	}
	for _, rec := range recs[1:] {
		if rec[1] != ids[rec[0]] || rec[2] != "done" || rec[3] != "true" {
			t.Errorf("second run: %v, want %s done earlier today", rec, ids[rec[0]])
		}
	}
	if d := time.Since(start); d > 20*time.Second {
		t.Errorf("the second run took %s", d)
	}

	// --force: new debates.
	rows = batchJSON(t, mustParley(t, dir, env, "", "batch", "NVDA", "AAPL", "GOOGL", "--offline", "--force", "--json"))
	for _, row := range rows {
		if row.Earlier || row.Status != "done" || row.ID == ids[row.Item] {
			t.Errorf("--force: %+v (was %s)", row, ids[row.Item])
		}
	}
	if l := mustParley(t, dir, env, "", "list"); strings.Count(l.stdout, "completed") != 6 {
		t.Errorf("list after two batches:\n%s", l.stdout)
	}

	// The human-readable table; an item the snapshot lacks fails alone.
	r = parley(t, dir, env, "", "batch", "NVDA", "MSFT", "--offline")
	if r.code != 1 || !strings.Contains(r.stdout, "TICKER") || !strings.Contains(r.stdout, "done (earlier today)") || !strings.Contains(r.stdout, "not in the offline snapshot") {
		t.Errorf("batch with an unknown ticker: exit %d\n%s\n%s", r.code, r.stdout, r.stderr)
	}
	// Running it again cannot help an item that never started: the closing
	// line says to fix it, and promises no resume. Its reason is given
	// whole, the fix it ends with included, which the table cuts off.
	if !strings.Contains(r.stderr, "1 of 2 debates failed: 1 could not start: fix or remove that item") || strings.Contains(r.stderr, "resumes") ||
		!strings.Contains(r.stderr, "\n  cannot debate MSFT: not in the offline snapshot") || !strings.Contains(r.stderr, "to debate MSFT, go online with SEC_USER_AGENT set") {
		t.Errorf("batch with an unknown ticker: the closing line should ask for a fix, not a rerun:\n%s", r.stderr)
	}
	// Data-only debates have no model cost: not $0.0000 as if a model had
	// run for free.
	if !regexp.MustCompile(`(?m)^NVDA\s.*\d+/10\s+no model\s+DEB-`).MatchString(r.stdout) || strings.Contains(r.stdout, "$0.0000") {
		t.Errorf("batch table: want NVDA's cost to say no model:\n%s", r.stdout)
	}
}

// TestBatchReusesOnlyTheSameQuestion: a batch reuses today's debate of an
// item only when it was asked the same way. A deep debate is no result for a
// quick batch, nor a quick one for a deep batch; the same batch again reuses
// its own; --force starts anew.
func TestBatchReusesOnlyTheSameQuestion(t *testing.T) {
	dir := t.TempDir()
	env := []string{"PARLEY_DB=" + filepath.Join(dir, "parley.db")}
	deepID := debateIDRe.FindString(mustParley(t, dir, env, "", "debate", "NVDA", "--offline", "--deep", "--no-checkpoints").stderr)
	if deepID == "" {
		t.Fatal("no debate id in the deep debate's output")
	}
	one := func(args ...string) batchRow {
		t.Helper()
		rows := batchJSON(t, mustParley(t, dir, env, "", append([]string{"batch", "NVDA", "--offline", "--json"}, args...)...))
		if len(rows) != 1 || rows[0].Status != "done" {
			t.Fatalf("batch %v: %+v", args, rows)
		}
		return rows[0]
	}
	quick := one()
	if quick.Earlier || quick.ID == deepID || quick.Turns != 7 {
		t.Fatalf("quick batch after a deep debate: %+v, want a new 7-turn debate, not %s", quick, deepID)
	}
	if again := one(); !again.Earlier || again.ID != quick.ID {
		t.Errorf("the same batch again: %+v, want %s earlier today", again, quick.ID)
	}
	if deep := one("--deep"); !deep.Earlier || deep.ID != deepID {
		t.Errorf("a deep batch: %+v, want the deep debate %s earlier today, not the newer quick %s", deep, deepID, quick.ID)
	}
	if forced := one("--force"); forced.Earlier || forced.ID == quick.ID || forced.ID == deepID {
		t.Errorf("--force: %+v, want a new debate", forced)
	}
	r := mustParley(t, dir, env, "", "batch", "NVDA", "--offline")
	if !strings.Contains(r.stdout, "done (earlier today)") {
		t.Errorf("the table does not say the debate is earlier today's:\n%s", r.stdout)
	}
}

// droppingProxy is an HTTP proxy that counts the connections made to it and
// drops each at once: through it, EDGAR cannot be reached, and the count
// says how often Parley tried.
func droppingProxy(t *testing.T) (url string, conns *atomic.Int64) {
	t.Helper()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { ln.Close() })
	conns = new(atomic.Int64)
	go func() {
		for {
			c, err := ln.Accept()
			if err != nil {
				return
			}
			conns.Add(1)
			c.Close()
		}
	}()
	return "http://" + ln.Addr().String(), conns
}

// TestBatchSetsUpOnceWithEDGARUnreachable: a batch item's debate is set up
// once (its setup's attempts to reach EDGAR are a single debate's), and the
// same batch again finds it without any I/O, though EDGAR is still
// unreachable: it asked for EDGAR and fell back to the snapshot, as the
// batch's request would, and that is the same question.
func TestBatchSetsUpOnceWithEDGARUnreachable(t *testing.T) {
	proxy, conns := droppingProxy(t)
	dir := t.TempDir()
	env := []string{"PARLEY_DB=" + filepath.Join(dir, "parley.db"), "SEC_USER_AGENT=Parley Test test@example.com",
		"HTTPS_PROXY=" + proxy, "HTTP_PROXY=" + proxy}
	r := mustParley(t, dir, env, "", "debate", "AAPL", "--no-checkpoints")
	once := conns.Swap(0)
	if once == 0 || !strings.Contains(r.stdout+r.stderr, "EDGAR could not be used") {
		t.Fatalf("the debate did not try EDGAR through the proxy (%d connections) and fall back:\n%s\n%s", once, r.stdout, r.stderr)
	}
	rows := batchJSON(t, mustParley(t, dir, env, "", "batch", "NVDA", "--json"))
	if len(rows) != 1 || rows[0].Status != "done" || rows[0].Earlier {
		t.Fatalf("batch: %+v, want a new debate done", rows)
	}
	if n := conns.Swap(0); n != once {
		t.Errorf("the batch tried EDGAR %d times for one new debate, a debate's setup %d times: setup ran more than once", n, once)
	}
	// Today's debate of the item asks otherwise: a deep one starts, set up
	// once though the lookup compared it with today's.
	deep := batchJSON(t, mustParley(t, dir, env, "", "batch", "NVDA", "--deep", "--json"))
	if len(deep) != 1 || deep[0].Status != "done" || deep[0].Earlier || deep[0].ID == rows[0].ID {
		t.Fatalf("a deep batch: %+v, want a new debate done", deep)
	}
	if n := conns.Swap(0); n != once {
		t.Errorf("the deep batch tried EDGAR %d times for one new debate, a debate's setup %d times: setup ran more than once", n, once)
	}
	again := batchJSON(t, mustParley(t, dir, env, "", "batch", "NVDA", "--json"))
	if len(again) != 1 || !again[0].Earlier || again[0].ID != rows[0].ID {
		t.Errorf("the same batch again, EDGAR still unreachable: %+v, want %s listed as earlier today", again, rows[0].ID)
	}
	if n := conns.Load(); n != 0 {
		t.Errorf("finding today's debate tried EDGAR %d times; the question a request asks needs no I/O", n)
	}
}

// TestBatchPostgresWorkers queues a batch on PostgreSQL for a `parley
// worker` to run (--workers 0: none in the batch's process).
func TestBatchPostgresWorkers(t *testing.T) {
	dir := t.TempDir()
	env := []string{"PARLEY_DATABASE_URL=" + pgtest.URL(t)}
	w, wlog := startWorker(t, dir, env, "--workers", "2")
	rows := batchJSON(t, mustParley(t, dir, env, "", "batch", "NVDA", "AAPL", "--offline", "--workers", "0", "--json"))
	for _, row := range rows {
		if row.Status != "done" || row.Score == 0 {
			t.Errorf("%+v", row)
		}
		if !strings.Contains(wlog.String(), `"debate":"`+row.ID+`"`) {
			t.Errorf("the worker did not run %s:\n%s", row.ID, wlog.String())
		}
	}
	_ = w
}

// TestBatchInterrupted: Ctrl+C while a batch runs its debates exits 130 and
// says that they stay queued; the table agrees, listing the debates this
// process handed back as queued, not as the running its last look saw.
func TestBatchInterrupted(t *testing.T) {
	_, dir, env := fakeOpenAI(t, loadScript(t, "perspectives.yaml"), fakellm.WithTokenDelay(20*time.Millisecond))
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	cmd := command(ctx, t, dir, env, "batch", "--format", "perspectives", "--model", "test-model", "--json",
		"Redis or PostgreSQL for caching?", "Monorepo or polyrepo?")
	var out bytes.Buffer
	errOut := &syncBuffer{}
	cmd.Stdout, cmd.Stderr = &out, errOut
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	// Interrupted once its table has shown both debates running.
	for deadline := time.Now().Add(time.Minute); !strings.Contains(errOut.String(), "0 queued, 2 running"); time.Sleep(10 * time.Millisecond) {
		if time.Now().After(deadline) {
			t.Fatalf("the batch never ran both debates:\n%s", errOut.String())
		}
	}
	if err := cmd.Process.Signal(os.Interrupt); err != nil {
		t.Fatal(err)
	}
	err := cmd.Wait()
	var ee *exec.ExitError
	if !errors.As(err, &ee) || ee.ExitCode() != 130 {
		t.Fatalf("exit: %v, want 130\n%s", err, errOut.String())
	}
	if !strings.Contains(errOut.String(), "batch interrupted: its debates stay queued") {
		t.Errorf("stderr does not say the debates stay queued:\n%s", errOut.String())
	}
	rows := batchJSON(t, run{stdout: out.String(), stderr: errOut.String()})
	for _, r := range rows {
		if r.Status != "queued" || r.ID == "" {
			t.Errorf("after Ctrl+C: %+v, want its debate queued", r)
		}
	}
	// parley list, which sees the log and not the job queue, agrees.
	var l []struct{ ID, Status string }
	if r := mustParley(t, dir, env, "", "list", "--json"); json.Unmarshal([]byte(r.stdout), &l) != nil || len(l) != 2 {
		t.Fatalf("list --json after Ctrl+C:\n%s", r.stdout)
	}
	for _, d := range l {
		if d.Status != "queued" {
			t.Errorf("list after Ctrl+C: %+v, want queued", d)
		}
	}
}

// TestBatchWithoutTheModelItsFormatNeeds: a batch of topics with no model
// configured stops before anything runs, with the model configuration's
// exit code (4) and the whole message on how to configure one, as 'parley
// debate' does; each item failed with the message cut at 60 characters
// ("…needs a language model, and none is…") and the batch exited 1.
func TestBatchWithoutTheModelItsFormatNeeds(t *testing.T) {
	dir := t.TempDir()
	env := []string{"PARLEY_DB=" + filepath.Join(dir, "parley.db")}
	r := parley(t, dir, env, "", "batch", "Redis or PostgreSQL?", "Kafka or NATS?", "--format", "perspectives")
	if r.code != 4 || !strings.Contains(r.stderr, "the perspectives format needs a language model, and none is configured") ||
		!strings.Contains(r.stderr, "export OPENAI_API_KEY=") {
		t.Errorf("batch with no model: exit %d, want 4 and how to configure one\nstdout:\n%s\nstderr:\n%s", r.code, r.stdout, r.stderr)
	}
	if l := parley(t, dir, env, "", "list", "--json"); strings.Contains(l.stdout, "DEB-") {
		t.Errorf("debates were created:\n%s", l.stdout)
	}
}
