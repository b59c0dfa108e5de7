// Package fakellm is an HTTP server that speaks the Anthropic Messages API and
// the OpenAI Chat Completions API well enough for the official SDKs to talk to
// it, answering from a script.Script. It is for tests only: wire tests of the
// providers, end-to-end tests of the parley binary (point ANTHROPIC_BASE_URL at
// AnthropicURL, OPENAI_BASE_URL at OpenAIURL) and benchmarks (WithTokenDelay).
//
// Usage is reported as the real APIs report it (see usage.go): every input
// part counted at about four characters a token, and prompt caching simulated,
// explicit for Anthropic and automatic for OpenAI. A scripted reply that gives
// its own usage is reported as given.
//
// Both APIs are served from one server:
//
//	POST /v1/messages          Anthropic, streaming (SSE) and not
//	POST /v1/chat/completions  OpenAI, streaming (SSE) and not
//	POST /openai/deployments/NAME/chat/completions?api-version=V
//	                           Azure OpenAI: the same API, the key in an
//	                           api-key header, NAME the model
//
// The request's X-Parley-Turn header becomes llm.Request.Tag, which scripts
// match on. Faults are answered with the status codes, headers and error bodies
// the real APIs use, so that the providers' error mapping is tested against
// the real shapes. Every request is recorded (see Requests) for assertions on
// what a provider sent.
package fakellm

import (
	"bytes"
	"compress/gzip"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"net/url"
	"strings"
	"sync"
	"sync/atomic"
	"time"
	"unicode/utf8"

	"github.com/parleyhq/parley/internal/llm"
	"github.com/parleyhq/parley/internal/llm/script"
)

// TagHeader carries llm.Request.Tag from the providers to the server.
const TagHeader = "X-Parley-Turn"

// Request is one recorded request.
type Request struct {
	API    string      // "anthropic" or "openai"
	Path   string      // URL path
	Header http.Header // as received
	Body   []byte      // raw JSON body
	Stream bool        // the request asked for SSE
	// Parsed is the request in Parley's terms, as the Script saw it. For OpenAI
	// requests CacheSystem is set, to model OpenAI's automatic prefix caching.
	Parsed llm.Request
	Rule   string // the rule that answered; "" when none did
	// StrictRefusal is the message the server answered a schema with
	// under WithStrictSchemaCheck (an OpenAI strict schema, an Anthropic
	// output_config.format); "" when it took the schema.
	StrictRefusal string
}

// Option configures a Server.
type Option func(*Server)

// WithAPIKey makes the server refuse, with the API's real 401 answer, requests
// whose key (x-api-key, or Authorization: Bearer) is not key.
func WithAPIKey(key string) Option { return func(s *Server) { s.apiKey = key } }

// WithClock sets the clock the prompt cache uses to expire prefixes.
func WithClock(now func() time.Time) Option { return func(s *Server) { s.now = now } }

// WithTokenDelay waits d before each SSE event after the first, to model
// generation latency in benchmarks and to give cancellation tests a stream in
// flight.
func WithTokenDelay(d time.Duration) Option { return func(s *Server) { s.tokenDelay = d } }

// WithoutUsage makes the OpenAI endpoint ignore stream_options.include_usage
// and send no token counts in a stream, as LM Studio, older Ollama and some
// proxies do.
func WithoutUsage() Option { return func(s *Server) { s.noUsage = true } }

// WithRejectedParams makes the server refuse a request that carries any of
// the named fields, with the answer a real server gives. The OpenAI
// endpoint refuses top-level fields (see rejectParam): Groq's answer to
// stream_options, an older Azure API version's to max_completion_tokens,
// OpenAI's reasoning models' to max_tokens and temperature, DeepSeek's to
// response_format, Ollama's to tools, OpenAI's wording for any other
// field; "strict" is refused where it is set, in the json_schema response
// format or a tool's function (see rejectStrict). The Anthropic endpoint answers as the API does to a field it does
// not know ("output_config: Extra inputs are not permitted"), for a
// top-level field or for cache_control anywhere. The refused request is
// recorded, with Rule "".
func WithRejectedParams(fields ...string) Option {
	return func(s *Server) { s.rejected = append(s.rejected, fields...) }
}

// WithStrictSchemaCheck makes the OpenAI endpoint check the schema of a
// json_schema response format with strict true as OpenAI's API does, and
// refuse one that strict mode does not take with the API's answer (see
// strictSchemaError and package strictschema, which has the rules: every
// object sets additionalProperties false and lists every property in
// required, no composition keywords, the root an object, the size limits,
// and for a fine-tuned model no length, range or pattern keywords). The
// Anthropic endpoint checks the schema of output_config.format as
// Anthropic's API does (see anthropicSchemaError and
// strictschema.CheckAnthropic: every object sets additionalProperties
// false, no range, length or item-count keywords, no oneOf).
func WithStrictSchemaCheck() Option { return func(s *Server) { s.strictCheck = true } }

// WithBOM makes the server start every response body with a UTF-8 byte
// order mark, as servers and proxies built on .NET (Encoding.UTF8 writes
// one) and some Windows gateways do: before the first event of a stream,
// before a JSON body, before an error.
func WithBOM() Option { return func(s *Server) { s.bom = true } }

// WithErrorField makes the OpenAI endpoint send an error inside a stream
// as llama.cpp's server does: an "error:" line holding llama.cpp's error
// object ({"code":500,"message":...,"type":"server_error"}), a field the
// SSE spec does not know, rather than a data: event.
func WithErrorField() Option { return func(s *Server) { s.errorField = true } }

