package anthropic_test

import (
	"net/http"
	"testing"

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
