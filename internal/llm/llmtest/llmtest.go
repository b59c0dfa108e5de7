// Package llmtest is the conformance suite every llm.Provider runs: the
// contract written on llm.Provider, checked against the fake server (wire
// providers) or directly against a Script (the scripted provider).
package llmtest

import (
	"context"
	"encoding/json"
	"errors"
	"net"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	"github.com/parleyhq/parley/internal/llm"
	"github.com/parleyhq/parley/internal/llm/fakellm"
	"github.com/parleyhq/parley/internal/llm/script"
)

// Wire selects which of the fake server's APIs a provider speaks.
type Wire string

// Wires.
const (
	Anthropic Wire = "anthropic"
	OpenAI    Wire = "openai"
)

// Options tells the suite about the provider under test.
type Options struct {
	// Wire is the API the provider speaks.
	Wire Wire
	// APIKey is the key the provider is built with; the fake server demands
	// it. Leave empty for providers that send none: the invalid-key case is
	// then skipped.
	APIKey string
	// TokenDelay is the fake server's pause between stream events, to run the
	// suite under latency. Default 1ms.
	TokenDelay time.Duration
}

// NewProvider builds the provider under test for a base URL (the fake
// server's, or an unreachable one) and an API key, making its requests
// with hc, or with the provider's default client when hc is nil.
type NewProvider func(t *testing.T, baseURL, apiKey string, hc *http.Client) llm.Provider

// Run checks a wire provider.
func Run(t *testing.T, newProvider NewProvider, opts Options) {
	if opts.TokenDelay == 0 {
		opts.TokenDelay = time.Millisecond
	}
	h := harness{wire: true, opts: opts}
	h.start = func(t *testing.T, sc *script.Script, delay time.Duration) (llm.Provider, *fakellm.Server) {
		srvOpts := []fakellm.Option{fakellm.WithTokenDelay(delay)}
		if opts.APIKey != "" {
			srvOpts = append(srvOpts, fakellm.WithAPIKey(opts.APIKey))
		}
		srv := fakellm.Start(sc, srvOpts...)
		t.Cleanup(srv.Close)
		return newProvider(t, baseURL(srv, opts.Wire), opts.APIKey, nil), srv
	}
	h.run(t)

	t.Run("InvalidKey", func(t *testing.T) {
		if opts.APIKey == "" {
			t.Skip("provider sends no key")
		}
		srv := fakellm.Start(script.MustNew(script.Rule{Reply: &script.Reply{Text: "never"}}), fakellm.WithAPIKey(opts.APIKey+"-other"))
		t.Cleanup(srv.Close)
		p := newProvider(t, baseURL(srv, opts.Wire), opts.APIKey, nil)
		_, err := llm.Collect(p.Stream(context.Background(), simpleRequest("x", "hello")))
		e := wantKind(t, err, llm.ErrAuth, false)
		if e != nil && e.StatusCode != 401 {
			t.Errorf("StatusCode = %d, want 401", e.StatusCode)
		}
		if err != nil && !strings.Contains(err.Error(), "invalid API key") {
			t.Errorf("error %q does not say the key is invalid", err)
		}
	})

	t.Run("KeepAliveAndStall", func(t *testing.T) { keepAliveAndStall(t, newProvider, opts) })
	t.Run("RedirectToAnotherServer", func(t *testing.T) { redirectToAnotherServer(t, newProvider, opts) })

	t.Run("Unreachable", func(t *testing.T) {
		ln, err := net.Listen("tcp", "127.0.0.1:0")
		if err != nil {
			t.Fatal(err)
		}
		addr := ln.Addr().String()
		ln.Close() // nothing listens there now
		url := "http://" + addr
		if opts.Wire == OpenAI {
			url += "/v1"
		}
		p := newProvider(t, url, opts.APIKey, nil)
		_, err = llm.Collect(p.Stream(context.Background(), simpleRequest("x", "hello")))
		wantKind(t, err, llm.ErrNetwork, true)
		if err != nil && !strings.Contains(err.Error(), "cannot reach") {
			t.Errorf("error %q does not say the server cannot be reached", err)
		}
	})

	t.Run("Gzip", func(t *testing.T) { gzipped(t, newProvider, opts) })
	t.Run("HeldOpen", func(t *testing.T) { heldOpen(t, newProvider, opts) })
	t.Run("FailAtEnd", func(t *testing.T) { failAtEnd(t, newProvider, opts) })
	t.Run("UnknownHost", func(t *testing.T) { unknownHost(t, newProvider, opts) })
	t.Run("LineTooLarge", func(t *testing.T) { lineTooLarge(t, newProvider, opts) })
}

