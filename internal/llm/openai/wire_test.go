package openai_test

import (
	"context"
	"encoding/json"
	"testing"

	"github.com/parleyhq/parley/internal/llm"
	"github.com/parleyhq/parley/internal/llm/fakellm"
	"github.com/parleyhq/parley/internal/llm/openai"
	"github.com/parleyhq/parley/internal/llm/script"
)

func TestRequestShape(t *testing.T) {
	t.Setenv("OPENAI_API_KEY", "sk-from-env") // must not leak to a local server
	t.Setenv("OPENAI_ORG_ID", "org-env")
	srv := fakellm.Start(script.MustNew(script.Rule{Reply: &script.Reply{JSON: json.RawMessage(`{"ok":true}`)}}))
	defer srv.Close()
	temp := 0.3
	req := llm.Request{Model: "qwen3", System: "sys", Temperature: &temp, MaxTokens: 99, Tag: "t",
		Messages: []llm.Message{{Role: llm.RoleUser, Text: "hi"}},
		Schema:   &llm.Schema{Name: "answer", JSON: json.RawMessage(`{"type":"object","properties":{"ok":{"type":"boolean"}},"required":["ok"],"additionalProperties":false}`)}}
	for _, legacy := range []bool{false, true} {
		p, err := openai.New(openai.Config{Name: "ollama", BaseURL: srv.OpenAIURL(), LegacyMaxTokens: legacy})
		if err != nil {
			t.Fatal(err)
		}
		if r, err := llm.Collect(p.Stream(context.Background(), req)); err != nil || r.Text != `{"ok":true}` {
			t.Fatalf("%+v %v", r, err)
		}
		reqs := srv.Requests()
		rec := reqs[len(reqs)-1]
		var got map[string]any
		if err := json.Unmarshal(rec.Body, &got); err != nil {
			t.Fatal(err)
		}
		so, _ := got["stream_options"].(map[string]any)
		if so["include_usage"] != true {
			t.Errorf("stream_options = %v, want include_usage", got["stream_options"])
		}
		rf, _ := got["response_format"].(map[string]any)
		js, _ := rf["json_schema"].(map[string]any)
		if rf["type"] != "json_schema" || js["strict"] != true || js["name"] != "answer" {
			t.Errorf("response_format = %v", got["response_format"])
		}
		field, other := "max_completion_tokens", "max_tokens"
		if legacy {
			field, other = other, field
		}
		if got[field] != float64(99) || got[other] != nil {
			t.Errorf("legacy=%v: %s = %v, %s = %v", legacy, field, got[field], other, got[other])
		}
		if got["temperature"] != 0.3 {
			t.Errorf("temperature = %v", got["temperature"])
		}
		if a := rec.Header.Get("Authorization"); a != "" {
			t.Errorf("Authorization %q sent to a keyless server", a)
		}
		if o := rec.Header.Get("OpenAI-Organization"); o != "" {
			t.Errorf("organization %q leaked from the environment", o)
		}
	}
}

func TestOllamaBaseURL(t *testing.T) {
	for in, want := range map[string]string{
		"":                    "http://127.0.0.1:11434/v1",
		"0.0.0.0":             "http://127.0.0.1:11434/v1",
		"0.0.0.0:8080":        "http://127.0.0.1:8080/v1",
		"gpu-box":             "http://gpu-box:11434/v1",
		"http://gpu-box:1234": "http://gpu-box:1234/v1",
		"https://ollama.lan/": "https://ollama.lan:11434/v1",
		"[::1]:11434":         "http://[::1]:11434/v1",
	} {
		if got := openai.OllamaBaseURL(in); got != want {
			t.Errorf("OllamaBaseURL(%q) = %q, want %q", in, got, want)
		}
	}
	if c := openai.OllamaConfig("box"); c.Name != "ollama" || c.APIKey != "" || !c.LegacyMaxTokens {
		t.Errorf("OllamaConfig = %+v", c)
	}
}
