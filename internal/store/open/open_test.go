package open

import (
	"errors"
	"fmt"
	"net"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/parleyhq/parley/internal/debate"
	"github.com/parleyhq/parley/internal/store/postgres"
	"github.com/parleyhq/parley/internal/store/postgres/pgtest"
	"github.com/parleyhq/parley/internal/store/sqlite"
)

func TestSQLiteByDefault(t *testing.T) {
	for _, loc := range []string{"parley.db", "postgres.db", "dir/postgresql", "file:postgres://x"} {
		path := filepath.Join(t.TempDir(), loc)
		if IsPostgres(path) {
			t.Errorf("IsPostgres(%q) = true", path)
		}
		if _, err := OpenExisting(t.Context(), path); !errors.Is(err, ErrNoDatabase) || !strings.Contains(err.Error(), path) {
			t.Errorf("OpenExisting(%q) before any debate: %v, want ErrNoDatabase naming the path", path, err)
		}
		st, err := Open(t.Context(), path)
		if err != nil {
			t.Fatal(err)
		}
		if _, ok := st.(*sqlite.Store); !ok {
			t.Errorf("Open(%q) is a %T, want a SQLite store", path, st)
		}
		st.Close()
		st, err = OpenExisting(t.Context(), path)
		if err != nil {
			t.Fatal(err)
		}
		st.Close()
	}
}

func TestPostgresByURL(t *testing.T) {
	url := pgtest.URL(t)
	for _, u := range []string{url, "postgresql" + strings.TrimPrefix(url, "postgres")} {
		if !IsPostgres(u) {
			t.Fatalf("IsPostgres(%q) = false", u)
		}
	}
	if _, err := OpenExisting(t.Context(), url); !errors.Is(err, ErrNoDatabase) {
		t.Fatalf("OpenExisting of an empty schema: %v, want ErrNoDatabase", err)
	}
	st, err := Open(t.Context(), url)
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	if _, ok := st.(*postgres.Store); !ok {
		t.Errorf("Open(%s) is a %T, want a PostgreSQL store", Describe(url), st)
	}
	// What one opened, the other reads.
	e, err := debate.NewEvent("d", time.Date(2025, 1, 1, 0, 0, 0, 0, time.UTC), debate.Created{Format: "f", Topic: "t"})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := st.Append(t.Context(), "d", e); err != nil {
		t.Fatal(err)
	}
	r, err := OpenExisting(t.Context(), url)
	if err != nil {
		t.Fatal(err)
	}
	defer r.Close()
	if sum, err := r.Get(t.Context(), "d"); err != nil || sum.Topic != "t" {
		t.Errorf("Get through OpenExisting: %+v %v", sum, err)
	}
}

// TestConfigErrors: a URL that does not parse and a server nobody answers
// at are configuration errors, and their messages hide the password.
func TestConfigErrors(t *testing.T) {
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	port := l.Addr().(*net.TCPAddr).Port
	l.Close()
	for _, url := range []string{"postgres://ann:s3cret@localhost:0x/db", fmt.Sprintf("postgresql://ann:s3cret@127.0.0.1:%d/db", port)} {
		for name, open := range map[string]func() error{
			"Open":         func() error { _, err := Open(t.Context(), url); return err },
			"OpenExisting": func() error { _, err := OpenExisting(t.Context(), url); return err },
		} {
			err := open()
			if !IsConfigError(err) || strings.Contains(err.Error(), "s3cret") {
				t.Errorf("%s(%s): %v; want a configuration error without the password", name, Describe(url), err)
			}
		}
	}
	// A search_path naming no schema is the URL's mistake too (it exited
	// 1, while a database that does not exist exits 4).
	if !IsConfigError(fmt.Errorf("open parley database x: %w: search_path %q", postgres.ErrNoSchema, "nope")) {
		t.Error("IsConfigError is false for a search_path naming no schema")
	}
	if IsConfigError(errors.New("disk full")) || IsConfigError(sqlite.ErrReadOnly) {
		t.Error("IsConfigError is true for other errors")
	}
}