// unknownHost: a base URL whose host name does not exist (the name
// server's answer is NXDOMAIN, "no such host": a typo, a host that was
// renamed) fails the call at once, naming the host and what sets it; asked
// again it would not exist either. A name server that failed to answer
// (SERVFAIL: its upstream is down, the network is coming up) is a network
// failure, tried again.
func unknownHost(t *testing.T, newProvider NewProvider, opts Options) {
	url := "http://llm.parley-test.example:8000"
	if opts.Wire == OpenAI {
		url += "/v1"
	}
	req := simpleRequest("x", "hello")
	p := newProvider(t, url, opts.APIKey, resolverClient(t, rcodeNXDomain))
	_, err := llm.Collect(p.Stream(context.Background(), req))
	wantKind(t, err, llm.ErrUnreachable, false)
	if err != nil {
		for _, s := range []string{`"llm.parley-test.example" does not exist`, "_BASE_URL"} {
			if !strings.Contains(err.Error(), s) && !(s == "_BASE_URL" && strings.Contains(err.Error(), "OLLAMA_HOST")) {
				t.Errorf("error %q does not say %q", err, s)
			}
		}
	}
	p = newProvider(t, url, opts.APIKey, resolverClient(t, rcodeServFail))
	_, err = llm.Collect(p.Stream(context.Background(), req))
	wantKind(t, err, llm.ErrNetwork, true)
}

// gzipped: a proxy that compresses what it passes on (Content-Encoding:
// gzip, for a client that accepts it) delivers the same reply, tool
// calls and usage, and the same classified error with its message and
// Retry-After, as the server behind it sends.
func gzipped(t *testing.T, newProvider NewProvider, opts Options) {
	sc := script.MustNew(
		script.Rule{Tag: "text", Reply: &script.Reply{Text: "Redis, for its speed: sub-millisecond reads."}},
		script.Rule{Tag: "tool", Reply: &script.Reply{ToolCalls: []script.ToolCall{{ID: "call_1", Name: "lookup", Args: json.RawMessage(`{"q":"redis latency"}`)}}}},
		script.Rule{Tag: "limit", Reply: &script.Reply{Fault: &script.Fault{Status: 429, RetryAfter: "3", Message: "slow down, please"}}},
	)
	srvOpts := []fakellm.Option{fakellm.WithGzip(), fakellm.WithTokenDelay(opts.TokenDelay)}
	if opts.APIKey != "" {
		srvOpts = append(srvOpts, fakellm.WithAPIKey(opts.APIKey))
	}
	srv := fakellm.Start(sc, srvOpts...)
	t.Cleanup(srv.Close)
	p := newProvider(t, baseURL(srv, opts.Wire), opts.APIKey, nil)
	r, err := llm.Collect(p.Stream(context.Background(), simpleRequest("text", "hi")))
	if err != nil || r.Text != "Redis, for its speed: sub-millisecond reads." || r.StopReason != llm.StopEnd || r.Usage.Unreported || r.Usage.OutputTokens == 0 {
		t.Errorf("text: %+v %v", r, err)
	}
	req := simpleRequest("tool", "look it up")
	req.Tools = []llm.ToolSpec{{Name: "lookup", Description: "Look up", Schema: json.RawMessage(`{"type":"object","properties":{"q":{"type":"string"}}}`)}}
	r, err = llm.Collect(p.Stream(context.Background(), req))
	if err != nil || len(r.ToolCalls) != 1 || !jsonEqual(r.ToolCalls[0].Args, json.RawMessage(`{"q":"redis latency"}`)) {
		t.Errorf("tool call: %+v %v", r, err)
	}
	_, err = llm.Collect(p.Stream(context.Background(), simpleRequest("limit", "hi")))
	if e := wantKind(t, err, llm.ErrRateLimited, true); e != nil && (e.RetryAfter != 3*time.Second || !strings.Contains(err.Error(), "slow down, please")) {
		t.Errorf("429: %v (Retry-After %s)", err, e.RetryAfter)
	}
	for _, rq := range srv.Requests() {
		if !strings.Contains(rq.Header.Get("Accept-Encoding"), "gzip") {
			t.Fatalf("the client did not accept gzip (Accept-Encoding %q): nothing was compressed", rq.Header.Get("Accept-Encoding"))
		}
	}
}

// heldOpen: a stream whose reply is over (the finish_reason and the
// usage came; the message_delta with the stop_reason) but whose body is
// held open, without the event that ends it ("data: [DONE]",
// message_stop), as a proxy that does not pass the end of the upstream
// stream on sends it, yields the reply and ends, rather than wait for the
// caller's deadline and fail as a timeout, the reply retried. So does one
// from a server that sends no usage, where only the finish_reason says
// the reply is over.
func heldOpen(t *testing.T, newProvider NewProvider, opts Options) {
	for name, extra := range map[string][]fakellm.Option{"with usage": nil, "without usage": {fakellm.WithoutUsage()}} {
		t.Run(name, func(t *testing.T) {
			t.Parallel() // the wait without counts overlaps the rest
			sc := script.MustNew(script.Rule{Reply: &script.Reply{Text: "Redis, for its speed."}})
			srvOpts := append([]fakellm.Option{fakellm.WithHeldOpen()}, extra...)
			if opts.APIKey != "" {
				srvOpts = append(srvOpts, fakellm.WithAPIKey(opts.APIKey))
			}
			srv := fakellm.Start(sc, srvOpts...)
			t.Cleanup(srv.Close)
			p := newProvider(t, baseURL(srv, opts.Wire), opts.APIKey, nil)
			ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
			defer cancel()
			r, err := llm.Collect(p.Stream(ctx, simpleRequest("x", "hi")))
			if err != nil || r.Text != "Redis, for its speed." || r.StopReason != llm.StopEnd {
				t.Fatalf("%+v %v", r, err)
			}
			if wantCounts := extra == nil || opts.Wire == Anthropic; r.Usage.Unreported == wantCounts {
				t.Errorf("usage %+v: the counts sent were lost, or counts not sent were made up", r.Usage)
			}
		})
	}
}

