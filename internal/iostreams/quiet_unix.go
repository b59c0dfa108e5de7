//go:build darwin || dragonfly || freebsd || linux || netbsd || openbsd || solaris || aix || zos

package iostreams

import (
	"fmt"
	"io"
	"os"
	"os/signal"
	"sync"
	"syscall"

	"golang.org/x/sys/unix"
)

// QuietInput stops the terminal on standard input from echoing and
// editing lines, so that the program reads each key as it is typed and
// shows the line itself (the live view draws it below the streamed text,
// where the terminal's own echo landed inside a streamed sentence). Keys
// that signal (Ctrl+C, Ctrl+Z) still signal, and output is processed as
// before ("\n" still starts a line). The returned functions give the
// terminal back its own line editing (cooked, before a prompt that reads a
// whole line) and take the quiet mode again (quiet); done restores the
// terminal as it was, for good. A shell that stops the program (Ctrl+Z)
// sets the terminal as it likes: the mode chosen last is set again when
// the program is continued; beforeStop, if not nil, is called before the
// program stops (the live view takes away what it drew below the stream).
func (s *IOStreams) QuietInput(beforeStop func()) (cooked, quiet, done func(), err error) {
	f, ok := s.In.(*os.File)
	if !ok || !s.inTTY {
		return nil, nil, nil, fmt.Errorf("standard input is not a terminal")
	}
	fd := int(f.Fd())
	old, err := unix.IoctlGetTermios(fd, ioctlReadTermios)
	if err != nil {
		return nil, nil, nil, fmt.Errorf("reading the terminal's settings: %w", err)
	}
	q := *old
	q.Lflag &^= unix.ECHO | unix.ICANON
	q.Cc[unix.VMIN], q.Cc[unix.VTIME] = 1, 0
	if err := unix.IoctlSetTermios(fd, ioctlWriteTermios, &q); err != nil {
		return nil, nil, nil, fmt.Errorf("setting the terminal's settings: %w", err)
	}

	// Bracketed paste (xterm's mode 2004, which every terminal of note
	// has) marks a paste, so that a pasted block of lines is one hint,
	// not one per line. It is asked of the terminal the view draws on,
	// in the quiet mode only: a prompt's line editing would take its
	// marks for keys.
	paste := func(on bool) {
		if s.outTTY && s.Out != nil {
			if on {
				_, _ = io.WriteString(s.Out, "\x1b[?2004h")
			} else {
				_, _ = io.WriteString(s.Out, "\x1b[?2004l")
			}
		}
	}
	paste(true)

	var mu sync.Mutex
	mode := &q
	set := func(m *unix.Termios) {
		mu.Lock()
		defer mu.Unlock()
		if mode != nil {
			mode = m
			_ = unix.IoctlSetTermios(fd, ioctlWriteTermios, m)
			paste(m == &q)
		}
	}
	// Continued after a stop, the mode chosen last is set again.
	stopCont := s.OnContinue(func() {
		mu.Lock()
		defer mu.Unlock()
		if mode != nil {
			_ = unix.IoctlSetTermios(fd, ioctlWriteTermios, mode)
			paste(mode == &q)
		}
	})
	// Ctrl+Z stops the program with the terminal as it was before it:
	// a shell that does not set the terminal itself (sh, dash) would be
	// left without its echo and in the paste mode, showing marks around
	// what is pasted on its line.
	tstp := make(chan os.Signal, 1)
	signal.Notify(tstp, syscall.SIGTSTP)
	stop := make(chan struct{})
	var once sync.Once
	var unregister func()
	done = func() {
		once.Do(func() {
			unregister()
			stopCont()
			signal.Stop(tstp)
			close(stop)
			mu.Lock()
			defer mu.Unlock()
			if mode != nil {
				paste(false)
			}
			mode = nil
			_ = unix.IoctlSetTermios(fd, ioctlWriteTermios, old)
		})
	}
	unregister = s.onPanic(done)
	go func() {
		defer s.RestoreOnPanic()
		for {
			select {
			case <-tstp:
				if beforeStop != nil {
					beforeStop()
				}
				func() {
					mu.Lock()
					defer mu.Unlock()
					if mode != nil {
						paste(false)
						_ = unix.IoctlSetTermios(fd, ioctlWriteTermios, old)
					}
				}()
				// Stopped as Ctrl+Z stops a program that does not
				// catch it; SIGCONT sets the mode again. (SIGSTOP:
				// once caught, SIGTSTP stays with Go's handler,
				// which signal.Reset does not give back.)
				_ = syscall.Kill(os.Getpid(), syscall.SIGSTOP)
			case <-stop:
				return
			}
		}
	}()
	return func() { set(old) }, func() { set(&q) }, done, nil
}

// KeysIn is standard input for reading keys in the quiet mode
// (QuietInput): each read waits until the terminal has input, in the mode
// it is in at that moment, before it asks for it. A read asked in the
// quiet mode wants at least one key, and the terminal holds it to that
// after a prompt gives it back its line editing (cooked): Ctrl+D on the
// prompt's empty line, which is no key, did nothing. Waiting first, the
// read is asked in the mode of the moment, where Ctrl+D ends the input.
func (s *IOStreams) KeysIn() io.Reader {
	f, ok := s.In.(*os.File)
	if !ok || !s.inTTY {
		return s.In
	}
	return keysIn{f}
}

type keysIn struct{ f *os.File }

func (k keysIn) Read(p []byte) (int, error) {
	fd := int(k.f.Fd())
	for {
		// select, not poll: macOS's poll does not wait on terminals.
		var r unix.FdSet
		r.Zero()
		r.Set(fd)
		if _, err := unix.Select(fd+1, &r, nil, nil, nil); err == nil || err != unix.EINTR {
			// On an error the read says what is wrong, or waits.
			break
		}
	}
	return k.f.Read(p)
}

// OnResize calls f each time the terminal changes its size (SIGWINCH),
// until stop is called: what was drawn to fit the old width (the line
// being typed, cut to it) is drawn again at once, not at the next event.
func (s *IOStreams) OnResize(f func()) (stop func()) {
	return s.onSignal(syscall.SIGWINCH, f)
}

// OnContinue calls f each time the program is continued after a stop
// (Ctrl+Z, then fg), until stop is called. The shell wrote on the screen
// meanwhile ("[1]+ Stopped", its prompt, "fg"): what was drawn at a column
// of a line is no longer there.
func (s *IOStreams) OnContinue(f func()) (stop func()) {
	return s.onSignal(syscall.SIGCONT, f)
}

// onSignal calls f each time the process gets sig, until stop is called.
func (s *IOStreams) onSignal(sig os.Signal, f func()) (stop func()) {
	cont := make(chan os.Signal, 1)
	signal.Notify(cont, sig)
	done := make(chan struct{})
	go func() {
		defer s.RestoreOnPanic()
		for {
			select {
			case <-cont:
				f()
			case <-done:
				return
			}
		}
	}()
	var once sync.Once
	return func() {
		once.Do(func() {
			signal.Stop(cont)
			close(done)
		})
	}
}
