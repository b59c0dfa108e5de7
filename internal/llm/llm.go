// Package llm defines the one small interface every model provider sits behind,
// and the request, chunk and error types shared by all of them.
//
// A Provider streams one model call. It does not retry, does not run tools and
// keeps no conversation: the runner owns retries, tool loops and budgets, so that
// every provider gets them for free and behaves the same under faults.
package llm

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"iter"
	"time"
)

// Provider streams one model call.
//
// Contract (checked by the conformance suite in llmtest):
//   - Stream yields text deltas in order; concatenated they are the whole reply.
//   - A tool call is yielded once, complete (ID, Name, Args as a JSON object).
//   - Exactly one chunk carries Usage, after the last text or tool call; it also
//     carries the StopReason.
//   - Errors are yielded as the last element and are *Error values (use
//     errors.As), classified so that the caller can decide whether to retry.
//   - Stream honours ctx: cancelling it ends the iteration promptly with an error
//     wrapping ctx.Err().
//   - Stopping the iteration early (break) releases the underlying connection.
type Provider interface {
	// Name is the provider's name as the user selects it ("anthropic", "openai").
	Name() string
	// Caps tells what the provider can do, so that callers can degrade gracefully.
	Caps() Caps
	Stream(ctx context.Context, req Request) iter.Seq2[Chunk, error]
}

// Caps lists optional provider features.
type Caps struct {
	Tools       bool // native function calling
	JSONSchema  bool // constrained structured output (tool use or response_format)
	PromptCache bool // explicit prompt caching (Anthropic cache_control)
}

// MessageRole is who said a message.
type MessageRole string

// Message roles. Tool results travel in a user message, as both APIs accept.
const (
	RoleUser      MessageRole = "user"
	RoleAssistant MessageRole = "assistant"
)

// Message is one turn of the conversation sent to the model.
type Message struct {
	Role        MessageRole  `json:"role"`
	Text        string       `json:"text,omitempty"`
	ToolCalls   []ToolCall   `json:"tool_calls,omitempty"`   // assistant only
	ToolResults []ToolResult `json:"tool_results,omitempty"` // user only
	// Cache marks the end of a prefix worth caching (shared context that several
	// calls repeat). Providers without explicit caching ignore it.
	Cache bool `json:"cache,omitempty"`
}

// ToolSpec describes a tool the model may call.
type ToolSpec struct {
	Name        string          `json:"name"`
	Description string          `json:"description"`
	Schema      json.RawMessage `json:"schema"` // JSON Schema of the arguments object
}

// ToolCall is the model asking for a tool.
type ToolCall struct {
	ID   string          `json:"id"`
	Name string          `json:"name"`
	Args json.RawMessage `json:"args"`
}

// ToolResult answers a ToolCall.
type ToolResult struct {
	CallID  string `json:"call_id"`
	Content string `json:"content"`
	IsError bool   `json:"is_error,omitempty"`
}

// Schema asks for structured output that validates against a JSON Schema.
// Providers use tool use (Anthropic) or response_format (OpenAI); the reply text
// is then the JSON document.
type Schema struct {
	Name        string          `json:"name"`
	Description string          `json:"description,omitempty"`
	JSON        json.RawMessage `json:"json"`
}

// Request is one model call.
type Request struct {
	Model    string    `json:"model"`
	System   string    `json:"system,omitempty"`
	Messages []Message `json:"messages"`
	// CacheSystem asks the provider to cache the system prompt.
	CacheSystem bool       `json:"cache_system,omitempty"`
	Tools       []ToolSpec `json:"tools,omitempty"`
	Schema      *Schema    `json:"schema,omitempty"`
	MaxTokens   int        `json:"max_tokens,omitempty"`
	Temperature *float64   `json:"temperature,omitempty"`
	// Tag is a free label (for example "round-1/argument/performance") that
	// providers may forward as metadata; the fake server scripts replies by it.
	Tag string `json:"tag,omitempty"`
}