// failAtEnd: a stream whose reply came whole (the finish_reason and the
// counts; the message_delta with the stop_reason and the counts) but that
// ends with an error event or a dropped connection instead of the event
// that ends it yields the reply, with its counts, rather than fail the
// call, to be retried and paid for twice.
func failAtEnd(t *testing.T, newProvider NewProvider, opts Options) {
	for _, how := range []fakellm.FailAtEnd{fakellm.FailWithError, fakellm.FailWithCut} {
		t.Run(string(how), func(t *testing.T) {
			sc := script.MustNew(script.Rule{Reply: &script.Reply{Text: "Redis, for its speed."}})
			srvOpts := []fakellm.Option{fakellm.WithFailAtEnd(how)}
			if opts.APIKey != "" {
				srvOpts = append(srvOpts, fakellm.WithAPIKey(opts.APIKey))
			}
			srv := fakellm.Start(sc, srvOpts...)
			t.Cleanup(srv.Close)
			p := newProvider(t, baseURL(srv, opts.Wire), opts.APIKey, nil)
			r, err := llm.Collect(p.Stream(context.Background(), simpleRequest("x", "hi")))
			if err != nil || r.Text != "Redis, for its speed." || r.StopReason != llm.StopEnd || r.Usage.Unreported || r.Usage.OutputTokens == 0 {
				t.Fatalf("%+v %v: want the whole reply, with its counts", r, err)
			}
		})
	}
}

// oversizedLine is a stream line longer than either SDK's decoder reads
// (bufio.MaxScanTokenSize<<9, 32 MB), and than Parley's own bound.
const oversizedLine = 33 << 20

// lineTooLarge: a stream line longer than any reply (a broken server, or
// something else than the API at the base URL) fails the call saying so,
// not retried: it was read, it was not cut, and asked again the server
// sends the same. It was reported as a network failure and tried again.
func lineTooLarge(t *testing.T, newProvider NewProvider, opts Options) {
	for _, c := range []struct {
		name, says string
		size       int
		opts       []fakellm.Option
	}{
		{"streamed", "stream line of more than", oversizedLine, nil},
		// A server that ignores "stream": true sends the reply whole,
		// read up to 16 MB.
		{"sent whole", "reply of more than", 17 << 20, []fakellm.Option{fakellm.WithoutStreaming()}},
	} {
		t.Run(c.name, func(t *testing.T) {
			sc := script.MustNew(script.Rule{Reply: &script.Reply{Text: "Redis " + strings.Repeat("x", c.size)}})
			srv := fakellm.Start(sc, append([]fakellm.Option{fakellm.WithAPIKey(opts.APIKey)}, c.opts...)...)
			t.Cleanup(srv.Close)
			p := newProvider(t, baseURL(srv, opts.Wire), opts.APIKey, nil)
			r, err := llm.Collect(p.Stream(context.Background(), simpleRequest("x", "hello")))
			wantKind(t, err, llm.ErrTooLarge, false)
			if err != nil && !strings.Contains(err.Error(), c.says) {
				t.Errorf("error %q does not say %q", err, c.says)
			}
			if len(r.Text) > len("Redis ") {
				t.Errorf("%d bytes of text passed on from the oversized line", len(r.Text))
			}
		})
	}
}

// keepAliveAndStall: a stream that waits for its model with keep-alive
// comments (DeepSeek, OpenRouter, Anthropic's pings) yields the reply when
// it comes; one that waits past the caller's deadline, with keep-alives
// or in silence after its first event, ends at the deadline as a
// retryable timeout, rather than hang or be taken for a reply.
func keepAliveAndStall(t *testing.T, newProvider NewProvider, opts Options) {
	sc := script.MustNew(
		script.Rule{Tag: "soon", Reply: &script.Reply{Text: "Redis, for its speed.", Delay: script.Duration(150 * time.Millisecond)}},
		script.Rule{Tag: "never", Reply: &script.Reply{Text: "late", Delay: script.Duration(time.Minute)}},
	)
	start := func(o fakellm.Option) *fakellm.Server {
		srvOpts := []fakellm.Option{o}
		if opts.APIKey != "" {
			srvOpts = append(srvOpts, fakellm.WithAPIKey(opts.APIKey))
		}
		srv := fakellm.Start(sc, srvOpts...)
		t.Cleanup(srv.Close)
		return srv
	}
	call := func(srv *fakellm.Server, tag string, deadline time.Duration) (llm.Reply, time.Duration, error) {
		p := newProvider(t, baseURL(srv, opts.Wire), opts.APIKey, nil)
		ctx, cancel := context.WithTimeout(context.Background(), deadline)
		defer cancel()
		req := simpleRequest(tag, "hi")
		req.MaxTokens = 100
		begin := time.Now()
		r, err := llm.Collect(p.Stream(ctx, req))
		return r, time.Since(begin), err
	}
	timedOut := func(took time.Duration, err error) {
		t.Helper()
		wantKind(t, err, llm.ErrTimeout, true)
		if took > 3*time.Second {
			t.Errorf("took %s to end a call with a short deadline", took)
		}
	}
	srv := start(fakellm.WithKeepAlive(10 * time.Millisecond))
	if r, _, err := call(srv, "soon", 10*time.Second); err != nil || r.Text != "Redis, for its speed." || r.StopReason != llm.StopEnd {
		t.Errorf("keep-alives, then the reply: %+v %v", r, err)
	}
	_, took, err := call(srv, "never", 100*time.Millisecond)
	timedOut(took, err)
	// Silence after the first event.
	stalled := start(fakellm.WithTokenDelay(time.Minute))
	_, took, err = call(stalled, "soon", 300*time.Millisecond)
	timedOut(took, err)
}

