package cli

import (
	"bufio"
	"context"
	"errors"
	"fmt"
	"io"
	"strings"
	"sync"
	"unicode"
	"unicode/utf8"

	"github.com/parleyhq/parley/internal/app"
	"github.com/parleyhq/parley/internal/debate"
	"github.com/parleyhq/parley/internal/iostreams"
)

// terminalHuman answers checkpoints from standard input. It reads lines in
// one goroutine so that a prompt can be abandoned when the context ends.
// When standard input is a terminal, a line typed while no checkpoint waits is
// a hint ("bull: look at margins"), queued for that agent's next turn.
type terminalHuman struct {
	io    *iostreams.IOStreams
	once  sync.Once
	lines chan string
	// sync waits until the live view has shown everything up to a sequence
	// number, so that the prompt appears after the round it asks about.
	sync func(seq int64)

	mu      sync.Mutex
	waiting bool
	// hint queues a hint; targets lists the agents that take hints.
	hint    func(target, text string) error
	targets func() []string

	// keys, when set, is the live view that shows the line being typed:
	// the terminal echoes nothing (iostreams.QuietInput) and keys are
	// read one by one, but while a checkpoint waits, when cooked and
	// quiet give the terminal back its own line editing and take it
	// again.
	keys          typedLine
	cooked, quiet func()
}

// typedLine shows the line being typed (view.Live).
type typedLine interface {
	Typing(text string)
	DoneTyping()
	Say(line string)
}

func newTerminalHuman(ios *iostreams.IOStreams) *terminalHuman {
	return &terminalHuman{io: ios}
}

func (h *terminalHuman) readLines() {
	h.lines = make(chan string)
	if h.keys != nil {
		go func() {
			// A panic here would end the process with the terminal
			// quiet (no echo, the paste mode on).
			defer h.io.RestoreOnPanic()
			h.readKeys()
		}()
		return
	}
	go func() {
		defer h.io.RestoreOnPanic()
		defer close(h.lines)
		sc := bufio.NewScanner(h.io.In)
		for sc.Scan() {
			line := sc.Text()
			if h.routeHint(line) {
				continue
			}
			h.lines <- line
		}
	}()
}

// listen starts reading typed hints before any checkpoint asks, when the
// input is a terminal. Piped input is kept for checkpoint answers only, so
// that a script's answers are never mistaken for hints.
func (h *terminalHuman) listen() {
	if h.io.IsInputTerminal() && h.hint != nil {
		h.once.Do(h.readLines)
	}
}

// routeHint handles a line typed while no checkpoint waits; it reports
// whether it took the line.
func (h *terminalHuman) routeHint(line string) bool {
	h.mu.Lock()
	waiting := h.waiting
	h.mu.Unlock()
	if waiting || h.hint == nil || !h.io.IsInputTerminal() {
		return false
	}
	line = strings.TrimSpace(line)
	if line == "" {
		return true
	}
	// Every front-end reads hints by one rule ("perf: ..." for
	// performance-advocate, "all:" or "both:" for every agent).
	target, text, err := app.ParseHint(h.targets(), line)
	if err != nil {
		h.say(strings.ToUpper(err.Error()[:1]) + err.Error()[1:])
		return true
	}
	if err := h.hint(target, text); err != nil {
		h.say(fmt.Sprintf("Hint not queued: %v", err))
	}
	return true
}

// say answers a typed line: in the live view when it shows what is typed,
// so that the answer does not land inside a streamed line.
func (h *terminalHuman) say(line string) {
	if h.keys != nil {
		h.keys.Say(line)
		return
	}
	fmt.Fprintln(h.io.ErrOut, errLine(h.io, line))
}

// maxTyped bounds the line being typed: a hint is at most app.MaxHintLen
// bytes, and a paste of a file must not grow the line without end.
const maxTyped = app.MaxHintLen + 100

