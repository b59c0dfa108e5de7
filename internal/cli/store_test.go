package cli

import (
	"errors"
	"fmt"
	"net"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/parleyhq/parley/internal/iostreams"
)

func envFactory(env map[string]string, flag string) *Factory {
	ios, _, _, _ := iostreams.Test()
	return &Factory{IO: ios, Env: func(k string) string { return env[k] }, Now: time.Now, DBPath: flag}
}

// TestDatabaseChoice: --db, then PARLEY_DATABASE_URL, then PARLEY_DB, then
// the default file; a PARLEY_DATABASE_URL that is not a PostgreSQL URL is a
// configuration error.
func TestDatabaseChoice(t *testing.T) {
	const pg = "postgres://ann:s3cret@db/parley"
	for _, c := range []struct {
		name   string
		env    map[string]string
		flag   string
		want   string
		chosen bool
	}{
		{"flag over all", map[string]string{"PARLEY_DATABASE_URL": pg, "PARLEY_DB": "/x.db"}, "/flag.db", "/flag.db", true},
		{"flag URL", nil, pg, pg, true},
		{"URL over file", map[string]string{"PARLEY_DATABASE_URL": pg, "PARLEY_DB": "/x.db"}, "", pg, true},
		{"file", map[string]string{"PARLEY_DB": "/x.db"}, "", "/x.db", true},
		{"default", map[string]string{"XDG_DATA_HOME": "/data"}, "", "", false},
	} {
		t.Run(c.name, func(t *testing.T) {
			t.Setenv("XDG_DATA_HOME", "/data")
			got, chosen, err := envFactory(c.env, c.flag).dbPath()
			if err != nil {
				t.Fatal(err)
			}
			if c.want == "" {
				c.want = filepath.Join("/data", "parley", "parley.db")
			}
			if got != c.want || chosen != c.chosen {
				t.Errorf("dbPath() = %q, %v; want %q, %v", got, chosen, c.want, c.chosen)
			}
		})
	}
	_, _, err := envFactory(map[string]string{"PARLEY_DATABASE_URL": "/tmp/parley.db"}, "").dbPath()
	if ExitCode(err) != ExitConfig || !strings.Contains(err.Error(), "postgres://") {
		t.Errorf("PARLEY_DATABASE_URL that is a path: %v (exit %d), want a configuration error showing the form", err, ExitCode(err))
	}
}

// TestUnreachablePostgres: a server that cannot be reached is a
// configuration error (exit 4) for writing and reading commands alike.
func TestUnreachablePostgres(t *testing.T) {
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	url := fmt.Sprintf("postgres://ann:s3cret@127.0.0.1:%d/parley", l.Addr().(*net.TCPAddr).Port)
	l.Close()
	f := envFactory(map[string]string{"PARLEY_DATABASE_URL": url}, "")
	_, err = f.OpenStore(t.Context())
	if ExitCode(err) != ExitConfig || strings.Contains(err.Error(), "s3cret") {
		t.Errorf("OpenStore: %v (exit %d), want exit %d without the password", err, ExitCode(err), ExitConfig)
	}
	_, _, err = f.OpenStoreReadOnly(t.Context())
	if ExitCode(err) != ExitConfig {
		t.Errorf("OpenStoreReadOnly: %v (exit %d), want exit %d", err, ExitCode(err), ExitConfig)
	}
}

// TestBadStorePath: a SQLite location that cannot hold the database is bad
// input, worded alike for the commands that write (debate, batch) and those
// that read (list, show): the path, why, and --db to choose another.
func TestBadStorePath(t *testing.T) {
	dir := t.TempDir()
	notDB := filepath.Join(dir, "notes.db")
	if err := os.WriteFile(notDB, []byte("shopping list\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	aFile := filepath.Join(dir, "plain")
	if err := os.WriteFile(aFile, []byte("x"), 0o600); err != nil {
		t.Fatal(err)
	}
	cases := []struct{ name, path, why string }{
		{"a directory", dir, "it is a directory, not a database file"},
		{"not a database", notDB, "it is not a database file"},
		{"under a file", filepath.Join(aFile, "parley.db"), aFile + " is not a directory"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			f := envFactory(nil, c.path)
			_, werr := f.OpenStore(t.Context())
			_, _, rerr := f.OpenStoreReadOnly(t.Context())
			for _, err := range []error{werr, rerr} {
				var pe *StorePathError
				if !errors.As(err, &pe) || ExitCode(err) != ExitUsage {
					t.Fatalf("%v (exit %d): want a StorePathError, exit %d", err, ExitCode(err), ExitUsage)
				}
				want := "cannot use " + c.path + " as the Parley database: " + c.why
				if !strings.HasPrefix(err.Error(), want) || !strings.HasSuffix(err.Error(), "; choose another location with --db or PARLEY_DB") {
					t.Errorf("got  %v\nwant %s…; choose another location with --db or PARLEY_DB", err, want)
				}
			}
		})
	}
	// A writable place is no bad path: the database is created there.
	if why := badStorePath(filepath.Join(dir, "new", "parley.db"), true); why != "" {
		t.Errorf("a new directory under a writable one: %q", why)
	}
}
