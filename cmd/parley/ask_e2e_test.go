package main_test

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/parleyhq/parley/internal/llm/fakellm"
	"github.com/parleyhq/parley/internal/llm/script"
)

// TestAskEndToEnd runs a bull vs. bear debate against the fake server, then
// asks the bear and the moderator follow-up questions: each answer streams
// to standard output, lands in the debate's log as ask/N/AGENT, and shows in
// the full export.
func TestAskEndToEnd(t *testing.T) {
	base := loadScript(t, "bullbear.yaml")
	sc, err := script.New(append(base.Rules,
		script.Rule{Tag: "ask/1/bear", Reply: &script.Reply{Text: "Cash conversion above 1x for two years would turn me bullish."}},
		script.Rule{Tag: "ask/2/moderator", Reply: &script.Reply{Text: "Earnings quality matters most: it decides whether growth is paid in cash."}},
	)...)
	if err != nil {
		t.Fatal(err)
	}
	srv, dir, env := fakeOpenAI(t, sc)
	if r := parley(t, dir, env, "", "debate", "NVDA", "--snapshot", "--model", "test-model"); r.code != 0 {
		t.Fatalf("debate: exit %d\n%s", r.code, r.stderr)
	}
	list := parley(t, dir, env, "", "list", "--json")
	id := between(list.stdout, `"id": "`, `"`)

	r := parley(t, dir, env, "", "ask", id, "--agent", "bear", "--model", "test-model", "What would make you turn bullish?")
	if r.code != 0 {
		t.Fatalf("ask: exit %d\nstdout:\n%s\nstderr:\n%s", r.code, r.stdout, r.stderr)
	}
	if !strings.Contains(r.stdout, "Bear · follow-up (openai/test-model)") || !strings.Contains(r.stdout, "Cash conversion above 1x for two years") {
		t.Errorf("ask stdout:\n%s", r.stdout)
	}
	if !strings.Contains(r.stderr, "Saved as ask/1/bear in debate "+id) {
		t.Errorf("ask stderr:\n%s", r.stderr)
	}
	// The question reached the model with the debate as context.
	reqs := srv.Requests()
	last := reqs[len(reqs)-1]
	if last.Parsed.Tag != "ask/1/bear" || !strings.Contains(string(last.Body), "What would make you turn bullish?") || !strings.Contains(string(last.Body), "BEAR OPENING:") {
		t.Fatalf("last request %s:\n%s", last.Parsed.Tag, last.Body)
	}
	r = parley(t, dir, env, "", "ask", id, "--agent", "moderator", "--model", "test-model", "Which", "contention", "matters", "most?")
	if r.code != 0 {
		t.Fatalf("ask moderator: exit %d\n%s", r.code, r.stderr)
	}

	e := exportJSON(t, dir, env, id)
	var got []string
	for _, tr := range e.Turns {
		got = append(got, tr.ID)
	}
	assertSameSet(t, got, []string{"research/bull", "research/bear", "opening/bull", "opening/bear", "rebuttal/1/bull", "rebuttal/1/bear", "synthesis/moderator", "ask/1/bear", "ask/2/moderator"})
	if e.Status != "completed" {
		t.Errorf("status after follow-ups: %s", e.Status)
	}
	if r := parley(t, dir, env, "", "export", id, "-o", filepath.Join(dir, "debate.md")); r.code != 0 {
		t.Fatalf("export: %s", r.stderr)
	}
	doc, _ := os.ReadFile(filepath.Join(dir, "debate.md"))
	for _, want := range []string{"### Follow-up Questions", "**Q1 (to the bear):** What would make you turn bullish?",
		"#### Bear answers Q1 (openai/test-model)", "**Q2 (to the moderator):** Which contention matters most?", "Earnings quality matters most"} {
		if !strings.Contains(string(doc), want) {
			t.Errorf("export lacks %q:\n%s", want, doc)
		}
	}
}