// redirectToAnotherServer: a base URL whose server redirects to another
// (http:// sent to https://, a moved host) fails the call as a bad request
// naming where it points, not retried, and nothing, the key included, is
// sent there. The SDKs refused a redirect as a network error and retried
// in vain, a 301 or 302 turned the POST into a GET, and a 307 carried
// Anthropic's x-api-key (which Go's client does not drop) to the other
// server.
func redirectToAnotherServer(t *testing.T, newProvider NewProvider, opts Options) {
	target := fakellm.Start(script.MustNew(script.Rule{Reply: &script.Reply{Text: "Redis."}}))
	t.Cleanup(target.Close)
	path := map[Wire]string{OpenAI: "/v1/chat/completions", Anthropic: "/v1/messages"}[opts.Wire]
	for _, status := range []int{http.StatusMovedPermanently, http.StatusFound, http.StatusTemporaryRedirect, http.StatusPermanentRedirect} {
		srv := fakellm.Start(script.MustNew(script.Rule{Reply: &script.Reply{Text: "never"}}), fakellm.WithRedirect(status, target.URL))
		p := newProvider(t, baseURL(srv, opts.Wire), opts.APIKey, nil)
		req := simpleRequest("x", "hi")
		req.MaxTokens = 100
		_, err := llm.Collect(p.Stream(context.Background(), req))
		srv.Close()
		if e := wantKind(t, err, llm.ErrBadRequest, false); e != nil && (!strings.Contains(err.Error(), target.URL+path) || !strings.Contains(err.Error(), "set the base URL")) {
			t.Errorf("%d: %v, want a bad request naming %s", status, err, target.URL+path)
		}
	}
	if n := len(target.Requests()); n != 0 {
		t.Errorf("the server redirected to got %d requests, want none", n)
	}
}

// RunScripted checks a provider that plays a Script in process: every case
// that does not need a network.
func RunScripted(t *testing.T, newProvider func(t *testing.T, sc *script.Script, tokenDelay time.Duration) llm.Provider) {
	h := harness{}
	h.start = func(t *testing.T, sc *script.Script, delay time.Duration) (llm.Provider, *fakellm.Server) {
		return newProvider(t, sc, delay), nil
	}
	h.run(t)
}

func baseURL(srv *fakellm.Server, w Wire) string {
	if w == OpenAI {
		return srv.OpenAIURL()
	}
	return srv.AnthropicURL()
}

type harness struct {
	wire  bool
	opts  Options
	start func(t *testing.T, sc *script.Script, tokenDelay time.Duration) (llm.Provider, *fakellm.Server)
}

func (h harness) delay() time.Duration { return h.opts.TokenDelay }

func simpleRequest(tag, user string) llm.Request {
	return llm.Request{
		Model:    "test-model",
		System:   "You are a careful debater.",
		Tag:      tag,
		Messages: []llm.Message{{Role: llm.RoleUser, Text: user}},
	}
}

// drain collects a stream, checking the ordering rules of the contract.
func drain(t *testing.T, seq func(func(llm.Chunk, error) bool)) (chunks []llm.Chunk, err error) {
	t.Helper()
	usageSeen := false
	for c, e := range seq {
		if e != nil {
			err = e
			continue
		}
		if err != nil {
			t.Errorf("chunk %+v after the error %v: errors must be last", c, err)
		}
		if usageSeen {
			t.Errorf("chunk %+v after the usage chunk: usage must be last", c)
		}
		if c.Usage != nil {
			usageSeen = true
			if c.StopReason == "" {
				t.Errorf("usage chunk has no StopReason")
			}
		}
		chunks = append(chunks, c)
	}
	if err == nil && !usageSeen {
		t.Errorf("stream ended without a usage chunk")
	}
	return chunks, err
}

func wantKind(t *testing.T, err error, kind llm.ErrorKind, retryable bool) *llm.Error {
	t.Helper()
	if err == nil {
		t.Errorf("no error, want kind %s", kind)
		return nil
	}
	var e *llm.Error
	if !errors.As(err, &e) {
		t.Errorf("error %v (%T) is not an *llm.Error", err, err)
		return nil
	}
	if e.Kind != kind {
		t.Errorf("Kind = %s, want %s (error: %v)", e.Kind, kind, err)
	}
	if e.Retryable() != retryable {
		t.Errorf("Retryable() = %v, want %v", e.Retryable(), retryable)
	}
	return e
}

