package anthropic_test

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/parleyhq/parley/internal/llm"
	"github.com/parleyhq/parley/internal/llm/anthropic"
	"github.com/parleyhq/parley/internal/llm/fakellm"
	"github.com/parleyhq/parley/internal/llm/llmtest"
	"github.com/parleyhq/parley/internal/llm/script"
)

// These tests script what the Messages API sends, byte for byte, including
// the events the in-repo fake server does not send.

func rawServer(t *testing.T, handle http.HandlerFunc) *anthropic.Provider {
	t.Helper()
	srv := httptest.NewServer(handle)
	t.Cleanup(srv.Close)
	p, err := anthropic.New(anthropic.Config{APIKey: "k", BaseURL: srv.URL})
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
	p, err := anthropic.New(anthropic.Config{APIKey: "k", BaseURL: srv.URL, Logger: log})
	if err != nil {
		t.Fatal(err)
	}
	return p
}

func sse(body string) http.HandlerFunc { return llmtest.SSE(body) }

func ev(name, data string) string { return "event: " + name + "\ndata: " + data + "\n\n" }

func ask(p llm.Provider) (llm.Reply, error) {
	return llm.Collect(p.Stream(context.Background(), llm.Request{Model: "claude-x", Tag: "t",
		Messages: []llm.Message{{Role: llm.RoleUser, Text: "hi"}}}))
}

var (
	start = ev("message_start", `{"type":"message_start","message":{"id":"msg_1","type":"message","role":"assistant","model":"claude-x","content":[],"stop_reason":null,"stop_sequence":null,"usage":{"input_tokens":10,"cache_creation_input_tokens":5,"cache_read_input_tokens":100,"output_tokens":1}}}`)
	ping  = ev("ping", `{"type": "ping"}`)
	text  = ev("content_block_start", `{"type":"content_block_start","index":1,"content_block":{"type":"text","text":""}}`) +
		ev("content_block_delta", `{"type":"content_block_delta","index":1,"delta":{"type":"text_delta","text":"Hel"}}`) + ping +
		ev("content_block_delta", `{"type":"content_block_delta","index":1,"delta":{"type":"text_delta","text":"lo"}}`) +
		ev("content_block_stop", `{"type":"content_block_stop","index":1}`)
	thinking = ev("content_block_start", `{"type":"content_block_start","index":0,"content_block":{"type":"thinking","thinking":"","signature":""}}`) +
		ev("content_block_delta", `{"type":"content_block_delta","index":0,"delta":{"type":"thinking_delta","thinking":"Let me think {"}}`) +
		ev("content_block_delta", `{"type":"content_block_delta","index":0,"delta":{"type":"signature_delta","signature":"EqQBCgIYAhIM"}}`) +
		ev("content_block_stop", `{"type":"content_block_stop","index":0}`)
	stopEv = ev("message_stop", `{"type":"message_stop"}`)
)

// dataOnly drops the event: lines of a stream, as some proxies do.
func dataOnly(s string) string {
	var out []string
	for l := range strings.SplitSeq(s, "\n") {
		if !strings.HasPrefix(l, "event:") {
			out = append(out, l)
		}
	}
	return strings.Join(out, "\n")
}

func delta(stop string) string {
	return ev("message_delta", `{"type":"message_delta","delta":{"stop_reason":"`+stop+`","stop_sequence":null},"usage":{"input_tokens":10,"cache_creation_input_tokens":5,"cache_read_input_tokens":100,"output_tokens":42}}`)
}