// readKeys reads the keys typed, the terminal echoing none, and has the
// live view show the line being typed. It edits the line as a terminal
// does (Backspace, Ctrl+U, Ctrl+W; Esc clears it); Enter routes it as
// readLines does. While a checkpoint waits the terminal edits and echoes
// its answer itself, and whole lines arrive.
func (h *terminalHuman) readKeys() {
	defer close(h.lines)
	r := bufio.NewReader(h.io.KeysIn())
	var line []rune
	shown := false
	show := func() {
		if len(line) > 0 {
			h.keys.Typing(string(line))
			shown = true
		} else if shown {
			h.keys.DoneTyping()
			shown = false
		}
	}
	wasWaiting := false
	for {
		c, _, err := r.ReadRune()
		if err != nil {
			if shown {
				h.keys.DoneTyping()
			}
			return
		}
		waiting := h.isWaiting()
		if waiting != wasWaiting {
			// A line half typed when the checkpoint came is
			// dropped with the footer it showed in.
			line, wasWaiting = nil, waiting
		}
		if waiting {
			if c == '\n' || c == '\r' {
				h.lines <- string(line)
				line = nil
			} else if len(line) < maxTyped {
				line = append(line, c)
			}
			continue
		}
		switch {
		case c == '\r' || c == '\n':
			typed := string(line)
			line = nil
			if shown {
				h.keys.DoneTyping()
				shown = false
			}
			if !h.routeHint(typed) {
				h.lines <- typed
			}
		case c == 0x7f || c == 0x08: // Backspace
			if len(line) > 0 {
				line = line[:len(line)-1]
			}
			show()
		case c == 0x15: // Ctrl+U
			line = nil
			show()
		case c == 0x17: // Ctrl+W: the word before the cursor
			i := len(line)
			for i > 0 && line[i-1] == ' ' {
				i--
			}
			for i > 0 && line[i-1] != ' ' {
				i--
			}
			line = line[:i]
			show()
		case c == 0x1b:
			// A key that sends a sequence (an arrow, a function
			// key) arrives whole: it is skipped. Esc alone clears
			// the line.
			if r.Buffered() == 0 {
				line = nil
				show()
				continue
			}
			if readEscape(r) == pasteStart {
				line = readPaste(r, line)
				show()
			}
		case c == '\t':
			line = append(line, ' ')
			show()
		case unicode.IsControl(c) || c == utf8.RuneError:
			// Not text: nothing to show or send.
		default:
			if len(line) < maxTyped {
				line = append(line, c)
			}
			show()
		}
	}
}

// The marks a terminal in the bracketed paste mode puts around what is
// pasted (iostreams.QuietInput asks for the mode), as readEscape returns
// them.
const (
	pasteStart = "[200~"
	pasteEnd   = "[201~"
)

// readEscape reads the rest of an escape sequence whose ESC was read: a
// CSI (ESC [ … final byte), an SS3 (ESC O x) or ESC and one key (Alt+key).
// It returns what followed the ESC.
func readEscape(r *bufio.Reader) string {
	b, err := r.ReadByte()
	if err != nil {
		return ""
	}
	seq := []byte{b}
	switch b {
	case '[':
		for r.Buffered() > 0 && len(seq) < 32 {
			c, err := r.ReadByte()
			if err != nil {
				break
			}
			seq = append(seq, c)
			if c >= 0x40 && c <= 0x7e {
				break
			}
		}
	case 'O':
		if r.Buffered() > 0 {
			c, _ := r.ReadByte()
			seq = append(seq, c)
		}
	}
	return string(seq)
}

// readPaste reads a paste up to its end mark, onto the line typed: one
// hint, its line breaks and tabs spaces, since Enter in it is not the
// user's; controls and escape sequences in it are dropped, and the line
// stops growing at maxTyped, the rest of the paste read and dropped.
func readPaste(r *bufio.Reader, line []rune) []rune {
	for {
		c, _, err := r.ReadRune()
		if err != nil {
			return line
		}
		switch {
		case c == 0x1b:
			if readEscape(r) == pasteEnd {
				return line
			}
		case c == '\r' || c == '\n' || c == '\t' || c == ' ':
			if len(line) > 0 && line[len(line)-1] != ' ' && len(line) < maxTyped {
				line = append(line, ' ')
			}
		case unicode.IsControl(c) || c == utf8.RuneError:
		default:
			if len(line) < maxTyped {
				line = append(line, c)
			}
		}
	}
}

