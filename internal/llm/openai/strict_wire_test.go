package openai_test

import (
	"context"
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync/atomic"
	"testing"

	"github.com/parleyhq/parley/internal/llm"
	"github.com/parleyhq/parley/internal/llm/fakellm"
	"github.com/parleyhq/parley/internal/llm/openai"
	"github.com/parleyhq/parley/internal/llm/script"
)

// A server without strict mode refuses "strict" in the json_schema
// response format: the call is sent again with the schema but without
// strict, and so are the next ones, to this model and the server's others.
// The tools, which carry no strict, are sent as they are.
func TestStrictRejected(t *testing.T) {
	doc := `{"verdict":"bull"}`
	srv := fakellm.Start(script.MustNew(script.Rule{Reply: &script.Reply{Text: doc}}), fakellm.WithRejectedParams("strict"))
	defer srv.Close()
	p, err := openai.New(openai.Config{Name: "gateway", BaseURL: srv.OpenAIURL()})
	if err != nil {
		t.Fatal(err)
	}
	req := limited("model-a")
	req.Schema = &llm.Schema{Name: "verdict", JSON: json.RawMessage(`{"type":"object","properties":{"verdict":{"enum":["bull","bear"]}},"required":["verdict"]}`)}
	req.Tools = []llm.ToolSpec{{Name: "lookup", Schema: json.RawMessage(`{"type":"object"}`)}}
	for call, tc := range []struct {
		model string
		tries int
	}{{"model-a", 2}, {"model-a", 1}, {"model-b", 1}} {
		req.Model = tc.model
		before := len(srv.Requests())
		r, err := llm.Collect(p.Stream(context.Background(), req))
		if err != nil || r.Text != doc {
			t.Fatalf("call %d: %+v %v", call+1, r, err)
		}
		reqs := srv.Requests()[before:]
		if len(reqs) != tc.tries {
			t.Fatalf("call %d took %d requests, want %d", call+1, len(reqs), tc.tries)
		}
		var last struct {
			ResponseFormat struct {
				JSONSchema map[string]json.RawMessage `json:"json_schema"`
			} `json:"response_format"`
			Tools []json.RawMessage `json:"tools"`
		}
		if err := json.Unmarshal(reqs[len(reqs)-1].Body, &last); err != nil {
			t.Fatal(err)
		}
		js := last.ResponseFormat.JSONSchema
		if _, ok := js["strict"]; ok || !strings.Contains(string(js["schema"]), `"required":["verdict"]`) || len(last.Tools) != 1 {
			t.Errorf("call %d: accepted request %s: want the schema without strict, and the tool", call+1, reqs[len(reqs)-1].Body)
		}
	}

	// A gateway in front of Gemini names the field in its message, and
	// sends its error as a list of one.
	var n atomic.Int32
	gw := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if n.Add(1) == 1 {
			w.Header().Set("Content-Type", "application/json")
			w.WriteHeader(400)
			_, _ = w.Write([]byte(`[{"error":{"code":400,"message":"Invalid JSON payload received. Unknown name \"strict\" at 'generation_config.response_json_schema': Cannot find field.","status":"INVALID_ARGUMENT"}}]`))
			return
		}
		sse(chunk(c1)+chunk(c2)+chunk(stop)+done)(w, r)
	}))
	defer gw.Close()
	p, err = openai.New(openai.Config{Name: "gemini", BaseURL: gw.URL + "/v1"})
	if err != nil {
		t.Fatal(err)
	}
	if r, err := llm.Collect(p.Stream(context.Background(), req)); err != nil || r.Text != "Hello" || n.Load() != 2 {
		t.Fatalf("%d requests: %+v %v", n.Load(), r, err)
	}
}

// Gemini's OpenAI-compatible endpoint sends its errors as a list of one
// error object: its message is what the error says, not the raw list.
func TestErrorList(t *testing.T) {
	p := rawServer(t, func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "application/json")
		w.WriteHeader(429)
		_, _ = w.Write([]byte(`[{"error":{"code":429,"message":"Resource has been exhausted (e.g. check quota).","status":"RESOURCE_EXHAUSTED"}}]`))
	})
	_, err := ask(p)
	if !llm.IsRetryable(err) || !strings.Contains(err.Error(), ": Resource has been exhausted (e.g. check quota).") || strings.Contains(err.Error(), "[{") {
		t.Fatalf("%v", err)
	}
}
