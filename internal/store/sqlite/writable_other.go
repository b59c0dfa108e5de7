//go:build !unix

package sqlite

// writable cannot be asked of this system; SQLite's own error stands.
func writable(string) bool { return true }

// noSpace cannot be asked of this system; SQLite's own error stands.
func noSpace(string) bool { return false }
