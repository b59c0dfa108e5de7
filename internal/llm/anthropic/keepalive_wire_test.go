package anthropic_test

import (
	"context"
	"errors"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/parleyhq/parley/internal/llm"
	"github.com/parleyhq/parley/internal/llm/llmtest"
)

// Keep-alive lines (SSE comments, "event: ping" lines with no data) carry
// nothing and are not kept: a server that sends only them, however many
// and however fast, holds no memory, and the call ends at its deadline as
// a timeout that says what came. They were gathered as one event until
// 16 MB of them failed the call as a reply too large; 20 MB of ":" lines
// held 1.2 GB of heap before they did.
func TestKeepAlivesOnly(t *testing.T) {
	llmtest.KeepAlives(t, func(t *testing.T, h http.HandlerFunc) llm.Provider { return rawServer(t, h) }, "claude-x", start, ping)
}

// What is kept of an event, its data lines, is still bounded: an event of
// more than 16 MB of them fails the call as too large, with keep-alives
// not kept, rather than grow until the call's deadline.
func TestEventOfDataLinesIsBounded(t *testing.T) {
	p := rawServer(t, llmtest.KeepAlivesOnly(start, "data: "+strings.Repeat("x", 1000)+"\n", 17<<20))
	ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
	defer cancel()
	_, err := llm.Collect(p.Stream(ctx, llm.Request{Model: "claude-x", Tag: "t", Messages: []llm.Message{{Role: llm.RoleUser, Text: "hi"}}}))
	var e *llm.Error
	if !errors.As(err, &e) || e.Kind != llm.ErrTooLarge || !strings.Contains(err.Error(), "a stream event of more than 16 MB") {
		t.Fatalf("got %v; want a stream event too large", err)
	}
}
