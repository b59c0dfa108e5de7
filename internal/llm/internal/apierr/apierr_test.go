package apierr

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"strings"
	"syscall"
	"testing"

	"github.com/parleyhq/parley/internal/llm"
)

func TestTransport(t *testing.T) {
	m := Mapper{Provider: "p", BaseURL: "http://127.0.0.1:9", KeyEnv: "P_KEY"}
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
		{"refused", context.Background(), &net.OpError{Op: "dial", Err: syscall.ECONNREFUSED}, llm.ErrNetwork, "cannot reach http://127.0.0.1:9: is the server running?"},
		{"reset", context.Background(), fmt.Errorf("read: %w", syscall.ECONNRESET), llm.ErrNetwork, "connection to"},
		{"eof", context.Background(), io.ErrUnexpectedEOF, llm.ErrNetwork, "lost"},
		{"canceled", canceled, errors.New("read: use of closed connection"), llm.ErrCanceled, "canceled"},
		{"deadline", context.Background(), fmt.Errorf("x: %w", context.DeadlineExceeded), llm.ErrTimeout, ""},
		{"json", context.Background(), fmt.Errorf("decode: %w", &syn), llm.ErrMalformed, "unparsable"},
	}
	for _, c := range cases {
		e := m.Transport(c.ctx, c.err)
		if e.Kind != c.kind || !strings.Contains(e.Error(), c.text) {
			t.Errorf("%s: %v (kind %s), want %s containing %q", c.name, e, e.Kind, c.kind, c.text)
		}
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
