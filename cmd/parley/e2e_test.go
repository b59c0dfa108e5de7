package main_test

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"runtime"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/parleyhq/parley/internal/llm/fakellm"
	"github.com/parleyhq/parley/internal/llm/script"
)

// The end-to-end tests build the parley binary once and run it as a user
// would, against the in-repo fake LLM server.

var binary string

func TestMain(m *testing.M) {
	dir, err := os.MkdirTemp("", "parley-e2e-")
	if err != nil {
		panic(err)
	}
	binary = filepath.Join(dir, "parley")
	if runtime.GOOS == "windows" {
		binary += ".exe"
	}
	out, err := exec.Command("go", "build", "-o", binary, ".").CombinedOutput()
	if err != nil {
		os.Stderr.Write(out)
		panic("build parley: " + err.Error())
	}
	code := m.Run()
	os.RemoveAll(dir)
	os.Exit(code)
}

type run struct {
	stdout, stderr string
	code           int
}

// parley runs the binary in dir with a clean environment plus env.
func parley(t *testing.T, dir string, env []string, stdin string, args ...string) run {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	cmd := command(ctx, t, dir, env, args...)
	cmd.Stdin = strings.NewReader(stdin)
	var out, errOut bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &errOut
	err := cmd.Run()
	code := 0
	var ee *exec.ExitError
	if errors.As(err, &ee) {
		code = ee.ExitCode()
	} else if err != nil {
		t.Fatalf("run parley %v: %v", args, err)
	}
	return run{out.String(), errOut.String(), code}
}

// command is the binary set to run in dir with a clean environment plus env;
// ctx bounds how long it may run.
func command(ctx context.Context, t *testing.T, dir string, env []string, args ...string) *exec.Cmd {
	cmd := exec.CommandContext(ctx, binary, args...)
	cmd.Dir = dir
	cmd.Env = append(baseEnv(t), env...)
	return cmd
}

func baseEnv(t *testing.T) []string {
	home := t.TempDir()
	return []string{"HOME=" + home, "XDG_DATA_HOME=" + filepath.Join(home, "data"), "XDG_CACHE_HOME=" + filepath.Join(home, "cache"), "PATH=" + os.Getenv("PATH"), "NO_COLOR=1"}
}

func loadScript(t *testing.T, name string) *script.Script {
	t.Helper()
	s, err := script.Load(filepath.Join("testdata", name))
	if err != nil {
		t.Fatal(err)
	}
	return s
}

// fakeOpenAI starts the fake LLM server on a script, accepting the key
// test-key, and returns it with a fresh working directory and the environment
// that points parley's OpenAI client and database there. The server stops
// when the test ends.
//
// The server checks strict schemas as OpenAI does, and the test fails if
// it refused one: the provider would send the call again without strict
// and the debate would pass, but a real OpenAI user would pay for a
// refused request and lose the schema guarantee.
func fakeOpenAI(t *testing.T, sc *script.Script, opts ...fakellm.Option) (*fakellm.Server, string, []string) {
	t.Helper()
	srv := fakellm.Start(sc, append([]fakellm.Option{fakellm.WithAPIKey("test-key"), fakellm.WithStrictSchemaCheck()}, opts...)...)
	t.Cleanup(srv.Close)
	t.Cleanup(func() {
		for _, r := range srv.Requests() {
			if r.StrictRefusal != "" {
				t.Errorf("OpenAI's strict mode refuses a schema Parley sent (%s): %s", r.Header.Get(fakellm.TagHeader), r.StrictRefusal)
			}
		}
	})
	dir := t.TempDir()
	return srv, dir, openaiEnv(srv, filepath.Join(dir, "parley.db"))
}

func openaiEnv(srv *fakellm.Server, db string) []string {
	return []string{"OPENAI_BASE_URL=" + srv.OpenAIURL(), "OPENAI_API_KEY=test-key", "PARLEY_DB=" + db}
}

type exported struct {
	ID     string `json:"id"`
	Status string `json:"status"`
	Turns  []struct {
		ID         string   `json:"id"`
		Text       string   `json:"text"`
		Superseded []string `json:"superseded"`
	} `json:"turns"`
	Artifacts []struct {
		Kind, Path string
	} `json:"artifacts"`
}

func exportJSON(t *testing.T, dir string, env []string, id string) exported {
	t.Helper()
	r := parley(t, dir, env, "", "export", id, "--as", "json")
	if r.code != 0 {
		t.Fatalf("export: exit %d: %s", r.code, r.stderr)
	}
	var e exported
	if err := json.Unmarshal([]byte(r.stdout), &e); err != nil {
		t.Fatalf("export is not JSON: %v\n%s", err, r.stdout)
	}
	return e
}

