package llmtest

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"log/slog"
	"net/http"
	"strconv"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/parleyhq/parley/internal/llm"
)

// Helpers for the wire tests that script what a server sends byte for
// byte, shared by the providers' tests.

// SSE writes body as an event stream, flushing after each blank line.
func SSE(body string) http.HandlerFunc {
	return func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "text/event-stream")
		for ev := range strings.SplitAfterSeq(body, "\n\n") {
			_, _ = w.Write([]byte(ev))
			w.(http.Flusher).Flush()
		}
	}
}

// DropAfter writes body and then drops the connection, without the end of
// the chunked body: a reset, not a clean EOF.
func DropAfter(body string) http.HandlerFunc {
	return func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "text/event-stream")
		_, _ = w.Write([]byte(body))
		w.(http.Flusher).Flush()
		if conn, _, err := http.NewResponseController(w).Hijack(); err == nil {
			_ = conn.Close()
		}
	}
}

// KeepAlivesOnly starts a stream with first and then sends keep-alive
// lines alone: total bytes of line as fast as it can, and then one every
// 50 ms until the client hangs up. A broken or hostile server that never
// answers.
func KeepAlivesOnly(first, line string, total int) http.HandlerFunc {
	return func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "text/event-stream")
		_, _ = w.Write([]byte(first))
		block := []byte(strings.Repeat(line, max(1, 64<<10/len(line))))
		for sent := 0; sent < total; sent += len(block) {
			if _, err := w.Write(block); err != nil {
				return
			}
		}
		w.(http.Flusher).Flush()
		for {
			select {
			case <-r.Context().Done():
				return
			case <-time.After(50 * time.Millisecond):
				if _, err := w.Write([]byte(line)); err != nil {
					return
				}
				w.(http.Flusher).Flush()
			}
		}
	}
}

// KeepAlives checks that a provider whose server starts a stream with
// first and then sends keep-alives alone (SSE comments, "event: ping"
// lines, id: and retry: lines, and the keep-alive events of pings, one
// of the provider's own in lines) ends the call at its deadline as a
// timeout that says so, whatever their number: 20 MB of them, more than
// any bound on a reply. serve returns a provider whose server is h.
func KeepAlives(t *testing.T, serve func(t *testing.T, h http.HandlerFunc) llm.Provider, model, first string, pings ...string) {
	cases := map[string]string{
		"comments":          ": keep-alive\n",
		"empty comments":    ":\n",
		"ping event lines":  "event: ping\n",
		"id and retry only": "id: 1\nretry: 1000\n",
	}
	for i, p := range pings {
		cases["ping events "+strconv.Itoa(i+1)] = p
	}
	for name, line := range cases {
		t.Run(name, func(t *testing.T) {
			p := serve(t, KeepAlivesOnly(first, line, 20<<20))
			ctx, cancel := context.WithTimeout(context.Background(), 2*time.Second)
			defer cancel()
			_, err := llm.Collect(p.Stream(ctx, llm.Request{Model: model, Tag: "t",
				Messages: []llm.Message{{Role: llm.RoleUser, Text: "hi"}}}))
			var e *llm.Error
			if !errors.As(err, &e) || e.Kind != llm.ErrTimeout {
				t.Fatalf("got %v; want a timeout at the call's deadline", err)
			}
			if !strings.Contains(err.Error(), "the server sent keep-alives alone") {
				t.Errorf("error %q does not say the server sent keep-alives alone", err)
			}
		})
	}
}

// HTTPError is an error response a server sends, and what the provider
// must make of it.
type HTTPError struct {
	Name       string
	Status     int
	Header     map[string]string // sent; Content-Type is application/json unless set
	Body       string
	Kind       llm.ErrorKind
	RetryAfter time.Duration // a lower bound
	Want       []string      // in the error's text
	NotWant    []string      // not in it
}

