package main_test

import (
	"bufio"
	"context"
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/parleyhq/parley/internal/llm/fakellm"
)

const redisTopic = "Should we use Redis or PostgreSQL for caching?"

// modelsSince lists "api/model" of the server's requests from the from-th on.
func modelsSince(srv *fakellm.Server, from int) map[string]int {
	out := map[string]int{}
	for _, r := range srv.Requests()[from:] {
		out[r.API+"/"+r.Parsed.Model]++
	}
	return out
}

// TestResumeKeepsRecordedModel: a debate created with --provider openai
// --model fake-model and resumed with plain --resume sends every remaining
// turn to that model, although the environment now offers others; a resume
// with --model switches explicitly, says so and records it; a resume whose
// recorded provider has no key now stops with exit 4 naming what is missing.
func TestResumeKeepsRecordedModel(t *testing.T) {
	srv, dir, env := fakeOpenAI(t, loadScript(t, "perspectives.yaml"), fakellm.WithTokenDelay(10*time.Millisecond))
	id := killAt(t, dir, env, "r1/rebuttal/", "debate", redisTopic, "--no-checkpoints", "--provider", "openai", "--model", "fake-model", "--json")
	before := len(srv.Requests())
	tempting := append(env, "ANTHROPIC_API_KEY=sk-ant-elsewhere", "PARLEY_MODEL=gpt-4.1")
	r := mustParley(t, dir, tempting, "", "debate", "--resume", id)
	if got := modelsSince(srv, before); len(got) != 1 || got["openai/fake-model"] == 0 {
		t.Errorf("requests after the resume went to %v, want openai/fake-model only", got)
	}
	if !strings.Contains(r.stderr, "Models: every role → openai/fake-model") {
		t.Errorf("the resume does not say which model answers:\n%s", r.stderr)
	}

	// An explicit switch on resume is said and recorded.
	id2 := killAt(t, dir, env, "r1/rebuttal/", "debate", redisTopic, "--no-checkpoints", "--provider", "openai", "--model", "fake-model", "--json")
	before = len(srv.Requests())
	r = mustParley(t, dir, env, "", "debate", "--resume", id2, "--model", "other-model")
	if !strings.Contains(r.stderr, "every role now answers with openai/other-model, was openai/fake-model") {
		t.Errorf("the switch is not said:\n%s", r.stderr)
	}
	if got := modelsSince(srv, before); len(got) != 1 || got["openai/other-model"] == 0 {
		t.Errorf("requests after the switch went to %v, want openai/other-model only", got)
	}
	show := mustParley(t, dir, env, "", "export", id2, "--as", "json", "--full")
	if !strings.Contains(show.stdout, "other-model") {
		t.Error("the export does not record the switched model")
	}
}

// TestResumeWithoutTheRecordedKey: a debate created on Anthropic and resumed
// with only an OpenAI key set stops with exit 4 naming the missing key, and
// nothing is sent anywhere.
func TestResumeWithoutTheRecordedKey(t *testing.T) {
	srv := fakellm.Start(loadScript(t, "perspectives.yaml"), fakellm.WithAPIKey("test-key"), fakellm.WithTokenDelay(10*time.Millisecond))
	defer srv.Close()
	dir := t.TempDir()
	db := "PARLEY_DB=" + filepath.Join(dir, "parley.db")
	ant := []string{"ANTHROPIC_BASE_URL=" + srv.AnthropicURL(), "ANTHROPIC_API_KEY=test-key", db}
	id := killAt(t, dir, ant, "r1/rebuttal/", "debate", redisTopic, "--no-checkpoints", "--model", "test-model", "--json")
	before := len(srv.Requests())
	r := parley(t, dir, append(openaiEnv(srv, filepath.Join(dir, "parley.db")), "ANTHROPIC_BASE_URL="+srv.AnthropicURL()), "", "debate", "--resume", id)
	if r.code != 4 || !strings.Contains(r.stderr, "ANTHROPIC_API_KEY is not set") || !strings.Contains(r.stderr, "anthropic/test-model") {
		t.Errorf("resume without the recorded provider's key: exit %d, want 4 naming ANTHROPIC_API_KEY and the model:\n%s", r.code, r.stderr)
	}
	if n := len(srv.Requests()) - before; n != 0 {
		t.Errorf("the refused resume sent %d requests", n)
	}
}

