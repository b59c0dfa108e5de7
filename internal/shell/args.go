package shell

import (
	"errors"
	"strings"
)

// splitArgs splits a command line into words as a shell would: spaces
// separate them, "double" and 'single' quotes keep spaces in one, and a
// backslash escapes the next character (outside single quotes).
func splitArgs(s string) ([]string, error) {
	var out []string
	var cur strings.Builder
	inWord, quote, escaped := false, rune(0), false
	for _, r := range s {
		switch {
		case escaped:
			cur.WriteRune(r)
			escaped = false
		case r == '\\' && quote != '\'':
			escaped, inWord = true, true
		case quote != 0:
			if r == quote {
				quote = 0
			} else {
				cur.WriteRune(r)
			}
		case r == '"' || r == '\'':
			quote, inWord = r, true
		case r == ' ' || r == '\t':
			if inWord {
				out = append(out, cur.String())
				cur.Reset()
				inWord = false
			}
		default:
			cur.WriteRune(r)
			inWord = true
		}
	}
	if quote != 0 {
		return nil, errors.New("a quote is not closed")
	}
	if escaped {
		cur.WriteRune('\\')
	}
	if inWord {
		out = append(out, cur.String())
	}
	return out, nil
}
