// Package apierr turns the failures of an HTTP model call into classified
// *llm.Error values. The provider packages share it so that a refused
// connection, a cut stream or a bad event means the same thing whichever SDK
// reported it.
package apierr

import (
	"bufio"
	"bytes"
	"compress/flate"
	"compress/gzip"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"regexp"
	"strconv"
	"strings"
	"syscall"
	"time"

	"github.com/parleyhq/parley/internal/llm"
	"github.com/parleyhq/parley/internal/textsafe"
)

// maxDetail bounds the server's own explanation quoted in an error: a proxy's
// HTML page or a hostile server's megabyte of text must not become the
// message shown on every failed attempt.
const maxDetail = 400

// Detail makes a server's explanation fit to quote in an error: one line,
// control characters made visible (it reaches the terminal), at most
// maxDetail bytes, cut at a rune boundary.
func Detail(s string) string {
	s = strings.Join(strings.Fields(s), " ")
	s = textsafe.Clean(s)
	if len(s) > maxDetail {
		cut := maxDetail
		for cut > 0 && s[cut]&0xC0 == 0x80 {
			cut--
		}
		s = s[:cut] + "…"
	}
	return s
}

// Mapper classifies errors for one provider.
type Mapper struct {
	Provider string // "anthropic", "openai", "ollama"
	BaseURL  string // shown when the server cannot be reached
	// BaseURLEnv names the variable that points the provider at another
	// server (OPENAI_BASE_URL, ANTHROPIC_BASE_URL, OLLAMA_HOST), for a 404
	// that is a wrong address rather than an unknown model.
	BaseURLEnv string
	// BaseURLFrom, when set, says where BaseURL came from instead of
	// BaseURLEnv, in a message that asks to correct it ("the debate
	// recorded: …"): a resumed debate's provider answers at the address
	// its record holds, which the variable does not set.
	BaseURLFrom string
	KeyEnv      string // environment variable to name when the key is refused; "" for none
	// Public says BaseURL is the provider's own public API (its default),
	// a host that exists: a name server that says it does not is this
	// machine's network's doing (offline, a filtering resolver), not an
	// address to correct.
	Public bool
	NoKey  bool // no key is sent: a 401 means one is needed, not that it is wrong
}

// Classified returns err's own *llm.Error, made this provider's, when a
// middleware (WebPageError, a wire repair) classified it before the SDK
// wrapped it; nil otherwise, and when ctx is done (the cancellation is
// then the cause, which Transport says).
func (m Mapper) Classified(ctx context.Context, err error) *llm.Error {
	var own *llm.Error
	if !errors.As(err, &own) || ctx.Err() != nil {
		return nil
	}
	e := *own
	e.Provider = m.Provider
	return &e
}