// TestOfflineMeansNoModel: --offline with API keys set makes no request to
// any model and says the agents are data-only; --offline with a model flag
// is refused, pointing at --snapshot.
func TestOfflineMeansNoModel(t *testing.T) {
	srv, dir, env := fakeOpenAI(t, loadScript(t, "bullbear.yaml"))
	env = append(env, "ANTHROPIC_BASE_URL="+srv.AnthropicURL(), "ANTHROPIC_API_KEY=test-key")
	r := mustParley(t, dir, env, "", "debate", "NVDA", "--offline")
	if n := len(srv.Requests()); n != 0 {
		t.Errorf("--offline sent %d requests to the model server", n)
	}
	for _, want := range []string{"Models: none: Parley's data-only agents answer, no LLM is used", "No LLM was used"} {
		if !strings.Contains(r.stderr+r.stdout, want) {
			t.Errorf("output lacks %q:\n%s\n%s", want, r.stderr, r.stdout)
		}
	}
	r = parley(t, dir, env, "", "debate", "NVDA", "--offline", "--model", "test-model")
	if r.code != 2 || !strings.Contains(r.stderr, "--snapshot") {
		t.Errorf("--offline --model: exit %d, want 2 pointing at --snapshot:\n%s", r.code, r.stderr)
	}
}

// TestOneRunnerPerDebate: while a debate runs, a second --resume of it is
// refused at once with exit 2, naming the running process, before it prints
// anything else; once that
// process is killed, list shows the debate as interrupted and a resume takes
// over its lease and completes it.
func TestOneRunnerPerDebate(t *testing.T) {
	_, dir, env := fakeOpenAI(t, loadScript(t, "perspectives.yaml"), fakellm.WithTokenDelay(40*time.Millisecond))
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	first := command(ctx, t, dir, env, "debate", redisTopic, "--no-checkpoints", "--model", "test-model", "--json")
	out, err := first.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := first.Start(); err != nil {
		t.Fatal(err)
	}
	sc := bufio.NewScanner(out)
	sc.Buffer(make([]byte, 1<<20), 1<<20)
	var id string
	for sc.Scan() {
		var e struct{ Debate, Type string }
		if json.Unmarshal(sc.Bytes(), &e) == nil && e.Type == "turn.delta" {
			id = e.Debate
			break
		}
	}
	if id == "" {
		t.Fatal("the first run ended before streaming")
	}
	go func() {
		for sc.Scan() {
		}
	}()
	second := parley(t, dir, env, "", "debate", "--resume", id)
	if second.code != 2 || !strings.Contains(second.stderr, "is running (pid ") || !strings.Contains(second.stderr, "wait for it or stop it") {
		t.Errorf("second runner: exit %d, want 2 naming the running process:\n%s", second.code, second.stderr)
	}
	// Refused before anything else: no transcript, no cast line.
	if second.stdout != "" || strings.Contains(second.stderr, "Models:") {
		t.Errorf("the refused runner printed before refusing:\nstdout:\n%s\nstderr:\n%s", second.stdout, second.stderr)
	}
	if l := mustParley(t, dir, env, "", "list"); !strings.Contains(l.stdout, "running") {
		t.Errorf("list while running:\n%s", l.stdout)
	}
	// show names the process that runs it, and offers no resume that would
	// be refused.
	if s := mustParley(t, dir, env, "", "show", id); !strings.Contains(s.stdout, "Running in process ") || strings.Contains(s.stdout, "Resume with") {
		t.Errorf("show while running:\n%s", s.stdout)
	}
	if err := first.Process.Signal(syscall.SIGKILL); err != nil {
		t.Fatal(err)
	}
	var ee *exec.ExitError
	if err := first.Wait(); err == nil || !asExit(err, &ee) {
		t.Logf("first run: %v", err)
	}
	if l := mustParley(t, dir, env, "", "list"); !strings.Contains(l.stdout, "interrupted") {
		t.Errorf("list after the runner died shows no interrupted debate:\n%s", l.stdout)
	}
	if s := mustParley(t, dir, env, "", "show", id); !strings.Contains(s.stdout, "Resume with: parley debate --resume "+id) {
		t.Errorf("show after the runner died offers no resume:\n%s", s.stdout)
	}
	mustParley(t, dir, env, "", "debate", "--resume", id)
	if e := exportJSON(t, dir, env, id); e.Status != "completed" {
		t.Errorf("status after the takeover: %s", e.Status)
	}
}

