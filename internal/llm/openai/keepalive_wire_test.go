package openai_test

import (
	"net/http"
	"testing"

	"github.com/parleyhq/parley/internal/llm"
	"github.com/parleyhq/parley/internal/llm/llmtest"
)

// A server that sends keep-alives alone ends the call at its deadline as
// a timeout that says so, holding no memory (see llmtest.KeepAlives).
func TestKeepAlivesOnly(t *testing.T) {
	llmtest.KeepAlives(t, func(t *testing.T, h http.HandlerFunc) llm.Provider { return rawServer(t, h) }, "m", chunk(c1),
		"event: ping\ndata: {\"type\":\"ping\"}\n\n", "data: \n\n")
}
