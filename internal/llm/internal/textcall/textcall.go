// Package textcall reads the tool calls that a server without a tool-call
// parser for the model passes on as the reply's text. Such a server
// (llama.cpp without --jinja, vLLM with no or the wrong --tool-call-parser,
// LM Studio with some models, Ollama with a raw template) accepts the
// request's tools, lets the model write its call in its own format, and
// sends that as the answer with finish_reason "stop". Taken as the answer,
// a research agent's turn would silently be a JSON blob.
//
// The formats known here are the chat templates' own, which a model that
// means to call a tool writes exactly:
//
//   - Hermes, Qwen 2.5/3, NousResearch: <tool_call>{"name": ..., "arguments": {...}}</tool_call>,
//     once per call;
//   - Llama 3.1+: <|python_tag|>{"name": ..., "parameters": {...}}, calls
//     separated by ";", or the bare object (which its template asks for)
//     {"name": ..., "parameters": {...}}, also with "type": "function";
//   - Llama 3.1's custom tool format, which its system prompt can ask for:
//     <function=NAME>{...}</function>;
//   - Llama 3.2+'s pythonic list, the whole reply:
//     [NAME(key="value", n=3), ...], the values Python literals (see
//     pythonic.go), or Llama 4's, wrapped in <|python_start|> and
//     <|python_end|>;
//   - Mistral: [TOOL_CALLS][{"name": ..., "arguments": {...}}, ...], or
//     (tokenizer v11+) [TOOL_CALLS]name[ARGS]{...};
//   - the bare object or array of objects with "arguments";
//   - either of those as the whole reply in a Markdown code fence
//     (```json, ```tool_call or a bare ```), as models tuned on chat
//     data write them when no template says otherwise.
//
// A Filter holds such text back from the stream, so that it is never shown
// as the answer, and reads it when the reply ends: as tool calls when it is
// exactly calls of tools the request offered (Calls), as an error when it
// is plainly meant as one but cannot be read exactly (Garbled), as text
// otherwise. Prose before a wrapper is passed on as it comes; a bare object
// is only taken for a call when it is the whole reply, and so is a pythonic
// list or a fence, so an answer that quotes JSON, shows it in a fence or
// names a tool in prose passes unchanged.
package textcall

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"strings"

	"github.com/parleyhq/parley/internal/llm"
)

// The wrappers that chat templates put around a tool call. They are
// special tokens or tags of the templates, which prose does not write by
// chance; a reply that quotes one anyway is held back only until it ends.
const (
	hermesOpen  = "<tool_call>"
	hermesClose = "</tool_call>"
	pythonTag   = "<|python_tag|>"
	mistralTag  = "[TOOL_CALLS]"
	mistralArgs = "[ARGS]"
	mistralID   = "[CALL_ID]"
	funcOpen    = "<function="
	funcClose   = "</function>"
	pyStart     = "<|python_start|>"
	pyEnd       = "<|python_end|>"
)

// The forms that are no wrapper: a held reply that starts with one of
// these is read as that form ("" is a bare JSON value).
const (
	formPythonic = "pythonic"
	formFence    = "```"
)

var markers = []string{hermesOpen, pythonTag, mistralTag, funcOpen, pyStart}

// fenceTags are the info strings of a Markdown code fence whose body may
// be a call: tool_call says so; json and none only say it is JSON, which
// is looked at only where a bare object is. maxFenceInfo bounds the info
// line waited for: an info string longer than any of these is another.
var fenceTags = []string{"tool_call", "json", ""}

const maxFenceInfo = 16

// MaxHeld bounds the text held back as a possible tool call: 1 MB, what
// the runner keeps of a whole reply. Past it the text is no call and is
// passed on.
const MaxHeld = 1 << 20

// Outcome is what a held reply turned out to be.
type Outcome int

const (
	// Text: no tool call; the text is the answer.
	Text Outcome = iota
	// Calls: exactly tool calls of offered tools, read as such.
	Calls
	// Garbled: plainly meant as a call of an offered tool (a wrapper or
	// an object naming it, with arguments) but not readable exactly:
	// extra text, arguments that are no object, a call cut short.
	Garbled
)

