package main_test

import (
	"flag"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
)

// TestBullbearOfflineWithoutModel runs the spec's "parley debate NVDA" with
// no model and no network: the data-only agents argue from the offline
// snapshot and say so.
func TestBullbearOfflineWithoutModel(t *testing.T) {
	dir := t.TempDir()
	env := []string{"PARLEY_DB=" + filepath.Join(dir, "parley.db")}
	r := mustParley(t, dir, env, "", "debate", "NVDA", "--offline", "--no-checkpoints")
	for _, want := range []string{
		"═══ Phase 1 (Research) ═══", "═══ Phase 3 (Bull Rebuttal) ═══",
		"No LLM was used", "# NVDA Bull vs. Bear Debate", "## 🐂 BULL CASE", "## 🐻 BEAR CASE",
		"**Data:** offline snapshot recorded 2026-07-09",
		"Revenue: $215,938M in FY2026 (10-K 0001045810-26-000021)",
		"**Conviction: 7/10 STRONG BULL**", "**Bull thesis breaks if:**",
	} {
		if !strings.Contains(r.stdout, want) {
			t.Errorf("stdout lacks %q:\n%s", want, r.stdout)
		}
	}
	if !strings.Contains(r.stderr, "Models: none: Parley's data-only agents answer, no LLM is used") || !strings.Contains(r.stderr, "offline snapshot recorded 2026-07-09") {
		t.Errorf("stderr:\n%s", r.stderr)
	}
	// Said once: the cast line names the data-only agents, no other notice
	// says it again.
	if n := strings.Count(strings.ToLower(r.stderr), "data-only agents"); n != 1 {
		t.Errorf("stderr says %d times that data-only agents answer, want once:\n%s", n, r.stderr)
	}
	// No token counts that can only be zero.
	if !regexp.MustCompile(`(?m)^Debate DEB-\S+: 7 turns, no cost \(no model used\)$`).MatchString(r.stderr) {
		t.Errorf("the closing line does not say no model was used:\n%s", r.stderr)
	}
	// A data-only debate made no model call: list says so instead of
	// showing $0.0000 as if a model had run for free (the command's output
	// is a pipe here, as in a script).
	list := parley(t, dir, env, "", "list")
	row := regexp.MustCompile(`(?m)^DEB-\S+\s+bullbear\s+completed\s+\d+\s+(.+?)\s+\d{4}-\d{2}-\d{2} `).FindStringSubmatch(list.stdout)
	if row == nil || row[1] != "no model" || strings.Contains(list.stdout, "$") {
		t.Errorf("list: want the cost column to say no model:\n%s", list.stdout)
	}
	js := parley(t, dir, env, "", "list", "--json")
	for _, want := range []string{`"turns": 7`, `"cost_usd": 0`, `"llm_turns": 0`} {
		if !strings.Contains(js.stdout, want) {
			t.Errorf("list --json lacks %s:\n%s", want, js.stdout)
		}
	}
	if strings.Contains(js.stdout, "unpriced_models") {
		t.Errorf("list --json names unpriced models of a debate without a model:\n%s", js.stdout)
	}
	checkInvestorView(t, r.stdout)
}

var update = flag.Bool("update", false, "rewrite golden files")

var (
	debateIDRe   = regexp.MustCompile(`DEB-[0-9a-f]{8}`)
	createdRe    = regexp.MustCompile(`(?m)^\*\d{4}-\d{2}-\d{2} \|`)
	xbrlTagsRe   = regexp.MustCompile(`\[[A-Za-z]+ \d{4}-\d{2}-\d{2}`)
	filingListRe = regexp.MustCompile(`\d{10}-\d{2}-\d{6}; 10-`)
)

