package iostreams

import (
	"context"
	"io"
	"log/slog"
	"strings"
	"sync"

	"github.com/parleyhq/parley/internal/textsafe"
)

// NoteLogger returns a logger for a person at a terminal rather than for a
// log collector: each record is one line on w, "warning: MESSAGE (key=value
// ...)" (or "error:", or "note:" below Warn), without the time and level
// columns of slog's text handler, its text made safe for a terminal (see
// textsafe.Clean). Records below level are dropped.
//
// The command line makes it slog's default, so that what a library says
// on its own (a provider adapting its calls to a server, EDGAR retrying)
// reads as the rest of Parley's output does.
func NoteLogger(w io.Writer, level slog.Level) *slog.Logger {
	return slog.New(&noteHandler{w: w, mu: &sync.Mutex{}, level: level})
}

type noteHandler struct {
	w     io.Writer
	mu    *sync.Mutex // one line at a time, shared by the handler's copies
	level slog.Level
	attrs []string // "key=value" of WithAttrs, keys qualified by their group
	group string
}

func (h *noteHandler) Enabled(_ context.Context, l slog.Level) bool { return l >= h.level }

func (h *noteHandler) Handle(_ context.Context, r slog.Record) error {
	var b strings.Builder
	switch {
	case r.Level >= slog.LevelError:
		b.WriteString("error: ")
	case r.Level >= slog.LevelWarn:
		b.WriteString("warning: ")
	default:
		b.WriteString("note: ")
	}
	b.WriteString(r.Message)
	kv := append([]string(nil), h.attrs...)
	r.Attrs(func(a slog.Attr) bool {
		kv = h.pair(kv, a)
		return true
	})
	if len(kv) > 0 {
		b.WriteString(" (" + strings.Join(kv, ", ") + ")")
	}
	line := strings.ReplaceAll(textsafe.Clean(b.String()), "\n", " ") + "\n"
	h.mu.Lock()
	defer h.mu.Unlock()
	_, err := io.WriteString(h.w, line)
	return err
}

// pair appends a as "key=value" to kv, its key qualified by the group.
func (h *noteHandler) pair(kv []string, a slog.Attr) []string {
	if a.Equal(slog.Attr{}) {
		return kv
	}
	key := a.Key
	if h.group != "" {
		key = h.group + "." + key
	}
	return append(kv, key+"="+a.Value.Resolve().String())
}

func (h *noteHandler) WithAttrs(attrs []slog.Attr) slog.Handler {
	c := *h
	c.attrs = append([]string(nil), h.attrs...)
	for _, a := range attrs {
		c.attrs = h.pair(c.attrs, a)
	}
	return &c
}

func (h *noteHandler) WithGroup(name string) slog.Handler {
	c := *h
	if c.group != "" {
		name = c.group + "." + name
	}
	c.group = name
	return &c
}

// NoteSink is where the notes a program logs go: standard error, or, while
// a live view streams on the terminal, the view, which prints them on a
// line of their own rather than in the middle of a streamed line. The
// loggers libraries take when they are made (a provider, the SEC client)
// write to it, so that where it points can change after they are made.
type NoteSink struct {
	mu sync.Mutex
	w  io.Writer
}

// NewNoteSink returns a sink writing to w.
func NewNoteSink(w io.Writer) *NoteSink { return &NoteSink{w: w} }

// Redirect points the sink at w until restore is called.
func (s *NoteSink) Redirect(w io.Writer) (restore func()) {
	s.mu.Lock()
	defer s.mu.Unlock()
	old := s.w
	s.w = w
	return func() {
		s.mu.Lock()
		defer s.mu.Unlock()
		s.w = old
	}
}

func (s *NoteSink) Write(p []byte) (int, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.w.Write(p)
}
