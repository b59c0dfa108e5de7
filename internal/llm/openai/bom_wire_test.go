package openai_test

import (
	"context"
	"errors"
	"net/http"
	"strings"
	"testing"

	"github.com/parleyhq/parley/internal/llm"
	"github.com/parleyhq/parley/internal/llm/fakellm"
	"github.com/parleyhq/parley/internal/llm/openai"
	"github.com/parleyhq/parley/internal/llm/script"
)

// A server or proxy built on .NET starts every body with a UTF-8 byte
// order mark. The SSE spec has a decoder ignore it; the SDK's reads the
// first line as a field named "\uFEFFdata" and drops that event, and a JSON
// body with it does not parse. Every kind of answer is read as without it.
func TestByteOrderMark(t *testing.T) {
	srv := fakellm.Start(script.MustNew(
		script.Rule{Tag: "busy", Reply: &script.Reply{Fault: &script.Fault{Status: 429, RetryAfter: "3", Message: "Rate limit reached"}}},
		script.Rule{Reply: &script.Reply{Text: "Hello there"}},
	), fakellm.WithBOM(), fakellm.WithRejectedParams("stream_options"))
	defer srv.Close()
	p, err := openai.New(openai.Config{Name: "gateway", BaseURL: srv.OpenAIURL()})
	if err != nil {
		t.Fatal(err)
	}
	// The refusal of stream_options is read, and the call adapted.
	r, err := llm.Collect(p.Stream(context.Background(), limited("m")))
	if err != nil || r.Text != "Hello there" || r.StopReason != llm.StopEnd {
		t.Fatalf("%+v %v", r, err)
	}
	if n := len(srv.Requests()); n != 2 {
		t.Errorf("%d requests, want 2 (the refused one, then without stream_options)", n)
	}
	busy := limited("m")
	busy.Tag = "busy"
	_, err = llm.Collect(p.Stream(context.Background(), busy))
	var e *llm.Error
	if !errors.As(err, &e) || e.Kind != llm.ErrRateLimited || e.RetryAfter.Seconds() != 3 ||
		!strings.Contains(err.Error(), "Rate limit reached") || strings.Contains(err.Error(), `{"error"`) {
		t.Errorf("429: %v, want the API's message, not its raw body", err)
	}

	// The first event carries text, and a whole reply comes with a mark.
	first := "\uFEFF" + chunk(c1) + chunk(c2) + chunk(stop) + chunk(use) + done
	if r, err := ask(rawServer(t, sse(first))); err != nil || r.Text != "Hello" || r.Usage.InputTokens != 7 {
		t.Errorf("stream: %+v %v", r, err)
	}
	whole := func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "application/json; charset=utf-8")
		_, _ = w.Write([]byte("\uFEFF" + `{"id":"x","object":"chat.completion","model":"m","choices":[{"index":0,"message":{"role":"assistant","content":"Hello"},"finish_reason":"stop"}]}`))
	}
	if r, err := ask(rawServer(t, whole)); err != nil || r.Text != "Hello" {
		t.Errorf("whole: %+v %v", r, err)
	}
}
