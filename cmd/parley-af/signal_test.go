package main

import (
	"bytes"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"
)

// pairs writes n arguments pairs that attack each other, and nothing else:
// 2^n stable, preferred and complete-minus-one extensions, a search that
// never ends in a test's time. apx names the arguments a0, a1, ...
func pairs(t *testing.T, n int, apx bool) string {
	t.Helper()
	var b strings.Builder
	name := filepath.Join(t.TempDir(), "pairs.af")
	if apx {
		name = filepath.Join(filepath.Dir(name), "pairs.apx")
		for i := range 2 * n {
			fmt.Fprintf(&b, "arg(a%d).\n", i)
		}
		for i := range n {
			fmt.Fprintf(&b, "att(a%d,a%d).\natt(a%d,a%d).\n", 2*i, 2*i+1, 2*i+1, 2*i)
		}
	} else {
		fmt.Fprintf(&b, "p af %d\n", 2*n)
		for i := range n {
			fmt.Fprintf(&b, "%d %d\n%d %d\n", 2*i+1, 2*i+2, 2*i+2, 2*i+1)
		}
	}
	if err := os.WriteFile(name, []byte(b.String()), 0o644); err != nil {
		t.Fatal(err)
	}
	return name
}

// TestSignalStops: Ctrl+C or SIGTERM during a long search ends the solver
// promptly with the shell's code for that signal (130, 143), a line on
// standard error saying so, and no answer on standard output that could be
// taken for a complete one. Before, the signal's default action killed the
// process silently (and a SIGINT that a background job ignores did not stop
// it at all).
func TestSignalStops(t *testing.T) {
	bin := build(t)
	for _, c := range []struct {
		sig  syscall.Signal
		args []string
		code int
	}{
		{syscall.SIGINT, []string{"-p", "CE-ST", "-f", pairs(t, 70, false)}, 130},
		{syscall.SIGTERM, []string{"-p", "CE-CO", "-f", pairs(t, 70, false)}, 143},
		{syscall.SIGINT, []string{"-p", "EE-PR", "-f", pairs(t, 70, true)}, 130},
		{syscall.SIGTERM, []string{"-p", "EE-ST", "-f", pairs(t, 70, false)}, 143},
	} {
		name := fmt.Sprintf("%s %s", c.sig, strings.Join(c.args[:2], " "))
		cmd := exec.Command(bin, c.args...)
		var out, errOut bytes.Buffer
		cmd.Stdout, cmd.Stderr = &out, &errOut
		if err := cmd.Start(); err != nil {
			t.Fatal(err)
		}
		// Time to start the search: a signal before the handler is set
		// would take its default action, which is what this test catches.
		time.Sleep(500 * time.Millisecond)
		if err := cmd.Process.Signal(c.sig); err != nil {
			t.Fatal(err)
		}
		sent := time.Now()
		exited := make(chan error, 1)
		go func() { exited <- cmd.Wait() }()
		var err error
		select {
		case err = <-exited:
		case <-time.After(15 * time.Second):
			cmd.Process.Kill()
			<-exited
			t.Errorf("%s: still running 15 s after the signal", name)
			continue
		}
		if took := time.Since(sent); took > 5*time.Second {
			t.Errorf("%s: took %s to stop", name, took)
		}
		code := 0
		if ee, ok := err.(*exec.ExitError); ok {
			code = ee.ExitCode() // -1: killed by the signal
		}
		if code != c.code {
			t.Errorf("%s: exit %d, want %d (stderr %q)", name, code, c.code, errOut.String())
		}
		want := "interrupted by " + map[syscall.Signal]string{syscall.SIGINT: "SIGINT", syscall.SIGTERM: "SIGTERM"}[c.sig]
		if !strings.Contains(errOut.String(), want) || strings.Count(errOut.String(), "\n") != 1 {
			t.Errorf("%s: stderr %q, want one line saying %q", name, errOut.String(), want)
		}
		if incomplete(out.String()) != nil {
			t.Errorf("%s: stdout %q looks like a complete answer: %v", name, out.String(), incomplete(out.String()))
		}
	}
}

// incomplete returns an error if out could be read as a whole answer: a
// count, YES or NO, or an apx/tgf extension list with its closing bracket.
// Whole "w" lines of an i23 list are what was found (the list has no end
// marker to leave out); a line cut short is not.
func incomplete(out string) error {
	switch {
	case out == "":
		return nil
	case strings.HasSuffix(out, "]]\n"), out == "[]\n":
		return fmt.Errorf("the extension list is closed")
	case !strings.HasPrefix(out, "w ") && !strings.HasPrefix(out, "["):
		return fmt.Errorf("not an extension list")
	case strings.HasPrefix(out, "w ") && !strings.HasSuffix(out, "\n"):
		return fmt.Errorf("the last extension is cut short")
	}
	return nil
}

// TestSignalStopsABlockedWrite: an EE list written to a pipe nobody reads
// blocks in write, where the search cannot see its context end; the signal
// still ends the process within the grace period, with its code and line.
func TestSignalStopsABlockedWrite(t *testing.T) {
	bin := build(t)
	cmd := exec.Command(bin, "-p", "EE-ST", "-f", pairs(t, 70, false))
	var errOut bytes.Buffer
	cmd.Stderr = &errOut
	stdout, err := cmd.StdoutPipe() // never read: the pipe fills
	if err != nil {
		t.Fatal(err)
	}
	defer stdout.Close()
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	time.Sleep(3 * time.Second) // past the held extensions, into a full pipe
	cmd.Process.Signal(syscall.SIGINT)
	sent := time.Now()
	exited := make(chan error, 1)
	go func() { exited <- cmd.Wait() }()
	select {
	case err = <-exited:
	case <-time.After(15 * time.Second):
		cmd.Process.Kill()
		<-exited
		t.Fatal("still running 15 s after the signal")
	}
	code := 0
	if ee, ok := err.(*exec.ExitError); ok {
		code = ee.ExitCode()
	}
	if took := time.Since(sent); code != 130 || took > 5*time.Second || !strings.Contains(errOut.String(), "interrupted by SIGINT") {
		t.Errorf("exit %d after %s, stderr %q; want 130 within the grace period, interrupted on stderr", code, took, errOut.String())
	}
}
