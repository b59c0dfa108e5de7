package app

import (
	"os"
	"path/filepath"
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
