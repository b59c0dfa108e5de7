package main_test

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"os/exec"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/parleyhq/parley/internal/debate"
	"github.com/parleyhq/parley/internal/llm/fakellm"
	"github.com/parleyhq/parley/internal/store/postgres"
	"github.com/parleyhq/parley/internal/store/postgres/pgtest"
)

// syncBuffer is a bytes.Buffer a process writes to while a test reads it.
type syncBuffer struct {
	mu sync.Mutex
	b  bytes.Buffer
}

func (s *syncBuffer) Write(p []byte) (int, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.Write(p)
}

func (s *syncBuffer) String() string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.String()
}

// startWorker runs `parley worker` with its log in a buffer.
func startWorker(t *testing.T, dir string, env []string, args ...string) (*exec.Cmd, *syncBuffer) {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 3*time.Minute)
	t.Cleanup(cancel)
	cmd := command(ctx, t, dir, env, append([]string{"worker"}, args...)...)
	log := &syncBuffer{}
	cmd.Stderr = log
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = cmd.Process.Kill(); _ = cmd.Wait() })
	return cmd, log
}

type listed struct {
	Debates []struct {
		ID     string
		Status string
		Turns  int
		Lease  *struct {
			Owner struct{ PID int }
		}
	}
}

// TestWorkersKillOne runs 30 debates queued by `parley serve --workers 0` on
// three `parley worker` processes sharing a PostgreSQL database, kills one with
// SIGKILL while it runs a debate mid-turn, and checks that the other takes
// its debates over and completes every one, each turn completed once and
// asked for once more only where the kill cut it off; then SIGTERM stops the
// survivor cleanly.
func TestWorkersKillOne(t *testing.T) {
	srv, dir, env := fakeOpenAI(t, loadScript(t, "perspectives.yaml"), fakellm.WithTokenDelay(8*time.Millisecond))
	dbURL := pgtest.URL(t)
	env = append(env, "PARLEY_DATABASE_URL="+dbURL, "PARLEY_PROVIDER=openai", "PARLEY_MODEL=test-model")
	base, _ := startServe(t, dir, env, "--workers", "0")
	const n = 30
	var ids []string
	for range n {
		resp, err := http.Post(base+"/api/debates", "application/json",
			strings.NewReader(`{"topic":"Should we use Redis or PostgreSQL for caching?","no_checkpoints":true}`))
		if err != nil {
			t.Fatal(err)
		}
		var created struct{ ID string }
		_ = json.NewDecoder(resp.Body).Decode(&created)
		resp.Body.Close()
		if resp.StatusCode != 201 {
			t.Fatalf("create: %d", resp.StatusCode)
		}
		ids = append(ids, created.ID)
	}
	workerArgs := []string{"--workers", "2", "--reclaim-every", "200ms"}
	a, aLog := startWorker(t, dir, env, workerArgs...)
	b, bLog := startWorker(t, dir, env, workerArgs...)
	_, cLog := startWorker(t, dir, env, workerArgs...)

	st, err := postgres.OpenExisting(context.Background(), dbURL)
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	// Kill a as soon as a debate it runs has completed two turns and is
	// streaming another (the log shows its text arriving).
	var victim string
	deadline := time.Now().Add(time.Minute)
	for victim == "" {
		var l listed
		getJSON(t, base+"/api/debates", &l)
		for _, d := range l.Debates {
			if d.Status == "running" && d.Turns >= 2 && d.Lease != nil && d.Lease.Owner.PID == a.Process.Pid && streaming(t, st, d.ID) {
				victim = d.ID
				break
			}
		}
		if time.Now().After(deadline) {
			t.Fatalf("worker a never ran a debate; its log:\n%s", aLog.String())
		}
		if victim == "" {
			time.Sleep(5 * time.Millisecond)
		}
	}
	if err := a.Process.Signal(syscall.SIGKILL); err != nil {
		t.Fatal(err)
	}
	_ = a.Wait()

	deadline = time.Now().Add(2 * time.Minute)
	for {
		var l listed
		getJSON(t, base+"/api/debates", &l)
		done := 0
		for _, d := range l.Debates {
			if d.Status == "completed" {
				done++
			}
			// The victim's job is taken over by a surviving worker: it is
			// queued or running, never to be resumed by hand.
			if d.ID == victim && d.Status == "interrupted" {
				t.Errorf("the debate of the killed worker shows interrupted: %+v", d)
			}
		}
		if done == n {
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("%d of %d debates completed after the kill: %+v\nworker b:\n%s", done, n, l, bLog.String())
		}
		time.Sleep(50 * time.Millisecond)
	}

	// Every turn of every debate completed once, none started again after it
	// completed; the fake server was asked for each turn once per attempt the
	// logs record, but for attempts the kill cut off (superseded and run
	// again), which it may or may not have been asked for: the worker records
	// an attempt before it sends its request, and may die in between.
	attempts, superseded := map[string]int{}, map[string]int{}
	cut := 0
	for _, id := range ids {
		e := exportJSON(t, dir, env, id)
		var got []string
		for _, tr := range e.Turns {
			got = append(got, tr.ID)
		}
		assertSameSet(t, got, wantTurns)
		events, err := st.Load(context.Background(), id, 0)
		if err != nil {
			t.Fatal(err)
		}
		completed := map[string]bool{}
		for _, ev := range events {
			switch ev.Type {
			case debate.TypeTurnStarted:
				var ts debate.TurnStarted
				_ = ev.Decode(&ts)
				if completed[ts.Turn.ID] {
					t.Errorf("debate %s: turn %s started again after it completed", id, ts.Turn.ID)
				}
				attempts[ts.Turn.ID]++
			case debate.TypeTurnCompleted:
				var tc debate.TurnCompleted
				_ = ev.Decode(&tc)
				completed[tc.Turn.ID] = true
			case debate.TypeTurnSuperseded:
				var su debate.TurnSuperseded
				_ = ev.Decode(&su)
				superseded[su.Turn]++
				cut++
			}
		}
	}
	if cut == 0 {
		t.Error("no turn was cut off by the kill: the test did not kill a worker mid-turn")
	}
	asked := map[string]int{}
	for _, r := range srv.Requests() {
		asked[r.Parsed.Tag]++
	}
	for tag, w := range attempts {
		if asked[tag] > w || asked[tag] < w-superseded[tag] {
			t.Errorf("turn %s asked %d times over %d debates, whose logs record %d attempts, %d of them cut off", tag, asked[tag], n, w, superseded[tag])
		}
	}
	tookOver := func(log string) bool {
		return strings.Contains(log, `"msg":"took over from a dead worker"`) && strings.Contains(log, `"debate":"`+victim+`"`)
	}
	if !tookOver(bLog.String()) && !tookOver(cLog.String()) {
		t.Errorf("no surviving worker's log says it took over %s:\nworker b:\n%s\nworker c:\n%s", victim, bLog.String(), cLog.String())
	}
	for _, line := range strings.Split(strings.TrimSpace(bLog.String()), "\n") {
		var v map[string]any
		if err := json.Unmarshal([]byte(line), &v); err != nil {
			t.Errorf("worker log line is not JSON: %q", line)
			break
		}
	}

	// SIGTERM: b stops, with nothing left running.
	if err := b.Process.Signal(syscall.SIGTERM); err != nil {
		t.Fatal(err)
	}
	errc := make(chan error, 1)
	go func() { errc <- b.Wait() }()
	select {
	case err := <-errc:
		if err != nil {
			t.Errorf("worker b after SIGTERM: %v\n%s", err, bLog.String())
		}
	case <-time.After(30 * time.Second):
		t.Fatal("worker b did not stop on SIGTERM")
	}
	if !strings.Contains(bLog.String(), `"msg":"stopped"`) {
		t.Errorf("worker b's log does not end with its stop:\n%s", bLog.String())
	}
	fmt.Fprintf(testWriter{t}, "killed worker a while it ran %s; %d turn attempts cut off and run again\n", victim, cut)
}

