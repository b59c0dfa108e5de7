package openai

import (
	"bufio"
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"slices"
	"strings"
	"sync/atomic"

	"github.com/openai/openai-go/v3/option"

	"github.com/parleyhq/parley/internal/llm/internal/apierr"
)

// normalize is a middleware that turns what OpenAI-compatible servers
// actually send into what the SDK's stream decoder reads:
//
//   - an error body in any of the shapes servers use ({"error":{...}},
//     {"error":"text"} from Ollama, a bare {"message":...} from vLLM, an HTML
//     page from a proxy) becomes {"error":{"message":...}}, bounded and free
//     of control characters; the SDK would otherwise fail to decode the
//     string form and report the status as an unparsable reply;
//   - a whole chat.completion object, sent by servers that ignore
//     "stream": true, becomes a one-chunk stream; the SDK would see no events
//     and the reply would look cut;
//   - a stream whose last event lacks its closing blank line gets one, so
//     that the SDK dispatches the event instead of dropping it;
//   - a byte order mark before the body is dropped (see apierr.SkipBOM), and
//     lines ended by a lone "\r" are ended by "\n" (see apierr.LineEnds);
//   - a redirect the client did not follow (see apierr.CheckRedirect) fails
//     the call naming where the server points (apierr.RedirectError).
func normalize(req *http.Request, next option.MiddlewareNext) (*http.Response, error) {
	res, err := next(req)
	if err != nil || res == nil || res.Body == nil {
		return res, err
	}
	if e := apierr.RedirectError(req, res); e != nil {
		_ = res.Body.Close()
		return nil, e
	}
	if res.StatusCode >= 400 {
		body, rerr := io.ReadAll(io.LimitReader(res.Body, apierr.MaxErrorBody))
		_ = res.Body.Close()
		if rerr != nil {
			return nil, fmt.Errorf("read the HTTP %d response: %w", res.StatusCode, rerr)
		}
		res.Body = io.NopCloser(bytes.NewReader(errorBody(apierr.TrimBOM(body))))
		res.ContentLength = -1
		res.Header.Del("Content-Length")
		return res, nil
	}
	if res.StatusCode < 200 || res.StatusCode > 299 {
		return res, nil
	}
	br := bufio.NewReader(apierr.LineEnds(res.Body))
	apierr.SkipBOM(br)
	first, ferr := apierr.FirstByte(br)
	if e := apierr.NoContent(res, ferr); e != nil {
		_ = res.Body.Close()
		return nil, e
	}
	if first == '<' || strings.HasPrefix(res.Header.Get("Content-Type"), "text/html") {
		// A web page with status 200: the base URL names a web UI or a
		// login portal, not the API. Waiting will not change that.
		_ = res.Body.Close()
		e := apierr.WebPageError(req)
		e.Err = fmt.Errorf("%w (OpenAI-compatible servers serve the API under /v1)", e.Err)
		return nil, e
	}
	if first == '{' {
		// A reply sent whole, or a stream of line-delimited JSON: which
		// one, the first line says.
		line, err := firstLine(br)
		if err != nil {
			_ = res.Body.Close()
			return nil, err
		}
		rest := bufio.NewReader(io.MultiReader(bytes.NewReader(line), br))
		if !chunkLine(line) {
			return apierr.WholeAsStream(res, rest, wholeToStream)
		}
		br = rest
	}
	if e := apierr.NotEventStream(br); e != nil {
		_ = res.Body.Close()
		return nil, e
	}
	end, _ := req.Context().Value(streamEndKey{}).(*streamEnd)
	l := &lines{r: br, c: res.Body, end: end}
	if end != nil {
		end.body.Store(l)
	}
	res.Body = l
	return res, nil
}

// streamEnd records, for the call whose context carries it, that the
// stream's "data: [DONE]" came: the server's own word that the reply is
// whole, which a reply without any finish_reason (servers that send null in
// every chunk) has no other way to give. The SDK's decoder reads [DONE] as
// the end of the stream without saying so, as it does a clean EOF.
type streamEnd struct {
	done atomic.Bool
	// body is the stream, read by the SDK up to its [DONE].
	body atomic.Pointer[lines]
}