// WithFinishReason makes the OpenAI endpoint stop every streamed reply
// that is not a fault half way through its text, with finish_reason
// reason: what a server sends when it gave up on a generation without an
// error event. vLLM says "abort" (the engine aborted the request: a
// preemption, a failed KV transfer, a shutdown), DeepSeek
// "insufficient_system_resource" (its inference system ran short). The
// Anthropic endpoint stops a streamed text reply so too, as vLLM's
// /v1/messages does: with the stop_reason its table maps reason to, null
// for the words it has none for ("abort").
func WithFinishReason(reason string) Option { return func(s *Server) { s.finishReason = reason } }

// WithRateLimitHeaders makes the server answer a 429 with no Retry-After
// but the state of the rate limits in headers, the request limit spent
// and its reset the fault's RetryAfter seconds away: the OpenAI endpoint
// in x-ratelimit-* headers, as OpenAI's API does
// ("x-ratelimit-reset-requests: 2s", a Go duration), the Anthropic one in
// anthropic-ratelimit-* headers, as Anthropic's API describes them
// ("anthropic-ratelimit-requests-reset", an RFC 3339 time), as a
// compatible gateway that passes them on without Retry-After sends them.
func WithRateLimitHeaders() Option { return func(s *Server) { s.rateLimitHeaders = true } }

// WithKeepAlive makes the server open a stream at once and, while the
// reply's Delay runs, send an SSE comment line (": keep-alive") every
// interval, as DeepSeek and OpenRouter do while a request waits for the
// model, on both endpoints.
func WithKeepAlive(interval time.Duration) Option { return func(s *Server) { s.keepAlive = interval } }

// WithRedirect makes the server answer every request with a redirect, of
// status (301, 302, 307, 308), to the same path under base, as a server
// does whose address moved, or that sends http:// to https://. Nothing
// else is answered or recorded.
func WithRedirect(status int, base string) Option {
	return func(s *Server) { s.redirect, s.redirectTo = status, strings.TrimRight(base, "/") }
}

// WithoutStreaming makes the server answer every request whole (a
// chat.completion object, an Anthropic Message), with Content-Type
// application/json, whether or not it asked for a stream: what servers
// and proxies that ignore "stream": true send (LiteLLM routes and
// gateways that buffer, llama.cpp's server for some requests, DeepSeek's
// compatible proxies).
func WithoutStreaming() Option { return func(s *Server) { s.noStreaming = true } }

// WithGzip makes the server compress every response body with gzip
// (Content-Encoding: gzip) for a client that accepts it, as proxies and
// gateways in front of model servers (nginx with gzip on, Cloudflare) do,
// flushing the compressor after each event so that a stream still
// arrives as it is written.
func WithGzip() Option { return func(s *Server) { s.gzip = true } }

// acceptsGzip reports whether a request's Accept-Encoding takes gzip.
func acceptsGzip(h http.Header) bool {
	for _, v := range h.Values("Accept-Encoding") {
		for part := range strings.SplitSeq(v, ",") {
			name, q, _ := strings.Cut(strings.TrimSpace(part), ";")
			if strings.EqualFold(strings.TrimSpace(name), "gzip") && strings.ReplaceAll(q, " ", "") != "q=0" {
				return true
			}
		}
	}
	return false
}

// gzipWriter compresses a response body with gzip.
type gzipWriter struct {
	http.ResponseWriter
	zw      *gzip.Writer
	started bool
}

func (g *gzipWriter) WriteHeader(status int) {
	if !g.started {
		g.started = true
		g.Header().Set("Content-Encoding", "gzip")
		g.Header().Del("Content-Length")
	}
	g.ResponseWriter.WriteHeader(status)
}

func (g *gzipWriter) Write(p []byte) (int, error) {
	if !g.started {
		g.WriteHeader(http.StatusOK)
	}
	return g.zw.Write(p)
}

// Flush sends what was written so far: the compressor's pending bytes
// (a sync flush), then the connection's.
func (g *gzipWriter) Flush() {
	_ = g.zw.Flush()
	if f, ok := g.ResponseWriter.(http.Flusher); ok {
		f.Flush()
	}
}

// close ends the gzip stream of a response that wrote one.
func (g *gzipWriter) close() {
	if g.started {
		_ = g.zw.Close()
	}
}

// WithPauseTurn makes the Anthropic endpoint pause every text reply
// pauses times, as the API pauses a long turn (a server tool's loop): a
// part of the text, then stop_reason "pause_turn". A request that sends
// the paused content back as its last, assistant, message, as the API
// asks, is answered with the next part, the last with the reply's own
// stop reason (and its tool calls); one whose last message is not the
// paused content gets a 400 naming what came.
func WithPauseTurn(pauses int) Option { return func(s *Server) { s.pauses = pauses } }

// WithFunctionCall makes the OpenAI endpoint send a streamed reply's tool
// call in the deprecated function_call delta (its name, then its
// arguments in pieces) with finish_reason "function_call", as servers
// from before tool_calls and older Azure API versions do: one call a
// reply, without an ID; a reply with more sends the first.
func WithFunctionCall() Option { return func(s *Server) { s.functionCall = true } }

// WithNDJSON makes the OpenAI endpoint frame a streamed reply as
// line-delimited JSON rather than server-sent events: each chunk object on
// a line of its own, with no "data:" field and no closing "data: [DONE]",
// under Content-Type application/x-ndjson, as gateways that re-frame a
// stream and servers that speak their own line-delimited format do when
// asked for "stream": true. An error in the stream is a line of its own
// ({"error": {...}}).
func WithNDJSON() Option { return func(s *Server) { s.ndjson = true } }