var wantTurns = []string{
	"analysis",
	"r1/argument/performance-advocate", "r1/argument/operational-simplicity", "r1/argument/future-flexibility",
	"r1/rebuttal/performance-advocate", "r1/rebuttal/operational-simplicity", "r1/rebuttal/future-flexibility",
	"r1/evaluation",
	"r2/argument/performance-advocate", "r2/argument/operational-simplicity", "r2/argument/future-flexibility",
	"r2/rebuttal/performance-advocate", "r2/rebuttal/operational-simplicity", "r2/rebuttal/future-flexibility",
	"r2/evaluation", "synthesis",
}

func TestDebateEndToEnd(t *testing.T) {
	for _, wire := range []string{"openai", "anthropic"} {
		t.Run(wire, func(t *testing.T) {
			// The server checks each schema as the wire's API does
			// (OpenAI's strict mode, Anthropic's structured outputs).
			srv := fakellm.Start(loadScript(t, "perspectives.yaml"), fakellm.WithAPIKey("test-key"), fakellm.WithStrictSchemaCheck())
			defer srv.Close()
			defer func() {
				for _, r := range srv.Requests() {
					if r.StrictRefusal != "" {
						t.Errorf("the %s API refuses a schema Parley sent (%s): %s", wire, r.Header.Get(fakellm.TagHeader), r.StrictRefusal)
					}
				}
			}()
			dir := t.TempDir()
			db := filepath.Join(dir, "parley.db")
			env := openaiEnv(srv, db)
			if wire == "anthropic" {
				env = []string{"ANTHROPIC_BASE_URL=" + srv.AnthropicURL(), "ANTHROPIC_API_KEY=test-key", "PARLEY_DB=" + db}
			}
			r := mustParley(t, dir, env, "", "debate", "Should we use Redis or PostgreSQL for caching?", "--no-checkpoints", "--model", "test-model")
			for _, want := range []string{"═══ Round 1: arguments ═══", "── Performance Advocate · argument (round 1) ──", "# Decision: Should we use Redis or PostgreSQL for caching?", "**Confidence:** Medium"} {
				if !strings.Contains(r.stdout, want) {
					t.Errorf("stdout lacks %q:\n%s", want, r.stdout)
				}
			}
			// Counts as the documents' tables write them.
			if !regexp.MustCompile(`(?m)^Debate DEB-\S+: 16 turns, \d{1,3}(,\d{3})+ input tokens \(\d+ cached(, \d{1,3}(,\d{3})* written to the cache)?\), \d,\d{3} output tokens, cost `).MatchString(r.stderr) {
				t.Errorf("the closing line lacks the totals with thousands separators:\n%s", r.stderr)
			}
			// The moderator's evaluation is JSON asked for without a schema:
			// the terminal describes it, never streams the object.
			if want := "Decision: continue (the load threshold is unresolved)"; !strings.Contains(r.stdout, want) {
				t.Errorf("stdout lacks the described evaluation %q:\n%s", want, r.stdout)
			}
			if strings.Contains(r.stdout, `{"agreement"`) || strings.Contains(r.stdout, `"decision":`) {
				t.Errorf("stdout shows an evaluation as raw JSON:\n%s", r.stdout)
			}
			list := parley(t, dir, env, "", "list", "--json")
			var sums []struct{ ID, Status string }
			if err := json.Unmarshal([]byte(list.stdout), &sums); err != nil || len(sums) != 1 {
				t.Fatalf("list --json: %v %q", err, list.stdout)
			}
			if sums[0].Status != "completed" {
				t.Errorf("status = %s, want completed", sums[0].Status)
			}
			e := exportJSON(t, dir, env, sums[0].ID)
			var got []string
			for _, tr := range e.Turns {
				got = append(got, tr.ID)
			}
			assertSameSet(t, got, wantTurns)
			docs, _ := filepath.Glob(filepath.Join(dir, "docs", "decisions", "*-should-we-use-redis-or-postgresql-for-caching-*.md"))
			if len(docs) != 1 {
				t.Fatalf("decision documents: %v", docs)
			}
			doc, _ := os.ReadFile(docs[0])
			if !strings.Contains(string(doc), "## Dissenting View") || !strings.Contains(string(doc), "**Debate ID:** "+sums[0].ID) {
				t.Errorf("decision document:\n%s", doc)
			}
			if n := len(srv.Requests()); n != len(wantTurns) {
				t.Errorf("the server got %d requests, want %d (one per turn)", n, len(wantTurns))
			}
		})
	}
}

