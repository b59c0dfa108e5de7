// Package structured gets a JSON document out of a model's reply and checks
// it against a small subset of JSON Schema, with errors precise enough to show
// the model in one repair turn.
//
// Providers with constrained decoding (Anthropic output_config, OpenAI strict
// json_schema) usually return a clean document; local models and fallbacks
// often wrap it in prose or ``` fences. Extract handles both; Validate then
// catches what the model got wrong.
package structured

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"math"
	"sort"
	"strings"
)

// ErrNoJSON is returned when a reply holds no JSON object.
var ErrNoJSON = errors.New("no JSON object found in the reply")

// Extract returns the first balanced top-level JSON object in reply, skipping
// ```json fences and any prose around it.
func Extract(reply string) (json.RawMessage, error) {
	s := reply
	// Prefer a fenced block when there is one: prose before it may contain
	// braces ("use {x} here") that are not the answer.
	if i := strings.Index(s, "```"); i >= 0 {
		rest := s[i+3:]
		if nl := strings.IndexByte(rest, '\n'); nl >= 0 && !strings.Contains(rest[:nl], "{") {
			rest = rest[nl+1:] // drop the language tag
		}
		if j := strings.Index(rest, "```"); j >= 0 {
			if obj, err := firstObject(rest[:j]); err == nil {
				return obj, nil
			}
		}
	}
	return firstObject(s)
}

// firstObject scans for '{' and returns the first balanced object that parses.
func firstObject(s string) (json.RawMessage, error) {
	var lastErr error
	for start := strings.IndexByte(s, '{'); start >= 0; {
		end := balancedEnd(s[start:])
		if end > 0 {
			cand := s[start : start+end]
			if json.Valid([]byte(cand)) {
				var buf bytes.Buffer
				if err := json.Compact(&buf, []byte(cand)); err == nil {
					return buf.Bytes(), nil
				}
			}
			var v any
			lastErr = json.Unmarshal([]byte(cand), &v)
		}
		next := strings.IndexByte(s[start+1:], '{')
		if next < 0 {
			break
		}
		start += 1 + next
	}
	if lastErr != nil {
		return nil, fmt.Errorf("%w: the closest candidate is not valid JSON: %w", ErrNoJSON, lastErr)
	}
	return nil, ErrNoJSON
}

// balancedEnd returns the length of the brace-balanced prefix of s (which
// starts with '{'), honouring strings and escapes, or -1.
func balancedEnd(s string) int {
	depth, inStr, esc := 0, false, false
	for i := 0; i < len(s); i++ {
		c := s[i]
		switch {
		case esc:
			esc = false
		case inStr && c == '\\':
			esc = true
		case c == '"':
			inStr = !inStr
		case inStr:
		case c == '{' || c == '[':
			depth++
		case c == '}' || c == ']':
			depth--
			if depth == 0 {
				return i + 1
			}
		}
	}
	return -1
}

// Schema is the JSON Schema subset Validate understands: type (one or a list),
// properties, required, additionalProperties (false), items, enum, const,
// minimum, maximum, minLength, maxLength, minItems, maxItems. Other keywords
// are ignored, so full schemas can be passed as they are.
type Schema struct {
	Type                 typeList           `json:"type"`
	Properties           map[string]*Schema `json:"properties"`
	Required             []string           `json:"required"`
	AdditionalProperties *bool              `json:"-"`
	Items                *Schema            `json:"items"`
	Enum                 []any              `json:"enum"`
	Const                any                `json:"const"`
	Minimum              *float64           `json:"minimum"`
	Maximum              *float64           `json:"maximum"`
	MinLength            *int               `json:"minLength"`
	MaxLength            *int               `json:"maxLength"`
	MinItems             *int               `json:"minItems"`
	MaxItems             *int               `json:"maxItems"`
}

// UnmarshalJSON reads additionalProperties when it is a boolean (a schema
// there is accepted and not checked).
func (s *Schema) UnmarshalJSON(b []byte) error {
	type plain Schema
	var p plain
	if err := json.Unmarshal(b, &p); err != nil {
		return err
	}
	var extra struct {
		AP json.RawMessage `json:"additionalProperties"`
	}
	if err := json.Unmarshal(b, &extra); err != nil {
		return err
	}
	*s = Schema(p)
	var ap bool
	if len(extra.AP) > 0 && json.Unmarshal(extra.AP, &ap) == nil {
		s.AdditionalProperties = &ap
	}
	return nil
}

