package cli

import (
	"os"
	"os/exec"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"golang.org/x/sys/unix"

	"github.com/parleyhq/parley/internal/iostreams"
)

// breakingView is a live view whose drawing of the typed line panics.
type breakingView struct{}

func (breakingView) Typing(string) { panic("the view broke") }
func (breakingView) DoneTyping()   {}
func (breakingView) Say(string)    {}

// TestKeyReaderPanicRestoresTheTerminal: a panic in the goroutine that
// reads the keys (here, the view it shows the typed line in) ends the
// process, whose deferred restore of the terminal (runSession's) never
// runs; the terminal echoes again, as it did before the debate. The
// process is a child of the test, on a pseudo-terminal given as its fd 3,
// where the parent types a key.
func TestKeyReaderPanicRestoresTheTerminal(t *testing.T) {
	if os.Getenv("PARLEY_PANIC_CHILD") == "1" {
		tty := os.NewFile(3, "tty")
		ios, _, _, _ := iostreams.Test()
		ios.In, ios.Out = tty, tty
		ios.SetTerminal(true, true, false)
		cooked, quiet, done, err := ios.QuietInput(nil)
		if err != nil {
			os.Exit(4)
		}
		defer done() // never runs: the panic is another goroutine's
		h := newTerminalHuman(ios)
		h.hint = func(string, string) error { return nil }
		h.targets = func() []string { return []string{"bull"} }
		h.keys, h.cooked, h.quiet = breakingView{}, cooked, quiet
		h.listen()
		os.Stdout.WriteString("ready\n")
		time.Sleep(10 * time.Second)
		os.Exit(3)
	}
	ptmx, err := os.OpenFile("/dev/ptmx", os.O_RDWR|syscall.O_NOCTTY, 0)
	if err != nil {
		t.Skipf("no pseudo-terminal: %v", err)
	}
	defer ptmx.Close()
	if err := unix.IoctlSetPointerInt(int(ptmx.Fd()), unix.TIOCSPTLCK, 0); err != nil {
		t.Skipf("unlock the pseudo-terminal: %v", err)
	}
	n, err := unix.IoctlGetInt(int(ptmx.Fd()), unix.TIOCGPTN)
	if err != nil {
		t.Skipf("the pseudo-terminal's number: %v", err)
	}
	tty, err := os.OpenFile("/dev/pts/"+strconv.Itoa(n), os.O_RDWR|syscall.O_NOCTTY, 0)
	if err != nil {
		t.Skipf("open the terminal side: %v", err)
	}
	defer tty.Close()

	cmd := exec.Command(os.Args[0], "-test.run=^TestKeyReaderPanicRestoresTheTerminal$")
	cmd.Env = append(os.Environ(), "PARLEY_PANIC_CHILD=1")
	cmd.ExtraFiles = []*os.File{tty}
	var stderr strings.Builder
	cmd.Stderr = &stderr
	stdout, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	buf := make([]byte, 64)
	if n, _ := stdout.Read(buf); !strings.Contains(string(buf[:n]), "ready") {
		t.Fatalf("the child did not start: %q", buf[:n])
	}
	if _, err := ptmx.WriteString("x"); err != nil {
		t.Fatal(err)
	}
	err = cmd.Wait()
	if code := cmd.ProcessState.ExitCode(); code != 2 || !strings.Contains(stderr.String(), "panic: the view broke") {
		t.Fatalf("the child exited %d (%v), want 2 with the panic:\n%s", code, err, stderr.String())
	}
	tio, err := unix.IoctlGetTermios(int(tty.Fd()), unix.TCGETS)
	if err != nil {
		t.Fatal(err)
	}
	if tio.Lflag&unix.ECHO == 0 || tio.Lflag&unix.ICANON == 0 {
		t.Error("after the panic the terminal does not echo: left as the debate set it")
	}
}
