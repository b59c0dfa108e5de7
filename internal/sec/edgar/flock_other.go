//go:build !unix

package edgar

import "os"

// lockFile is a no-op where flock(2) does not exist: SharedLimiter's mutex
// still spaces the requests of this process, but not those of others.
func lockFile(f *os.File) (func(), error) { return func() {}, nil }