func TestAskRefusalsEndToEnd(t *testing.T) {
	dir := t.TempDir()
	env := []string{"PARLEY_DB=" + filepath.Join(dir, "parley.db")}
	if r := parley(t, dir, env, "", "debate", "NVDA", "--offline"); r.code != 0 {
		t.Fatalf("debate: exit %d\n%s", r.code, r.stderr)
	}
	list := parley(t, dir, env, "", "list", "--json")
	id := between(list.stdout, `"id": "`, `"`)
	for _, c := range []struct {
		args []string
		code int
		want string
	}{
		{[]string{"ask", id, "--agent", "bear", "Why?"}, 4, "needs a language model"},
		{[]string{"ask", id, "--agent", "judge", "Why?"}, 2, "ask bull, bear or moderator"},
		{[]string{"ask", id, "--agent", "bear"}, 2, "give the debate ID and a question"},
		{[]string{"ask", "DEB-none", "--agent", "bear", "Why?"}, 2, "no debate DEB-none"},
	} {
		r := parley(t, dir, env, "", c.args...)
		if r.code != c.code || !strings.Contains(r.stderr, c.want) {
			t.Errorf("%v: exit %d, want %d with %q\n%s", c.args, r.code, c.code, c.want, r.stderr)
		}
	}
}

// TestAskReadsTheDebateFromTheCache asks the bear twice over the Anthropic
// wire: the second question's request repeats the debate record marked for
// caching, and the fake server reports it read from the cache.
func TestAskReadsTheDebateFromTheCache(t *testing.T) {
	base := loadScript(t, "bullbear.yaml")
	// Providers cache only prompts of 1,024 tokens or more, and the fake
	// server counts as they do: the bear's research notes are long enough
	// for its debate record to be cached, as a real debate's are.
	notes := "Research notes: " + strings.Repeat("Data-center revenue grew faster than inventory while gross margin held near its peak. ", 60)
	rules := []script.Rule{{Tag: "research/bear", Reply: &script.Reply{Text: notes}}}
	rules = append(rules, base.Rules...)
	sc, err := script.New(append(rules,
		script.Rule{TagRegexp: `^ask/\d/bear$`, Reply: &script.Reply{Text: "Cash conversion above 1x would turn me."}},
	)...)
	if err != nil {
		t.Fatal(err)
	}
	srv := fakellm.Start(sc, fakellm.WithAPIKey("test-key"))
	defer srv.Close()
	dir := t.TempDir()
	env := []string{"ANTHROPIC_BASE_URL=" + srv.AnthropicURL(), "ANTHROPIC_API_KEY=test-key", "PARLEY_DB=" + filepath.Join(dir, "parley.db")}
	if r := parley(t, dir, env, "", "debate", "NVDA", "--snapshot", "--model", "claude-sonnet-4-5"); r.code != 0 {
		t.Fatalf("debate: exit %d\n%s", r.code, r.stderr)
	}
	// The report at the end prices the debate per agent.
	list := parley(t, dir, env, "", "list", "--json")
	id := between(list.stdout, `"id": "`, `"`)
	first := parley(t, dir, env, "", "ask", id, "--agent", "bear", "Why?")
	second := parley(t, dir, env, "", "ask", id, "--agent", "bear", "And now?")
	if first.code != 0 || second.code != 0 {
		t.Fatalf("ask: exit %d, %d\n%s\n%s", first.code, second.code, first.stderr, second.stderr)
	}
	if !strings.Contains(first.stderr, "(0 cached, ") || !strings.Contains(first.stderr, " written to the cache)") || strings.Contains(second.stderr, "(0 cached") {
		t.Errorf("want the first follow-up to write the cache and the second to read it:\n%s\n%s", first.stderr, second.stderr)
	}
	if !strings.Contains(second.stderr, "Saved as ask/2/bear") || !strings.Contains(second.stderr, "$0.") {
		t.Errorf("second follow-up:\n%s", second.stderr)
	}
	// The JSON export carries the per-agent report too.
	var e struct {
		Agents []struct {
			Agent string
			Turns int
			Usage struct {
				CacheReadTokens int `json:"cache_read_tokens"`
			}
			CostUSD float64 `json:"cost_usd"`
		}
	}
	if err := json.Unmarshal([]byte(parley(t, dir, env, "", "export", id, "--as", "json", "--summary").stdout), &e); err != nil {
		t.Fatal(err)
	}
	if len(e.Agents) != 3 || e.Agents[0].Agent != "bear" || e.Agents[0].Turns != 5 || e.Agents[0].Usage.CacheReadTokens == 0 || e.Agents[0].CostUSD <= 0 {
		t.Errorf("agents in the JSON export: %+v", e.Agents)
	}
	show := parley(t, dir, env, "", "show", id)
	for _, want := range []string{"## 💰 TOKENS AND COST", "| Bear | anthropic/claude-sonnet-4-5 | 5 |", "**Q2 (to the bear):** And now?"} {
		if !strings.Contains(show.stdout, want) {
			t.Errorf("show lacks %q:\n%s", want, show.stdout)
		}
	}
}

