//go:build !(darwin || dragonfly || freebsd || linux || netbsd || openbsd || solaris || aix || zos)

package iostreams

import (
	"errors"
	"io"
)

// QuietInput is not supported here: the terminal echoes typed lines itself.
func (s *IOStreams) QuietInput(beforeStop func()) (cooked, quiet, done func(), err error) {
	return nil, nil, nil, errors.New("reading keys one by one is not supported on this system")
}

// KeysIn is standard input (QuietInput is not supported here).
func (s *IOStreams) KeysIn() io.Reader { return s.In }

// OnResize does nothing here: there is no signal for it.
func (s *IOStreams) OnResize(f func()) (stop func()) { return func() {} }

// OnContinue does nothing here: a program is not stopped and continued.
func (s *IOStreams) OnContinue(f func()) (stop func()) { return func() {} }
