//go:build darwin || dragonfly || freebsd || linux || netbsd || openbsd || solaris || aix || zos

package iostreams

import (
	"fmt"
	"os"

	"golang.org/x/sys/unix"
)

// QuietInput stops the terminal on standard input from echoing and
// editing lines, so that the program reads each key as it is typed and
// shows the line itself (the live view draws it below the streamed text,
// where the terminal's own echo landed inside a streamed sentence). Keys
// that signal (Ctrl+C, Ctrl+Z) still signal, and output is processed as
// before ("\n" still starts a line). The returned functions put the
// terminal back as it was (restore, before a prompt that reads a whole
// line, and at the end) and take the quiet mode again.
func (s *IOStreams) QuietInput() (restore, quiet func(), err error) {
	f, ok := s.In.(*os.File)
	if !ok || !s.inTTY {
		return nil, nil, fmt.Errorf("standard input is not a terminal")
	}
	fd := int(f.Fd())
	old, err := unix.IoctlGetTermios(fd, ioctlReadTermios)
	if err != nil {
		return nil, nil, fmt.Errorf("reading the terminal's settings: %w", err)
	}
	q := *old
	q.Lflag &^= unix.ECHO | unix.ICANON
	q.Cc[unix.VMIN], q.Cc[unix.VTIME] = 1, 0
	quiet = func() { _ = unix.IoctlSetTermios(fd, ioctlWriteTermios, &q) }
	restore = func() { _ = unix.IoctlSetTermios(fd, ioctlWriteTermios, old) }
	if err := unix.IoctlSetTermios(fd, ioctlWriteTermios, &q); err != nil {
		return nil, nil, fmt.Errorf("setting the terminal's settings: %w", err)
	}
	return restore, quiet, nil
}
