package app

import (
	"context"
	"crypto/rand"
	"errors"
	"fmt"
	"io/fs"
	"iter"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"syscall"
	"time"
	"unicode/utf8"

	"github.com/parleyhq/parley/internal/debate"
)

// Documents says where a completed debate's documents go
// (debate.DocumentWriter): the front-end's --out-dir, and the documents
// written only when asked for (--issue-draft).
type Documents struct {
	Dir   string   // the documents' directory; "" writes none
	Asked []string // the kinds of the documents written only when asked for
}

// WriteArtifacts writes the documents of a completed debate whose format
// writes any (debate.DocumentWriter: a perspectives debate's decision
// document, and its issue draft when asked for) atomically, made inert,
// and records each as an artifact.written event.
func (a *App) WriteArtifacts(ctx context.Context, format debate.Format, st *debate.State, docs Documents) ([]debate.ArtifactWritten, error) {
	w, ok := format.(debate.DocumentWriter)
	if !ok || docs.Dir == "" || len(w.Documents()) == 0 {
		return nil, nil
	}
	// Recorded absolute: a path relative to where the debate ran (--out-dir
	// notes) named nothing to show or export run elsewhere, and --resume
	// there took the document for lost and wrote a copy under its own
	// directory.
	dir, err := filepath.Abs(docs.Dir)
	if err != nil {
		return nil, fmt.Errorf("the directory for the %s, %s: %w", docTitle(w.Documents()[0]), docs.Dir, err)
	}
	var out []debate.ArtifactWritten
	for _, d := range w.Documents() {
		if d.Ask != "" && !slices.Contains(docs.Asked, d.Kind) {
			continue
		}
		doc, err := w.RenderDocument(d.Kind, st)
		if err != nil {
			return out, err
		}
		name := w.DocumentName(d.Kind, st)
		if !filepath.IsLocal(name) {
			// The format's bug, never the user's: a name that leaves the
			// directory would write where no one asked.
			return out, fmt.Errorf("the %s format names its %s %q, outside the directory", format.Name(), docTitle(d), name)
		}
		path := filepath.Join(dir, name)
		if err := WriteFileAtomic(path, []byte(InertDoc(doc))); err != nil {
			if d.Ask != "" {
				return out, fmt.Errorf("write the %s: %w", docTitle(d), err)
			}
			return out, fmt.Errorf("write the %s: %w (the debate is saved: parley export %s -o FILE, or parley debate --resume %s to write it again)", docTitle(d), err, st.ID, st.ID)
		}
		if err := a.appendArtifact(ctx, st.ID, d.Kind, path); err != nil {
			return out, err
		}
		out = append(out, debate.ArtifactWritten{Kind: d.Kind, Path: path})
	}
	return out, nil
}

// docTitle is a document's title within a sentence: "decision document".
func docTitle(d debate.Document) string {
	if d.Title == "" {
		return d.Kind
	}
	return strings.ToLower(d.Title[:1]) + d.Title[1:]
}

// ArtifactTitle is what the front-ends call a document of the format's
// written under kind ("Decision document written to …"): its title, or
// the kind itself.
func ArtifactTitle(format debate.Format, kind string) string {
	if w, ok := format.(debate.DocumentWriter); ok {
		for _, d := range w.Documents() {
			if d.Kind == kind && d.Title != "" {
				return d.Title
			}
		}
	}
	return kind
}

// MissingDocument is the first document always written (not only when
// asked for) that a completed debate of a format lacks: never recorded
// (the process died between the debate's completion and the write) or
// recorded and gone from disk. ok is false when none is missing, and for
// a format that writes no documents.
func MissingDocument(format debate.Format, st *debate.State) (missing debate.Document, ok bool) {
	w, isWriter := format.(debate.DocumentWriter)
	if !isWriter {
		return debate.Document{}, false
	}
	for _, d := range w.Documents() {
		if d.Ask != "" || onDisk(st, d.Kind) {
			continue
		}
		return d, true
	}
	return debate.Document{}, false
}