// HTTP classifies an error response to a call to model. detail is the API's
// own message, if any; it is cleaned and bounded here.
func (m Mapper) HTTP(status int, header http.Header, model, detail string, err error) *llm.Error {
	kind := llm.KindForStatus(status)
	e := &llm.Error{Provider: m.Provider, Kind: kind, StatusCode: status, Err: err}
	if header != nil {
		e.RetryAfter = llm.ParseRetryAfter(header.Get("Retry-After"), time.Now())
		if ms, err := strconv.ParseFloat(strings.TrimSpace(header.Get("Retry-After-Ms")), 64); err == nil && ms > 0 && e.RetryAfter == 0 {
			// Azure OpenAI's finer hint, sent with or instead of
			// Retry-After.
			e.RetryAfter = llm.DurationOf(ms, time.Millisecond)
		}
		if e.RetryAfter == 0 && status == http.StatusTooManyRequests {
			e.RetryAfter = rateLimitReset(header)
		}
		if e.RetryAfter == 0 && status == http.StatusTooManyRequests {
			e.RetryAfter = anthropicReset(header, time.Now())
		}
	}
	// The message is the API's explanation, often the only hint of what to
	// fix ("model: no such model"), or the status text. The SDK's own text
	// is left out: one SDK quotes the whole response body in it (a proxy's
	// HTML page), the other says no more than the status.
	msg := Detail(detail)
	if msg == "" {
		msg = http.StatusText(status)
	}
	if msg == "" {
		// A status of no standard's (Anthropic's 529, Groq's 498,
		// Cloudflare's 52x) with an empty body: the error ended in
		// "(HTTP 529): ", as if its words had been lost.
		msg = "the server gave no reason"
	}
	e.Err = Hide(msg, err)
	switch {
	case kind == llm.ErrAuth:
		// The SDK's own text ("401 Unauthorized") does not say what to do.
		// A 403 is not always the key's: servers refuse a region (OpenAI),
		// a network (Azure's firewall) or flagged input (OpenRouter's
		// moderation) with it, in words the message keeps.
		var hint error
		switch {
		case status == http.StatusForbidden && m.KeyEnv != "" && !m.NoKey:
			hint = errors.New("access refused: check that the key in " + m.KeyEnv + " may use this model")
		case status == http.StatusForbidden:
			hint = errors.New("access refused")
		case m.KeyEnv != "" && m.NoKey:
			hint = fmt.Errorf("%w: set %s", llm.ErrNoAPIKey, m.KeyEnv)
		case m.KeyEnv != "":
			hint = errors.New("invalid API key: check " + m.KeyEnv)
		default:
			hint = errors.New("invalid API key")
		}
		e.Err = fmt.Errorf("%w: %w", hint, e.Err)
	case kind == llm.ErrBadRequest && ContextExceeded(detail):
		// Retrying cannot help and the server's wording rarely says what to
		// change on Parley's side.
		e.Err = fmt.Errorf("%w\n%s", e.Err, ContextHint(model))
	case status == http.StatusNotFound:
		e.Err = fmt.Errorf("%w\n%s", e.Err, m.notFoundHint(model, msg))
	case status == http.StatusRequestEntityTooLarge:
		// The body, not the prompt's tokens: the API's own limit (32 MB
		// for Anthropic's Messages API) or, far more often, a proxy's
		// (nginx's client_max_body_size is 1 MB by default).
		e.Err = fmt.Errorf("%w\n%s", e.Err, tooLargeHint)
	}
	return e
}

// notFoundHint says what a 404 asks the user to change. Every API answers an
// unknown model with a 404 that names it ("model: claude-x", "The model
// `gpt-x` does not exist", Ollama's "model \"x\" not found"); a 404 that
// does not is the server's own page for a path it does not serve: a base URL
// without the /v1 that OpenAI-compatible servers put their API under, or the
// address of something else.
func (m Mapper) notFoundHint(model, msg string) string {
	if strings.Contains(strings.ToLower(msg), "model") {
		return fmt.Sprintf("The server does not serve model %q: check the model name (--model, --model-for).", model)
	}
	where := m.BaseURL
	if where == "" {
		where = "the server"
	}
	hint := fmt.Sprintf("%s has no %s API at this path", where, m.Provider)
	switch {
	case m.BaseURLFrom != "":
		hint += ": check the address, which " + m.BaseURLFrom
	case m.BaseURLEnv != "":
		hint += ": check " + m.BaseURLEnv
	}
	if m.Provider == "anthropic" {
		hint += " (the address without /v1, as in https://api.anthropic.com)"
	} else {
		hint += " (OpenAI-compatible servers serve it under /v1, as in http://localhost:8000/v1)"
	}
	return fmt.Sprintf("%s, and the model name %q.", hint, model)
}

// rateLimitReset is how long a 429 without Retry-After asks to wait, read
// from the x-ratelimit-* headers OpenAI's API (and Groq, Azure OpenAI)
// sends instead: the reset of the limit that is spent (remaining 0), the
// later one when both are; when neither is, the token limit's, since a
// request is then refused for wanting more tokens than are left. A reset
// is the time until the limit is whole again, a Go duration ("1s",
// "6m0s", "12ms") or, on Azure, seconds. 0 when there is none.
func rateLimitReset(h http.Header) time.Duration {
	reset := func(limit string) time.Duration {
		v := strings.TrimSpace(h.Get("X-Ratelimit-Reset-" + limit))
		if d, err := time.ParseDuration(v); err == nil && d > 0 {
			return d
		}
		if secs, err := strconv.ParseFloat(v, 64); err == nil && secs > 0 {
			return llm.DurationOf(secs, time.Second)
		}
		return 0
	}
	var wait time.Duration
	for _, limit := range []string{"Requests", "Tokens"} {
		if strings.TrimSpace(h.Get("X-Ratelimit-Remaining-"+limit)) == "0" {
			wait = max(wait, reset(limit))
		}
	}
	if wait == 0 {
		wait = reset("Tokens")
	}
	return wait
}