func TestStreamEvents(t *testing.T) {
	want := llm.Usage{InputTokens: 10, CacheWriteTokens: 5, CacheReadTokens: 100, OutputTokens: 42}
	cases := []struct {
		name, body, stop string
	}{
		{"pings and thinking", ping + start + ping + thinking + text + delta("end_turn") + stopEv, llm.StopEnd},
		{"redacted thinking", start + ev("content_block_start", `{"type":"content_block_start","index":0,"content_block":{"type":"redacted_thinking","data":"abc"}}`) +
			ev("content_block_stop", `{"type":"content_block_stop","index":0}`) + text + delta("end_turn") + stopEv, llm.StopEnd},
		{"max_tokens", start + text + delta("max_tokens") + stopEv, llm.StopMaxTokens},
		{"context window exceeded", start + text + delta("model_context_window_exceeded") + stopEv, llm.StopContextWindow},
		{"refusal", start + text + delta("refusal") + stopEv, llm.StopRefusal},
		// Proxies that translate an OpenAI-compatible server's reply.
		{"length", start + text + delta("length") + stopEv, llm.StopMaxTokens},
		{"content_filter", start + text + delta("content_filter") + stopEv, llm.StopRefusal},
		{"stop", start + text + delta("stop") + stopEv, llm.StopEnd},
		// Proxies that drop the event: lines (the SDK dispatches by them).
		{"data lines without event lines", dataOnly(ping + start + thinking + text + delta("end_turn") + stopEv), llm.StopEnd},
		{"CRLF line ends, no event lines", strings.ReplaceAll(dataOnly(start+text+delta("end_turn")+stopEv), "\n", "\r\n"), llm.StopEnd},
		{"message_delta with output_tokens only, keep-alive comments", start + ": keep-alive\n\n" + text + ": keep-alive\n\n" +
			ev("message_delta", `{"type":"message_delta","delta":{"stop_reason":"end_turn","stop_sequence":null},"usage":{"output_tokens":42}}`) + stopEv, llm.StopEnd},
		// Citations (documents or search results cited) come as deltas of
		// their own between the text's: the text is the reply.
		{"citations_delta", start + ev("content_block_start", `{"type":"content_block_start","index":0,"content_block":{"type":"text","text":"","citations":[]}}`) +
			ev("content_block_delta", `{"type":"content_block_delta","index":0,"delta":{"type":"text_delta","text":"Hel"}}`) +
			ev("content_block_delta", `{"type":"content_block_delta","index":0,"delta":{"type":"citations_delta","citation":{"type":"char_location","cited_text":"x","document_index":0,"document_title":"d","start_char_index":0,"end_char_index":1}}}`) +
			ev("content_block_delta", `{"type":"content_block_delta","index":0,"delta":{"type":"text_delta","text":"lo"}}`) +
			ev("content_block_stop", `{"type":"content_block_stop","index":0}`) + delta("end_turn") + stopEv, llm.StopEnd},
		// A message_delta with the counts alone, before or after the one
		// with the stop reason (proxies that split them).
		{"usage-only message_delta before the stop", start + text + ev("message_delta", `{"type":"message_delta","delta":{},"usage":{"output_tokens":7}}`) + delta("end_turn") + stopEv, llm.StopEnd},
		{"usage-only message_delta after the stop", start + text + ev("message_delta", `{"type":"message_delta","delta":{"stop_reason":"end_turn"},"usage":{"output_tokens":7}}`) +
			ev("message_delta", `{"type":"message_delta","delta":{},"usage":{"output_tokens":42}}`) + stopEv, llm.StopEnd},
		// A stop sequence (a server's own, since Parley sends none) ends
		// the reply as end_turn does.
		{"stop_sequence", start + text + ev("message_delta", `{"type":"message_delta","delta":{"stop_reason":"stop_sequence","stop_sequence":"###"},"usage":{"output_tokens":42}}`) + stopEv, llm.StopEnd},
		// Compatible servers that send the first text in the block's start.
		{"text in content_block_start", start + ev("content_block_start", `{"type":"content_block_start","index":0,"content_block":{"type":"text","text":"Hel"}}`) +
			ev("content_block_delta", `{"type":"content_block_delta","index":0,"delta":{"type":"text_delta","text":"lo"}}`) +
			ev("content_block_stop", `{"type":"content_block_stop","index":0}`) + delta("end_turn") + stopEv, llm.StopEnd},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			r, err := ask(rawServer(t, sse(c.body)))
			if err != nil {
				t.Fatal(err)
			}
			if r.Text != "Hello" || r.StopReason != c.stop || r.Usage != want {
				t.Errorf("got %q %q %+v, want \"Hello\" %q %+v", r.Text, r.StopReason, r.Usage, c.stop, want)
			}
		})
	}
}

