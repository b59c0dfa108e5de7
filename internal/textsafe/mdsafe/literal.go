package mdsafe

import "strings"

// Literal is untrusted text (a topic, a company's name as typed) to be
// placed as plain text within a line of a document Parley writes: a
// heading ("# Decision: …"), a label's value ("**Topic:** …"). It is put
// on one line, and every character that could start inline Markdown is
// escaped with a backslash, so that the text reads as it was typed rather
// than as markup: "*bold*" is not emphasis, "[link](…)" no link, "`x`" no
// code, "<b>" no HTML, a "#" no closing sequence of the heading (a topic
// "Is it C #" lost its "#"), a "\" no escape nor, at the end, a hard
// line break, "&amp;" no character reference. Text a reader would see the same either way
// ("?", "-", "(" in the middle of a line) is left as is, so that the
// Markdown file reads well too.
//
// Unlike Inert, which keeps the Markdown of model output a reader can
// see, Literal keeps none: a topic is the user's words, not Markdown.
// Controls are left to textsafe.Clean, which every document goes through.
func Literal(s string) string {
	s = strings.Join(strings.Fields(s), " ")
	var b strings.Builder
	b.Grow(len(s) + 8)
	for i := 0; i < len(s); i++ {
		switch c := s[i]; c {
		case '\\':
			if i == len(s)-1 {
				// Escaped as "\\" before a hard line break's "\" the
				// document puts after it, goldmark shows two backslashes
				// and no break; a reference reads as one backslash.
				b.WriteString("&#92;")
				continue
			}
			if isPunct(s[i+1]) {
				b.WriteByte('\\') // else it escapes nothing: C:\svc
			}
		case '`', '*', '_', '[', ']', '<', '#', '~', '|':
			b.WriteByte('\\')
		case '&':
			if n, _ := entity(s[i:]); n > 0 {
				b.WriteByte('\\')
			}
		}
		b.WriteByte(s[i])
	}
	return b.String()
}
