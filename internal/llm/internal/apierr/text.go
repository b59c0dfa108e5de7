package apierr

import (
	"bufio"
	"bytes"
	"fmt"
	"strings"

	"github.com/parleyhq/parley/internal/llm"
)

// NotEventStream returns the error for a 200 body that is neither an event
// stream nor JSON but text: a proxy's "upstream request timeout" or "Bad
// Gateway" sent with the wrong status. Read as a stream it had no events,
// and the reply looked cut with its words lost. It looks only at what has
// arrived (br's buffer, which a Peek before filled), so as not to hold a
// stream's first event back, and returns nil for anything that is, or may
// yet be, a stream: a first line that is blank, a ":" comment, JSON or a
// page, a field the SSE spec or a server uses (data, event, id, retry,
// llama.cpp's error), or the start of a name not yet all here.
func NotEventStream(br *bufio.Reader) *llm.Error {
	b, _ := br.Peek(br.Buffered())
	t := bytes.TrimLeft(b, " \t\r\n")
	if len(t) == 0 || strings.IndexByte(":{[<", t[0]) >= 0 {
		return nil
	}
	end := bytes.IndexAny(t, ":\r\n")
	name := t
	if end >= 0 {
		name = t[:end]
	}
	for _, c := range name {
		if !(c == '_' || c == '-' || c >= '0' && c <= '9' || c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z') {
			return textError(t)
		}
	}
	if end < 0 {
		return nil // the name may go on in the next read
	}
	switch string(name) {
	case "data", "event", "id", "retry", "error":
		return nil
	}
	return textError(t)
}

func textError(t []byte) *llm.Error {
	line, _, _ := bytes.Cut(t, []byte("\n"))
	return &llm.Error{Kind: llm.ErrServer,
		Err: fmt.Errorf("the server answered 200 with text, not an event stream: %q", Detail(string(bytes.TrimRight(line, "\r"))))}
}