func (h *terminalHuman) readLine(ctx context.Context) (string, error) {
	h.once.Do(h.readLines)
	select {
	case line, ok := <-h.lines:
		if !ok {
			return "", io.EOF
		}
		return strings.TrimSpace(line), nil
	case <-ctx.Done():
		return "", ctx.Err()
	}
}

// Checkpoint implements debate.Human.
func (h *terminalHuman) Checkpoint(ctx context.Context, s *debate.State, c debate.CheckpointReached) (debate.CheckpointAnswered, error) {
	if h.sync != nil {
		h.sync(s.LastSeq)
	}
	h.mu.Lock()
	h.waiting = true
	h.mu.Unlock()
	if h.keys != nil {
		// The answer is typed on the prompt's line, the terminal
		// echoing and editing it; a hint half typed is dropped.
		h.keys.DoneTyping()
		h.cooked()
	}
	defer func() {
		if h.keys != nil {
			h.quiet()
		}
		h.mu.Lock()
		h.waiting = false
		h.mu.Unlock()
	}()
	cs := h.io.Colors()
	w := h.io.ErrOut
	choices := map[string]string{"c": debate.ActionContinue, "continue": debate.ActionContinue, "g": debate.ActionGuide, "guide": debate.ActionGuide, "e": debate.ActionEnd, "end": debate.ActionEnd}
	// The menu and the retry line name only the answers this checkpoint
	// offers, in its order.
	var menu, keys []string
	for _, o := range c.Options {
		switch o {
		case debate.ActionContinue:
			menu, keys = append(menu, "[C]ontinue"), append(keys, "c")
		case debate.ActionGuide:
			menu, keys = append(menu, "[G]uide"), append(keys, "g")
		case debate.ActionEnd:
			menu, keys = append(menu, "[E]nd early"), append(keys, "e")
		}
	}
	retry := "Answer " + strings.Join(keys, ", ") + "."
	if n := len(keys); n > 1 {
		retry = "Answer " + strings.Join(keys[:n-1], ", ") + " or " + keys[n-1] + "."
	}
	// unanswered ends the prompt's line, which no typed newline ended
	// (input that ends, Ctrl+C), so that the pause is not written on after
	// "> ", and says why the answer is missing.
	unanswered := func(err error) (debate.CheckpointAnswered, error) {
		fmt.Fprintln(w)
		if errors.Is(err, io.EOF) {
			err = fmt.Errorf("no answer: standard input ended (use --no-checkpoints to run unattended)")
		}
		return debate.CheckpointAnswered{}, err
	}
	for {
		fmt.Fprintf(w, "%s\n%s ", errLine(h.io, cs.Bold(strings.Join(menu, "  "))), cs.Cyan(">"))
		line, err := h.readLine(ctx)
		if err != nil {
			return unanswered(err)
		}
		action, ok := choices[strings.ToLower(line)]
		if !ok || !contains(c.Options, action) {
			fmt.Fprintln(w, errLine(h.io, retry))
			continue
		}
		ans := debate.CheckpointAnswered{ID: c.ID, Action: action}
		if action == debate.ActionGuide {
			fmt.Fprintf(w, "Your guidance: ")
			g, err := h.readLine(ctx)
			if err != nil {
				return unanswered(err)
			}
			if g == "" {
				fmt.Fprintf(w, "No guidance given; continuing.\n")
				ans.Action = debate.ActionContinue
			}
			ans.Guidance = g
		}
		return ans, nil
	}
}

func contains(list []string, s string) bool {
	for _, x := range list {
		if x == s {
			return true
		}
	}
	return false
}

func (h *terminalHuman) isWaiting() bool {
	h.mu.Lock()
	defer h.mu.Unlock()
	return h.waiting
}