// anthropicReset is how long a 429 without Retry-After asks to wait,
// read from the anthropic-ratelimit-* headers Anthropic's API (and
// compatible gateways that pass them on) sends: the reset of the limit
// that is spent (remaining 0), the latest when several are; when none is,
// the latest of the token limits' resets. A reset is the time (RFC 3339)
// at which the limit is whole again. 0 when there is none, or it is past.
func anthropicReset(h http.Header, now time.Time) time.Duration {
	reset := func(limit string) time.Duration {
		t, err := time.Parse(time.RFC3339, strings.TrimSpace(h.Get("Anthropic-Ratelimit-"+limit+"-Reset")))
		if err != nil {
			return 0
		}
		return max(t.Sub(now), 0)
	}
	limits := []string{"Requests", "Tokens", "Input-Tokens", "Output-Tokens"}
	var wait time.Duration
	for _, limit := range limits {
		if strings.TrimSpace(h.Get("Anthropic-Ratelimit-"+limit+"-Remaining")) == "0" {
			wait = max(wait, reset(limit))
		}
	}
	if wait == 0 {
		for _, limit := range limits[1:] {
			wait = max(wait, reset(limit))
		}
	}
	return wait
}

// tooLargeHint says what to do about a request whose body is larger than
// the server or a proxy takes.
const tooLargeHint = "The request is larger than the server (or a proxy in front of it) accepts: send less (fewer rounds with --max-rounds, " +
	"a smaller --context directory), or raise the proxy's limit on request bodies (nginx: client_max_body_size)."

// ContextExceeded reports whether an API's error message says the request
// does not fit the model's context window, in the words OpenAI, vLLM,
// llama.cpp, LM Studio, OpenRouter and Anthropic use.
func ContextExceeded(detail string) bool {
	d := strings.ToLower(detail)
	for _, s := range []string{"context length", "context_length", "context window", "context size", "maximum context",
		"prompt is too long", "too many tokens", "exceeds the available context", "input length and `max_tokens` exceed"} {
		if strings.Contains(d, s) {
			return true
		}
	}
	return false
}

// ContextHint says what to do about a request too long for model.
func ContextHint(model string) string {
	return fmt.Sprintf("The prompt does not fit the context window of model %q: use a model with a larger context window, "+
		"give the server a larger one (vLLM --max-model-len, llama.cpp -c, Ollama num_ctx), or run fewer rounds (--max-rounds).", model)
}

// hidden is an error whose text replaces its cause's, which stays reachable
// with errors.Is and errors.As.
type hidden struct {
	msg string
	err error
}

func (h *hidden) Error() string { return h.msg }
func (h *hidden) Unwrap() error { return h.err }

// Hide returns an error that reads msg and wraps err without quoting it.
func Hide(msg string, err error) error { return &hidden{msg: msg, err: err} }

// MaxErrorBody bounds an error response, which the SDKs read whole: a
// proxy's page fits, a hostile server's gigabytes do not.
const MaxErrorBody = 64 << 10

// LimitErrorBody is an SDK middleware that bounds the body of an error
// response, so that a broken or hostile server cannot make Parley read
// gigabytes to report one failure.
func LimitErrorBody(req *http.Request, next func(*http.Request) (*http.Response, error)) (*http.Response, error) {
	res, err := next(req)
	if err != nil || res == nil || res.Body == nil || res.StatusCode < 400 {
		return res, err
	}
	res.Body = limited{Reader: io.LimitReader(res.Body, MaxErrorBody), Closer: res.Body}
	return res, nil
}

