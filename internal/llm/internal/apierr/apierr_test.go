package apierr

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/url"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/parleyhq/parley/internal/llm"
)

func TestTransport(t *testing.T) {
	m := Mapper{Provider: "p", BaseURL: "http://127.0.0.1:9", BaseURLEnv: "P_BASE_URL", KeyEnv: "P_KEY"}
	canceled, cancel := context.WithCancel(context.Background())
	cancel()
	var syn json.SyntaxError
	cases := []struct {
		name string
		ctx  context.Context
		err  error
		kind llm.ErrorKind
		text string
	}{
		{"refused", context.Background(), &net.OpError{Op: "dial", Err: syscall.ECONNREFUSED}, llm.ErrNetwork, "cannot reach http://127.0.0.1:9: is the server running? Start it, or correct the address, which P_BASE_URL sets"},
		{"dns", context.Background(), &url.Error{Op: "Post", URL: "http://api.example/v1", Err: &net.OpError{Op: "dial", Err: &net.DNSError{Err: "no such host", Name: "api.example", IsNotFound: true}}},
			llm.ErrUnreachable, `cannot reach http://127.0.0.1:9: host "api.example" does not exist (the name server answers "no such host"): correct the address, which P_BASE_URL sets`},
		{"dns failed", context.Background(), &url.Error{Op: "Post", URL: "http://api.example/v1", Err: &net.OpError{Op: "dial", Err: &net.DNSError{Err: "server misbehaving", Name: "api.example", IsTemporary: true}}},
			llm.ErrNetwork, "cannot reach http://127.0.0.1:9: its host name does not resolve: check the network connection and the address, which P_BASE_URL sets"},
		{"reset", context.Background(), fmt.Errorf("read: %w", syscall.ECONNRESET), llm.ErrNetwork, "connection to"},
		{"eof", context.Background(), io.ErrUnexpectedEOF, llm.ErrNetwork, "lost"},
		{"canceled", canceled, errors.New("read: use of closed connection"), llm.ErrCanceled, "canceled"},
		{"deadline", context.Background(), fmt.Errorf("x: %w", context.DeadlineExceeded), llm.ErrTimeout, ""},
		{"json", context.Background(), fmt.Errorf("decode: %w", &syn), llm.ErrMalformed, "invalid JSON in a stream chunk"},
	}
	for _, c := range cases {
		e := m.Transport(c.ctx, c.err)
		if e.Kind != c.kind || !strings.Contains(e.Error(), c.text) {
			t.Errorf("%s: %v (kind %s), want %s containing %q", c.name, e, e.Kind, c.kind, c.text)
		}
	}
	// The provider's own public host said not to exist is the network's
	// doing: no address of the user's to correct.
	pub := Mapper{Provider: "p", BaseURL: "https://api.p.example", BaseURLEnv: "P_BASE_URL", Public: true}
	nx := &url.Error{Op: "Post", URL: "https://api.p.example", Err: &net.OpError{Op: "dial", Err: &net.DNSError{Err: "no such host", Name: "api.p.example", IsNotFound: true}}}
	if e := pub.Transport(context.Background(), nx); e.Kind != llm.ErrUnreachable || strings.Contains(e.Error(), "correct the address") ||
		!strings.Contains(e.Error(), "check the network connection") {
		t.Errorf("no such host for the public API: %v (kind %s); want unreachable, saying to check the network, not the address", e, e.Kind)
	}
	if e := m.Transport(canceled, errors.New("x")); !errors.Is(e, context.Canceled) {
		t.Errorf("canceled error does not wrap context.Canceled: %v", e)
	}
}

func TestHTTP(t *testing.T) {
	m := Mapper{Provider: "p", KeyEnv: "P_KEY"}
	h := http.Header{"Retry-After": {"4"}}
	e := m.HTTP(429, h, "m", "slow down", errors.New("429 Too Many Requests"))
	if e.Kind != llm.ErrRateLimited || e.RetryAfter.Seconds() != 4 || !strings.Contains(e.Error(), "slow down") {
		t.Errorf("429: %v", e)
	}
	e = m.HTTP(401, nil, "m", "", errors.New("401"))
	if e.Kind != llm.ErrAuth || !strings.Contains(e.Error(), "invalid API key: check P_KEY") {
		t.Errorf("401: %v", e)
	}
}

func TestRateLimitReset(t *testing.T) {
	hdr := func(kv ...string) http.Header {
		h := http.Header{}
		for i := 0; i < len(kv); i += 2 {
			h.Set(kv[i], kv[i+1])
		}
		return h
	}
	cases := []struct {
		name string
		h    http.Header
		want time.Duration
	}{
		{"requests spent", hdr("x-ratelimit-remaining-requests", "0", "x-ratelimit-reset-requests", "1.5s",
			"x-ratelimit-remaining-tokens", "9000", "x-ratelimit-reset-tokens", "12ms"), 1500 * time.Millisecond},
		{"both spent: the later", hdr("x-ratelimit-remaining-requests", "0", "x-ratelimit-reset-requests", "20ms",
			"x-ratelimit-remaining-tokens", "0", "x-ratelimit-reset-tokens", "6m0s"), 6 * time.Minute},
		{"neither spent: more tokens asked than left", hdr("x-ratelimit-remaining-requests", "40", "x-ratelimit-reset-requests", "1s",
			"x-ratelimit-remaining-tokens", "120", "x-ratelimit-reset-tokens", "8.4s"), 8400 * time.Millisecond},
		{"Azure's seconds", hdr("x-ratelimit-remaining-tokens", "0", "x-ratelimit-reset-tokens", "17"), 17 * time.Second},
		{"Azure's -1 and 0", hdr("x-ratelimit-remaining-tokens", "-1", "x-ratelimit-reset-tokens", "0"), 0},
		{"Retry-After first", hdr("Retry-After", "3", "x-ratelimit-remaining-requests", "0", "x-ratelimit-reset-requests", "1m"), 3 * time.Second},
		{"none", hdr(), 0},
	}
	for _, c := range cases {
		if e := (Mapper{}).HTTP(429, c.h, "m", "", errors.New("429")); e.RetryAfter != c.want {
			t.Errorf("%s: %s, want %s", c.name, e.RetryAfter, c.want)
		}
	}
	// Only a 429 asks to wait so.
	if e := (Mapper{}).HTTP(503, hdr("x-ratelimit-remaining-requests", "0", "x-ratelimit-reset-requests", "1m"), "m", "", errors.New("503")); e.RetryAfter != 0 {
		t.Errorf("503: %s", e.RetryAfter)
	}
}

