package anthropic_test

import (
	"errors"
	"fmt"
	"net/http"
	"strings"
	"testing"

	"github.com/parleyhq/parley/internal/llm"
	"github.com/parleyhq/parley/internal/llm/anthropic"
	"github.com/parleyhq/parley/internal/llm/fakellm"
	"github.com/parleyhq/parley/internal/llm/script"
)

// vLLM's /v1/messages maps its finish reasons to stop reasons with a table
// that has no word for "abort": a generation the engine aborted ends with
// a null stop_reason, or, when the abort comes before the usage chunk, with
// no message_delta at all. Either way what came is not the whole reply,
// and must not stand as a short turn.
func TestNoStopReasonIsAnIncompleteReply(t *testing.T) {
	nullStop := ev("message_delta", `{"type":"message_delta","delta":{"stop_reason":null},"usage":{"input_tokens":10,"output_tokens":3}}`)
	whole := func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "application/json")
		_, _ = w.Write([]byte(`{"id":"msg_1","type":"message","role":"assistant","model":"claude-x","content":[{"type":"text","text":"Hel"}],"stop_reason":null,"usage":{"input_tokens":10,"output_tokens":3}}`))
	}
	for name, h := range map[string]http.HandlerFunc{
		"null stop_reason":                sse(start + text + nullStop + stopEv),
		"no message_delta":                sse(start + text + stopEv),
		"data lines, null stop_reason":    sse(dataOnly(start + text + nullStop + stopEv)),
		"whole message, null stop_reason": whole,
	} {
		t.Run(name, func(t *testing.T) {
			r, err := ask(rawServer(t, h))
			var e *llm.Error
			if !errors.As(err, &e) || !e.Retryable() || !strings.Contains(err.Error(), "stop_reason") {
				t.Fatalf("got %+v, %v; want a retryable error saying the reply is incomplete", r, err)
			}
		})
	}
	// A stop reason after a null one (a proxy that sends the counts
	// first) is the end.
	r, err := ask(rawServer(t, sse(start+text+nullStop+delta("end_turn")+stopEv)))
	if err != nil || r.Text != "Hello" || r.StopReason != llm.StopEnd {
		t.Fatalf("%+v %v", r, err)
	}
}

// Events after message_stop (a proxy that sends the message twice, or
// anything else) are not part of the reply.
func TestEventsAfterMessageStop(t *testing.T) {
	r, err := ask(rawServer(t, sse(start+text+delta("end_turn")+stopEv+text+delta("max_tokens")+"data: garbage\n\n")))
	if err != nil || r.Text != "Hello" || r.StopReason != llm.StopEnd {
		t.Fatalf("%+v %v", r, err)
	}
}

// The same through the fake server, as vLLM's /v1/messages sends an
// aborted generation.
func TestAbortedGenerationFake(t *testing.T) {
	srv := fakellm.Start(script.MustNew(script.Rule{Reply: &script.Reply{Text: "The cache should live in Redis because it is fast."}}),
		fakellm.WithAPIKey("k"), fakellm.WithFinishReason("abort"))
	defer srv.Close()
	p, err := anthropic.New(anthropic.Config{APIKey: "k", BaseURL: srv.AnthropicURL()})
	if err != nil {
		t.Fatal(err)
	}
	r, err := ask(p)
	if !llm.IsRetryable(err) || !strings.Contains(fmt.Sprint(err), "stop_reason") {
		t.Fatalf("got %+v, %v; want a retryable error saying the reply is incomplete", r, err)
	}
}
