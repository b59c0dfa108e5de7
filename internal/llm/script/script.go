// Package script describes, in data, how a fake model answers: which reply (or
// fault) each request gets. The fake HTTP server in fakellm and the in-process
// scripted Provider in this package both play the same Script, so that a test
// written against one behaves the same against the other.
//
// A Script is an ordered list of rules. A request is answered by the first rule
// that matches it and is not used up. A request that no rule matches is an
// error naming the request's tag: there is never a silent canned answer.
//
// Scripts load from YAML or JSON:
//
//	rules:
//	  - name: opening
//	    tag: round-1/argument/bull        # or tag_prefix / tag_regexp
//	    reply: {text: "Prices will rise because demand is growing."}
//	  - tag_prefix: research/
//	    replies:                          # 1st call, 2nd call, then used up
//	      - tool_calls: [{name: search, args: {q: "GDP 2025"}}]
//	      - text: "GDP grew 2%."
//	  - user_regexp: "(?i)verdict"
//	    reply: {json: {winner: bull, confidence: 0.7}}
//	  - tag: flaky
//	    times: 1                          # answers once, then falls through
//	    reply: {fault: {status: 429, retry_after: "2"}}
//	  - tag: flaky
//	    reply: {text: "recovered", delay: 50ms}
//
// # Token counts
//
// Usage is estimated deterministically so that tests can assert exact numbers:
// a token is a whitespace-separated word (see EstimateTokens). Input tokens
// count the words of the system prompt and of every message's text, tool call
// arguments and tool results; output tokens count the words of the reply text
// and of each tool call's JSON arguments. Prompt caching is simulated: the
// prefix marked cacheable (the system prompt when Request.CacheSystem is set,
// through the last message marked Cache) is counted as cache-write tokens the
// first time the Script sees it and as cache-read tokens afterwards; InputTokens
// then counts only the rest. A reply may give its own Usage instead.
package script

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"sync"
	"time"

	"go.yaml.in/yaml/v4"

	"github.com/parleyhq/parley/internal/llm"
)

// Script is a parsed, validated set of rules plus the state of a run: how often
// each rule has answered and which prompt prefixes are "cached". It is safe for
// concurrent use. Use Parse, Load or New to make one.
type Script struct {
	Rules []Rule `json:"rules"`

	mu     sync.Mutex
	used   []int
	cached map[string]bool
	calls  int
}

// Rule matches requests and says how to answer them. All the match fields that
// are set must match; a rule with none matches every request.
type Rule struct {
	Name string `json:"name,omitempty"`

	Tag       string `json:"tag,omitempty"`        // Request.Tag equals this
	TagPrefix string `json:"tag_prefix,omitempty"` // Request.Tag starts with this
	TagRegexp string `json:"tag_regexp,omitempty"` // Request.Tag matches this

	System       string `json:"system,omitempty"`        // substring of the system prompt
	SystemRegexp string `json:"system_regexp,omitempty"` // regexp on the system prompt
	User         string `json:"user,omitempty"`          // substring of the last user message
	UserRegexp   string `json:"user_regexp,omitempty"`   // regexp on the last user message

	// Exactly one of Reply and Replies. Replies answers the n-th matching call
	// with Replies[n] and is used up after the last one.
	Reply   *Reply  `json:"reply,omitempty"`
	Replies []Reply `json:"replies,omitempty"`
	// Times limits how often a Reply rule answers; 0 means without limit.
	Times int `json:"times,omitempty"`

	tagRe, systemRe, userRe *regexp.Regexp
	steps                   []Reply // Reply or Replies, with "tool calls then text" split in two
}

