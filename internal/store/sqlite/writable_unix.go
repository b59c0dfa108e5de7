//go:build unix

package sqlite

import "golang.org/x/sys/unix"

// writable reports whether this process may write path (a file or a
// directory), as the kernel would decide: root's rights included.
func writable(path string) bool { return unix.Access(path, unix.W_OK) == nil }

// noSpace reports whether the file system holding dir has no space left
// for this process: no free block, or none beyond those kept for root.
func noSpace(dir string) bool {
	var st unix.Statfs_t
	if unix.Statfs(dir, &st) != nil {
		return false
	}
	return st.Bfree == 0 || (st.Bavail == 0 && unix.Geteuid() != 0)
}
