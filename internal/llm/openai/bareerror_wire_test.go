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

// An event named "error" whose data is the error itself, without an
// "error" member (generic SSE servers: sse-starlette's event="error"), is
// an error event saying its message, not a chunk with no choice that left
// the stream looking cut.
func TestNamedErrorEvent(t *testing.T) {
	for name, data := range map[string]string{
		"object": `{"message":"CUDA out of memory","code":503}`,
		"text":   `CUDA out of memory`,
	} {
		r, err := ask(rawServer(t, sse(chunk(c1)+"event: error\n"+chunk(data))))
		var e *llm.Error
		if !errors.As(err, &e) || !strings.Contains(err.Error(), "CUDA out of memory") || strings.Contains(err.Error(), "ended before") {
			t.Errorf("%s: got %+v, %v; want an error saying the server's message", name, r, err)
		}
	}
	// An event named so whose data has its "error" member, and events of
	// other names, are read as they were.
	if r, err := ask(rawServer(t, sse("event: message\n"+chunk(c1)+"event: message\n"+chunk(c2)+chunk(stop)+done))); err != nil || r.Text != "Hello" {
		t.Errorf("named chunks: %+v %v", r, err)
	}
	if _, err := ask(rawServer(t, sse(chunk(c1)+"event: error\n"+chunk(`{"error":{"message":"boom","code":500}}`)))); err == nil || !strings.Contains(err.Error(), "boom") {
		t.Errorf("error member: %v", err)
	}
}