// NoContent is the error for an answer with a success status and no body,
// to a call whose reply the API streams with a 200. err is what reading
// the body's first byte returned; nil when it is not the clean end of the
// body (a body cut before its first byte fails with io.ErrUnexpectedEOF,
// a cut stream, asked again as one).
//
// With a status other than 200 (204 No Content, 202 Accepted, 205 Reset
// Content), the server did not mean to send a reply here at all: asked
// again it answers the same, and a 202's request may be running, and
// paid for, on the server all the while. It is not asked again.
//
// With a 200, the server said it was sending the reply and then ended the
// body, cleanly, with nothing in it: not a stream cut on the way (the
// transport would have seen the body cut short) but the server's own
// fault, which it may well make again. Read as a stream it had no event,
// looked cut and was asked again as often as a network fault, and said
// only "ended before the reply was complete". It is asked once more
// (MalformedTries), saying what happened.
func NoContent(res *http.Response, err error) *llm.Error {
	if !errors.Is(err, io.EOF) {
		return nil
	}
	if res.StatusCode == http.StatusOK {
		return &llm.Error{Kind: llm.ErrServer, Tries: MalformedTries, Err: errors.New(
			"the server answered 200 OK with an empty body: it sent no reply at all, not even the start of a stream; " +
				"if this repeats, the server (or a proxy in front of it) is failing: report it to whoever runs it, or use another")}
	}
	return &llm.Error{Kind: llm.KindForStatus(res.StatusCode), StatusCode: res.StatusCode, Err: fmt.Errorf(
		"the server answered %q with no body, where the API streams the reply with 200 OK: no reply came, and asking again is answered the same; "+
			"check the base URL (it is not the model API, or a proxy in front of it drops replies)", strings.TrimSpace(fmt.Sprintf("%d %s", res.StatusCode, http.StatusText(res.StatusCode))))}
}

// WebPageError is the error for a 200 answer that is a web page: the base
// URL names a web UI or a login portal, not the API. Waiting will not
// change that, so it is not retried.
func WebPageError(req *http.Request) *llm.Error {
	return &llm.Error{Kind: llm.ErrBadRequest, Err: fmt.Errorf(
		"%s answered with a web page, not the API: check the base URL", req.URL.Redacted())}
}

// RejectWebPage is an SDK middleware that fails a call answered with an
// HTML page and status 200 with WebPageError, rather than let the SDK read
// it as a stream with no events (a cut stream, retried).
func RejectWebPage(req *http.Request, next func(*http.Request) (*http.Response, error)) (*http.Response, error) {
	res, err := next(req)
	if err != nil || res == nil || res.StatusCode >= 300 {
		return res, err
	}
	if strings.HasPrefix(res.Header.Get("Content-Type"), "text/html") {
		_ = res.Body.Close()
		return nil, WebPageError(req)
	}
	return res, nil
}

type limited struct {
	io.Reader
	io.Closer
}

var htmlTitle = regexp.MustCompile(`(?is)<title[^>]*>(.*?)</title>`)

// BodyDetail is what is worth quoting from an error body that is not the
// API's JSON: the message of another server's JSON ({"error": "text"}
// from Ollama, {"detail": "text"} from a FastAPI server, a bare
// {"message": ...}), an HTML page's title, or a text's first line;
// cleaned and bounded.
func BodyDetail(body []byte) string {
	if msg := jsonMessage(body); msg != "" {
		return Detail(msg)
	}
	if typ, code, ok := jsonKind(body); ok {
		// A JSON error without a message ({"error": {}}): quoted, its
		// JSON read as the server's words.
		return Unexplained(typ, code)
	}
	if m := htmlTitle.FindSubmatch(body); m != nil {
		return Detail(string(m[1]))
	}
	if bytes.Contains(bytes.ToLower(body[:min(len(body), 512)]), []byte("<html")) {
		return ""
	}
	line, _, _ := strings.Cut(strings.TrimSpace(string(body[:min(len(body), 4*maxDetail)])), "\n")
	return Detail(line)
}

// jsonMessage is the message of an error body in one of the JSON shapes
// servers use, or "".
func jsonMessage(body []byte) string {
	var top map[string]json.RawMessage
	if json.Unmarshal(bytes.TrimSpace(body), &top) != nil {
		return ""
	}
	var s string
	for _, k := range []string{"error", "message", "detail"} {
		if json.Unmarshal(top[k], &s) == nil && s != "" {
			return s
		}
	}
	var inner struct {
		Message string `json:"message"`
	}
	if json.Unmarshal(top["error"], &inner) == nil {
		return inner.Message
	}
	return ""
}

