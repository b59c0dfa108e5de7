package anthropic_test

import (
	"context"
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync/atomic"
	"testing"

	"github.com/parleyhq/parley/internal/llm"
	"github.com/parleyhq/parley/internal/llm/anthropic"
	"github.com/parleyhq/parley/internal/llm/fakellm"
	"github.com/parleyhq/parley/internal/llm/script"
)

// A server that does not know a field we send answers as the API does to
// any unknown field ("output_config: Extra inputs are not permitted"): the
// call is sent again without it, and the next calls go that way at once.
func TestRejectedFieldsAreAdapted(t *testing.T) {
	doc := `{"verdict":"bull"}`
	cases := []struct {
		name     string
		mode     anthropic.StructuredMode
		rejected string
		has      []string // in the accepted request
		lacks    []string
	}{
		{"output_config (compatible servers)", anthropic.StructuredOutputFormat, "output_config", []string{`"tool_choice"`}, []string{`"output_config"`}},
		{"cache_control (compatible servers)", anthropic.StructuredOutputFormat, "cache_control", []string{`"output_config"`}, []string{`"cache_control"`}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			srv := fakellm.Start(script.MustNew(script.Rule{Reply: &script.Reply{JSON: json.RawMessage(doc)}}), fakellm.WithAPIKey("k"), fakellm.WithRejectedParams(c.rejected))
			defer srv.Close()
			p, err := anthropic.New(anthropic.Config{APIKey: "k", BaseURL: srv.AnthropicURL(), Structured: c.mode})
			if err != nil {
				t.Fatal(err)
			}
			req := llm.Request{Model: "claude-x", System: "You judge.", CacheSystem: true, Tag: "t",
				Messages: []llm.Message{{Role: llm.RoleUser, Text: "Who won?", Cache: true}},
				Schema:   &llm.Schema{Name: "verdict", JSON: json.RawMessage(`{"type":"object","properties":{"verdict":{"type":"string"}},"required":["verdict"]}`)}}
			for call := 1; call <= 2; call++ {
				before := len(srv.Requests())
				r, err := llm.Collect(p.Stream(context.Background(), req))
				if err != nil || r.Text != doc || len(r.ToolCalls) != 0 {
					t.Fatalf("call %d: %+v %v", call, r, err)
				}
				reqs := srv.Requests()[before:]
				if want := 3 - call; len(reqs) != want {
					t.Fatalf("call %d took %d requests, want %d", call, len(reqs), want)
				}
				body := string(reqs[len(reqs)-1].Body)
				for _, s := range c.has {
					if !strings.Contains(body, s) {
						t.Errorf("call %d: accepted request lacks %s", call, s)
					}
				}
				for _, s := range c.lacks {
					if strings.Contains(body, s) {
						t.Errorf("call %d: accepted request has %s", call, s)
					}
				}
			}
		})
	}
}

// A model that refuses a forced tool_choice gets output_config instead;
// a 400 about something else is not retried.
func TestForcedToolRefused(t *testing.T) {
	var n atomic.Int32
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		n.Add(1)
		var m map[string]any
		_ = json.NewDecoder(r.Body).Decode(&m)
		if _, ok := m["tool_choice"]; ok {
			w.Header().Set("Content-Type", "application/json")
			w.WriteHeader(400)
			_, _ = w.Write([]byte(`{"type":"error","error":{"type":"invalid_request_error","message":"tool_choice: forcing a specific tool is not supported by this model; use output_config.format for structured output"},"request_id":"req_1"}`))
			return
		}
		if _, ok := m["output_config"]; !ok {
			t.Errorf("retry without output_config: %v", m)
		}
		sse(start+text+delta("end_turn")+stopEv)(w, r)
	}))
	defer srv.Close()
	p, err := anthropic.New(anthropic.Config{APIKey: "k", BaseURL: srv.URL, Structured: anthropic.StructuredForcedTool})
	if err != nil {
		t.Fatal(err)
	}
	req := llm.Request{Model: "claude-x", Messages: []llm.Message{{Role: llm.RoleUser, Text: "hi"}},
		Schema: &llm.Schema{Name: "v", JSON: json.RawMessage(`{"type":"object"}`)}}
	if r, err := llm.Collect(p.Stream(context.Background(), req)); err != nil || r.Text != "Hello" || n.Load() != 2 {
		t.Fatalf("%d requests: %+v %v", n.Load(), r, err)
	}

	n.Store(0)
	bad := rawServer(t, func(w http.ResponseWriter, r *http.Request) {
		n.Add(1)
		w.Header().Set("Content-Type", "application/json")
		w.WriteHeader(400)
		_, _ = w.Write([]byte(`{"type":"error","error":{"type":"invalid_request_error","message":"messages: roles must alternate between \"user\" and \"assistant\", but found multiple \"user\" roles in a row"}}`))
	})
	if _, err := ask(bad); err == nil || llm.IsRetryable(err) || n.Load() != 1 {
		t.Fatalf("%d requests, %v: want the refusal reported, not retried", n.Load(), err)
	}
}
