package openai_test

import (
	"context"
	"encoding/json"
	"errors"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	"github.com/parleyhq/parley/internal/debate"
	"github.com/parleyhq/parley/internal/llm"
	"github.com/parleyhq/parley/internal/llm/fakellm"
	"github.com/parleyhq/parley/internal/llm/llmtest"
	"github.com/parleyhq/parley/internal/llm/openai"
	"github.com/parleyhq/parley/internal/llm/script"
)

// These tests script what real OpenAI-compatible servers (vLLM, Ollama,
// llama.cpp, LM Studio, OpenRouter, Together, Groq) send, byte for byte,
// rather than what the in-repo fake server sends.

// rawServer answers every request with handle and returns a Provider for it.
func rawServer(t *testing.T, handle http.HandlerFunc) *openai.Provider {
	t.Helper()
	srv := httptest.NewServer(handle)
	t.Cleanup(srv.Close)
	p, err := openai.New(openai.Config{Name: "vllm", BaseURL: srv.URL + "/v1"})
	if err != nil {
		t.Fatal(err)
	}
	return p
}

// loggedServer is rawServer with the provider's logger log.
func loggedServer(t *testing.T, handle http.HandlerFunc, log *slog.Logger) llm.Provider {
	t.Helper()
	srv := httptest.NewServer(handle)
	t.Cleanup(srv.Close)
	p, err := openai.New(openai.Config{Name: "vllm", BaseURL: srv.URL + "/v1", Logger: log})
	if err != nil {
		t.Fatal(err)
	}
	return p
}

// sse writes body as an event stream, flushing after each blank line.
func sse(body string) http.HandlerFunc { return llmtest.SSE(body) }

func ask(p llm.Provider) (llm.Reply, error) {
	return llm.Collect(p.Stream(context.Background(), llm.Request{Model: "m", Tag: "t",
		Messages: []llm.Message{{Role: llm.RoleUser, Text: "hi"}}}))
}

func chunk(s string) string { return "data: " + s + "\n\n" }

const (
	c1   = `{"id":"c","object":"chat.completion.chunk","model":"m","choices":[{"index":0,"delta":{"role":"assistant","content":"Hel"},"finish_reason":null}]}`
	c2   = `{"id":"c","object":"chat.completion.chunk","model":"m","choices":[{"index":0,"delta":{"content":"lo"},"finish_reason":null}]}`
	stop = `{"id":"c","object":"chat.completion.chunk","model":"m","choices":[{"index":0,"delta":{},"finish_reason":"stop"}]}`
	use  = `{"id":"c","object":"chat.completion.chunk","model":"m","choices":[],"usage":{"prompt_tokens":11,"completion_tokens":2,"total_tokens":13,"prompt_tokens_details":{"cached_tokens":4}}}`
	done = "data: [DONE]\n\n"
)

