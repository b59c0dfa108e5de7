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

// MaxBracketWork and BracketWorkPerByte bound the steps goldmark may take
// for a document's brackets (see unnested): the larger of MaxBracketWork
// and BracketWorkPerByte for each byte of the document.
const (
	MaxBracketWork     = 1 << 20
	BracketWorkPerByte = 16
)

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
//
// A "[" is escaped too once the document's brackets would cost goldmark
// more steps than its budget (MaxBracketWork, BracketWorkPerByte): at each
// "]" that closes a bracket and makes no inline link, goldmark finds the
// bracket's line by walking back from its paragraph's last line, so a
// reply with "[a]" on each of its lines cost the square of its lines (a
// quarter of a megabyte, 1.7 s for each parse; a megabyte, half a minute).
// A bracket is charged the lines after its own in its paragraph, as far as
// a line can tell (see blockStart); a paragraph of a few dozen lines, or a
// list of links, each item its own paragraph, stays far within the budget.
func unnested(src string) string {
	if strings.Count(src, "[") <= MaxNesting && strings.Count(src, "[") <= 1+MaxBracketWork/max(strings.Count(src, "\n"), 1) {
		return src
	}
	budget := max(MaxBracketWork, BracketWorkPerByte*len(src))
	var b strings.Builder
	done, depth := 0, 0
	left := 0 // lines of the paragraph from this one to its end
	for start := 0; start < len(src); {
		end := len(src)
		if i := strings.IndexByte(src[start:], '\n'); i >= 0 {
			end = start + i + 1
		}
		line := src[start:end]
		if left == 0 || blockStart(line) {
			left = paragraphLines(src[start:])
		}
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
			depth, left = 0, 0
			continue
		default:
			for i := 0; i < len(line); i++ {
				switch line[i] {
				case '\\':
					i++ // the escaped character opens and closes nothing
				case '[':
					if depth < MaxNesting && budget >= left {
						depth++
						budget -= left
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
		left = max(left-1, 0)
		start = end
	}
	if done == 0 {
		return src
	}
	b.WriteString(src[done:])
	return b.String()
}

// paragraphLines is how many lines of src, from its first, a paragraph
// that starts there may hold: up to a blank line (block quote markers
// aside), a fence, or a line that starts a block (blockStart). It counts
// more when a line it cannot tell continues another block; never less.
func paragraphLines(src string) int {
	n := 0
	for start := 0; start < len(src); n++ {
		end := len(src)
		if i := strings.IndexByte(src[start:], '\n'); i >= 0 {
			end = start + i + 1
		}
		line := src[start:end]
		t := strings.TrimLeft(line, " \t")
		if strings.TrimLeft(line, " \t>\r\n") == "" || strings.HasPrefix(t, "```") || strings.HasPrefix(t, "~~~") || n > 0 && blockStart(line) {
			return max(n, 1)
		}
		start = end
	}
	return max(n, 1)
}

// blockStart reports whether line, after its block quote markers, starts a
// block that ends any paragraph before it: an ATX heading, a bullet or an
// ordered item numbered 1 with text, a thematic break or a setext
// underline, behind at most three spaces. An ordered item numbered
// otherwise continues a paragraph, and so does a line indented four
// columns or more.
func blockStart(line string) bool {
	i := 0
	for {
		sp := 0
		for i < len(line) && line[i] == ' ' && sp < 4 {
			i++
			sp++
		}
		if sp > 3 || i < len(line) && line[i] == '\t' {
			return false
		}
		if i < len(line) && line[i] == '>' {
			i++
			continue
		}
		break
	}
	rest := strings.TrimRight(line[i:], " \t\r\n")
	if rest == "" {
		return false
	}
	switch c := rest[0]; {
	case c == '#':
		h := strings.TrimLeft(rest, "#")
		return len(rest)-len(h) <= 6 && (h == "" || h[0] == ' ' || h[0] == '\t')
	case c == '=' || c == '-' || c == '*' || c == '_':
		if strings.Trim(rest, string(c)+" \t") == "" {
			return true // a rule or an underline
		}
		if c != '=' && c != '_' && len(rest) > 2 && (rest[1] == ' ' || rest[1] == '\t') {
			return true // a bullet with text
		}
	case c == '+':
		return len(rest) > 2 && (rest[1] == ' ' || rest[1] == '\t')
	case c == '1':
		return len(rest) > 3 && (rest[1] == '.' || rest[1] == ')') && (rest[2] == ' ' || rest[2] == '\t')
	}
	return false
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

// unlinked returns line with "](" escaped as "]\\(" after the first in each
// run of more than MaxRun bytes without white space, and wherever a
// destination in angle brackets follows ("](<", spaces allowed) whose ">"
// is not within MaxRun bytes (or not on the line: then it opens nothing
// anyway), on a line longer than MaxRun; ok reports
// whether it changed. goldmark reads each "](" as a link's destination and
// looks for its end up to the next white space, or for a "<" up to the
// next ">" on the line, so a reply of "[a](b" repeated for 64 KB took 11 s
// to parse, and a megabyte some forty minutes, and "[a]( <b" repeated for
// 64 KB 1.2 s, in every renderer and every view of a dashboard page. A
// link's address has no white space in it, but a run that long holds one
// link at most; an address in angle brackets a kilobyte long is no link a
// reader follows.
func unlinked(line string) (string, bool) {
	if len(line) <= MaxRun || !strings.Contains(line, "](") {
		return line, false
	}
	var at []int // the "(" to escape, in order
	runs := strings.Count(line, "](") >= 2
	for start := 0; runs && start < len(line); {
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
					at = append(at, start+i+j+1)
					i += j + 2
				}
			}
		}
		start = end + 1
	}
	gt := -1 // the next ">" no backslash escapes, from where it was looked for
	var pointed []int
	for i := 0; ; {
		j := strings.Index(line[i:], "](")
		if j < 0 {
			break
		}
		open := i + j + 1
		k := open + 1
		for k < len(line) && (line[k] == ' ' || line[k] == '\t') {
			k++
		}
		if k < len(line) && line[k] == '<' {
			if gt <= k {
				gt = k + 1
				for gt < len(line) && (line[gt] != '>' || line[gt-1] == '\\') {
					gt++
				}
			}
			if gt-k > MaxRun || gt == len(line) {
				// No ">" near, or none at all: no link either way.
				pointed = append(pointed, open)
			}
		}
		i = open + 1
	}
	at = mergeSorted(at, pointed)
	if len(at) == 0 {
		return line, false
	}
	var b strings.Builder
	b.Grow(len(line) + len(at))
	done := 0
	for _, i := range at {
		b.WriteString(line[done:i])
		b.WriteByte('\\')
		done = i
	}
	b.WriteString(line[done:])
	return b.String(), true
}

// mergeSorted merges two ascending lists, each value once.
func mergeSorted(a, b []int) []int {
	if len(b) == 0 {
		return a
	}
	out := make([]int, 0, len(a)+len(b))
	for len(a) > 0 || len(b) > 0 {
		var v int
		switch {
		case len(b) == 0 || len(a) > 0 && a[0] <= b[0]:
			v, a = a[0], a[1:]
		default:
			v, b = b[0], b[1:]
		}
		if len(out) == 0 || out[len(out)-1] != v {
			out = append(out, v)
		}
	}
	return out
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
