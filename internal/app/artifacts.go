package app

import (
	"context"
	"crypto/rand"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"time"

	"github.com/parleyhq/parley/internal/debate"
	"github.com/parleyhq/parley/internal/format/perspectives"
)

// Documents says where a completed debate's documents go.
type Documents struct {
	Dir        string // the decision document's directory; "" writes none
	IssueDraft bool   // also an issue draft made from the decision
}

// WriteArtifacts writes a completed debate's documents (the decision
// document of a perspectives debate, its issue draft) atomically and records
// each as an artifact.written event.
func (a *App) WriteArtifacts(ctx context.Context, format debate.Format, st *debate.State, docs Documents) ([]debate.ArtifactWritten, error) {
	if !WritesDocuments(format) || docs.Dir == "" {
		return nil, nil
	}
	doc, err := RenderDoc(format, st, true)
	if err != nil {
		return nil, err
	}
	// Recorded absolute: a path relative to where the debate ran (--out-dir
	// notes) named nothing to show or export run elsewhere, and --resume
	// there took the document for lost and wrote a copy under its own
	// directory.
	dir, err := filepath.Abs(docs.Dir)
	if err != nil {
		return nil, fmt.Errorf("the directory for the decision document, %s: %w", docs.Dir, err)
	}
	var out []debate.ArtifactWritten
	path := perspectives.DecisionPath(dir, st)
	if err := WriteFileAtomic(path, []byte(doc)); err != nil {
		return nil, fmt.Errorf("write the decision document: %w (the debate is saved: parley export %s -o FILE, or parley debate --resume %s to write it again)", err, st.ID, st.ID)
	}
	if err := a.appendArtifact(ctx, st.ID, "decision", path); err != nil {
		return nil, err
	}
	out = append(out, debate.ArtifactWritten{Kind: "decision", Path: path})
	if docs.IssueDraft {
		draft, err := perspectives.Format{}.IssueDraft(st)
		if err != nil {
			return out, err
		}
		ipath := strings.TrimSuffix(path, ".md") + "-issue.md"
		if err := WriteFileAtomic(ipath, []byte(InertDoc(draft))); err != nil {
			return out, fmt.Errorf("write the issue draft: %w", err)
		}
		if err := a.appendArtifact(ctx, st.ID, "issue-draft", ipath); err != nil {
			return out, err
		}
		out = append(out, debate.ArtifactWritten{Kind: "issue-draft", Path: ipath})
	}
	return out, nil
}

// WritesDocuments reports whether a format's debates write documents
// (Documents, DocumentOptions): a perspectives debate's decision document.
func WritesDocuments(format debate.Format) bool { return format.Name() == perspectives.Name }

// MissingDecision reports whether a completed perspectives debate lacks its
// decision document: never recorded (the process died between the
// debate's completion and the write) or recorded and gone from disk.
func MissingDecision(st *debate.State) bool {
	if st.Format != perspectives.Name {
		return false
	}
	for _, a := range st.Artifacts {
		if a.Kind == "decision" {
			if _, err := os.Stat(a.Path); err == nil {
				return false
			}
		}
	}
	return true
}

func (a *App) appendArtifact(ctx context.Context, id, kind, path string) error {
	now := time.Now
	if a.Env.Now != nil {
		now = a.Env.Now
	}
	e, err := debate.NewEvent(id, now(), debate.ArtifactWritten{Kind: kind, Path: path})
	if err != nil {
		return err
	}
	_, err = a.Store.Append(ctx, id, e)
	return err
}

// WriteFileAtomic writes through a temporary file and a rename, so that a
// failure never leaves a half-written document. The file gets the
// permissions a plain create would give it (0666 less the umask, as for
// any document the user writes; os.CreateTemp's 0600 would hide a decision
// document from the team that shares the repository), or keeps those of
// the file it replaces.
func WriteFileAtomic(path string, data []byte) error {
	return writeThrough(path, data, func(tmp string) error { return os.Rename(tmp, path) })
}

// ErrFileExists is an export asked to write over a file without being told
// it may (--force): the file may be anything the user keeps at that path,
// a document of their own or a system file.
var ErrFileExists = errors.New("the file exists")