// jsonKind reads the type and code of an error body that is a JSON
// object with nothing else that could say why ({}, {"error": {"type":
// ...}}), in the shapes jsonMessage reads; ok is false for any other body
// (FastAPI's {"detail": [...]}, whose JSON quoted says more than its
// type would).
func jsonKind(body []byte) (typ, code string, ok bool) {
	var top map[string]json.RawMessage
	if json.Unmarshal(bytes.TrimSpace(body), &top) != nil || top == nil {
		return "", "", false
	}
	var inner map[string]json.RawMessage
	if json.Unmarshal(top["error"], &inner) != nil || inner == nil {
		inner = top
	}
	for _, obj := range []map[string]json.RawMessage{top, inner} {
		for k := range obj {
			switch k {
			case "type", "code", "error", "message", "param", "request_id":
			default:
				return "", "", false
			}
		}
	}
	str := func(raw json.RawMessage) string {
		var s string
		if json.Unmarshal(raw, &s) == nil {
			return s
		}
		var n json.Number
		if json.Unmarshal(raw, &n) == nil {
			return n.String()
		}
		return ""
	}
	typ = str(inner["type"])
	if typ == "error" {
		typ = "" // Anthropic's envelope's type, not the error's
	}
	return typ, str(inner["code"]), true
}

// Unexplained is what an error without a message says: that the server
// gave no reason, with the type and the code it sent, cleaned. An error
// ending in "error event in stream: " or quoting "{}" read as if its words
// were lost.
func Unexplained(typ, code string) string {
	var parts []string
	if t := Detail(typ); t != "" {
		parts = append(parts, "type "+t)
	}
	if c := Detail(code); c != "" {
		parts = append(parts, "code "+c)
	}
	if len(parts) == 0 {
		return "the server gave no reason"
	}
	return "the server gave no reason (" + strings.Join(parts, ", ") + ")"
}