// WithHeldOpen makes the server keep a stream open after its last event,
// until the client goes, rather than end the body, and leave out the
// event that ends the stream, as proxies that do not pass the end of the
// upstream stream on do: on the OpenAI endpoint "data: [DONE]" (the
// finish_reason, and the usage when asked for, having come), on the
// Anthropic one message_stop (message_delta, with the stop_reason and
// the counts, having come).
func WithHeldOpen() Option { return func(s *Server) { s.holdOpen = true } }

// FailAtEnd is how WithFailAtEnd ends a stream whose reply came whole.
type FailAtEnd string

const (
	// FailWithError sends the API's in-stream error event for a 529
	// (Anthropic's overloaded_error), or a 503 error chunk (OpenAI), as
	// the Anthropic streaming docs say the API may do.
	FailWithError FailAtEnd = "error"
	// FailWithCut drops the connection.
	FailWithCut FailAtEnd = "cut"
)

// WithFailAtEnd makes the server end every stream, after its reply came
// whole (the finish_reason and the counts when asked for; the
// message_delta with the stop_reason and the counts), with how instead of
// the event that ends it ("data: [DONE]", message_stop): the reply is
// whole, and a client that fails the call pays for it twice.
func WithFailAtEnd(how FailAtEnd) Option { return func(s *Server) { s.failAtEnd = how } }

// WithoutBlockStops makes the Anthropic endpoint send no
// content_block_stop events: a block's last delta is followed by the
// next block's start or by message_delta, as compatible servers and
// proxies that translate another API's stream into this one send it.
func WithoutBlockStops() Option { return func(s *Server) { s.noStops = true } }

// UsageShape is how the OpenAI endpoint reports a reply's token counts.
type UsageShape int

const (
	// UsageOpenAI is OpenAI's: prompt_tokens counts every input token,
	// the cached ones also in prompt_tokens_details.cached_tokens, in a
	// last chunk with no choice when the request asked for it.
	UsageOpenAI UsageShape = iota
	// UsageDeepSeek is DeepSeek's: the cached tokens in its own
	// prompt_cache_hit_tokens (and the rest in prompt_cache_miss_tokens),
	// with no prompt_tokens_details.
	UsageDeepSeek
	// UsageMoonshot is Moonshot's (Kimi): the counts inside the finish
	// chunk's choice (choices[0].usage), not beside it, with the cached
	// tokens in a cached_tokens of its own.
	UsageMoonshot
	// UsageGemini is a Gemini model's behind an OpenAI-compatible
	// layer: its thinking (here half the output tokens) reported in
	// completion_tokens_details.reasoning_tokens and in total_tokens but
	// left out of completion_tokens, which counts the visible answer
	// alone.
	UsageGemini
	// UsageOpenRouter is OpenRouter's: OpenAI's counts plus what the call
	// cost in USD (usage.cost, here OpenRouterCost of the counts), with
	// is_byok false and cost_details.
	UsageOpenRouter
	// UsageZeros is a usage object whose counts are all 0, as LocalAI
	// sends for a request with tools and gateways (one-api and its
	// forks) send for every stream they relay: counts that were never
	// filled in, not a free call. The Anthropic endpoint sends its
	// counts all 0 too, as such a gateway's /v1/messages does.
	UsageZeros
)

// OpenRouterCost is the cost UsageOpenRouter reports for u: a made-up
// rate of $1 per million input tokens, $0.10 per million cached and $4
// per million output, so that tests can tell it from any real price.
func OpenRouterCost(u llm.Usage) float64 {
	return (float64(u.InputTokens+u.CacheWriteTokens)*1 + float64(u.CacheReadTokens)*0.1 + float64(u.OutputTokens)*4) / 1e6
}

// WithUsageShape makes the OpenAI endpoint report token counts in shape.
func WithUsageShape(shape UsageShape) Option { return func(s *Server) { s.usageShape = shape } }

// WithLineEnd makes the server end the lines of its event streams with
// eol: "\r\n", as servers on .NET and some proxies do, or a lone "\r",
// which the SSE spec allows as well. The default is "\n".
func WithLineEnd(eol string) Option { return func(s *Server) { s.eol = eol } }

// ThinkForm is how a server without a reasoning parser sends a reasoning
// model's thinking: in the reply's text (OpenAI content, Anthropic text
// blocks), before the answer.
type ThinkForm int

const (
	// ThinkNone sends no reasoning.
	ThinkNone ThinkForm = iota
	// ThinkOpen sends "<think>\n…\n</think>\n\n" before the answer: the
	// model opens the block itself.
	ThinkOpen
	// ThinkOrphan sends "…\n</think>\n\n" before the answer: the chat
	// template opened the block at the end of the prompt (DeepSeek-R1 and
	// its distills, QwQ, Qwen3 thinking models), so the reply holds only
	// the closing tag, as vLLM without --reasoning-parser sends it.
	ThinkOrphan
)

// WithThinkInText makes the server send a reasoning model's thinking in
// the reply's text, in form, before every reply that is not a refusal or
// a forced tool: on the OpenAI endpoint as vLLM or llama.cpp without a
// reasoning parser does, on the Anthropic one as vLLM's /v1/messages or a
// proxy (LiteLLM) in front of such a model does. The reasoning quotes a
// JSON object, as models do when asked for one, to mislead a client that
// takes the first object of the text for the answer.
func WithThinkInText(form ThinkForm) Option { return func(s *Server) { s.think = form } }

