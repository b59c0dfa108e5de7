package anthropic_test

import (
	"context"
	"encoding/json"
	"sync"
	"testing"

	"github.com/parleyhq/parley/internal/llm"
	"github.com/parleyhq/parley/internal/llm/anthropic"
	"github.com/parleyhq/parley/internal/llm/fakellm"
	"github.com/parleyhq/parley/internal/llm/llmtest"
	"github.com/parleyhq/parley/internal/llm/script"
)

// What a call learns to send differently, and reasoning found in the
// text, are logged once per model, even when calls made at the same time
// learn them together.
func TestAdaptationsLoggedOnce(t *testing.T) {
	doc := `{"verdict":"bull"}`
	srv := fakellm.Start(script.MustNew(script.Rule{Reply: &script.Reply{JSON: json.RawMessage(doc)}}), fakellm.WithAPIKey("k"),
		fakellm.WithRejectedParams("output_config", "cache_control"), fakellm.WithThinkInText(fakellm.ThinkOpen))
	defer srv.Close()
	var logs llmtest.Logs
	p, err := anthropic.New(anthropic.Config{APIKey: "k", BaseURL: srv.AnthropicURL(), Logger: logs.Logger()})
	if err != nil {
		t.Fatal(err)
	}
	call := func(model string, schema bool) {
		req := llm.Request{Model: model, System: "You judge.", CacheSystem: true, Tag: "t", Messages: []llm.Message{{Role: llm.RoleUser, Text: "Who won?"}}}
		if schema {
			req.Schema = &llm.Schema{Name: "verdict", JSON: json.RawMessage(`{"type":"object"}`)}
		}
		if r, err := llm.Collect(p.Stream(context.Background(), req)); err != nil || r.Text != doc {
			t.Errorf("%s: %+v %v", model, r, err)
		}
	}
	var wg sync.WaitGroup
	for range 4 {
		wg.Go(func() { call("model-a", true) })
	}
	wg.Wait()
	call("model-a", true)
	call("model-b", false)
	for _, c := range []struct {
		parts []string
		want  int
	}{
		{[]string{"INFO", "field=output_config", "forced tool", "model=model-a"}, 1},
		{[]string{"WARN", "field=cache_control", "prompt caching", "model=model-a"}, 1},
		{[]string{"WARN", "field=cache_control", "model=model-b"}, 1},
		{[]string{"INFO", "inside <think> tags", "model=model-b"}, 1},
	} {
		if n := logs.Count(c.parts...); n != c.want {
			t.Errorf("%d lines with %q, want %d; logged:\n%q", n, c.parts, c.want, logs.Lines())
		}
	}
	// model-a's replies are a forced tool's input, no text: nothing is
	// learned of its reasoning.
	if n := len(logs.Lines()); n != 4 {
		t.Errorf("%d lines, want 4: %q", n, logs.Lines())
	}
}
