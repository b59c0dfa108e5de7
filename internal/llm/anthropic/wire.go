package anthropic

import (
	"bufio"
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"maps"
	"net/http"
	"slices"
	"strings"

	"github.com/anthropics/anthropic-sdk-go/v2/option"

	"github.com/parleyhq/parley/internal/llm/internal/apierr"
)

// repairStream is a middleware that turns what Anthropic-compatible servers
// and proxies send into what the SDK's stream decoder reads:
//
//   - events sent as "data:" lines alone, without their "event:" line (some
//     proxies drop it): the SDK dispatches by the event name and would skip
//     every event, and the reply would look cut. The name is the data's own
//     "type", as the API sends it;
//   - a whole Message object, sent by servers that ignore "stream": true,
//     becomes the events that carry the same reply;
//   - a byte order mark before the body is dropped (see apierr.SkipBOM), and
//     lines ended by a lone "\r" are ended by "\n" (see apierr.LineEnds).
func repairStream(req *http.Request, next option.MiddlewareNext) (*http.Response, error) {
	res, err := next(req)
	if err != nil || res == nil || res.Body == nil || res.StatusCode < 200 || res.StatusCode > 299 {
		return res, err
	}
	br := bufio.NewReader(apierr.LineEnds(res.Body))
	apierr.SkipBOM(br)
	first, ferr := apierr.FirstByte(br)
	if e := apierr.NoContent(res, ferr); e != nil {
		_ = res.Body.Close()
		return nil, e
	}
	switch first {
	case '{':
		return apierr.WholeAsStream(res, br, messageToEvents)
	case '<':
		// A web page sent as something other than text/html (which
		// RejectWebPage refuses): a login portal or a web UI at the
		// base URL, not the API. Read as a stream it had no event and
		// looked cut, and was retried in vain.
		_ = res.Body.Close()
		return nil, apierr.WebPageError(req)
	}
	if e := apierr.NotEventStream(br); e != nil {
		_ = res.Body.Close()
		return nil, e
	}
	res.Body = &namedEvents{r: br, c: res.Body}
	return res, nil
}

// namedEvents passes a stream on event by event (an event's lines, up to
// the blank line that ends it), mending an event the SDK's decoder would
// drop or misread (see fix). The SDK dispatches an event by its name and
// drops a "ping" (or an unnamed) event whatever its data holds.
//
// What carries nothing is not kept (see sseEvent.add): a broken or
// hostile server that sends keep-alive lines alone, however many, holds
// no memory, and the call ends at its deadline saying so (keepAlives).
type namedEvents struct {
	r   *bufio.Reader
	c   io.Closer
	ev  sseEvent // the event being read
	buf []byte
	err error
	// keepAlives counts what came since the last event of the reply.
	keepAlives apierr.KeepAlives
}

// sseEvent is one event of a stream, as much of it as the SSE spec reads:
// its data: lines, and the last of its event:, id: and retry: lines (a
// field sent again replaces the one before). Comments and fields the spec
// ignores are dropped.
type sseEvent struct {
	dataLines [][]byte // its data: lines, as sent
	// event, id and retry are its last such lines, as sent.
	event, id, retry []byte
	size             int    // the bytes of its data: lines
	name             string // its event: line's value
	named            bool   // it has an event: line
	// data is its data: lines' values, which the SSE spec joins with
	// newlines.
	data [][]byte
	// ended is set when the last line read (kept or not) came whole,
	// with its line end; dropped is set when a line was read and not
	// kept.
	ended, dropped bool
}

func (n *namedEvents) Read(p []byte) (int, error) {
	for len(n.buf) == 0 {
		if n.err != nil {
			return 0, n.err
		}
		line, err := n.line()
		// A byte order mark at the start of a line, not only of the
		// body (a proxy that writes each event with one): the SDK read
		// the line as a field named "\uFEFFevent", dropping its event.
		line = apierr.TrimBOM(line)
		switch t := bytes.TrimRight(line, "\r\n"); {
		case err != nil:
			n.err = n.keepAlives.Explain(err)
			if errors.Is(err, io.EOF) && len(line) == 0 && n.ev.kept() && n.ev.ended {
				// The stream ended cleanly after a whole line of an
				// event without the blank line that dispatches it (a
				// server's last event): it is dispatched, rather than
				// dropped and the reply read as cut and asked again.
				n.buf = append(n.fix(), '\n')
			} else {
				n.buf = append(n.raw(), line...)
			}
			n.ev = sseEvent{}
		case len(t) == 0:
			n.countKeepAlive()
			n.buf = append(n.fix(), line...)
			n.ev = sseEvent{}
		default:
			// Only data lines are kept (see add), and bounded.
			if bytes.HasPrefix(t, []byte("data")) && n.ev.size+len(line) > apierr.MaxLine {
				n.err = apierr.TooLarge(fmt.Sprintf("a stream event of more than %d MB", apierr.MaxLine>>20))
				continue
			}
			if !n.ev.add(line, t) {
				n.keepAlives.Saw()
			}
		}
	}
	k := copy(p, n.buf)
	n.buf = n.buf[k:]
	return k, nil
}