// ToolTextForm is how a server with no tool-call parser for a model sends
// the model's tool calls: as the text of the answer, in the model's own
// format, with finish_reason "stop".
type ToolTextForm int

const (
	// ToolTextNone sends tool calls as tool calls.
	ToolTextNone ToolTextForm = iota
	// ToolTextHermes: "<tool_call>\n{"name": ..., "arguments": {...}}\n</tool_call>"
	// per call, as Qwen 2.5/3 and Hermes models write them (llama.cpp
	// without --jinja, vLLM without --tool-call-parser hermes).
	ToolTextHermes
	// ToolTextPythonTag: "<|python_tag|>{"name": ..., "parameters": {...}}",
	// calls separated by "; ", as Llama 3.1 writes them when the server
	// keeps special tokens.
	ToolTextPythonTag
	// ToolTextLlamaJSON: the bare {"type": "function", "name": ...,
	// "parameters": {...}} that Llama 3.x's template asks for (vLLM
	// without --tool-call-parser llama3_json, Ollama raw templates).
	ToolTextLlamaJSON
	// ToolTextJSON: the bare {"name": ..., "arguments": {...}}, as LM
	// Studio and llama.cpp's generic format pass it on.
	ToolTextJSON
	// ToolTextMistral: "[TOOL_CALLS][{"name": ..., "arguments": {...}}]",
	// as Mistral models write them (vLLM without --tool-call-parser
	// mistral).
	ToolTextMistral
	// ToolTextFunctionTag: "<function=NAME>{...}</function>" per call,
	// a line each, the custom tool format Llama 3.1's system prompt can
	// ask for (llama.cpp or vLLM applying such a template without a
	// parser for it).
	ToolTextFunctionTag
	// ToolTextPythonic: "[NAME(key="value", n=3), ...]", the arguments
	// Python literals, as Llama 3.2 and 4 write them (vLLM without
	// --tool-call-parser pythonic).
	ToolTextPythonic
	// ToolTextFence: the bare {"name": ..., "arguments": {...}} (an
	// array of them for several) in a ```json Markdown code fence, as
	// chat-tuned models without a tool template write a call.
	ToolTextFence
	// ToolTextLlama4: the pythonic list in Llama 4's special tokens,
	// "<|python_start|>[NAME(...)]<|python_end|>", as a server that keeps
	// them passes it on (vLLM without --tool-call-parser llama4_pythonic).
	ToolTextLlama4
)

// WithToolCallsInText makes the server send a reply's tool calls, to a
// request that offered tools, as the answer's text in form, after the
// reply's own text, ending as a plain answer (finish_reason "stop",
// stop_reason "end_turn"): what a server that accepts tools but has no
// parser for the model's format sends, on its OpenAI endpoint or (vLLM's
// /v1/messages, a proxy in front of one) its Anthropic one.
func WithToolCallsInText(form ToolTextForm) Option { return func(s *Server) { s.toolText = form } }

// toolText writes calls as a model in form does.
func toolText(form ToolTextForm, calls []llm.ToolCall) string {
	var parts []string
	for _, c := range calls {
		name, _ := json.Marshal(c.Name)
		args := string(c.Args)
		if args == "" {
			args = "{}"
		}
		switch form {
		case ToolTextHermes:
			parts = append(parts, fmt.Sprintf("<tool_call>\n{\"name\": %s, \"arguments\": %s}\n</tool_call>", name, args))
		case ToolTextPythonTag, ToolTextLlamaJSON:
			parts = append(parts, fmt.Sprintf("{\"type\": \"function\", \"name\": %s, \"parameters\": %s}", name, args))
		case ToolTextFunctionTag:
			parts = append(parts, fmt.Sprintf("<function=%s>%s</function>", c.Name, args))
		case ToolTextPythonic, ToolTextLlama4:
			parts = append(parts, c.Name+"("+pyArgs(args)+")")
		default:
			parts = append(parts, fmt.Sprintf("{\"name\": %s, \"arguments\": %s}", name, args))
		}
	}
	switch form {
	case ToolTextHermes:
		return strings.Join(parts, "\n")
	case ToolTextPythonTag:
		return "<|python_tag|>" + strings.Join(parts, "; ")
	case ToolTextLlamaJSON:
		return strings.Join(parts, "; ")
	case ToolTextMistral:
		return "[TOOL_CALLS][" + strings.Join(parts, ", ") + "]"
	case ToolTextFunctionTag:
		return strings.Join(parts, "\n")
	case ToolTextPythonic:
		return "[" + strings.Join(parts, ", ") + "]"
	case ToolTextLlama4:
		return "<|python_start|>[" + strings.Join(parts, ", ") + "]<|python_end|>"
	case ToolTextFence:
		return "```json\n" + toolText(ToolTextJSON, calls) + "\n```"
	}
	if len(parts) > 1 {
		return "[" + strings.Join(parts, ", ") + "]"
	}
	return strings.Join(parts, "")
}

// pyArgs writes a call's JSON arguments as Python keyword arguments, in
// their order, the values Python literals: JSON's strings, as Go writes
// them, are Python string literals of the same text.
func pyArgs(args string) string {
	dec := json.NewDecoder(strings.NewReader(args))
	dec.UseNumber()
	var b strings.Builder
	if t, err := dec.Token(); err != nil || t != json.Delim('{') {
		return "" // arguments are an object: a script's are checked
	}
	for n := 0; dec.More(); n++ {
		k, _ := dec.Token()
		if n > 0 {
			b.WriteString(", ")
		}
		fmt.Fprintf(&b, "%s=", k)
		pyValue(dec, &b)
	}
	return b.String()
}

