package apierr

import (
	"regexp"
	"strings"
)

// rejectWords are the words servers use to say a field is not accepted, as
// opposed to a value that is out of range ("max_tokens is too large"),
// which no other shape of the request can fix.
var rejectWords = regexp.MustCompile(`(?i)unsupported|not supported|does not support|unrecogni[sz]ed|unknown|extra|not permitted|not allowed|forbidden|unexpected|unavailable`)

// rejectWindow is how far from the field's name the words saying it is
// rejected may be: the same clause, not anywhere in a long message.
const rejectWindow = 80

// RejectedField returns which of sent (the adaptable fields a request
// carried) an error answer of status 400 or 422 says the server does not
// accept, or "" when it says something else. param, code and message are
// the error's own; raw is its body as sent, which some servers fill with
// details (pydantic's list). The field is param when the server names one,
// else the first of sent named as a whole word in the message, or else in
// the raw body, next to words of rejection.
func RejectedField(param, code, message, raw string, sent []string) string {
	if param != "" {
		// The server says which field: only that one can be the cause.
		// A nested one is named by its path
		// ("response_format.json_schema.strict"), whose last part it is.
		for _, f := range sent {
			if (f == param || strings.HasSuffix(param, "."+f)) && rejectWords.MatchString(code+" "+message) {
				return f
			}
		}
		return ""
	}
	// The message first: a server that puts the reason there says it
	// best. The raw body holds what else it sent (pydantic's list of
	// details); each is searched apart so that one's words are not taken
	// for the other's. In each, a field named as the last part of a path
	// ("response_format.json_schema.strict") is the one refused rather
	// than the fields the path goes through; one that is only ever named
	// on the way to another is taken when nothing else is (a server that
	// knows output_config but not a member of it).
	for _, text := range []string{message, raw} {
		for _, leaf := range []bool{true, false} {
			if f := rejectedIn(text, sent, leaf); f != "" {
				return f
			}
		}
	}
	return ""
}

// rejectedIn returns the first of sent named in text next to words of
// rejection; with leaf, only where it is not on the way to a member of
// it (see parent).
func rejectedIn(text string, sent []string, leaf bool) string {
	best, bestAt := "", -1
	for _, f := range sent {
		for at := range wordIndexes(text, f) {
			end := at + len(f)
			if leaf && parent(text[end:]) {
				continue
			}
			lo, hi := max(at-rejectWindow, 0), min(end+rejectWindow, len(text))
			if rejectWords.MatchString(text[lo:at]) || rejectWords.MatchString(text[end:hi]) {
				// A message that lists accepted fields after the
				// rejected one (TGI: "unknown field `x`, expected one
				// of ...") names the rejected one first.
				if bestAt < 0 || at < bestAt {
					best, bestAt = f, at
				}
				break
			}
		}
	}
	return best
}

// parent reports whether after, the text after a field's name, goes on
// to a member of the field: "field.member", or a pydantic location list's
// "field","member".
func parent(after string) bool {
	for _, sep := range []string{".", `","`, `", "`} {
		if rest, ok := strings.CutPrefix(after, sep); ok && rest != "" && identByte(rest[0]) {
			return true
		}
	}
	return false
}

// wordIndexes yields where word occurs in s as a whole word: not inside a
// longer identifier (max_tokens in max_tokens_per_call).
func wordIndexes(s, word string) func(func(int) bool) {
	return func(yield func(int) bool) {
		for off := 0; ; {
			i := strings.Index(s[off:], word)
			if i < 0 {
				return
			}
			at := off + i
			end := at + len(word)
			if (at == 0 || !identByte(s[at-1])) && (end == len(s) || !identByte(s[end])) && !yield(at) {
				return
			}
			off = end
		}
	}
}

func identByte(b byte) bool {
	return b == '_' || b >= '0' && b <= '9' || b >= 'a' && b <= 'z' || b >= 'A' && b <= 'Z'
}