func TestStreamUsageShapes(t *testing.T) {
	cases := []struct {
		name string
		body string
		want llm.Usage
	}{
		{"final chunk with empty choices (OpenAI)", chunk(c1) + chunk(c2) + chunk(stop) + chunk(use) + done,
			llm.Usage{InputTokens: 7, CacheReadTokens: 4, OutputTokens: 2}},
		{"usage with the finish chunk (llama.cpp, Groq)", chunk(c1) + chunk(c2) +
			chunk(`{"choices":[{"index":0,"delta":{},"finish_reason":"stop"}],"usage":{"prompt_tokens":9,"completion_tokens":2,"total_tokens":11}}`) + done,
			llm.Usage{InputTokens: 9, OutputTokens: 2}},
		{"usage in every chunk, cumulative (vLLM continuous_usage_stats)",
			chunk(`{"choices":[{"index":0,"delta":{"content":"Hel"}}],"usage":{"prompt_tokens":9,"completion_tokens":1,"total_tokens":10}}`) +
				chunk(`{"choices":[{"index":0,"delta":{"content":"lo"}}],"usage":{"prompt_tokens":9,"completion_tokens":2,"total_tokens":11}}`) +
				chunk(`{"choices":[{"index":0,"delta":{},"finish_reason":"stop"}],"usage":{"prompt_tokens":9,"completion_tokens":2,"total_tokens":11}}`) + done,
			llm.Usage{InputTokens: 9, OutputTokens: 2}},
		{"usage null in content chunks then real", chunk(strings.Replace(c1, `]}`, `],"usage":null}`, 1)) + chunk(c2) + chunk(stop) + chunk(use) + done,
			llm.Usage{InputTokens: 7, CacheReadTokens: 4, OutputTokens: 2}},
		{"usage in x_groq of the finish chunk (Groq without stream_options)", chunk(c1) + chunk(c2) +
			chunk(`{"id":"c","object":"chat.completion.chunk","model":"m","choices":[{"index":0,"delta":{},"logprobs":null,"finish_reason":"stop"}],"x_groq":{"id":"req_01","usage":{"queue_time":0.07,"prompt_tokens":23,"prompt_time":0.006,"completion_tokens":19,"completion_time":0.022,"total_tokens":42,"total_time":0.028}}}`) + done,
			llm.Usage{InputTokens: 23, OutputTokens: 19}},
		{"x_groq without usage", chunk(strings.Replace(c1, `]}`, `],"x_groq":{"id":"req_01"}}`, 1)) + chunk(c2) + chunk(stop) + done,
			llm.Usage{Unreported: true}},
		{"no usage at all (include_usage ignored)", chunk(c1) + chunk(c2) + chunk(stop) + done,
			llm.Usage{Unreported: true}},
		{"no [DONE], clean EOF after finish and usage", chunk(c1) + chunk(c2) + chunk(stop) + chunk(use),
			llm.Usage{InputTokens: 7, CacheReadTokens: 4, OutputTokens: 2}},
		{"last event without its blank line", chunk(c1) + chunk(c2) + strings.TrimSuffix(chunk(stop), "\n"),
			llm.Usage{Unreported: true}},
		{"CRLF line ends", strings.ReplaceAll(chunk(c1)+chunk(c2)+chunk(stop)+chunk(use)+done, "\n", "\r\n"),
			llm.Usage{InputTokens: 7, CacheReadTokens: 4, OutputTokens: 2}},
		{"no finish_reason at all, ended by [DONE]", chunk(c1) + chunk(c2) + chunk(use) + done,
			llm.Usage{InputTokens: 7, CacheReadTokens: 4, OutputTokens: 2}},
		{"events ended by one newline, empty data keep-alives, [DONE] without its newline",
			"data: \n\ndata: " + c1 + "\ndata:\ndata: " + c2 + "\ndata: " + stop + "\ndata: " + use + "\ndata: [DONE]",
			llm.Usage{InputTokens: 7, CacheReadTokens: 4, OutputTokens: 2}},
		{"no finish_reason, [DONE] without its newline", chunk(c1) + chunk(c2) + "data: [DONE]", llm.Usage{Unreported: true}},
		{"usage inside the finish chunk's choice (Moonshot)", chunk(c1) + chunk(c2) +
			chunk(`{"id":"c","object":"chat.completion.chunk","model":"kimi-k2.5","choices":[{"index":0,"delta":{},"finish_reason":"stop","usage":{"prompt_tokens":11,"completion_tokens":2,"total_tokens":13,"prompt_tokens_details":{"cached_tokens":4}}}]}`) + done,
			llm.Usage{InputTokens: 7, CacheReadTokens: 4, OutputTokens: 2}},
		{"cache hits in their own field (DeepSeek)", chunk(c1) + chunk(c2) + chunk(stop) +
			chunk(`{"id":"c","object":"chat.completion.chunk","model":"deepseek-chat","choices":[],"usage":{"prompt_tokens":11,"completion_tokens":2,"total_tokens":13,"prompt_cache_hit_tokens":4,"prompt_cache_miss_tokens":7}}`) + done,
			llm.Usage{InputTokens: 7, CacheReadTokens: 4, OutputTokens: 2}},
		{"event:, id: and retry: fields (proxies that name every event)", "retry: 3000\n\n" +
			"event: message\nid: 1\n" + chunk(c1) + "event: message\nid: 2\n" + chunk(c2) + "event: message\nid: 3\n" + chunk(stop) +
			"event: message\nid: 4\n" + chunk(use) + "event: message\n" + done,
			llm.Usage{InputTokens: 7, CacheReadTokens: 4, OutputTokens: 2}},
		{"id: on every event and : ping frames mid-stream (Anthropic's OpenAI-compatible endpoint, gateways)",
			"id: 1\n" + chunk(c1) + ": ping\n\n" + "id: 2\n" + chunk(c2) + ": ping\n\n: ping\n\n" + "id: 3\n" + chunk(stop) + "id: 4\n" + chunk(use) + done,
			llm.Usage{InputTokens: 7, CacheReadTokens: 4, OutputTokens: 2}},
		{"chunks with no choice anywhere (Azure's filter results, usage-only)", chunk(`{"choices":[],"prompt_filter_results":[{"prompt_index":0,"content_filter_results":{}}]}`) +
			chunk(c1) + chunk(`{"choices":[],"usage":null}`) + chunk(c2) + chunk(`{"choices":[{"index":0,"finish_reason":null,"content_filter_results":{"hate":{"filtered":false,"severity":"safe"}}}]}`) +
			chunk(stop) + chunk(use) + done,
			llm.Usage{InputTokens: 7, CacheReadTokens: 4, OutputTokens: 2}},
		{"reasoning left out of completion_tokens, counted in the total (layers in front of Gemini)", chunk(c1) + chunk(c2) + chunk(stop) +
			chunk(`{"choices":[],"usage":{"prompt_tokens":11,"completion_tokens":0,"total_tokens":13,"prompt_tokens_details":{"cached_tokens":4},"completion_tokens_details":{"reasoning_tokens":2}}}`) + done,
			llm.Usage{InputTokens: 7, CacheReadTokens: 4, OutputTokens: 2}},
		{"reasoning counted in completion_tokens (OpenAI)", chunk(c1) + chunk(c2) + chunk(stop) +
			chunk(`{"choices":[],"usage":{"prompt_tokens":11,"completion_tokens":2,"total_tokens":13,"prompt_tokens_details":{"cached_tokens":4},"completion_tokens_details":{"reasoning_tokens":1}}}`) + done,
			llm.Usage{InputTokens: 7, CacheReadTokens: 4, OutputTokens: 2}},
		{"an event's data over several data lines, a part of it braced (SSE joins them)",
			"data: {\"choices\":[{\"index\":0,\"delta\":{\"content\":\"Hel\"}}\ndata: ]}\n\n" +
				"data: {\"choices\":[{\"index\":0,\"delta\":{\"content\":\"lo\"}}],\"x\":{\"y\":1}\ndata: }\n\n" + chunk(stop) + chunk(use) + done,
			llm.Usage{InputTokens: 7, CacheReadTokens: 4, OutputTokens: 2}},
		{"finish_reason and usage on every chunk (a broken server): the text is not cut at the first",
			chunk(`{"choices":[{"index":0,"delta":{"content":"Hel"},"finish_reason":"stop"}],"usage":{"prompt_tokens":9,"completion_tokens":1,"total_tokens":10}}`) +
				chunk(`{"choices":[{"index":0,"delta":{"content":"lo"},"finish_reason":"stop"}],"usage":{"prompt_tokens":9,"completion_tokens":2,"total_tokens":11}}`) + done,
			llm.Usage{InputTokens: 9, OutputTokens: 2}},
		{"the prompt's counts in the first chunk, the whole counts after the finish (proxies in front of Anthropic's API)",
			chunk(`{"choices":[{"index":0,"delta":{"role":"assistant","content":"Hel"}}],"usage":{"prompt_tokens":11,"completion_tokens":0,"total_tokens":11}}`) +
				chunk(c2) + chunk(stop) + chunk(use) + done,
			llm.Usage{InputTokens: 7, CacheReadTokens: 4, OutputTokens: 2}},
		{"keep-alive comments (OpenRouter), data: without a space", ": keep-alive\n\n" + chunk(c1) + ": OPENROUTER PROCESSING\n\n" +
			"data:" + c2 + "\n\n" + chunk(stop) + "data:[DONE]\n\n", llm.Usage{Unreported: true}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			r, err := ask(rawServer(t, sse(c.body)))
			if err != nil {
				t.Fatal(err)
			}
			if r.Text != "Hello" || r.StopReason != llm.StopEnd || r.Usage != c.want {
				t.Errorf("got %q %s %+v, want \"Hello\" end %+v", r.Text, r.StopReason, r.Usage, c.want)
			}
		})
	}
}