// pyValue writes the next JSON value of dec as a Python literal.
func pyValue(dec *json.Decoder, b *strings.Builder) {
	t, err := dec.Token()
	if err != nil {
		return
	}
	switch v := t.(type) {
	case json.Delim:
		closing := "]"
		if v == '{' {
			closing = "}"
		}
		b.WriteString(v.String())
		for n := 0; dec.More(); n++ {
			if n > 0 {
				b.WriteString(", ")
			}
			if v == '{' {
				k, _ := dec.Token()
				q, _ := json.Marshal(k)
				b.Write(q)
				b.WriteString(": ")
			}
			pyValue(dec, b)
		}
		_, _ = dec.Token()
		b.WriteString(closing)
	case string:
		q, _ := json.Marshal(v)
		b.Write(q)
	case json.Number:
		b.WriteString(v.String())
	case bool:
		b.WriteString(map[bool]string{true: "True", false: "False"}[v])
	case nil:
		b.WriteString("None")
	}
}

// Server answers model API requests from a Script. The zero value is not
// usable; use New or Start.
type Server struct {
	// URL is the root URL of a started server (empty for one made with New).
	URL string

	script      *script.Script
	apiKey      string
	tokenDelay  time.Duration
	noUsage     bool
	noStreaming bool
	gzip        bool
	holdOpen    bool
	failAtEnd   FailAtEnd
	noStops     bool
	ndjson      bool
	pauses      int
	// functionCall sends OpenAI tool calls as function_call deltas
	// (WithFunctionCall).
	functionCall bool
	rejected     []string
	strictCheck  bool
	bom          bool
	eol          string
	errorField   bool
	// finishReason ends OpenAI streams early (WithFinishReason).
	finishReason string
	usageShape   UsageShape
	// rateLimitHeaders sends OpenAI's x-ratelimit-* headers with a 429
	// rather than Retry-After (WithRateLimitHeaders).
	rateLimitHeaders bool
	// keepAlive is the interval of the comments sent while a stream
	// waits for its reply (WithKeepAlive); 0 for none.
	keepAlive time.Duration
	// redirect and redirectTo answer every request with a redirect
	// (WithRedirect).
	redirect   int
	redirectTo string
	think      ThinkForm
	toolText   ToolTextForm
	now        func() time.Time
	ts         *httptest.Server
	cache      promptCache

	mu     sync.Mutex
	reqs   []Request
	ids    int
	active atomic.Int64
}

// New returns a Server that is only an http.Handler, for callers that run
// their own listener.
func New(s *script.Script, opts ...Option) *Server {
	srv := &Server{script: s, now: time.Now}
	for _, o := range opts {
		o(srv)
	}
	return srv
}

// Start runs a Server on 127.0.0.1 on a free port. Close it when done.
func Start(s *script.Script, opts ...Option) *Server {
	srv := New(s, opts...)
	srv.ts = httptest.NewServer(srv)
	srv.URL = srv.ts.URL
	return srv
}

// Close shuts a started server down, cutting open connections.
func (s *Server) Close() {
	if s.ts != nil {
		s.ts.CloseClientConnections()
		s.ts.Close()
	}
}

// AnthropicURL is the base URL for the Anthropic SDK (ANTHROPIC_BASE_URL).
func (s *Server) AnthropicURL() string { return s.URL }

// OpenAIURL is the base URL for the OpenAI SDK (OPENAI_BASE_URL).
func (s *Server) OpenAIURL() string { return s.URL + "/v1" }

// AzureURL is the base URL of an Azure OpenAI deployment on this server,
// as Azure's portal gives it (OPENAI_BASE_URL): the deployment's path with
// the API version as a query.
func (s *Server) AzureURL(deployment, apiVersion string) string {
	return s.URL + "/openai/deployments/" + url.PathEscape(deployment) + "?api-version=" + url.QueryEscape(apiVersion)
}

// Requests returns a copy of the requests received so far, in order.
func (s *Server) Requests() []Request {
	s.mu.Lock()
	defer s.mu.Unlock()
	return append([]Request(nil), s.reqs...)
}

// Active is the number of requests being answered right now. Tests use it to
// check that a client that stopped reading released its connection.
func (s *Server) Active() int { return int(s.active.Load()) }

