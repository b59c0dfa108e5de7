package fakellm

import (
	"bufio"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"strings"
	"testing"

	"github.com/parleyhq/parley/internal/llm/script"
)

func post(t *testing.T, url string, hdr map[string]string, body string) (*http.Response, string) {
	t.Helper()
	req, err := http.NewRequest(http.MethodPost, url, strings.NewReader(body))
	if err != nil {
		t.Fatal(err)
	}
	for k, v := range hdr {
		req.Header.Set(k, v)
	}
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	b, _ := io.ReadAll(resp.Body)
	return resp, string(b)
}

var antHdr = map[string]string{"x-api-key": "k", "anthropic-version": "2023-06-01", "X-Parley-Turn": "t"}

func TestAnthropicNonStreaming(t *testing.T) {
	srv := Start(script.MustNew(script.Rule{Tag: "t", Reply: &script.Reply{Text: "hello there"}}), WithAPIKey("k"))
	defer srv.Close()
	resp, body := post(t, srv.URL+"/v1/messages", antHdr, `{"model":"m","max_tokens":10,"system":"be brief","messages":[{"role":"user","content":"hi"}]}`)
	if resp.StatusCode != 200 {
		t.Fatalf("status %d: %s", resp.StatusCode, body)
	}
	var m struct {
		Type       string `json:"type"`
		StopReason string `json:"stop_reason"`
		Content    []struct{ Type, Text string }
		Usage      map[string]int
	}
	if err := json.Unmarshal([]byte(body), &m); err != nil {
		t.Fatal(err)
	}
	if m.Type != "message" || m.StopReason != "end_turn" || len(m.Content) != 1 || m.Content[0].Text != "hello there" || m.Usage["input_tokens"] != 9 || m.Usage["output_tokens"] != 3 {
		// input: "be brief" 2 + "hi" 1, each message framed by 3; output: 11 characters.
		t.Errorf("message = %+v", m)
	}
	if r := srv.Requests()[0]; r.API != "anthropic" || r.Stream || r.Parsed.System != "be brief" || r.Rule != "rule #1" {
		t.Errorf("recorded %+v", r)
	}
}

func TestAnthropicStreamEvents(t *testing.T) {
	srv := Start(script.MustNew(script.Rule{Reply: &script.Reply{Text: "a b", ToolCalls: nil}}))
	defer srv.Close()
	_, body := post(t, srv.URL+"/v1/messages", antHdr, `{"model":"m","max_tokens":10,"stream":true,"messages":[{"role":"user","content":[{"type":"text","text":"hi"}]}]}`)
	var events []string
	sc := bufio.NewScanner(strings.NewReader(body))
	for sc.Scan() {
		if name, ok := strings.CutPrefix(sc.Text(), "event: "); ok {
			events = append(events, name)
		}
	}
	want := "message_start ping content_block_start content_block_delta content_block_delta content_block_stop message_delta message_stop"
	if strings.Join(events, " ") != want {
		t.Errorf("events %v, want %s", events, want)
	}
}

