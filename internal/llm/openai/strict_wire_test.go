package openai_test

import (
	"context"
	"encoding/json"
	"errors"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"sync/atomic"
	"testing"

	sdk "github.com/openai/openai-go/v3"
	"github.com/openai/openai-go/v3/option"
	"github.com/openai/openai-go/v3/shared"

	"github.com/parleyhq/parley/internal/llm"
	"github.com/parleyhq/parley/internal/llm/fakellm"
	"github.com/parleyhq/parley/internal/llm/llmtest"
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

// OpenAI's API knows strict but refuses, in strict mode, a schema that
// strict mode does not take (here, one without additionalProperties
// false), with its own 400: the call is sent again once with the schema
// without strict, still as a json_schema response format, and the next
// calls with that schema to that model go so at once, said once per model
// and schema. Other schemas, and the same schema to another model, keep
// strict until refused; the server's shape is not changed.
func TestStrictSchemaRefusedByOpenAI(t *testing.T) {
	doc := `{"verdict":"bull"}`
	srv := fakellm.Start(script.MustNew(script.Rule{Reply: &script.Reply{Text: doc}}), fakellm.WithStrictSchemaCheck())
	defer srv.Close()

	// The fake server's answer is the API's, as the official SDK reads it.
	loose := &llm.Schema{Name: "verdict", JSON: json.RawMessage(`{"type":"object","properties":{"verdict":{"enum":["bull","bear"]}},"required":["verdict"]}`)}
	client := sdk.NewClient(option.WithBaseURL(srv.OpenAIURL()), option.WithAPIKey("k"), option.WithMaxRetries(0))
	var schema map[string]any
	_ = json.Unmarshal(loose.JSON, &schema)
	_, err := client.Chat.Completions.New(context.Background(), sdk.ChatCompletionNewParams{Model: "gpt-4o",
		Messages: []sdk.ChatCompletionMessageParamUnion{sdk.UserMessage("hi")},
		ResponseFormat: sdk.ChatCompletionNewParamsResponseFormatUnion{OfJSONSchema: &shared.ResponseFormatJSONSchemaParam{
			JSONSchema: shared.ResponseFormatJSONSchemaJSONSchemaParam{Name: "verdict", Schema: schema, Strict: sdk.Bool(true)}}}})
	var apiErr *sdk.Error
	if !errors.As(err, &apiErr) || apiErr.StatusCode != 400 || apiErr.Param != "response_format" || apiErr.Code != "" || apiErr.Type != "invalid_request_error" ||
		apiErr.Message != "Invalid schema for response_format 'verdict': In context=(), 'additionalProperties' is required to be supplied and to be false." {
		t.Fatalf("the SDK read %+v (%v)", apiErr, err)
	}

	var logs llmtest.Logs
	p, err := openai.New(openai.Config{APIKey: "k", BaseURL: srv.OpenAIURL(), Logger: logs.Logger()})
	if err != nil {
		t.Fatal(err)
	}
	tight := &llm.Schema{Name: "verdict", JSON: json.RawMessage(`{"type":"object","properties":{"verdict":{"enum":["bull","bear"]}},"required":["verdict"],"additionalProperties":false}`)}
	for call, tc := range []struct {
		model  string
		schema *llm.Schema
		strict []bool // strict in each request the call sent
		lines  int    // warnings said so far
	}{
		{"gpt-4o", loose, []bool{true, false}, 1},
		{"gpt-4o", loose, []bool{false}, 1},
		{"gpt-4o", tight, []bool{true}, 1},
		{"gpt-4.1", loose, []bool{true, false}, 2},
		{"gpt-4.1", loose, []bool{false}, 2},
	} {
		req := limited(tc.model)
		req.Schema = tc.schema
		req.Tools = []llm.ToolSpec{{Name: "lookup", Schema: json.RawMessage(`{"type":"object"}`)}}
		before := len(srv.Requests())
		r, err := llm.Collect(p.Stream(context.Background(), req))
		if err != nil || r.Text != doc {
			t.Fatalf("call %d: %+v %v", call+1, r, err)
		}
		reqs := srv.Requests()[before:]
		if len(reqs) != len(tc.strict) {
			t.Fatalf("call %d took %d requests, want %d", call+1, len(reqs), len(tc.strict))
		}
		for i, want := range tc.strict {
			var sent struct {
				ResponseFormat struct {
					Type       string                     `json:"type"`
					JSONSchema map[string]json.RawMessage `json:"json_schema"`
				} `json:"response_format"`
				Tools         []json.RawMessage `json:"tools"`
				StreamOptions json.RawMessage   `json:"stream_options"`
				MaxCompletion json.RawMessage   `json:"max_completion_tokens"`
				Messages      []map[string]any  `json:"messages"`
			}
			if err := json.Unmarshal(reqs[i].Body, &sent); err != nil {
				t.Fatal(err)
			}
			js := sent.ResponseFormat.JSONSchema
			if got := string(js["strict"]) == "true"; got != want || sent.ResponseFormat.Type != "json_schema" || len(js["schema"]) == 0 ||
				len(sent.Tools) != 1 || sent.StreamOptions == nil || sent.MaxCompletion == nil || len(sent.Messages) != 1 {
				t.Errorf("call %d, request %d: strict %v, want %v; and the schema, the tool, the limit, stream_options and the one message as asked: %s", call+1, i+1, got, want, reqs[i].Body)
			}
		}
		if n := logs.Count("WARN", "refused the schema in strict mode", "schema=verdict", "additionalProperties"); n != tc.lines {
			t.Errorf("after call %d: %d warnings, want %d: %q", call+1, n, tc.lines, logs.Lines())
		}
	}
	if n := logs.Count("model=gpt-4.1", "refused the schema"); n != 1 {
		t.Errorf("%d warnings name gpt-4.1, want 1: %q", n, logs.Lines())
	}
}

// The other wordings of the refusal: OpenAI's "... is not permitted" for a
// keyword strict mode lacks, which names response_format next to words of
// rejection, is still a strict refusal, not a server without
// response_format (whose answer would move the schema into the prompt);
// code "invalid_json_schema" is one too. A refused schema that fails
// without strict as well fails the call, and nothing is learned.
// "Invalid schema for function", for a tool's parameters, carries no
// strict to drop: it is the caller's to see, as a bad request, sent once.
func TestStrictSchemaRefusalWordings(t *testing.T) {
	req := limited("gpt-4o")
	req.Schema = &llm.Schema{Name: "verdict", JSON: json.RawMessage(`{"type":"object","properties":{"v":{"allOf":[{"type":"string"}]}},"required":["v"],"additionalProperties":false}`)}
	req.Tools = []llm.ToolSpec{{Name: "lookup", Schema: json.RawMessage(`{"type":"object"}`)}}
	refusal := func(code, msg, param string) string {
		b, _ := json.Marshal(map[string]any{"error": map[string]any{"message": msg, "type": "invalid_request_error", "param": param, "code": code}})
		if code == "" {
			b = []byte(strings.Replace(string(b), `"code":""`, `"code":null`, 1))
		}
		return string(b)
	}
	for _, tc := range []struct {
		name      string
		body      string
		always    bool // refused without strict too
		wantTries int
		wantErr   bool
	}{
		{"not permitted", refusal("", "Invalid schema for response_format 'verdict': In context=('properties', 'v'), 'allOf' is not permitted.", "response_format"), false, 2, false},
		{"invalid_json_schema", refusal("invalid_json_schema", "Invalid schema for response_format 'verdict': In context=(), 'required' is required to be supplied and to be an array including every key in properties. Missing 'w'.", "response_format"), false, 2, false},
		{"refused without strict too", refusal("", "Invalid schema for response_format 'verdict': schema must be a JSON Schema of 'type: \"object\"', got 'type: \"array\"'.", "response_format"), true, 2, true},
		{"function", refusal("invalid_function_parameters", "Invalid schema for function 'lookup': In context=(), object schema missing properties.", "tools[0].function.parameters"), false, 1, true},
	} {
		t.Run(tc.name, func(t *testing.T) {
			var bodies []string
			var mu sync.Mutex
			p := rawServer(t, func(w http.ResponseWriter, r *http.Request) {
				b, _ := io.ReadAll(r.Body)
				mu.Lock()
				bodies = append(bodies, string(b))
				mu.Unlock()
				if tc.always || strings.Contains(string(b), `"strict":true`) || strings.Contains(tc.body, "function") {
					w.Header().Set("Content-Type", "application/json")
					w.WriteHeader(400)
					_, _ = w.Write([]byte(tc.body))
					return
				}
				sse(chunk(c1)+chunk(c2)+chunk(stop)+done)(w, r)
			})
			for call := range 2 {
				bodies = nil
				r, err := llm.Collect(p.Stream(context.Background(), req))
				var e *llm.Error
				switch {
				case tc.wantErr && (!errors.As(err, &e) || e.Kind != llm.ErrBadRequest || !strings.Contains(err.Error(), "Invalid schema for")):
					t.Fatalf("call %d: %+v %v", call+1, r, err)
				case !tc.wantErr && (err != nil || r.Text != "Hello"):
					t.Fatalf("call %d: %+v %v", call+1, r, err)
				}
				tries := tc.wantTries
				if call == 1 && !tc.wantErr {
					tries = 1 // learned: strict is not sent again
				}
				if len(bodies) != tries {
					t.Fatalf("call %d took %d requests, want %d", call+1, len(bodies), tries)
				}
				for i, b := range bodies {
					if !strings.Contains(b, `"response_format":{"json_schema":`) || strings.Contains(b, "Reply with only a JSON document") {
						t.Errorf("call %d, request %d moved the schema into the prompt: %s", call+1, i+1, b)
					}
				}
			}
		})
	}
}