func TestStreamCut(t *testing.T) {
	cases := map[string]http.HandlerFunc{
		// The server closes the connection without ending the chunked body.
		"connection dropped": func(w http.ResponseWriter, r *http.Request) {
			w.Header().Set("Content-Type", "text/event-stream")
			_, _ = w.Write([]byte(chunk(c1)))
			w.(http.Flusher).Flush()
			conn, _, err := http.NewResponseController(w).Hijack()
			if err == nil {
				conn.Close()
			}
		},
		// A proxy ends the body cleanly before the model finished.
		"clean EOF before finish_reason": sse(chunk(c1) + chunk(c2)),
		"clean EOF inside an event":      sse(chunk(c1) + `data: {"choices":[{"index":0,"delta":{"content":"lo"`),
	}
	for name, h := range cases {
		t.Run(name, func(t *testing.T) {
			r, err := ask(rawServer(t, h))
			var e *llm.Error
			if !errors.As(err, &e) || !e.Retryable() {
				t.Fatalf("got %q, %v; want a retryable error, not a truncated turn", r.Text, err)
			}
		})
	}
}

func TestReasoningDeltasAreNotTheAnswer(t *testing.T) {
	body := chunk(`{"choices":[{"index":0,"delta":{"role":"assistant","reasoning_content":"Let me think {"}}]}`) +
		chunk(`{"choices":[{"index":0,"delta":{"reasoning":"more thought","content":null}}]}`) +
		chunk(`{"choices":[{"index":0,"delta":{"content":"Hel","reasoning_content":null}}]}`) + chunk(c2) + chunk(stop) + chunk(use) + done
	r, err := ask(rawServer(t, sse(body)))
	if err != nil || r.Text != "Hello" {
		t.Fatalf("%q %v", r.Text, err)
	}
}

// A reasoning parser that finds no end of reasoning (vLLM's deepseek_r1
// parser on Qwen3 with thinking off) sends the whole answer as reasoning
// and no content: the reply is then that text, not empty. Cut at the
// limit, it is reasoning cut short, and not the answer.
func TestAnswerOnlyInReasoning(t *testing.T) {
	body := chunk(`{"choices":[{"index":0,"delta":{"role":"assistant","content":null,"reasoning_content":"{\"verdict\":"}}]}`) +
		chunk(`{"choices":[{"index":0,"delta":{"reasoning_content":" \"bull\"}","reasoning":" \"bull\"}"}}]}`) + chunk(stop) + chunk(use) + done
	r, err := ask(rawServer(t, sse(body)))
	if err != nil || r.Text != `{"verdict": "bull"}` || r.StopReason != llm.StopEnd {
		t.Fatalf("%+v %v", r, err)
	}
	cut := strings.Replace(body, `"finish_reason":"stop"`, `"finish_reason":"length"`, 1)
	if r, err := ask(rawServer(t, sse(cut))); err != nil || r.Text != "" || r.StopReason != llm.StopMaxTokens {
		t.Fatalf("cut: %+v %v", r, err)
	}
}

func TestFinishLength(t *testing.T) {
	body := chunk(c1) + chunk(`{"choices":[{"index":0,"delta":{"content":"lo"},"finish_reason":"length"}]}`) + chunk(use) + done
	r, err := ask(rawServer(t, sse(body)))
	if err != nil || r.StopReason != llm.StopMaxTokens {
		t.Fatalf("%+v %v; want stop %s", r, err, llm.StopMaxTokens)
	}
}

func TestErrorEventMidStream(t *testing.T) {
	cases := []struct {
		name, event string
		kind        llm.ErrorKind
		text        string
	}{
		{"openai server_error", `{"error":{"message":"The server had an error while processing your request.","type":"server_error","param":null,"code":null}}`, llm.ErrServer, "server had an error"},
		{"vllm numeric code 503", `{"error":{"object":"error","message":"engine overloaded","type":"ServiceUnavailableError","code":503}}`, llm.ErrOverloaded, "engine overloaded"},
		{"openrouter 429", `{"error":{"message":"Rate limit exceeded","code":429},"id":"gen-1"}`, llm.ErrRateLimited, "Rate limit"},
		{"plain string (Ollama)", `{"error":"an error was encountered while running the model"}`, llm.ErrServer, "while running the model"},
		{"context length", `{"error":{"message":"This model's maximum context length is 4096 tokens. However, you requested 5000 tokens.","type":"BadRequestError","code":400}}`, llm.ErrBadRequest, "context"},
		{"Groq tool_use_failed", `{"error":{"message":"Failed to call a function. Please adjust your prompt. See 'failed_generation' for more details.","type":"invalid_request_error","code":"tool_use_failed","failed_generation":"<function=lookup>{\"q\": }</function>"}}`, llm.ErrMalformed, "Failed to call a function"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			r, err := ask(rawServer(t, sse(chunk(c1)+chunk(c.event))))
			var e *llm.Error
			if !errors.As(err, &e) || e.Kind != c.kind || !strings.Contains(err.Error(), c.text) {
				t.Fatalf("got %q, %v; want %s mentioning %q", r.Text, err, c.kind, c.text)
			}
		})
	}
}