// close closes the body that Close left open.
func (e *streamEnd) close() {
	if l := e.body.Load(); l != nil {
		_ = l.c.Close()
	}
}

// maxAfterDone bounds the lines read after "data: [DONE]" (see
// moreAfterDone).
const maxAfterDone = 64

// moreAfterDone reads what is left of the stream after its "data:
// [DONE]", up to its end (or its failure, as when its context is
// cancelled, or maxAfterDone lines), and reports whether a chunk with a
// choice came there: the server said [DONE] before the end of its reply,
// and the SDK, which stops reading at [DONE], dropped the rest.
func (e *streamEnd) moreAfterDone() bool {
	l := e.body.Load()
	if l == nil || !e.done.Load() {
		return false
	}
	for range maxAfterDone {
		line, err := l.line()
		if data, ok := bytes.CutPrefix(bytes.TrimSpace(apierr.TrimBOM(line)), []byte("data:")); ok {
			var chunk struct {
				Choices []json.RawMessage `json:"choices"`
			}
			if json.Unmarshal(bytes.TrimSpace(data), &chunk) == nil && len(chunk.Choices) > 0 {
				return true
			}
		}
		if err != nil {
			return false
		}
	}
	return false
}

type streamEndKey struct{}

// firstLine reads the body's first line, or its first apierr.MaxLine
// bytes when the line is longer: no chunk is, and a reply sent whole
// longer still fails as one (see apierr.WholeAsStream). A reply sent
// whole on one line is read whole, as it would be anyway.
func firstLine(br *bufio.Reader) ([]byte, error) {
	var line []byte
	for {
		part, err := br.ReadSlice('\n')
		line = append(line, part...)
		if len(line) > apierr.MaxLine {
			return line, nil
		}
		if errors.Is(err, bufio.ErrBufferFull) {
			continue
		}
		if err != nil && !errors.Is(err, io.EOF) {
			return nil, err
		}
		return line, nil
	}
}

// chunkLine reports whether line, a body's first line, is by itself a
// whole chat.completion.chunk object: the body is then a stream framed as
// line-delimited JSON, a chunk a line, which gateways that re-frame a
// stream and servers that speak their own line-delimited format send for
// "stream": true. Read as one reply sent whole it does not parse, and the
// call failed as malformed, again on every try; read line by line it is
// the stream it is, as it arrives (see lines.fix).
func chunkLine(line []byte) bool {
	var obj struct {
		Object  string `json:"object"`
		Choices *[]struct {
			Delta json.RawMessage `json:"delta"`
		} `json:"choices"`
	}
	if json.Unmarshal(bytes.TrimSpace(line), &obj) != nil || obj.Choices == nil {
		return false
	}
	switch {
	case obj.Object == "chat.completion.chunk":
		return true
	case len(*obj.Choices) == 0:
		// A chunk with no choice (Azure's filter results, the counts):
		// a whole reply has one.
		return true
	}
	return len((*obj.Choices)[0].Delta) > 0
}

// lines passes a stream on line by line, with repairs: a stream that ends
// cleanly gets a closing blank line, which dispatches a last event sent
// without one (an extra blank line is ignored); and each line is mended by
// fix. A line longer than apierr.MaxLine fails the stream
// (apierr.LineTooLarge), as the SDK's own decoder would at its larger
// limit, but saying why. A stream that fails keeps its error.
type lines struct {
	r   *bufio.Reader
	c   io.Closer
	end *streamEnd // nil when the caller does not ask
	// data is set when the current event has a data line that is a whole
	// JSON object (or [DONE]).
	data bool
	// errorEvent is set when the current event was named "error".
	errorEvent bool
	// otherEvent is set when the current event was named otherwise than
	// "error" or "message", the names OpenAI-compatible streams use.
	otherEvent bool
	buf        []byte
	err        error
	// keepAlives counts the lines that carried nothing of the reply
	// since the last that did, for the error of a stream that fails
	// after them (at the call's deadline).
	keepAlives apierr.KeepAlives
}