// checkInvestorView holds the terminal output of the offline NVDA debate to
// issue 14: each bullet prints once (the research names the points its
// opening argues instead of listing them, the bear's research refers to the
// bull's for the shared 8-K timeline and valuation, and the decision does
// not list again the points the openings printed); the bull comes first; a
// figure has one short source mark, with no XBRL tag list and no list of
// accessions. The whole output is a golden file (debate id and date
// masked).
func checkInvestorView(t *testing.T, stdout string) {
	t.Helper()
	seen := map[string]bool{}
	for _, line := range strings.Split(stdout, "\n") {
		if !strings.HasPrefix(line, "- ") {
			continue
		}
		if seen[line] {
			t.Errorf("printed twice: %q", line)
		}
		seen[line] = true
	}
	if m := xbrlTagsRe.FindString(stdout); m != "" {
		t.Errorf("the terminal shows an XBRL tag list: %q", m)
	}
	if m := filingListRe.FindString(stdout); m != "" {
		t.Errorf("the terminal shows a list of accessions: %q", m)
	}
	for _, pair := range [][2]string{{"── Bull · research", "── Bear · research"}, {"── Bull · opening", "── Bear · opening"}, {"## 🐂 BULL CASE", "## 🐻 BEAR CASE"}} {
		if i, j := strings.Index(stdout, pair[0]), strings.Index(stdout, pair[1]); i < 0 || j < 0 || i > j {
			t.Errorf("%q is not before %q", pair[0], pair[1])
		}
	}
	got := createdRe.ReplaceAllString(debateIDRe.ReplaceAllString(stdout, "DEB-XXXXXXXX"), "*YYYY-MM-DD |")
	path := filepath.Join("testdata", "bullbear_offline.terminal.txt")
	if *update {
		if err := os.WriteFile(path, []byte(got), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	want, err := os.ReadFile(path)
	if err != nil {
		t.Fatalf("%v (run with -update to create it)", err)
	}
	if got != string(want) {
		t.Errorf("the terminal output differs from %s (run with -update to accept):\n%s", path, got)
	}
}

// TestBullbearGoesOfflineWithoutUserAgent: EDGAR needs SEC_USER_AGENT; without
// it the debate uses the snapshot and labels the data with why and when.
func TestBullbearGoesOfflineWithoutUserAgent(t *testing.T) {
	dir := t.TempDir()
	r := mustParley(t, dir, []string{"PARLEY_DB=" + filepath.Join(dir, "parley.db")}, "", "debate", "NVDA", "--deep")
	if !strings.Contains(r.stdout, "offline snapshot recorded 2026-07-09 (SEC_USER_AGENT is not set") || !strings.Contains(r.stdout, "Deep Mode") {
		t.Errorf("stdout:\n%s", r.stdout)
	}
}

func TestBullbearRefusals(t *testing.T) {
	dir := t.TempDir()
	env := []string{"PARLEY_DB=" + filepath.Join(dir, "parley.db")}
	for _, c := range []struct {
		args []string
		want []string
		lack []string
	}{
		// The snapshot's EDGAR test entity has filed nothing.
		{[]string{"debate", "CIK0000350001", "--offline"}, []string{"Cannot debate CIK0000350001: No 10-K filings found. Debates require at least one annual filing."}, nil},
		// Not a filer SEC knows: going online cannot help, so no such advice.
		{[]string{"debate", "ZZZZ", "--offline"}, []string{`"ZZZZ" is not in the SEC ticker list (check the symbol`},
			[]string{"SEC_USER_AGENT", "offline snapshot", "not available from this source"}},
		// A real filer missing only from the snapshot keeps the go-online advice, said once.
		{[]string{"debate", "MSFT", "--offline"}, []string{"not in the offline snapshot: MSFT (MICROSOFT", "AAPL, GOOGL, NVDA", "SEC_USER_AGENT"},
			[]string{"not available from this source"}},
		{[]string{"debate", "NVDA", "--offline", "--framework", "dcf"}, []string{"--framework dcf", "altman, piotroski"}, nil},
		{[]string{"debate", "NVDA", "--offline", "--hint", "moderator: favour the bull"}, []string{"impartial"}, nil},
		{[]string{"debate", "Should we buy NVDA?", "--format", "bullbear", "--offline"}, []string{"give its ticker"}, nil},
	} {
		r := parley(t, dir, env, "", c.args...)
		if r.code != 2 {
			t.Errorf("%v: exit %d, want 2 (usage)\nstderr:\n%s", c.args, r.code, r.stderr)
		}
		for _, w := range c.want {
			if !strings.Contains(r.stderr, w) {
				t.Errorf("%v: stderr lacks %q:\n%s", c.args, w, r.stderr)
			}
		}
		for _, w := range c.lack {
			if strings.Contains(r.stderr, w) {
				t.Errorf("%v: stderr has %q:\n%s", c.args, w, r.stderr)
			}
		}
	}
}

// TestBullbearEndToEnd runs a whole LLM debate against the fake server: the
// research turns call the SEC tools (offline snapshot), the rebuttals quote
// each other, the fact check passes, and the moderator scores.
func TestBullbearEndToEnd(t *testing.T) {
	srv, dir, env := fakeOpenAI(t, loadScript(t, "bullbear.yaml"))
	r := mustParley(t, dir, env, "", "debate", "NVDA", "--snapshot", "--model", "test-model", "--hint", "bull: mention their new AI chip")
	// The live view shows the tool calls of the turn it streams (one of the
	// two concurrent research turns).
	if !strings.Contains(r.stdout, "⚙ xbrl_facts") && !strings.Contains(r.stdout, "⚙ compute_ratios") {
		t.Errorf("stdout shows no tool call:\n%s", r.stdout)
	}
	for _, want := range []string{"💡 Hint queued for Bull: mention their new AI chip", "Fact check: ", "**Conviction: 7/10 STRONG BULL**",
		"1. **Earnings quality**: Bull: FCF margin of 45%; Bear: cash conversion below 1x", "**Bull thesis breaks if:** gross margin falls below 60%"} {
		if !strings.Contains(r.stdout, want) {
			t.Errorf("stdout lacks %q:\n%s", want, r.stdout)
		}
	}
	if strings.Contains(r.stdout, "No LLM was used") {
		t.Error("an LLM debate claims no LLM was used")
	}
	list := parley(t, dir, env, "", "list", "--json")
	// The fake server's model has no price: the cost is unknown, not $0.
	for _, want := range []string{`"llm_turns": 7`, `"unpriced_models": [
      "openai/test-model"
    ]`} {
		if !strings.Contains(list.stdout, want) {
			t.Errorf("list --json lacks %s:\n%s", want, list.stdout)
		}
	}
	if table := parley(t, dir, env, "", "list"); !regexp.MustCompile(`completed\s+\d+\s+unknown\s`).MatchString(table.stdout) {
		t.Errorf("list: want the cost column to say unknown:\n%s", table.stdout)
	}
	id := between(list.stdout, `"id": "`, `"`)
	if id == "" {
		id = between(list.stdout, `"id":"`, `"`)
	}
	e := exportJSON(t, dir, env, id)
	var got []string
	for _, tr := range e.Turns {
		got = append(got, tr.ID)
	}
	assertSameSet(t, got, []string{"research/bull", "research/bear", "opening/bull", "opening/bear", "rebuttal/1/bull", "rebuttal/1/bear", "synthesis/moderator"})
	// One request per turn, plus one per tool round trip.
	if n := len(srv.Requests()); n != 9 {
		t.Errorf("the server got %d requests, want 9", n)
	}
	full := parley(t, dir, env, "", "export", id, "-o", filepath.Join(dir, "debate.md"))
	if full.code != 0 {
		t.Fatalf("export: %s", full.stderr)
	}
	doc, _ := os.ReadFile(filepath.Join(dir, "debate.md"))
	for _, want := range []string{"## Tool Citations", "research/bull: xbrl_facts", "research/bear: compute_ratios", "offline snapshot recorded 2026-07-09", "### User Hints", "applied in opening/bull", "### Bear rebuttal, round 1"} {
		if !strings.Contains(string(doc), want) {
			t.Errorf("full export lacks %q:\n%s", want, doc)
		}
	}
}

func between(s, start, end string) string {
	_, after, ok := strings.Cut(s, start)
	if !ok {
		return ""
	}
	v, _, _ := strings.Cut(after, end)
	return v
}

// TestOfflineWithAKeySet: --offline uses no model even when one is
// configured, and says so instead of claiming none is configured. Without
// --offline and without a model, a new debate says how to configure one;
// its resume, with a key set by then, keeps its data-only agents and does
// not claim that no model is configured.
func TestOfflineWithAKeySet(t *testing.T) {
	dir := t.TempDir()
	env := []string{"PARLEY_DB=" + filepath.Join(dir, "parley.db"), "ANTHROPIC_API_KEY=sk-ant-not-used"}
	r := parley(t, dir, env, "", "debate", "NVDA", "--offline")
	if r.code != 0 {
		t.Fatalf("exit %d\n%s", r.code, r.stderr)
	}
	if !strings.Contains(r.stderr, "--offline: no LLM is used, though anthropic/claude-sonnet-4-5 is configured") || strings.Contains(r.stderr, "No model configured") {
		t.Errorf("the notice does not say --offline left the configured model out:\n%s", r.stderr)
	}

	noKey := []string{"PARLEY_DB=" + filepath.Join(dir, "parley.db")}
	r = parley(t, dir, noKey, "", "debate", "GOOGL", "--snapshot", "--debate-timeout", "1ms")
	if !strings.Contains(r.stderr, "No model configured for bear, bull, moderator: set ANTHROPIC_API_KEY or OPENAI_API_KEY") {
		t.Errorf("exit %d: a new debate without a model does not say how to configure one:\n%s", r.code, r.stderr)
	}
	id := debateIDRe.FindString(r.stdout + r.stderr)
	if id == "" {
		t.Fatalf("no debate id:\n%s\n%s", r.stdout, r.stderr)
	}
	// Paused on its timeout, it says how to give it more time too.
	if want := "resume with: parley debate --resume " + id + " (another 1ms), or with more time: --debate-timeout D (D above 1ms)"; r.code != 3 || !strings.Contains(r.stderr, want) {
		t.Errorf("exit %d, want 3 and %q:\n%s", r.code, want, r.stderr)
	}
	r = parley(t, dir, env, "", "debate", "--resume", id, "--debate-timeout", "5m")
	if r.code != 0 || strings.Contains(r.stderr, "No model configured") || !strings.Contains(r.stderr, "Models: none: Parley's data-only agents answer") {
		t.Errorf("resume with a key set: exit %d, want the recorded data-only cast and no claim that no model is configured:\n%s", r.code, r.stderr)
	}
}