func TestToolCallDeltas(t *testing.T) {
	cases := []struct {
		name string
		body string
		want []llm.ToolCall
	}{
		{"split args, index-only follow-ups, two interleaved calls",
			chunk(`{"choices":[{"index":0,"delta":{"role":"assistant","content":null,"tool_calls":[{"index":0,"id":"call_a","type":"function","function":{"name":"lookup","arguments":""}}]}}]}`) +
				chunk(`{"choices":[{"index":0,"delta":{"tool_calls":[{"index":0,"function":{"arguments":"{\"q\":"}}]}}]}`) +
				chunk(`{"choices":[{"index":0,"delta":{"tool_calls":[{"index":1,"id":"call_b","type":"function","function":{"name":"fetch","arguments":"{\"u"}}]}}]}`) +
				chunk(`{"choices":[{"index":0,"delta":{"tool_calls":[{"index":0,"function":{"arguments":"\"x\"}"}}]}}]}`) +
				chunk(`{"choices":[{"index":0,"delta":{"tool_calls":[{"index":1,"function":{"arguments":"\":1}"}}]}}]}`) +
				chunk(`{"choices":[{"index":0,"delta":{},"finish_reason":"tool_calls"}]}`) + chunk(use) + done,
			[]llm.ToolCall{{ID: "call_a", Name: "lookup", Args: []byte(`{"q":"x"}`)}, {ID: "call_b", Name: "fetch", Args: []byte(`{"u":1}`)}}},
		{"parallel calls all at index 0, each whole (Gemini-style compat layers)",
			chunk(`{"choices":[{"index":0,"delta":{"tool_calls":[{"index":0,"id":"a","type":"function","function":{"name":"lookup","arguments":"{\"q\":1}"}}]}}]}`) +
				chunk(`{"choices":[{"index":0,"delta":{"tool_calls":[{"index":0,"id":"b","type":"function","function":{"name":"lookup","arguments":"{\"q\":2}"}}]}}]}`) +
				chunk(`{"choices":[{"index":0,"delta":{},"finish_reason":"tool_calls"}]}`) + done,
			[]llm.ToolCall{{ID: "a", Name: "lookup", Args: []byte(`{"q":1}`)}, {ID: "b", Name: "lookup", Args: []byte(`{"q":2}`)}}},
		{"arguments as a JSON object, not a string (some compatible layers)",
			chunk(`{"choices":[{"index":0,"delta":{"tool_calls":[{"index":0,"id":"a","type":"function","function":{"name":"lookup","arguments":{"q":"x","n":[1,2]}}}]}}]}`) +
				chunk(`{"choices":[{"index":0,"delta":{},"finish_reason":"tool_calls"}]}`) + done,
			[]llm.ToolCall{{ID: "a", Name: "lookup", Args: []byte(`{"q":"x","n":[1,2]}`)}}},
		{"arguments encoded twice, a JSON string holding the object",
			chunk(`{"choices":[{"index":0,"delta":{"tool_calls":[{"index":0,"id":"a","type":"function","function":{"name":"lookup","arguments":"\"{\\\"q\\\": \\\"x\\\"}\""}}]}}]}`) +
				chunk(`{"choices":[{"index":0,"delta":{},"finish_reason":"tool_calls"}]}`) + done,
			[]llm.ToolCall{{ID: "a", Name: "lookup", Args: []byte(`{"q": "x"}`)}}},
		{"parallel calls whole at index 0 without ids",
			chunk(`{"choices":[{"index":0,"delta":{"tool_calls":[{"index":0,"type":"function","function":{"name":"lookup","arguments":"{\"q\":1}"}}]}}]}`) +
				chunk(`{"choices":[{"index":0,"delta":{"tool_calls":[{"index":0,"type":"function","function":{"name":"fetch","arguments":"{\"u\":2}"}}]}}]}`) +
				chunk(`{"choices":[{"index":0,"delta":{},"finish_reason":"tool_calls"}]}`) + done,
			[]llm.ToolCall{{ID: "call_0_lookup", Name: "lookup", Args: []byte(`{"q":1}`)}, {ID: "call_1_fetch", Name: "fetch", Args: []byte(`{"u":2}`)}}},
		{"the name repeated in every delta of one call, no id",
			chunk(`{"choices":[{"index":0,"delta":{"tool_calls":[{"index":0,"type":"function","function":{"name":"lookup","arguments":"{\"q\":"}}]}}]}`) +
				chunk(`{"choices":[{"index":0,"delta":{"tool_calls":[{"index":0,"type":"function","function":{"name":"lookup","arguments":"1}"}}]}}]}`) +
				chunk(`{"choices":[{"index":0,"delta":{"tool_calls":[{"index":0,"type":"function","function":{"name":"lookup","arguments":""}}]}}]}`) +
				chunk(`{"choices":[{"index":0,"delta":{},"finish_reason":"tool_calls"}]}`) + done,
			[]llm.ToolCall{{ID: "call_0_lookup", Name: "lookup", Args: []byte(`{"q":1}`)}}},
		{"one id for every call, index gaps",
			chunk(`{"choices":[{"index":0,"delta":{"tool_calls":[{"index":0,"id":"call_0","type":"function","function":{"name":"lookup","arguments":"{\"q\":1}"}}]}}]}`) +
				chunk(`{"choices":[{"index":0,"delta":{"tool_calls":[{"index":2,"id":"call_0","type":"function","function":{"name":"lookup","arguments":"{\"q\":"}}]}}]}`) +
				chunk(`{"choices":[{"index":0,"delta":{"tool_calls":[{"index":2,"function":{"arguments":"2}"}}]}}]}`) +
				chunk(`{"choices":[{"index":0,"delta":{},"finish_reason":"tool_calls"}]}`) + done,
			[]llm.ToolCall{{ID: "call_0", Name: "lookup", Args: []byte(`{"q":1}`)}, {ID: "call_0_1", Name: "lookup", Args: []byte(`{"q":2}`)}}},
		{"arguments split inside an escape and inside a surrogate pair's escapes",
			chunk(`{"choices":[{"index":0,"delta":{"tool_calls":[{"index":0,"id":"a","type":"function","function":{"name":"lookup","arguments":"{\"q\": \"caf\\"}}]}}]}`) +
				chunk(`{"choices":[{"index":0,"delta":{"tool_calls":[{"index":0,"function":{"arguments":"u00e9 \\\"\\ud83d"}}]}}]}`) +
				chunk(`{"choices":[{"index":0,"delta":{"tool_calls":[{"index":0,"function":{"arguments":"\\ude00\"}"}}]}}]}`) +
				chunk(`{"choices":[{"index":0,"delta":{},"finish_reason":"tool_calls"}]}`) + done,
			[]llm.ToolCall{{ID: "a", Name: "lookup", Args: []byte(`{"q": "caf\u00e9 \"\ud83d\ude00"}`)}}},
		{"multi-byte text split between deltas, as the SDK decodes each",
			chunk(`{"choices":[{"index":0,"delta":{"tool_calls":[{"index":0,"id":"a","type":"function","function":{"name":"lookup","arguments":"{\"q\": \"日"}}]}}]}`) +
				chunk(`{"choices":[{"index":0,"delta":{"tool_calls":[{"index":0,"function":{"arguments":"本\"}"}}]}}]}`) +
				chunk(`{"choices":[{"index":0,"delta":{},"finish_reason":"tool_calls"}]}`) + done,
			[]llm.ToolCall{{ID: "a", Name: "lookup", Args: []byte(`{"q": "日本"}`)}}},
		{"empty and null arguments of a tool without parameters",
			chunk(`{"choices":[{"index":0,"delta":{"tool_calls":[{"index":0,"id":"a","type":"function","function":{"name":"now","arguments":""}}]}}]}`) +
				chunk(`{"choices":[{"index":0,"delta":{"tool_calls":[{"index":1,"id":"b","type":"function","function":{"name":"now","arguments":null}}]}}]}`) +
				chunk(`{"choices":[{"index":0,"delta":{},"finish_reason":"tool_calls"}]}`) + done,
			[]llm.ToolCall{{ID: "a", Name: "now", Args: []byte(`{}`)}, {ID: "b", Name: "now", Args: []byte(`{}`)}}},
		{"two calls in one delta, no ids, same name, finish stop (local servers)",
			chunk(`{"choices":[{"index":0,"delta":{"tool_calls":[{"index":0,"function":{"name":"lookup","arguments":"{}"}},{"index":1,"function":{"name":"lookup","arguments":"{\"q\":2}"}}]},"finish_reason":"stop"}]}`) + done,
			nil},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			r, err := ask(rawServer(t, sse(c.body)))
			if err != nil {
				t.Fatal(err)
			}
			if r.StopReason != llm.StopToolUse {
				t.Errorf("stop %q", r.StopReason)
			}
			if c.want == nil {
				if len(r.ToolCalls) != 2 || r.ToolCalls[0].ID == r.ToolCalls[1].ID || r.ToolCalls[0].ID == "" {
					t.Errorf("calls %+v: want two with distinct ids", r.ToolCalls)
				}
				return
			}
			if len(r.ToolCalls) != len(c.want) {
				t.Fatalf("calls %+v, want %+v", r.ToolCalls, c.want)
			}
			for i, w := range c.want {
				g := r.ToolCalls[i]
				if g.ID != w.ID || g.Name != w.Name || string(g.Args) != string(w.Args) {
					t.Errorf("call %d = %+v (%s), want %+v (%s)", i, g, g.Args, w, w.Args)
				}
			}
		})
	}
}

