package view

import (
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/charmbracelet/x/ansi"
)

// screen is a terminal as small as the view's output needs: it draws text
// with autowrap and interprets CR, LF, erase in line and display (ESC[K,
// ESC[J), cursor up (ESC[nA) and to a column (ESC[nG); colours are
// dropped. A resize folds no line anew (as xterm); lines scroll into the
// history, which the screen's text includes, as tmux's capture-pane -S.
type screen struct {
	width      int
	rows       [][]rune
	row, col   int
	pendingEOL bool // the last column was written: the next rune wraps
}

func newScreen(width int) *screen { return &screen{width: width, rows: [][]rune{nil}} }

func (s *screen) lineAt(r int) []rune {
	for len(s.rows) <= r {
		s.rows = append(s.rows, nil)
	}
	return s.rows[r]
}

func (s *screen) put(c rune) {
	if s.pendingEOL {
		s.row, s.col, s.pendingEOL = s.row+1, 0, false
	}
	line := s.lineAt(s.row)
	for len(line) <= s.col {
		line = append(line, ' ')
	}
	line[s.col] = c
	s.rows[s.row] = line
	w := max(ansi.StringWidth(string(c)), 1)
	if s.col+w >= s.width {
		s.col, s.pendingEOL = s.width-1, true
		return
	}
	if w == 2 {
		// The next column is the character's second half.
		s.rows[s.row] = append(line, 0)
	}
	s.col += w
}

// write interprets b.
func (s *screen) write(b string) {
	for i := 0; i < len(b); {
		switch c := b[i]; {
		case c == '\r':
			s.col, s.pendingEOL = 0, false
			i++
		case c == '\n':
			s.row, s.col, s.pendingEOL = s.row+1, 0, false
			s.lineAt(s.row)
			i++
		case c == 0x1b && i+1 < len(b) && b[i+1] == '[':
			j := i + 2
			for j < len(b) && (b[j] < 0x40 || b[j] > 0x7e) {
				j++
			}
			n, err := strconv.Atoi(b[i+2 : j])
			if err != nil {
				n = 1
			}
			switch b[j] {
			case 'K':
				line := s.lineAt(s.row)
				if s.col < len(line) {
					s.rows[s.row] = line[:s.col]
				}
			case 'J':
				line := s.lineAt(s.row)
				if s.col < len(line) {
					s.rows[s.row] = line[:s.col]
				}
				s.rows = s.rows[:s.row+1]
			case 'A':
				s.row, s.pendingEOL = max(s.row-n, 0), false
			case 'G':
				s.col, s.pendingEOL = n-1, false
			}
			i = j + 1
		default:
			r, n := utf8.DecodeRuneInString(b[i:])
			s.put(r)
			i += n
		}
	}
}

// String is the screen's text, each row trimmed, the cursor marked ▌.
func (s *screen) String() string {
	var b strings.Builder
	for r, line := range s.rows {
		text := line
		if r == s.row {
			col := min(s.col, len(text))
			text = append(text[:col:col], append([]rune("▌"), text[col:]...)...)
		}
		b.WriteString(strings.TrimRight(strings.ReplaceAll(string(text), "\x00", ""), " "))
		b.WriteByte('\n')
	}
	return b.String()
}
