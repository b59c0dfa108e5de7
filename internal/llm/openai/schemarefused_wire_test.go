package openai_test

import (
	"context"
	"encoding/json"
	"errors"
	"net/http"
	"strings"
	"sync/atomic"
	"testing"

	"github.com/parleyhq/parley/internal/llm"
)

// A server that refuses the json_schema response_format in words that do
// not say the field is unknown (llama.cpp before its json_schema support:
// "response_format type must be one of "text" or "json_object", but got:
// json_schema") fails the call as a bad request that names the cause and
// what to change; the call is not sent again in another mode.
func TestSchemaRefusedNamesTheFix(t *testing.T) {
	var n atomic.Int32
	p := rawServer(t, func(w http.ResponseWriter, r *http.Request) {
		n.Add(1)
		w.Header().Set("Content-Type", "application/json")
		w.WriteHeader(400)
		_, _ = w.Write([]byte(`{"error":{"code":400,"message":"response_format type must be one of \"text\" or \"json_object\", but got: json_schema","type":"invalid_request_error"}}`))
	})
	req := limited("qwen2.5")
	req.Schema = &llm.Schema{Name: "verdict", JSON: json.RawMessage(`{"type":"object","properties":{"verdict":{"type":"string"}}}`)}
	for call := 1; call <= 2; call++ {
		r, err := llm.Collect(p.Stream(context.Background(), req))
		var e *llm.Error
		if !errors.As(err, &e) || e.Kind != llm.ErrBadRequest {
			t.Fatalf("call %d: %+v %v, want a bad request", call, r, err)
		}
		for _, s := range []string{"must be one of", "json_schema response_format", `"qwen2.5"`, "update the server", "--model-for"} {
			if !strings.Contains(err.Error(), s) {
				t.Errorf("call %d: %q does not say %q", call, err, s)
			}
		}
	}
	if got := n.Load(); got != 2 {
		t.Errorf("%d requests for 2 calls: the call was sent again in another shape", got)
	}
}