func (h harness) run(t *testing.T) {
	t.Run("TextStreaming", func(t *testing.T) {
		const reply = "Prices will rise because demand keeps growing faster than supply."
		sc := script.MustNew(script.Rule{Tag: "round-1/bull", Reply: &script.Reply{Text: reply}})
		p, srv := h.start(t, sc, h.delay())
		req := simpleRequest("round-1/bull", "Open the debate on housing.")
		chunks, err := drain(t, p.Stream(context.Background(), req))
		if err != nil {
			t.Fatal(err)
		}
		var text strings.Builder
		texts, usages := 0, 0
		var last llm.Chunk
		for _, c := range chunks {
			if c.Text != "" {
				texts++
				text.WriteString(c.Text)
			}
			if c.Usage != nil {
				usages++
				last = c
			}
		}
		if text.String() != reply {
			t.Errorf("text = %q, want %q", text.String(), reply)
		}
		if texts < 2 {
			t.Errorf("got %d text chunks, want the reply streamed in several", texts)
		}
		if usages != 1 {
			t.Fatalf("got %d usage chunks, want exactly 1", usages)
		}
		// The scripted provider counts words; the fake server counts the
		// wire request as a provider would (fakellm.InputTokens).
		in, out := script.EstimateTokens(req.System)+script.EstimateTokens(req.Messages[0].Text), script.EstimateTokens(reply)
		if srv != nil {
			in, out = fakellm.InputTokens(srv.Requests()[0].Parsed), fakellm.OutputTokens(reply, nil)
		}
		u := *last.Usage
		if got := u.InputTokens + u.CacheReadTokens + u.CacheWriteTokens; got != in {
			t.Errorf("input tokens (with cache) = %d, want %d", got, in)
		}
		if u.OutputTokens != out {
			t.Errorf("OutputTokens = %d, want %d", u.OutputTokens, out)
		}
		if last.StopReason != llm.StopEnd {
			t.Errorf("StopReason = %q, want %q", last.StopReason, llm.StopEnd)
		}
		if srv != nil {
			reqs := srv.Requests()
			if len(reqs) != 1 {
				t.Fatalf("server saw %d requests, want 1", len(reqs))
			}
			if got := reqs[0].Header.Get(fakellm.TagHeader); got != "round-1/bull" {
				t.Errorf("%s header = %q, want the request tag", fakellm.TagHeader, got)
			}
			if !reqs[0].Stream {
				t.Errorf("request did not ask for a stream")
			}
			if reqs[0].Parsed.System != req.System {
				t.Errorf("system prompt sent = %q, want %q", reqs[0].Parsed.System, req.System)
			}
		}
	})

	t.Run("RoutesByTag", func(t *testing.T) {
		sc := script.MustNew(
			script.Rule{Tag: "bull", Reply: &script.Reply{Text: "up"}},
			script.Rule{TagPrefix: "be", Reply: &script.Reply{Text: "down"}},
		)
		p, _ := h.start(t, sc, 0)
		for tag, want := range map[string]string{"bull": "up", "bear": "down"} {
			r, err := llm.Collect(p.Stream(context.Background(), simpleRequest(tag, "go")))
			if err != nil {
				t.Fatalf("%s: %v", tag, err)
			}
			if r.Text != want {
				t.Errorf("%s: text %q, want %q", tag, r.Text, want)
			}
		}
	})

	t.Run("NoRuleMatched", func(t *testing.T) {
		p, _ := h.start(t, script.MustNew(script.Rule{Tag: "known", Reply: &script.Reply{Text: "x"}}), 0)
		_, err := llm.Collect(p.Stream(context.Background(), simpleRequest("round-9/unknown", "hi")))
		wantKind(t, err, llm.ErrBadRequest, false)
		if err != nil && (!strings.Contains(err.Error(), "no rule matched") || !strings.Contains(err.Error(), "round-9/unknown")) {
			t.Errorf("error %q should name the tag and say no rule matched", err)
		}
	})

	t.Run("ToolCall", func(t *testing.T) {
		sc := script.MustNew(script.Rule{Tag: "research", Reply: &script.Reply{
			ToolCalls: []script.ToolCall{
				{Name: "search", Args: json.RawMessage(`{"query":"median house price 2025","limit":3}`)},
				{Name: "fetch", Args: json.RawMessage(`{"url":"https://example.org/ünïcode"}`)},
			},
			Text: "Prices rose 4%.",
		}})
		p, srv := h.start(t, sc, h.delay())
		req := simpleRequest("research", "Find the latest prices.")
		req.Tools = []llm.ToolSpec{
			{Name: "search", Description: "Search the web", Schema: json.RawMessage(`{"type":"object","properties":{"query":{"type":"string"},"limit":{"type":"integer"}},"required":["query"]}`)},
			{Name: "fetch", Description: "Fetch a page", Schema: json.RawMessage(`{"type":"object","properties":{"url":{"type":"string"}},"required":["url"]}`)},
		}
		chunks, err := drain(t, p.Stream(context.Background(), req))
		if err != nil {
			t.Fatal(err)
		}
		var calls []llm.ToolCall
		var stop string
		for _, c := range chunks {
			if c.ToolCall != nil {
				calls = append(calls, *c.ToolCall)
			}
			if c.Usage != nil {
				stop = c.StopReason
			}
		}
		if len(calls) != 2 {
			t.Fatalf("got %d tool calls, want 2: %+v", len(calls), calls)
		}
		wantArgs := []string{`{"query":"median house price 2025","limit":3}`, `{"url":"https://example.org/ünïcode"}`}
		for i, name := range []string{"search", "fetch"} {
			c := calls[i]
			if c.Name != name || c.ID == "" {
				t.Errorf("call %d = %s (id %q), want %s with an ID", i, c.Name, c.ID, name)
			}
			if !jsonEqual(c.Args, json.RawMessage(wantArgs[i])) {
				t.Errorf("call %d args = %s, want %s", i, c.Args, wantArgs[i])
			}
		}
		if stop != llm.StopToolUse {
			t.Errorf("StopReason = %q, want %q", stop, llm.StopToolUse)
		}
		if srv != nil {
			sent := srv.Requests()[0].Parsed.Tools
			if len(sent) != 2 || sent[0].Name != "search" || !jsonEqual(sent[0].Schema, req.Tools[0].Schema) {
				t.Errorf("tools sent = %+v, want the request's tools with their schemas", sent)
			}
		}

		// The next call carries the results and gets the text.
		req.Messages = append(req.Messages,
			llm.Message{Role: llm.RoleAssistant, ToolCalls: calls},
			llm.Message{Role: llm.RoleUser, ToolResults: []llm.ToolResult{
				{CallID: calls[0].ID, Content: "4% rise"}, {CallID: calls[1].ID, Content: "page", IsError: true}}},
		)
		r, err := llm.Collect(p.Stream(context.Background(), req))
		if err != nil {
			t.Fatal(err)
		}
		if r.Text != "Prices rose 4%." || len(r.ToolCalls) != 0 || r.StopReason != llm.StopEnd {
			t.Errorf("second call = %+v, want the text and stop %q", r, llm.StopEnd)
		}
		if srv != nil {
			got := srv.Requests()[1].Parsed.Messages
			if len(got) != 3 || len(got[1].ToolCalls) != 2 || len(got[2].ToolResults) != 2 || got[2].ToolResults[0].CallID != calls[0].ID {
				t.Errorf("second request messages = %+v, want the tool calls and their results", got)
			}
		}
	})

	t.Run("StructuredOutput", func(t *testing.T) {
		doc := `{"winner":"bull","confidence":0.7,"reasons":["demand","rates"]}`
		sc := script.MustNew(script.Rule{Tag: "verdict", Reply: &script.Reply{JSON: json.RawMessage(doc)}})
		p, srv := h.start(t, sc, h.delay())
		req := simpleRequest("verdict", "Who won?")
		schema := json.RawMessage(`{"type":"object","properties":{"winner":{"type":"string","enum":["bull","bear"]},"confidence":{"type":"number"},"reasons":{"type":"array","items":{"type":"string"}}},"required":["winner","confidence","reasons"],"additionalProperties":false}`)
		req.Schema = &llm.Schema{Name: "verdict", Description: "The judge's verdict", JSON: schema}
		r, err := llm.Collect(p.Stream(context.Background(), req))
		if err != nil {
			t.Fatal(err)
		}
		if !jsonEqual(json.RawMessage(r.Text), json.RawMessage(doc)) {
			t.Errorf("reply text = %q, want the document %s", r.Text, doc)
		}
		if len(r.ToolCalls) != 0 {
			t.Errorf("structured reply yielded tool calls %+v; the document must be the text", r.ToolCalls)
		}
		if r.StopReason != llm.StopEnd {
			t.Errorf("StopReason = %q, want %q", r.StopReason, llm.StopEnd)
		}
		if srv != nil {
			got := srv.Requests()[0].Parsed.Schema
			if got == nil || !jsonEqual(got.JSON, schema) {
				t.Errorf("schema sent = %+v, want %s", got, schema)
			}
		}
	})

	t.Run("PromptCache", func(t *testing.T) {
		sc := script.MustNew(script.Rule{Tag: "turn", Reply: &script.Reply{Text: "noted"}})
		p, srv := h.start(t, sc, 0)
		// Providers cache only prefixes of 1,024 tokens or more: the shared
		// context is long enough for that.
		req := simpleRequest("turn", "Shared context: the 2025 housing report, all fifty pages of it. "+strings.Repeat("Prices rose in most regions while inventory stayed low. ", 100))
		req.System = "You are the bull. Argue that prices will rise, citing the evidence given."
		req.CacheSystem = true
		req.Messages[0].Cache = true
		req.Messages = append(req.Messages, llm.Message{Role: llm.RoleAssistant, Text: "Understood."}, llm.Message{Role: llm.RoleUser, Text: "Your opening, please."})
		first, err := llm.Collect(p.Stream(context.Background(), req))
		if err != nil {
			t.Fatal(err)
		}
		second, err := llm.Collect(p.Stream(context.Background(), req))
		if err != nil {
			t.Fatal(err)
		}
		if p.Caps().PromptCache && first.Usage.CacheWriteTokens == 0 {
			t.Errorf("first call usage %+v: want cache-write tokens for the marked prefix", first.Usage)
		}
		if second.Usage.CacheReadTokens == 0 {
			t.Errorf("second call usage %+v: want cache-read tokens", second.Usage)
		}
		if second.Usage.InputTokens >= first.Usage.InputTokens+first.Usage.CacheWriteTokens {
			t.Errorf("second call InputTokens = %d: cached tokens must not be counted as input", second.Usage.InputTokens)
		}
		if srv != nil && p.Caps().PromptCache {
			parsed := srv.Requests()[0].Parsed
			if !parsed.CacheSystem || !parsed.Messages[0].Cache || parsed.Messages[2].Cache {
				t.Errorf("cache marks sent: system %v, messages %v/%v/%v; want system and message 1 only",
					parsed.CacheSystem, parsed.Messages[0].Cache, parsed.Messages[1].Cache, parsed.Messages[2].Cache)
			}
			if body := string(srv.Requests()[0].Body); strings.Count(body, `"cache_control"`) != 2 {
				t.Errorf("request body has %d cache_control marks, want 2: %s", strings.Count(body, `"cache_control"`), body)
			}
		}
	})

	t.Run("CancelMidStream", func(t *testing.T) {
		long := strings.Repeat("word ", 400)
		sc := script.MustNew(script.Rule{Tag: "long", Reply: &script.Reply{Text: long}})
		p, _ := h.start(t, sc, 5*time.Millisecond)
		ctx, cancel := context.WithCancel(context.Background())
		defer cancel()
		got, after := 0, 0
		var err error
		for c, e := range p.Stream(ctx, simpleRequest("long", "talk")) {
			if e != nil {
				err = e
				break
			}
			if c.Text != "" {
				got++
				if got == 2 {
					cancel()
				} else if got > 2 {
					after++
				}
			}
		}
		e := wantKind(t, err, llm.ErrCanceled, false)
		if e != nil && !errors.Is(err, context.Canceled) {
			t.Errorf("error %v does not wrap context.Canceled", err)
		}
		// Chunks already buffered may still arrive, but not the rest of a
		// 400-word reply.
		if after > 20 {
			t.Errorf("%d chunks arrived after cancel; the stream must end promptly", after)
		}
	})

	t.Run("Deadline", func(t *testing.T) {
		sc := script.MustNew(script.Rule{Tag: "slow", Reply: &script.Reply{Text: "late", Delay: script.Duration(time.Minute)}})
		p, _ := h.start(t, sc, 0)
		ctx, cancel := context.WithTimeout(context.Background(), 50*time.Millisecond)
		defer cancel()
		_, err := llm.Collect(p.Stream(ctx, simpleRequest("slow", "hurry")))
		wantKind(t, err, llm.ErrTimeout, true)
		if err != nil && !errors.Is(err, context.DeadlineExceeded) {
			t.Errorf("error %v does not wrap context.DeadlineExceeded", err)
		}
	})

	t.Run("EarlyBreak", func(t *testing.T) {
		sc := script.MustNew(script.Rule{Tag: "long", Reply: &script.Reply{Text: strings.Repeat("word ", 400)}})
		p, srv := h.start(t, sc, 5*time.Millisecond)
		for c, err := range p.Stream(context.Background(), simpleRequest("long", "talk")) {
			if err != nil {
				t.Fatal(err)
			}
			if c.Text != "" {
				break
			}
		}
		if srv == nil {
			return
		}
		// The server's handler ends when the client hangs up; a leaked body
		// would keep it streaming for the whole 2 s reply.
		deadline := time.Now().Add(time.Second)
		for srv.Active() > 0 && time.Now().Before(deadline) {
			time.Sleep(5 * time.Millisecond)
		}
		if n := srv.Active(); n != 0 {
			t.Errorf("server still streaming %d response(s) after the caller stopped: connection not released", n)
		}
	})

	faults := []struct {
		name       string
		fault      script.Fault
		text       string
		kind       llm.ErrorKind
		retryable  bool
		tries      int    // llm.Error.Tries
		says       string // in the error's text, when set
		status     int
		retryAfter time.Duration
	}{
		{name: "RateLimitedSeconds", fault: script.Fault{Status: 429, RetryAfter: "7"}, kind: llm.ErrRateLimited, retryable: true, status: 429, retryAfter: 7 * time.Second},
		{name: "RateLimitedDate", fault: script.Fault{Status: 429, RetryAfter: time.Now().Add(time.Hour).UTC().Format("Mon, 02 Jan 2006 15:04:05 GMT")}, kind: llm.ErrRateLimited, retryable: true, status: 429, retryAfter: -1},
		{name: "ServerError", fault: script.Fault{Status: 500}, kind: llm.ErrServer, retryable: true, status: 500},
		{name: "Overloaded529", fault: script.Fault{Status: 529}, kind: llm.ErrOverloaded, retryable: true, status: 529},
		{name: "Unavailable503", fault: script.Fault{Status: 503}, kind: llm.ErrOverloaded, retryable: true, status: 503},
		// Groq's flex tier at capacity: its own status, to be retried
		// with backoff as its docs say.
		{name: "FlexCapacity498", fault: script.Fault{Status: 498, Message: "Flex tier capacity exceeded. This is a temporary condition; please retry."}, kind: llm.ErrOverloaded, retryable: true, status: 498},
		{name: "Forbidden", fault: script.Fault{Status: 403}, kind: llm.ErrAuth, status: 403},
		{name: "BadRequest", fault: script.Fault{Status: 400, Message: "max_tokens: too large"}, kind: llm.ErrBadRequest, status: 400},
		{name: "NotFound", fault: script.Fault{Status: 404, Message: "model: no-such-model"}, kind: llm.ErrBadRequest, status: 404},
		{name: "Unprocessable", fault: script.Fault{Status: 422}, kind: llm.ErrBadRequest, status: 422},
		// A success status with no body, where the stream was due: not
		// a cut stream to ask again (a 202's request may be running,
		// paid for), but an error that names the status.
		{name: "NoContent204", fault: script.Fault{Status: 204}, kind: llm.ErrBadRequest, status: 204},
		{name: "Accepted202", fault: script.Fault{Status: 202}, kind: llm.ErrBadRequest, status: 202},
		// A 200 whose body is empty: the server's fault, not a stream
		// cut on the way. Asked once more, not as often as a cut
		// stream, and said in plain words.
		{name: "EmptyBody200", fault: script.Fault{Status: 200}, kind: llm.ErrServer, retryable: true, tries: 2, says: "answered 200 OK with an empty body"},
		{name: "StreamCut", fault: script.Fault{Stream: "cut", After: 2}, text: "one two three four five", kind: llm.ErrNetwork, retryable: true},
		{name: "StreamCutAtStart", fault: script.Fault{Stream: "cut"}, text: "one two", kind: llm.ErrNetwork, retryable: true},
		// Invalid JSON is asked once more, not as often as a network
		// fault: the server wrote it so (see llm.Error.Tries).
		{name: "Malformed", fault: script.Fault{Stream: "malformed", After: 2}, text: "one two three four", kind: llm.ErrMalformed, retryable: true, tries: 2},
		{name: "ErrorEventOverloaded", fault: script.Fault{Stream: "error", Status: 529, After: 1}, text: "one two three", kind: llm.ErrOverloaded, retryable: true},
		{name: "ErrorEventRateLimited", fault: script.Fault{Stream: "error", Status: 429, After: 1}, text: "one two three", kind: llm.ErrRateLimited, retryable: true},
	}
	for _, tc := range faults {
		t.Run("Fault/"+tc.name, func(t *testing.T) {
			f := tc.fault
			sc := script.MustNew(script.Rule{Tag: "f", Reply: &script.Reply{Text: tc.text, Fault: &f}})
			p, srv := h.start(t, sc, h.delay())
			var text strings.Builder
			_, err := drain(t, func(yield func(llm.Chunk, error) bool) {
				for c, e := range p.Stream(context.Background(), simpleRequest("f", "go")) {
					text.WriteString(c.Text)
					if !yield(c, e) {
						return
					}
				}
			})
			e := wantKind(t, err, tc.kind, tc.retryable)
			if e == nil {
				return
			}
			if e.Tries != tc.tries {
				t.Errorf("Tries = %d, want %d", e.Tries, tc.tries)
			}
			if tc.status != 0 && e.StatusCode != tc.status {
				t.Errorf("StatusCode = %d, want %d", e.StatusCode, tc.status)
			}
			switch {
			case tc.retryAfter > 0 && e.RetryAfter != tc.retryAfter:
				t.Errorf("RetryAfter = %v, want %v", e.RetryAfter, tc.retryAfter)
			case tc.retryAfter < 0 && (e.RetryAfter < 58*time.Minute || e.RetryAfter > time.Hour):
				t.Errorf("RetryAfter = %v, want about an hour (from an HTTP date)", e.RetryAfter)
			case tc.retryAfter == 0 && e.RetryAfter != 0:
				t.Errorf("RetryAfter = %v, want 0", e.RetryAfter)
			}
			if f.Stream != "" && f.After > 0 {
				if want := strings.Join(script.Split(tc.text)[:f.After], ""); text.String() != want {
					t.Errorf("text before the fault = %q, want %q", text.String(), want)
				}
			}
			if tc.says != "" && !strings.Contains(err.Error(), tc.says) {
				t.Errorf("error %q does not say %q", err, tc.says)
			}
			if f.Message != "" && !strings.Contains(err.Error(), f.Message) {
				t.Errorf("error %q does not carry the API's message %q", err, f.Message)
			}
			if srv != nil {
				// The SDKs' own retries must be off: the runner owns retries.
				if n := len(srv.Requests()); n != 1 {
					t.Errorf("server saw %d requests, want 1 (SDK retries must be disabled)", n)
				}
			}
		})
	}
}

func jsonEqual(a, b json.RawMessage) bool {
	var x, y any
	if json.Unmarshal(a, &x) != nil || json.Unmarshal(b, &y) != nil {
		return false
	}
	return cmp.Equal(x, y)
}