func TestErrors(t *testing.T) {
	srv := Start(script.MustNew(
		script.Rule{Tag: "busy", Reply: &script.Reply{Fault: &script.Fault{Status: 429, RetryAfter: "3"}}},
	), WithAPIKey("k"))
	defer srv.Close()
	cases := []struct {
		name, path string
		hdr        map[string]string
		body       string
		status     int
		contains   []string
	}{
		{"anthropic bad key", "/v1/messages", map[string]string{"x-api-key": "nope", "anthropic-version": "x"}, `{}`, 401, []string{`"type":"error"`, `"authentication_error"`}},
		{"anthropic no version", "/v1/messages", map[string]string{"x-api-key": "k"}, `{}`, 400, []string{"anthropic-version"}},
		{"anthropic 429", "/v1/messages", map[string]string{"x-api-key": "k", "anthropic-version": "x", "X-Parley-Turn": "busy"}, `{"model":"m","max_tokens":5,"messages":[{"role":"user","content":"x"}]}`, 429, []string{`"rate_limit_error"`}},
		{"anthropic no rule", "/v1/messages", map[string]string{"x-api-key": "k", "anthropic-version": "x", "X-Parley-Turn": "lost"}, `{"model":"m","max_tokens":5,"messages":[{"role":"user","content":"x"}]}`, 400, []string{`no rule matched request tag \"lost\"`}},
		{"openai bad key", "/v1/chat/completions", map[string]string{"Authorization": "Bearer sk-wrongkey"}, `{}`, 401, []string{`"invalid_api_key"`, "Incorrect API key provided: sk-***key"}},
		{"openai no key", "/v1/chat/completions", nil, `{}`, 401, []string{"You didn't provide an API key"}},
		{"openai 429", "/v1/chat/completions", map[string]string{"Authorization": "Bearer k", "X-Parley-Turn": "busy"}, `{"model":"m","messages":[{"role":"user","content":"x"}]}`, 429, []string{`"rate_limit_exceeded"`}},
		{"openai bad json", "/v1/chat/completions", map[string]string{"Authorization": "Bearer k"}, `{`, 400, []string{`"invalid_request_error"`}},
		{"unknown path", "/v1/completions", nil, `{}`, 404, []string{"no endpoint"}},
	}
	for _, c := range cases {
		resp, body := post(t, srv.URL+c.path, c.hdr, c.body)
		if resp.StatusCode != c.status {
			t.Errorf("%s: status %d, want %d (%s)", c.name, resp.StatusCode, c.status, body)
		}
		for _, s := range c.contains {
			if !strings.Contains(body, s) {
				t.Errorf("%s: body %s lacks %s", c.name, body, s)
			}
		}
		if c.status == 429 && resp.Header.Get("Retry-After") != "3" {
			t.Errorf("%s: Retry-After %q", c.name, resp.Header.Get("Retry-After"))
		}
	}
}

func TestOpenAIStream(t *testing.T) {
	srv := Start(script.MustNew(script.Rule{Reply: &script.Reply{ToolCalls: []script.ToolCall{{Name: "f", Args: json.RawMessage(`{"x":"yz"}`)}}}}))
	defer srv.Close()
	_, body := post(t, srv.URL+"/v1/chat/completions", nil, `{"model":"m","stream":true,"stream_options":{"include_usage":true},"messages":[{"role":"system","content":"s"},{"role":"user","content":"x"}]}`)
	lines := strings.Split(strings.TrimSpace(body), "\n\n")
	if lines[len(lines)-1] != "data: [DONE]" {
		t.Errorf("last line %q, want data: [DONE]", lines[len(lines)-1])
	}
	usage := lines[len(lines)-2]
	if !strings.Contains(usage, `"choices":[]`) || !strings.Contains(usage, `"prompt_tokens":8`) || !strings.Contains(usage, `"completion_tokens":4`) {
		// prompt: two one-character messages framed by 3 each; completion: "f" and {"x":"yz"}.
		t.Errorf("usage chunk %s", usage)
	}
	var args strings.Builder
	for _, l := range lines[:len(lines)-2] {
		var c struct {
			Choices []struct {
				Delta struct {
					ToolCalls []struct {
						Function struct{ Arguments string }
					} `json:"tool_calls"`
				}
				FinishReason *string `json:"finish_reason"`
			}
		}
		if err := json.Unmarshal([]byte(strings.TrimPrefix(l, "data: ")), &c); err != nil {
			t.Fatalf("%s: %v", l, err)
		}
		for _, tc := range c.Choices[0].Delta.ToolCalls {
			args.WriteString(tc.Function.Arguments)
		}
	}
	if args.String() != `{"x":"yz"}` {
		t.Errorf("assembled args %q", args.String())
	}
	if !strings.Contains(lines[len(lines)-3], `"finish_reason":"tool_calls"`) {
		t.Errorf("finish chunk %s", lines[len(lines)-3])
	}
}

