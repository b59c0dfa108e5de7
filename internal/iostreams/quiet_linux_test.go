package iostreams

import (
	"os"
	"os/exec"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"golang.org/x/sys/unix"
)

// openPTY opens a pseudo-terminal and returns its terminal side.
func openPTY(t *testing.T) *os.File {
	t.Helper()
	tty, _ := openPTYPair(t)
	return tty
}

// openPTYPair opens a pseudo-terminal and returns its terminal side and
// its master, where what is written is what a user types.
func openPTYPair(t *testing.T) (tty, ptmx *os.File) {
	t.Helper()
	ptmx, err := os.OpenFile("/dev/ptmx", os.O_RDWR|syscall.O_NOCTTY, 0)
	if err != nil {
		t.Skipf("no pseudo-terminal: %v", err)
	}
	t.Cleanup(func() { ptmx.Close() })
	if err := unix.IoctlSetPointerInt(int(ptmx.Fd()), unix.TIOCSPTLCK, 0); err != nil {
		t.Skipf("unlock the pseudo-terminal: %v", err)
	}
	n, err := unix.IoctlGetInt(int(ptmx.Fd()), unix.TIOCGPTN)
	if err != nil {
		t.Skipf("the pseudo-terminal's number: %v", err)
	}
	tty, err = os.OpenFile("/dev/pts/"+strconv.Itoa(n), os.O_RDWR|syscall.O_NOCTTY, 0)
	if err != nil {
		t.Skipf("open the terminal side: %v", err)
	}
	t.Cleanup(func() { tty.Close() })
	return tty, ptmx
}

func echoing(t *testing.T, tty *os.File) bool {
	t.Helper()
	tio, err := unix.IoctlGetTermios(int(tty.Fd()), unix.TCGETS)
	if err != nil {
		t.Fatal(err)
	}
	return tio.Lflag&unix.ECHO != 0 && tio.Lflag&unix.ICANON != 0
}

// TestQuietInput: the terminal stops echoing and editing lines, gives
// them back for a prompt and takes them again, sets its mode again when
// the program is continued after a stop (the shell's Ctrl+Z and fg set
// the terminal as the shell likes: the echo came back and landed in the
// streamed text), and is restored at the end.
func TestQuietInput(t *testing.T) {
	tty := openPTY(t)
	if !echoing(t, tty) {
		t.Fatal("a new terminal does not echo")
	}
	s := &IOStreams{In: tty, inTTY: true}
	cooked, quiet, done, err := s.QuietInput(nil)
	if err != nil {
		t.Fatal(err)
	}
	defer done()
	if echoing(t, tty) {
		t.Error("quiet: the terminal still echoes")
	}
	cooked()
	if !echoing(t, tty) {
		t.Error("cooked: the terminal does not echo")
	}
	quiet()

	// A shell stops the program and sets the terminal back; fg continues it.
	old, _ := unix.IoctlGetTermios(int(tty.Fd()), unix.TCGETS)
	old.Lflag |= unix.ECHO | unix.ICANON
	if err := unix.IoctlSetTermios(int(tty.Fd()), unix.TCSETS, old); err != nil {
		t.Fatal(err)
	}
	if err := syscall.Kill(os.Getpid(), syscall.SIGCONT); err != nil {
		t.Fatal(err)
	}
	deadline := time.Now().Add(5 * time.Second)
	for echoing(t, tty) && time.Now().Before(deadline) {
		time.Sleep(5 * time.Millisecond)
	}
	if echoing(t, tty) {
		t.Error("continued: the terminal echoes again")
	}

	done()
	if !echoing(t, tty) {
		t.Error("done: the terminal is not restored")
	}
	done() // twice is harmless
}

// TestKeysInEndsOnCtrlD: a read of the keys begun in the quiet mode (one
// key at a time) still ends at a Ctrl+D typed once the terminal edits
// lines again for a prompt. The read from standard input itself had asked
// the terminal for at least one key, and Ctrl+D on an empty line gives
// none: the prompt's Ctrl+D did nothing.
func TestKeysInEndsOnCtrlD(t *testing.T) {
	tty, ptmx := openPTYPair(t)
	s := &IOStreams{In: tty, inTTY: true}
	cooked, _, done, err := s.QuietInput(nil)
	if err != nil {
		t.Fatal(err)
	}
	defer done()
	type result struct {
		n   int
		err error
	}
	got := make(chan result, 1)
	go func() {
		n, err := s.KeysIn().Read(make([]byte, 64))
		got <- result{n, err}
	}()
	time.Sleep(50 * time.Millisecond) // the read waits for a key
	cooked()
	if _, err := ptmx.Write([]byte{4}); err != nil { // Ctrl+D
		t.Fatal(err)
	}
	select {
	case r := <-got:
		if r.n != 0 || r.err == nil {
			t.Errorf("read %d bytes, %v; want the end of input", r.n, r.err)
		}
	case <-time.After(3 * time.Second):
		t.Fatal("Ctrl+D on a prompt's empty line did not end the read")
	}
}

// TestKeysInReadsKeys: in the quiet mode each key is read as typed.
func TestKeysInReadsKeys(t *testing.T) {
	tty, ptmx := openPTYPair(t)
	s := &IOStreams{In: tty, inTTY: true}
	_, _, done, err := s.QuietInput(nil)
	if err != nil {
		t.Fatal(err)
	}
	defer done()
	if _, err := ptmx.Write([]byte("b")); err != nil {
		t.Fatal(err)
	}
	buf := make([]byte, 8)
	n, err := s.KeysIn().Read(buf)
	if err != nil || string(buf[:n]) != "b" {
		t.Errorf("read %q, %v; want the key b", buf[:n], err)
	}
}

