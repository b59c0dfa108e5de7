package main_test

import (
	"encoding/json"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/parleyhq/parley/internal/llm/fakellm"
)

const formalTopic = "Should we migrate the monolith to microservices?"

// TestFormalEndToEnd runs a formal debate from the binary against the fake
// LLM server, with --context on a project directory: an illegal move is
// refused and corrected, another is refused twice and forfeits the turn, and
// the report and the JSON verdict carry every part of the spec.
func TestFormalEndToEnd(t *testing.T) {
	srv, dir, env := fakeOpenAI(t, loadScript(t, "formal.yaml"))
	proj := filepath.Join(dir, "shop")
	for name, text := range map[string]string{
		"README.md":          "# Shop\n\nShop is one Go binary serving checkout, billing and search.\n",
		"docs/adr-007.md":    "# ADR 7\n\nWe keep the monolith until billing needs its own scaling.\n",
		"billing/invoice.go": "package billing\n",
	} {
		p := filepath.Join(proj, name)
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	r := mustParley(t, dir, env, "", "debate", formalTopic, "--format", "formal", "--rounds", "2", "--context", "shop", "--model", "test-model",
		"--model-for", "opp=opp-model", "--model-for", "moderator=judge-model")
	for _, want := range []string{
		"**PRO [P1]** `claim` \"We should migrate the monolith to microservices\"",
		"illegal move 1 (`concede` replying to \"O3\")",
		"OPP forfeits turn r2/opp-1",
		"# Debate: \"" + formalTopic + "\"",
		"## Shared Context (K)", "README: Shop is one Go binary serving checkout, billing and search.",
		"## Commitment Stores (Final State)", "| PRO | {",
		"### Relations", "| Attack | Undercutting |",
		"### Argument Map (ASCII)", "[A1 PRO",
		"### Winner: **", "### Rationale", "### Strongest Surviving Arguments", "### Valid Points from Losing Side",
		"### Consensus Solution", "### Conditions for Revisiting", "### Debate Quality Metrics",
		"- Retractions: 0", "turns forfeited: 1",
	} {
		if !strings.Contains(r.stdout, want) {
			t.Errorf("stdout lacks %q", want)
		}
	}
	if t.Failed() {
		t.Logf("stdout:\n%s\nstderr:\n%s", r.stdout, r.stderr)
	}
	// Once: the context is gathered once, when the debate is planned (the
	// look for an unfinished debate asking the same and the start
	// gathered it twice, and said so twice).
	if n := strings.Count(r.stderr, "Shared context K:"); n != 1 {
		t.Errorf("stderr reports the gathered context %d times, want once:\n%s", n, r.stderr)
	}

	list := parley(t, dir, env, "", "list", "--json")
	var sums []struct{ ID, Status string }
	if err := json.Unmarshal([]byte(list.stdout), &sums); err != nil || len(sums) != 1 || sums[0].Status != "completed" {
		t.Fatalf("list --json: %v %q", err, list.stdout)
	}
	ex := parley(t, dir, env, "", "export", sums[0].ID, "--as", "json")
	var e struct {
		Verdict struct {
			Winner    string             `json:"winner"`
			Scores    map[string]float64 `json:"scores"`
			Semantics struct {
				Method    string `json:"method"`
				Converged bool   `json:"converged"`
			} `json:"semantics"`
			Arguments []struct{ ID string }   `json:"arguments"`
			Forfeits  []struct{ Turn string } `json:"forfeits"`
			Metrics   struct {
				Refused   int `json:"refused_moves"`
				Forfeits  int `json:"forfeits"`
				Undercuts int `json:"undercuts"`
			} `json:"metrics"`
			Exports struct {
				DOT     string          `json:"dot"`
				Argdown string          `json:"argdown"`
				AIF     json.RawMessage `json:"aif"`
			} `json:"exports"`
			Context []string `json:"context"`
		} `json:"verdict"`
		Turns []struct{ ID string } `json:"turns"`
	}
	if err := json.Unmarshal([]byte(ex.stdout), &e); err != nil {
		t.Fatalf("export: %v\n%s", err, ex.stdout)
	}
	v := e.Verdict
	if v.Winner != "PRO" && v.Winner != "OPP" && v.Winner != "TIE" || v.Semantics.Method != "spec" || !v.Semantics.Converged || len(v.Arguments) != 9 {
		t.Errorf("verdict %+v", v)
	}
	if v.Metrics.Refused != 2 || v.Metrics.Forfeits != 1 || len(v.Forfeits) != 1 || v.Forfeits[0].Turn != "r2/opp-1" || v.Metrics.Undercuts != 2 {
		t.Errorf("metrics %+v forfeits %+v", v.Metrics, v.Forfeits)
	}
	if !strings.HasPrefix(v.Exports.DOT, "digraph") || !strings.Contains(v.Exports.Argdown, "<A1>") || !json.Valid(v.Exports.AIF) || len(v.Context) == 0 {
		t.Errorf("exports %+v context %v", v.Exports, v.Context)
	}
	md := parley(t, dir, env, "", "export", sums[0].ID)
	for _, want := range []string{"## Transcript", "### Round 0: Opening", "**OPP [O1]** `why` P1", "*PRO's reply was refused: illegal move 1", "**OPP** forfeits this turn", "### Dung Cross-check"} {
		if !strings.Contains(md.stdout, want) {
			t.Errorf("export lacks %q:\n%s", want, md.stdout)
		}
	}
	// 12 debater turns, the framework review and the verdict.
	if len(e.Turns) != 14 {
		t.Errorf("%d turns, want 14", len(e.Turns))
	}
	// Models by agent and role: OPP has its own, PRO the default.
	for _, req := range srv.Requests() {
		want := map[string]string{"pro": "test-model", "opp": "opp-model", "mod": "judge-model"}[roleOfTag(req.Parsed.Tag)]
		if req.Parsed.Model != want {
			t.Errorf("turn %s ran on %s, want %s", req.Parsed.Tag, req.Parsed.Model, want)
		}
	}
	// One request per turn plus the two repairs.
	if n := len(srv.Requests()); n != 16 {
		t.Errorf("the server got %d requests, want 16", n)
	}
}

func roleOfTag(tag string) string {
	switch {
	case strings.Contains(tag, "pro"):
		return "pro"
	case strings.Contains(tag, "opp"):
		return "opp"
	}
	return "mod"
}

// TestFormalRefusals: bad flags are refused with what to do.
func TestFormalRefusals(t *testing.T) {
	dir := t.TempDir()
	env := []string{"PARLEY_DB=" + filepath.Join(dir, "parley.db")}
	for _, tc := range []struct {
		args []string
		want string
	}{
		{[]string{"--context", "nowhere"}, "--context nowhere: no such directory"},
		{[]string{"--rounds", "0"}, "--rounds 0: choose 1 to 10"},
		{[]string{"--perspective", "judge"}, `--perspective "judge": choose PRO`},
		{[]string{}, "the formal format needs a language model"},
	} {
		args := append([]string{"debate", formalTopic, "--format", "formal"}, tc.args...)
		r := parley(t, dir, env, "", args...)
		if r.code == 0 || !strings.Contains(r.stderr, tc.want) {
			t.Errorf("%v: exit %d, stderr:\n%s\nwant %q", tc.args, r.code, r.stderr, tc.want)
		}
	}
}

// TestFormalKillAndResume kills a formal debate mid-turn and resumes it after
// the --context directory is gone: the shared context was stored with the
// debate, no completed turn is asked for again, and the debate completes.
func TestFormalKillAndResume(t *testing.T) {
	srv, dir, env := fakeOpenAI(t, loadScript(t, "formal.yaml"), fakellm.WithTokenDelay(10*time.Millisecond))
	proj := filepath.Join(dir, "shop")
	if err := os.MkdirAll(proj, 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(proj, "README.md"), []byte("# Shop\n\nShop is one Go binary.\n"), 0o644); err != nil {
		t.Fatal(err)
	}

	id := killAt(t, dir, env, "r1/opp-1", "debate", formalTopic, "--format", "formal", "--context", "shop", "--model", "test-model", "--json")
	done := unfinishedTurns(t, dir, env, id)
	if !done["r1/pro-1"] || done["r1/opp-1"] {
		t.Fatalf("killed at the wrong place: %v", done)
	}
	requestsBefore := len(srv.Requests())
	if err := os.RemoveAll(proj); err != nil {
		t.Fatal(err)
	}

	r := mustParley(t, dir, env, "", "debate", "--resume", id)
	if !strings.Contains(r.stdout, "README: Shop is one Go binary.") || !strings.Contains(r.stdout, "### Winner: **") {
		t.Errorf("the resumed report lost the shared context or the verdict:\n%s", r.stdout)
	}
	after := exportJSON(t, dir, env, id)
	if after.Status != "completed" || len(after.Turns) != 14 {
		t.Fatalf("after resume: status %s, %d turns", after.Status, len(after.Turns))
	}
	asked := askedSince(t, srv, requestsBefore, done)
	if !slices.Contains(asked, "r1/opp-1") {
		t.Errorf("the interrupted turn was not run again: %v", asked)
	}
}