// Usage is what one call consumed. InputTokens excludes the cached prefix,
// which is counted in CacheReadTokens (read from the cache) or
// CacheWriteTokens (written to it), as Anthropic reports it; the OpenAI
// provider converts to the same convention.
type Usage struct {
	InputTokens      int `json:"input_tokens"`
	OutputTokens     int `json:"output_tokens"`
	CacheReadTokens  int `json:"cache_read_tokens,omitempty"`
	CacheWriteTokens int `json:"cache_write_tokens,omitempty"`
	// Unreported is set when the server sent no token counts (an
	// OpenAI-compatible server that ignores stream_options.include_usage):
	// the counts are then not zero but unknown, and so is the cost.
	Unreported bool `json:"unreported,omitempty"`
	// ServerCostUSD is what the server said the call cost, in USD
	// (OpenRouter's usage.cost), when ServerCost is ServerCostReported:
	// the cost of a model without a price (see pricing.Table.CostFor).
	ServerCostUSD float64    `json:"server_cost_usd,omitempty"`
	ServerCost    ServerCost `json:"server_cost,omitempty"`
}

// ServerCost says whether a Usage carries a cost the server reported.
type ServerCost string

const (
	// ServerCostReported: ServerCostUSD is what the calls cost.
	ServerCostReported ServerCost = "reported"
	// ServerCostPartial: some of the calls summed had a cost reported and
	// some did not, so ServerCostUSD is a part of the cost, not the cost.
	ServerCostPartial ServerCost = "partial"
)

// Add returns the sum of two usages; it is Unreported when either is, since
// a sum with an unknown part is a lower bound, and likewise its server
// cost is partial when one call had one and another did not.
func (u Usage) Add(v Usage) Usage {
	return Usage{
		InputTokens:      u.InputTokens + v.InputTokens,
		OutputTokens:     u.OutputTokens + v.OutputTokens,
		CacheReadTokens:  u.CacheReadTokens + v.CacheReadTokens,
		CacheWriteTokens: u.CacheWriteTokens + v.CacheWriteTokens,
		Unreported:       u.Unreported || v.Unreported,
		ServerCostUSD:    u.ServerCostUSD + v.ServerCostUSD,
		ServerCost:       addServerCost(u, v),
	}
}

// addServerCost is whether the sum of u and v has a server cost: both
// have one, or one has and the other is no call at all (the zero Usage a
// sum starts from).
func addServerCost(u, v Usage) ServerCost {
	called := func(w Usage) bool { return w.Unreported || w.Total() > 0 || w.ServerCost != "" }
	switch {
	case u.ServerCost == v.ServerCost:
		return u.ServerCost
	case u.ServerCost == ServerCostPartial || v.ServerCost == ServerCostPartial:
		return ServerCostPartial
	case u.ServerCost == ServerCostReported && !called(v), v.ServerCost == ServerCostReported && !called(u):
		return ServerCostReported
	}
	return ServerCostPartial
}

// ReportedCost returns the cost the server reported for u's calls, and
// whether it reported one for each.
func (u Usage) ReportedCost() (usd float64, ok bool) {
	if u.ServerCost != ServerCostReported {
		return 0, false
	}
	return u.ServerCostUSD, true
}

// Total is all tokens counted against a budget: every token the model read,
// cached or not, and every token it wrote.
func (u Usage) Total() int {
	return u.InputTokens + u.CacheReadTokens + u.CacheWriteTokens + u.OutputTokens
}

// Stop reasons, normalised across providers.
const (
	StopEnd       = "end"
	StopToolUse   = "tool_use"
	StopMaxTokens = "max_tokens" // cut at the token limit: the reply is incomplete
	StopRefusal   = "refusal"    // the model declined; the text, if any, says why
	// StopContextWindow: the reply filled what the model's context window
	// left after the prompt (Anthropic's model_context_window_exceeded,
	// Mistral's model_length). It is incomplete, as at StopMaxTokens, but
	// a higher max_tokens does not help, nor does asking again with the
	// cut reply in the prompt, which no longer fits.
	StopContextWindow = "context_window"
)

// Incomplete reports whether a reply that stopped for stop was cut before
// its end: at the token limit or at the end of the context window.
func Incomplete(stop string) bool { return stop == StopMaxTokens || stop == StopContextWindow }

// Chunk is one element of a stream: a text delta, a complete tool call, or the
// final usage.
type Chunk struct {
	Text       string    `json:"text,omitempty"`
	ToolCall   *ToolCall `json:"tool_call,omitempty"`
	Usage      *Usage    `json:"usage,omitempty"`
	StopReason string    `json:"stop_reason,omitempty"`
	// StopDetail is what the server said of why the reply stopped, beyond
	// the reason (a refusal's policy category and explanation, from
	// Anthropic's stop_details), cleaned and bounded; "" when nothing. It
	// is carried with the StopReason.
	StopDetail string `json:"stop_detail,omitempty"`
}

