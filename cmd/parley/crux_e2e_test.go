package main_test

import (
	"encoding/json"
	"path/filepath"
	"strings"
	"testing"
)

const cruxQuestion = "Will Bitcoin fall more than 50% in the next 30% S&P 500 drawdown?"

// TestCruxEndToEnd runs a crux debate from the binary against the fake LLM
// server: stages, the blocked challenge, the lock, the crux report and the
// crux JSON in the export.
func TestCruxEndToEnd(t *testing.T) {
	srv, dir, env := fakeOpenAI(t, loadScript(t, "crux.yaml"))
	r := mustParley(t, dir, env, "", "debate", "Is Bitcoin digital gold?", "--format", "crux", "--agents", "saylor,hayes", "--model", "test-model")
	for _, want := range []string{
		"Stage DISCOVERY → CRUX_LOCK: binary question proposed by Hayes: " + cruxQuestion,
		"CHALLENGE is blocked until Hayes grades your steelman",
		"Hayes grades Saylor's steelman ACCURATE",
		"Crux locked on attempt 1",
		"Stage EVIDENCE → CONVERGED",
		"# Crux: " + cruxQuestion, "**Validated:** yes", "- **Saylor: NO** (confidence 75%)",
	} {
		if !strings.Contains(r.stdout, want) {
			t.Errorf("stdout lacks %q:\n%s", want, r.stdout)
		}
	}
	list := parley(t, dir, env, "", "list", "--json")
	var sums []struct{ ID, Status string }
	if err := json.Unmarshal([]byte(list.stdout), &sums); err != nil || len(sums) != 1 || sums[0].Status != "completed" {
		t.Fatalf("list --json: %v %q", err, list.stdout)
	}
	ex := parley(t, dir, env, "", "export", sums[0].ID, "--as", "json")
	var e struct {
		Verdict struct {
			Crux struct {
				Question  string `json:"question"`
				Positions map[string]struct {
					Side string `json:"side"`
				} `json:"positions"`
				Falsifiers []struct {
					Metric, Threshold, Deadline string
				} `json:"falsifiers"`
				Counterfactual map[string]struct {
					WouldFlip bool `json:"would_flip"`
				} `json:"counterfactual"`
				Validated bool `json:"validated"`
				Locked    bool `json:"locked"`
			} `json:"crux"`
			Messages int `json:"messages"`
		} `json:"verdict"`
		Turns []struct{ ID string } `json:"turns"`
	}
	if err := json.Unmarshal([]byte(ex.stdout), &e); err != nil {
		t.Fatalf("export: %v\n%s", err, ex.stdout)
	}
	c := e.Verdict.Crux
	if c.Question != cruxQuestion || !c.Validated || !c.Locked || c.Positions["saylor"].Side != "NO" || c.Positions["hayes"].Side != "YES" ||
		len(c.Falsifiers) != 2 || !c.Counterfactual["hayes"].WouldFlip || e.Verdict.Messages != 26 {
		t.Errorf("crux %+v (messages %d)", c, e.Verdict.Messages)
	}
	if len(e.Turns) != 27 {
		t.Errorf("%d turns, want 26 messages and the crystallisation", len(e.Turns))
	}
	// One request per turn plus the repair of the blocked challenge.
	if n := len(srv.Requests()); n != 28 {
		t.Errorf("the server got %d requests, want 28", n)
	}
}

// TestCruxRefusals: bad personas and a missing model are refused with what to do.
func TestCruxRefusals(t *testing.T) {
	dir := t.TempDir()
	env := []string{"PARLEY_DB=" + filepath.Join(dir, "parley.db")}
	for _, tc := range []struct {
		args []string
		want string
	}{
		// With no model the debate cannot run: no note about who would
		// cast the personas, only what to configure.
		{[]string{}, "the crux format needs a language model"},
		{[]string{"--agents", "saylor,nakamoto"}, `no persona "nakamoto"`},
		{[]string{"--agents", "saylor,hayes,wood"}, "crux debates two personas, got 3"},
		{[]string{"--agents", "saylor,goldbug"}, `no persona "goldbug"`},
		{[]string{"--agents", "saylor,hayes", "--personas", "missing.yaml"}, "personas file missing.yaml does not exist"},
		// The personas file adds goldbug: the options pass, and the debate
		// stops only for want of a model.
		{[]string{"--agents", "saylor,goldbug", "--personas", filepath.Join(cruxAbs(t, "testdata"), "crux_personas.yaml")}, "the crux format needs a language model"},
	} {
		args := append([]string{"debate", "Is Bitcoin digital gold?", "--format", "crux"}, tc.args...)
		r := parley(t, dir, env, "", args...)
		if r.code == 0 || !strings.Contains(r.stderr, tc.want) || strings.Contains(r.stderr, "personas for the topic") {
			t.Errorf("%v: exit %d, stderr:\n%s\nwant %q", tc.args, r.code, r.stderr, tc.want)
		}
	}
}

func cruxAbs(t *testing.T, p string) string {
	t.Helper()
	a, err := filepath.Abs(p)
	if err != nil {
		t.Fatal(err)
	}
	return a
}
