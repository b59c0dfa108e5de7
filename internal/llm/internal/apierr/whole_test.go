package apierr

import (
	"bytes"
	"io"
	"net/http"
	"strings"
	"testing"
)

// TestWholeAsStream: a reply sent whole is answered with the events made
// of it, as a stream; one past MaxWholeReply is refused, saying so, and its
// body is closed either way.
func TestWholeAsStream(t *testing.T) {
	for _, tc := range []struct {
		name string
		body []byte
		err  string
	}{
		{"whole", []byte(`{"id":"x"}`), ""},
		{"too large", bytes.Repeat([]byte("a"), MaxWholeReply+1), "more than 16 MB instead of a stream"},
	} {
		closed := false
		body := &closer{Reader: bytes.NewReader(tc.body), closed: &closed}
		res := &http.Response{Body: body, Header: http.Header{"Content-Type": {"application/json"}, "Content-Length": {"10"}}, ContentLength: 10}
		got, err := WholeAsStream(res, body, func(whole []byte) []byte { return append([]byte("data: "), whole...) })
		if !closed {
			t.Errorf("%s: the body is not closed", tc.name)
		}
		if tc.err != "" {
			if err == nil || !strings.Contains(err.Error(), tc.err) {
				t.Errorf("%s: %v, want %q", tc.name, err, tc.err)
			}
			continue
		}
		if err != nil {
			t.Fatalf("%s: %v", tc.name, err)
		}
		b, _ := io.ReadAll(got.Body)
		if string(b) != `data: {"id":"x"}` || got.Header.Get("Content-Type") != "text/event-stream" || got.ContentLength != -1 || got.Header.Get("Content-Length") != "" {
			t.Errorf("%s: %q %v %d", tc.name, b, got.Header, got.ContentLength)
		}
	}
}

type closer struct {
	io.Reader
	closed *bool
}

func (c *closer) Close() error { *c.closed = true; return nil }