// A proxy that passes an OpenAI-compatible server's finish reason through
// as the stop_reason may pass one that says the server gave up part way:
// the call fails retryably, naming it, rather than the half reply stand.
func TestStopReasonThatCutsTheReply(t *testing.T) {
	for _, reason := range []string{"abort", "insufficient_system_resource", "error", "repetition"} {
		r, err := ask(rawServer(t, sse(start+text+delta(reason)+stopEv)))
		if !llm.IsRetryable(err) || !strings.Contains(err.Error(), reason) {
			t.Errorf("%s: %+v %v, want a retryable error naming it", reason, r, err)
		}
	}
}

func TestErrorEventMidStream(t *testing.T) {
	cases := []struct {
		typ  string
		kind llm.ErrorKind
	}{
		{"overloaded_error", llm.ErrOverloaded},
		{"api_error", llm.ErrServer},
		{"rate_limit_error", llm.ErrRateLimited},
	}
	for _, c := range cases {
		t.Run(c.typ, func(t *testing.T) {
			body := start + ev("content_block_start", `{"type":"content_block_start","index":0,"content_block":{"type":"text","text":""}}`) +
				ev("content_block_delta", `{"type":"content_block_delta","index":0,"delta":{"type":"text_delta","text":"Hel"}}`) +
				ev("error", `{"type":"error","error":{"type":"`+c.typ+`","message":"Overloaded\u001b[2J"},"request_id":"req_1"}`)
			r, err := ask(rawServer(t, sse(body)))
			var e *llm.Error
			if !errors.As(err, &e) || e.Kind != c.kind || !e.Retryable() || !strings.Contains(err.Error(), "Overloaded") || strings.Contains(err.Error(), "\x1b") {
				t.Fatalf("got %q, %v; want a retryable %s error, cleaned", r.Text, err, c.kind)
			}
		})
	}
}

func TestStreamCut(t *testing.T) {
	cases := map[string]http.HandlerFunc{
		"connection dropped": func(w http.ResponseWriter, r *http.Request) {
			w.Header().Set("Content-Type", "text/event-stream")
			_, _ = w.Write([]byte(start + text))
			w.(http.Flusher).Flush()
			if conn, _, err := http.NewResponseController(w).Hijack(); err == nil {
				conn.Close()
			}
		},
		"clean EOF before message_delta": sse(start + text),
		"clean EOF inside a block":       sse(start + strings.SplitAfter(text, "\n\n")[1]),
	}
	for name, h := range cases {
		t.Run(name, func(t *testing.T) {
			r, err := ask(rawServer(t, h))
			if !llm.IsRetryable(err) {
				t.Fatalf("got %q, %v; want a retryable error, not a truncated turn", r.Text, err)
			}
		})
	}
}

// A stream that ends after the message_delta that gives its stop_reason,
// without message_stop (compatible servers and proxies that leave it
// out), is whole: message_stop carries nothing. It was retried as cut,
// every time, by a server that always ends so.
func TestNoMessageStop(t *testing.T) {
	r, err := ask(rawServer(t, sse(start+text+delta("end_turn"))))
	if err != nil || r.Text != "Hello" || r.StopReason != llm.StopEnd || r.Usage.OutputTokens != 42 {
		t.Fatalf("%+v %v", r, err)
	}
}

