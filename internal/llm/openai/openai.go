// Package openai is the llm.Provider for OpenAI's Chat Completions API and the
// servers that copy it (Ollama, vLLM, llama.cpp, LM Studio), on the official
// SDK (openai-go/v3).
//
// It streams replies with stream_options.include_usage, assembles tool calls
// from their deltas, asks for structured output with response_format
// json_schema (strict), and reports cached prompt tokens. The SDK's own
// retries are off: the runner owns retries.
//
// Token accounting follows Parley's convention (the Anthropic one):
// llm.Usage.InputTokens excludes cached tokens, which the API counts inside
// prompt_tokens; they are reported as CacheReadTokens.
package openai

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"iter"
	"net"
	"net/http"
	"net/url"
	"slices"
	"strings"

	sdk "github.com/openai/openai-go/v3"
	"github.com/openai/openai-go/v3/option"
	"github.com/openai/openai-go/v3/packages/ssestream"

	"github.com/parleyhq/parley/internal/llm"
	"github.com/parleyhq/parley/internal/llm/internal/apierr"
)

// DefaultBaseURL is the API's address when Config.BaseURL is empty.
const DefaultBaseURL = "https://api.openai.com/v1"

// TagHeader carries llm.Request.Tag. Servers ignore unknown headers; the fake
// server scripts replies by it.
const TagHeader = "X-Parley-Turn"

// Config configures a Provider.
type Config struct {
	// Name is the provider's name as shown and selected ("openai", "ollama",
	// "vllm"). Default "openai".
	Name string
	// APIKey is sent as a Bearer token. Optional: local servers need none.
	APIKey string
	// BaseURL is the API root including /v1 (OPENAI_BASE_URL). Default DefaultBaseURL.
	BaseURL string
	// HTTPClient makes the requests. Default: a client without a timeout, since
	// streams run long; bound calls with the context instead.
	HTTPClient *http.Client
	// LegacyMaxTokens sends the limit as max_tokens instead of
	// max_completion_tokens, for servers that only know the old field.
	LegacyMaxTokens bool
	// KeyEnv names the variable the key came from, for error messages.
	// Default "OPENAI_API_KEY" when APIKey is set.
	KeyEnv string
}

// ConfigFromEnv reads OPENAI_API_KEY and OPENAI_BASE_URL through getenv.
func ConfigFromEnv(getenv func(string) string) Config {
	return Config{Name: "openai", APIKey: getenv("OPENAI_API_KEY"), BaseURL: getenv("OPENAI_BASE_URL")}
}

// OllamaConfig is the Config for an Ollama server. host is OLLAMA_HOST as
// Ollama reads it ("", "127.0.0.1:11434", "0.0.0.0", "http://gpu-box:11434").
func OllamaConfig(host string) Config {
	return Config{Name: "ollama", BaseURL: OllamaBaseURL(host), LegacyMaxTokens: true}
}

// OllamaBaseURL turns OLLAMA_HOST into the base URL of Ollama's
// OpenAI-compatible API.
func OllamaBaseURL(host string) string {
	host = strings.TrimSpace(host)
	if host == "" {
		host = "127.0.0.1"
	}
	scheme := "http"
	if s, rest, ok := strings.Cut(host, "://"); ok {
		scheme, host = s, rest
	}
	host = strings.TrimRight(host, "/")
	h, port, err := net.SplitHostPort(host)
	if err != nil {
		h, port = strings.Trim(host, "[]"), "11434"
	}
	// 0.0.0.0 is what the server binds to; a client must dial something real.
	if h == "0.0.0.0" || h == "" || h == "::" {
		h = "127.0.0.1"
	}
	return (&url.URL{Scheme: scheme, Host: net.JoinHostPort(h, port), Path: "/v1"}).String()
}

// Provider streams Chat Completions calls. It is safe for concurrent use.
type Provider struct {
	chat sdk.ChatCompletionService
	cfg  Config
	errs apierr.Mapper
}

// New returns a Provider for cfg.
func New(cfg Config) (*Provider, error) {
	if cfg.Name == "" {
		cfg.Name = "openai"
	}
	if cfg.BaseURL == "" {
		cfg.BaseURL = DefaultBaseURL
	}
	cfg.BaseURL = strings.TrimRight(cfg.BaseURL, "/")
	if _, err := url.ParseRequestURI(cfg.BaseURL); err != nil {
		return nil, fmt.Errorf("%s: base URL %q: %w", cfg.Name, cfg.BaseURL, err)
	}
	if cfg.KeyEnv == "" && cfg.Name == "openai" {
		cfg.KeyEnv = "OPENAI_API_KEY"
	}
	hc := cfg.HTTPClient
	if hc == nil {
		hc = &http.Client{}
	}
	opts := []option.RequestOption{
		option.WithBaseURL(cfg.BaseURL + "/"),
		option.WithHTTPClient(hc),
		option.WithMaxRetries(0),
	}
	if cfg.APIKey != "" {
		opts = append(opts, option.WithAPIKey(cfg.APIKey))
	}
	// The service is built directly rather than through sdk.NewClient, which
	// would mix in OPENAI_* variables (a key, an organization) that belong to
	// OpenAI, not to whatever local server BaseURL names.
	return &Provider{
		chat: sdk.NewChatCompletionService(opts...),
		cfg:  cfg,
		errs: apierr.Mapper{Provider: cfg.Name, BaseURL: cfg.BaseURL, KeyEnv: cfg.KeyEnv},
	}, nil
}

// Name returns Config.Name.
func (p *Provider) Name() string { return p.cfg.Name }

// Caps reports tools and structured output. Caching is automatic on the
// server's side, so there is nothing explicit to ask for.
func (p *Provider) Caps() llm.Caps { return llm.Caps{Tools: true, JSONSchema: true} }

