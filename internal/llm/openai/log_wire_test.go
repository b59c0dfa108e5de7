package openai_test

import (
	"context"
	"encoding/json"
	"sync"
	"testing"

	"github.com/parleyhq/parley/internal/llm"
	"github.com/parleyhq/parley/internal/llm/fakellm"
	"github.com/parleyhq/parley/internal/llm/llmtest"
	"github.com/parleyhq/parley/internal/llm/openai"
	"github.com/parleyhq/parley/internal/llm/script"
)

// What a call learns to send differently is logged once per model, with
// the field, even when calls made at the same time learn it together; what
// a server's other models are sent from the start is not logged again.
func TestAdaptationsLoggedOnce(t *testing.T) {
	srv := fakellm.Start(script.MustNew(script.Rule{Reply: &script.Reply{Text: `{"a":1}`}}),
		fakellm.WithRejectedParams("stream_options", "temperature", "strict"))
	defer srv.Close()
	var logs llmtest.Logs
	p, err := openai.New(openai.Config{Name: "gw", BaseURL: srv.OpenAIURL(), Logger: logs.Logger()})
	if err != nil {
		t.Fatal(err)
	}
	call := func(model string) {
		req := limited(model)
		req.Schema = &llm.Schema{Name: "a", JSON: json.RawMessage(`{"type":"object"}`)}
		if r, err := llm.Collect(p.Stream(context.Background(), req)); err != nil || r.Text != `{"a":1}` {
			t.Errorf("%s: %+v %v", model, r, err)
		}
	}
	var wg sync.WaitGroup
	for range 4 {
		wg.Go(func() { call("model-a") })
	}
	wg.Wait()
	call("model-a")
	call("model-b")
	call("model-b")
	for _, c := range []struct {
		parts []string
		want  int
	}{
		{[]string{"WARN", "stream_options", "usage and cost are unknown", "model=model-a", "provider=gw"}, 1},
		{[]string{"WARN", "field=strict", "model=model-a"}, 1},
		{[]string{"WARN", "field=temperature", "model=model-a"}, 1},
		{[]string{"WARN", "field=temperature", "model=model-b"}, 1},
		{[]string{"model=model-b"}, 1},
	} {
		if n := logs.Count(c.parts...); n != c.want {
			t.Errorf("%d lines with %q, want %d; logged:\n%q", n, c.parts, c.want, logs.Lines())
		}
	}
	if n := len(logs.Lines()); n != 4 {
		t.Errorf("%d lines, want 4: %q", n, logs.Lines())
	}

	// Reasoning found in the text is said once per model too.
	for _, tc := range []struct {
		form  fakellm.ThinkForm
		parts []string
	}{
		{fakellm.ThinkOrphan, []string{"WARN", "</think>", "--reasoning-parser", "model=m"}},
		{fakellm.ThinkOpen, []string{"INFO", "inside <think> tags", "model=m"}},
	} {
		srv := fakellm.Start(script.MustNew(script.Rule{Reply: &script.Reply{Text: "Hi"}}), fakellm.WithThinkInText(tc.form))
		defer srv.Close()
		var logs llmtest.Logs
		p, err := openai.New(openai.Config{BaseURL: srv.OpenAIURL(), Logger: logs.Logger()})
		if err != nil {
			t.Fatal(err)
		}
		for range 3 {
			_, _ = llm.Collect(p.Stream(context.Background(), limited("m")))
		}
		if n := logs.Count(tc.parts...); n != 1 || len(logs.Lines()) != 1 {
			t.Errorf("form %d: %q, want one line with %q", tc.form, logs.Lines(), tc.parts)
		}
	}
}