func assertSameSet(t *testing.T, got, want []string) {
	t.Helper()
	seen := map[string]int{}
	for _, g := range got {
		seen[g]++
	}
	for _, w := range want {
		if seen[w] != 1 {
			t.Errorf("turn %s completed %d times, want once", w, seen[w])
		}
		delete(seen, w)
	}
	for g := range seen {
		t.Errorf("unexpected turn %s", g)
	}
}

// TestKillAndResume kills parley with SIGKILL in the middle of round 1 and
// resumes the debate: it completes, no completed turn is lost or run twice,
// and the decision document is written.
func TestKillAndResume(t *testing.T) {
	srv, dir, env := fakeOpenAI(t, loadScript(t, "perspectives.yaml"), fakellm.WithTokenDelay(15*time.Millisecond))

	// Kill once a rebuttal has streamed some text: the arguments are done,
	// the rebuttal is cut off mid-stream.
	id := killAt(t, dir, env, "r1/rebuttal/", "debate", "Should we use Redis or PostgreSQL for caching?", "--no-checkpoints", "--model", "test-model", "--json")
	done := unfinishedTurns(t, dir, env, id)
	requestsBefore := len(srv.Requests())

	mustParley(t, dir, env, "", "debate", "--resume", id)
	after := exportJSON(t, dir, env, id)
	if after.Status != "completed" {
		t.Fatalf("status after resume = %s", after.Status)
	}
	var got []string
	superseded := 0
	for _, tr := range after.Turns {
		got = append(got, tr.ID)
		superseded += len(tr.Superseded)
	}
	assertSameSet(t, got, wantTurns)
	if superseded == 0 {
		t.Error("the rebuttal cut off by the kill should keep its partial text as superseded")
	}
	// Completed turns were not asked for again after the resume.
	askedSince(t, srv, requestsBefore, done)
	if len(after.Artifacts) == 0 {
		t.Error("no decision document recorded")
	} else if _, err := os.Stat(after.Artifacts[0].Path); err != nil {
		t.Errorf("decision document: %v", err)
	}
}

// mustParley runs the binary like parley and fails the test unless it exits 0.
func mustParley(t *testing.T, dir string, env []string, stdin string, args ...string) run {
	t.Helper()
	r := parley(t, dir, env, stdin, args...)
	if r.code != 0 {
		t.Fatalf("parley %v: exit %d\nstdout:\n%s\nstderr:\n%s", args, r.code, r.stdout, r.stderr)
	}
	return r
}

// killAt runs the binary with args, which must ask for --json events, and
// kills it with SIGKILL as soon as a turn.delta event's data contains turn:
// that turn is cut off mid-stream. It returns the debate's id and fails the
// test if the debate ends first.
func killAt(t *testing.T, dir string, env []string, turn string, args ...string) string {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	cmd := command(ctx, t, dir, env, args...)
	stdout, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	var id string
	sc := bufio.NewScanner(stdout)
	sc.Buffer(make([]byte, 1<<20), 1<<20)
	killed := false
	for sc.Scan() {
		var e struct {
			Debate string          `json:"debate"`
			Type   string          `json:"type"`
			Data   json.RawMessage `json:"data"`
		}
		if err := json.Unmarshal(sc.Bytes(), &e); err != nil {
			t.Fatalf("--json line is not JSON: %q", sc.Text())
		}
		id = e.Debate
		if e.Type == "turn.delta" && strings.Contains(string(e.Data), turn) {
			if err := cmd.Process.Signal(syscall.SIGKILL); err != nil {
				t.Fatal(err)
			}
			killed = true
			break
		}
	}
	_ = cmd.Wait()
	if !killed {
		t.Fatalf("the debate ended before it could be killed; stderr:\n%s", stderr.String())
	}
	return id
}

// unfinishedTurns exports a killed debate, fails the test if it is marked
// completed, and returns the ids of the turns it did complete.
func unfinishedTurns(t *testing.T, dir string, env []string, id string) map[string]bool {
	t.Helper()
	before := exportJSON(t, dir, env, id)
	if before.Status == "completed" {
		t.Fatal("the killed debate is marked completed")
	}
	done := map[string]bool{}
	for _, tr := range before.Turns {
		done[tr.ID] = true
	}
	return done
}

// askedSince returns the tags of the server's requests from the from-th on,
// failing the test for each one that asks again for a turn done before.
func askedSince(t *testing.T, srv *fakellm.Server, from int, done map[string]bool) []string {
	t.Helper()
	var asked []string
	for _, req := range srv.Requests()[from:] {
		if done[req.Parsed.Tag] {
			t.Errorf("turn %s was completed before the kill but requested again", req.Parsed.Tag)
		}
		asked = append(asked, req.Parsed.Tag)
	}
	return asked
}
