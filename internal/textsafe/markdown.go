package textsafe

import "strings"

// MaxNesting is how many block quote and list markers one line of
// untrusted Markdown may open (see Shallow).
const MaxNesting = 32

// MaxIndent is how many columns of white space (a tab counted as four) the
// block quote and list markers that start a line of untrusted Markdown may
// stand behind, in all (see Shallow).
const MaxIndent = 4 * MaxNesting

// Shallow returns Markdown src with the block quote and list markers that
// start a line ("> ", "- ", "* ", "+ ", "1. ", "1) ") beyond the first
// MaxNesting dropped, the rest of the line kept, and the white space in
// front of those markers cut to MaxIndent columns in all. Each marker opens
// a block quote or a list inside the one before, and so does a list item
// indented under the one on the line before; goldmark, and every renderer
// that walks its tree, pay for nesting more than in proportion: a reply of
// "1. 1. 1. …" a few hundred kilobytes long took goldmark minutes to parse
// and overflowed the stack of the walk that drew it, which kills the
// process, and a reply of a megabyte whose list items were each indented
// two columns more than the one before took goldmark eight seconds to
// parse, for every view of a page and every renderer. No document a reader
// can follow nests so deep; what such a line says is kept, less deeply
// nested. White space not followed by a marker (an indented code line) is
// left as it is: it opens nothing.
//
// A table whose rows would hold more cells than they have bytes (and more
// than MaxCells) is shown as text: its delimiter row ("|---|---|") is
// escaped. A row with fewer cells than the header is filled with empty
// ones, so a header of thousands of columns over thousands of one-cell
// rows made a reply of 20 KB four million cells, 11 s and 670 MB to
// parse, and a few hundred kilobytes more memory than any machine has.
func Shallow(src string) string {
	return unnested(shallowLines(src))
}

// unnested returns src with each "[" that opens a bracket more than
// MaxNesting deep in its paragraph escaped ("\\["): goldmark checks, at
// every "]" that closes a link's text, that the text holds no link, by
// walking all it holds, so brackets nested by the thousand, on one line or
// many, cost the square of their depth ("[\n" twelve thousand times, then
// as many "\n]", took 4 s to parse, and twice that 20 s). Brackets so deep
// make no link a reader can follow; the text is kept, its deepest
// brackets shown as written. A paragraph ends at a blank line, where
// links do; a backslash-escaped bracket opens nothing, and brackets in a
// fenced code block are left as they are (code spans are not told apart:
// a span holding brackets more than MaxNesting deep shows the escapes).
func unnested(src string) string {
	if strings.Count(src, "[") <= MaxNesting {
		return src
	}
	var b strings.Builder
	done, depth := 0, 0
	for start := 0; start < len(src); {
		end := len(src)
		if i := strings.IndexByte(src[start:], '\n'); i >= 0 {
			end = start + i + 1
		}
		line := src[start:end]
		switch t := strings.TrimLeft(line, " \t"); {
		case strings.TrimSpace(t) == "":
			depth = 0
		case strings.HasPrefix(t, "```") || strings.HasPrefix(t, "~~~"):
			// A fenced code block's brackets are text: skip to its end (or
			// the document's, where an unclosed fence ends).
			fence := t[:3]
			for start = end; start < len(src); {
				end = len(src)
				if i := strings.IndexByte(src[start:], '\n'); i >= 0 {
					end = start + i + 1
				}
				closed := strings.HasPrefix(strings.TrimLeft(src[start:end], " \t"), fence)
				start = end
				if closed {
					break
				}
			}
			depth = 0
			continue
		default:
			for i := 0; i < len(line); i++ {
				switch line[i] {
				case '\\':
					i++ // the escaped character opens and closes nothing
				case '[':
					if depth < MaxNesting {
						depth++
						continue
					}
					if done == 0 {
						b.Grow(len(src) + 64)
					}
					b.WriteString(src[done : start+i])
					b.WriteByte('\\')
					done = start + i
				case ']':
					depth = max(depth-1, 0)
				}
			}
		}
		start = end
	}
	if done == 0 {
		return src
	}
	b.WriteString(src[done:])
	return b.String()
}

// shallowLines is Shallow but for the brackets (unnested).
func shallowLines(src string) string {
	var b strings.Builder
	done := 0      // src[:done] is in b
	tableEnd := -1 // the end of the last table checked: its rows start none
	for start := 0; start < len(src); {
		end := len(src)
		if i := strings.IndexByte(src[start:], '\n'); i >= 0 {
			end = start + i + 1
		}
		line, changed := shallowLine(src[start:end])
		if l, ok := unlinked(line); ok {
			line, changed = l, true
		}
		if start >= tableEnd {
			if at, cols := delimiterRow(line); cols > 0 {
				rows, size, stop := tableRows(src, end)
				tableEnd = stop
				if rows*cols > max(MaxCells, size) {
					line, changed = line[:at]+"\\"+line[at:], true
				}
			}
		}
		if changed {
			if done == 0 {
				b.Grow(len(src))
			}
			b.WriteString(src[done:start])
			b.WriteString(line)
			done = end
		}
		start = end
	}
	if done == 0 {
		return src
	}
	b.WriteString(src[done:])
	return b.String()
}

