package app

import (
	"errors"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
)

// TestWriteFileAtomicMode: a document written atomically gets the mode a
// plain create gives under the process's umask (not the 0600 of a
// temporary file), and a document written again keeps the mode its owner
// gave it.
func TestWriteFileAtomicMode(t *testing.T) {
	dir := t.TempDir()
	plain := filepath.Join(dir, "plain.md")
	if err := os.WriteFile(plain, []byte("x"), 0o666); err != nil {
		t.Fatal(err)
	}
	want, err := os.Stat(plain)
	if err != nil {
		t.Fatal(err)
	}
	doc := filepath.Join(dir, "docs", "decisions", "d.md")
	if err := WriteFileAtomic(doc, []byte("# Decision\n")); err != nil {
		t.Fatal(err)
	}
	got, err := os.Stat(doc)
	if err != nil {
		t.Fatal(err)
	}
	if got.Mode().Perm() != want.Mode().Perm() {
		t.Errorf("new document has mode %v, a plain create %v", got.Mode().Perm(), want.Mode().Perm())
	}

	if err := os.Chmod(doc, 0o640); err != nil {
		t.Fatal(err)
	}
	if err := WriteFileAtomic(doc, []byte("# Decision, again\n")); err != nil {
		t.Fatal(err)
	}
	got, err = os.Stat(doc)
	if err != nil {
		t.Fatal(err)
	}
	if got.Mode().Perm() != 0o640 {
		t.Errorf("rewritten document has mode %v, want the 0640 it had", got.Mode().Perm())
	}
	if b, _ := os.ReadFile(doc); string(b) != "# Decision, again\n" {
		t.Errorf("content %q", b)
	}
	left, _ := filepath.Glob(filepath.Join(dir, "docs", "decisions", ".*"))
	if len(left) > 0 {
		t.Errorf("temporary files left: %v", left)
	}
}

// TestWriteExport: an export does not replace a file that exists unless
// told to, and leaves no temporary file either way.
func TestWriteExport(t *testing.T) {
	dir := t.TempDir()
	mine := filepath.Join(dir, "notes.md")
	if err := os.WriteFile(mine, []byte("mine\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	if err := WriteExport(mine, []byte("# Debate\n"), false); !errors.Is(err, ErrFileExists) {
		t.Errorf("export over a file: %v, want ErrFileExists", err)
	}
	if b, _ := os.ReadFile(mine); string(b) != "mine\n" {
		t.Errorf("the file holds %q after a refused export", b)
	}
	if err := WriteExport(mine, []byte("# Debate\n"), true); err != nil {
		t.Fatal(err)
	}
	if b, _ := os.ReadFile(mine); string(b) != "# Debate\n" {
		t.Errorf("replaced file holds %q", b)
	}
	fresh := filepath.Join(dir, "sub", "new.md")
	if err := WriteExport(fresh, []byte("# New\n"), false); err != nil {
		t.Fatal(err)
	}
	if b, _ := os.ReadFile(fresh); string(b) != "# New\n" {
		t.Errorf("new file holds %q", b)
	}
	for _, d := range []string{dir, filepath.Dir(fresh)} {
		entries, _ := os.ReadDir(d)
		for _, e := range entries {
			if strings.HasPrefix(e.Name(), ".") {
				t.Errorf("temporary file %s left in %s", e.Name(), d)
			}
		}
	}
}

// TestWriteExportThroughAFile: a path through a file (notes.md/debate.md)
// is refused naming the file in the way, which the shell's /export and the
// decision documents show as it is; mkdir's "not a directory" named
// neither it nor the fix.
func TestWriteExportThroughAFile(t *testing.T) {
	dir := t.TempDir()
	notes := filepath.Join(dir, "notes.md")
	if err := os.WriteFile(notes, []byte("mine\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	for _, path := range []string{filepath.Join(notes, "debate.md"), filepath.Join(notes, "sub", "debate.md")} {
		err := WriteExport(path, []byte("# Debate\n"), false)
		want := notes + " is a file, not a directory, so " + path + " cannot be written: give a path in a directory"
		if err == nil || err.Error() != want {
			t.Errorf("WriteExport(%s): %v, want %q", path, err, want)
		}
	}
	if got := FileInPath(filepath.Join(dir, "a", "b")); got != "" {
		t.Errorf("FileInPath of missing directories = %q, want none", got)
	}
}

// TestWriteExportIntoAFIFOOrThroughALink: --force on a path that is not a
// regular file writes into it, as a shell's redirection does, rather than
// renaming a new file over it: "parley export ID -o /dev/null --force",
// run as root, put a regular file in place of /dev/null. A FIFO stands in
// for the device here (creating one needs no privilege). A symbolic link
// is written through, and stays a link (/dev/stdout is one).
func TestWriteExportIntoAFIFOOrThroughALink(t *testing.T) {
	dir := t.TempDir()
	fifo := filepath.Join(dir, "fifo")
	if err := syscall.Mkfifo(fifo, 0o600); err != nil {
		t.Skipf("no FIFO here: %v", err)
	}
	got := make(chan string, 1)
	go func() {
		b, _ := os.ReadFile(fifo)
		got <- string(b)
	}()
	if err := WriteExport(fifo, []byte("# Debate\n"), true); err != nil {
		t.Fatal(err)
	}
	if fi, err := os.Lstat(fifo); err != nil || fi.Mode()&os.ModeNamedPipe == 0 {
		t.Errorf("the FIFO was replaced: %v, %v", fi.Mode(), err)
	} else if s := <-got; s != "# Debate\n" {
		t.Errorf("the FIFO's reader got %q", s)
	}

	target := filepath.Join(dir, "real.md")
	if err := os.WriteFile(target, []byte("old\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	link := filepath.Join(dir, "link.md")
	if err := os.Symlink(target, link); err != nil {
		t.Fatal(err)
	}
	if err := WriteExport(link, []byte("# Debate\n"), true); err != nil {
		t.Fatal(err)
	}
	if fi, err := os.Lstat(link); err != nil || fi.Mode()&os.ModeSymlink == 0 {
		t.Errorf("the link was replaced by a file: %v", err)
	}
	if b, _ := os.ReadFile(target); string(b) != "# Debate\n" {
		t.Errorf("the link's target holds %q", b)
	}
}

// TestWriteExportLongName: a file whose name is as long as the file system
// takes (here 250 bytes, of 255) is written: its temporary sibling's name
// was the whole name and 14 bytes more, too long to create ("file name too
// long"), though the file itself could be.
func TestWriteExportLongName(t *testing.T) {
	for _, name := range []string{strings.Repeat("b", 247) + ".md", strings.Repeat("é", 123) + ".md"} {
		path := filepath.Join(t.TempDir(), name)
		if err := WriteExport(path, []byte("# x\n"), false); err != nil {
			t.Fatalf("a name of %d bytes: %v", len(name), err)
		}
		if got, err := os.ReadFile(path); err != nil || string(got) != "# x\n" {
			t.Errorf("a name of %d bytes: read %q, %v", len(name), got, err)
		}
		if err := WriteFileAtomic(path, []byte("# y\n")); err != nil {
			t.Errorf("replace, a name of %d bytes: %v", len(name), err)
		}
		if left, _ := os.ReadDir(filepath.Dir(path)); len(left) != 1 {
			t.Errorf("files left beside it: %v", left)
		}
	}
}
