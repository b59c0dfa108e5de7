package openai_test

import (
	"errors"
	"net/http"
	"strings"
	"testing"

	"github.com/parleyhq/parley/internal/llm"
)

// vLLM sends its error object bare ({"object":"error","message":...,
// "code":404}), with a 200 status (a whole reply for a streaming request)
// or as a data line inside the stream (older versions). Without the
// "error" around it the SDK took it for a chunk with no choice: the
// stream looked cut and was retried in vain, its message lost. It is
// classified by its code and says its message.
func TestBareErrorObject(t *testing.T) {
	notFound := `{"object":"error","message":"The model ` + "`m`" + ` does not exist.","type":"NotFoundError","param":null,"code":404}`
	engine := `{"object":"error","message":"EngineCore encountered an issue.","type":"InternalServerError","param":null,"code":500}`
	cases := []struct {
		name string
		h    http.HandlerFunc
		kind llm.ErrorKind
		want string
	}{
		{"whole, 200", func(w http.ResponseWriter, r *http.Request) {
			w.Header().Set("Content-Type", "application/json")
			_, _ = w.Write([]byte(notFound))
		}, llm.ErrBadRequest, "does not exist"},
		{"in the stream", sse(chunk(c1) + chunk(engine)), llm.ErrServer, "EngineCore encountered an issue"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			r, err := ask(rawServer(t, c.h))
			var e *llm.Error
			if !errors.As(err, &e) || e.Kind != c.kind || !strings.Contains(err.Error(), c.want) {
				t.Fatalf("got %+v, %v; want a %s error saying %q", r, err, c.kind, c.want)
			}
		})
	}
}
