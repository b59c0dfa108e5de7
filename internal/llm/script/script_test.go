package script

import (
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/parleyhq/parley/internal/llm"
)

const yamlScript = `
rules:
  - name: opening
    tag: round-1/argument/bull
    reply: {text: "Prices will rise."}
  - tag_prefix: research/
    replies:
      - tool_calls: [{name: search, args: {q: "GDP 2025"}}]
      - text: "GDP grew 2%."
  - user_regexp: "(?i)verdict"
    reply: {json: {winner: bull, confidence: 0.7}}
  - tag: flaky
    times: 1
    reply: {fault: {status: 429, retry_after: "2"}}
  - tag: flaky
    reply: {text: "recovered", delay: 50ms}
  - system: "You are the bear"
    reply: {text: "down", tool_calls: [{name: look, args: {}}]}
`

func req(tag, system, user string) llm.Request {
	return llm.Request{Model: "m", Tag: tag, System: system, Messages: []llm.Message{{Role: llm.RoleUser, Text: user}}}
}

func TestParseAndPlay(t *testing.T) {
	s, err := Parse([]byte(yamlScript))
	if err != nil {
		t.Fatal(err)
	}
	step := func(r llm.Request) *Step {
		t.Helper()
		st, err := s.Next(r)
		if err != nil {
			t.Fatal(err)
		}
		return st
	}
	if st := step(req("round-1/argument/bull", "", "go")); st.Text != "Prices will rise." || st.Rule != `rule "opening"` || st.StopReason != llm.StopEnd {
		t.Errorf("opening: %+v", st)
	}
	st := step(req("research/gdp", "", "find"))
	if len(st.ToolCalls) != 1 || st.ToolCalls[0].Name != "search" || string(st.ToolCalls[0].Args) != `{"q":"GDP 2025"}` || st.StopReason != llm.StopToolUse || st.ToolCalls[0].ID == "" {
		t.Errorf("research 1: %+v", st)
	}
	if st := step(req("research/gdp", "", "results")); st.Text != "GDP grew 2%." {
		t.Errorf("research 2: %+v", st)
	}
	_, err = s.Next(req("research/gdp", "", "again"))
	var nm *NoMatchError
	if !errors.As(err, &nm) || !strings.Contains(err.Error(), `"research/gdp"`) || !strings.Contains(err.Error(), "used up: rule #2") {
		t.Errorf("exhausted sequence: %v", err)
	}
	if st := step(req("judge", "", "Give your VERDICT")); st.Text != `{"confidence":0.7,"winner":"bull"}` {
		t.Errorf("json reply: %q", st.Text)
	}
	if st := step(req("flaky", "", "x")); st.Fault == nil || st.Fault.Status != 429 || st.Fault.RetryAfter != "2" {
		t.Errorf("flaky 1: %+v", st)
	}
	if st := step(req("flaky", "", "x")); st.Text != "recovered" || st.Delay != 50*time.Millisecond {
		t.Errorf("flaky 2: %+v", st)
	}
	// A Reply with tool calls and text answers in two calls, and repeats.
	for i := 0; i < 2; i++ {
		if st := step(req("b", "You are the bear.", "x")); len(st.ToolCalls) != 1 || st.Text != "" {
			t.Errorf("bear calls %d: %+v", i, st)
		}
		if st := step(req("b", "You are the bear.", "x")); st.Text != "down" || len(st.ToolCalls) != 0 {
			t.Errorf("bear text %d: %+v", i, st)
		}
	}
	_, err = s.Next(req("round-2/nobody", "sys", "hello"))
	if err == nil || !strings.Contains(err.Error(), `no rule matched request tag "round-2/nobody"`) {
		t.Errorf("no match: %v", err)
	}
}

func TestLoadJSON(t *testing.T) {
	p := filepath.Join(t.TempDir(), "s.json")
	if err := os.WriteFile(p, []byte(`{"rules":[{"tag_regexp":"^r[0-9]+$","reply":{"text":"ok","stop_reason":"max_tokens"}}]}`), 0o600); err != nil {
		t.Fatal(err)
	}
	s, err := Load(p)
	if err != nil {
		t.Fatal(err)
	}
	if st, err := s.Next(req("r12", "", "")); err != nil || st.StopReason != llm.StopMaxTokens {
		t.Errorf("%+v %v", st, err)
	}
	if _, err := s.Next(req("x12", "", "")); err == nil {
		t.Error("regexp matched a tag it should not")
	}
}

func TestParseErrors(t *testing.T) {
	for name, in := range map[string]string{
		"empty":           "rules: []",
		"typo":            "rules: [{tga: x, reply: {text: y}}]",
		"no reply":        "rules: [{tag: x}]",
		"both":            "rules: [{tag: x, reply: {text: y}, replies: [{text: z}]}]",
		"empty reply":     "rules: [{reply: {}}]",
		"bad regexp":      "rules: [{tag_regexp: '(', reply: {text: y}}]",
		"bad status":      "rules: [{reply: {fault: {status: 302}}}]",
		"bad stream":      "rules: [{reply: {fault: {stream: explode}}}]",
		"bad args":        "rules: [{reply: {tool_calls: [{name: f, args: [1]}]}}]",
		"bad delay":       "rules: [{reply: {text: x, delay: soon}}]",
		"bad stop reason": "rules: [{reply: {text: x, stop_reason: done}}]",
		"times+replies":   "rules: [{times: 2, replies: [{text: x}]}]",
	} {
		if _, err := Parse([]byte(in)); err == nil {
			t.Errorf("%s: no error", name)
		}
	}
}

func TestUsageEstimate(t *testing.T) {
	s := MustNew(Rule{Reply: &Reply{Text: "three word reply", ToolCalls: nil}})
	r := llm.Request{Model: "m", System: "one two", CacheSystem: true, Messages: []llm.Message{
		{Role: llm.RoleUser, Text: "a b c", Cache: true},
		{Role: llm.RoleAssistant, Text: "d"},
		{Role: llm.RoleUser, Text: "e f"},
	}}
	first, _ := s.Next(r)
	want := llm.Usage{InputTokens: 3, OutputTokens: 3, CacheWriteTokens: 5}
	if first.Usage != want {
		t.Errorf("first usage %+v, want %+v", first.Usage, want)
	}
	second, _ := s.Next(r)
	want = llm.Usage{InputTokens: 3, OutputTokens: 3, CacheReadTokens: 5}
	if second.Usage != want {
		t.Errorf("second usage %+v, want %+v", second.Usage, want)
	}
	r.Model = "other" // another model has its own cache
	if third, _ := s.Next(r); third.Usage.CacheWriteTokens != 5 {
		t.Errorf("other model usage %+v: want a cache write", third.Usage)
	}
}

func TestSplit(t *testing.T) {
	for _, s := range []string{"", "one", "one two  three\n", "  lead", "ünï cödé"} {
		parts := Split(s)
		if strings.Join(parts, "") != s {
			t.Errorf("Split(%q) = %q does not rebuild the text", s, parts)
		}
	}
	if n := len(Split("a b c")); n != 3 {
		t.Errorf("Split into %d pieces, want 3", n)
	}
}
