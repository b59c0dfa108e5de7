// Package iostreams owns the process's standard streams and what they are
// attached to: whether output is a terminal, and whether to use colour.
package iostreams

import (
	"bytes"
	"io"
	"os"

	"golang.org/x/term"
)

// IOStreams are the streams a command reads and writes.
type IOStreams struct {
	In     io.Reader
	Out    io.Writer
	ErrOut io.Writer

	outTTY bool
	inTTY  bool
	color  bool
	width  int
	// outFile is the terminal standard output is, asked for its size:
	// Out may be wrapped (a writer that notices a closed pipe), and the
	// width was then taken to be 80 whatever the terminal's.
	outFile *os.File
	notes   *NoteSink
	panics  *panicRestores
}

// System returns the process's streams, detecting terminals and honouring
// NO_COLOR and TERM=dumb.
func System() *IOStreams {
	outTTY := isTerminal(os.Stdout)
	return &IOStreams{
		notes:  NewNoteSink(os.Stderr),
		panics: &panicRestores{},
		In:     os.Stdin, Out: os.Stdout, ErrOut: os.Stderr,
		outTTY: outTTY, outFile: os.Stdout,
		inTTY: isTerminal(os.Stdin),
		color: outTTY && os.Getenv("NO_COLOR") == "" && os.Getenv("TERM") != "dumb",
	}
}

// Test returns streams backed by buffers, as a non-terminal.
func Test() (*IOStreams, *bytes.Buffer, *bytes.Buffer, *bytes.Buffer) {
	in, out, errOut := &bytes.Buffer{}, &bytes.Buffer{}, &bytes.Buffer{}
	return &IOStreams{In: in, Out: out, ErrOut: errOut, panics: &panicRestores{}}, in, out, errOut
}

func isTerminal(f *os.File) bool { return term.IsTerminal(int(f.Fd())) }

// TerminalWidth returns the width of the output terminal in columns, or 0
// when output is not a terminal.
func (s *IOStreams) TerminalWidth() int {
	if !s.outTTY {
		return 0
	}
	if s.width > 0 {
		return s.width
	}
	f, ok := s.Out.(*os.File)
	if !ok {
		f = s.outFile
	}
	if f != nil {
		if w, _, err := term.GetSize(int(f.Fd())); err == nil && w > 0 {
			return w
		}
	}
	return 80
}

// Notes is where the program's logged notes go (main makes it the default
// logger's writer): standard error, unless redirected. Nil for streams
// made otherwise than by System.
func (s *IOStreams) Notes() *NoteSink { return s.notes }

// SetWidth forces the terminal width (tests).
func (s *IOStreams) SetWidth(w int) { s.width = w }

// IsTerminal reports whether standard output is a terminal: live streaming,
// spinners and colour are only for terminals.
func (s *IOStreams) IsTerminal() bool { return s.outTTY }

// IsInputTerminal reports whether standard input is a terminal.
func (s *IOStreams) IsInputTerminal() bool { return s.inTTY }

// SetTerminal forces terminal behaviour (tests).
func (s *IOStreams) SetTerminal(out, in, color bool) { s.outTTY, s.inTTY, s.color = out, in, color }

// ColorEnabled reports whether to write ANSI colour.
func (s *IOStreams) ColorEnabled() bool { return s.color }

// Colors returns the colour scheme for these streams.
func (s *IOStreams) Colors() ColorScheme { return ColorScheme{enabled: s.color} }

// ColorScheme writes ANSI styles when colour is enabled and plain text when not.
type ColorScheme struct{ enabled bool }

func (c ColorScheme) wrap(code, s string) string {
	if !c.enabled || s == "" {
		return s
	}
	return "\x1b[" + code + "m" + s + "\x1b[0m"
}

// Bold text.
func (c ColorScheme) Bold(s string) string { return c.wrap("1", s) }

// Dim text.
func (c ColorScheme) Dim(s string) string { return c.wrap("2", s) }

// Red text.
func (c ColorScheme) Red(s string) string { return c.wrap("31", s) }

// Green text.
func (c ColorScheme) Green(s string) string { return c.wrap("32", s) }

// Yellow text.
func (c ColorScheme) Yellow(s string) string { return c.wrap("33", s) }

// Cyan text.
func (c ColorScheme) Cyan(s string) string { return c.wrap("36", s) }

// Magenta text.
func (c ColorScheme) Magenta(s string) string { return c.wrap("35", s) }

// Agent colours an agent's name with a colour stable for that name.
func (c ColorScheme) Agent(name, s string) string {
	codes := []string{"36", "33", "35", "32", "34", "91", "96", "93"}
	h := 0
	for _, r := range name {
		h = h*31 + int(r)
	}
	if h < 0 {
		h = -h
	}
	return c.wrap("1;"+codes[h%len(codes)], s)
}