func (n *namedEvents) line() ([]byte, error) { return apierr.ReadLine(n.r) }

// add takes in line (which may be the reader's buffer), t being it
// without its line end, and reports whether it carries the reply: a
// data: line does. A comment (":", a keep-alive) and a field the SSE spec
// ignores are not kept, and an event:, id: or retry: line replaces the
// one before it, as the spec reads them: a server that sends them alone,
// without end, grows nothing. (They were all kept, as one event, until
// 16 MB of them failed the call; ":\n" lines held over 1 GB by then.)
func (e *sseEvent) add(line, t []byte) bool {
	e.ended = line[len(line)-1] == '\n'
	field, value, _ := bytes.Cut(t, []byte(":"))
	// One space after the colon is not part of the value.
	value = bytes.TrimPrefix(value, []byte(" "))
	switch string(field) {
	case "data":
		// Kept in a copy: line is the reader's buffer.
		c, off := bytes.Clone(line), len(t)-len(value)
		e.dataLines = append(e.dataLines, c)
		e.data = append(e.data, c[off:len(t):len(t)])
		e.size += len(c)
		return true
	case "event":
		e.name, e.named = string(bytes.TrimSpace(value)), true
		e.event = bytes.Clone(line)
	case "id":
		e.id = bytes.Clone(line)
	case "retry":
		e.retry = bytes.Clone(line)
	default:
		e.dropped = true
	}
	return false
}

// kept reports whether the event holds a line to pass on.
func (e *sseEvent) kept() bool {
	return len(e.dataLines) > 0 || e.event != nil || e.id != nil || e.retry != nil
}

// countKeepAlive tells n.keepAlives of the event that ends: one with
// data other than a ping's carries the reply; one of lines alone, or a
// ping, does not.
func (n *namedEvents) countKeepAlive() {
	ev := &n.ev
	switch {
	case len(ev.data) == 0:
		if ev.kept() || ev.dropped {
			n.keepAlives.Saw()
		}
	case ping(ev):
		n.keepAlives.Saw()
	default:
		n.keepAlives.Reset()
	}
}

// ping reports whether ev is a ping event: its data's type is "ping",
// or it is named "ping" and its data has no type.
func ping(ev *sseEvent) bool {
	var d struct {
		Type string `json:"type"`
	}
	if len(ev.data) != 1 || json.Unmarshal(ev.data[0], &d) != nil {
		return false
	}
	return d.Type == "ping" || d.Type == "" && ev.name == "ping"
}

// raw is the event's lines as they came: its kept fields, then its data.
func (n *namedEvents) raw() []byte {
	ev := &n.ev
	return bytes.Join(append([][]byte{ev.event, ev.id, ev.retry}, ev.dataLines...), nil)
}

// fix returns the event, ended by the blank line that came after it, in
// a form the SDK reads as what it is:
//
//   - an event without an event: line (some proxies drop it) is named by
//     its data's "type", as the API names it, or "error" when its data is
//     another server's error; the SDK skipped it, and the reply looked cut
//     (or lost its text, a delta at a time);
//   - a "ping" event whose data is another of the API's events (a content
//     delta) is that event: the SDK drops every ping, and the text in it
//     was lost while the rest stood as the whole reply. The streaming docs
//     give a ping no data but {"type": "ping"}; the data's type is what
//     the SDK reads every other event by;
//   - an event of the API's whose data has no "type" is given its name's:
//     the SDK reads an event by its data's type, and read none;
//   - an error event in another server's shape ({"message": ...}, OpenAI's
//     {"error": {...}}, vLLM's bare object, text) is in the API's, so that
//     the SDK reads its message (it read none);
//   - an event of a type the API does not send (a proxy's heartbeat,
//     "data: ping") whose data is not JSON loses its data: the streaming
//     docs ask clients to pass over unknown event types, and the SDK,
//     which decodes every event's data, failed the call on it.
func (n *namedEvents) fix() []byte {
	ev := &n.ev
	if len(ev.data) == 0 {
		return n.raw()
	}
	data := bytes.TrimSpace(bytes.Join(ev.data, []byte("\n")))
	switch {
	case ev.named && ev.name == "error":
		if len(data) == 0 {
			return n.raw()
		}
		return ev.as("error", errorEvent(data))
	case ev.named && !slices.Contains(apiEvents, ev.name) && !json.Valid(data):
		return ev.as(ev.name, nil)
	}
	var obj map[string]json.RawMessage
	if json.Unmarshal(data, &obj) != nil || obj == nil {
		return n.raw()
	}
	var typ, object string
	_ = json.Unmarshal(obj["type"], &typ)
	_ = json.Unmarshal(obj["object"], &object)
	errObj := obj["error"]
	switch {
	case !ev.named && typ != "" && !strings.ContainsAny(typ, "\r\n"):
		return ev.as(typ, data)
	case !ev.named && (len(errObj) > 0 && string(errObj) != "null" || object == "error"):
		// An OpenAI-compatible server's error, passed on by a
		// proxy with neither event name nor type.
		return ev.as("error", errorEvent(data))
	case ev.named && ev.name == "ping" && typ != "ping" && slices.Contains(apiEvents, typ):
		return ev.as(typ, data)
	case ev.named && obj["type"] == nil && ev.name != "ping" && slices.Contains(apiEvents, ev.name):
		name, _ := json.Marshal(ev.name)
		obj["type"] = name
		if typed, err := json.Marshal(obj); err == nil {
			return ev.as(ev.name, typed)
		}
	}
	return n.raw()
}