func (l *lines) Read(p []byte) (int, error) {
	for len(l.buf) == 0 {
		if l.err != nil {
			return 0, l.err
		}
		line, err := l.line()
		// A byte order mark at the start of a line, not only of the
		// body (a proxy that writes each event with one): the SDK read
		// the line as a field named "\uFEFFdata", dropping its event.
		line = apierr.TrimBOM(line)
		eof := errors.Is(err, io.EOF)
		if err != nil && !eof {
			l.buf, l.err = line, l.keepAlives.Explain(err)
			continue
		}
		l.buf = l.fix(line)
		if eof {
			// Clipped: the line may be the reader's buffer.
			l.buf, l.err = append(slices.Clip(l.buf), "\n\n"...), io.EOF
		}
	}
	n := copy(p, l.buf)
	l.buf = l.buf[n:]
	return n, nil
}

// fix repairs one line of the stream:
//   - a data line with no data (a keep-alive some servers send) is dropped:
//     the SDK would dispatch it and fail to decode nothing;
//   - a data line that follows a whole JSON object's data line with no
//     blank line between (servers that end events with one newline) starts
//     a new event, rather than be joined to the last one in a document that
//     does not parse;
//   - "data: [DONE]" is recorded (see streamEnd);
//   - a line of line-delimited JSON (a chunk object, [DONE]) is a data
//     line;
//   - an "error:" line (llama.cpp) becomes an {"error": ...} data event;
//   - a top-level "error": null is dropped (fixLine).
func (l *lines) fix(line []byte) []byte {
	t := bytes.TrimRight(line, "\r\n")
	if len(t) == 0 {
		l.data, l.errorEvent, l.otherEvent = false, false, false
		return line
	}
	if d, ok := bytes.CutPrefix(t, []byte("data:")); ok && !l.otherEvent && len(bytes.TrimSpace(d)) > 0 {
		l.keepAlives.Reset()
	} else if t[0] != '{' && !bytes.Equal(t, []byte("[DONE]")) && !bytes.HasPrefix(t, []byte("error:")) {
		// A comment, an empty data line, an event: line, an event of
		// another type's data: nothing of the reply.
		l.keepAlives.Saw()
	}
	if t[0] == '{' || string(t) == "[DONE]" {
		// A line of line-delimited JSON (see chunkLine): no SSE line
		// starts so, and the spec would have it ignored as a field of
		// that name. It is the data of an event.
		line = append([]byte("data: "), line...)
		t = bytes.TrimRight(line, "\r\n")
	}
	if name, ok := bytes.CutPrefix(t, []byte("event:")); ok {
		n := string(bytes.TrimSpace(name))
		l.errorEvent, l.otherEvent = n == "error", n != "error" && n != "message" && n != ""
		return line
	}
	if d, ok := bytes.CutPrefix(t, []byte("data:")); ok && l.otherEvent && !json.Valid(bytes.TrimSpace(d)) {
		// An event of a type of its own (a proxy's heartbeat,
		// "data: ping"), whose data is not JSON: no chunk, and the SDK,
		// which decodes every event's data, failed the call on it.
		// Without its data the event is skipped.
		return nil
	}
	if e, ok := bytes.CutPrefix(t, []byte("data:")); ok && l.errorEvent && !l.data {
		// An event named "error" whose data is the error itself
		// ({"message": ...}, or text), as generic SSE servers send it:
		// the SDK reads errors by an "error" member and would take it
		// for a chunk with no choice, the stream then looking cut.
		var obj map[string]json.RawMessage
		if e = bytes.TrimSpace(e); len(e) > 0 && (json.Unmarshal(e, &obj) != nil || obj["error"] == nil) {
			l.data = true
			return errorEvent(e)
		}
	}
	if e, ok := bytes.CutPrefix(t, []byte("error:")); ok {
		// llama.cpp's server sends an error inside a stream on an
		// "error:" line, a field the SSE spec (and so the SDK) ignores:
		// the stream would just end, as if cut, and its message be lost.
		// It becomes the {"error": ...} event other servers send.
		out := errorEvent(bytes.TrimSpace(e))
		if l.data {
			out = append([]byte("\n"), out...)
		}
		l.data = true
		return out
	}
	payload, ok := bytes.CutPrefix(t, []byte("data:"))
	if !ok {
		return line
	}
	payload = bytes.TrimSpace(payload)
	if len(payload) == 0 {
		return nil
	}
	done := string(payload) == "[DONE]"
	if done && l.end != nil {
		l.end.done.Store(true)
	}
	out := fixLine(line)
	if l.data {
		out = append([]byte("\n"), out...)
	}
	// Only a whole JSON document: an event's data may go on over
	// several data lines, which the SSE spec joins, and a part of one
	// can begin with "{" and end with "}".
	l.data = done || payload[0] == '{' && payload[len(payload)-1] == '}' && json.Valid(payload)
	return out
}