const (
	stStart   = iota // nothing but white space seen
	stPassing        // prose passed on, watched for a wrapper
	stHeld           // from a wrapper (or a leading object) on, held back
	stDone           // passed on, no longer watched
)

// Filter holds back, from one reply's text deltas, a tool call written as
// text. The zero value, and a Filter for a request without tools, pass
// everything on.
type Filter struct {
	tools   map[string]bool
	bare    bool // a leading JSON object or array may be a call
	state   int
	pending string
	// held is the text held back as a possible call (stHeld), in a
	// builder: it may grow to MaxHeld a token at a time.
	held strings.Builder
	form string // the wrapper the held text starts with; "" for a bare object
}

// New returns a Filter for one reply to a request that offered tools.
// bare says whether a reply that is a lone JSON object or array is looked
// at as a call: not when the request asked for a JSON document as its
// answer.
func New(tools []llm.ToolSpec, bare bool) *Filter {
	f := &Filter{bare: bare}
	if len(tools) == 0 {
		f.state = stDone
		return f
	}
	f.tools = map[string]bool{}
	for _, t := range tools {
		f.tools[t.Name] = true
	}
	return f
}

// Feed takes a text delta and returns the text to pass on now.
func (f *Filter) Feed(s string) string {
	switch f.state {
	case stDone:
		return s
	case stHeld:
		f.held.WriteString(s)
		if f.held.Len() > MaxHeld {
			f.state = stDone
			out := f.held.String()
			f.held.Reset()
			return out
		}
		return ""
	case stStart:
		f.pending += s
		t := strings.TrimLeft(f.pending, " \t\r\n")
		if t == "" {
			return ""
		}
		switch form, st := f.start(t); st {
		case startWait:
			return "" // maybe a call, split across deltas: wait
		case startHold:
			// All of it, white space too: if it is no call, it is passed
			// on as it came.
			f.hold(form, f.pending)
			return ""
		}
		f.state = stPassing
		s, f.pending = f.pending, ""
	}
	// Passing prose: look for a wrapper, holding back a tail that may be
	// the start of one.
	buf := f.pending + s
	f.pending = ""
	at, form := -1, ""
	for _, m := range markers {
		if i := strings.Index(buf, m); i >= 0 && (at < 0 || i < at) {
			at, form = i, m
		}
	}
	if at >= 0 {
		f.hold(form, buf[at:])
		return buf[:at]
	}
	keep := 0
	for _, m := range markers {
		for n := min(len(buf), len(m)-1); n > keep; n-- {
			if strings.HasPrefix(m, buf[len(buf)-n:]) {
				keep = n
				break
			}
		}
	}
	f.pending = buf[len(buf)-keep:]
	return buf[:len(buf)-keep]
}

// What the start of a reply says of it.
const (
	startPass = iota // no call: pass it on
	startWait        // too little seen to tell
	startHold        // maybe a call in form: hold it back
)

// start tells, from t, the start of a reply with white space trimmed,
// whether it may be a call, and in what form.
func (f *Filter) start(t string) (form string, st int) {
	for _, m := range markers {
		if strings.HasPrefix(t, m) {
			return m, startHold
		}
		if strings.HasPrefix(m, t) {
			return "", startWait
		}
	}
	if st := f.fenceStart(t); st != startPass {
		return formFence, st
	}
	if f.bare && t[0] == '[' {
		// An array of calls starts with an object, a pythonic list with
		// the name of an offered tool and "("; an answer that starts
		// with a citation ("[1] ...") or a link ("[web_search](...)") is
		// passed on as soon as it differs.
		u := strings.TrimLeft(t[1:], " \t\r\n")
		switch {
		case u == "":
			return "", startWait
		case u[0] == '{':
			return "", startHold
		}
		switch f.pyCall(u) {
		case startHold:
			return formPythonic, startHold
		case startWait:
			return "", startWait
		}
	}
	if f.bare && t[0] == '{' {
		return "", startHold
	}
	return "", startPass
}

