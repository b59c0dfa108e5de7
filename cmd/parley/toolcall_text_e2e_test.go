package main_test

import (
	"strings"
	"testing"

	"github.com/parleyhq/parley/internal/llm/fakellm"
)

// TestToolCallsAsTextEndToEnd runs the research debate of
// TestBullbearResearchToolsEndToEnd against a server with no tool-call
// parser for the model, which sends every call as Hermes <tool_call>
// text with finish_reason stop: the calls are read and run as if the
// server had parsed them, no call text reaches the debate, and the
// adaptation is said once, with the server-side fix.
func TestToolCallsAsTextEndToEnd(t *testing.T) {
	_, dir, env := fakeOpenAI(t, loadScript(t, "bullbear_tools.yaml"), fakellm.WithToolCallsInText(fakellm.ToolTextHermes))
	r := mustParley(t, dir, env, "", "debate", "NVDA", "--snapshot", "--model", "test-model", "--no-checkpoints", "--json")
	ran := map[string]bool{}
	for _, tr := range toolResults(t, r.stdout) {
		if !tr.IsError {
			ran[tr.Name] = true
		}
	}
	for _, name := range []string{"valuation", "sec_events", "filing_search"} {
		if !ran[name] {
			t.Errorf("%s did not run; ran %v", name, ran)
		}
	}
	if strings.Contains(r.stdout, "tool_call>") {
		t.Errorf("call text reached the debate:\n%.2000s", r.stdout)
	}
	if n := strings.Count(r.stderr, "read as tool calls"); n != 1 || !strings.Contains(r.stderr, "--jinja") {
		t.Errorf("the adaptation was said %d times; stderr:\n%.2000s", n, r.stderr)
	}
}