// Some servers (old Ollama, proxies that buffer, llama.cpp with stream
// ignored) answer a streaming request with one chat.completion object.
func TestNonStreamingReply(t *testing.T) {
	h := func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "application/json")
		_, _ = w.Write([]byte(`{"id":"x","object":"chat.completion","model":"m","choices":[{"index":0,"message":{"role":"assistant","content":"Hello","reasoning_content":"hmm","tool_calls":[{"id":"call_1","type":"function","function":{"name":"lookup","arguments":"{\"q\":1}"}}]},"finish_reason":"tool_calls"}],"usage":{"prompt_tokens":5,"completion_tokens":3,"total_tokens":8}}`))
	}
	r, err := ask(rawServer(t, h))
	if err != nil {
		t.Fatal(err)
	}
	if r.Text != "Hello" || len(r.ToolCalls) != 1 || r.ToolCalls[0].Name != "lookup" || r.StopReason != llm.StopToolUse ||
		r.Usage != (llm.Usage{InputTokens: 5, OutputTokens: 3}) {
		t.Errorf("%+v", r)
	}
}

func TestHTTPErrors(t *testing.T) {
	date := time.Now().Add(90 * time.Second).UTC().Format(http.TimeFormat)
	html := "<html><head><title>502 Bad Gateway</title></head><body>" + strings.Repeat("<p>nginx</p>\x1b[2J", 2000) + "</body></html>"
	cases := []struct {
		name       string
		status     int
		header     map[string]string
		body       string
		kind       llm.ErrorKind
		retryAfter time.Duration // lower bound
		want       []string
		notWant    []string
	}{
		{"429 seconds", 429, map[string]string{"Retry-After": "7"}, `{"error":{"message":"Rate limit reached","type":"requests","code":"rate_limit_exceeded"}}`, llm.ErrRateLimited, 7 * time.Second, []string{"Rate limit reached"}, nil},
		{"429 retry-after-ms (Azure)", 429, map[string]string{"Retry-After-Ms": "1500"}, `{"error":{"code":"429","message":"Requests to the ChatCompletions_Create Operation have exceeded call rate limit."}}`, llm.ErrRateLimited, 1500 * time.Millisecond, []string{"exceeded call rate limit"}, nil},
		{"429 insufficient_quota is not retried", 429, nil, `{"error":{"message":"You exceeded your current quota, please check your plan and billing details.","type":"insufficient_quota","param":null,"code":"insufficient_quota"}}`, llm.ErrBadRequest, 0, []string{"quota"}, nil},
		{"429 plain text (nginx limit_req, a gateway)", 429, map[string]string{"Content-Type": "text/plain", "Retry-After": "2"}, "Too Many Requests\n", llm.ErrRateLimited, 2 * time.Second, []string{"Too Many Requests"}, nil},
		{"429 html without Retry-After", 429, map[string]string{"Content-Type": "text/html"}, "<html><head><title>429 Too Many Requests</title></head><body><center><h1>429 Too Many Requests</h1></center></body></html>", llm.ErrRateLimited, 0, []string{"429 Too Many Requests"}, []string{"<h1>"}},
		{"429 http-date", 429, map[string]string{"Retry-After": date}, `{"error":{"message":"slow down"}}`, llm.ErrRateLimited, 80 * time.Second, nil, nil},
		{"502 html", 502, map[string]string{"Content-Type": "text/html"}, html, llm.ErrServer, 0, []string{"502"}, []string{"<p>", "\x1b"}},
		{"503 html", 503, map[string]string{"Content-Type": "text/html"}, html, llm.ErrOverloaded, 0, []string{"503"}, []string{"<p>", "\x1b"}},
		{"500 text", 500, nil, "Internal Server Error", llm.ErrServer, 0, []string{"500"}, nil},
		{"400 context length (vLLM)", 400, nil, `{"object":"error","message":"This model's maximum context length is 4096 tokens. However, you requested 9000 tokens (8000 in the messages, 1000 in the completion). Please reduce the length of the messages or completion.","type":"BadRequestError","param":null,"code":400}`,
			llm.ErrBadRequest, 0, []string{"maximum context length", `"m"`, "context window"}, nil},
		{"400 context length (OpenAI)", 400, nil, `{"error":{"message":"This model's maximum context length is 128000 tokens.","type":"invalid_request_error","param":"messages","code":"context_length_exceeded"}}`,
			llm.ErrBadRequest, 0, []string{"maximum context length", `"m"`, "context window"}, nil},
		{"400 context size (llama.cpp)", 400, nil, `{"error":{"code":400,"message":"the request exceeds the available context size, try increasing it","type":"exceed_context_size_error","n_prompt_tokens":5000,"n_ctx":4096}}`,
			llm.ErrBadRequest, 0, []string{"context size", `"m"`, "context window"}, nil},
		{"404 Ollama string error", 404, nil, `{"error":"model \"qwen9\" not found, try pulling it first"}`, llm.ErrBadRequest, 0, []string{`model "qwen9" not found`}, nil},
		{"huge JSON message", 500, nil, `{"error":{"message":"` + strings.Repeat("x\u001b[2J", 100000) + `"}}`, llm.ErrServer, 0, []string{"500"}, []string{"\x1b"}},
		{"422 FastAPI validation list", 422, nil, `{"detail":[{"type":"missing","loc":["body","messages",0,"content"],"msg":"Field required","input":{"role":"user"}}]}`,
			llm.ErrBadRequest, 0, []string{"body.messages.0.content: Field required"}, nil},
		{"422 Mistral validation list inside the message", 422, nil, `{"object":"error","message":{"detail":[{"type":"less_than_equal","loc":["body","temperature"],"msg":"Input should be less than or equal to 1.5","input":3}]},"type":"invalid_request_message_error","param":null,"code":null}`,
			llm.ErrBadRequest, 0, []string{"body.temperature: Input should be less than or equal to 1.5"}, []string{"map["}},
		{"403 region (not the key's fault)", 403, nil, `{"error":{"code":"unsupported_country_region_territory","message":"Country, region, or territory not supported","param":null,"type":"request_forbidden"}}`,
			llm.ErrAuth, 0, []string{"access refused", "Country, region, or territory not supported"}, []string{"invalid API key", "none is set"}},
		{"400 Groq tool_use_failed is another sample's to fix", 400, nil, `{"error":{"message":"Failed to call a function. Please adjust your prompt. See 'failed_generation' for more details.","type":"invalid_request_error","code":"tool_use_failed","failed_generation":"<function=lookup>{\"q\": }</function>"}}`,
			llm.ErrMalformed, 0, []string{"Failed to call a function"}, []string{"<function"}},
		{"400 Groq json_validate_failed", 400, nil, `{"error":{"message":"Failed to generate JSON. Please adjust your prompt. See 'failed_generation' for more details.","type":"invalid_request_error","code":"json_validate_failed","failed_generation":"{\"a\""}}`,
			llm.ErrMalformed, 0, []string{"Failed to generate JSON"}, nil},
		{"401", 401, nil, `{"error":{"message":"Incorrect API key provided: sk-abc.","type":"invalid_request_error","code":"invalid_api_key"}}`, llm.ErrAuth, 0, []string{"API key"}, nil},
	}
	var checks []llmtest.HTTPError
	for _, c := range cases {
		checks = append(checks, llmtest.HTTPError{Name: c.name, Status: c.status, Header: c.header, Body: c.body, Kind: c.kind, RetryAfter: c.retryAfter, Want: c.want, NotWant: c.notWant})
	}
	llmtest.HTTPErrors(t, func(t *testing.T, h http.HandlerFunc) llm.Provider { return rawServer(t, h) }, ask, checks)
}

