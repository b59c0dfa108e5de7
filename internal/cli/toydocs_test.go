package cli

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/parleyhq/parley/internal/debate"
)

// toyWriter is the toy format, named toydoc, whose completed debates write
// documents (debate.DocumentWriter): a report, always, under a directory of
// its own, and notes when asked for (--toy-notes).
type toyWriter struct{ toyFormat }

func (toyWriter) Name() string { return "toydoc" }

func (toyWriter) Documents() []debate.Document {
	return []debate.Document{
		{Kind: "toy-report", Title: "Toy report"},
		{Kind: "toy-notes", Title: "Toy notes", Ask: "also write the toy's notes"},
	}
}

func (toyWriter) DocumentName(kind string, s *debate.State) string {
	if kind == "toy-notes" {
		return s.ID + "-notes.md"
	}
	return filepath.Join("reports", s.ID+".md")
}

func (toyWriter) RenderDocument(kind string, s *debate.State) (string, error) {
	if kind == "toy-notes" {
		return "# Notes\n\nLevel " + string(s.Verdict) + ".\n", nil
	}
	// An image, which a document must show as text (app.InertDoc).
	return "# Report\n\nPlayed at level " + string(s.Verdict) + ". ![seen](http://example.com/x.png)\n", nil
}

// TestNewFormatsDocumentsAreWritten: a format registered with documents of
// its own (debate.DocumentWriter) has them written where the user says
// (here the config file's decisions_dir), made inert, and recorded as
// artifact.written events of their kinds; its document written when asked
// for is a flag of 'parley debate'; a resume writes a lost one again, in
// the directory it was written to; all with nothing of the command line or
// the application layer written for it. A format without documents (the
// toy) writes none, and refuses --out-dir and the other's flag.
func TestNewFormatsDocumentsAreWritten(t *testing.T) {
	ctx := context.Background()
	dir := t.TempDir()
	docs := filepath.Join(dir, "documents")
	config := filepath.Join(dir, "config.yaml")
	if err := os.WriteFile(config, []byte("decisions_dir: "+docs+"\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	db := filepath.Join(dir, "parley.db")
	factory := func() *Factory {
		f := testFactory(t, "", false)
		f.Formats = debate.NewFormats(append(formatsOf(t, withToy(t)), toyWriter{})...)
		f.Env = func(k string) string { return map[string]string{"PARLEY_CONFIG": config}[k] }
		f.DBPath = db
		return f
	}
	run := func(args ...string) (string, error) {
		f := factory()
		root := NewRootCmd(f)
		root.SetArgs(append(args, "--db", db))
		root.SetOut(f.IO.Out)
		root.SetErr(f.IO.ErrOut)
		err := root.ExecuteContext(ctx)
		return f.IO.Out.(interface{ String() string }).String() + f.IO.ErrOut.(interface{ String() string }).String(), err
	}
	state := func(id string) *debate.State {
		f := factory()
		store, err := f.OpenStore(ctx)
		if err != nil {
			t.Fatal(err)
		}
		defer store.Close()
		evs, err := store.Load(ctx, id, 0)
		if err != nil {
			t.Fatal(err)
		}
		st, err := debate.Fold(evs)
		if err != nil {
			t.Fatal(err)
		}
		return st
	}
	lastID := func() string {
		f := factory()
		store, err := f.OpenStore(ctx)
		if err != nil {
			t.Fatal(err)
		}
		defer store.Close()
		sums, err := store.List(ctx, debate.ListFilter{})
		if err != nil || len(sums) == 0 {
			t.Fatalf("no debate (%v)", err)
		}
		return sums[0].ID
	}
	files := func() []string {
		var got []string
		filepath.WalkDir(dir, func(p string, d os.DirEntry, err error) error {
			if err == nil && !d.IsDir() && strings.HasSuffix(p, ".md") {
				got = append(got, p)
			}
			return nil
		})
		return got
	}

	help, err := run("debate", "--help")
	if err != nil || !strings.Contains(help, "--toy-notes") || !strings.Contains(help, "also write the toy's notes") ||
		!strings.Contains(help, "--issue-draft") || !strings.Contains(help, "also write an issue draft made from the decision") {
		t.Errorf("debate --help (%v) does not offer --toy-notes and --issue-draft with their usage:\n%s", err, help)
	}
	// --out-dir says which formats write documents, and which: the toy's
	// among them. Help folds its lines, so the words are looked for alone.
	if words := strings.Join(strings.Fields(help), " "); !strings.Contains(words, "perspectives: decision document; toydoc: toy report)") {
		t.Errorf("debate --help: --out-dir does not name the formats' documents:\n%s", help)
	}

	// The toy writes no documents.
	if out, err := run("debate", "Is a toy a game?", "--format", "toy"); err != nil {
		t.Fatalf("toy: %v\n%s", err, out)
	} else if strings.Contains(out, "written to") {
		t.Errorf("the toy says it wrote a document:\n%s", out)
	}
	if st := state(lastID()); len(st.Artifacts) != 0 || len(files()) != 0 {
		t.Errorf("the toy, which writes no documents, wrote %v and recorded %+v", files(), st.Artifacts)
	}

	// toydoc writes its report, and its notes when asked for.
	out, err := run("debate", "Is a toy a game?", "--format", "toydoc", "--toy-notes")
	if err != nil {
		t.Fatalf("toydoc: %v\n%s", err, out)
	}
	id := lastID()
	report, notes := filepath.Join(docs, "reports", id+".md"), filepath.Join(docs, id+"-notes.md")
	for _, want := range []string{"Toy report written to " + report + "\n", "Toy notes written to " + notes + "\n"} {
		if !strings.Contains(out, want) {
			t.Errorf("toydoc's output lacks %q:\n%s", want, out)
		}
	}
	want := []debate.ArtifactWritten{{Kind: "toy-report", Path: report}, {Kind: "toy-notes", Path: notes}}
	if st := state(id); !slices.Equal(st.Artifacts, want) {
		t.Errorf("recorded %+v, want %+v", st.Artifacts, want)
	}
	if b, err := os.ReadFile(report); err != nil || !strings.HasPrefix(string(b), "# Report\n\nPlayed at level 3.") || strings.Contains(string(b), "![seen]") {
		t.Errorf("the report (%v), not written as rendered and made inert:\n%s", err, b)
	}
	if b, err := os.ReadFile(notes); err != nil || string(b) != "# Notes\n\nLevel 3.\n" {
		t.Errorf("the notes (%v):\n%s", err, b)
	}

	// Lost, the report is written again where it was, the notes (not
	// asked for this time) are not.
	if err := os.Remove(report); err != nil {
		t.Fatal(err)
	}
	if err := os.Remove(notes); err != nil {
		t.Fatal(err)
	}
	out, err = run("debate", "--resume", id)
	if err != nil {
		t.Fatalf("resume: %v\n%s", err, out)
	}
	if want := fmt.Sprintf("Debate %s was completed but its toy report was missing; it is written again.\nToy report written to %s\n", id, report); !strings.Contains(out, want) {
		t.Errorf("resume says\n%s\nwant\n%s", out, want)
	}
	if got := files(); !slices.Equal(got, []string{report}) {
		t.Errorf("after the resume: %v, want only %s", got, report)
	}
	if out, err := run("debate", "--resume", id); err == nil || !strings.Contains(err.Error(), "is already completed") {
		t.Errorf("a second resume, with the report there: %v\n%s", err, out)
	}

	// The documents' flags are refused for a format that has none, and
	// --toy-notes for perspectives, naming the formats that take them.
	for _, tc := range []struct {
		args []string
		says string
	}{
		{[]string{"--format", "toy", "--out-dir", docs}, "--out-dir: the toy format has no --out-dir (perspectives and toydoc take it)"},
		{[]string{"--format", "toy", "--toy-notes"}, "--toy-notes: the toy format has no --toy-notes (toydoc takes it)"},
		{[]string{"--format", "toydoc", "--issue-draft"}, "--issue-draft: the toydoc format has no --issue-draft (perspectives takes it)"},
		{[]string{"--toy-notes"}, "--toy-notes: with no --format this debate is perspectives, which has no --toy-notes (toydoc takes it)"},
	} {
		out, err := run(append([]string{"debate", "Is a toy a game?"}, tc.args...)...)
		if err == nil || !strings.Contains(err.Error(), tc.says) {
			t.Errorf("debate %s: %v; want it refused saying %q\n%s", strings.Join(tc.args, " "), err, tc.says, out)
		}
	}
}

// formatsOf are the formats of a registry.
func formatsOf(t *testing.T, r *debate.Formats) []debate.Format {
	t.Helper()
	var fs []debate.Format
	for _, n := range r.Names() {
		f, err := r.Get(n)
		if err != nil {
			t.Fatal(err)
		}
		fs = append(fs, f)
	}
	return fs
}
