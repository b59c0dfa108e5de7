package textsafe

import "strings"

// MaxNesting is how many block quote and list markers one line of
// untrusted Markdown may open (see Shallow).
const MaxNesting = 32

// Shallow returns Markdown src with the block quote and list markers that
// start a line ("> ", "- ", "* ", "+ ", "1. ", "1) ") beyond the first
// MaxNesting dropped, the rest of the line kept. Each marker opens a block
// quote or a list inside the one before, and goldmark, and every renderer
// that walks its tree, pay for nesting more than in proportion: a reply of
// "1. 1. 1. …" a few hundred kilobytes long took goldmark minutes to parse
// and overflowed the stack of the walk that drew it, which kills the
// process. No document a reader can follow nests so deep; what such a line
// says is kept, less deeply nested.
func Shallow(src string) string {
	var b strings.Builder
	done := 0 // src[:done] is in b
	for start := 0; start < len(src); {
		end := len(src)
		if i := strings.IndexByte(src[start:], '\n'); i >= 0 {
			end = start + i + 1
		}
		if cut, rest, ok := tooDeep(src[start:end]); ok {
			if done == 0 {
				b.Grow(len(src))
			}
			b.WriteString(src[done : start+cut])
			done = start + rest
		}
		start = end
	}
	if done == 0 {
		return src
	}
	b.WriteString(src[done:])
	return b.String()
}

// tooDeep reports whether line starts with more than MaxNesting container
// markers, and if so where the first marker past them starts (cut) and
// where the text after the last one starts (rest).
func tooDeep(line string) (cut, rest int, ok bool) {
	n, i := 0, 0
	for {
		j := i
		for j < len(line) && (line[j] == ' ' || line[j] == '\t') {
			j++
		}
		k := markerEnd(line, j)
		if k < 0 {
			break
		}
		n++
		if n == MaxNesting+1 {
			cut = j
		}
		i = k
	}
	if n <= MaxNesting {
		return 0, 0, false
	}
	return cut, i, true
}

// markerEnd is where the block quote or list marker at line[i] ends, with
// the space after it, or -1 when none starts there.
func markerEnd(line string, i int) int {
	if i >= len(line) {
		return -1
	}
	j := i
	switch c := line[i]; {
	case c == '>':
		if i+1 < len(line) && line[i+1] == ' ' {
			return i + 2
		}
		return i + 1
	case c == '-' || c == '*' || c == '+':
		j = i + 1
	case c >= '0' && c <= '9':
		for j < len(line) && j-i < 9 && line[j] >= '0' && line[j] <= '9' {
			j++
		}
		if j >= len(line) || (line[j] != '.' && line[j] != ')') {
			return -1
		}
		j++
	default:
		return -1
	}
	switch {
	case j == len(line) || line[j] == '\n' || line[j] == '\r':
		return j
	case line[j] == ' ' || line[j] == '\t':
		return j + 1
	}
	return -1
}