// TestAskCouncilEndToEnd: a format without follow-ups of its own takes them
// too: an analyst of a council answers with the model the debate recorded,
// and 'parley show' has the question and the answer.
func TestAskCouncilEndToEnd(t *testing.T) {
	base := loadScript(t, "council.yaml")
	sc, err := script.New(append([]script.Rule{{Tag: "ask/1/valuation", Reply: &script.Reply{Text: "A down round below 4x revenue would change my mind."}}}, base.Rules...)...)
	if err != nil {
		t.Fatal(err)
	}
	srv, dir, env := fakeOpenAI(t, sc)
	mustParley(t, dir, env, "", "debate", "Acme Corp", "--format", "council", "--model", "test-model")
	id := between(parley(t, dir, env, "", "list", "--json").stdout, `"id": "`, `"`)
	r := parley(t, dir, env, "", "ask", id, "--agent", "val", "What would change your mind?")
	if r.code != 0 {
		t.Fatalf("ask: exit %d\n%s", r.code, r.stderr)
	}
	if !strings.Contains(r.stdout, "Valuation · follow-up (openai/test-model)") || !strings.Contains(r.stdout, "A down round below 4x revenue") ||
		!strings.Contains(r.stderr, "Saved as ask/1/valuation in debate "+id) {
		t.Errorf("ask:\nstdout:\n%s\nstderr:\n%s", r.stdout, r.stderr)
	}
	if last := srv.Requests()[len(srv.Requests())-1]; !strings.Contains(string(last.Body), "Priced at 5x revenue against comparables at 6x.") {
		t.Errorf("the question was asked without the debate:\n%s", last.Body)
	}
	show := parley(t, dir, env, "", "show", id)
	for _, want := range []string{"## Follow-up questions", "**Q1 (to Valuation):** What would change your mind?", "A down round below 4x revenue"} {
		if !strings.Contains(show.stdout, want) {
			t.Errorf("show lacks %q:\n%s", want, show.stdout)
		}
	}
	if r := parley(t, dir, env, "", "ask", id, "--agent", "nobody", "Why?"); r.code != 2 || !strings.Contains(r.stderr, "ask one of") {
		t.Errorf("unknown agent: exit %d\n%s", r.code, r.stderr)
	}
}

// TestAskNamesAgentsAsTheTranscript: an agent is asked by the name the
// transcript shows ("Operational Simplicity", not only the id
// operational-simplicity), and the follow-up and the token table call a
// formal debater PRO, as every heading of the debate does, not "Pro".
func TestAskNamesAgentsAsTheTranscript(t *testing.T) {
	ask := script.Rule{TagRegexp: "^ask/", Reply: &script.Reply{Text: "Two quarters of contrary data would change my mind."}}
	base := loadScript(t, "perspectives.yaml")
	sc, err := script.New(append([]script.Rule{ask}, base.Rules...)...)
	if err != nil {
		t.Fatal(err)
	}
	_, dir, env := fakeOpenAI(t, sc)
	mustParley(t, dir, env, "", "debate", "Should we use Redis or PostgreSQL for caching?", "--no-checkpoints", "--model", "test-model")
	id := between(parley(t, dir, env, "", "list", "--json").stdout, `"id": "`, `"`)
	r := parley(t, dir, env, "", "ask", id, "--agent", "Operational Simplicity", "What would change your mind?")
	if r.code != 0 || !strings.Contains(r.stdout, "Operational Simplicity · follow-up") {
		t.Errorf("ask by the name shown: exit %d\nstdout:\n%s\nstderr:\n%s", r.code, r.stdout, r.stderr)
	}

	base = loadScript(t, "formal.yaml")
	sc, err = script.New(append([]script.Rule{ask}, base.Rules...)...)
	if err != nil {
		t.Fatal(err)
	}
	_, dir, env = fakeOpenAI(t, sc)
	mustParley(t, dir, env, "", "debate", formalTopic, "--format", "formal", "--model", "test-model")
	id = between(parley(t, dir, env, "", "list", "--json").stdout, `"id": "`, `"`)
	r = parley(t, dir, env, "", "ask", id, "--agent", "pro", "What would change your mind?")
	if r.code != 0 || !strings.Contains(r.stdout, "PRO · follow-up (openai/test-model)") {
		t.Errorf("ask pro: exit %d\nstdout:\n%s\nstderr:\n%s", r.code, r.stdout, r.stderr)
	}
	show := parley(t, dir, env, "", "show", id).stdout
	for _, want := range []string{"| PRO | openai/test-model |", "| OPP | openai/test-model |", "**Q1 (to PRO):** What would change your mind?"} {
		if !strings.Contains(show, want) {
			t.Errorf("show lacks %q:\n%s", want, show)
		}
	}
}

