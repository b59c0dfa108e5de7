package openai_test

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"net/http/httptest"
	"slices"
	"strings"
	"sync"
	"sync/atomic"
	"testing"

	"github.com/parleyhq/parley/internal/llm"
	"github.com/parleyhq/parley/internal/llm/fakellm"
	"github.com/parleyhq/parley/internal/llm/openai"
	"github.com/parleyhq/parley/internal/llm/script"
)

// limited asks for a reply of at most 50 tokens at temperature 0.2, so that
// every adaptable field is sent.
func limited(model string) llm.Request {
	temp := 0.2
	return llm.Request{Model: model, MaxTokens: 50, Temperature: &temp, Tag: "t",
		Messages: []llm.Message{{Role: llm.RoleUser, Text: "hi"}}}
}

// fields returns the top-level fields of a recorded request body.
func fields(t *testing.T, body []byte) map[string]any {
	t.Helper()
	var m map[string]any
	if err := json.Unmarshal(body, &m); err != nil {
		t.Fatal(err)
	}
	return m
}

// A server that refuses a field we send gets the call again without it (or
// with the other name of the limit), and the next calls are sent in the
// shape it accepted.
func TestRejectedFieldsAreAdapted(t *testing.T) {
	cases := []struct {
		name     string
		legacy   bool     // Config.LegacyMaxTokens
		rejected []string // fields the server refuses
		tries    int      // requests the first call takes
		absent   []string // fields the accepted shape lacks
		present  []string // fields it keeps
		unknown  bool     // usage unknown: stream_options dropped
	}{
		{"stream_options (Groq)", false, []string{"stream_options"}, 2,
			[]string{"stream_options"}, []string{"max_completion_tokens", "temperature"}, true},
		{"max_completion_tokens (Azure)", false, []string{"max_completion_tokens"}, 2,
			[]string{"max_completion_tokens"}, []string{"max_tokens", "stream_options", "temperature"}, false},
		{"max_tokens (OpenAI reasoning model)", true, []string{"max_tokens"}, 2,
			[]string{"max_tokens"}, []string{"max_completion_tokens", "stream_options"}, false},
		{"temperature and max_tokens (o1)", true, []string{"max_tokens", "temperature"}, 3,
			[]string{"max_tokens", "temperature"}, []string{"max_completion_tokens", "stream_options"}, false},
		{"stream_options and max_completion_tokens", false, []string{"stream_options", "max_completion_tokens"}, 3,
			[]string{"stream_options", "max_completion_tokens"}, []string{"max_tokens"}, true},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			srv := fakellm.Start(script.MustNew(script.Rule{Reply: &script.Reply{Text: "Hello there"}}), fakellm.WithRejectedParams(c.rejected...))
			defer srv.Close()
			p, err := openai.New(openai.Config{Name: "azure", BaseURL: srv.OpenAIURL(), LegacyMaxTokens: c.legacy})
			if err != nil {
				t.Fatal(err)
			}
			for call := 1; call <= 2; call++ {
				before := len(srv.Requests())
				r, err := llm.Collect(p.Stream(context.Background(), limited("gpt-x")))
				if err != nil {
					t.Fatalf("call %d: %v", call, err)
				}
				if r.Text != "Hello there" || r.Usage.Unreported != c.unknown || (!c.unknown && r.Usage.OutputTokens == 0) {
					t.Errorf("call %d: %+v, want the reply with usage unknown=%v", call, r, c.unknown)
				}
				reqs := srv.Requests()[before:]
				want := 1
				if call == 1 {
					want = c.tries
				}
				if len(reqs) != want {
					t.Fatalf("call %d took %d requests, want %d", call, len(reqs), want)
				}
				last := fields(t, reqs[len(reqs)-1].Body)
				for _, f := range c.absent {
					if _, ok := last[f]; ok {
						t.Errorf("call %d: accepted request has %s", call, f)
					}
				}
				for _, f := range c.present {
					if _, ok := last[f]; !ok {
						t.Errorf("call %d: accepted request lacks %s", call, f)
					}
				}
				for _, rq := range reqs {
					m := fields(t, rq.Body)
					if m["model"] != "gpt-x" || len(m["messages"].([]any)) != 1 {
						t.Errorf("call %d: a retry changed the model or messages: %s", call, rq.Body)
					}
				}
			}
		})
	}
}