// pyCall tells whether u starts as a pythonic call of an offered tool
// does: its name, then "(".
func (f *Filter) pyCall(u string) int {
	st := startPass
	for name := range f.tools {
		if strings.HasPrefix(u, name+"(") {
			return startHold
		}
		if strings.HasPrefix(name+"(", u) {
			st = startWait
		}
	}
	return st
}

// fenceStart tells whether t starts a Markdown code fence whose body
// starts as a JSON call would: an object, or an array of them.
func (f *Filter) fenceStart(t string) int {
	rest, ok := strings.CutPrefix(t, formFence)
	if !ok {
		if strings.HasPrefix(formFence, t) {
			return startWait
		}
		return startPass
	}
	info, body, whole := strings.Cut(rest, "\n")
	tag := strings.ToLower(strings.TrimSpace(info))
	known := false
	for _, k := range fenceTags {
		if whole && tag == k || !whole && len(info) <= maxFenceInfo && strings.HasPrefix(k, tag) {
			known = known || k == "tool_call" || f.bare
		}
	}
	switch {
	case !known:
		return startPass
	case !whole:
		return startWait
	}
	u := strings.TrimLeft(body, " \t\r\n")
	if u != "" && u[0] == '[' {
		u = strings.TrimLeft(u[1:], " \t\r\n")
	}
	switch {
	case u == "":
		return startWait
	case u[0] == '{':
		return startHold
	}
	return startPass
}

// hold starts holding back s, which starts with the wrapper form ("" for
// a bare JSON value).
func (f *Filter) hold(form, s string) {
	f.state, f.form, f.pending = stHeld, form, ""
	f.held.WriteString(s)
}

// Finish reads what was held back when the reply ends. For Text, text is
// what is left to pass on; for Calls, calls are the reply's tool calls
// (IDs are the caller's to give), and text the text they were written as,
// for a caller that does not take them; for Garbled, why says what is wrong and
// form names the format, for an error. cut says the reply was cut at the
// token limit: a call cut short is then dropped, as a native call cut
// short is, rather than shown as text or failed.
func (f *Filter) Finish(cut bool) (out Outcome, text string, calls []llm.ToolCall, form, why string) {
	if f.state != stHeld {
		held := f.pending
		f.pending = ""
		return Text, held, nil, "", ""
	}
	held := f.held.String()
	f.held.Reset()
	f.state = stDone
	form = f.form
	if form == "" {
		form = "a bare JSON object"
	}
	calls, meant, err := f.parse(held)
	switch {
	case err == nil:
		return Calls, held, calls, form, ""
	case meant && cut:
		return Text, "", nil, form, ""
	case meant:
		return Garbled, "", nil, form, err.Error()
	}
	return Text, held, nil, "", ""
}

// parse reads s, which starts with a wrapper or (bare) a JSON value, as
// tool calls. meant reports, when it cannot, that s is plainly meant as a
// call anyway: its first call names an offered tool.
func (f *Filter) parse(s string) (calls []llm.ToolCall, meant bool, err error) {
	s = strings.TrimSpace(s)
	switch f.form {
	case hermesOpen:
		for s != "" {
			rest, ok := strings.CutPrefix(s, hermesOpen)
			if !ok {
				return calls, len(calls) > 0 || meant, fmt.Errorf("text after the tool call: %.40q", s)
			}
			// A last call without its closing tag (a server that
			// stops at it) is whole all the same: its object is.
			body, after, _ := strings.Cut(rest, hermesClose)
			c, m, err := f.object(strings.TrimSpace(body), "arguments", "parameters")
			meant = meant || m
			if err != nil {
				return nil, meant, err
			}
			calls = append(calls, c)
			s = strings.TrimSpace(after)
		}
		return calls, true, nil
	case pythonTag:
		s = trimEnd(strings.TrimPrefix(s, pythonTag))
		return f.sequence(s, ";", "parameters", "arguments")
	case mistralTag:
		return f.mistral(s)
	case funcOpen:
		return f.functions(s)
	case formPythonic:
		return f.pythonic(s)
	case pyStart:
		// Llama 4's wrapper is a special token: a list of calls after it
		// that names an offered tool is meant as one, whatever follows.
		s = trimEnd(strings.TrimPrefix(s, pyStart))
		s = trimEnd(strings.TrimSuffix(s, pyEnd))
		calls, meant, err := f.pythonic(s)
		u := strings.TrimLeft(strings.TrimPrefix(s, "["), " \t\r\n")
		return calls, meant || strings.HasPrefix(s, "[") && f.pyCall(u) == startHold, err
	case formFence:
		return f.fenced(s)
	}
	// Llama's template asks for the bare object; it separates several
	// with ";" as after its tag.
	return f.sequence(s, ";", "arguments", "parameters")
}