func TestHTTPErrors(t *testing.T) {
	date := time.Now().Add(90 * time.Second).UTC().Format(http.TimeFormat)
	html := "<html><head><title>502 Bad Gateway</title></head><body>" + strings.Repeat("<p>cloudflare</p>\x1b[2J", 3000) + "</body></html>"
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
		{"529 overloaded", 529, nil, `{"type":"error","error":{"type":"overloaded_error","message":"Overloaded"}}`, llm.ErrOverloaded, 0, []string{"Overloaded"}, nil},
		{"429 seconds", 429, map[string]string{"Retry-After": "12"}, `{"type":"error","error":{"type":"rate_limit_error","message":"Number of request tokens has exceeded your per-minute rate limit"}}`, llm.ErrRateLimited, 12 * time.Second, []string{"rate limit"}, nil},
		{"429 plain text (nginx limit_req, a gateway)", 429, map[string]string{"Content-Type": "text/plain", "Retry-After": "2"}, "Too Many Requests\n", llm.ErrRateLimited, 2 * time.Second, []string{"Too Many Requests"}, nil},
		{"429 html without Retry-After", 429, map[string]string{"Content-Type": "text/html"}, "<html><head><title>429 Too Many Requests</title></head><body><center><h1>429 Too Many Requests</h1></center></body></html>", llm.ErrRateLimited, 0, []string{"429 Too Many Requests"}, []string{"<h1>"}},
		{"429 http-date", 429, map[string]string{"Retry-After": date}, `{"type":"error","error":{"type":"rate_limit_error","message":"slow down"}}`, llm.ErrRateLimited, 80 * time.Second, nil, nil},
		{"502 html", 502, map[string]string{"Content-Type": "text/html"}, html, llm.ErrServer, 0, []string{"502"}, []string{"<p>", "\x1b"}},
		{"400 prompt too long", 400, nil, `{"type":"error","error":{"type":"invalid_request_error","message":"prompt is too long: 210000 tokens > 200000 maximum"}}`, llm.ErrBadRequest, 0, []string{"prompt is too long", `"claude-x"`, "context window"}, nil},
		// Compatible servers and the proxies in front of them answer in
		// their own shapes: the message is read out of them, not quoted
		// as JSON.
		{"404 FastAPI detail", 404, nil, `{"detail":"Not Found"}`, llm.ErrBadRequest, 0, []string{"Not Found"}, []string{"{", "detail"}},
		{"400 error as a string (Ollama)", 400, nil, `{"error":"model \"qwen9\" not found, try pulling it first"}`, llm.ErrBadRequest, 0, []string{`model "qwen9" not found`}, []string{"{"}},
		{"500 OpenAI's shape (LiteLLM)", 500, nil, `{"error":{"message":"litellm.APIConnectionError: upstream reset","type":null,"param":null,"code":"500"}}`, llm.ErrServer, 0, []string{"litellm.APIConnectionError: upstream reset"}, []string{"{"}},
		{"502 plain text (Envoy)", 502, map[string]string{"Content-Type": "text/plain"}, "upstream connect error or disconnect/reset before headers. reset reason: connection termination", llm.ErrServer, 0, []string{"upstream connect error"}, nil},
		{"401", 401, nil, `{"type":"error","error":{"type":"authentication_error","message":"invalid x-api-key"}}`, llm.ErrAuth, 0, []string{"ANTHROPIC_API_KEY"}, nil},
	}
	var checks []llmtest.HTTPError
	for _, c := range cases {
		checks = append(checks, llmtest.HTTPError{Name: c.name, Status: c.status, Header: c.header, Body: c.body, Kind: c.kind, RetryAfter: c.retryAfter, Want: c.want, NotWant: c.notWant})
	}
	llmtest.HTTPErrors(t, func(t *testing.T, h http.HandlerFunc) llm.Provider { return rawServer(t, h) }, ask, checks)
}

func TestFakeRefusal(t *testing.T) {
	srv := fakellm.Start(script.MustNew(script.Rule{Reply: &script.Reply{Text: "I won't.", StopReason: llm.StopRefusal}}), fakellm.WithAPIKey("k"))
	defer srv.Close()
	p, err := anthropic.New(anthropic.Config{APIKey: "k", BaseURL: srv.AnthropicURL()})
	if err != nil {
		t.Fatal(err)
	}
	r, err := ask(p)
	if err != nil || r.Text != "I won't." || r.StopReason != llm.StopRefusal {
		t.Fatalf("%+v %v", r, err)
	}
	// The refusal's stop_details say why: its category and explanation
	// go with the stop reason, for the user to see.
	if !strings.Contains(r.StopDetail, "category cyber") || !strings.Contains(r.StopDetail, "malicious code") {
		t.Errorf("stop detail %q, want the refusal's category and explanation", r.StopDetail)
	}
	// Sent by a server or proxy, the explanation is cleaned of control
	// sequences; a reply that is not a refusal has no detail.
	hostile := ev("message_delta", `{"type":"message_delta","delta":{"stop_reason":"refusal","stop_sequence":null,"stop_details":{"type":"refusal","category":null,"explanation":"no\u001b[2J way"}},"usage":{"output_tokens":42}}`)
	if r, err := ask(rawServer(t, sse(start+text+hostile+stopEv))); err != nil || r.StopReason != llm.StopRefusal || strings.ContainsRune(r.StopDetail, 0x1b) || !strings.Contains(r.StopDetail, "way") {
		t.Errorf("hostile detail: %+v %v", r, err)
	}
	if r, err := ask(rawServer(t, sse(start+text+delta("end_turn")+stopEv))); err != nil || r.StopDetail != "" {
		t.Errorf("end_turn: %+v %v", r, err)
	}
}

