//go:build unix

package main

import (
	"bufio"
	"os"
	"strconv"
	"strings"
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

// ownPeakRSSKB is this process's own peak RSS (VmHWM) in KiB, or 0 if
// unknown. It matters because os/exec starts a child with vfork, and Linux
// records the high-water mark of the memory the child leaves at exec —
// ours — in the child's ru_maxrss: a child whose figure does not exceed
// ours may have used less.
func ownPeakRSSKB() int64 {
	f, err := os.Open("/proc/self/status")
	if err != nil {
		return 0
	}
	defer f.Close()
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		if rest, ok := strings.CutPrefix(sc.Text(), "VmHWM:"); ok {
			kb, _ := strconv.ParseInt(strings.TrimSuffix(strings.TrimSpace(rest), " kB"), 10, 64)
			return kb
		}
	}
	return 0
}