// Reply is one answer: text, tool calls, a JSON document, or a fault.
type Reply struct {
	Text string `json:"text,omitempty"`
	// ToolCalls are answered first; when Text is set too, the text answers the
	// next call (the one that carries the tool results).
	ToolCalls []ToolCall `json:"tool_calls,omitempty"`
	// JSON is the reply document for structured-output requests; it is sent as
	// the reply text (or, over the Anthropic tool mode, as the forced tool's input).
	JSON json.RawMessage `json:"json,omitempty"`
	// StopReason overrides the stop reason: "end", "max_tokens",
	// "context_window", "tool_use" or "refusal" (Text is then the model's
	// reason for declining).
	StopReason string `json:"stop_reason,omitempty"`
	// Usage overrides the estimated token counts.
	Usage *llm.Usage `json:"usage,omitempty"`
	// Delay waits before the first byte of the answer.
	Delay Duration `json:"delay,omitempty"`
	Fault *Fault   `json:"fault,omitempty"`
}

// ToolCall is a scripted tool call. ID may be left empty.
type ToolCall struct {
	ID   string          `json:"id,omitempty"`
	Name string          `json:"name"`
	Args json.RawMessage `json:"args,omitempty"`
}

// Fault makes the answer fail.
//
// With Stream empty, the request fails before any output with HTTP Status
// (429, 500, 503, 529, 401, 400, ...), RetryAfter sent as the Retry-After
// header; a success status (200, 204, 202) answers with no body at all,
// where the reply was due (a 200 as an event stream that ends at once). With Stream set, After text deltas are sent first and then:
//   - "cut": the connection is dropped mid-stream;
//   - "malformed": an event that is not valid JSON is sent;
//   - "error": the API's in-stream error event for Status is sent.
type Fault struct {
	Status     int    `json:"status,omitempty"`
	Type       string `json:"type,omitempty"` // API error type; derived from Status when empty
	Message    string `json:"message,omitempty"`
	RetryAfter string `json:"retry_after,omitempty"` // seconds or an HTTP date
	Stream     string `json:"stream,omitempty"`
	After      int    `json:"after,omitempty"`
}

// Duration is a time.Duration written as a Go duration string ("150ms").
type Duration time.Duration

// UnmarshalJSON accepts "150ms" or a number of nanoseconds.
func (d *Duration) UnmarshalJSON(b []byte) error {
	var s string
	if err := json.Unmarshal(b, &s); err != nil {
		var n int64
		if err2 := json.Unmarshal(b, &n); err2 != nil {
			return fmt.Errorf("duration: want a string like \"150ms\", got %s", b)
		}
		*d = Duration(n)
		return nil
	}
	v, err := time.ParseDuration(s)
	if err != nil {
		return fmt.Errorf("duration %q: %w", s, err)
	}
	*d = Duration(v)
	return nil
}

// MarshalJSON writes the duration as a string.
func (d Duration) MarshalJSON() ([]byte, error) { return json.Marshal(time.Duration(d).String()) }

// Step is the resolved answer to one request.
type Step struct {
	Rule       string // the rule's name, or "rule #N" (1-based)
	Text       string
	ToolCalls  []llm.ToolCall
	StopReason string
	Usage      llm.Usage
	// UsageGiven reports that the reply stated its own Usage; otherwise Usage
	// is the Script's word estimate, which a player may replace by its own
	// accounting (the fake server counts the wire request).
	UsageGiven bool
	Delay      time.Duration
	Fault      *Fault
}

// NoMatchError is returned when no rule answers a request.
type NoMatchError struct {
	Tag      string
	System   string
	LastUser string
	UsedUp   []string // rules that matched but were used up
}

func (e *NoMatchError) Error() string {
	msg := fmt.Sprintf("script: no rule matched request tag %q (system %q, last user message %q)",
		e.Tag, abbrev(e.System), abbrev(e.LastUser))
	if len(e.UsedUp) > 0 {
		msg += "; used up: " + strings.Join(e.UsedUp, ", ")
	}
	return msg + "; add a rule for it"
}

// New validates rules and returns a Script that plays them.
func New(rules ...Rule) (*Script, error) {
	s := &Script{Rules: rules}
	if err := s.compile(); err != nil {
		return nil, err
	}
	return s, nil
}