func TestUnauthorizedNamesTheKey(t *testing.T) {
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "application/json")
		w.WriteHeader(401)
		_, _ = w.Write([]byte(`{"error":{"message":"Missing bearer or basic authentication in header","type":"invalid_request_error","code":null}}`))
	}))
	defer srv.Close()
	for key, want := range map[string]string{"": "none is set: set OPENAI_API_KEY", "sk-x": "invalid API key: check OPENAI_API_KEY"} {
		p, err := openai.New(openai.Config{APIKey: key, BaseURL: srv.URL + "/v1"})
		if err != nil {
			t.Fatal(err)
		}
		_, err = ask(p)
		if llm.IsRetryable(err) || err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("key %q: %v, want it to say %q", key, err, want)
		}
	}
}

func TestRefusal(t *testing.T) {
	body := chunk(`{"choices":[{"index":0,"delta":{"role":"assistant","content":null,"refusal":"I can't help "}}]}`) +
		chunk(`{"choices":[{"index":0,"delta":{"refusal":"with that."}}]}`) + chunk(stop) + chunk(use) + done
	r, err := ask(rawServer(t, sse(body)))
	if err != nil || r.Text != "I can't help with that." || r.StopReason != llm.StopRefusal {
		t.Fatalf("%+v %v", r, err)
	}
}