func TestRejectedParams(t *testing.T) {
	srv := Start(script.MustNew(script.Rule{Reply: &script.Reply{Text: "ok"}}), WithAPIKey("k"), WithRejectedParams("stream_options", "output_config"))
	defer srv.Close()
	oa := map[string]string{"Authorization": "Bearer k"}
	resp, body := post(t, srv.OpenAIURL()+"/chat/completions", oa, `{"model":"m","messages":[{"role":"user","content":"hi"}],"stream":true,"stream_options":{"include_usage":true}}`)
	if resp.StatusCode != 400 || !strings.Contains(body, `property 'stream_options' is unsupported`) {
		t.Errorf("openai with stream_options: %d %s", resp.StatusCode, body)
	}
	resp, body = post(t, srv.OpenAIURL()+"/chat/completions", oa, `{"model":"m","messages":[{"role":"user","content":"hi"}],"stream_options":null}`)
	if resp.StatusCode != 200 {
		t.Errorf("openai without it: %d %s", resp.StatusCode, body)
	}
	resp, body = post(t, srv.URL+"/v1/messages", antHdr, `{"model":"m","max_tokens":10,"messages":[{"role":"user","content":"hi"}],"output_config":{"format":{"type":"json_schema","schema":{"type":"object"}}}}`)
	if resp.StatusCode != 400 || !strings.Contains(body, `"output_config: Extra inputs are not permitted"`) || !strings.Contains(body, `"invalid_request_error"`) {
		t.Errorf("anthropic with output_config: %d %s", resp.StatusCode, body)
	}
	reqs := srv.Requests()
	if len(reqs) != 3 || reqs[0].Rule != "" || reqs[1].Rule == "" {
		t.Errorf("recorded %+v", reqs)
	}
}

func TestWithBOM(t *testing.T) {
	srv := Start(script.MustNew(script.Rule{Reply: &script.Reply{Text: "hi"}}), WithBOM())
	defer srv.Close()
	for _, body := range []string{
		`{"model":"m","max_tokens":10,"stream":true,"messages":[{"role":"user","content":"hi"}]}`,
		`{"model":"m","max_tokens":10,"messages":[{"role":"user","content":"hi"}]}`,
		`{"max_tokens":10,"messages":[{"role":"user","content":"hi"}]}`,
	} {
		resp, got := post(t, srv.URL+"/v1/messages", antHdr, body)
		if !strings.HasPrefix(got, "\uFEFF") || strings.Count(got, "\uFEFF") != 1 {
			t.Errorf("HTTP %d body %.40q: want one byte order mark, at the start", resp.StatusCode, got)
		}
	}
}

// strict is refused where it is set, in the words of a server that
// refuses it there, and only there.
func TestRejectedStrict(t *testing.T) {
	srv := Start(script.MustNew(script.Rule{Reply: &script.Reply{Text: "hi"}}), WithRejectedParams("strict"))
	defer srv.Close()
	for body, want := range map[string]string{
		`{"model":"m","messages":[{"role":"user","content":"hi"}],"tools":[{"type":"function","function":{"name":"a","strict":true,"parameters":{}}}]}`:           `Unknown name \"strict\" at 'request.tools[0].function_declarations[0]'`,
		`{"model":"m","messages":[{"role":"user","content":"hi"}],"response_format":{"type":"json_schema","json_schema":{"name":"a","schema":{},"strict":true}}}`: `"param":"response_format.json_schema.strict"`,
		`{"model":"m","messages":[{"role":"user","content":"hi"}],"response_format":{"type":"json_schema","json_schema":{"name":"a","schema":{}}}}`:               `"choices"`,
	} {
		resp, got := post(t, srv.URL+"/v1/chat/completions", nil, body)
		if !strings.Contains(got, want) {
			t.Errorf("%s: HTTP %d %s, want %s", body, resp.StatusCode, got, want)
		}
	}
}

// A pythonic call's arguments are Python literals of the JSON ones, in
// their order.
func TestPyArgs(t *testing.T) {
	got := pyArgs(`{"q": "it's \"x\"\n", "n": 1.5e3, "ok": true, "none": null, "l": [1, {"k": false}], "d": {}}`)
	want := `q="it's \"x\"\n", n=1.5e3, ok=True, none=None, l=[1, {"k": False}], d={}`
	if got != want {
		t.Errorf("got  %s\nwant %s", got, want)
	}
}