// errorEvent is the data line of an {"error": v} event, v being an error
// object sent elsewhere: as it is when it is JSON, as a string when not.
func errorEvent(v []byte) []byte {
	if !json.Valid(v) {
		v, _ = json.Marshal(string(v))
	}
	return append(append([]byte(`data: {"error":`), v...), "}\n"...)
}

// line reads the stream's next line (see apierr.ReadLine).
func (l *lines) line() ([]byte, error) { return apierr.ReadLine(l.r) }

// Close closes the body, unless its "data: [DONE]" came and the caller
// asked for its end (see streamEnd): the SDK closes it at [DONE], and what
// comes after is still to be read (see moreAfterDone), after which the
// caller closes it (streamEnd.close).
func (l *lines) Close() error {
	if l.end != nil && l.end.done.Load() {
		return nil
	}
	return l.c.Close()
}

// bareError reports whether data is an error object sent without an
// "error" around it: vLLM's {"object":"error","message":...,"code":404}.
func bareError(data []byte) bool {
	var obj struct {
		Object  string          `json:"object"`
		Message json.RawMessage `json:"message"`
	}
	return json.Unmarshal(data, &obj) == nil && obj.Object == "error" && len(obj.Message) > 0
}

// fixLine drops a top-level "error": null from a data line, and puts an
// error object sent bare (see bareError) inside {"error": ...}, as the
// SDK reads an error event.
func fixLine(line []byte) []byte {
	if bytes.HasPrefix(line, []byte("data:")) && bytes.Contains(line, []byte(`"object"`)) && bytes.Contains(line, []byte(`"error"`)) {
		if data := bytes.TrimSpace(line[len("data:"):]); bareError(data) {
			return errorEvent(data)
		}
	}
	if !bytes.HasPrefix(line, []byte("data:")) || !bytes.Contains(line, []byte(`"error"`)) || !bytes.Contains(line, []byte("null")) {
		return line
	}
	var obj map[string]json.RawMessage
	data := bytes.TrimSpace(line[len("data:"):])
	if json.Unmarshal(data, &obj) != nil || string(obj["error"]) != "null" {
		return line
	}
	delete(obj, "error")
	out, err := json.Marshal(obj)
	if err != nil {
		return line
	}
	return append(append([]byte("data: "), out...), '\n')
}