// TestQuietInputBracketsPastes: the quiet mode asks the terminal the view
// draws on to mark pastes (bracketed paste), a prompt's line editing gives
// the mode up (its marks would be keys on the answer's line), and the end
// gives it up for good; output that is no terminal gets none of it.
func TestQuietInputBracketsPastes(t *testing.T) {
	const on, off = "\x1b[?2004h", "\x1b[?2004l"
	tty := openPTY(t)
	var out strings.Builder
	s := &IOStreams{In: tty, inTTY: true, Out: &out, outTTY: true}
	cooked, quiet, done, err := s.QuietInput(nil)
	if err != nil {
		t.Fatal(err)
	}
	cooked()
	quiet()
	done()
	done()
	if got, want := out.String(), on+off+on+off; got != want {
		t.Errorf("the terminal was sent %q, want %q", got, want)
	}

	var piped strings.Builder
	s = &IOStreams{In: tty, inTTY: true, Out: &piped}
	_, _, done, err = s.QuietInput(nil)
	if err != nil {
		t.Fatal(err)
	}
	done()
	if piped.Len() != 0 {
		t.Errorf("output that is no terminal was sent %q", piped.String())
	}
}

// TestOnContinue: f runs when the program is continued after a stop, and
// no more once stopped.
func TestOnContinue(t *testing.T) {
	s := &IOStreams{}
	called := make(chan struct{}, 4)
	stop := s.OnContinue(func() { called <- struct{}{} })
	if err := syscall.Kill(os.Getpid(), syscall.SIGCONT); err != nil {
		t.Fatal(err)
	}
	select {
	case <-called:
	case <-time.After(5 * time.Second):
		t.Fatal("not called on SIGCONT")
	}
	stop()
	stop()
	_ = syscall.Kill(os.Getpid(), syscall.SIGCONT)
	select {
	case <-called:
		t.Error("called after stop")
	case <-time.After(100 * time.Millisecond):
	}
}

// TestOnResize: f runs when the terminal changes its size, and no more
// once stopped.
func TestOnResize(t *testing.T) {
	s := &IOStreams{}
	called := make(chan struct{}, 4)
	stop := s.OnResize(func() { called <- struct{}{} })
	if err := syscall.Kill(os.Getpid(), syscall.SIGWINCH); err != nil {
		t.Fatal(err)
	}
	select {
	case <-called:
	case <-time.After(5 * time.Second):
		t.Fatal("not called on SIGWINCH")
	}
	stop()
	_ = syscall.Kill(os.Getpid(), syscall.SIGWINCH)
	select {
	case <-called:
		t.Error("called after stop")
	case <-time.After(100 * time.Millisecond):
	}
}

// TestPanicRestoresTheTerminal: a goroutine that panics while the terminal
// is quiet ends the process, whose other goroutines' deferred restores
// never run; deferring RestoreOnPanic, it gives the terminal back its echo
// and line editing and takes the paste mode off before the process ends,
// with the panic on standard error. The process is a child of the test
// (this test's binary again), on the terminal given as its fd 3.
func TestPanicRestoresTheTerminal(t *testing.T) {
	if os.Getenv("PARLEY_PANIC_CHILD") == "1" {
		tty := os.NewFile(3, "tty")
		s := &IOStreams{In: tty, Out: tty, inTTY: true, outTTY: true, panics: &panicRestores{}}
		_, _, done, err := s.QuietInput(nil)
		if err != nil {
			os.Exit(4)
		}
		defer done() // never runs: the panic is another goroutine's
		go func() {
			defer s.RestoreOnPanic()
			panic("the view broke")
		}()
		time.Sleep(10 * time.Second)
		os.Exit(3)
	}
	tty, ptmx := openPTYPair(t)
	cmd := exec.Command(os.Args[0], "-test.run=^TestPanicRestoresTheTerminal$")
	cmd.Env = append(os.Environ(), "PARLEY_PANIC_CHILD=1")
	cmd.ExtraFiles = []*os.File{tty}
	var stderr strings.Builder
	cmd.Stderr = &stderr
	err := cmd.Run()
	if code := cmd.ProcessState.ExitCode(); code != 2 || !strings.Contains(stderr.String(), "panic: the view broke") {
		t.Fatalf("the child exited %d (%v), want 2 with the panic:\n%s", code, err, stderr.String())
	}
	if !echoing(t, tty) {
		t.Error("after the panic the terminal does not echo")
	}
	// What the child wrote to the terminal: the paste mode on, then off.
	var out []byte
	buf := make([]byte, 256)
	for !strings.Contains(string(out), "\x1b[?2004l") {
		fds := []unix.PollFd{{Fd: int32(ptmx.Fd()), Events: unix.POLLIN}}
		if n, err := unix.Poll(fds, 2000); err != nil || n == 0 {
			break
		}
		n, err := unix.Read(int(ptmx.Fd()), buf)
		if err != nil || n <= 0 {
			break
		}
		out = append(out, buf[:n]...)
	}
	if !strings.Contains(string(out), "\x1b[?2004h") || !strings.Contains(string(out), "\x1b[?2004l") {
		t.Errorf("the paste mode was not taken off: the terminal got %q", out)
	}
}
