package openai_test

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	sdk "github.com/openai/openai-go/v3"
	"github.com/openai/openai-go/v3/option"

	"github.com/parleyhq/parley/internal/llm"
	"github.com/parleyhq/parley/internal/llm/fakellm"
	"github.com/parleyhq/parley/internal/llm/llmtest"
	"github.com/parleyhq/parley/internal/llm/openai"
	"github.com/parleyhq/parley/internal/llm/script"
)

var textCallTools = []llm.ToolSpec{
	{Name: "xbrl_facts", Description: "XBRL facts of a filer", Schema: json.RawMessage(`{"type":"object","properties":{"cik":{"type":"string"}}}`)},
	{Name: "web_search", Description: "search the web", Schema: json.RawMessage(`{"type":"object","properties":{"q":{"type":"string"}}}`)},
}

func toolRequest(model string) llm.Request {
	return llm.Request{Model: model, Tag: "t", Tools: textCallTools,
		Messages: []llm.Message{{Role: llm.RoleUser, Text: "What was Apple's revenue in 2023?"}}}
}

// collectChunks drains a stream, keeping the text deltas as they came.
func collectChunks(p llm.Provider, req llm.Request) (deltas []string, r llm.Reply, err error) {
	var calls []llm.ToolCall
	for c, e := range p.Stream(context.Background(), req) {
		if e != nil {
			return deltas, r, e
		}
		if c.Text != "" {
			deltas = append(deltas, c.Text)
		}
		if c.ToolCall != nil {
			calls = append(calls, *c.ToolCall)
		}
		if c.StopReason != "" {
			r.StopReason = c.StopReason
		}
	}
	r.Text = strings.Join(deltas, "")
	r.ToolCalls = calls
	return deltas, r, nil
}

// Each format a server without a tool-call parser passes a model's calls
// on in, as the fake server sends it: the calls are read as calls, none
// of their text reaches the answer, and the adaptation is logged once per
// model.
func TestToolCallsInTextAreRead(t *testing.T) {
	forms := map[fakellm.ToolTextForm]string{
		fakellm.ToolTextHermes: "<tool_call>", fakellm.ToolTextPythonTag: "<|python_tag|>",
		fakellm.ToolTextLlamaJSON: "bare JSON", fakellm.ToolTextJSON: "bare JSON", fakellm.ToolTextMistral: "[TOOL_CALLS]",
		fakellm.ToolTextFunctionTag: "<function=", fakellm.ToolTextPythonic: "pythonic", fakellm.ToolTextFence: "code fence",
		fakellm.ToolTextLlama4: "<|python_start|>",
	}
	for form, logged := range forms {
		t.Run(fmt.Sprint(form), func(t *testing.T) {
			sc := script.MustNew(script.Rule{Reply: &script.Reply{ToolCalls: []script.ToolCall{
				{Name: "xbrl_facts", Args: json.RawMessage(`{"cik": "0000320193"}`)},
				{Name: "web_search", Args: json.RawMessage(`{"q": "Apple revenue 2023"}`)},
			}}})
			srv := fakellm.Start(sc, fakellm.WithToolCallsInText(form))
			defer srv.Close()
			var logs llmtest.Logs
			p, err := openai.New(openai.Config{Name: "vllm", BaseURL: srv.OpenAIURL(), Logger: logs.Logger()})
			if err != nil {
				t.Fatal(err)
			}
			for call := range 2 {
				deltas, r, err := collectChunks(p, toolRequest("qwen"))
				if err != nil {
					t.Fatal(err)
				}
				if len(deltas) != 0 || r.StopReason != llm.StopToolUse || len(r.ToolCalls) != 2 {
					t.Fatalf("call %d: text %q, stop %q, calls %+v", call, deltas, r.StopReason, r.ToolCalls)
				}
				for i, want := range []struct{ name, key string }{{"xbrl_facts", "cik"}, {"web_search", "q"}} {
					c := r.ToolCalls[i]
					var args map[string]string
					if c.Name != want.name || c.ID == "" || json.Unmarshal(c.Args, &args) != nil || args[want.key] == "" {
						t.Errorf("call %d, tool call %d: %+v", call, i, c)
					}
				}
				if r.ToolCalls[0].ID == r.ToolCalls[1].ID {
					t.Errorf("one ID for two calls: %+v", r.ToolCalls)
				}
			}
			// What the server sent was text: the SDK, without Parley, sees
			// the blob as the answer, not streamed and streamed.
			client := sdk.NewClient(option.WithBaseURL(srv.OpenAIURL()), option.WithAPIKey("k"), option.WithMaxRetries(0))
			params := sdk.ChatCompletionNewParams{Model: "qwen", Messages: []sdk.ChatCompletionMessageParamUnion{sdk.UserMessage("hi")},
				Tools: []sdk.ChatCompletionToolUnionParam{sdk.ChatCompletionFunctionTool(sdk.FunctionDefinitionParam{Name: "xbrl_facts"}),
					sdk.ChatCompletionFunctionTool(sdk.FunctionDefinitionParam{Name: "web_search"})}}
			whole, err := client.Chat.Completions.New(context.Background(), params)
			if err != nil {
				t.Fatal(err)
			}
			if ch := whole.Choices[0]; ch.FinishReason != "stop" || len(ch.Message.ToolCalls) != 0 || !strings.Contains(ch.Message.Content, "xbrl_facts") {
				t.Errorf("not streamed: %+v", ch)
			}
			if n := logs.Count("WARN", "read as tool calls", "model=qwen", "provider=vllm", "--tool-call-parser"); n != 1 {
				t.Errorf("%d lines, want 1: %q", n, logs.Lines())
			}
			if !strings.Contains(strings.Join(logs.Lines(), "\n"), logged) && logged != "bare JSON" {
				t.Errorf("the log does not name %s: %q", logged, logs.Lines())
			}
		})
	}
}