// as is the event named name with data (none when nil) and its id: and
// retry: lines, without the blank line that ends it.
func (e *sseEvent) as(name string, data []byte) []byte {
	out := append(bytes.Clone(e.id), e.retry...)
	out = append(out, "event: "+name+"\n"...)
	if data != nil {
		for l := range bytes.SplitSeq(data, []byte("\n")) {
			out = append(append(append(out, "data: "...), l...), '\n')
		}
	}
	return out
}

func (n *namedEvents) Close() error { return n.c.Close() }

// apiEvents are the event types the Messages API streams.
var apiEvents = []string{"message_start", "content_block_start", "content_block_delta", "content_block_stop", "message_delta", "message_stop", "ping", "error"}

// messageToEvents turns a Message object into the events that stream the
// same reply. Anything else (an {"type":"error",...} object sent with a
// 200) is passed on as an error event, which the SDK reports.
func messageToEvents(body []byte) []byte {
	var msg struct {
		Type        string          `json:"type"`
		Content     contentBlocks   `json:"content"`
		StopReason  *string         `json:"stop_reason"`
		StopDetails json.RawMessage `json:"stop_details"`
		Usage       json.RawMessage `json:"usage"`
	}
	var out bytes.Buffer
	event := func(name string, v any) {
		b, err := json.Marshal(v)
		if err != nil {
			return
		}
		fmt.Fprintf(&out, "event: %s\ndata: %s\n\n", name, b)
	}
	var typ struct {
		Type string `json:"type"`
	}
	if err := json.Unmarshal(body, &msg); err != nil && json.Unmarshal(body, &typ) == nil && typ.Type == "message" {
		// A Message, of another shape than the API's: said so, not
		// quoted whole as if it were an error.
		b, _ := json.Marshal(map[string]any{"type": "error", "error": map[string]any{"type": "api_error", "message": apierr.Detail(err.Error())}})
		fmt.Fprintf(&out, "event: error\ndata: %s\n\n", b)
		return out.Bytes()
	} else if err != nil || msg.Type != "message" {
		fmt.Fprintf(&out, "event: error\ndata: %s\n\n", errorEvent(body))
		return out.Bytes()
	}
	var full map[string]any
	_ = json.Unmarshal(body, &full)
	start := maps.Clone(full)
	if start == nil {
		start = map[string]any{}
	}
	start["content"] = []any{}
	start["stop_reason"] = nil
	event("message_start", map[string]any{"type": "message_start", "message": start})
	for i, raw := range msg.Content {
		var block map[string]any
		if json.Unmarshal(raw, &block) != nil {
			continue
		}
		switch block["type"] {
		case "text":
			event("content_block_start", map[string]any{"type": "content_block_start", "index": i, "content_block": map[string]any{"type": "text", "text": ""}})
			event("content_block_delta", map[string]any{"type": "content_block_delta", "index": i, "delta": map[string]any{"type": "text_delta", "text": block["text"]}})
		case "tool_use":
			input, _ := json.Marshal(block["input"])
			event("content_block_start", map[string]any{"type": "content_block_start", "index": i,
				"content_block": map[string]any{"type": "tool_use", "id": block["id"], "name": block["name"], "input": map[string]any{}}})
			event("content_block_delta", map[string]any{"type": "content_block_delta", "index": i, "delta": map[string]any{"type": "input_json_delta", "partial_json": string(input)}})
		case "thinking":
			// Not the answer, but the content a paused turn sends back
			// (with its signature), and a compatible server's answer when
			// it sent nothing else, as in a stream.
			event("content_block_start", map[string]any{"type": "content_block_start", "index": i, "content_block": map[string]any{"type": "thinking", "thinking": "", "signature": ""}})
			if s, _ := block["thinking"].(string); s != "" {
				event("content_block_delta", map[string]any{"type": "content_block_delta", "index": i, "delta": map[string]any{"type": "thinking_delta", "thinking": s}})
			}
			if s, _ := block["signature"].(string); s != "" {
				event("content_block_delta", map[string]any{"type": "content_block_delta", "index": i, "delta": map[string]any{"type": "signature_delta", "signature": s}})
			}
		default:
			// Server tool blocks, redacted thinking: not the answer, but
			// the content a paused turn sends back as it came.
			event("content_block_start", map[string]any{"type": "content_block_start", "index": i, "content_block": block})
		}
		event("content_block_stop", map[string]any{"type": "content_block_stop", "index": i})
	}
	d := map[string]any{"stop_reason": msg.StopReason, "stop_sequence": nil}
	if len(msg.StopDetails) > 0 && string(msg.StopDetails) != "null" {
		d["stop_details"] = msg.StopDetails
	}
	delta := map[string]any{"type": "message_delta", "delta": d}
	if len(msg.Usage) > 0 && string(msg.Usage) != "null" {
		delta["usage"] = msg.Usage
	}
	event("message_delta", delta)
	event("message_stop", map[string]any{"type": "message_stop"})
	return out.Bytes()
}