type typeList []string

func (t *typeList) UnmarshalJSON(b []byte) error {
	var one string
	if err := json.Unmarshal(b, &one); err == nil {
		*t = typeList{one}
		return nil
	}
	var many []string
	if err := json.Unmarshal(b, &many); err != nil {
		return fmt.Errorf("schema type: want a string or a list of strings: %w", err)
	}
	*t = many
	return nil
}

// ParseSchema reads a JSON Schema.
func ParseSchema(raw json.RawMessage) (*Schema, error) {
	var s Schema
	if err := json.Unmarshal(raw, &s); err != nil {
		return nil, fmt.Errorf("parse schema: %w", err)
	}
	return &s, nil
}

// FieldError is one problem with one field.
type FieldError struct {
	Path string // "confidence", "reasons[2]", "" for the document itself
	Msg  string // "want number in [0,1], got \"high\""
}

func (e FieldError) Error() string {
	if e.Path == "" {
		return "document: " + e.Msg
	}
	return "field " + e.Path + ": " + e.Msg
}

// ValidationError lists every problem found, in path order.
type ValidationError struct {
	Fields []FieldError
}

func (e *ValidationError) Error() string {
	parts := make([]string, len(e.Fields))
	for i, f := range e.Fields {
		parts[i] = f.Error()
	}
	return strings.Join(parts, "; ")
}

// Validate checks doc against schema and returns a *ValidationError listing
// every problem, or nil.
func Validate(doc json.RawMessage, schema *Schema) error {
	dec := json.NewDecoder(bytes.NewReader(doc))
	dec.UseNumber()
	var v any
	if err := dec.Decode(&v); err != nil {
		return &ValidationError{Fields: []FieldError{{Msg: "not valid JSON: " + err.Error()}}}
	}
	var errs []FieldError
	check(v, schema, "", &errs)
	if len(errs) == 0 {
		return nil
	}
	sort.SliceStable(errs, func(i, j int) bool { return errs[i].Path < errs[j].Path })
	return &ValidationError{Fields: errs}
}

// ExtractAndValidate is Extract followed by Validate.
func ExtractAndValidate(reply string, schema *Schema) (json.RawMessage, error) {
	doc, err := Extract(reply)
	if err != nil {
		return nil, err
	}
	if err := Validate(doc, schema); err != nil {
		return doc, err
	}
	return doc, nil
}

func check(v any, s *Schema, path string, errs *[]FieldError) {
	if s == nil {
		return
	}
	add := func(format string, args ...any) {
		*errs = append(*errs, FieldError{Path: path, Msg: fmt.Sprintf(format, args...)})
	}
	if len(s.Type) > 0 && !slicesAny(s.Type, func(t string) bool { return hasType(v, t) }) {
		add("want %s, got %s", s.describe(), show(v))
		return
	}
	if len(s.Enum) > 0 && !slicesAny(s.Enum, func(e any) bool { return equal(e, v) }) {
		opts := make([]string, len(s.Enum))
		for i, e := range s.Enum {
			opts[i] = show(e)
		}
		add("want one of %s, got %s", strings.Join(opts, ", "), show(v))
	}
	if s.Const != nil && !equal(s.Const, v) {
		add("want %s, got %s", show(s.Const), show(v))
	}
	switch x := v.(type) {
	case json.Number:
		f, _ := x.Float64()
		if (s.Minimum != nil && f < *s.Minimum) || (s.Maximum != nil && f > *s.Maximum) {
			add("want %s, got %s", s.describe(), x)
		}
	case string:
		n := len([]rune(x))
		if s.MinLength != nil && n < *s.MinLength {
			add("want at least %d characters, got %d", *s.MinLength, n)
		}
		if s.MaxLength != nil && n > *s.MaxLength {
			add("want at most %d characters, got %d", *s.MaxLength, n)
		}
	case []any:
		if s.MinItems != nil && len(x) < *s.MinItems {
			add("want at least %d items, got %d", *s.MinItems, len(x))
		}
		if s.MaxItems != nil && len(x) > *s.MaxItems {
			add("want at most %d items, got %d", *s.MaxItems, len(x))
		}
		for i, item := range x {
			check(item, s.Items, fmt.Sprintf("%s[%d]", path, i), errs)
		}
	case map[string]any:
		for _, r := range s.Required {
			if _, ok := x[r]; !ok {
				*errs = append(*errs, FieldError{Path: join(path, r), Msg: "missing (required)"})
			}
		}
		keys := make([]string, 0, len(x))
		for k := range x {
			keys = append(keys, k)
		}
		sort.Strings(keys)
		for _, k := range keys {
			ps, ok := s.Properties[k]
			if !ok {
				if s.AdditionalProperties != nil && !*s.AdditionalProperties {
					*errs = append(*errs, FieldError{Path: join(path, k), Msg: "not allowed (unknown field)"})
				}
				continue
			}
			check(x[k], ps, join(path, k), errs)
		}
	}
}