// What other servers answer, and answers that are not about a field we can
// do without.
func TestRejectedFieldShapes(t *testing.T) {
	const pydantic = `{"detail":[{"type":"extra_forbidden","loc":["body","stream_options"],"msg":"Extra inputs are not permitted","input":{"include_usage":true}}]}`
	const tgi = "Failed to deserialize the JSON body into the target type: unknown field `stream_options`, expected one of `frequency_penalty`, `logit_bias`, `logprobs`, `max_tokens`, `messages`, `model`, `n`, `presence_penalty`, `seed`, `stop`, `stream`, `temperature`, `top_p`, `tools` at line 1 column 131"
	cases := []struct {
		name    string
		status  int
		ctype   string
		body    string
		field   string // the field the retry lacks; "" for no retry
		drop    bool   // the field is dropped rather than renamed
		renamed string
	}{
		{"pydantic 422 extra_forbidden", 422, "application/json", pydantic, "stream_options", true, ""},
		{"Mistral 422, the pydantic list inside the message", 422, "application/json", `{"object":"error","message":{"detail":[{"type":"extra_forbidden","loc":["body","stream_options"],"msg":"Extra inputs are not permitted","input":{"include_usage":true}}]},"type":"invalid_request_message_error","param":null,"code":null}`, "stream_options", true, ""},
		{"axum 422 unknown field (TGI)", 422, "text/plain; charset=utf-8", tgi, "stream_options", true, ""},
		{"TGI 422 as JSON", 422, "application/json", `{"error":"Failed to deserialize the JSON body into the target type: unknown field ` + "`stream_options`" + `, expected one of ` + "`max_tokens`" + `, ` + "`stream`" + ` at line 1 column 131","error_type":"validation"}`, "stream_options", true, ""},
		{"Groq 400", 400, "application/json", `{"error":{"message":"property 'stream_options' is unsupported, did you mean 'stream'?","type":"invalid_request_error"}}`, "stream_options", true, ""},
		{"Azure 400 max_completion_tokens", 400, "application/json", `{"error":{"message":"Unrecognized request argument supplied: max_completion_tokens","type":"invalid_request_error","param":null,"code":null}}`, "max_completion_tokens", false, "max_tokens"},
		{"unsupported value for temperature", 400, "application/json", `{"error":{"message":"Unsupported value: 'temperature' does not support 0.2 with this model. Only the default (1) value is supported.","type":"invalid_request_error","param":"temperature","code":"unsupported_value"}}`, "temperature", true, ""},
		// Not about accepting the field: sending it otherwise cannot help.
		{"value too large", 400, "application/json", `{"error":{"message":"max_completion_tokens is too large: 900000. This model supports at most 16384 completion tokens.","type":"invalid_request_error","param":"max_completion_tokens","code":"invalid_value"}}`, "", false, ""},
		{"vLLM limit past the context", 400, "application/json", `{"object":"error","message":"'max_tokens' or 'max_completion_tokens' is too large: 50. This model's maximum context length is 40 tokens and your request has 30 input tokens.","type":"BadRequestError","param":null,"code":400}`, "", false, ""},
		{"a field we cannot do without", 400, "application/json", `{"error":{"message":"Unsupported parameter: 'messages' is not supported with this model.","type":"invalid_request_error","param":"messages","code":"unsupported_parameter"}}`, "", false, ""},
		{"unknown model", 404, "application/json", `{"error":{"message":"The model 'gpt-x' does not exist or you do not have access to it; unknown stream_options","type":"invalid_request_error","param":null,"code":"model_not_found"}}`, "", false, ""},
		{"rejection words far from the field", 400, "application/json", `{"error":{"message":"stream_options.include_usage must be a boolean. Note: this deployment runs an older API version in which several newer request features are unsupported.","type":"invalid_request_error"}}`, "", false, ""},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			var mu sync.Mutex
			var bodies []map[string]any
			srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
				var m map[string]any
				_ = json.NewDecoder(r.Body).Decode(&m)
				mu.Lock()
				bodies = append(bodies, m)
				n := len(bodies)
				mu.Unlock()
				if n == 1 {
					w.Header().Set("Content-Type", c.ctype)
					w.WriteHeader(c.status)
					_, _ = w.Write([]byte(c.body))
					return
				}
				sse(chunk(c1)+chunk(c2)+chunk(stop)+done)(w, r)
			}))
			defer srv.Close()
			p, err := openai.New(openai.Config{Name: "srv", BaseURL: srv.URL + "/v1"})
			if err != nil {
				t.Fatal(err)
			}
			r, err := llm.Collect(p.Stream(context.Background(), limited("gpt-x")))
			mu.Lock()
			defer mu.Unlock()
			if c.field == "" {
				if err == nil || llm.IsRetryable(err) || len(bodies) != 1 {
					t.Fatalf("%d requests, %v: want the refusal reported, not retried", len(bodies), err)
				}
				return
			}
			if err != nil || r.Text != "Hello" || len(bodies) != 2 {
				t.Fatalf("%d requests, %+v, %v: want one retry and the reply", len(bodies), r, err)
			}
			first, second := bodies[0], bodies[1]
			if _, ok := second[c.field]; ok {
				t.Errorf("retry still sends %s", c.field)
			}
			if c.renamed != "" && second[c.renamed] != first[c.field] {
				t.Errorf("retry sends %s = %v, want %v", c.renamed, second[c.renamed], first[c.field])
			}
			for k, v := range first {
				if k == c.field {
					continue
				}
				if sv, ok := second[k]; !ok && k != c.renamed || k == "model" && sv != v {
					t.Errorf("retry changed %s: %v -> %v", k, v, sv)
				}
			}
		})
	}
}

