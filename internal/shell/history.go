package shell

import (
	"bufio"
	"os"
	"path/filepath"
	"strings"
)

// maxHistory bounds the input history kept between sessions.
const maxHistory = 1000

// history is the input history, recalled with Up and Down and kept in a
// file in the user's data directory.
type history struct {
	file  string
	lines []string
	pos   int    // the line recalled; len(lines) when none
	draft string // what was typed before recalling
}

func loadHistory(file string) *history {
	h := &history{file: file}
	if file != "" {
		if f, err := os.Open(file); err == nil {
			sc := bufio.NewScanner(f)
			for sc.Scan() {
				if l := sc.Text(); l != "" {
					h.lines = append(h.lines, l)
				}
			}
			f.Close()
		}
		if len(h.lines) > maxHistory {
			h.lines = h.lines[len(h.lines)-maxHistory:]
			h.rewrite()
		}
	}
	h.pos = len(h.lines)
	return h
}

// add records a line typed (not twice in a row) and appends it to the file.
func (h *history) add(line string) {
	line = strings.ReplaceAll(line, "\n", " ")
	if n := len(h.lines); n > 0 && h.lines[n-1] == line {
		h.reset()
		return
	}
	h.lines = append(h.lines, line)
	h.reset()
	if h.file == "" {
		return
	}
	if err := os.MkdirAll(filepath.Dir(h.file), 0o700); err != nil {
		return
	}
	// The history may hold what the user would rather keep private: only
	// the user may read it. A history that cannot be written is not worth
	// interrupting the shell for.
	if f, err := os.OpenFile(h.file, os.O_APPEND|os.O_CREATE|os.O_WRONLY, 0o600); err == nil {
		_, _ = f.WriteString(line + "\n")
		_ = f.Close()
	}
}

func (h *history) rewrite() {
	tmp := h.file + ".tmp"
	if err := os.WriteFile(tmp, []byte(strings.Join(h.lines, "\n")+"\n"), 0o600); err == nil {
		_ = os.Rename(tmp, h.file)
	}
}

// reset ends a recall: the next Up recalls the latest line.
func (h *history) reset() { h.pos, h.draft = len(h.lines), "" }

// prev recalls the line before; current is what is typed now, given back
// by next at the end.
func (h *history) prev(current string) (string, bool) {
	if h.pos == 0 {
		return "", false
	}
	if h.pos == len(h.lines) {
		h.draft = current
	}
	h.pos--
	return h.lines[h.pos], true
}

// next recalls the line after, or what was typed before recalling.
func (h *history) next() (string, bool) {
	if h.pos >= len(h.lines) {
		return "", false
	}
	h.pos++
	if h.pos == len(h.lines) {
		return h.draft, true
	}
	return h.lines[h.pos], true
}