// Transport classifies an error that carries no HTTP status: a failed dial, a
// cut stream, a cancelled context, or an event that does not parse.
func (m Mapper) Transport(ctx context.Context, err error) *llm.Error {
	e := &llm.Error{Provider: m.Provider, Err: err}
	switch {
	case errors.Is(ctx.Err(), context.Canceled) || (ctx.Err() == nil && errors.Is(err, context.Canceled)):
		e.Kind = llm.ErrCanceled
		if !errors.Is(err, context.Canceled) {
			e.Err = fmt.Errorf("%w: %w", context.Canceled, err)
		}
	case errors.Is(ctx.Err(), context.DeadlineExceeded) || errors.Is(err, context.DeadlineExceeded) || isTimeout(err):
		e.Kind = llm.ErrTimeout
		if ctx.Err() != nil && !errors.Is(err, ctx.Err()) {
			e.Err = fmt.Errorf("%w: %w", ctx.Err(), err)
		}
	case isMalformed(err):
		// Not a reply cut or lost on the way, which another call may
		// well bring whole: the server wrote it so, and a server whose
		// encoder leaves control characters in strings does so again at
		// the next one the model writes. It is asked once more, as a
		// model whose reply did not parse is, not as often as a
		// network fault.
		e.Kind = llm.ErrMalformed
		e.Tries = MalformedTries
		why := ""
		switch s := err.Error(); {
		case strings.Contains(s, `'\n' in string literal`):
			// The SSE decoders end an event's data with the newline
			// of its last line: the data ended inside a string.
			why = " (the chunk ends inside a string: it was cut short, or a newline in it was left unescaped)"
		case strings.Contains(s, "in string literal"):
			// encoding/json's words for a byte below 0x20 in a string.
			why = " (a control character left unescaped inside a string, which JSON does not allow)"
		}
		what := "invalid JSON in a stream chunk"
		if typ := (*json.UnmarshalTypeError)(nil); errors.As(err, &typ) {
			// Valid JSON, of another shape ("data: []", "data: \"hi\""):
			// "invalid JSON" would send the reader looking for a syntax
			// error.
			what = "a stream chunk that is JSON but not the API's object"
		}
		e.Err = Hide(fmt.Sprintf("the server sent %s: %s%s: its output is broken; if this repeats, report it to whoever runs the server or use another",
			what, Detail(err.Error()), why), err)
	case badEncoding(err):
		// The body said it was compressed (Content-Encoding: gzip) and
		// was not, or not whole: a proxy that labels what it passes on
		// wrongly, which it does again. Go's transport unpacks it and
		// said no more than "gzip: invalid header", retried as a
		// network fault.
		e.Kind = llm.ErrMalformed
		e.Tries = MalformedTries
		e.Err = Hide(fmt.Sprintf("the server's reply is not the compressed body its Content-Encoding says (%s): a proxy in front of the server is likely misconfigured", Detail(err.Error())), err)
	case notFoundHost(err) != nil:
		// The name server says the host does not exist (NXDOMAIN): a
		// mistyped or renamed host. Asked again it answers the same (the
		// resolver's own cache aside), so the call fails at once, saying
		// what to correct, rather than be retried while the user waits.
		// The SDK's text ("Post URL: dial tcp: lookup HOST on SERVER: no
		// such host") says the same again; it stays reachable.
		e.Kind = llm.ErrUnreachable
		if m.Public {
			e.Err = Hide(fmt.Sprintf("cannot reach %s: this machine's name server says its host %q does not exist (\"no such host\"), "+
				"though it is the provider's public address: check the network connection (offline, or a proxy or firewall that filters names)",
				m.BaseURL, notFoundHost(err).Name), err)
			break
		}
		e.Err = Hide(fmt.Sprintf("cannot reach %s: host %q does not exist (the name server answers \"no such host\"): correct the address%s, or check the network's name server",
			m.BaseURL, notFoundHost(err).Name, m.setBy()), err)
	case isDNS(err):
		// The name server did not answer (no network yet, a resolver that
		// timed out or failed): the same call may well work in a moment.
		// "is the server running?" would send the user to look at a
		// server that was never asked.
		e.Kind = llm.ErrNetwork
		e.Err = fmt.Errorf("cannot reach %s: its host name does not resolve: check the network connection and the address%s: %w", m.BaseURL, m.setBy(), err)
	case isRefused(err):
		// Retried, on localhost too: a local server that is starting
		// refuses connections until it is up (vLLM and llama.cpp open
		// their port only once the model is loaded, Ollama and LM Studio
		// after a restart), and a remote one while it is redeployed.
		// The runner's few tries with backoff are short enough that a
		// server that is not there at all is soon reported so.
		e.Kind = llm.ErrNetwork
		e.Err = fmt.Errorf("cannot reach %s: is the server running? Start it, or correct the address%s: %w", m.BaseURL, m.setBy(), err)
	default:
		// Resets, EOFs in the middle of a body and unknown transport failures:
		// the same call may well work on a fresh connection.
		e.Kind = llm.ErrNetwork
		if errors.Is(err, io.ErrUnexpectedEOF) || errors.Is(err, io.EOF) || errors.Is(err, syscall.ECONNRESET) {
			e.Err = fmt.Errorf("connection to %s lost: %w", m.BaseURL, err)
		}
	}
	return e
}

// StreamCut is the error for a stream that ended cleanly at the transport level
// but before the API's terminal event: the server or a proxy gave up.
func (m Mapper) StreamCut() *llm.Error {
	return &llm.Error{Provider: m.Provider, Kind: llm.ErrNetwork,
		Err: fmt.Errorf("stream from %s ended before the reply was complete: %w", m.BaseURL, io.ErrUnexpectedEOF)}
}

// MalformedTries bounds the calls made for a reply whose stream did not
// parse: the first and one more (see llm.Error.Tries).
const MalformedTries = 2

// badEncoding reports whether err is the transport's failure to unpack a
// body sent as gzip-compressed.
func badEncoding(err error) bool {
	var flateErr flate.CorruptInputError
	return errors.Is(err, gzip.ErrHeader) || errors.Is(err, gzip.ErrChecksum) || errors.As(err, &flateErr)
}

func isTimeout(err error) bool {
	var ne net.Error
	return errors.As(err, &ne) && ne.Timeout()
}

