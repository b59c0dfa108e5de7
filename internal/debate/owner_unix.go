//go:build unix && !linux

package debate

import (
	"errors"
	"syscall"
)

// processExists asks the kernel with signal 0, which checks without
// signalling: ESRCH means no such process; EPERM means one we may not signal.
func processExists(pid int) bool {
	err := syscall.Kill(pid, 0)
	return err == nil || !errors.Is(err, syscall.ESRCH)
}