// ErrorKind classifies provider failures.
type ErrorKind string

// Error kinds. RateLimited, Overloaded, Server, Timeout, Network and Malformed
// are retryable.
const (
	ErrRateLimited ErrorKind = "rate_limited" // 429
	ErrOverloaded  ErrorKind = "overloaded"   // 529 / 503
	ErrServer      ErrorKind = "server"       // other 5xx
	ErrTimeout     ErrorKind = "timeout"
	ErrNetwork     ErrorKind = "network"     // connection refused, reset, stream cut
	ErrAuth        ErrorKind = "auth"        // 401 / 403: invalid key
	ErrBadRequest  ErrorKind = "bad_request" // 400 / 404 / 422: fix the request or model name
	ErrMalformed   ErrorKind = "malformed"   // the server sent something we cannot parse
	ErrCanceled    ErrorKind = "canceled"
	// ErrUnreachable: the base URL's host name does not exist (the DNS
	// answer is "no such host"). Waiting will not make it exist: the
	// address is to be fixed.
	ErrUnreachable ErrorKind = "unreachable"
	// ErrTooLarge: the server sent more in one piece (a line of a stream,
	// a whole reply) than any model reply can be: a broken server, or
	// something other than the API at the base URL. Asked again, it sends
	// the same.
	ErrTooLarge ErrorKind = "too_large"
)

// ErrNoAPIKey is in the chain of an authentication failure (ErrAuth) from a
// server that wants an API key when none was set: the fix is to set one,
// not to correct one.
var ErrNoAPIKey = errors.New("the server wants an API key and none is set")

// Error is a classified provider failure.
type Error struct {
	Provider   string
	Kind       ErrorKind
	StatusCode int           // HTTP status, 0 when none
	RetryAfter time.Duration // from Retry-After, 0 when absent
	// Tries bounds the calls made in all, the failed one included, when a
	// failure of this kind is likely to come again: a server that sent
	// invalid JSON is asked once more (2), as a model whose reply did not
	// parse is. 0 leaves the bound to the caller.
	Tries int
	Err   error
}

func (e *Error) Error() string {
	msg := fmt.Sprintf("%s: %s", e.Provider, e.Kind)
	if e.StatusCode != 0 {
		msg += fmt.Sprintf(" (HTTP %d)", e.StatusCode)
	}
	if e.Err != nil {
		msg += ": " + e.Err.Error()
	}
	return msg
}

func (e *Error) Unwrap() error { return e.Err }

// Retryable reports whether the same call may succeed if tried again.
func (e *Error) Retryable() bool {
	switch e.Kind {
	case ErrRateLimited, ErrOverloaded, ErrServer, ErrTimeout, ErrNetwork, ErrMalformed:
		return true
	}
	return false
}

// IsRetryable reports whether err is a retryable provider error.
func IsRetryable(err error) bool {
	var e *Error
	return errors.As(err, &e) && e.Retryable()
}

// RetryAfterOf returns the server's Retry-After hint carried by err, or 0.
func RetryAfterOf(err error) time.Duration {
	var e *Error
	if errors.As(err, &e) {
		return e.RetryAfter
	}
	return 0
}

// TriesOf returns the bound on calls carried by err (see Error.Tries), or 0.
func TriesOf(err error) int {
	var e *Error
	if errors.As(err, &e) {
		return e.Tries
	}
	return 0
}

// Collect drains a stream into its text, tool calls and usage. It is what most
// non-interactive callers want.
func Collect(seq iter.Seq2[Chunk, error]) (Reply, error) {
	var r Reply
	for c, err := range seq {
		if err != nil {
			return r, err
		}
		r.Text += c.Text
		if c.ToolCall != nil {
			r.ToolCalls = append(r.ToolCalls, *c.ToolCall)
		}
		if c.Usage != nil {
			r.Usage = r.Usage.Add(*c.Usage)
		}
		if c.StopReason != "" {
			r.StopReason = c.StopReason
		}
		if c.StopDetail != "" {
			r.StopDetail = c.StopDetail
		}
	}
	return r, nil
}

// Reply is a collected stream.
type Reply struct {
	Text       string
	ToolCalls  []ToolCall
	Usage      Usage
	StopReason string
	StopDetail string
}