func TestToolInputCutAtMaxTokens(t *testing.T) {
	tool := ev("content_block_start", `{"type":"content_block_start","index":0,"content_block":{"type":"tool_use","id":"toolu_1","name":"lookup","input":{}}}`) +
		ev("content_block_delta", `{"type":"content_block_delta","index":0,"delta":{"type":"input_json_delta","partial_json":"{\"q\": \"unfin"}}`) +
		ev("content_block_stop", `{"type":"content_block_stop","index":0}`)
	r, err := ask(rawServer(t, sse(start+tool+delta("max_tokens")+stopEv)))
	if err != nil || r.StopReason != llm.StopMaxTokens || len(r.ToolCalls) != 0 {
		t.Fatalf("%+v %v", r, err)
	}
	if _, err := ask(rawServer(t, sse(start+tool+delta("tool_use")+stopEv))); !llm.IsRetryable(err) || !strings.Contains(err.Error(), "not a JSON object") {
		t.Fatalf("bad input without a cut: %v", err)
	}
}

// A web page with status 200 is a base URL to fix, not retried, whatever
// type it is sent as: a page sent as text/plain or text/event-stream was
// read as a stream with no event, cut, and retried in vain.
func TestWebPageIsNotTheAPI(t *testing.T) {
	for _, ctype := range []string{"text/html; charset=utf-8", "text/plain", "text/event-stream", "application/octet-stream"} {
		p := rawServer(t, func(w http.ResponseWriter, r *http.Request) {
			w.Header().Set("Content-Type", ctype)
			_, _ = w.Write([]byte("\r\n<!doctype html><html><title>Sign in</title></html>"))
		})
		_, err := ask(p)
		var e *llm.Error
		if !errors.As(err, &e) || e.Kind != llm.ErrBadRequest || e.Provider != "anthropic" || !strings.Contains(err.Error(), "base URL") {
			t.Errorf("%s: %v, want a bad request naming the base URL", ctype, err)
		}
	}
}

// Compatible servers that send a tool's input whole in content_block_start
// and stream none of it.
func TestToolInputInBlockStart(t *testing.T) {
	tool := ev("content_block_start", `{"type":"content_block_start","index":0,"content_block":{"type":"tool_use","id":"toolu_1","name":"lookup","input":{"q":"x","n":2}}}`) +
		ev("content_block_stop", `{"type":"content_block_stop","index":0}`)
	r, err := ask(rawServer(t, sse(start+tool+delta("tool_use")+stopEv)))
	if err != nil || len(r.ToolCalls) != 1 || string(r.ToolCalls[0].Args) != `{"n":2,"q":"x"}` {
		t.Fatalf("%+v %v", r, err)
	}
}

// Compatible servers that send a tool call without an ID, or one ID for
// every call: each call gets its own, since results are paired by it.
func TestToolCallIDs(t *testing.T) {
	call := func(i int, id string) string {
		return ev("content_block_start", fmt.Sprintf(`{"type":"content_block_start","index":%d,"content_block":{"type":"tool_use","id":%q,"name":"lookup","input":{}}}`, i, id)) +
			ev("content_block_delta", fmt.Sprintf(`{"type":"content_block_delta","index":%d,"delta":{"type":"input_json_delta","partial_json":"{\"q\":%d}"}}`, i, i)) +
			ev("content_block_stop", fmt.Sprintf(`{"type":"content_block_stop","index":%d}`, i))
	}
	for name, body := range map[string]string{
		"no ids":  call(0, "") + call(1, ""),
		"one id":  call(0, "toolu_1") + call(1, "toolu_1"),
		"own ids": call(0, "toolu_a") + call(1, "toolu_b"),
	} {
		r, err := ask(rawServer(t, sse(start+body+delta("tool_use")+stopEv)))
		if err != nil || len(r.ToolCalls) != 2 || r.ToolCalls[0].ID == "" || r.ToolCalls[0].ID == r.ToolCalls[1].ID || string(r.ToolCalls[1].Args) != `{"q":1}` {
			t.Errorf("%s: %+v %v", name, r, err)
		}
		if name == "own ids" && (r.ToolCalls[0].ID != "toolu_a" || r.ToolCalls[1].ID != "toolu_b") {
			t.Errorf("own ids changed: %+v", r.ToolCalls)
		}
	}
}