// The fake server sends a refusal the way the API does: in its own field,
// with finish_reason "stop".
func TestFakeRefusal(t *testing.T) {
	srv := fakellm.Start(script.MustNew(script.Rule{Reply: &script.Reply{Text: "I won't.", StopReason: llm.StopRefusal}}))
	defer srv.Close()
	p, err := openai.New(openai.Config{Name: "ollama", BaseURL: srv.OpenAIURL()})
	if err != nil {
		t.Fatal(err)
	}
	r, err := ask(p)
	if err != nil || r.Text != "I won't." || r.StopReason != llm.StopRefusal {
		t.Fatalf("%+v %v", r, err)
	}
}

// vLLM without a reasoning parser sends a reasoning model's thinking in
// content, in a <think> block split across deltas.
func TestThinkBlockInContent(t *testing.T) {
	body := chunk(`{"choices":[{"index":0,"delta":{"role":"assistant","content":"<th"}}]}`) +
		chunk(`{"choices":[{"index":0,"delta":{"content":"ink>\nThe user wants {json}.\n</thi"}}]}`) +
		chunk(`{"choices":[{"index":0,"delta":{"content":"nk>\n\nHel"}}]}`) + chunk(c2) + chunk(stop) + chunk(use) + done
	r, err := ask(rawServer(t, sse(body)))
	if err != nil || r.Text != "Hello" {
		t.Fatalf("%q %v", r.Text, err)
	}
}

// Some proxies put "error": null in every chunk.
func TestNullErrorField(t *testing.T) {
	body := chunk(`{"choices":[{"index":0,"delta":{"content":"Hel"}}],"error":null}`) +
		chunk(`{"choices":[{"index":0,"delta":{"content":"lo"},"finish_reason":"stop"}],"error":null}`) + done
	r, err := ask(rawServer(t, sse(body)))
	if err != nil || r.Text != "Hello" {
		t.Fatalf("%q %v", r.Text, err)
	}
}

// A base URL that names a web UI answers 200 with a page: that is a
// configuration error to fix, not a cut stream to retry.
func TestWebPageIsNotTheAPI(t *testing.T) {
	p := rawServer(t, func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "text/html; charset=utf-8")
		_, _ = w.Write([]byte("<!doctype html><html><title>Open WebUI</title></html>"))
	})
	_, err := ask(p)
	var e *llm.Error
	if !errors.As(err, &e) || e.Kind != llm.ErrBadRequest || e.Provider != "vllm" || !strings.Contains(err.Error(), "base URL") {
		t.Fatalf("%v", err)
	}
}

// A weaker server asked for json_schema output wraps the document in
// reasoning, prose and a fence; the move still decodes.
func TestStructuredReplyWrapped(t *testing.T) {
	reply := "<think>They want {\"verdict\"...}</think>Sure! Here is the JSON:\n```json\n{\"verdict\": \"redis\", \"confidence\": 0.7}\n```\nLet me know."
	enc, _ := json.Marshal(reply)
	body := chunk(`{"choices":[{"index":0,"delta":{"content":`+string(enc)+`}}]}`) + chunk(stop) + chunk(use) + done
	p := rawServer(t, sse(body))
	r, err := llm.Collect(p.Stream(context.Background(), llm.Request{Model: "m", Messages: []llm.Message{{Role: llm.RoleUser, Text: "hi"}},
		Schema: &llm.Schema{Name: "v", JSON: json.RawMessage(`{"type":"object"}`)}}))
	if err != nil {
		t.Fatal(err)
	}
	var move struct {
		Verdict    string  `json:"verdict"`
		Confidence float64 `json:"confidence"`
	}
	if err := debate.DecodeMove(r.Text, &move); err != nil || move.Verdict != "redis" || move.Confidence != 0.7 {
		t.Errorf("%q: %+v %v", r.Text, move, err)
	}
}

