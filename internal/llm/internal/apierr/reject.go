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
		for _, f := range sent {
			if f == param && rejectWords.MatchString(code+" "+message) {
				return f
			}
		}
		return ""
	}
	best, bestAt := "", -1
	// The message first: a server that puts the reason there says it
	// best. The raw body holds what else it sent (pydantic's list of
	// details); each is searched apart so that one's words are not taken
	// for the other's.
	for _, text := range []string{message, raw} {
		for _, f := range sent {
			for at := range wordIndexes(text, f) {
				lo, hi := max(at-rejectWindow, 0), min(at+len(f)+rejectWindow, len(text))
				if rejectWords.MatchString(text[lo:at]) || rejectWords.MatchString(text[at+len(f):hi]) {
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
		if best != "" {
			return best
		}
	}
	return best
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
