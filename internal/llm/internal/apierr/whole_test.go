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

// Every line end, even split across reads, becomes one "\n".
func TestLineEnds(t *testing.T) {
	in := "a\r\nb\rc\n\r\r\nd\r"
	for _, size := range []int{1, 2, 3, len(in)} {
		got, err := io.ReadAll(LineEnds(&chunked{s: in, n: size}))
		if err != nil || string(got) != "a\nb\nc\n\n\nd\n" {
			t.Errorf("read %d at a time: %q %v", size, got, err)
		}
	}
}

// chunked reads s n bytes at a time.
type chunked struct {
	s string
	n int
}

func (c *chunked) Read(p []byte) (int, error) {
	if c.s == "" {
		return 0, io.EOF
	}
	k := copy(p[:min(len(p), c.n)], c.s)
	c.s = c.s[k:]
	return k, nil
}