// contentBlocks is a Message's content: a list of blocks, or a string,
// which the API takes in a request as one text block and a compatible
// server may send so (read as no list, the reply was reported as "an
// error event" quoting it). Another type fails to unmarshal, saying so.
type contentBlocks []json.RawMessage

func (c *contentBlocks) UnmarshalJSON(b []byte) error {
	var s string
	switch t := bytes.TrimSpace(b); {
	case string(t) == "null":
		return nil
	case json.Unmarshal(t, &s) == nil:
		block, err := json.Marshal(map[string]string{"type": "text", "text": s})
		*c = contentBlocks{block}
		return err
	case len(t) > 0 && t[0] == '[':
		return json.Unmarshal(t, (*[]json.RawMessage)(c))
	}
	return fmt.Errorf("the server sent a message whose content is %s, not a list of content blocks: %s", apierr.JSONType(string(b)), apierr.Detail(string(b)))
}

// errorEvent is the data of the API's error event for body, something
// other than a Message sent with a 200: the API's own error object as it
// is; another server's ({"error": "text"} from Ollama, vLLM's bare
// {"object":"error","message":...,"code":404}) in the API's shape, typed
// by its numeric code, so that the SDK reads its message (it read none
// from them) and the provider classifies it.
func errorEvent(body []byte) []byte {
	var own struct {
		Type  string          `json:"type"`
		Error json.RawMessage `json:"error"`
	}
	if json.Unmarshal(body, &own) == nil && own.Type == "error" && bytes.HasPrefix(own.Error, []byte("{")) {
		return bytes.ReplaceAll(body, []byte("\n"), nil)
	}
	var other struct {
		Code  json.RawMessage `json:"code"`
		Error json.RawMessage `json:"error"`
	}
	_ = json.Unmarshal(body, &other)
	var inner struct {
		Code json.RawMessage `json:"code"`
	}
	if json.Unmarshal(other.Error, &inner) == nil && len(inner.Code) > 0 {
		other.Code = inner.Code
	}
	msg := apierr.BodyDetail(body)
	if msg == "" {
		msg = "the server answered with something other than a message: " + apierr.Detail(string(body))
	}
	out, _ := json.Marshal(map[string]any{"type": "error", "error": map[string]any{"type": errorType(other.Code), "message": msg}})
	return out
}

// errorType is the API's error type for an HTTP status code sent as a
// number or a numeric string; "api_error" for anything else.
func errorType(code json.RawMessage) string {
	var n int
	if json.Unmarshal(code, &n) != nil {
		var s string
		if json.Unmarshal(code, &s) != nil {
			return "api_error"
		}
		if _, err := fmt.Sscanf(s, "%d", &n); err != nil {
			return "api_error"
		}
	}
	switch {
	case n == http.StatusUnauthorized:
		return "authentication_error"
	case n == http.StatusForbidden:
		return "permission_error"
	case n == http.StatusNotFound:
		return "not_found_error"
	case n == http.StatusRequestEntityTooLarge:
		return "request_too_large"
	case n == http.StatusTooManyRequests:
		return "rate_limit_error"
	case n == 529 || n == http.StatusServiceUnavailable:
		return "overloaded_error"
	case n == http.StatusGatewayTimeout || n == http.StatusRequestTimeout:
		return "timeout_error"
	case n >= 400 && n < 500:
		return "invalid_request_error"
	}
	return "api_error"
}