// MissingNote is what a resume says of a completed debate whose document
// it writes again.
func MissingNote(id string, missing debate.Document) string {
	return fmt.Sprintf("Debate %s was completed but its %s was missing; it is written again.", id, docTitle(missing))
}

// onDisk reports whether a recorded document of the kind is still there.
func onDisk(st *debate.State, kind string) bool {
	for _, a := range st.Artifacts {
		if a.Kind == kind {
			if _, err := os.Stat(a.Path); err == nil {
				return true
			}
		}
	}
	return false
}

// DocumentsDir is the directory a completed debate's documents were last
// recorded under ("" if none was), where a resume writes a missing one
// again unless told another.
func DocumentsDir(format debate.Format, st *debate.State) string {
	w, ok := format.(debate.DocumentWriter)
	if !ok {
		return ""
	}
	dir := ""
	for _, a := range st.Artifacts {
		for _, d := range w.Documents() {
			if d.Ask != "" || a.Kind != d.Kind {
				continue
			}
			dir = filepath.Dir(a.Path)
			if name := w.DocumentName(d.Kind, st); filepath.IsLocal(name) && strings.HasSuffix(a.Path, string(filepath.Separator)+name) {
				// A name with directories of its own: the directory
				// they are under.
				dir = strings.TrimSuffix(a.Path, string(filepath.Separator)+name)
			}
		}
	}
	return dir
}

// AskedDocuments are the documents the formats write only when asked for,
// one per kind (the first format's that declares it), each with the names
// of the formats that declare it: the front-ends' flags (--issue-draft).
func AskedDocuments(formats *debate.Formats) []AskedDocument {
	var out []AskedDocument
	for n, w := range documentWriters(formats) {
		for _, d := range w.Documents() {
			if d.Ask == "" {
				continue
			}
			i := slices.IndexFunc(out, func(o AskedDocument) bool { return o.Kind == d.Kind })
			if i < 0 {
				out = append(out, AskedDocument{Document: d})
				i = len(out) - 1
			}
			out[i].Formats = append(out[i].Formats, n)
		}
	}
	return out
}

// WrittenDocuments says which formats' debates write documents of their
// own, and which ("perspectives: decision document"; "" if none does), for
// the usage of the flags that say where they go (--out-dir).
func WrittenDocuments(formats *debate.Formats) string {
	var out []string
	for n, w := range documentWriters(formats) {
		var docs []string
		for _, d := range w.Documents() {
			if d.Ask == "" {
				docs = append(docs, docTitle(d))
			}
		}
		if len(docs) > 0 {
			out = append(out, n+": "+strings.Join(docs, ", "))
		}
	}
	return strings.Join(out, "; ")
}

// documentWriters are the formats that write documents, by name, in the
// registry's order.
func documentWriters(formats *debate.Formats) iter.Seq2[string, debate.DocumentWriter] {
	return func(yield func(string, debate.DocumentWriter) bool) {
		for _, n := range formats.Names() {
			f, err := formats.Get(n)
			if err != nil {
				continue
			}
			if w, ok := f.(debate.DocumentWriter); ok && !yield(n, w) {
				return
			}
		}
	}
}

// AskedDocument is a document written when asked for, and the formats
// that write it.
type AskedDocument struct {
	debate.Document
	Formats []string
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
	tmp, err := createSibling(dir, "."+tempStem(filepath.Base(path))+".")
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

// tempStem is the part of a file's name its temporary sibling's name
// begins with: its first 64 bytes, cut where a character ends. The whole
// of a name near the file system's limit (255 bytes) made the temporary
// name, 14 bytes longer, too long to create, and a file that could be
// written could not be.
func tempStem(base string) string {
	const most = 64
	if len(base) <= most {
		return base
	}
	cut := most
	for cut > 0 && !utf8.RuneStart(base[cut]) {
		cut--
	}
	return base[:cut]
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