// The strict check names the first object strict mode refuses by its
// path, as OpenAI's API does, and takes a schema that follows its rules.
func TestStrictSchemaError(t *testing.T) {
	body := func(schema string, strict bool) []byte {
		return []byte(fmt.Sprintf(`{"response_format":{"type":"json_schema","json_schema":{"name":"s","strict":%v,"schema":%s}}}`, strict, schema))
	}
	item := `{"type":"object","properties":{"a":{"type":"string"},"b":{"type":"string"}},"required":["a"],"additionalProperties":false}`
	nested := `{"type":"object","properties":{"xs":{"type":"array","items":` + item + `}},"required":["xs"],"additionalProperties":false}`
	ranged := `{"type":"object","properties":{"n":{"type":"number","minimum":0,"maximum":1}},"required":["n"],"additionalProperties":false}`
	for _, tc := range []struct {
		body []byte
		want string
	}{
		{body(nested, true), "Invalid schema for response_format 's': In context=('properties', 'xs', 'items'), 'required' is required to be supplied and to be an array including every key in properties. Missing 'b'."},
		{body(`{"type":"object","properties":{}}`, true), "Invalid schema for response_format 's': In context=(), 'additionalProperties' is required to be supplied and to be false."},
		{body(strings.Replace(nested, `"required":["a"]`, `"required":["a","b"]`, 1), true), ""},
		{body(nested, false), ""},
		// A fine-tuned model takes no range keywords; others do.
		{[]byte(`{"model":"ft:gpt-4o-mini-2024-07-18:acme::x1",` + string(body(ranged, true)[1:])), "Invalid schema for response_format 's': In context=('properties', 'n'), 'minimum' is not permitted."},
		{[]byte(`{"model":"gpt-4o-mini",` + string(body(ranged, true)[1:])), ""},
	} {
		status, answer := strictSchemaError(tc.body)
		got := ""
		if status != 0 {
			b, _ := json.Marshal(answer)
			var e struct {
				Error struct {
					Message string  `json:"message"`
					Param   string  `json:"param"`
					Code    *string `json:"code"`
				} `json:"error"`
			}
			_ = json.Unmarshal(b, &e)
			got = e.Error.Message
			if status != 400 || e.Error.Param != "response_format" || e.Error.Code != nil {
				t.Errorf("%d %s", status, b)
			}
		}
		if got != tc.want {
			t.Errorf("got  %q\nwant %q", got, tc.want)
		}
	}
}

// The Anthropic endpoint's check answers a schema Anthropic's structured
// outputs refuse as the API does, and takes one that follows its rules.
func TestAnthropicSchemaError(t *testing.T) {
	body := func(schema string) []byte {
		return []byte(`{"model":"claude-sonnet-4-5","output_config":{"format":{"type":"json_schema","schema":` + schema + `}}}`)
	}
	ranged := `{"type":"object","properties":{"n":{"type":"integer","minimum":1}},"required":["n"],"additionalProperties":false}`
	optional := `{"type":"object","properties":{"n":{"type":"integer"},"s":{"type":"string"}},"required":["n"],"additionalProperties":false}`
	for _, tc := range []struct {
		body []byte
		want string
	}{
		{body(ranged), "output_config.format.schema: For 'integer' type, property 'minimum' is not supported"},
		{body(`{"type":"object","properties":{}}`), "output_config.format.schema: For 'object' type, 'additionalProperties' must be explicitly set to false"},
		// Anthropic takes optional properties, which OpenAI's strict mode refuses.
		{body(optional), ""},
		// A tool's input_schema is not held to the rules.
		{[]byte(`{"model":"m","tools":[{"name":"t","input_schema":` + ranged + `}]}`), ""},
	} {
		status, answer := anthropicSchemaError(tc.body)
		got := ""
		if status != 0 {
			b, _ := json.Marshal(answer)
			var e struct {
				Type  string `json:"type"`
				Error struct {
					Type    string `json:"type"`
					Message string `json:"message"`
				} `json:"error"`
			}
			_ = json.Unmarshal(b, &e)
			got = e.Error.Message
			if status != 400 || e.Type != "error" || e.Error.Type != "invalid_request_error" {
				t.Errorf("%d %s", status, b)
			}
		}
		if got != tc.want {
			t.Errorf("got  %q\nwant %q", got, tc.want)
		}
	}
}
