package main_test

import (
	"bufio"
	"context"
	"encoding/json"
	"io"
	"net/http"
	"os/exec"
	"regexp"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/parleyhq/parley/internal/llm/fakellm"
)

// startServe runs `parley serve` on a free loopback port and returns its
// base URL once it listens.
func startServe(t *testing.T, dir string, env []string, args ...string) (string, *exec.Cmd) {
	t.Helper()
	base, cmd, _ := startServeLog(t, dir, env, args...)
	return base, cmd
}

// startServeLog is startServe, with what the server writes on standard
// error after it said where it listens.
func startServeLog(t *testing.T, dir string, env []string, args ...string) (string, *exec.Cmd, *syncBuffer) {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	t.Cleanup(cancel)
	cmd := command(ctx, t, dir, env, append([]string{"serve", "--addr", "127.0.0.1:0"}, args...)...)
	stderr, err := cmd.StderrPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = cmd.Process.Kill(); _ = cmd.Wait() })
	addr := regexp.MustCompile(`serving on (http://127\.0\.0\.1:\d+)`)
	sc := bufio.NewScanner(stderr)
	for sc.Scan() {
		if m := addr.FindStringSubmatch(sc.Text()); m != nil {
			log := &syncBuffer{}
			go func() { _, _ = io.Copy(log, stderr) }()
			return m[1], cmd, log
		}
	}
	t.Fatalf("parley serve never said where it listens")
	return "", nil, nil
}

func getJSON(t *testing.T, url string, v any) int {
	t.Helper()
	resp, err := http.Get(url)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	if v != nil {
		_ = json.NewDecoder(resp.Body).Decode(v)
	}
	return resp.StatusCode
}

// TestServeKillAndRestart starts a debate from the API, kills the server
// with SIGKILL mid-debate, and starts it again: it resumes the debate, which
// completes with no completed turn asked for again.
func TestServeKillAndRestart(t *testing.T) {
	srv, dir, env := fakeOpenAI(t, loadScript(t, "perspectives.yaml"), fakellm.WithTokenDelay(15*time.Millisecond))
	env = append(env, "PARLEY_PROVIDER=openai", "PARLEY_MODEL=test-model")
	base, cmd := startServe(t, dir, env)
	resp, err := http.Post(base+"/api/debates", "application/json",
		strings.NewReader(`{"topic":"Should we use Redis or PostgreSQL for caching?","no_checkpoints":true}`))
	if err != nil {
		t.Fatal(err)
	}
	var created struct{ ID string }
	_ = json.NewDecoder(resp.Body).Decode(&created)
	resp.Body.Close()
	if resp.StatusCode != 201 || created.ID == "" {
		t.Fatalf("create: %d", resp.StatusCode)
	}
	// Kill once a rebuttal streams.
	deadline := time.Now().Add(time.Minute)
	for {
		var v struct {
			Debate struct {
				Agents []struct{ Turns int } `json:"agents"`
			} `json:"debate"`
			Status string
		}
		getJSON(t, base+"/api/debates/"+created.ID, &v)
		if v.Status == "completed" {
			t.Fatal("the debate completed before the server could be killed")
		}
		n := 0
		for _, a := range v.Debate.Agents {
			n += a.Turns
		}
		if n >= 4 {
			break
		}
		if time.Now().After(deadline) {
			t.Fatal("the debate made no progress")
		}
		time.Sleep(20 * time.Millisecond)
	}
	if err := cmd.Process.Signal(syscall.SIGKILL); err != nil {
		t.Fatal(err)
	}
	_ = cmd.Wait()
	done := unfinishedTurns(t, dir, env, created.ID)
	before := len(srv.Requests())

	base, _ = startServe(t, dir, env)
	deadline = time.Now().Add(time.Minute)
	for {
		var v struct{ Status string }
		getJSON(t, base+"/api/debates/"+created.ID, &v)
		if v.Status == "completed" {
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("the restarted server did not finish the debate: %s", v.Status)
		}
		time.Sleep(50 * time.Millisecond)
	}
	askedSince(t, srv, before, done)
	after := exportJSON(t, dir, env, created.ID)
	var got []string
	for _, tr := range after.Turns {
		got = append(got, tr.ID)
	}
	assertSameSet(t, got, wantTurns)
}