// sequence reads s as calls: JSON objects, each a call, or arrays of
// them, separated by sep (or only white space).
func (f *Filter) sequence(s, sep string, argKeys ...string) ([]llm.ToolCall, bool, error) {
	var calls []llm.ToolCall
	meant := false
	for s != "" {
		dec := json.NewDecoder(strings.NewReader(s))
		var raw json.RawMessage
		if err := dec.Decode(&raw); err != nil {
			if errors.Is(err, io.ErrUnexpectedEOF) || errors.Is(err, io.EOF) {
				// Cut short: meant if what came starts as a call of an
				// offered tool.
				return nil, meant || len(calls) > 0 || f.starts(s), fmt.Errorf("the call is cut short: %w", err)
			}
			return nil, meant || len(calls) > 0, fmt.Errorf("not JSON: %w", err)
		}
		objs := []json.RawMessage{raw}
		if bytes.HasPrefix(raw, []byte("[")) {
			objs = nil
			if err := json.Unmarshal(raw, &objs); err != nil || len(objs) == 0 {
				return nil, meant || len(calls) > 0, errors.New("not an array of calls")
			}
		}
		for _, o := range objs {
			c, m, err := f.object(string(o), argKeys...)
			meant = meant || m || len(calls) > 0
			if err != nil {
				return nil, meant, err
			}
			calls = append(calls, c)
		}
		s = strings.TrimSpace(s[dec.InputOffset():])
		if sep != "" {
			s = strings.TrimSpace(strings.TrimPrefix(s, sep))
		}
	}
	if len(calls) == 0 {
		return nil, false, errors.New("no calls")
	}
	return calls, true, nil
}

// starts reports whether s, which is no whole call, starts as a call of
// an offered tool would: an object (or array of them) whose first field
// names the tool. Prose that quotes a call after a wrapper does not.
func (f *Filter) starts(s string) bool {
	var b strings.Builder
	for _, r := range s {
		if r != ' ' && r != '\t' && r != '\n' && r != '\r' {
			b.WriteRune(r)
		}
	}
	c := strings.TrimPrefix(b.String(), "[")
	c = strings.TrimPrefix(c, `{"type":"function",`)
	c = strings.TrimPrefix(c, "{")
	for t := range f.tools {
		q, _ := json.Marshal(t)
		if strings.HasPrefix(c, `"name":`+string(q)) {
			return true
		}
	}
	return false
}

// mistral reads Mistral's calls: [TOOL_CALLS] then an array of objects, or
// (tokenizer v11+) name[ARGS]{...} with [CALL_ID]id before [ARGS] in some
// versions, the tag repeated for each call.
func (f *Filter) mistral(s string) ([]llm.ToolCall, bool, error) {
	s = strings.TrimSpace(strings.TrimPrefix(s, mistralTag))
	if strings.HasPrefix(s, "[") || strings.HasPrefix(s, "{") {
		return f.sequence(s, "", "arguments", "parameters")
	}
	var calls []llm.ToolCall
	for {
		head, rest, ok := strings.Cut(s, mistralArgs)
		name, _, _ := strings.Cut(head, mistralID)
		name = strings.TrimSpace(name)
		meant := f.tools[name] || len(calls) > 0
		if !ok {
			return nil, meant, fmt.Errorf("no %s after the tool's name", mistralArgs)
		}
		if !meant {
			return nil, false, fmt.Errorf("%.40q is not a tool offered", name)
		}
		a, n, err := leadingArgs(name, rest)
		if err != nil {
			return nil, true, err
		}
		calls = append(calls, llm.ToolCall{Name: name, Args: a})
		s = strings.TrimSpace(rest[n:])
		if s == "" {
			return calls, true, nil
		}
		next, ok := strings.CutPrefix(s, mistralTag)
		if !ok {
			return nil, true, fmt.Errorf("text after the tool call: %.40q", s)
		}
		s = strings.TrimSpace(next)
	}
}

