package shell

import (
	"errors"
	"strings"
	"unicode"
)

// splitArgs splits a command line into words as a shell would: spaces
// separate them, "double" and 'single' quotes keep spaces in one, and a
// backslash escapes the next character (outside single quotes). Unlike a
// shell's, an apostrophe that follows a letter or a digit is one ("What's
// next?", "don't"), not a quote: questions and topics are typed as they
// are read, and a quote opened there would swallow the rest of the line.
func splitArgs(s string) ([]string, error) {
	var out []string
	var cur strings.Builder
	inWord, quote, escaped := false, rune(0), false
	last := rune(0) // the last character of the word, outside quotes
	for _, r := range s {
		prev := last
		last = 0
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
		case r == '\'' && (unicode.IsLetter(prev) || unicode.IsDigit(prev)):
			cur.WriteRune(r)
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
			inWord, last = true, r
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