// describe says what the schema wants, for messages: "number in [0,1]".
func (s *Schema) describe() string {
	t := strings.Join(s.Type, " or ")
	if t == "" {
		t = "value"
	}
	switch {
	case s.Minimum != nil && s.Maximum != nil:
		return fmt.Sprintf("%s in [%s,%s]", t, num(*s.Minimum), num(*s.Maximum))
	case s.Minimum != nil:
		return fmt.Sprintf("%s >= %s", t, num(*s.Minimum))
	case s.Maximum != nil:
		return fmt.Sprintf("%s <= %s", t, num(*s.Maximum))
	}
	return t
}

func num(f float64) string {
	if f == math.Trunc(f) {
		return fmt.Sprintf("%.0f", f)
	}
	return fmt.Sprint(f)
}

func hasType(v any, t string) bool {
	switch t {
	case "object":
		_, ok := v.(map[string]any)
		return ok
	case "array":
		_, ok := v.([]any)
		return ok
	case "string":
		_, ok := v.(string)
		return ok
	case "boolean":
		_, ok := v.(bool)
		return ok
	case "null":
		return v == nil
	case "number":
		_, ok := v.(json.Number)
		return ok
	case "integer":
		n, ok := v.(json.Number)
		if !ok {
			return false
		}
		f, err := n.Float64()
		return err == nil && f == math.Trunc(f)
	}
	return true // unknown type names are not ours to reject
}

func equal(a, b any) bool {
	ja, _ := json.Marshal(normalize(a))
	jb, _ := json.Marshal(normalize(b))
	return bytes.Equal(ja, jb)
}

// normalize makes numbers compare by value (1 == 1.0).
func normalize(v any) any {
	switch x := v.(type) {
	case json.Number:
		f, _ := x.Float64()
		return f
	case map[string]any:
		m := make(map[string]any, len(x))
		for k, e := range x {
			m[k] = normalize(e)
		}
		return m
	case []any:
		out := make([]any, len(x))
		for i, e := range x {
			out[i] = normalize(e)
		}
		return out
	}
	return v
}

// show renders a value as the model wrote it, shortened.
func show(v any) string {
	b, err := json.Marshal(v)
	if err != nil {
		return fmt.Sprint(v)
	}
	s := string(b)
	if len(s) > 40 {
		s = s[:40] + "…"
	}
	switch v.(type) {
	case map[string]any:
		return "an object " + s
	case []any:
		return "an array " + s
	}
	return s
}

func join(path, key string) string {
	if path == "" {
		return key
	}
	return path + "." + key
}

func slicesAny[T any](xs []T, f func(T) bool) bool {
	for _, x := range xs {
		if f(x) {
			return true
		}
	}
	return false
}

// RepairPrompt is the user message for one repair turn after a reply failed
// Extract or Validate: what was wrong, field by field, and what to send back.
func RepairPrompt(err error) string {
	var b strings.Builder
	b.WriteString("Your previous reply could not be used.\n")
	var ve *ValidationError
	switch {
	case errors.As(err, &ve):
		b.WriteString("It did not match the required JSON schema:\n")
		for _, f := range ve.Fields {
			b.WriteString("- " + f.Error() + "\n")
		}
	case errors.Is(err, ErrNoJSON):
		b.WriteString("It did not contain a JSON object (" + err.Error() + ").\n")
	default:
		b.WriteString("Problem: " + err.Error() + "\n")
	}
	b.WriteString("Reply again with only the corrected JSON object: no prose, no code fences, every required field present.")
	return b.String()
}
