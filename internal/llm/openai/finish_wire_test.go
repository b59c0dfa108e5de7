package openai_test

import (
	"context"
	"errors"
	"strings"
	"testing"

	"github.com/parleyhq/parley/internal/llm"
	"github.com/parleyhq/parley/internal/llm/fakellm"
	"github.com/parleyhq/parley/internal/llm/openai"
	"github.com/parleyhq/parley/internal/llm/script"
)

// A server that gives up on a generation part way and says so only in
// the finish_reason (vLLM's "abort", DeepSeek's
// "insufficient_system_resource", vLLM's "repetition") sent half a reply:
// it fails, retryably, naming the reason, rather than stand as the turn.
func TestFinishReasonThatCutsTheReply(t *testing.T) {
	for reason, kind := range map[string]llm.ErrorKind{
		"abort":                        llm.ErrServer,
		"insufficient_system_resource": llm.ErrOverloaded,
		"repetition":                   llm.ErrMalformed,
	} {
		t.Run(reason, func(t *testing.T) {
			srv := fakellm.Start(script.MustNew(script.Rule{Reply: &script.Reply{Text: "The cache should live in Redis because it is fast."}}),
				fakellm.WithFinishReason(reason))
			defer srv.Close()
			p, err := openai.New(openai.Config{Name: "vllm", BaseURL: srv.OpenAIURL()})
			if err != nil {
				t.Fatal(err)
			}
			r, err := llm.Collect(p.Stream(context.Background(), limited("m")))
			var e *llm.Error
			if !errors.As(err, &e) || e.Kind != kind || !e.Retryable() || !strings.Contains(err.Error(), reason) {
				t.Fatalf("got %q %s, %v; want a retryable %s error naming %q", r.Text, r.StopReason, err, kind, reason)
			}
		})
	}
	// The words of servers that end normally are not among them.
	for _, reason := range []string{"eos_token", "stop_sequence", "end_turn"} {
		body := chunk(c1) + chunk(c2) + chunk(`{"choices":[{"index":0,"delta":{},"finish_reason":"`+reason+`"}]}`) + done
		if r, err := ask(rawServer(t, sse(body))); err != nil || r.Text != "Hello" || r.StopReason != llm.StopEnd {
			t.Errorf("%s: %+v %v", reason, r, err)
		}
	}
}
