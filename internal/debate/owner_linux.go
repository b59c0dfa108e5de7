package debate

import (
	"bytes"
	"errors"
	"os"
	"strconv"
	"syscall"
)

// processExists asks the kernel with signal 0, which checks without
// signalling: ESRCH means no such process; EPERM means one we may not
// signal. A process that signal 0 still finds may be dead all the same: a
// zombie its parent has not reaped yet, or one killed with SIGKILL whose
// exit is still under way (freeing a large heap takes a while). /proc
// tells those apart, so that a runner killed a moment ago shows as
// interrupted at once rather than as running.
func processExists(pid int) bool {
	if err := syscall.Kill(pid, 0); err != nil && errors.Is(err, syscall.ESRCH) {
		return false
	}
	return !procDead(pid)
}

// procDead reports whether /proc shows pid as exited (a zombie, or dead)
// or about to (SIGKILL pending). Anything it cannot read is not proof.
func procDead(pid int) bool {
	dir := "/proc/" + strconv.Itoa(pid)
	stat, err := os.ReadFile(dir + "/stat")
	if err != nil {
		return false
	}
	// "pid (comm) S ...": comm may hold spaces and parentheses, so the
	// state is the field after the last ')'.
	if i := bytes.LastIndexByte(stat, ')'); i >= 0 && i+2 < len(stat) {
		switch stat[i+2] {
		case 'Z', 'X', 'x':
			return true
		}
	}
	status, err := os.ReadFile(dir + "/status")
	if err != nil {
		return false
	}
	for line := range bytes.Lines(status) {
		// SigPnd is the thread's pending set, ShdPnd the process's.
		name, val, ok := bytes.Cut(line, []byte(":"))
		if !ok || (string(name) != "SigPnd" && string(name) != "ShdPnd") {
			continue
		}
		mask, err := strconv.ParseUint(string(bytes.TrimSpace(val)), 16, 64)
		if err == nil && mask&(1<<(uint(syscall.SIGKILL)-1)) != 0 {
			return true
		}
	}
	return false
}
