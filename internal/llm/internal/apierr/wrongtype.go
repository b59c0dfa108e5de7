package apierr

import (
	"fmt"
	"strings"

	"github.com/parleyhq/parley/internal/llm"
)

// NotString returns raw, a field's JSON as sent, when it is a value of
// another type than a string (an object, a list, a number, true or
// false); "" for a string, null and a field not sent. The SDKs read such
// a value into a string field as its raw JSON ("content": {"text": "Hi"}
// became the answer {"text":"Hi"}, "content": 42 the answer 42), so that
// what the server meant was passed on as the model's words.
func NotString(raw string) string {
	switch t := strings.TrimSpace(raw); {
	case t == "", t == "null", t[0] == '"':
		return ""
	default:
		return t
	}
}

// WrongType is the error for a field of a stream event or chunk (what:
// "content_block_delta", "stream chunk") whose value, raw as sent, is of
// another JSON type than the API's (want: "a string"). It is asked once
// more, as invalid JSON is: the server wrote it so. The provider's mapper
// names the provider.
func WrongType(what, field, raw, want string) *llm.Error {
	return &llm.Error{Kind: llm.ErrMalformed, Tries: MalformedTries, Err: fmt.Errorf(
		"the server sent a %s whose %q is %s, not %s as the API sends it: %s: its output is broken, and the text in it is not the model's; "+
			"if this repeats, report it to whoever runs the server or use another", what, field, JSONType(raw), want, Detail(raw))}
}

// JSONType names the type of a JSON value, raw as sent.
func JSONType(raw string) string {
	t := strings.TrimSpace(raw)
	if t == "" {
		return "empty"
	}
	switch t[0] {
	case '{':
		return "an object"
	case '[':
		return "a list"
	case '"':
		return "a string"
	case 't', 'f':
		return "true or false"
	case 'n':
		return "null"
	}
	return "a number"
}
