package apierr

import (
	"errors"
	"fmt"
	"io"
	"time"
)

// KeepAlives counts the lines of a stream that carry nothing of the reply
// (SSE comments, "event: ping" lines, empty data lines, ping events) since
// the last one that did, so that a stream that fails (at the call's
// deadline, most often) after keep-alives alone says so: "context deadline
// exceeded" alone does not tell a server that kept the connection alive
// but never answered from one that went silent. The stream readers keep
// none of these lines; a server that sends only them holds no memory.
// The zero value is ready to use.
type KeepAlives struct {
	n     int
	since time.Time // when the first of the n came
}

// Saw counts one keep-alive line or event.
func (k *KeepAlives) Saw() {
	if k.n == 0 {
		k.since = time.Now()
	}
	k.n++
}

// Reset is told of a line or event that carries the reply.
func (k *KeepAlives) Reset() { k.n = 0 }

// Explain returns err, the stream's read error, saying that keep-alives
// alone came before it, if they did; err as it is otherwise, and for the
// stream's clean end.
func (k *KeepAlives) Explain(err error) error {
	if err == nil || k.n == 0 || errors.Is(err, io.EOF) {
		return err
	}
	lines := "lines"
	if k.n == 1 {
		lines = "line"
	}
	return fmt.Errorf("%w: for the last %s the server sent keep-alives alone (%d %s) and nothing of the reply",
		err, time.Since(k.since).Round(100*time.Millisecond), k.n, lines)
}