func asExit(err error, ee **exec.ExitError) bool {
	e, ok := err.(*exec.ExitError)
	*ee = e
	return ok
}

// TestNothingLostAtTheEnd: killed right after debate.completed, a debate
// whose decision document is missing gets it written again by --resume; two
// debates on one topic write two documents; --json streams every event of
// the log, artifact.written included.
func TestNothingLostAtTheEnd(t *testing.T) {
	_, dir, env := fakeOpenAI(t, loadScript(t, "perspectives.yaml"))
	r := mustParley(t, dir, env, "", "debate", redisTopic, "--no-checkpoints", "--model", "test-model", "--json")
	var types []string
	var id string
	for _, line := range strings.Split(strings.TrimSpace(r.stdout), "\n") {
		var e struct{ Debate, Type string }
		if err := json.Unmarshal([]byte(line), &e); err != nil {
			t.Fatalf("--json line %q: %v", line, err)
		}
		types, id = append(types, e.Type), e.Debate
	}
	if n := len(types); n < 2 || types[n-1] != "artifact.written" || types[n-2] != "debate.completed" {
		t.Errorf("--json ends with %v, want debate.completed then artifact.written", types[max(0, n-3):])
	}
	e := exportJSON(t, dir, env, id)
	if len(e.Artifacts) != 1 || !strings.Contains(e.Artifacts[0].Path, strings.TrimPrefix(id, "DEB-")) {
		t.Fatalf("artifacts %+v: want one decision document named with the debate id", e.Artifacts)
	}
	doc := e.Artifacts[0].Path

	// A second debate on the same topic writes its own document.
	mustParley(t, dir, env, "", "debate", redisTopic, "--no-checkpoints", "--model", "test-model")
	docs, _ := filepath.Glob(filepath.Join(dir, "docs", "decisions", "*.md"))
	if len(docs) != 2 {
		t.Errorf("two debates on one topic left %d documents: %v", len(docs), docs)
	}

	// The document lost (as when the process dies between completion and
	// the write): --resume writes it again; with it present, there is
	// nothing to resume.
	if err := os.Remove(doc); err != nil {
		t.Fatal(err)
	}
	if r := mustParley(t, dir, env, "", "show", id); !strings.Contains(r.stdout, "Decision document: "+doc+" (not found here: parley debate --resume "+id+" writes it again)") {
		t.Errorf("show does not say the document is gone and how to write it again:\n%.600s", r.stdout)
	}
	r = mustParley(t, dir, env, "", "debate", "--resume", id)
	if _, err := os.Stat(doc); err != nil || !strings.Contains(r.stderr, "written again") {
		t.Errorf("resume of a completed debate without its document: %v\n%s", err, r.stderr)
	}
	if r := parley(t, dir, env, "", "debate", "--resume", id); r.code != 2 || !strings.Contains(r.stderr, "already completed") {
		t.Errorf("resume of a complete debate: exit %d\n%s", r.code, r.stderr)
	}
	// Written again to its path, it is still one document.
	if e := exportJSON(t, dir, env, id); len(e.Artifacts) != 1 {
		t.Errorf("artifacts after the document was written again: %+v, want it once", e.Artifacts)
	}
	if r := mustParley(t, dir, env, "", "show", id); strings.Count(r.stdout, "Decision document: ") != 1 {
		t.Errorf("show names the decision document %d times, want once:\n%s", strings.Count(r.stdout, "Decision document: "), r.stdout)
	}
}