// Answers that mention JSON, a tool's name or a template's tag, to a
// request with tools, pass unchanged and are streamed as they come.
func TestToolTalkIsNotACall(t *testing.T) {
	for _, text := range []string{
		`The xbrl_facts tool returns {"name": "Revenues", "value": 383285000000} for Apple; that settles revenue.`,
		`Models served without --jinja write <tool_call> tags into their answers, and web_search is named in them.`,
		`[1] SEC filing: revenue was $383.3 billion, and {"name": "xbrl_facts"} is how the tool is called.`,
		`{"verdict": "pro", "confidence": 0.8}`,
		`{"name": "delete_everything", "arguments": {}}`,
		"Llama 3.1's custom tool prompt asks for <function=NAME> tags, and web_search is one such tool.",
		"[web_search](https://example.com/search) found the 10-K; revenue was $383.3 billion.",
		"The call would be:\n```json\n{\"name\": \"web_search\", \"arguments\": {\"q\": \"Apple\"}}\n```\nbut the filing already answers it.",
		"```json\n{\"name\": \"web_search\", \"arguments\": {\"q\": \"Apple\"}}\n```\nThat is the call a parser-less server would show as text.",
	} {
		srv := fakellm.Start(script.MustNew(script.Rule{Reply: &script.Reply{Text: text}}), fakellm.WithToolCallsInText(fakellm.ToolTextHermes))
		p, err := openai.New(openai.Config{Name: "vllm", BaseURL: srv.OpenAIURL()})
		if err != nil {
			t.Fatal(err)
		}
		deltas, r, err := collectChunks(p, toolRequest("qwen"))
		srv.Close()
		if err != nil || r.Text != text || len(r.ToolCalls) != 0 || r.StopReason != llm.StopEnd {
			t.Errorf("%q: got %q, calls %+v, stop %q, %v", text, r.Text, r.ToolCalls, r.StopReason, err)
		}
		// A reply that starts as a bare or fenced call may be one: it is
		// held to its end.
		if !strings.HasPrefix(text, "{") && !strings.HasPrefix(text, "```json") && len(deltas) < 3 {
			t.Errorf("%q: not streamed as it came: %q", text, deltas)
		}
	}
}

// A reply plainly meant as a call of an offered tool that cannot be read
// exactly fails as a bad request, not retried, that names the model and
// the fix on the server; nothing of it is passed on as the answer.
func TestGarbledToolCallInTextFails(t *testing.T) {
	for _, text := range []string{
		`<tool_call>{"name": "web_search", "arguments": "Apple revenue"}</tool_call>`,
		"<tool_call>\n{\"name\": \"web_search\", \"arguments\": {\"q\": \"Apple\"}}\n</tool_call>\nApple's revenue was $383 billion.",
		`{"name": "xbrl_facts", "arguments": {"cik": "320193"}} I will now answer.`,
		`<function=web_search>"Apple revenue"</function>`,
		`[web_search("Apple revenue")]`,
		`[xbrl_facts(cik=cik_of("Apple"))]`,
		"```tool_call\n{\"name\": \"web_search\", \"arguments\": {\"q\": \"Apple\"}, \"confidence\": 0.9}\n```",
	} {
		srv := fakellm.Start(script.MustNew(script.Rule{Reply: &script.Reply{Text: text}}))
		p, err := openai.New(openai.Config{Name: "llamacpp", BaseURL: srv.OpenAIURL()})
		if err != nil {
			t.Fatal(err)
		}
		deltas, _, err := collectChunks(p, toolRequest("qwen2.5-7b"))
		srv.Close()
		var e *llm.Error
		if !errors.As(err, &e) || e.Kind != llm.ErrBadRequest || e.Retryable() {
			t.Fatalf("%q: %v", text, err)
		}
		for _, want := range []string{`"qwen2.5-7b"`, "--jinja", "--tool-call-parser", "Ollama", "LM Studio"} {
			if !strings.Contains(err.Error(), want) {
				t.Errorf("%q: error lacks %q: %v", text, want, err)
			}
		}
		if len(deltas) != 0 {
			t.Errorf("%q: passed on %q", text, deltas)
		}
	}
}

// Prose before a call, with the tag split across deltas as a server
// streams tokens: the prose is passed on once, as it comes; the call is
// read.
func TestProseBeforeToolCallInText(t *testing.T) {
	pieces := []string{"Let me ", "check the filing.", "\n\n<tool", "_call>\n{\"name\": \"xbrl_", "facts\", \"arguments\": {\"cik\": \"320193\"}}\n</tool_", "call>"}
	ts := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "text/event-stream")
		for _, s := range pieces {
			b, _ := json.Marshal(s)
			fmt.Fprint(w, chunk(`{"id":"c","object":"chat.completion.chunk","model":"m","choices":[{"index":0,"delta":{"content":`+string(b)+`},"finish_reason":null}]}`))
		}
		fmt.Fprint(w, chunk(stop), chunk("[DONE]"))
	}))
	defer ts.Close()
	p, err := openai.New(openai.Config{Name: "llamacpp", BaseURL: ts.URL + "/v1"})
	if err != nil {
		t.Fatal(err)
	}
	deltas, r, err := collectChunks(p, toolRequest("m"))
	if err != nil {
		t.Fatal(err)
	}
	if r.Text != "Let me check the filing.\n\n" || len(deltas) < 2 || r.StopReason != llm.StopToolUse ||
		len(r.ToolCalls) != 1 || r.ToolCalls[0].Name != "xbrl_facts" || string(r.ToolCalls[0].Args) != `{"cik": "320193"}` {
		t.Errorf("deltas %q, reply %+v", deltas, r)
	}
}
