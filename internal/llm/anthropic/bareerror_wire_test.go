package anthropic_test

import (
	"errors"
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