// A server that ignores "stream": true and answers with one Message.
func TestNonStreamingReply(t *testing.T) {
	p := rawServer(t, func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "application/json")
		_, _ = w.Write([]byte(`{"id":"msg_1","type":"message","role":"assistant","model":"claude-x","content":[{"type":"thinking","thinking":"hmm {","signature":"x"},{"type":"text","text":"Hello"},{"type":"tool_use","id":"toolu_1","name":"lookup","input":{"q":"x"}}],"stop_reason":"tool_use","stop_sequence":null,"usage":{"input_tokens":12,"output_tokens":7,"cache_read_input_tokens":3}}`))
	})
	r, err := ask(p)
	if err != nil || r.Text != "Hello" || len(r.ToolCalls) != 1 || string(r.ToolCalls[0].Args) != `{"q":"x"}` || r.StopReason != llm.StopToolUse ||
		r.Usage != (llm.Usage{InputTokens: 12, OutputTokens: 7, CacheReadTokens: 3}) {
		t.Fatalf("%+v %v", r, err)
	}
	p = rawServer(t, func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "application/json")
		_, _ = w.Write([]byte(`{"type":"error","error":{"type":"overloaded_error","message":"Overloaded"}}`))
	})
	if _, err := ask(p); !llm.IsRetryable(err) || !strings.Contains(err.Error(), "Overloaded") {
		t.Fatalf("error object with 200: %v", err)
	}
}

// A compatible server that sends no token counts: they are unknown, not 0.
func TestUsageUnreported(t *testing.T) {
	noUsage := ev("message_start", `{"type":"message_start","message":{"id":"msg_1","type":"message","role":"assistant","model":"claude-x","content":[],"stop_reason":null}}`) +
		text + ev("message_delta", `{"type":"message_delta","delta":{"stop_reason":"end_turn","stop_sequence":null}}`) + stopEv
	r, err := ask(rawServer(t, sse(noUsage)))
	if err != nil || r.Text != "Hello" || !r.Usage.Unreported {
		t.Fatalf("%+v %v", r, err)
	}
}

// A max_tokens above the model's cap (the default 8192 to Claude 3 Haiku,
// or a turn's whole budget) is lowered to the cap the API names, and the
// cap is remembered for the model.
func TestOutputLimitLowered(t *testing.T) {
	var mu sync.Mutex
	var sent []float64
	p := rawServer(t, func(w http.ResponseWriter, r *http.Request) {
		var m map[string]any
		_ = json.NewDecoder(r.Body).Decode(&m)
		limit, _ := m["max_tokens"].(float64)
		mu.Lock()
		sent = append(sent, limit)
		mu.Unlock()
		if limit > 4096 {
			w.Header().Set("Content-Type", "application/json")
			w.WriteHeader(400)
			_, _ = fmt.Fprintf(w, `{"type":"error","error":{"type":"invalid_request_error","message":"max_tokens: %d > 4096, which is the maximum allowed number of output tokens for claude-3-haiku-20240307"},"request_id":"req_1"}`, int(limit))
			return
		}
		sse(start+text+delta("end_turn")+stopEv)(w, r)
	})
	for range 2 {
		if r, err := ask(p); err != nil || r.Text != "Hello" {
			t.Fatalf("%+v %v", r, err)
		}
	}
	mu.Lock()
	defer mu.Unlock()
	if !slices.Equal(sent, []float64{8192, 4096, 4096}) {
		t.Errorf("max_tokens sent %v, want 8192, then 4096 and 4096", sent)
	}
}