// MustNew is New for tests with literal rules; it panics on invalid rules.
func MustNew(rules ...Rule) *Script {
	s, err := New(rules...)
	if err != nil {
		panic(err)
	}
	return s
}

// Load reads a Script from a .yaml, .yml or .json file.
func Load(path string) (*Script, error) {
	data, err := os.ReadFile(path)
	if err != nil {
		return nil, fmt.Errorf("load script: %w", err)
	}
	s, err := Parse(data)
	if err != nil {
		return nil, fmt.Errorf("load script %s: %w", filepath.Base(path), err)
	}
	return s, nil
}

// Parse reads a Script from YAML or JSON (JSON is YAML). Unknown fields are an
// error, so that a misspelt match field does not silently match everything.
func Parse(data []byte) (*Script, error) {
	var generic any
	if err := yaml.Unmarshal(data, &generic); err != nil {
		return nil, fmt.Errorf("parse script: %w", err)
	}
	// Going through JSON gives one set of field names and one Duration parser
	// for both formats.
	js, err := json.Marshal(generic)
	if err != nil {
		return nil, fmt.Errorf("parse script: %w", err)
	}
	dec := json.NewDecoder(bytes.NewReader(js))
	dec.DisallowUnknownFields()
	s := &Script{}
	if err := dec.Decode(s); err != nil {
		return nil, fmt.Errorf("parse script: %w", err)
	}
	if err := s.compile(); err != nil {
		return nil, err
	}
	return s, nil
}

func (s *Script) compile() error {
	if len(s.Rules) == 0 {
		return errors.New("script: no rules")
	}
	for i := range s.Rules {
		r := &s.Rules[i]
		where := r.label(i)
		var err error
		if r.tagRe, err = compileRe(r.TagRegexp); err != nil {
			return fmt.Errorf("script: %s: tag_regexp: %w", where, err)
		}
		if r.systemRe, err = compileRe(r.SystemRegexp); err != nil {
			return fmt.Errorf("script: %s: system_regexp: %w", where, err)
		}
		if r.userRe, err = compileRe(r.UserRegexp); err != nil {
			return fmt.Errorf("script: %s: user_regexp: %w", where, err)
		}
		switch {
		case r.Reply != nil && len(r.Replies) > 0:
			return fmt.Errorf("script: %s: set reply or replies, not both", where)
		case r.Reply == nil && len(r.Replies) == 0:
			return fmt.Errorf("script: %s: no reply: set reply or replies", where)
		case len(r.Replies) > 0 && r.Times != 0:
			return fmt.Errorf("script: %s: times applies to reply, not replies (a replies rule answers once per entry)", where)
		}
		src := r.Replies
		if r.Reply != nil {
			src = []Reply{*r.Reply}
		}
		r.steps = r.steps[:0]
		for j, rep := range src {
			if err := rep.validate(); err != nil {
				return fmt.Errorf("script: %s: reply %d: %w", where, j+1, err)
			}
			if len(rep.ToolCalls) > 0 && (rep.Text != "" || len(rep.JSON) > 0) {
				calls, text := rep, rep
				calls.Text, calls.JSON = "", nil
				text.ToolCalls = nil
				r.steps = append(r.steps, calls, text)
				continue
			}
			r.steps = append(r.steps, rep)
		}
	}
	s.used = make([]int, len(s.Rules))
	s.cached = map[string]bool{}
	return nil
}