// leadingArgs reads the JSON value that s begins with as the arguments of
// tool name (an object); n is how many bytes of s it took.
func leadingArgs(name, s string) (args json.RawMessage, n int, err error) {
	dec := json.NewDecoder(strings.NewReader(s))
	var v json.RawMessage
	if err := dec.Decode(&v); err != nil {
		return nil, 0, fmt.Errorf("arguments of %s: %w", name, err)
	}
	a, err := argsObject(v)
	if err != nil {
		return nil, 0, fmt.Errorf("arguments of %s: %w", name, err)
	}
	return a, int(dec.InputOffset()), nil
}

// functions reads Llama 3.1's custom tool calls:
// <function=NAME>{...}</function>, once per call, the closing tag of the
// last one optional (a server may stop at it).
func (f *Filter) functions(s string) ([]llm.ToolCall, bool, error) {
	var calls []llm.ToolCall
	for s != "" {
		rest, ok := strings.CutPrefix(s, funcOpen)
		if !ok {
			return nil, len(calls) > 0, fmt.Errorf("text after the tool call: %.40q", s)
		}
		name, rest, ok := strings.Cut(rest, ">")
		if !ok || !f.tools[name] {
			return nil, len(calls) > 0, fmt.Errorf("%.40q is not a tool offered", name)
		}
		a, n, err := leadingArgs(name, rest)
		if err != nil {
			return nil, true, err
		}
		calls = append(calls, llm.ToolCall{Name: name, Args: a})
		s = trimEnd(rest[n:])
		if after, ok := strings.CutPrefix(s, funcClose); ok {
			s = trimEnd(after)
		} else if s != "" {
			return nil, true, fmt.Errorf("no %s after the call of %s: %.40q", funcClose, name, s)
		}
	}
	return calls, true, nil
}

// trimEnd drops the end-of-turn tokens of Llama's templates that a
// server keeping special tokens leaves after a call.
func trimEnd(s string) string {
	s = strings.TrimSpace(s)
	for _, end := range []string{"<|eom_id|>", "<|eot_id|>", "<|eom|>", "<|eot|>"} {
		s = strings.TrimSpace(strings.TrimSuffix(s, end))
	}
	return s
}

// fenced reads a Markdown code fence that is the whole reply, its body a
// bare call or calls. Text after the closing fence makes it an answer
// that shows JSON, not a call: it is prose.
func (f *Filter) fenced(s string) ([]llm.ToolCall, bool, error) {
	_, body, _ := strings.Cut(s, "\n")
	// The closing fence is the first "```" after the body's JSON values:
	// one inside a string of theirs is not it.
	rest := body
	for {
		rest = strings.TrimLeft(rest, " \t\r\n;")
		if rest == "" || strings.HasPrefix(rest, formFence) {
			break
		}
		dec := json.NewDecoder(strings.NewReader(rest))
		var v json.RawMessage
		if dec.Decode(&v) != nil {
			// Not JSON through: read as far as it goes, for the error.
			rest = ""
			break
		}
		rest = rest[dec.InputOffset():]
	}
	if after, ok := strings.CutPrefix(rest, formFence); ok && strings.TrimSpace(after) != "" {
		return nil, false, errors.New("text after the code fence")
	}
	return f.sequence(strings.TrimSpace(body[:len(body)-len(rest)]), ";", "arguments", "parameters")
}

