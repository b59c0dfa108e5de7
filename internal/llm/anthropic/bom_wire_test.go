package anthropic_test

import (
	"context"
	"encoding/json"
	"errors"
	"net/http"
	"strings"
	"testing"

	"github.com/parleyhq/parley/internal/llm"
	"github.com/parleyhq/parley/internal/llm/anthropic"
	"github.com/parleyhq/parley/internal/llm/fakellm"
	"github.com/parleyhq/parley/internal/llm/script"
)

// A server or proxy built on .NET starts every body with a UTF-8 byte
// order mark: a stream, a whole reply and an error are read as without it.
func TestByteOrderMark(t *testing.T) {
	doc := `{"verdict":"bull"}`
	srv := fakellm.Start(script.MustNew(
		script.Rule{Tag: "busy", Reply: &script.Reply{Fault: &script.Fault{Status: 429, RetryAfter: "3", Message: "Number of requests has exceeded your rate limit"}}},
		script.Rule{Reply: &script.Reply{JSON: json.RawMessage(doc)}},
	), fakellm.WithAPIKey("k"), fakellm.WithBOM(), fakellm.WithRejectedParams("output_config"))
	defer srv.Close()
	p, err := anthropic.New(anthropic.Config{APIKey: "k", BaseURL: srv.AnthropicURL()})
	if err != nil {
		t.Fatal(err)
	}
	req := llm.Request{Model: "claude-x", Tag: "t", Messages: []llm.Message{{Role: llm.RoleUser, Text: "Who won?"}},
		Schema: &llm.Schema{Name: "verdict", JSON: json.RawMessage(`{"type":"object","properties":{"verdict":{"type":"string"}}}`)}}
	// The refusal of output_config is read, and the call adapted; the
	// usage of message_start, the stream's first event, is kept.
	r, err := llm.Collect(p.Stream(context.Background(), req))
	if err != nil || r.Text != doc || r.Usage.InputTokens == 0 || r.Usage.Unreported {
		t.Fatalf("%+v %v", r, err)
	}
	if n := len(srv.Requests()); n != 2 {
		t.Errorf("%d requests, want 2 (the refused one, then with a forced tool)", n)
	}
	req.Tag = "busy"
	_, err = llm.Collect(p.Stream(context.Background(), req))
	var e *llm.Error
	if !errors.As(err, &e) || e.Kind != llm.ErrRateLimited || e.RetryAfter.Seconds() != 3 ||
		!strings.Contains(err.Error(), "exceeded your rate limit") || strings.Contains(err.Error(), `{"type"`) {
		t.Errorf("429: %v, want the API's message, not its raw body", err)
	}

	// Events without their event: lines, and a whole reply, with a mark.
	if r, err := ask(rawServer(t, sse("\uFEFF"+dataOnly(start+text+delta("end_turn")+stopEv)))); err != nil || r.Text != "Hello" || r.Usage.CacheReadTokens != 100 {
		t.Errorf("stream: %+v %v", r, err)
	}
	whole := func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "application/json")
		_, _ = w.Write([]byte("\uFEFF" + `{"id":"msg_1","type":"message","role":"assistant","model":"claude-x","content":[{"type":"text","text":"Hello"}],"stop_reason":"end_turn","usage":{"input_tokens":3,"output_tokens":1}}`))
	}
	if r, err := ask(rawServer(t, whole)); err != nil || r.Text != "Hello" {
		t.Errorf("whole: %+v %v", r, err)
	}
}
