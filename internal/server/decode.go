package server

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"math"
	"mime"
	"net/http"
	"os"
	"reflect"
	"slices"
	"strconv"
	"strings"
	"unicode/utf8"
)

// decodeJSON reads a JSON body strictly: unknown fields and trailing data
// are errors naming what is wrong.
func decodeJSON(w http.ResponseWriter, r *http.Request, v any) bool {
	// The media type itself, not a prefix: "application/jsonp" or
	// "application/json-seq" is not JSON. Its parameters (charset) may be
	// anything; a body is read as UTF-8 whatever they say.
	if ct := r.Header.Get("Content-Type"); ct != "" {
		if mt, _, err := mime.ParseMediaType(ct); err != nil || mt != "application/json" {
			writeError(w, http.StatusUnsupportedMediaType, "send the body as JSON with Content-Type: application/json")
			return false
		}
	}
	dec := json.NewDecoder(r.Body)
	var raw json.RawMessage
	if err := dec.Decode(&raw); err != nil {
		var mbe *http.MaxBytesError
		if errors.As(err, &mbe) {
			writeError(w, http.StatusRequestEntityTooLarge, fmt.Sprintf("the body is over %d bytes: shorten the topic, the guidance or the hint", MaxBody))
			return false
		}
		if errors.Is(err, os.ErrDeadlineExceeded) {
			// The body's deadline (ConnLimits.Body) passed.
			w.Header().Set("Connection", "close")
			writeError(w, http.StatusRequestTimeout, "the body did not arrive in time: send it whole, at once")
			return false
		}
		writeError(w, http.StatusBadRequest, bodyError(err, v))
		return false
	}
	if dec.More() {
		writeError(w, http.StatusBadRequest, "the body holds more than one JSON value: send one object")
		return false
	}
	if string(raw) == "null" {
		// Decoding null into an object leaves it as it was: the request
		// would be refused for its first missing field, not for being null.
		writeError(w, http.StatusBadRequest, "the body is null, not an object: send one JSON object with the fields "+strings.Join(fieldNames(v), ", "))
		return false
	}
	if i := invalidUTF8(raw); i >= 0 {
		// The decoder would store U+FFFD in place of the bytes without
		// a word: a topic would not be the one sent.
		writeError(w, http.StatusBadRequest, fmt.Sprintf("the body is not valid UTF-8 (at byte %d): send text as UTF-8", i+1))
		return false
	}
	if name := duplicateKey(raw); name != "" {
		// Decoders disagree on which of two values counts (Go's takes the
		// last, others the first), so what a proxy or a log checked
		// need not be what is run.
		writeError(w, http.StatusBadRequest, fmt.Sprintf("%q is given twice: give each field once", name))
		return false
	}
	if key, field := foldedKey(raw, fieldNames(v)); key != "" {
		// Go's decoder takes "TOPIC" (or "ſnapshot") for "topic", where
		// other decoders see an unknown field; and "offline" with
		// "Offline" after it is two fields to a proxy, one to the
		// server, the last one counting.
		writeError(w, http.StatusBadRequest, fmt.Sprintf("unknown field %q: the fields' names are matched exactly; write %q", clip(key), field))
		return false
	}
	raw = plainIntegers(raw)
	strict := json.NewDecoder(bytes.NewReader(raw))
	strict.DisallowUnknownFields()
	if err := strict.Decode(v); err != nil {
		writeError(w, http.StatusBadRequest, bodyError(err, v))
		return false
	}
	return true
}