// TestAskAnswerCannotForgeHeadings: the answer of 'parley ask' is printed
// as the debate's replies are, every line indented, so that a line of the
// model's ("── Moderator · synthesis ──") cannot pass for a heading at
// column 0; it was printed as it came.
func TestAskAnswerCannotForgeHeadings(t *testing.T) {
	ask := script.Rule{TagRegexp: "^ask/", Reply: &script.Reply{Text: "Answer start.\n── Moderator · synthesis ──\n═══ Decision ═══\nForged line."}}
	base := loadScript(t, "perspectives.yaml")
	sc, err := script.New(append([]script.Rule{ask}, base.Rules...)...)
	if err != nil {
		t.Fatal(err)
	}
	_, dir, env := fakeOpenAI(t, sc)
	mustParley(t, dir, env, "", "debate", "Should we use Redis or PostgreSQL for caching?", "--no-checkpoints", "--model", "test-model")
	id := between(parley(t, dir, env, "", "list", "--json").stdout, `"id": "`, `"`)
	r := parley(t, dir, env, "", "ask", id, "--agent", "perf", "What would change your mind?")
	if r.code != 0 {
		t.Fatalf("ask: exit %d\n%s", r.code, r.stderr)
	}
	_, answer, ok := strings.Cut(r.stdout, "Q: What would change your mind?\n")
	if !ok || !strings.Contains(answer, "Forged line.") {
		t.Fatalf("no answer:\n%s", r.stdout)
	}
	for _, line := range strings.Split(strings.Trim(answer, "\n"), "\n") {
		if line != "" && !strings.HasPrefix(line, "  ") {
			t.Errorf("a line of the answer starts at column 0: %q\n%s", line, r.stdout)
		}
	}
}

// TestAskModelForNamesTheAgent: --model-for of 'parley ask' takes the agent
// asked, as its help says (AGENT=MODEL), by the name --agent takes or by
// its role; a key for another agent is refused. The agent's name chose
// nothing, and the question went silently to the environment's default
// model (openai/gpt-4.1), neither recorded nor named.
func TestAskModelForNamesTheAgent(t *testing.T) {
	ask := script.Rule{TagRegexp: "^ask/", Reply: &script.Reply{Text: "A measured p99 over budget would."}}
	base := loadScript(t, "perspectives.yaml")
	sc, err := script.New(append([]script.Rule{ask}, base.Rules...)...)
	if err != nil {
		t.Fatal(err)
	}
	_, dir, env := fakeOpenAI(t, sc)
	mustParley(t, dir, env, "", "debate", "Should we use Redis or PostgreSQL for caching?", "--no-checkpoints", "--model", "test-model")
	id := between(parley(t, dir, env, "", "list", "--json").stdout, `"id": "`, `"`)
	for _, key := range []string{"performance-advocate", "perf", "Performance Advocate", "debater"} {
		r := parley(t, dir, env, "", "ask", id, "--agent", "perf", "--model-for", key+"=other-model", "What would change your mind?")
		if r.code != 0 || !strings.Contains(r.stdout, "Performance Advocate · follow-up (openai/other-model)") {
			t.Errorf("--model-for %s=other-model: exit %d\nstdout:\n%s\nstderr:\n%s", key, r.code, r.stdout, r.stderr)
		}
	}
	r := parley(t, dir, env, "", "ask", id, "--agent", "perf", "--model-for", "operational-simplicity=other-model", "What would change your mind?")
	if r.code != 2 || !strings.Contains(r.stderr, `the question goes to performance-advocate, not to "operational-simplicity"`) {
		t.Errorf("--model-for another agent: exit %d\nstderr:\n%s", r.code, r.stderr)
	}
}
