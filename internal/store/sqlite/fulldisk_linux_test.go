package sqlite

import (
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"golang.org/x/sys/unix"
)

// TestOpenOnFullDisk: a database on a disk with no space left fails to
// open, to be written or only read, saying that the disk is full, where,
// and what to do; SQLite's answer alone was "disk I/O error (4874)". The
// full disk is a small tmpfs, which only root may mount: the test skips
// elsewhere.
func TestOpenOnFullDisk(t *testing.T) {
	dir := t.TempDir()
	if err := unix.Mount("tmpfs", dir, "tmpfs", 0, "size=1m"); err != nil {
		t.Skipf("cannot mount a tmpfs to fill (%v): needs root", err)
	}
	t.Cleanup(func() { _ = unix.Unmount(dir, unix.MNT_DETACH) })
	path := filepath.Join(dir, "parley.db")
	openAt(t, path).Close()
	fill, err := os.Create(filepath.Join(dir, "filler"))
	if err != nil {
		t.Fatal(err)
	}
	chunk := make([]byte, 4096)
	for {
		if _, err := fill.Write(chunk); err != nil {
			break
		}
	}
	fill.Close()
	if !noSpace(dir) {
		t.Fatal("the tmpfs is not full after filling it")
	}
	ctx := t.Context()
	check := func(what string, err error) {
		t.Helper()
		if !errors.Is(err, ErrDiskFull) || !strings.Contains(err.Error(), dir) || !strings.Contains(err.Error(), "free some space") {
			t.Errorf("%s on a full disk: %v; want ErrDiskFull naming %s and what to do", what, err, dir)
		}
	}
	if st, err := Open(ctx, path); err == nil {
		st.Close()
		t.Error("Open on a full disk succeeded; the test needs it to fail")
	} else {
		check("Open", err)
	}
	if st, err := OpenReadOnly(ctx, path); err == nil {
		st.Close()
		t.Error("OpenReadOnly on a full disk succeeded; the test needs it to fail")
	} else {
		check("OpenReadOnly", err)
	}
}
