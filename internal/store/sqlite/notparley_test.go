package sqlite

import (
	"context"
	"database/sql"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// A file holding another program's tables is not made a Parley database:
// Open refuses it, naming its tables and --db, and writes nothing to it. An
// empty file, or a database with no tables, becomes one.
func TestOpenRefusesAnotherProgramsDatabase(t *testing.T) {
	ctx := context.Background()
	dir := t.TempDir()
	other := filepath.Join(dir, "notes.db")
	db, err := sql.Open("sqlite", other)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := db.ExecContext(ctx, `CREATE TABLE notes (id INTEGER PRIMARY KEY, body TEXT); INSERT INTO notes (body) VALUES ('keep me')`); err != nil {
		t.Fatal(err)
	}
	db.Close()
	before, err := os.ReadFile(other)
	if err != nil {
		t.Fatal(err)
	}
	s, err := Open(ctx, other)
	if err == nil {
		s.Close()
		t.Fatal("Open made another program's database a Parley database")
	}
	if !errors.Is(err, ErrNotParley) || !strings.Contains(err.Error(), "notes") || !strings.Contains(err.Error(), "--db") {
		t.Errorf("error %q: want ErrNotParley naming the tables and --db", err)
	}
	if after, err := os.ReadFile(other); err != nil || string(after) != string(before) {
		t.Errorf("the other program's database changed (%v)", err)
	}

	empty := filepath.Join(dir, "empty.db")
	if err := os.WriteFile(empty, nil, 0o600); err != nil {
		t.Fatal(err)
	}
	for _, path := range []string{empty, filepath.Join(dir, "new.db")} {
		s, err := Open(ctx, path)
		if err != nil {
			t.Fatalf("%s: %v", filepath.Base(path), err)
		}
		s.Close()
		// And opened again, it is Parley's.
		if s, err = Open(ctx, path); err != nil {
			t.Fatalf("%s again: %v", filepath.Base(path), err)
		}
		s.Close()
	}
}
