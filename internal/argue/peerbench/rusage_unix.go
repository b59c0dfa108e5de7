//go:build unix

package main

import (
	"os"
	"syscall"
)

// peakRSSKB is the process's maximum resident set size in KiB (Linux
// reports ru_maxrss in KiB).
func peakRSSKB(ps *os.ProcessState) int64 {
	if ps == nil {
		return 0
	}
	if ru, ok := ps.SysUsage().(*syscall.Rusage); ok {
		return ru.Maxrss
	}
	return 0
}