// WriteExport writes an exported document to path as WriteFileAtomic does,
// but does not replace a file already there unless replace is set: the
// error then wraps ErrFileExists. The new file is linked into place, which
// fails if the name was taken meanwhile, rather than checked for and
// renamed over.
//
// What replace lets it write over that is not a regular file (a device, a
// FIFO: /dev/null, /dev/stdout on a pipe) is written into, as a shell's
// redirection does, and a symbolic link is written through: a rename would
// put a new file in their place (/dev/null, for a process run as root).
func WriteExport(path string, data []byte, replace bool) error {
	if replace {
		if real, err := filepath.EvalSymlinks(path); err == nil {
			path = real
		}
		if fi, err := os.Stat(path); err == nil && !fi.Mode().IsRegular() && !fi.IsDir() {
			return writeInto(path, data)
		}
		return WriteFileAtomic(path, data)
	}
	if _, err := os.Lstat(path); err == nil {
		return fmt.Errorf("%s: %w", path, ErrFileExists)
	}
	return writeThrough(path, data, func(tmp string) error {
		switch err := os.Link(tmp, path); {
		case errors.Is(err, fs.ErrExist):
			return fmt.Errorf("%s: %w", path, ErrFileExists)
		case err != nil:
			// A file system without hard links: the check above stands.
			return os.Rename(tmp, path)
		}
		return nil
	})
}

// writeInto writes data into the file at path, which exists and is not a
// regular one: it is opened for writing, never created or replaced.
func writeInto(path string, data []byte) error {
	f, err := os.OpenFile(path, os.O_WRONLY, 0)
	if err != nil {
		return err
	}
	if _, err := f.Write(data); err != nil {
		f.Close()
		return err
	}
	return f.Close()
}

// writeThrough writes data to a new temporary file beside path, synced,
// with the mode of the file it replaces if any, and has place put it at
// path; the temporary name is removed whatever place does.
func writeThrough(path string, data []byte, place func(tmp string) error) error {
	dir := filepath.Dir(path)
	if err := os.MkdirAll(dir, 0o755); err != nil {
		if p := FileInPath(dir); p != "" {
			// mkdir's own "not a directory" names neither the file in
			// the way nor the fix.
			return fmt.Errorf("%s is a file, not a directory, so %s cannot be written: give a path in a directory", p, path)
		}
		return err
	}
	tmp, err := createSibling(dir, "."+filepath.Base(path)+".")
	if err != nil {
		return err
	}
	defer os.Remove(tmp.Name())
	if old, err := os.Stat(path); err == nil && old.Mode().IsRegular() {
		if err := tmp.Chmod(old.Mode().Perm()); err != nil {
			tmp.Close()
			return err
		}
	}
	if _, err := tmp.Write(data); err != nil {
		tmp.Close()
		return err
	}
	if err := tmp.Sync(); err != nil {
		tmp.Close()
		return err
	}
	if err := tmp.Close(); err != nil {
		return err
	}
	return place(tmp.Name())
}

// createSibling creates a new file named prefix and a random suffix in dir,
// with mode 0666 so that the umask decides, as it does for os.Create.
func createSibling(dir, prefix string) (*os.File, error) {
	for range 10 {
		name := filepath.Join(dir, prefix+rand.Text()[:12])
		f, err := os.OpenFile(name, os.O_RDWR|os.O_CREATE|os.O_EXCL, 0o666)
		if !errors.Is(err, fs.ErrExist) {
			return f, err
		}
	}
	return nil, fmt.Errorf("create a temporary file in %s: every name tried exists; remove the stale files named %s* there", dir, prefix)
}

// NamesDir reports whether an export's output path names a directory, for
// the debate's file in it (ID.md, ID.json, ID.pdf): a directory that
// exists, or a path that ends in a separator ("exports/"), which is created.
// Read as a file name, "exports/" was made a directory and then refused as
// a file that exists.
func NamesDir(path string) bool {
	if path == "" {
		return false
	}
	if os.IsPathSeparator(path[len(path)-1]) {
		return true
	}
	fi, err := os.Stat(path)
	return err == nil && fi.IsDir()
}

// FileInPath is the nearest of dir and the directories above it that
// exists and is not a directory, "" if none is: a directory Parley would
// create there cannot be. Another failure to look (permissions) is said
// when the file is written.
func FileInPath(dir string) string {
	clean := filepath.Clean(dir)
	for p := clean; ; p = filepath.Dir(p) {
		fi, err := os.Stat(p)
		switch {
		case err == nil && fi.IsDir():
			return ""
		case err == nil:
			return p
		case !errors.Is(err, fs.ErrNotExist) && !errors.Is(err, syscall.ENOTDIR), filepath.Dir(p) == p:
			return ""
		}
		// Missing: Parley creates it, if what holds it is a directory.
	}
}