// TestKillRightAfterCompletion kills the process as soon as debate.completed
// is in the log: whatever it managed to write, a resume leaves the debate
// with its decision document on disk and recorded.
func TestKillRightAfterCompletion(t *testing.T) {
	_, dir, env := fakeOpenAI(t, loadScript(t, "perspectives.yaml"))
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	cmd := command(ctx, t, dir, env, "debate", redisTopic, "--no-checkpoints", "--model", "test-model", "--json")
	out, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	sc := bufio.NewScanner(out)
	sc.Buffer(make([]byte, 1<<20), 1<<20)
	var id string
	for sc.Scan() {
		var e struct{ Debate, Type string }
		if json.Unmarshal(sc.Bytes(), &e) == nil && e.Type == "debate.completed" {
			id = e.Debate
			_ = cmd.Process.Signal(syscall.SIGKILL)
			break
		}
	}
	_ = cmd.Wait()
	if id == "" {
		t.Fatal("no debate.completed event")
	}
	r := parley(t, dir, env, "", "debate", "--resume", id)
	e := exportJSON(t, dir, env, id)
	if e.Status != "completed" || len(e.Artifacts) == 0 {
		t.Fatalf("after the kill and resume (exit %d, %s): status %s, artifacts %+v", r.code, r.stderr, e.Status, e.Artifacts)
	}
	if _, err := os.Stat(e.Artifacts[len(e.Artifacts)-1].Path); err != nil {
		t.Errorf("decision document: %v", err)
	}
}

// TestDecisionPathRecordedAbsolute: a decision document written to a
// relative --out-dir is recorded by its absolute path, so that show and
// --resume run from another directory find it: --resume there took it for
// lost and wrote a second copy under that directory.
func TestDecisionPathRecordedAbsolute(t *testing.T) {
	_, dir, env := fakeOpenAI(t, loadScript(t, "perspectives.yaml"))
	r := mustParley(t, dir, env, "", "debate", redisTopic, "--no-checkpoints", "--model", "test-model", "--out-dir", "notes", "--json")
	var id string
	for _, line := range strings.Split(strings.TrimSpace(r.stdout), "\n") {
		var e struct{ Debate string }
		if json.Unmarshal([]byte(line), &e) == nil && e.Debate != "" {
			id = e.Debate
		}
	}
	e := exportJSON(t, dir, env, id)
	if len(e.Artifacts) != 1 || !filepath.IsAbs(e.Artifacts[0].Path) || !strings.HasPrefix(e.Artifacts[0].Path, filepath.Join(dir, "notes")+string(filepath.Separator)) {
		t.Fatalf("artifacts %+v: want the document's absolute path under %s", e.Artifacts, filepath.Join(dir, "notes"))
	}
	elsewhere := t.TempDir()
	if r := parley(t, elsewhere, env, "", "debate", "--resume", id); r.code != 2 || !strings.Contains(r.stderr, "already completed") {
		t.Errorf("resume from another directory: exit %d, want 2 (already completed)\n%s", r.code, r.stderr)
	}
	if left, _ := os.ReadDir(elsewhere); len(left) != 0 {
		t.Errorf("resume from another directory wrote %v there", left)
	}
	if r := mustParley(t, elsewhere, env, "", "show", id); !strings.Contains(r.stdout, "Decision document: "+e.Artifacts[0].Path) {
		t.Errorf("show from another directory does not name %s:\n%.300s", e.Artifacts[0].Path, r.stdout)
	}
}

// TestResumeAtARecordedAddressGone: a debate whose recorded server is gone,
// resumed while OPENAI_BASE_URL names another, fails saying the address is
// the one the debate recorded and how to move it; it said "correct the
// address, which OPENAI_BASE_URL sets", which was right already and
// changed nothing.
func TestResumeAtARecordedAddressGone(t *testing.T) {
	gone, dir, env := fakeOpenAI(t, loadScript(t, "perspectives.yaml"), fakellm.WithTokenDelay(10*time.Millisecond))
	id := killAt(t, dir, env, "r1/rebuttal/", "debate", redisTopic, "--no-checkpoints", "--model", "fake-model", "--json")
	gone.Close()
	other := fakellm.Start(loadScript(t, "perspectives.yaml"), fakellm.WithAPIKey("test-key"))
	defer other.Close()
	moved := append(env, "OPENAI_BASE_URL="+other.OpenAIURL())
	r := parley(t, dir, moved, "", "debate", "--resume", id, "--round-timeout", "10s")
	if r.code == 0 {
		t.Fatalf("the resume at the recorded address of a stopped server passed:\n%s", r.stderr)
	}
	if !strings.Contains(r.stderr, "which the debate recorded: to move it to the address OPENAI_BASE_URL names, resume naming the model again") ||
		strings.Contains(r.stderr, "which OPENAI_BASE_URL sets") {
		t.Errorf("the error does not say the address is the recorded one:\n%s", r.stderr)
	}
}