// ServeHTTP implements http.Handler.
func (s *Server) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	s.active.Add(1)
	defer s.active.Add(-1)
	if s.redirect != 0 {
		http.Redirect(w, r, s.redirectTo+r.URL.RequestURI(), s.redirect)
		return
	}
	if s.gzip && acceptsGzip(r.Header) {
		gw := &gzipWriter{ResponseWriter: w, zw: gzip.NewWriter(w)}
		defer gw.close()
		w = gw
	}
	if s.bom {
		w = &bomWriter{ResponseWriter: w}
	}
	var api wireAPI
	deployment := ""
	switch r.URL.Path {
	case "/v1/messages":
		api = anthropicAPI{}
	case "/v1/chat/completions":
		api = openaiAPI{}
	default:
		d, ok := azureDeployment(r.URL.Path)
		if !ok {
			http.Error(w, fmt.Sprintf("fakellm: no endpoint %s (serving /v1/messages, /v1/chat/completions and /openai/deployments/NAME/chat/completions)", r.URL.Path), http.StatusNotFound)
			return
		}
		if r.URL.Query().Get("api-version") == "" {
			// Azure answers a call without its API version as a path
			// it does not know.
			writeJSON(w, http.StatusNotFound, map[string]any{"error": map[string]any{"code": "404", "message": "Resource not found"}})
			return
		}
		api, deployment = openaiAPI{azure: true}, d
	}
	if r.Method != http.MethodPost {
		api.writeError(w, http.StatusMethodNotAllowed, "", "method not allowed: use POST")
		return
	}
	body, err := io.ReadAll(r.Body)
	if err != nil {
		api.writeError(w, http.StatusBadRequest, "", "cannot read body: "+err.Error())
		return
	}
	rec := Request{API: api.name(), Path: r.URL.Path, Header: r.Header.Clone(), Body: body}
	if s.apiKey != "" && !api.keyOK(r.Header, s.apiKey) {
		s.record(rec)
		api.writeAuthError(w, r.Header)
		return
	}
	reject := rejectParam
	if api.name() == "anthropic" {
		reject = rejectAnthropicParam
	}
	if status, answer := reject(body, s.rejected); status != 0 {
		s.record(rec)
		writeJSON(w, status, answer)
		return
	}
	if s.strictCheck {
		schemaError := strictSchemaError
		if api.name() == "anthropic" {
			schemaError = anthropicSchemaError
		}
		if status, answer := schemaError(body); status != 0 {
			rec.StrictRefusal = answer["error"].(map[string]any)["message"].(string)
			s.record(rec)
			writeJSON(w, status, answer)
			return
		}
	}
	parsed, mode, stream, err := api.parse(r.Header, body)
	asked := stream
	stream = stream && !s.noStreaming
	if deployment != "" {
		// The deployment decides which model answers, whatever the body
		// names.
		parsed.Model = deployment
	}
	rec.Parsed, rec.Stream = parsed, asked
	if err != nil {
		s.record(rec)
		api.writeError(w, http.StatusBadRequest, "", err.Error())
		return
	}
	step, err := s.script.Next(parsed)
	if err != nil {
		s.record(rec)
		api.writeError(w, http.StatusBadRequest, "", "fakellm: "+err.Error())
		return
	}
	rec.Rule = step.Rule
	s.record(rec)
	if s.pauses > 0 && api.name() == "anthropic" && step.Fault == nil && mode.forcedTool == "" && step.Text != "" {
		st, err := pausedPart(step, parsed, s.pauses)
		if err != nil {
			api.writeError(w, http.StatusBadRequest, "invalid_request_error", "fakellm: "+err.Error())
			return
		}
		step = st
	}
	if !step.UsageGiven && step.Fault == nil {
		// Report usage as the provider would: every input part counted, and
		// the prompt cache simulated (see usage.go).
		st := *step
		st.Usage = s.cache.usage(parsed, api.cacheMode(), s.now(), outputTokens(st.Text, st.ToolCalls))
		if s.usageShape == UsageZeros {
			st.Usage = llm.Usage{}
		}
		step = &st
	}

	started := false
	if s.keepAlive > 0 && stream && (step.Fault == nil || step.Fault.Stream != "") {
		// The stream opens at once and waits for the model with comment
		// lines.
		w.Header().Set("Content-Type", "text/event-stream")
		w.Header().Set("Cache-Control", "no-cache")
		w.WriteHeader(http.StatusOK)
		started = true
		if !keepAlive(r.Context(), w, step.Delay, s.keepAlive) {
			return
		}
	} else if !sleep(r.Context(), step.Delay) {
		return
	}
	if f := step.Fault; f != nil && f.Stream == "" {
		if f.Status >= 200 && f.Status < 300 {
			// A success with no body, where the reply was due; a 200
			// says it is the stream, which then ends at once.
			if f.Status == http.StatusOK {
				w.Header().Set("Content-Type", "text/event-stream")
			}
			w.WriteHeader(f.Status)
			return
		}
		switch {
		case s.rateLimitHeaders && f.Status == http.StatusTooManyRequests && api.name() == "openai":
			rateLimitHeaders(w.Header(), f.RetryAfter)
		case s.rateLimitHeaders && f.Status == http.StatusTooManyRequests:
			anthropicRateLimitHeaders(w.Header(), f.RetryAfter, s.now())
		case f.RetryAfter != "":
			w.Header().Set("Retry-After", f.RetryAfter)
		}
		api.writeError(w, f.Status, f.Type, faultMessage(f))
		return
	}
	if s.noUsage {
		mode.includeUsage = false
	}
	if s.think != ThinkNone && step.StopReason != llm.StopRefusal && mode.forcedTool == "" {
		st := *step
		st.Text = reasoning(s.think, parsed) + st.Text
		step = &st
	}
	if s.toolText != ToolTextNone && len(step.ToolCalls) > 0 && len(parsed.Tools) > 0 && mode.forcedTool == "" {
		st := *step
		if st.Text != "" {
			st.Text += "\n\n"
		}
		st.Text += toolText(s.toolText, st.ToolCalls)
		st.ToolCalls, st.StopReason = nil, llm.StopEnd
		step = &st
	}
	a := answer{Step: step, ID: s.nextID(), Model: parsed.Model, Mode: mode, Finish: s.finishReason, UsageShape: s.usageShape, FunctionCall: s.functionCall}
	if !stream {
		api.writeJSON(w, a)
		return
	}
	ndjson := s.ndjson && api.name() == "openai"
	if !started {
		w.Header().Set("Content-Type", "text/event-stream")
		if ndjson {
			w.Header().Set("Content-Type", "application/x-ndjson")
		}
		w.Header().Set("Cache-Control", "no-cache")
		w.WriteHeader(http.StatusOK)
	}
	sw := &sseWriter{w: w, ctx: r.Context(), delay: s.tokenDelay, eol: s.eol, errorField: s.errorField, holdOpen: s.holdOpen, noBlockStops: s.noStops,
		anthropic: api.name() == "anthropic", ndjson: ndjson, failAtEnd: s.failAtEnd}
	api.writeStream(sw, a)
	if s.holdOpen && !sw.dead {
		<-r.Context().Done()
	}
}