// A server that refuses both names of the limit fails the call after one
// rename, rather than flipping between them.
func TestBothLimitNamesRejected(t *testing.T) {
	srv := fakellm.Start(script.MustNew(script.Rule{Reply: &script.Reply{Text: "x"}}), fakellm.WithRejectedParams("max_completion_tokens", "max_tokens"))
	defer srv.Close()
	p, err := openai.New(openai.Config{BaseURL: srv.OpenAIURL()})
	if err != nil {
		t.Fatal(err)
	}
	_, err = llm.Collect(p.Stream(context.Background(), limited("gpt-x")))
	if err == nil || llm.IsRetryable(err) {
		t.Fatalf("%v: want the refusal reported", err)
	}
	var sent []string
	for _, r := range srv.Requests() {
		m := fields(t, r.Body)
		for _, f := range []string{"max_tokens", "max_completion_tokens"} {
			if _, ok := m[f]; ok {
				sent = append(sent, f)
			}
		}
	}
	if !slices.Equal(sent, []string{"max_completion_tokens", "max_tokens"}) {
		t.Errorf("sent %v, want each name once", sent)
	}
}

// What is learned for one model is the first guess for another when it is
// the server's (stream_options), but a model's refusal of temperature stays
// that model's.
func TestLearnedShapeScope(t *testing.T) {
	srv := fakellm.Start(script.MustNew(script.Rule{Reply: &script.Reply{Text: "x"}}), fakellm.WithRejectedParams("stream_options"))
	defer srv.Close()
	p, err := openai.New(openai.Config{BaseURL: srv.OpenAIURL()})
	if err != nil {
		t.Fatal(err)
	}
	for _, model := range []string{"a", "b"} {
		if _, err := llm.Collect(p.Stream(context.Background(), limited(model))); err != nil {
			t.Fatal(err)
		}
	}
	if n := len(srv.Requests()); n != 3 {
		t.Errorf("%d requests, want 3: the second model must not be refused again", n)
	}

	srv2 := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		var m map[string]any
		_ = json.NewDecoder(r.Body).Decode(&m)
		if _, ok := m["temperature"]; ok && m["model"] == "o1" {
			w.Header().Set("Content-Type", "application/json")
			w.WriteHeader(400)
			_, _ = w.Write([]byte(`{"error":{"message":"Unsupported parameter: 'temperature' is not supported with this model.","type":"invalid_request_error","param":"temperature","code":"unsupported_parameter"}}`))
			return
		}
		if _, ok := m["temperature"]; !ok && m["model"] != "o1" {
			t.Errorf("temperature not sent for %v", m["model"])
		}
		sse(chunk(c1)+chunk(c2)+chunk(stop)+done)(w, r)
	}))
	defer srv2.Close()
	p, err = openai.New(openai.Config{BaseURL: srv2.URL + "/v1"})
	if err != nil {
		t.Fatal(err)
	}
	for _, model := range []string{"o1", "gpt-4o", "o1"} {
		if r, err := llm.Collect(p.Stream(context.Background(), limited(model))); err != nil || r.Text != "Hello" {
			t.Fatalf("%s: %+v %v", model, r, err)
		}
	}
}

