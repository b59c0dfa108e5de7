package main_test

import (
	"encoding/json"
	"path/filepath"
	"strings"
	"testing"
)

// TestCouncilEndToEnd runs a council debate from the binary against the fake
// LLM server and checks the live progress, the report and the exported verdict.
func TestCouncilEndToEnd(t *testing.T) {
	srv, dir, env := fakeOpenAI(t, loadScript(t, "council.yaml"))
	r := mustParley(t, dir, env, "", "debate", "Acme Corp", "--format", "council", "--max-rounds", "3", "--model", "test-model")
	for _, want := range []string{
		"Round 1: Search: GO, Sentiment: NOGO, Valuation: GO (no consensus)",
		"Round 2: Search: GO, Sentiment: GO, Valuation: GO (consensus: GO)",
		"persuaded_by must name who persuaded you",
		"# Council: Acme Corp", "## Verdict: GO", "### Round 1 — no consensus", "### Round 2 — consensus: GO",
		"Persuaded by: Search Agent's retention data in round 2",
	} {
		if !strings.Contains(r.stdout, want) {
			t.Errorf("stdout lacks %q:\n%s", want, r.stdout)
		}
	}
	list := parley(t, dir, env, "", "list", "--json")
	var sums []struct{ ID, Status, Format string }
	if err := json.Unmarshal([]byte(list.stdout), &sums); err != nil || len(sums) != 1 || sums[0].Status != "completed" {
		t.Fatalf("list --json: %v %q", err, list.stdout)
	}
	ex := parley(t, dir, env, "", "export", sums[0].ID, "--as", "json")
	var e struct {
		Verdict struct {
			Decision         string `json:"decision"`
			ConsensusReached bool   `json:"consensus_reached"`
			Rounds           int    `json:"rounds"`
			DebateRounds     []struct {
				Positions []struct{ Agent, Position string }
			} `json:"debate_rounds"`
		} `json:"verdict"`
		Turns []struct{ ID string } `json:"turns"`
	}
	if err := json.Unmarshal([]byte(ex.stdout), &e); err != nil {
		t.Fatalf("export: %v\n%s", err, ex.stdout)
	}
	v := e.Verdict
	if v.Decision != "GO" || !v.ConsensusReached || v.Rounds != 2 || len(v.DebateRounds) != 2 || v.DebateRounds[0].Positions[1].Position != "NOGO" {
		t.Errorf("verdict %+v", v)
	}
	var got []string
	for _, tr := range e.Turns {
		got = append(got, tr.ID)
	}
	assertSameSet(t, got, []string{"analysis/search", "analysis/sentiment", "analysis/valuation",
		"r1/search", "r1/sentiment", "r1/valuation", "r2/search", "r2/sentiment", "r2/valuation"})
	// One request per turn plus the repair of r2/sentiment.
	if n := len(srv.Requests()); n != 10 {
		t.Errorf("the server got %d requests, want 10", n)
	}
}

// TestCouncilNeedsModel: without a model the council refuses to start and
// says how to configure one.
func TestCouncilNeedsModel(t *testing.T) {
	dir := t.TempDir()
	r := parley(t, dir, []string{"PARLEY_DB=" + filepath.Join(dir, "parley.db")}, "", "debate", "Acme Corp", "--format", "council")
	if r.code == 0 || !strings.Contains(r.stderr, "the council format needs a language model") {
		t.Errorf("exit %d, stderr:\n%s", r.code, r.stderr)
	}
	for _, bad := range []string{"9", "6"} {
		r = parley(t, dir, []string{"PARLEY_DB=" + filepath.Join(dir, "parley.db")}, "", "debate", "Acme Corp", "--format", "council", "--max-rounds", bad)
		if r.code == 0 || !strings.Contains(r.stderr, "--max-rounds "+bad+": the council debates 1 to 5 rounds") {
			t.Errorf("--max-rounds %s: exit %d, stderr:\n%s", bad, r.code, r.stderr)
		}
	}
	r = parley(t, dir, []string{"PARLEY_DB=" + filepath.Join(dir, "parley.db")}, "", "debate", "Acme Corp", "--format", "council", "--risk", "bold")
	if r.code == 0 || !strings.Contains(r.stderr, `--risk "bold": choose neutral or averse`) {
		t.Errorf("--risk bold: exit %d, stderr:\n%s", r.code, r.stderr)
	}
}

// A council on a listed company researches it with the SEC tools.
func TestCouncilOnAListedCompanyUsesSECTools(t *testing.T) {
	srv, dir, env := fakeOpenAI(t, loadScript(t, "council_listed.yaml"))
	r := mustParley(t, dir, env, "", "debate", "NVDA", "--format", "council", "--snapshot", "--max-rounds", "3", "--model", "test-model")
	if !strings.Contains(r.stderr, "NVIDIA CORP is listed (NVDA)") {
		t.Errorf("stderr lacks the listed-company line:\n%s", r.stderr)
	}
	list := parley(t, dir, env, "", "list", "--json")
	var sums []struct{ ID string }
	if err := json.Unmarshal([]byte(list.stdout), &sums); err != nil || len(sums) != 1 {
		t.Fatalf("list: %v %s", err, list.stdout)
	}
	ex := parley(t, dir, env, "", "export", sums[0].ID, "--as", "json")
	var e struct {
		Turns []struct {
			ID    string
			Tools []struct {
				Name, Result string
				Error        bool
			}
		}
	}
	if err := json.Unmarshal([]byte(ex.stdout), &e); err != nil {
		t.Fatal(err)
	}
	found := false
	for _, tr := range e.Turns {
		if tr.ID == "analysis/search" {
			for _, tl := range tr.Tools {
				found = tl.Name == "xbrl_facts" && !tl.Error && strings.Contains(tl.Result, "215938000000")
			}
		}
	}
	if !found {
		t.Errorf("analysis/search made no successful xbrl_facts call with NVDA's FY2026 revenue: %+v", e.Turns[:3])
	}
	// The tool results went back to the model in the next request.
	var sawResult bool
	for _, req := range srv.Requests() {
		if req.Parsed.Tag == "analysis/search" {
			for _, m := range req.Parsed.Messages {
				if len(m.ToolResults) > 0 {
					sawResult = true
				}
			}
		}
	}
	if !sawResult {
		t.Error("the tool result was not sent back to the model")
	}
}