// setBy says which variable sets the base URL, for a message that asks to
// correct it: ", which OPENAI_BASE_URL sets", or "".
func (m Mapper) setBy() string {
	if m.BaseURLFrom != "" {
		return ", which " + m.BaseURLFrom
	}
	if m.BaseURLEnv == "" {
		return ""
	}
	return ", which " + m.BaseURLEnv + " sets"
}

// notFoundHost returns err's DNS error when it says the host does not
// exist, nil otherwise.
func notFoundHost(err error) *net.DNSError {
	var dns *net.DNSError
	if errors.As(err, &dns) && dns.IsNotFound {
		return dns
	}
	return nil
}

func isDNS(err error) bool {
	var dns *net.DNSError
	return errors.As(err, &dns)
}

func isRefused(err error) bool {
	if errors.Is(err, syscall.ECONNREFUSED) || errors.Is(err, syscall.EHOSTUNREACH) || errors.Is(err, syscall.ENETUNREACH) {
		return true
	}
	var dns *net.DNSError
	if errors.As(err, &dns) {
		return true
	}
	var op *net.OpError
	return errors.As(err, &op) && op.Op == "dial"
}

func isMalformed(err error) bool {
	var syn *json.SyntaxError
	var typ *json.UnmarshalTypeError
	if errors.As(err, &syn) || errors.As(err, &typ) {
		return true
	}
	// Some decoders the SDKs use report syntax errors as plain strings.
	s := err.Error()
	return strings.Contains(s, "invalid character") || strings.Contains(s, "unexpected end of JSON input")
}

// MaxWholeReply bounds a reply a server sent whole (a JSON object) to a
// streaming request, read whole to be turned into a stream: far above any
// reply a debate turn asks for, so that a broken or hostile server cannot
// make Parley hold unbounded memory.
const MaxWholeReply = 16 << 20

// TooLarge is the error for a server that sent what (a line of a stream,
// a whole reply) larger than any model reply: a broken server, or
// something other than the model API at the base URL. It is not retried:
// it was read whole, not cut, and asked again the server sends the same.
// The provider's mapper names the provider (see Mapper.Classified).
func TooLarge(what string) *llm.Error {
	return &llm.Error{Kind: llm.ErrTooLarge, Err: fmt.Errorf(
		"the server sent %s, more than any model reply: it is broken, or the base URL is not its model API", what)}
}

// MaxLine bounds one line of a stream the providers read, far above any
// reply a debate turn asks for, and below the SDKs' own decoders' bound
// (32 MB), which they report as an unclassified read error: a broken or
// hostile server cannot make Parley hold unbounded memory.
const MaxLine = MaxWholeReply

// LineTooLarge is the error for a stream line longer than MaxLine.
func LineTooLarge() *llm.Error {
	return TooLarge(fmt.Sprintf("a stream line of more than %d MB", MaxLine>>20))
}

// ReadLine reads up to and including the next newline of r, failing with
// LineTooLarge past MaxLine bytes. A line that fits r's buffer is returned
// in it, without a copy: it is good until the next read.
func ReadLine(r *bufio.Reader) ([]byte, error) {
	var line []byte
	for {
		part, err := r.ReadSlice('\n')
		if line == nil && !errors.Is(err, bufio.ErrBufferFull) {
			return part, err
		}
		line = append(line, part...)
		if !errors.Is(err, bufio.ErrBufferFull) {
			return line, err
		}
		if len(line) > MaxLine {
			return nil, LineTooLarge()
		}
	}
}

// WholeAsStream answers res, whose body (read through br) is a reply sent
// whole instead of a stream, with the events toEvents makes of it, so that
// the SDK's stream decoder reads the same reply. res's body is closed.
func WholeAsStream(res *http.Response, br io.Reader, toEvents func(whole []byte) []byte) (*http.Response, error) {
	whole, err := io.ReadAll(io.LimitReader(br, MaxWholeReply+1))
	_ = res.Body.Close()
	if err != nil {
		return nil, err
	}
	if len(whole) > MaxWholeReply {
		return nil, TooLarge(fmt.Sprintf("a reply of more than %d MB instead of a stream", MaxWholeReply>>20))
	}
	res.Body = io.NopCloser(bytes.NewReader(toEvents(whole)))
	res.Header.Set("Content-Type", "text/event-stream")
	res.ContentLength = -1
	res.Header.Del("Content-Length")
	return res, nil
}
