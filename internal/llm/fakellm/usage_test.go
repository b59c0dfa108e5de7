package fakellm

import (
	"encoding/json"
	"strings"
	"testing"
	"time"

	"github.com/parleyhq/parley/internal/llm"
)

func longText(words int) string { return strings.Repeat("word ", words) }

func TestInputTokensCountEveryPart(t *testing.T) {
	base := llm.Request{Model: "m", System: "abcd", Messages: []llm.Message{{Role: llm.RoleUser, Text: "abcdefgh"}}}
	// system 1 + 3, user 2 + 3.
	if got := InputTokens(base); got != 9 {
		t.Fatalf("InputTokens = %d, want 9", got)
	}
	withAll := base
	withAll.Tools = []llm.ToolSpec{{Name: "abcd", Description: "abcd", Schema: json.RawMessage(`{"a":1}`)}}
	withAll.Schema = &llm.Schema{Name: "ab", JSON: json.RawMessage(`{}`)}
	withAll.Messages = append(append([]llm.Message(nil), base.Messages...),
		llm.Message{Role: llm.RoleAssistant, Text: "abcd", ToolCalls: []llm.ToolCall{{Name: "abcd", Args: json.RawMessage(`{"q":"x"}`)}}},
		llm.Message{Role: llm.RoleUser, ToolResults: []llm.ToolResult{{Content: "abcdefghij"}}})
	// + tool 1+1+2, schema 1+1, assistant 1+1+3 (args 9 chars) +3, tool result 3 + 3.
	want := 9 + 4 + 2 + 8 + 6
	if got := InputTokens(withAll); got != want {
		t.Errorf("InputTokens with tools, schema, assistant and tool result = %d, want %d", got, want)
	}
}

func TestExplicitCache(t *testing.T) {
	var c promptCache
	now := time.Date(2026, 1, 1, 12, 0, 0, 0, time.UTC)
	req := llm.Request{Model: "m", System: longText(1000), CacheSystem: true,
		Messages: []llm.Message{{Role: llm.RoleUser, Text: "first question"}}}
	sys := Tokens(req.System) + MessageOverhead
	first := c.usage(req, cacheExplicit, now, 1)
	if first.CacheWriteTokens != sys || first.CacheReadTokens != 0 {
		t.Fatalf("first call %+v: want the system prompt (%d tokens) written to the cache", first, sys)
	}
	if total := first.InputTokens + first.CacheWriteTokens; total != InputTokens(req) {
		t.Errorf("first call counts %d tokens, want %d", total, InputTokens(req))
	}
	req.Messages[0].Text = "another question"
	second := c.usage(req, cacheExplicit, now.Add(4*time.Minute), 1)
	if second.CacheReadTokens != sys || second.CacheWriteTokens != 0 {
		t.Errorf("second call within the TTL %+v: want %d cache-read tokens", second, sys)
	}
	// The hit refreshed the entry: 4 more minutes is still within the TTL.
	third := c.usage(req, cacheExplicit, now.Add(8*time.Minute), 1)
	if third.CacheReadTokens != sys {
		t.Errorf("call 4 minutes after the last hit %+v: want a cache read", third)
	}
	late := c.usage(req, cacheExplicit, now.Add(20*time.Minute), 1)
	if late.CacheReadTokens != 0 || late.CacheWriteTokens != sys {
		t.Errorf("call after the TTL %+v: want the prefix written again", late)
	}
	unmarked := req
	unmarked.CacheSystem = false
	if u := c.usage(unmarked, cacheExplicit, now.Add(21*time.Minute), 1); u.CacheReadTokens != 0 || u.CacheWriteTokens != 0 {
		t.Errorf("unmarked request %+v: explicit caching needs a mark", u)
	}
	short := llm.Request{Model: "m", System: "short", CacheSystem: true, Messages: []llm.Message{{Role: llm.RoleUser, Text: "q"}}}
	c.usage(short, cacheExplicit, now, 1)
	if u := c.usage(short, cacheExplicit, now, 1); u.CacheReadTokens != 0 || u.CacheWriteTokens != 0 {
		t.Errorf("prefix under %d tokens %+v: not cached", MinCacheTokens, u)
	}
}

func TestAutomaticCache(t *testing.T) {
	var c promptCache
	now := time.Date(2026, 1, 1, 12, 0, 0, 0, time.UTC)
	req := llm.Request{Model: "m", System: longText(900),
		Messages: []llm.Message{{Role: llm.RoleUser, Text: longText(400)}, {Role: llm.RoleAssistant, Text: "ok"}, {Role: llm.RoleUser, Text: "q1"}}}
	if u := c.usage(req, cacheAutomatic, now, 1); u.CacheReadTokens != 0 || u.CacheWriteTokens != 0 {
		t.Fatalf("first call %+v: nothing cached yet, and OpenAI reports no cache writes", u)
	}
	next := req
	next.Messages = append(append([]llm.Message(nil), req.Messages[:3]...), llm.Message{Role: llm.RoleAssistant, Text: "a1"}, llm.Message{Role: llm.RoleUser, Text: "q2"})
	u := c.usage(next, cacheAutomatic, now.Add(time.Minute), 1)
	prefix := InputTokens(req)
	if want := prefix / CacheStep * CacheStep; u.CacheReadTokens != want {
		t.Errorf("second call %+v: want the first request's %d tokens cached, in %d-token steps (%d)", u, prefix, CacheStep, want)
	}
	if u.InputTokens+u.CacheReadTokens != InputTokens(next) {
		t.Errorf("second call counts %d tokens, want %d", u.InputTokens+u.CacheReadTokens, InputTokens(next))
	}
	other := next
	other.Model = "other"
	if u := c.usage(other, cacheAutomatic, now.Add(time.Minute), 1); u.CacheReadTokens != 0 {
		t.Errorf("another model %+v: caches are per model", u)
	}
}
