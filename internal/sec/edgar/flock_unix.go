//go:build unix

package edgar

import (
	"os"
	"syscall"
)

// lockFile takes an exclusive flock(2) on f, shared by every process on the
// machine, and returns its release.
func lockFile(f *os.File) (func(), error) {
	for {
		err := syscall.Flock(int(f.Fd()), syscall.LOCK_EX)
		if err == syscall.EINTR {
			continue
		}
		if err != nil {
			return nil, err
		}
		return func() { _ = syscall.Flock(int(f.Fd()), syscall.LOCK_UN) }, nil
	}
}