// bodyError words a decoding error of a request body for the caller, in
// the API's terms (its field names and JSON's types, never Go's), saying
// what the body should be instead.
func bodyError(err error, v any) string {
	fields := fieldNames(v)
	want := "send one JSON object with the fields " + strings.Join(fields, ", ")
	var syn *json.SyntaxError
	var typ *json.UnmarshalTypeError
	switch {
	case errors.Is(err, io.EOF):
		return "the body is empty: " + want
	case errors.Is(err, io.ErrUnexpectedEOF):
		return "the body is not valid JSON (it ends too early): " + want
	case errors.As(err, &syn):
		return fmt.Sprintf("the body is not valid JSON (at byte %d: %s): %s", syn.Offset, strings.TrimPrefix(syn.Error(), "json: "), want)
	case errors.As(err, &typ) && typ.Field == "":
		return fmt.Sprintf("the body is %s, not an object: %s", article(typ.Value), want)
	case errors.As(err, &typ) && wholeKind(typ.Type) && strings.HasPrefix(typ.Value, "number "):
		// A number the decoder would not take as a whole one: 1.5, or
		// one beyond the field's range (1e3 and 1000.0 were taken).
		n := strings.TrimPrefix(typ.Value, "number ")
		if f, err := strconv.ParseFloat(n, 64); err != nil || f == math.Trunc(f) {
			return fmt.Sprintf("%q is %s, too large: give a smaller whole number", typ.Field, clip(n))
		}
		return fmt.Sprintf("%q is %s, not a whole number: give a whole number", typ.Field, clip(n))
	case errors.As(err, &typ):
		return fmt.Sprintf("%q is %s: give %s", typ.Field, article(typ.Value), jsonKind(typ.Type))
	}
	if name, ok := strings.CutPrefix(err.Error(), "json: unknown field "); ok {
		return fmt.Sprintf("unknown field %s: the fields are %s", name, strings.Join(fields, ", "))
	}
	return "the body is not the expected JSON (" + err.Error() + "): " + want
}

// article puts "a" or "an" before a JSON value's kind as the decoder names
// it ("number", "number 1e9", "array", "object", "string", "bool").
func article(kind string) string {
	if kind == "bool" {
		return "a boolean"
	}
	if strings.HasPrefix(kind, "array") || strings.HasPrefix(kind, "object") {
		return "an " + kind
	}
	return "a " + kind
}

// jsonKind names, in JSON's terms, what a Go type takes.
func jsonKind(t reflect.Type) string {
	switch t.Kind() {
	case reflect.Pointer:
		return jsonKind(t.Elem())
	case reflect.String:
		return "a string"
	case reflect.Bool:
		return "true or false"
	case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64,
		reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64:
		return "a whole number"
	case reflect.Float32, reflect.Float64:
		return "a number"
	case reflect.Slice, reflect.Array:
		return "an array of " + strings.TrimPrefix(strings.TrimPrefix(jsonKind(t.Elem()), "a "), "an ") + "s"
	}
	return "an object"
}

// fieldNames lists the JSON fields of the struct v points to, or those v
// says it has.
func fieldNames(v any) []string {
	if f, ok := v.(interface{ jsonFields() []string }); ok {
		// A body of fields not all of a struct's (createBody).
		return f.jsonFields()
	}
	t := reflect.TypeOf(v)
	for t.Kind() == reflect.Pointer {
		t = t.Elem()
	}
	var names []string
	if t.Kind() != reflect.Struct {
		return names
	}
	for f := range t.Fields() {
		name, _, _ := strings.Cut(f.Tag.Get("json"), ",")
		if name == "-" || !f.IsExported() {
			continue
		}
		if name == "" {
			name = f.Name
		}
		names = append(names, name)
	}
	return names
}

// invalidUTF8 is the index of the first byte of b that is not valid UTF-8,
// or -1.
func invalidUTF8(b []byte) int {
	if utf8.Valid(b) {
		return -1
	}
	for i := 0; i < len(b); {
		r, size := utf8.DecodeRune(b[i:])
		if r == utf8.RuneError && size == 1 {
			return i
		}
		i += size
	}
	return -1
}

// duplicateKey is the path ("model_for[0].a") of the first key that an
// object in the valid JSON document raw holds twice, or "".
func duplicateKey(raw []byte) string {
	// level is an object (keys set) or an array being read.
	type level struct {
		path    string
		keys    map[string]bool
		index   int  // an array's next element
		wantKey bool // an object's next token is a key
	}
	var stack []*level
	dec := json.NewDecoder(bytes.NewReader(raw))
	next := "" // the path of the value the next token starts
	for {
		tok, err := dec.Token()
		if err != nil {
			return "" // the end, or an error the decoding reports
		}
		if len(stack) > 0 {
			top := stack[len(stack)-1]
			switch {
			case top.keys != nil && top.wantKey:
				key, _ := tok.(string)
				next = key
				if top.path != "" {
					next = top.path + "." + key
				}
				if top.keys[key] {
					return next
				}
				top.keys[key], top.wantKey = true, false
				continue
			case top.keys == nil && tok != json.Delim(']'):
				next = fmt.Sprintf("%s[%d]", top.path, top.index)
				top.index++
			}
		}
		switch tok {
		case json.Delim('{'):
			stack = append(stack, &level{path: next, keys: map[string]bool{}, wantKey: true})
			continue
		case json.Delim('['):
			stack = append(stack, &level{path: next})
			continue
		case json.Delim('}'), json.Delim(']'):
			stack = stack[:len(stack)-1]
		}
		// A value ended: an object's next token is a key.
		if len(stack) > 0 && stack[len(stack)-1].keys != nil {
			stack[len(stack)-1].wantKey = true
		}
	}
}