// DeepSeek takes no json_schema response_format: the schema is then asked
// for in the system prompt, and the next calls go that way at once.
func TestResponseFormatRejected(t *testing.T) {
	doc := `{"verdict":"bull"}`
	srv := fakellm.Start(script.MustNew(script.Rule{Reply: &script.Reply{Text: doc}}), fakellm.WithRejectedParams("response_format"))
	defer srv.Close()
	p, err := openai.New(openai.Config{Name: "deepseek", BaseURL: srv.OpenAIURL()})
	if err != nil {
		t.Fatal(err)
	}
	req := limited("deepseek-chat")
	req.System = "You judge."
	req.Schema = &llm.Schema{Name: "verdict", JSON: json.RawMessage(`{"type":"object","properties":{"verdict":{"enum":["bull","bear"]}},"required":["verdict"]}`)}
	for call := 1; call <= 2; call++ {
		before := len(srv.Requests())
		r, err := llm.Collect(p.Stream(context.Background(), req))
		if err != nil || r.Text != doc {
			t.Fatalf("call %d: %+v %v", call, r, err)
		}
		reqs := srv.Requests()[before:]
		if want := 3 - call; len(reqs) != want {
			t.Fatalf("call %d took %d requests, want %d", call, len(reqs), want)
		}
		last := reqs[len(reqs)-1]
		if _, ok := fields(t, last.Body)["response_format"]; ok {
			t.Errorf("call %d: accepted request has response_format", call)
		}
		if sys := last.Parsed.System; !strings.HasPrefix(sys, "You judge.\n\n") || !strings.Contains(sys, `"required":["verdict"]`) {
			t.Errorf("call %d: system prompt %q does not give the schema", call, sys)
		}
	}

	// The form DeepSeek's gateway gives it on some endpoints.
	var n atomic.Int32
	srv2 := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if n.Add(1) == 1 {
			w.Header().Set("Content-Type", "text/plain; charset=utf-8")
			w.WriteHeader(422)
			_, _ = w.Write([]byte("Failed to deserialize the JSON body into the target type: response_format: response_format.type `json_schema` is unavailable now at line 1 column 412"))
			return
		}
		sse(chunk(c1)+chunk(c2)+chunk(stop)+done)(w, r)
	}))
	defer srv2.Close()
	p, err = openai.New(openai.Config{Name: "deepseek", BaseURL: srv2.URL + "/v1"})
	if err != nil {
		t.Fatal(err)
	}
	if r, err := llm.Collect(p.Stream(context.Background(), req)); err != nil || r.Text != "Hello" || n.Load() != 2 {
		t.Fatalf("%d requests: %+v %v", n.Load(), r, err)
	}
}

// A model or server without tool calling (Ollama: "does not support
// tools"; vLLM without a tool parser; llama.cpp without --jinja) is not sent
// the call without its tools, which would have its agent argue from memory
// what it was asked to research: the call fails once, as a bad request
// that says what to change.
func TestToolsRejected(t *testing.T) {
	req := limited("gemma:2b")
	req.Tools = []llm.ToolSpec{{Name: "lookup", Description: "Look up", Schema: json.RawMessage(`{"type":"object","properties":{"q":{"type":"string"}}}`)}}
	check := func(t *testing.T, name string, err error, requests int) {
		t.Helper()
		var le *llm.Error
		if !errors.As(err, &le) || le.Kind != llm.ErrBadRequest || le.Retryable() {
			t.Fatalf("%s: %v, want a bad request", name, err)
		}
		for _, want := range []string{`model "gemma:2b" cannot call tools`, "--model-for ROLE=MODEL", "--enable-auto-tool-choice", "--jinja"} {
			if !strings.Contains(err.Error(), want) {
				t.Errorf("%s: the error does not say %q:\n%v", name, want, err)
			}
		}
		if requests != 1 {
			t.Errorf("%s: %d requests, want 1 (no call without the tools)", name, requests)
		}
	}
	srv := fakellm.Start(script.MustNew(script.Rule{Reply: &script.Reply{Text: "Hello"}}), fakellm.WithRejectedParams("tools"))
	defer srv.Close()
	p, err := openai.New(openai.OllamaConfig(strings.TrimPrefix(srv.URL, "http://")))
	if err != nil {
		t.Fatal(err)
	}
	_, err = llm.Collect(p.Stream(context.Background(), req))
	check(t, "Ollama", err, len(srv.Requests()))
	if !strings.Contains(err.Error(), "does not support tools") {
		t.Errorf("the server's own words are not quoted: %v", err)
	}

	for name, body := range map[string]string{
		"vLLM":      `{"object":"error","message":"\"auto\" tool choice requires --enable-auto-tool-choice and --tool-call-parser to be set","type":"BadRequestError","param":null,"code":400}`,
		"llama.cpp": `{"error":{"code":400,"message":"tools param requires --jinja flag","type":"invalid_request_error"}}`,
	} {
		var n atomic.Int32
		srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			n.Add(1)
			w.Header().Set("Content-Type", "application/json")
			w.WriteHeader(400)
			_, _ = w.Write([]byte(body))
		}))
		p, err := openai.New(openai.Config{Name: "local", BaseURL: srv.URL + "/v1"})
		if err != nil {
			t.Fatal(err)
		}
		_, err = llm.Collect(p.Stream(context.Background(), req))
		srv.Close()
		check(t, name, err, int(n.Load()))
	}
}