// streaming reports whether a turn of the debate has started, streamed
// text, and not completed, with most of its text still to come (at most
// 60 bytes streamed; the script's shortest streamed reply has 160), so that
// a kill right after falls inside the turn even when the machine is slow
// (a turn that completed between this look and the kill made the test fail
// under load).
func streaming(t *testing.T, st debate.Store, id string) bool {
	t.Helper()
	events, err := st.Load(context.Background(), id, 0)
	if err != nil {
		t.Fatal(err)
	}
	open := map[string]int{} // bytes streamed by each open turn
	for _, e := range events {
		switch e.Type {
		case debate.TypeTurnStarted:
			var ts debate.TurnStarted
			_ = e.Decode(&ts)
			open[ts.Turn.ID] = 0
		case debate.TypeTurnDelta:
			var d debate.TurnDelta
			_ = e.Decode(&d)
			if _, ok := open[d.Turn]; ok {
				open[d.Turn] += len(d.Text)
			}
		case debate.TypeTurnCompleted:
			var tc debate.TurnCompleted
			_ = e.Decode(&tc)
			delete(open, tc.Turn.ID)
		}
	}
	for _, streamed := range open {
		if streamed > 0 && streamed <= 60 {
			return true
		}
	}
	return false
}

// testWriter logs through t.
type testWriter struct{ t *testing.T }

func (w testWriter) Write(p []byte) (int, error) {
	w.t.Log(strings.TrimSpace(string(p)))
	return len(p), nil
}