// MaxRun is how long a run of text without white space may be before the
// link openings in it past the first, "](", are escaped (see unlinked).
const MaxRun = 1 << 10

// unlinked returns line with "](" escaped as "]\(" after the first in each
// run of more than MaxRun bytes without white space; ok reports whether it
// changed. goldmark reads each "](" as a link's destination and looks for
// its end up to the next white space, so a reply of "[a](b" repeated for
// 64 KB took 11 s to parse, and a megabyte some forty minutes, in every
// renderer and every view of a dashboard page. A link's address has no
// white space in it, but a run that long holds one link at most.
func unlinked(line string) (string, bool) {
	if len(line) <= MaxRun || strings.Count(line, "](") < 2 {
		return line, false
	}
	var b strings.Builder
	done, changed := 0, false
	for start := 0; start < len(line); {
		end := strings.IndexAny(line[start:], " \t\r\n")
		if end < 0 {
			end = len(line)
		} else {
			end += start
		}
		if run := line[start:end]; len(run) > MaxRun {
			if first := strings.Index(run, "]("); first >= 0 {
				for i := first + 2; ; {
					j := strings.Index(run[i:], "](")
					if j < 0 {
						break
					}
					at := start + i + j + 1 // the "(" after "]"
					b.WriteString(line[done:at])
					b.WriteByte('\\')
					done, changed = at, true
					i += j + 2
				}
			}
		}
		start = end + 1
	}
	if !changed {
		return line, false
	}
	b.WriteString(line[done:])
	return b.String(), true
}

// MaxCells is how many cells a table may have beyond one for each byte of
// its rows (see Shallow).
const MaxCells = 4096

// delimiterRow reports whether line is a table's delimiter row ("|---|:-:|"),
// where it starts after any indentation and block quote markers, and how
// many columns it gives the table; cols is 0 when it is none.
func delimiterRow(line string) (at, cols int) {
	at = strings.IndexFunc(line, func(r rune) bool { return r != ' ' && r != '\t' && r != '>' })
	if at < 0 || !strings.ContainsRune(line, '|') {
		return 0, 0
	}
	inCell := false
	for _, c := range []byte(strings.TrimRight(line[at:], " \t\r\n")) {
		switch c {
		case '-', ':':
			if !inCell {
				cols++
				inCell = true
			}
		case '|':
			inCell = false
		case ' ', '\t':
		default:
			return 0, 0
		}
	}
	return at, cols
}

// tableRows counts the lines from src[start:] to the next blank one (block
// quote markers aside), the rows of a table whose delimiter row ends at
// start, and their bytes; stop is where they end.
func tableRows(src string, start int) (rows, size, stop int) {
	for stop = start; stop < len(src); {
		end := len(src)
		if i := strings.IndexByte(src[stop:], '\n'); i >= 0 {
			end = stop + i + 1
		}
		if strings.TrimLeft(src[stop:end], " \t>\r\n") == "" {
			break
		}
		rows++
		size += end - stop
		stop = end
	}
	return rows, size, stop
}

// shallowLine returns line with the container markers that start it past
// MaxNesting dropped, with the white space before them, and the white
// space before the others cut to MaxIndent columns in all; ok reports
// whether anything was.
func shallowLine(line string) (out string, ok bool) {
	if !strings.ContainsAny(line, ">-*+.)") {
		return line, false
	}
	var b strings.Builder
	n, indent, i := 0, 0, 0
	for {
		j, cols := i, 0
		for j < len(line) && (line[j] == ' ' || line[j] == '\t') {
			if line[j] == '\t' {
				cols += 4
			} else {
				cols++
			}
			j++
		}
		k := markerEnd(line, j)
		if k < 0 {
			break
		}
		n++
		switch {
		case n > MaxNesting:
			ok = true
		case indent+cols > MaxIndent:
			keep := max(MaxIndent-indent, 0)
			b.WriteString(strings.Repeat(" ", keep))
			b.WriteString(line[j:k])
			indent += keep
			ok = true
		default:
			b.WriteString(line[i:k])
			indent += cols
		}
		i = k
	}
	if !ok {
		return line, false
	}
	b.WriteString(line[i:])
	return b.String(), true
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
