package anthropic_test

import (
	"errors"
	"fmt"
	"net/http"
	"strings"
	"testing"

	"github.com/parleyhq/parley/internal/llm"
)

// A compatible server that answers a streaming request with another
// server's error JSON and a 200 (vLLM's bare {"object":"error",...},
// Ollama's {"error": "text"}): the error says its message, which the SDK
// read none of, and is classified by its code.
func TestOtherErrorShapesWithOK(t *testing.T) {
	cases := []struct {
		name, body string
		kind       llm.ErrorKind
		want       string
	}{
		{"vLLM, not found", `{"object":"error","message":"The model ` + "`m`" + ` does not exist.","type":"NotFoundError","param":null,"code":404}`, llm.ErrBadRequest, "does not exist"},
		{"vLLM, engine", `{"object":"error","message":"EngineCore encountered an issue.","type":"InternalServerError","param":null,"code":500}`, llm.ErrServer, "EngineCore"},
		{"Ollama", `{"error":"model is loading"}`, llm.ErrServer, "model is loading"},
		{"OpenAI's shape, overloaded", `{"error":{"message":"upstream busy","code":"503"}}`, llm.ErrOverloaded, "upstream busy"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			r, err := ask(rawServer(t, func(w http.ResponseWriter, r *http.Request) {
				w.Header().Set("Content-Type", "application/json")
				_, _ = w.Write([]byte(c.body))
			}))
			var e *llm.Error
			if !errors.As(err, &e) || e.Kind != c.kind || !strings.Contains(err.Error(), c.want) {
				t.Fatalf("got %+v, %v; want a %s error saying %q", r, err, c.kind, c.want)
			}
		})
	}
}

// An error event inside the stream in another server's shape (a generic
// {"message": ...}, OpenAI's {"error": {...}}, vLLM's bare object, text),
// or an OpenAI-compatible error a proxy passed on as a data line with
// neither event name nor type, says its message: the SDK read none from
// them, or skipped the line and the stream looked cut.
func TestOtherErrorEventShapes(t *testing.T) {
	for name, body := range map[string]string{
		"bare":          ev("error", `{"message":"CUDA out of memory","code":503}`),
		"text":          ev("error", `CUDA out of memory`),
		"OpenAI's":      ev("error", `{"error":{"message":"CUDA out of memory","code":503}}`),
		"vLLM's":        ev("error", `{"object":"error","message":"CUDA out of memory","type":"InternalServerError","code":500}`),
		"data, no type": `data: {"error":{"message":"CUDA out of memory","code":503}}` + "\n\n",
	} {
		r, err := ask(rawServer(t, sse(start+text+body)))
		var e *llm.Error
		if !errors.As(err, &e) || !e.Retryable() || !strings.Contains(err.Error(), "CUDA out of memory") {
			t.Errorf("%s: got %+v, %v; want a retryable error saying the server's message", name, r, err)
		}
	}
	// The API's own error event is read as it was.
	if _, err := ask(rawServer(t, sse(start+text+ev("error", `{"type":"error","error":{"type":"overloaded_error","message":"Overloaded"}}`)))); !strings.Contains(fmt.Sprint(err), "overloaded: error event in stream: Overloaded") {
		t.Errorf("own error event: %v", err)
	}
}