// A limit above what the model writes, or than the context window leaves
// (the runner asks for the turn's whole budget), is lowered to what the
// server names and the call sent again; a model's own cap is remembered,
// one that depends on the prompt's length is not.
func TestOutputLimitLowered(t *testing.T) {
	cases := []struct {
		name string
		max  float64 // the most the server takes
		body string
		want []float64 // limits sent, over two calls
	}{
		{"OpenAI model cap", 16384, `{"error":{"message":"max_tokens is too large: %d. This model supports at most 16384 completion tokens, whereas you provided %d.","type":"invalid_request_error","param":"max_tokens","code":"invalid_value"}}`,
			[]float64{50000, 16384, 16384}},
		{"vLLM context window", 3096, `{"object":"error","message":"'max_tokens' or 'max_completion_tokens' is too large: %d. This model's maximum context length is 4096 tokens and your request has 1000 input tokens (%d > 4096 - 1000).","type":"BadRequestError","param":null,"code":400}`,
			[]float64{50000, 3096, 50000, 3096}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			var mu sync.Mutex
			var sent []float64
			srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
				var m map[string]any
				_ = json.NewDecoder(r.Body).Decode(&m)
				limit, _ := m["max_completion_tokens"].(float64)
				mu.Lock()
				sent = append(sent, limit)
				mu.Unlock()
				if limit > c.max {
					w.Header().Set("Content-Type", "application/json")
					w.WriteHeader(400)
					_, _ = fmt.Fprintf(w, c.body, int(limit), int(limit))
					return
				}
				sse(chunk(c1)+chunk(c2)+chunk(stop)+done)(w, r)
			}))
			defer srv.Close()
			p, err := openai.New(openai.Config{BaseURL: srv.URL + "/v1"})
			if err != nil {
				t.Fatal(err)
			}
			req := limited("gpt-x")
			req.MaxTokens = 50000
			for range 2 {
				if r, err := llm.Collect(p.Stream(context.Background(), req)); err != nil || r.Text != "Hello" {
					t.Fatalf("%+v %v", r, err)
				}
			}
			mu.Lock()
			defer mu.Unlock()
			if !slices.Equal(sent, c.want) {
				t.Errorf("limits sent %v, want %v", sent, c.want)
			}
		})
	}
}

// Calls in parallel (a debate's agents) learn the accepted shape together:
// each succeeds, and once one has learned it the rest send it first.
func TestConcurrentAdaptation(t *testing.T) {
	srv := fakellm.Start(script.MustNew(script.Rule{Reply: &script.Reply{Text: "Hello there"}}), fakellm.WithRejectedParams("stream_options", "temperature"))
	defer srv.Close()
	p, err := openai.New(openai.Config{BaseURL: srv.OpenAIURL()})
	if err != nil {
		t.Fatal(err)
	}
	const agents, calls = 6, 3
	var wg sync.WaitGroup
	errs := make(chan error, agents*calls)
	for range agents {
		wg.Go(func() {
			for range calls {
				r, err := llm.Collect(p.Stream(context.Background(), limited("m")))
				if err == nil && r.Text != "Hello there" {
					err = fmt.Errorf("reply %q", r.Text)
				}
				if err != nil {
					errs <- err
				}
			}
		})
	}
	wg.Wait()
	close(errs)
	for err := range errs {
		t.Error(err)
	}
	// At most every agent's first call is refused twice; later calls are not.
	if n := len(srv.Requests()); n > agents*calls+2*agents {
		t.Errorf("%d requests for %d calls", n, agents*calls)
	}
}