// pausedPart is the part of step's reply that answers req under
// WithPauseTurn: the first when req's last message is the user's, the
// next after the paused content req sends back as its last message. The
// text is cut before a space, so that no part but the last ends with
// white space, which the API refuses at the end of an assistant message.
func pausedPart(step *script.Step, req llm.Request, pauses int) (*script.Step, error) {
	var parts []string
	words := script.Split(step.Text)
	per := max(len(words)/(pauses+1), 1)
	for i := 0; i < len(words); i += per {
		if len(parts) == pauses {
			parts = append(parts, strings.Join(words[i:], ""))
			break
		}
		parts = append(parts, strings.Join(words[i:min(i+per, len(words))], ""))
	}
	// Move each part's trailing white space to the start of the next.
	for i := 0; i < len(parts)-1; i++ {
		t := strings.TrimRight(parts[i], " \t\n")
		parts[i+1] = parts[i][len(t):] + parts[i+1]
		parts[i] = t
	}
	sent := ""
	if n := len(req.Messages); n > 0 && req.Messages[n-1].Role == llm.RoleAssistant {
		sent = req.Messages[n-1].Text
	}
	k, done := 0, 0
	for k < len(parts)-1 && done < len(sent) {
		done += len(parts[k])
		k++
	}
	if done != len(sent) || step.Text[:done] != sent {
		return nil, fmt.Errorf("the last message is not the paused turn's content: got %q, want one of the reply's paused parts", sent)
	}
	st := *step
	st.Text = parts[k]
	if k < len(parts)-1 {
		st.ToolCalls, st.StopReason = nil, stopPauseTurn
	}
	return &st, nil
}

// stopPauseTurn is the Anthropic stop_reason of a paused turn, which has
// no llm word: a Step's StopReason holds it for the encoder.
const stopPauseTurn = "pause_turn"

// azureDeployment returns the deployment an Azure OpenAI chat
// completions path names: /openai/deployments/NAME/chat/completions.
func azureDeployment(path string) (string, bool) {
	rest, ok := strings.CutPrefix(path, "/openai/deployments/")
	if !ok {
		return "", false
	}
	d, ok := strings.CutSuffix(rest, "/chat/completions")
	return d, ok && d != "" && !strings.Contains(d, "/")
}

// bomWriter writes a UTF-8 byte order mark before the first byte of the
// body.
type bomWriter struct {
	http.ResponseWriter
	wrote bool
}

func (b *bomWriter) Write(p []byte) (int, error) {
	if !b.wrote {
		b.wrote = true
		if _, err := b.ResponseWriter.Write([]byte("\uFEFF")); err != nil {
			return 0, err
		}
	}
	return b.ResponseWriter.Write(p)
}

// Flush passes on a flush, so that each event of a stream is sent as it
// is written.
func (b *bomWriter) Flush() {
	if f, ok := b.ResponseWriter.(http.Flusher); ok {
		f.Flush()
	}
}

// reasoning is what a reasoning model thinks before it answers req, in
// form.
func reasoning(form ThinkForm, req llm.Request) string {
	var last string
	if n := len(req.Messages); n > 0 {
		last = req.Messages[n-1].Text
	}
	if len(last) > 40 {
		last = last[:40]
	}
	r := fmt.Sprintf("Okay, the user says %q. If they want JSON it looks like {\"answer\": \"...\"}. Let me answer.\n</think>\n\n", last)
	if form == ThinkOpen {
		r = "<think>\n" + r
	}
	return r
}

func (s *Server) record(r Request) {
	s.mu.Lock()
	s.reqs = append(s.reqs, r)
	s.mu.Unlock()
}

func (s *Server) nextID() int {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.ids++
	return s.ids
}

// answer is a Step plus what the wire encoders need to send it.
type answer struct {
	*script.Step
	ID    int
	Model string
	Mode  structuredMode
	// Finish, when set, ends an OpenAI stream half way with this
	// finish_reason (WithFinishReason).
	Finish string
	// UsageShape is how the OpenAI endpoint reports the counts.
	UsageShape UsageShape
	// FunctionCall sends a tool call as a function_call delta
	// (WithFunctionCall).
	FunctionCall bool
}

// structuredMode holds the wire details of how a request wants its answer.
type structuredMode struct {
	forcedTool   string // Anthropic: name of the tool forced by tool_choice; "" when output_config was used or none
	includeUsage bool   // OpenAI: stream_options.include_usage
}

// wireAPI is one of the two wire formats.
type wireAPI interface {
	name() string
	cacheMode() cacheMode
	keyOK(h http.Header, key string) bool
	parse(h http.Header, body []byte) (llm.Request, structuredMode, bool, error)
	writeError(w http.ResponseWriter, status int, errType, msg string)
	writeAuthError(w http.ResponseWriter, h http.Header)
	writeJSON(w http.ResponseWriter, a answer)
	writeStream(sw *sseWriter, a answer)
}