// HTTPErrors checks that each of cases, sent by the server of the provider
// serve returns, fails the call ask makes as the case says, its status
// kept and its text under 1,000 bytes.
func HTTPErrors(t *testing.T, serve func(t *testing.T, h http.HandlerFunc) llm.Provider, ask func(llm.Provider) (llm.Reply, error), cases []HTTPError) {
	for _, c := range cases {
		t.Run(c.Name, func(t *testing.T) {
			p := serve(t, func(w http.ResponseWriter, r *http.Request) {
				for k, v := range c.Header {
					w.Header().Set(k, v)
				}
				if w.Header().Get("Content-Type") == "" {
					w.Header().Set("Content-Type", "application/json")
				}
				w.WriteHeader(c.Status)
				_, _ = w.Write([]byte(c.Body))
			})
			_, err := ask(p)
			var e *llm.Error
			if !errors.As(err, &e) || e.Kind != c.Kind || e.StatusCode != c.Status {
				t.Fatalf("%v, want %s (HTTP %d)", err, c.Kind, c.Status)
			}
			if e.RetryAfter < c.RetryAfter {
				t.Errorf("RetryAfter %s, want at least %s", e.RetryAfter, c.RetryAfter)
			}
			if len(err.Error()) > 1000 {
				t.Errorf("error is %d bytes long", len(err.Error()))
			}
			for _, s := range c.Want {
				if !strings.Contains(err.Error(), s) {
					t.Errorf("%q does not mention %q", err, s)
				}
			}
			for _, s := range c.NotWant {
				if strings.Contains(err.Error(), s) {
					t.Errorf("%q contains %q", err, s)
				}
			}
		})
	}
}

// UnknownReasonsBounded checks that a hostile server that ends every
// reply with a new reason (what: "stop reason", "finish reason"), body
// being a whole reply of "Hello" ended by one, gets a bounded number of
// warnings (and of reasons remembered), the last saying that more are not
// said, each reason logged cleaned and cut. serve returns a provider whose
// server is h and whose logger is log.
func UnknownReasonsBounded(t *testing.T, what string, serve func(t *testing.T, h http.HandlerFunc, log *slog.Logger) llm.Provider,
	body func(reason string) string, ask func(llm.Provider) (llm.Reply, error)) {
	var n atomic.Int64
	var logs bytes.Buffer
	p := serve(t, func(w http.ResponseWriter, r *http.Request) {
		i := n.Add(1)
		reason := fmt.Sprintf("word%d", i)
		if i == 1 {
			reason = `\u001b]8;;http://x\u0007` + strings.Repeat("long", 2000)
		}
		SSE(body(reason))(w, r)
	}, slog.New(slog.NewTextHandler(&logs, nil)))
	for range 200 {
		r, err := ask(p)
		if err != nil || r.Text != "Hello" || r.StopReason != llm.StopEnd {
			t.Fatalf("%+v %v", r, err)
		}
	}
	out := logs.String()
	if got := strings.Count(out, "which Parley does not know"); got != 33 {
		t.Errorf("%d warnings for 200 new %ss, want 33 (32 and one saying more are not said)", got, what)
	}
	if got := strings.Count(out, "more unknown "+what+"s are not said"); got != 1 {
		t.Errorf("'more unknown %ss are not said' %d times, want once", what, got)
	}
	if strings.Contains(out, "x1b") || strings.Contains(out, "u001b") || strings.Contains(out, "\x1b") {
		t.Errorf("the %s's escape reached the log: %.300q", what, out)
	}
	for line := range strings.Lines(out) {
		if len(line) > 1000 {
			t.Errorf("a warning of %d bytes: the %s was not cut", len(line), what)
		}
	}
}

// UnknownReasonSaidOnce checks that each of reasons ends a reply of
// "Hello" (body makes the reply ended by it) as the API's plain end does,
// and is said once per model and reason when it is one Parley does not
// know (reasons[r] is true), nothing when it is one Parley reads.
func UnknownReasonSaidOnce(t *testing.T, serve func(t *testing.T, h http.HandlerFunc, log *slog.Logger) llm.Provider,
	body func(reason string) string, ask func(llm.Provider) (llm.Reply, error), reasons map[string]bool) {
	for reason, warn := range reasons {
		t.Run(reason, func(t *testing.T) {
			var logs bytes.Buffer
			p := serve(t, SSE(body(reason)), slog.New(slog.NewTextHandler(&logs, nil)))
			for range 2 {
				r, err := ask(p)
				if err != nil || r.Text != "Hello" || r.StopReason != llm.StopEnd {
					t.Fatalf("%+v %v", r, err)
				}
			}
			n := strings.Count(logs.String(), "which Parley does not know")
			if want := map[bool]int{true: 1, false: 0}[warn]; n != want || (warn && !strings.Contains(logs.String(), strings.ToLower(reason))) {
				t.Errorf("%d warnings, want %d: %s", n, want, logs.String())
			}
		})
	}
}
