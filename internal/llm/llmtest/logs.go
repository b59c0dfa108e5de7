package llmtest

import (
	"context"
	"fmt"
	"log/slog"
	"strings"
	"sync"
)

// Logs keeps what a provider logs, for tests of what it says and how
// often. Its Logger is safe for concurrent use.
type Logs struct {
	mu    sync.Mutex
	lines []string
}

// Logger returns a logger that keeps every record, at every level, in l.
func (l *Logs) Logger() *slog.Logger { return slog.New(logsHandler{l: l}) }

// Lines returns each record kept as "LEVEL message key=value ...", in
// order.
func (l *Logs) Lines() []string {
	l.mu.Lock()
	defer l.mu.Unlock()
	return append([]string(nil), l.lines...)
}

// Count is how many records kept hold every one of parts.
func (l *Logs) Count(parts ...string) int {
	n := 0
	for _, line := range l.Lines() {
		all := true
		for _, p := range parts {
			all = all && strings.Contains(line, p)
		}
		if all {
			n++
		}
	}
	return n
}

type logsHandler struct {
	l     *Logs
	attrs []slog.Attr
}

func (h logsHandler) Enabled(context.Context, slog.Level) bool { return true }

func (h logsHandler) Handle(_ context.Context, r slog.Record) error {
	var b strings.Builder
	fmt.Fprintf(&b, "%s %s", r.Level, r.Message)
	for _, a := range h.attrs {
		fmt.Fprintf(&b, " %s=%v", a.Key, a.Value)
	}
	r.Attrs(func(a slog.Attr) bool {
		fmt.Fprintf(&b, " %s=%v", a.Key, a.Value)
		return true
	})
	h.l.mu.Lock()
	h.l.lines = append(h.l.lines, b.String())
	h.l.mu.Unlock()
	return nil
}

func (h logsHandler) WithAttrs(as []slog.Attr) slog.Handler {
	return logsHandler{l: h.l, attrs: append(append([]slog.Attr(nil), h.attrs...), as...)}
}

func (h logsHandler) WithGroup(string) slog.Handler { return h }