// sseWriter writes server-sent events, pausing between them.
type sseWriter struct {
	w     http.ResponseWriter
	ctx   context.Context
	delay time.Duration
	eol   string // line end; "" for "\n"
	// errorField sends OpenAI stream errors on an "error:" line
	// (WithErrorField).
	errorField bool
	// holdOpen leaves out the event that ends a stream (WithHeldOpen).
	holdOpen bool
	// failAtEnd replaces the event that ends a stream (WithFailAtEnd).
	failAtEnd FailAtEnd
	// anthropic is set for a stream of the Anthropic endpoint.
	anthropic bool
	// noBlockStops leaves out the Anthropic stream's content_block_stop
	// events (WithoutBlockStops).
	noBlockStops bool
	// ndjson writes each event's data as a line of its own (WithNDJSON).
	ndjson bool
	n      int
	dead   bool
}

// done ends a stream with its last event, "data: [DONE]" (OpenAI) or
// message_stop (Anthropic), unless it is held open.
func (sw *sseWriter) done() {
	switch {
	case sw.failAtEnd == FailWithCut:
		sw.cut()
	case sw.failAtEnd == FailWithError && sw.anthropic:
		sw.event("error", antErrorBody(529, "", "Overloaded"))
	case sw.failAtEnd == FailWithError:
		sw.event("", oaErrorBody(http.StatusServiceUnavailable, "", "The server is overloaded"))
	case sw.holdOpen:
	case sw.anthropic:
		sw.event("message_stop", map[string]any{"type": "message_stop"})
	case sw.ndjson:
		// Line-delimited JSON has no end marker: the body ends.
	default:
		sw.raw("", "[DONE]")
	}
}

// event writes one event (name may be empty) and reports whether the client is
// still there.
func (sw *sseWriter) event(name string, data any) bool {
	b, err := json.Marshal(data)
	if err != nil {
		panic(fmt.Sprintf("fakellm: encode event: %v", err)) // our own types: a bug
	}
	return sw.raw(name, string(b))
}

func (sw *sseWriter) raw(name, data string) bool {
	return sw.write("", name, data)
}

// write writes one event whose data is on a line named field ("" for
// "data").
func (sw *sseWriter) write(field, name, data string) bool {
	if sw.dead {
		return false
	}
	if sw.n > 0 && !sleep(sw.ctx, sw.delay) {
		sw.dead = true
		return false
	}
	sw.n++
	eol := sw.eol
	if eol == "" {
		eol = "\n"
	}
	var buf bytes.Buffer
	switch {
	case sw.ndjson && field == "":
		buf.WriteString(data + eol)
	case sw.ndjson:
		// An error sent on a field of its own (WithErrorField) is a
		// line of its own.
		buf.WriteString(`{"error":` + data + `}` + eol)
	default:
		if name != "" {
			buf.WriteString("event: " + name + eol)
		}
		if field == "" {
			field = "data"
		}
		buf.WriteString(field + ": " + data + eol + eol)
	}
	if _, err := sw.w.Write(buf.Bytes()); err != nil {
		sw.dead = true
		return false
	}
	if f, ok := sw.w.(http.Flusher); ok {
		f.Flush()
	}
	return true
}

// cut drops the connection without ending the response, as a dying proxy does.
func (sw *sseWriter) cut() {
	if f, ok := sw.w.(http.Flusher); ok {
		f.Flush()
	}
	panic(http.ErrAbortHandler)
}

// keepAlive waits d, writing an SSE comment line every interval, and
// reports whether the client is still there.
func keepAlive(ctx context.Context, w http.ResponseWriter, d, interval time.Duration) bool {
	end := time.Now().Add(d)
	for {
		if _, err := io.WriteString(w, ": keep-alive\n\n"); err != nil {
			return false
		}
		if f, ok := w.(http.Flusher); ok {
			f.Flush()
		}
		left := time.Until(end)
		if left <= 0 {
			return ctx.Err() == nil
		}
		if !sleep(ctx, min(interval, left)) {
			return false
		}
	}
}

func sleep(ctx context.Context, d time.Duration) bool {
	if d <= 0 {
		return ctx.Err() == nil
	}
	t := time.NewTimer(d)
	defer t.Stop()
	select {
	case <-ctx.Done():
		return false
	case <-t.C:
		return true
	}
}

func faultMessage(f *script.Fault) string {
	if f.Message != "" {
		return f.Message
	}
	return fmt.Sprintf("scripted fault: HTTP %d", f.Status)
}

// splitJSON cuts a JSON text into up to three pieces on rune boundaries, so
// that clients have to assemble tool arguments from several deltas.
func splitJSON(s string) []string {
	if len(s) < 3 {
		return []string{s}
	}
	var out []string
	step := len(s)/3 + 1
	for len(s) > 0 {
		i := min(step, len(s))
		for i < len(s) && !utf8.RuneStart(s[i]) {
			i++
		}
		out = append(out, s[:i])
		s = s[i:]
	}
	return out
}

func bearer(h http.Header) string {
	v := h.Get("Authorization")
	if t, ok := strings.CutPrefix(v, "Bearer "); ok {
		return t
	}
	return ""
}

func mask(key string) string {
	if len(key) <= 6 {
		return "***"
	}
	return key[:3] + "***" + key[len(key)-3:]
}