// finish_reason "length" in the middle of a tool call's arguments: the
// reply is cut, not malformed.
func TestToolCallCutAtLength(t *testing.T) {
	body := chunk(`{"choices":[{"index":0,"delta":{"tool_calls":[{"index":0,"id":"a","type":"function","function":{"name":"lookup","arguments":"{\"q\":\"x\"}"}}]}}]}`) +
		chunk(`{"choices":[{"index":0,"delta":{"tool_calls":[{"index":1,"id":"b","type":"function","function":{"name":"lookup","arguments":"{\"q\":\"unfini"}}]}}]}`) +
		chunk(`{"choices":[{"index":0,"delta":{},"finish_reason":"length"}]}`) + done
	r, err := ask(rawServer(t, sse(body)))
	if err != nil || r.StopReason != llm.StopMaxTokens || len(r.ToolCalls) != 1 || r.ToolCalls[0].ID != "a" {
		t.Fatalf("%+v %v", r, err)
	}
	body = strings.Replace(body, `"finish_reason":"length"`, `"finish_reason":"tool_calls"`, 1)
	if _, err := ask(rawServer(t, sse(body))); !llm.IsRetryable(err) || !strings.Contains(err.Error(), "not a JSON object") {
		t.Fatalf("bad arguments without a cut: %v", err)
	}
}

// DeepSeek-R1 distills and Qwen3 thinking models on vLLM without
// --reasoning-parser: the chat template opened <think> in the prompt, so
// the reply streams the reasoning, then </think>, then the answer. The
// first such reply has passed its reasoning on before the tag shows what
// it was: it fails, retryably, and from then on the model's replies are
// held back until the tag.
func TestOrphanThinkClose(t *testing.T) {
	body := chunk(`{"choices":[{"index":0,"delta":{"role":"assistant","content":"Okay, the user wants {\"a\""}}]}`) +
		chunk(`{"choices":[{"index":0,"delta":{"content":": 1}. Let me answer.\n</th"}}]}`) +
		chunk(`{"choices":[{"index":0,"delta":{"content":"ink>\n\nHel"}}]}`) + chunk(c2) + chunk(stop) + chunk(use) + done
	p := rawServer(t, sse(body))
	r, err := ask(p)
	var e *llm.Error
	if !errors.As(err, &e) || !e.Retryable() || !strings.Contains(err.Error(), "--reasoning-parser") {
		t.Fatalf("first reply %q, %v: want a retryable error saying what to change", r.Text, err)
	}
	for i := range 2 {
		if r, err := ask(p); err != nil || r.Text != "Hello" || r.Usage.OutputTokens != 2 {
			t.Fatalf("call %d: %+v %v", i+2, r, err)
		}
	}

	// A reply that comes whole (a server that ignores "stream") is put
	// right at once.
	p = rawServer(t, func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "application/json")
		_, _ = w.Write([]byte(`{"id":"x","object":"chat.completion","model":"m","choices":[{"index":0,"message":{"role":"assistant","content":"Okay, {the user}.\n</think>\n\nHello"},"finish_reason":"stop"}]}`))
	})
	if r, err := ask(p); err != nil || r.Text != "Hello" {
		t.Fatalf("whole reply: %q %v", r.Text, err)
	}
}

// Finish reasons beyond OpenAI's own: Mistral's model_length (cut at the
// context window) and error (generation failed), the content filter's, and
// Gemini's upper-case ones and Anthropic's that proxies pass through.
func TestFinishReasons(t *testing.T) {
	for finish, want := range map[string]string{"model_length": llm.StopContextWindow, "content_filter": llm.StopRefusal, "eos_token": llm.StopEnd, "eos": llm.StopEnd,
		"end_turn": llm.StopEnd, "MAX_TOKENS": llm.StopMaxTokens, "SAFETY": llm.StopRefusal, "STOP": llm.StopEnd,
		// Anthropic's own words, passed through by proxies in front of it.
		"refusal": llm.StopRefusal, "model_context_window_exceeded": llm.StopContextWindow} {
		body := chunk(c1) + chunk(`{"choices":[{"index":0,"delta":{"content":"lo"},"finish_reason":"`+finish+`"}]}`) + done
		if r, err := ask(rawServer(t, sse(body))); err != nil || r.StopReason != want {
			t.Errorf("%s: %+v %v, want stop %s", finish, r, err, want)
		}
	}
	for _, finish := range []string{"error", "MALFORMED_FUNCTION_CALL"} {
		body := chunk(c1) + chunk(`{"choices":[{"index":0,"delta":{},"finish_reason":"`+finish+`"}]}`) + done
		if r, err := ask(rawServer(t, sse(body))); !llm.IsRetryable(err) {
			t.Errorf("finish_reason %s: %+v %v, want a retryable error", finish, r, err)
		}
	}
}

// Mistral's reasoning models (Magistral) send content as a list of parts:
// the reasoning in "thinking" parts, the answer in "text" ones or plain
// strings.
func TestContentParts(t *testing.T) {
	body := chunk(`{"choices":[{"index":0,"delta":{"role":"assistant","content":[{"type":"thinking","thinking":[{"type":"text","text":"they want {"}]}]}}]}`) +
		chunk(`{"choices":[{"index":0,"delta":{"content":[{"type":"thinking","thinking":[{"type":"text","text":" json"}]}]}}]}`) +
		chunk(`{"choices":[{"index":0,"delta":{"content":[{"type":"text","text":"Hel"}]}}]}`) + chunk(c2) + chunk(stop) + done
	if r, err := ask(rawServer(t, sse(body))); err != nil || r.Text != "Hello" {
		t.Fatalf("streamed: %q %v", r.Text, err)
	}
	p := rawServer(t, func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "application/json")
		_, _ = w.Write([]byte(`{"id":"x","object":"chat.completion","model":"magistral-medium-2509","choices":[{"index":0,"message":{"role":"assistant","content":[{"type":"thinking","thinking":[{"type":"text","text":"hmm"}]},{"type":"text","text":"Hello"}]},"finish_reason":"stop"}]}`))
	})
	if r, err := ask(p); err != nil || r.Text != "Hello" {
		t.Fatalf("whole: %q %v", r.Text, err)
	}
}