// foldedKey is the first key of the JSON object raw that is none of
// fields but is one of them when case is ignored (Unicode's simple
// folding, which takes in Go's: "TOPIC", "Topic", "ſnapshot"), with that
// field; "" when there is none, or raw is not an object.
func foldedKey(raw []byte, fields []string) (key, field string) {
	dec := json.NewDecoder(bytes.NewReader(raw))
	if tok, err := dec.Token(); err != nil || tok != json.Delim('{') {
		return "", ""
	}
	for dec.More() {
		tok, err := dec.Token()
		if err != nil {
			return "", ""
		}
		k, _ := tok.(string)
		if !slices.Contains(fields, k) {
			for _, f := range fields {
				if strings.EqualFold(k, f) {
					return k, f
				}
			}
		}
		var skip json.RawMessage
		if dec.Decode(&skip) != nil {
			return "", ""
		}
	}
	return "", ""
}

// wholeKind reports whether t is an integer type.
func wholeKind(t reflect.Type) bool {
	for t.Kind() == reflect.Pointer {
		t = t.Elem()
	}
	switch t.Kind() {
	case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64,
		reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64:
		return true
	}
	return false
}

// plainIntegers rewrites the numbers of the valid JSON document raw that
// are whole but written with a fraction or an exponent (1e3, 1000.0,
// 1.5E2) as plain integers, which Go's decoder takes into an integer
// field: JSON has one number type, and many encoders write every number
// as a float ("turn_budget": 1e3). Other numbers, and everything else,
// are left as written.
func plainIntegers(raw []byte) []byte {
	dec := json.NewDecoder(bytes.NewReader(raw))
	dec.UseNumber()
	var out []byte
	last := 0 // raw[:last] is in out
	for {
		tok, err := dec.Token()
		if err != nil {
			break
		}
		n, ok := tok.(json.Number)
		if !ok {
			continue
		}
		plain, ok := integralLiteral(string(n))
		if !ok {
			continue
		}
		end := int(dec.InputOffset())
		start := end - len(n)
		out = append(append(out, raw[last:start]...), plain...)
		last = end
	}
	if out == nil {
		return raw
	}
	return append(out, raw[last:]...)
}

// maxPlainDigits bounds the integers plainIntegers writes: more digits
// than any integer field holds would only be refused, and an exponent is
// not expanded into a long string of zeros.
const maxPlainDigits = 20

// integralLiteral is the JSON number lit written as a plain integer, when
// lit has a fraction or an exponent and is nonetheless whole, with at most
// maxPlainDigits digits. Exact: it works on the digits, not on a float.
func integralLiteral(lit string) (string, bool) {
	if !strings.ContainsAny(lit, ".eE") {
		return "", false
	}
	sign, body := "", lit
	if rest, ok := strings.CutPrefix(body, "-"); ok {
		sign, body = "-", rest
	}
	mant, exp := body, 0
	if i := strings.IndexAny(body, "eE"); i >= 0 {
		e, err := strconv.Atoi(body[i+1:])
		if err != nil || e > maxPlainDigits || e < -maxPlainDigits*2 {
			return "", false
		}
		mant, exp = body[:i], e
	}
	whole, frac, _ := strings.Cut(mant, ".")
	digits := whole + frac // the value is digits × 10^exp
	exp -= len(frac)
	if exp < 0 {
		cut := len(digits) + exp
		if cut < 0 {
			cut = 0
		}
		if strings.Trim(digits[cut:], "0") != "" {
			return "", false // a fraction
		}
		digits, exp = digits[:cut], 0
	}
	digits = strings.TrimLeft(digits, "0")
	if digits == "" {
		return "0", true
	}
	if len(digits)+exp > maxPlainDigits {
		return "", false
	}
	return sign + digits + strings.Repeat("0", exp), true
}