// TestServeBadInput: a bind beyond loopback without a token, a taken port,
// and arguments are refused with exit 2 and a message saying what to do.
func TestServeBadInput(t *testing.T) {
	dir := t.TempDir()
	env := []string{"PARLEY_DB=" + dir + "/parley.db"}
	base, _ := startServe(t, dir, env)
	taken := strings.TrimPrefix(base, "http://")
	for _, tc := range []struct {
		args []string
		says string
	}{
		{[]string{"serve", "--addr", "0.0.0.0:7878"}, "--token or PARLEY_TOKEN"},
		{[]string{"serve", "--addr", taken}, "cannot listen on " + taken},
		{[]string{"serve", "--addr", "nonsense"}, "HOST:PORT"},
		{[]string{"serve", "extra"}, "takes no arguments"},
	} {
		r := parley(t, dir, env, "", tc.args...)
		if r.code != 2 || !strings.Contains(r.stderr, tc.says) {
			t.Errorf("parley %v: exit %d, stderr %q; want exit 2 saying %q", tc.args, r.code, r.stderr, tc.says)
		}
		// Refused before its workers start: a server that cannot serve
		// takes no queued debate, and says nothing but why.
		if strings.Contains(r.stderr, "workers started") {
			t.Errorf("parley %v started workers before refusing:\n%s", tc.args, r.stderr)
		}
	}
}

// TestServeLogIsForOperators: the server's log says what it runs, in its
// log's lines; the notes a debate's setup writes for a person at a
// terminal ("SEC data: …", "--offline: no LLM is used …") are not mixed
// into it, as a worker's are not.
func TestServeLogIsForOperators(t *testing.T) {
	dir := t.TempDir()
	env := []string{"PARLEY_DB=" + dir + "/parley.db", "OPENAI_API_KEY=sk-test"}
	base, _, log := startServeLog(t, dir, env)
	resp, err := http.Post(base+"/api/debates", "application/json", strings.NewReader(`{"topic":"NVDA","offline":true}`))
	if err != nil {
		t.Fatal(err)
	}
	var created struct{ ID string }
	_ = json.NewDecoder(resp.Body).Decode(&created)
	resp.Body.Close()
	if resp.StatusCode != 201 {
		t.Fatalf("create: %d", resp.StatusCode)
	}
	for deadline := time.Now().Add(time.Minute); !strings.Contains(log.String(), "msg=completed debate="+created.ID); time.Sleep(50 * time.Millisecond) {
		if time.Now().After(deadline) {
			t.Fatalf("the log never says the debate completed:\n%s", log.String())
		}
	}
	for _, note := range []string{"SEC data:", "no LLM is used"} {
		if strings.Contains(log.String(), note) {
			t.Errorf("a terminal's note %q is in the server's log:\n%s", note, log.String())
		}
	}
}

// TestServeMaxStreams: --max-streams bounds the event streams the server
// holds open: with 1, a second stream of a debate that has not ended is
// refused with 503 and Retry-After while the first is open.
func TestServeMaxStreams(t *testing.T) {
	dir := t.TempDir()
	env := []string{"PARLEY_DB=" + dir + "/parley.db"}
	// No workers: the debate stays queued, and its stream open.
	base, _ := startServe(t, dir, env, "--max-streams", "1", "--workers", "0")
	resp, err := http.Post(base+"/api/debates", "application/json", strings.NewReader(`{"topic":"NVDA","offline":true}`))
	if err != nil {
		t.Fatal(err)
	}
	var created struct{ ID string }
	_ = json.NewDecoder(resp.Body).Decode(&created)
	resp.Body.Close()
	if resp.StatusCode != 201 {
		t.Fatalf("create: %d", resp.StatusCode)
	}
	open := func() *http.Response {
		ctx, cancel := context.WithCancel(t.Context())
		req, _ := http.NewRequestWithContext(ctx, "GET", base+"/api/debates/"+created.ID+"/events", nil)
		resp, err := http.DefaultClient.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { cancel(); resp.Body.Close() })
		return resp
	}
	if first := open(); first.StatusCode != http.StatusOK {
		t.Fatalf("the first stream: %d", first.StatusCode)
	}
	if second := open(); second.StatusCode != http.StatusServiceUnavailable || second.Header.Get("Retry-After") == "" {
		t.Errorf("a second stream with --max-streams 1: %d (Retry-After %q), want 503 with Retry-After", second.StatusCode, second.Header.Get("Retry-After"))
	}
}