func (rep Reply) validate() error {
	if rep.Text == "" && len(rep.ToolCalls) == 0 && len(rep.JSON) == 0 && rep.Fault == nil {
		return errors.New("empty: set text, tool_calls, json or fault")
	}
	for _, tc := range rep.ToolCalls {
		if tc.Name == "" {
			return errors.New("tool call without a name")
		}
		if len(tc.Args) > 0 {
			var obj map[string]any
			if err := json.Unmarshal(tc.Args, &obj); err != nil {
				return fmt.Errorf("tool call %s: args must be a JSON object: %w", tc.Name, err)
			}
		}
	}
	if len(rep.JSON) > 0 && !json.Valid(rep.JSON) {
		return errors.New("json is not valid JSON")
	}
	switch rep.StopReason {
	case "", llm.StopEnd, llm.StopMaxTokens, llm.StopContextWindow, llm.StopToolUse, llm.StopRefusal:
	default:
		return fmt.Errorf("stop_reason %q: want end, max_tokens, context_window, tool_use or refusal", rep.StopReason)
	}
	if f := rep.Fault; f != nil {
		switch f.Stream {
		case "":
			if (f.Status < 400 || f.Status > 599) && f.Status != 200 && f.Status != 202 && f.Status != 204 {
				return fmt.Errorf("fault: status %d: want an HTTP error status (400-599), 200, 202 or 204 (no body), or set stream", f.Status)
			}
		case "cut", "malformed":
		case "error":
			if f.Status < 400 || f.Status > 599 {
				return fmt.Errorf("fault: stream error needs an HTTP error status (400-599), got %d", f.Status)
			}
		default:
			return fmt.Errorf("fault: stream %q: want cut, malformed or error", f.Stream)
		}
		if f.After < 0 {
			return errors.New("fault: after must be >= 0")
		}
	}
	return nil
}

func compileRe(expr string) (*regexp.Regexp, error) {
	if expr == "" {
		return nil, nil
	}
	return regexp.Compile(expr)
}

func (r *Rule) label(i int) string {
	if r.Name != "" {
		return fmt.Sprintf("rule %q", r.Name)
	}
	return fmt.Sprintf("rule #%d", i+1)
}

func (r *Rule) matches(tag, system, user string) bool {
	return (r.Tag == "" || tag == r.Tag) &&
		(r.TagPrefix == "" || strings.HasPrefix(tag, r.TagPrefix)) &&
		(r.tagRe == nil || r.tagRe.MatchString(tag)) &&
		(r.System == "" || strings.Contains(system, r.System)) &&
		(r.systemRe == nil || r.systemRe.MatchString(system)) &&
		(r.User == "" || strings.Contains(user, r.User)) &&
		(r.userRe == nil || r.userRe.MatchString(user))
}

// capacity is how many calls the rule answers; 0 means without limit.
func (r *Rule) capacity() int {
	if r.Reply != nil {
		if r.Times == 0 {
			return 0
		}
		return r.Times * len(r.steps)
	}
	return len(r.steps)
}

// Next resolves the answer to req and advances the Script's state.
func (s *Script) Next(req llm.Request) (*Step, error) {
	user := LastUserText(req)
	s.mu.Lock()
	defer s.mu.Unlock()
	var usedUp []string
	for i := range s.Rules {
		r := &s.Rules[i]
		if !r.matches(req.Tag, req.System, user) {
			continue
		}
		n := s.used[i]
		if c := r.capacity(); c != 0 && n >= c {
			usedUp = append(usedUp, r.label(i))
			continue
		}
		s.used[i]++
		s.calls++
		rep := r.steps[n%len(r.steps)]
		return s.resolve(r.label(i), rep, req), nil
	}
	return nil, &NoMatchError{Tag: req.Tag, System: req.System, LastUser: user, UsedUp: usedUp}
}

