//go:build unix

package sqlite

import "golang.org/x/sys/unix"

// writable reports whether this process may write path (a file or a
// directory), as the kernel would decide: root's rights included.
func writable(path string) bool { return unix.Access(path, unix.W_OK) == nil }
