//go:build darwin || dragonfly || freebsd || netbsd || openbsd

package iostreams

import "golang.org/x/sys/unix"

const (
	ioctlReadTermios  = unix.TIOCGETA
	ioctlWriteTermios = unix.TIOCSETA
)