func (s *Script) resolve(label string, rep Reply, req llm.Request) *Step {
	st := &Step{Rule: label, Text: rep.Text, Delay: time.Duration(rep.Delay), Fault: rep.Fault, StopReason: rep.StopReason}
	if len(rep.JSON) > 0 {
		var buf bytes.Buffer
		if err := json.Compact(&buf, rep.JSON); err == nil {
			st.Text = buf.String()
		} else {
			st.Text = string(rep.JSON)
		}
	}
	for k, tc := range rep.ToolCalls {
		id := tc.ID
		if id == "" {
			id = fmt.Sprintf("call_%d_%d", s.calls, k+1)
		}
		args := json.RawMessage(`{}`)
		if len(tc.Args) > 0 {
			var buf bytes.Buffer
			if err := json.Compact(&buf, tc.Args); err == nil {
				args = buf.Bytes()
			}
		}
		st.ToolCalls = append(st.ToolCalls, llm.ToolCall{ID: id, Name: tc.Name, Args: args})
	}
	if st.StopReason == "" {
		st.StopReason = llm.StopEnd
		if len(st.ToolCalls) > 0 {
			st.StopReason = llm.StopToolUse
		}
	}
	if rep.Usage != nil {
		st.Usage, st.UsageGiven = *rep.Usage, true
	} else {
		st.Usage = s.estimate(req, st)
	}
	return st
}

// estimate counts tokens as documented in the package comment. s.mu is held.
func (s *Script) estimate(req llm.Request, st *Step) llm.Usage {
	total := EstimateTokens(req.System)
	prefix, key := 0, ""
	if req.CacheSystem {
		prefix = total
		key = cacheKey(req.Model, req.System, nil)
	}
	for i, m := range req.Messages {
		total += messageTokens(m)
		if m.Cache {
			prefix = total
			key = cacheKey(req.Model, req.System, req.Messages[:i+1])
		}
	}
	u := llm.Usage{InputTokens: total - prefix}
	if key != "" && prefix > 0 {
		if s.cached[key] {
			u.CacheReadTokens = prefix
		} else {
			u.CacheWriteTokens = prefix
			s.cached[key] = true
		}
	}
	u.OutputTokens = EstimateTokens(st.Text)
	for _, tc := range st.ToolCalls {
		u.OutputTokens += EstimateTokens(string(tc.Args))
	}
	return u
}

func messageTokens(m llm.Message) int {
	n := EstimateTokens(m.Text)
	for _, tc := range m.ToolCalls {
		n += EstimateTokens(string(tc.Args))
	}
	for _, tr := range m.ToolResults {
		n += EstimateTokens(tr.Content)
	}
	return n
}

func cacheKey(model, system string, msgs []llm.Message) string {
	h := sha256.New()
	// Encoding errors cannot happen for these plain structs.
	_ = json.NewEncoder(h).Encode(struct {
		Model    string
		System   string
		Messages []llm.Message
	}{model, system, msgs})
	return hex.EncodeToString(h.Sum(nil))
}

// EstimateTokens is the Script's deterministic token count: the number of
// whitespace-separated words in s.
func EstimateTokens(s string) int { return len(strings.Fields(s)) }

// LastUserText is the text of the last user message, the part of a request
// rules match with User and UserRegexp. A user message that only carries tool
// results yields their contents.
func LastUserText(req llm.Request) string {
	for i := len(req.Messages) - 1; i >= 0; i-- {
		m := req.Messages[i]
		if m.Role != llm.RoleUser {
			continue
		}
		if m.Text != "" {
			return m.Text
		}
		parts := make([]string, 0, len(m.ToolResults))
		for _, tr := range m.ToolResults {
			parts = append(parts, tr.Content)
		}
		return strings.Join(parts, "\n")
	}
	return ""
}

// Split cuts text into the deltas a stream sends: one word with the whitespace
// that follows it. Concatenated, the pieces are text.
func Split(text string) []string {
	var out []string
	for len(text) > 0 {
		i := 0
		for i < len(text) && isSpace(text[i]) {
			i++
		}
		for i < len(text) && !isSpace(text[i]) {
			i++
		}
		for i < len(text) && isSpace(text[i]) {
			i++
		}
		out = append(out, text[:i])
		text = text[i:]
	}
	return out
}

func isSpace(b byte) bool { return b == ' ' || b == '\n' || b == '\t' || b == '\r' }

func abbrev(s string) string {
	const max = 60
	if len(s) <= max {
		return s
	}
	return s[:max] + "…"
}