func TestOutputLimit(t *testing.T) {
	cases := []struct {
		msg      string
		asked    int
		limit    int
		perModel bool
		ok       bool
	}{
		{"max_tokens is too large: 100000. This model supports at most 16384 completion tokens, whereas you provided 100000.", 100000, 16384, true, true},
		{"max_tokens: 64000 > 32000, which is the maximum allowed number of output tokens for claude-opus-4-20250514", 64000, 32000, true, true},
		{"Invalid max_tokens value, the valid range of max_tokens is [1, 8192]", 20000, 8192, true, true},
		{"`max_tokens` must be less than or equal to `32768`, the maximum value for `max_tokens` is less than the `context_window` for this model", 50000, 32768, true, true},
		{"max_completion_tokens must be less than or equal to 40960, the maximum value for max_completion_tokens is less than the context_window for this model", 50000, 40960, true, true},
		{"max_tokens for `llama-3.1-8b-instant` must be less than or equal to 8000", 8192, 8000, true, true},
		{"'max_tokens' or 'max_completion_tokens' is too large: 5000. This model's maximum context length is 4096 tokens and your request has 1000 input tokens (5000 > 4096 - 1000).", 5000, 3096, false, true},
		{"This model's maximum context length is 4096 tokens. However, you requested 5000 tokens (3000 in the messages, 2000 in the completion). Please reduce the length of the messages or completion.", 2000, 1096, false, true},
		// The prompt alone fills the window: no limit helps.
		{"This model's maximum context length is 4096 tokens. However, you requested 6000 tokens (4090 in the messages, 1910 in the completion).", 1910, 0, false, false},
		{"This model's maximum context length is 4096 tokens. However, your messages resulted in 5000 tokens.", 1000, 0, false, false},
		// No lower than asked: something else is wrong.
		{"This model supports at most 16384 completion tokens", 8000, 0, false, false},
		{"max_tokens must be at least 1, got 0.", 0, 0, false, false},
	}
	for _, c := range cases {
		limit, perModel, ok := OutputLimit(c.msg, c.asked)
		if limit != c.limit || perModel != c.perModel || ok != c.ok {
			t.Errorf("%q (asked %d): %d %v %v, want %d %v %v", c.msg, c.asked, limit, perModel, ok, c.limit, c.perModel, c.ok)
		}
	}
}

// TestNotFound: a 404 that names the model asks for the model's name; one
// that does not (a server's page for a path it does not serve) asks for the
// address, in the variable that sets it, with the /v1 an OpenAI-compatible
// server wants and the Anthropic API does not.
func TestNotFound(t *testing.T) {
	openai := Mapper{Provider: "openai", BaseURL: "http://localhost:8000", BaseURLEnv: "OPENAI_BASE_URL", KeyEnv: "OPENAI_API_KEY"}
	anthropic := Mapper{Provider: "anthropic", BaseURL: "http://localhost:4000/v1", BaseURLEnv: "ANTHROPIC_BASE_URL"}
	cases := []struct {
		m         Mapper
		detail    string
		want, not string
	}{
		{openai, "The model `gpt-9` does not exist or you do not have access to it.", `does not serve model "gpt-9"`, "BASE_URL"},
		{openai, `model "llama9" not found, try pulling it first`, `does not serve model "gpt-9"`, "BASE_URL"},
		{anthropic, "model: gpt-9", `does not serve model "gpt-9"`, "BASE_URL"},
		{openai, "404 page not found", "http://localhost:8000 has no openai API at this path: check OPENAI_BASE_URL (OpenAI-compatible servers serve it under /v1", "does not serve"},
		{openai, "", "check OPENAI_BASE_URL", "does not serve"},
		{anthropic, "Not Found", "check ANTHROPIC_BASE_URL (the address without /v1", "does not serve"},
	}
	for _, c := range cases {
		e := c.m.HTTP(404, nil, "gpt-9", c.detail, errors.New("404 Not Found"))
		if e.Kind != llm.ErrBadRequest || !strings.Contains(e.Error(), c.want) || strings.Contains(e.Error(), c.not) {
			t.Errorf("%s 404 %q: %v (kind %s), want a bad request containing %q, not %q", c.m.Provider, c.detail, e, e.Kind, c.want, c.not)
		}
	}
	// Other refusals keep the API's own words alone.
	if e := openai.HTTP(400, nil, "gpt-9", "Unsupported parameter: 'temperature'", errors.New("400")); strings.Contains(e.Error(), "BASE_URL") || strings.Contains(e.Error(), "does not serve") {
		t.Errorf("400: %v, want no 404 hint", e)
	}
}