// Stream sends req and yields the reply as it arrives.
func (p *Provider) Stream(ctx context.Context, req llm.Request) iter.Seq2[llm.Chunk, error] {
	return func(yield func(llm.Chunk, error) bool) {
		params, err := p.params(req)
		if err != nil {
			yield(llm.Chunk{}, &llm.Error{Provider: p.Name(), Kind: llm.ErrBadRequest, Err: err})
			return
		}
		var opts []option.RequestOption
		if req.Tag != "" {
			opts = append(opts, option.WithHeader(TagHeader, req.Tag))
		}
		stream := p.chat.NewStreaming(ctx, params, opts...)
		// Closing releases the connection when the caller breaks early.
		defer stream.Close()

		var (
			usage    llm.Usage
			finish   string
			finished bool
			calls    = map[int64]*toolBuf{}
			order    []int64
		)
		for stream.Next() {
			chunk := stream.Current()
			if chunk.JSON.Usage.Valid() {
				u := chunk.Usage
				cached := int(u.PromptTokensDetails.CachedTokens)
				written := int(u.PromptTokensDetails.CacheWriteTokens)
				usage = llm.Usage{
					InputTokens:      max(int(u.PromptTokens)-cached-written, 0),
					OutputTokens:     int(u.CompletionTokens),
					CacheReadTokens:  cached,
					CacheWriteTokens: written,
				}
			}
			for _, ch := range chunk.Choices {
				if ch.Index != 0 {
					continue // n > 1 is never requested
				}
				if ch.Delta.Content != "" && !yield(llm.Chunk{Text: ch.Delta.Content}, nil) {
					return
				}
				for _, d := range ch.Delta.ToolCalls {
					tb := calls[d.Index]
					if tb == nil {
						tb = &toolBuf{}
						calls[d.Index] = tb
						order = append(order, d.Index)
					}
					if d.ID != "" {
						tb.id = d.ID
					}
					if d.Function.Name != "" {
						tb.name = d.Function.Name
					}
					tb.args.WriteString(d.Function.Arguments)
				}
				if ch.FinishReason != "" {
					finish, finished = ch.FinishReason, true
				}
			}
		}
		if err := stream.Err(); err != nil {
			yield(llm.Chunk{}, p.mapErr(ctx, err))
			return
		}
		if !finished {
			yield(llm.Chunk{}, p.errs.StreamCut())
			return
		}
		slices.Sort(order)
		for _, i := range order {
			tc, err := calls[i].complete()
			if err != nil {
				yield(llm.Chunk{}, &llm.Error{Provider: p.Name(), Kind: llm.ErrMalformed, Err: err})
				return
			}
			if !yield(llm.Chunk{ToolCall: tc}, nil) {
				return
			}
		}
		stop := stopReason(finish)
		if len(order) > 0 && stop == llm.StopEnd {
			// Some compatible servers say "stop" after tool calls.
			stop = llm.StopToolUse
		}
		yield(llm.Chunk{Usage: &usage, StopReason: stop}, nil)
	}
}

type toolBuf struct {
	id, name string
	args     strings.Builder
}

func (tb *toolBuf) complete() (*llm.ToolCall, error) {
	if tb.name == "" {
		return nil, fmt.Errorf("tool call %q has no function name", tb.id)
	}
	s := strings.TrimSpace(tb.args.String())
	if s == "" {
		s = "{}"
	}
	var obj map[string]json.RawMessage
	if err := json.Unmarshal([]byte(s), &obj); err != nil {
		return nil, fmt.Errorf("tool call %s (%s): arguments are not a JSON object: %w", tb.name, tb.id, err)
	}
	id := tb.id
	if id == "" {
		// Some local servers omit IDs; the runner needs one to pair results.
		id = "call_" + tb.name
	}
	return &llm.ToolCall{ID: id, Name: tb.name, Args: json.RawMessage(s)}, nil
}

func stopReason(s string) string {
	switch s {
	case "tool_calls", "function_call":
		return llm.StopToolUse
	case "length":
		return llm.StopMaxTokens
	}
	return llm.StopEnd
}

// mapErr classifies an error from the SDK.
func (p *Provider) mapErr(ctx context.Context, err error) *llm.Error {
	var apiErr *sdk.Error
	if errors.As(err, &apiErr) && apiErr.StatusCode >= 400 {
		var h http.Header
		if apiErr.Response != nil {
			h = apiErr.Response.Header
		}
		return p.errs.HTTP(apiErr.StatusCode, h, apiErr.Message, err)
	}
	var se *ssestream.StreamError
	if errors.As(err, &se) {
		return &llm.Error{Provider: p.Name(), Kind: streamErrorKind(se.Event.Data), Err: fmt.Errorf("error event in stream: %w", err)}
	}
	return p.errs.Transport(ctx, err)
}

// streamErrorKind classifies an {"error": {...}} event sent after the 200
// status, from its type and code.
func streamErrorKind(data []byte) llm.ErrorKind {
	var ev struct {
		Error struct {
			Type string `json:"type"`
			Code any    `json:"code"`
		} `json:"error"`
	}
	_ = json.Unmarshal(data, &ev)
	code := fmt.Sprint(ev.Error.Code)
	switch {
	case strings.Contains(code, "rate_limit") || ev.Error.Type == "requests" || ev.Error.Type == "tokens":
		return llm.ErrRateLimited
	case strings.Contains(code, "overloaded") || strings.Contains(ev.Error.Type, "overloaded"):
		return llm.ErrOverloaded
	case ev.Error.Type == "invalid_request_error":
		return llm.ErrBadRequest
	}
	return llm.ErrServer
}