// wholeToStream turns a chat.completion object into the chunk stream that
// carries the same reply. Anything else (an {"error":...} object sent with a
// 200) is passed on as one event, which the SDK reports as an error event.
func wholeToStream(body []byte) []byte {
	var whole struct {
		ID      string            `json:"id"`
		Model   string            `json:"model"`
		Choices []json.RawMessage `json:"choices"`
		Usage   json.RawMessage   `json:"usage"`
	}
	var out bytes.Buffer
	event := func(v any) {
		b, err := json.Marshal(v)
		if err != nil {
			return
		}
		out.WriteString("data: ")
		out.Write(b)
		out.WriteString("\n\n")
	}
	if err := json.Unmarshal(body, &whole); err != nil || whole.Choices == nil {
		out.WriteString("data: ")
		if bareError(body) {
			// vLLM's error object, sent bare: without "error" around
			// it the SDK takes it for a chunk with no choice, and the
			// reply would look cut and be retried in vain.
			out.Write(errorBody(body))
			out.WriteString("\n\n")
			return out.Bytes()
		}
		out.Write(bytes.ReplaceAll(body, []byte("\n"), nil))
		out.WriteString("\n\n")
		return out.Bytes()
	}
	choices := make([]map[string]any, 0, len(whole.Choices))
	for _, raw := range whole.Choices {
		var ch map[string]any
		if json.Unmarshal(raw, &ch) != nil {
			continue
		}
		msg, _ := ch["message"].(map[string]any)
		if msg == nil {
			msg = map[string]any{}
		}
		if calls, ok := msg["tool_calls"].([]any); ok {
			for i, c := range calls {
				if m, ok := c.(map[string]any); ok {
					m["index"] = i
				}
			}
		}
		delete(ch, "message")
		ch["delta"] = msg
		choices = append(choices, ch)
	}
	chunk := map[string]any{"id": whole.ID, "object": "chat.completion.chunk", "model": whole.Model, "choices": choices}
	if len(whole.Usage) > 0 && string(whole.Usage) != "null" {
		chunk["usage"] = whole.Usage
	}
	event(chunk)
	out.WriteString("data: [DONE]\n\n")
	return out.Bytes()
}

// validationDetail says what a pydantic validation error list says, one
// "loc: msg" per item ("body.stream_options: Extra inputs are not
// permitted"), cleaned and bounded; "" when v is not such a list. A string
// detail (FastAPI's HTTPException) is returned as it is.
func validationDetail(v any) string {
	if s, ok := v.(string); ok {
		return apierr.Detail(s)
	}
	items, ok := v.([]any)
	if !ok {
		return ""
	}
	var parts []string
	for _, it := range items {
		m, ok := it.(map[string]any)
		if !ok {
			continue
		}
		msg, _ := m["msg"].(string)
		var loc []string
		if l, ok := m["loc"].([]any); ok {
			for _, x := range l {
				loc = append(loc, fmt.Sprint(x))
			}
		}
		if len(loc) > 0 {
			msg = strings.Join(loc, ".") + ": " + msg
		}
		parts = append(parts, msg)
	}
	return apierr.Detail(strings.Join(parts, "; "))
}

// errorBody rewrites an error response into {"error":{...}} with a short,
// clean message, keeping the type and code the server sent.
func errorBody(body []byte) []byte {
	obj := map[string]any{}
	var top map[string]any
	var list []map[string]any
	if json.Unmarshal(body, &list) == nil && len(list) > 0 {
		// Gemini's OpenAI-compatible endpoint sends a list of one.
		top = list[0]
	}
	if top != nil || json.Unmarshal(body, &top) == nil {
		switch e := top["error"].(type) {
		case map[string]any:
			obj = e
		case string:
			obj["message"] = e
		default:
			// vLLM and some proxies send the error object bare.
			obj = top
		}
	} else {
		obj["message"] = apierr.BodyDetail(body)
	}
	switch m := obj["message"].(type) {
	case string:
		obj["message"] = apierr.Detail(m)
	case nil:
		// FastAPI's validation error: {"detail":[{"loc":[...],"msg":...}]}.
		if d := validationDetail(obj["detail"]); d != "" {
			obj["message"] = d
		}
	default:
		// Mistral's: the same list inside the message.
		d := ""
		if mm, ok := m.(map[string]any); ok {
			d = validationDetail(mm["detail"])
		}
		if d == "" {
			b, _ := json.Marshal(m)
			d = apierr.Detail(string(b))
		}
		obj["message"] = d
	}
	for _, k := range []string{"type", "code", "param"} {
		if s, ok := obj[k].(string); ok {
			obj[k] = apierr.Detail(s)
		}
	}
	out, err := json.Marshal(map[string]any{"error": obj})
	if err != nil {
		return []byte(`{"error":{}}`)
	}
	return out
}
