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

// namedEvents passes a stream on line by line, giving a "data:" line that
// has no "event:" line before it in its event one named by its "type".
type namedEvents struct {
	r     *bufio.Reader
	c     io.Closer
	named bool // the current event has its event: line
	error bool // the current event is named "error"
	// other is set when the current event is named with a type the API
	// does not send (see apiEvents).
	other bool
	buf   []byte
	err   error
}

func (n *namedEvents) Read(p []byte) (int, error) {
	for len(n.buf) == 0 {
		if n.err != nil {
			return 0, n.err
		}
		line, err := n.line()
		if err != nil {
			n.err = err
		}
		n.buf = n.fix(line)
	}
	k := copy(p, n.buf)
	n.buf = n.buf[k:]
	return k, nil
}

func (n *namedEvents) line() ([]byte, error) {
	var line []byte
	for {
		part, err := n.r.ReadSlice('\n')
		if line == nil && !errors.Is(err, bufio.ErrBufferFull) {
			// Clipped: part is the reader's buffer, passed on before the
			// next read, and fix may append to it.
			return slices.Clip(part), err
		}
		line = append(line, part...)
		if !errors.Is(err, bufio.ErrBufferFull) {
			return line, err
		}
		if len(line) > apierr.MaxLine {
			return nil, apierr.LineTooLarge()
		}
	}
}

func (n *namedEvents) fix(line []byte) []byte {
	t := bytes.TrimRight(line, "\r\n")
	switch {
	case len(t) == 0:
		n.named, n.error, n.other = false, false, false
	case bytes.HasPrefix(t, []byte("event:")):
		name := string(bytes.TrimSpace(t[len("event:"):]))
		n.named, n.error, n.other = true, name == "error", !slices.Contains(apiEvents, name)
	case bytes.HasPrefix(t, []byte("data:")) && n.other && !json.Valid(bytes.TrimSpace(t[len("data:"):])):
		// An event of a type the API does not send (a proxy's
		// heartbeat, "data: ping"), whose data is not JSON: the
		// streaming docs ask clients to pass over unknown event types,
		// and the SDK, which decodes every event's data, failed the
		// call on it. Without its data the event is skipped.
		return nil
	case bytes.HasPrefix(t, []byte("data:")) && n.error:
		// An error event in another server's shape ({"message": ...},
		// OpenAI's {"error": {...}}, vLLM's bare object, text): in the
		// API's, so that the SDK reads its message (it read none).
		if data := bytes.TrimSpace(t[len("data:"):]); len(data) > 0 {
			return append(append([]byte("data: "), errorEvent(data)...), '\n')
		}
	case bytes.HasPrefix(t, []byte("data:")) && !n.named:
		data := bytes.TrimSpace(t[len("data:"):])
		var ev struct {
			Type   string          `json:"type"`
			Object string          `json:"object"`
			Error  json.RawMessage `json:"error"`
		}
		if json.Unmarshal(data, &ev) != nil {
			break
		}
		switch {
		case ev.Type != "" && !strings.ContainsAny(ev.Type, "\r\n"):
			n.named = true
			return append([]byte("event: "+ev.Type+"\n"), line...)
		case len(ev.Error) > 0 && string(ev.Error) != "null" || ev.Object == "error":
			// An OpenAI-compatible server's error, passed on by a
			// proxy with neither event name nor type: without one
			// the SDK skipped it and the stream looked cut.
			n.named, n.error = true, true
			return append(append([]byte("event: error\ndata: "), errorEvent(data)...), '\n')
		}
	}
	return line
}

func (n *namedEvents) Close() error { return n.c.Close() }

// apiEvents are the event types the Messages API streams.
var apiEvents = []string{"message_start", "content_block_start", "content_block_delta", "content_block_stop", "message_delta", "message_stop", "ping", "error"}

// messageToEvents turns a Message object into the events that stream the
// same reply. Anything else (an {"type":"error",...} object sent with a
// 200) is passed on as an error event, which the SDK reports.
func messageToEvents(body []byte) []byte {
	var msg struct {
		Type        string            `json:"type"`
		Content     []json.RawMessage `json:"content"`
		StopReason  *string           `json:"stop_reason"`
		StopDetails json.RawMessage   `json:"stop_details"`
		Usage       json.RawMessage   `json:"usage"`
	}
	var out bytes.Buffer
	event := func(name string, v any) {
		b, err := json.Marshal(v)
		if err != nil {
			return
		}
		fmt.Fprintf(&out, "event: %s\ndata: %s\n\n", name, b)
	}
	if json.Unmarshal(body, &msg) != nil || msg.Type != "message" {
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
