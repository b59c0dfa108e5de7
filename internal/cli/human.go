package cli

import (
	"bufio"
	"context"
	"errors"
	"fmt"
	"io"
	"strings"
	"sync"

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
}

func newTerminalHuman(ios *iostreams.IOStreams) *terminalHuman {
	return &terminalHuman{io: ios}
}

func (h *terminalHuman) readLines() {
	h.lines = make(chan string)
	go func() {
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
		fmt.Fprintf(h.io.ErrOut, "%s%s\n", strings.ToUpper(err.Error()[:1]), err.Error()[1:])
		return true
	}
	if err := h.hint(target, text); err != nil {
		fmt.Fprintf(h.io.ErrOut, "Hint not queued: %v\n", err)
	}
	return true
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
	defer func() {
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
		fmt.Fprintf(w, "%s\n%s ", cs.Bold(strings.Join(menu, "  ")), cs.Cyan(">"))
		line, err := h.readLine(ctx)
		if err != nil {
			return unanswered(err)
		}
		action, ok := choices[strings.ToLower(line)]
		if !ok || !contains(c.Options, action) {
			fmt.Fprintln(w, retry)
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