// object reads one call: a JSON object with "name", one of argKeys for
// the arguments, and optionally "type": "function" and "id". meant reports
// that it names an offered tool, whatever else is wrong.
func (f *Filter) object(s string, argKeys ...string) (llm.ToolCall, bool, error) {
	var obj map[string]json.RawMessage
	if err := json.Unmarshal([]byte(s), &obj); err != nil {
		return llm.ToolCall{}, f.starts(s), fmt.Errorf("the call is not a JSON object: %w", err)
	}
	var name string
	if json.Unmarshal(obj["name"], &name) != nil || !f.tools[name] {
		return llm.ToolCall{}, false, fmt.Errorf("the object names no tool offered (%.40q)", string(obj["name"]))
	}
	var args json.RawMessage
	argKey := ""
	for k, v := range obj {
		switch {
		case k == "name", k == "id":
		case k == "type":
			var t string
			if json.Unmarshal(v, &t) != nil || t != "function" {
				return llm.ToolCall{}, true, fmt.Errorf("call of %s has type %.40q, not \"function\"", name, string(v))
			}
		case k == argKeys[0] || len(argKeys) > 1 && k == argKeys[1]:
			if argKey != "" {
				return llm.ToolCall{}, true, fmt.Errorf("call of %s has both %q and %q", name, argKey, k)
			}
			args, argKey = v, k
		default:
			return llm.ToolCall{}, true, fmt.Errorf("call of %s has a field %.40q that calls do not have", name, k)
		}
	}
	if argKey == "" {
		return llm.ToolCall{}, true, fmt.Errorf("call of %s has no %q", name, argKeys[0])
	}
	a, err := argsObject(args)
	if err != nil {
		return llm.ToolCall{}, true, fmt.Errorf("%s of %s: %w", argKey, name, err)
	}
	return llm.ToolCall{Name: name, Args: a}, true, nil
}

// argsObject returns a call's arguments as a JSON object: an object, or
// a string holding one (arguments encoded twice, as some models write
// them).
func argsObject(raw json.RawMessage) (json.RawMessage, error) {
	raw = bytes.TrimSpace(raw)
	var inner string
	if json.Unmarshal(raw, &inner) == nil {
		raw = json.RawMessage(strings.TrimSpace(inner))
	}
	var obj map[string]json.RawMessage
	if !bytes.HasPrefix(raw, []byte("{")) || json.Unmarshal(raw, &obj) != nil {
		return nil, fmt.Errorf("not a JSON object: %.40q", string(raw))
	}
	return raw, nil
}

// Form says a format's name for messages.
func Form(form string) string {
	switch form {
	case hermesOpen:
		return "Hermes/Qwen " + hermesOpen
	case pythonTag:
		return "Llama " + pythonTag
	case mistralTag:
		return "Mistral " + mistralTag
	case funcOpen:
		return "Llama " + funcOpen + "NAME>"
	case formPythonic:
		return "Llama pythonic [NAME(...)]"
	case pyStart:
		return "Llama 4 " + pyStart + "[NAME(...)]"
	case formFence:
		return "a Markdown code fence"
	}
	return form
}

// Fix says how to have the server parse a model's tool calls itself.
const Fix = "start the server with a tool-call parser for the model " +
	"(llama.cpp: --jinja, with a chat template that has tools; vLLM: --enable-auto-tool-choice --tool-call-parser hermes, llama3_json, pythonic, llama4_pythonic or mistral, as the model's family and format; " +
	"Ollama: a model whose template supports tools, tagged \"tools\"; LM Studio: a model with native tool use, or its default tool prompt), " +
	"or give the role another model (--model-for ROLE=MODEL)"

// GarbledError says why a reply that wrote a tool call as text in form
// failed: the call could not be read exactly (why), and the server, which
// has no tool-call parser for model, should parse it.
func GarbledError(model, form, why string) error {
	return fmt.Errorf("model %q wrote a tool call as text (%s) instead of calling the tool, and it cannot be read exactly (%s): "+
		"the server has no tool-call parser for this model; %s", model, Form(form), why, Fix)
}

// AdaptedMessage is the log line said once per model whose tool calls
// came as text and were read.
func AdaptedMessage(form string) string {
	return "the server sent the model's tool calls as text (" + Form(form) + ") with no tool-call parser for it: " +
		"they are read as tool calls; to have the server parse them, " + Fix
}
