package sqlite

import (
	"context"
	"database/sql"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	"github.com/parleyhq/parley/internal/debate"
	"github.com/parleyhq/parley/internal/llm"
	"github.com/parleyhq/parley/internal/store/storetest"
)

// testPoll keeps the cross-store tests quick; the default is tuned for a
// person watching a debate, not for tests.
const testPoll = 20 * time.Millisecond

func openAt(t testing.TB, path string, opts ...Option) *Store {
	t.Helper()
	s, err := Open(context.Background(), path, append([]Option{WithPollInterval(testPoll)}, opts...)...)
	if err != nil {
		t.Fatalf("Open(%s): %v", path, err)
	}
	t.Cleanup(func() { _ = s.Close() })
	return s
}

func TestConformance(t *testing.T) {
	storetest.Run(t,
		func(t *testing.T) debate.Store { return openAt(t, filepath.Join(t.TempDir(), "parley.db")) },
		storetest.SharedDatabase(func(t *testing.T) (debate.Store, debate.Store) {
			path := filepath.Join(t.TempDir(), "parley.db")
			return openAt(t, path), openAt(t, path)
		}),
		storetest.Reopen(func(t *testing.T) func(t *testing.T) debate.Store {
			path := filepath.Join(t.TempDir(), "parley.db")
			return func(t *testing.T) debate.Store { return openAt(t, path) }
		}),
		storetest.Upgrade(func(t *testing.T, debates ...[]debate.Event) debate.Store {
			path := filepath.Join(t.TempDir(), "parley.db")
			seedAt(t, path, spendMigration().Version-1, debates...)
			return openAt(t, path)
		}),
	)
}

// seedAt makes a database at path at schema version, with goose as Open
// runs it, and writes there the debates' events (Debate and Seq set) and
// their projections as the store of that version did: events, the
// debates' rows (cost_usd from version 3 on) and the turns' (priced from
// version 5 on). Leases are left out.
func seedAt(t *testing.T, path string, version int64, debates ...[]debate.Event) {
	t.Helper()
	ctx := t.Context()
	db, err := sql.Open("sqlite", dsn(path, options{busyTimeout: DefaultBusyTimeout, synchronous: "NORMAL"}))
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	p, err := migrator(db)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := p.UpTo(ctx, version); err != nil {
		t.Fatalf("migrate up to version %d: %v", version, err)
	}
	exec := func(q string, args ...any) {
		t.Helper()
		if _, err := db.ExecContext(ctx, q, args...); err != nil {
			t.Fatalf("%s: %v", q, err)
		}
	}
	for _, evs := range debates {
		var sum debate.Summary
		for _, e := range evs {
			ts := e.Time.UTC().Format(timeLayout)
			exec(`INSERT INTO events (debate_id, seq, time, type, data) VALUES (?, ?, ?, ?, ?)`, e.Debate, e.Seq, ts, e.Type, string(e.Data))
			if e.Type == debate.TypeTurnCompleted {
				var tc debate.TurnCompleted
				if err := e.Decode(&tc); err != nil {
					t.Fatal(err)
				}
				cols, vals := ``, ``
				args := []any{e.Debate, e.Seq, ts, tc.Turn.ID, tc.Turn.Agent, tc.Turn.Role, tc.Turn.Label, tc.Turn.Phase, tc.Turn.Round,
					tc.Text, tc.Invalid, tc.Model, tc.Usage.InputTokens, tc.Usage.OutputTokens, tc.Usage.CacheReadTokens, tc.Usage.CacheWriteTokens, tc.CostUSD}
				if version >= 5 {
					cols, vals = `, priced`, `, ?`
					args = append(args, tc.Priced)
				}
				exec(`INSERT INTO turns (debate_id, seq, time, turn_id, agent, role, label, phase, round, text, invalid,
					model, input_tokens, output_tokens, cache_read_tokens, cache_write_tokens, cost_usd`+cols+`)
					VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?`+vals+`)`, args...)
			}
			debate.Project(&sum, e)
		}
		cols, vals := ``, ``
		args := []any{sum.ID, sum.Format, sum.Topic, string(sum.Status), sum.Phase, sum.Round, sum.Turns,
			sum.Created.UTC().Format(timeLayout), sum.Updated.UTC().Format(timeLayout), sum.LastSeq}
		if version >= 3 {
			cols, vals = `, cost_usd`, `, ?`
			args = append(args, sum.CostUSD)
		}
		exec(`INSERT INTO debates (id, format, topic, status, phase, round, turns, created, updated, last_seq`+cols+`)
			VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?`+vals+`)`, args...)
	}
}

func TestReopenKeepsEverything(t *testing.T) {
	ctx := t.Context()
	path := filepath.Join(t.TempDir(), "nested", "dirs", "parley.db") // Open creates the parents
	s := openAt(t, path)
	t0 := time.Date(2025, 1, 2, 3, 4, 5, 6, time.UTC)
	turn := debate.TurnCompleted{
		Turn: debate.TurnRef{ID: "r1-bull", Agent: "bull", Role: "advocate", Label: "Bull", Phase: "opening", Round: 1},
		Text: "It is cheap.", Move: json.RawMessage(`{"claim":"cheap"}`), Model: "anthropic/claude",
		Usage: llm.Usage{InputTokens: 100, OutputTokens: 50, CacheReadTokens: 7, CacheWriteTokens: 3}, CostUSD: 0.0125,
	}
	evs := map[string][]debate.Event{
		"one": {
			storetest.Event(t, "one", t0, debate.Created{Format: "bullbear", Topic: "Is it cheap?"}),
			storetest.Event(t, "one", t0.Add(time.Second), debate.TurnStarted{Turn: turn.Turn, Attempt: 1}),
			storetest.Event(t, "one", t0.Add(2*time.Second), turn),
			storetest.Event(t, "one", t0.Add(3*time.Second), debate.TurnCompleted{Turn: debate.TurnRef{ID: "r1-bear", Agent: "bear", Round: 1}, Text: "No.", Invalid: "no JSON"}),
		},
		"two": {
			storetest.Event(t, "two", t0.Add(time.Minute), debate.Created{Format: "council", Topic: "Other"}),
			storetest.Event(t, "two", t0.Add(2*time.Minute), debate.Completed{}),
		},
	}
	for id, e := range evs {
		if _, err := s.Append(ctx, id, e[0]); err != nil {
			t.Fatal(err)
		}
		if _, err := s.Append(ctx, id, e[1:]...); err != nil {
			t.Fatal(err)
		}
	}
	wantEvents := map[string][]debate.Event{}
	wantSummaries := map[string]debate.Summary{}
	for id := range evs {
		var err error
		if wantEvents[id], err = s.Load(ctx, id, 0); err != nil {
			t.Fatal(err)
		}
		if wantSummaries[id], err = s.Get(ctx, id); err != nil {
			t.Fatal(err)
		}
	}
	wantTurns, err := s.Turns(ctx, "one")
	if err != nil {
		t.Fatal(err)
	}
	if err := s.Close(); err != nil {
		t.Fatal(err)
	}

	r := openAt(t, path)
	for id := range evs {
		got, err := r.Load(ctx, id, 0)
		if err != nil {
			t.Fatal(err)
		}
		if diff := cmp.Diff(wantEvents[id], got); diff != "" {
			t.Errorf("debate %s after reopen (-before +after):\n%s", id, diff)
		}
		if len(got) != len(evs[id]) {
			t.Errorf("debate %s: %d events after reopen, appended %d", id, len(got), len(evs[id]))
		}
		sum, err := r.Get(ctx, id)
		if err != nil {
			t.Fatal(err)
		}
		if diff := cmp.Diff(wantSummaries[id], sum); diff != "" {
			t.Errorf("summary %s after reopen (-before +after):\n%s", id, diff)
		}
	}
	gotTurns, err := r.Turns(ctx, "one")
	if err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff(wantTurns, gotTurns); diff != "" {
		t.Errorf("turns after reopen (-before +after):\n%s", diff)
	}
}

// TestTurnsProjection runs the turns projection's test the SQL stores share.
func TestTurnsProjection(t *testing.T) {
	storetest.TurnsProjection(t, openAt(t, filepath.Join(t.TempDir(), "parley.db")), 1)
}

func schemaVersion(t *testing.T, s *Store) (version int64, rows int) {
	t.Helper()
	if err := s.db.QueryRowContext(t.Context(), `SELECT max(version_id), count(*) FROM goose_db_version`).Scan(&version, &rows); err != nil {
		t.Fatal(err)
	}
	return version, rows
}

func latestMigration(t *testing.T) int64 {
	t.Helper()
	entries, err := migrations.ReadDir("migrations")
	if err != nil {
		t.Fatal(err)
	}
	// The files are numbered 00001, 00002, ...; the migrations in Go take
	// the numbers between.
	latest := spendMigration().Version
	for _, e := range entries {
		var v int64
		if _, err := fmt.Sscanf(e.Name(), "%05d_", &v); err != nil {
			t.Fatalf("migration file %s: %v", e.Name(), err)
		}
		latest = max(latest, v)
	}
	return latest
}

func TestMigrations(t *testing.T) {
	path := filepath.Join(t.TempDir(), "parley.db")
	s := openAt(t, path)
	v, rows := schemaVersion(t, s)
	if want := latestMigration(t); v != want {
		t.Fatalf("fresh database at schema version %d, want %d", v, want)
	}
	for _, table := range []string{"events", "debates", "turns"} {
		var n int
		if err := s.db.QueryRowContext(t.Context(), `SELECT count(*) FROM sqlite_schema WHERE type = 'table' AND name = ?`, table).Scan(&n); err != nil || n != 1 {
			t.Errorf("table %s: count %d, err %v", table, n, err)
		}
	}
	if err := s.Close(); err != nil {
		t.Fatal(err)
	}

	r := openAt(t, path)
	v2, rows2 := schemaVersion(t, r)
	if v2 != v || rows2 != rows {
		t.Fatalf("reopen changed the version table: version %d→%d, rows %d→%d", v, v2, rows, rows2)
	}
}

func TestPragmas(t *testing.T) {
	s := openAt(t, filepath.Join(t.TempDir(), "parley.db"))
	ctx := t.Context()
	// Check on a connection of the pool, since pragmas are per connection.
	conn, err := s.db.Conn(ctx)
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close()
	for pragma, want := range map[string]string{
		"journal_mode": "wal",
		"synchronous":  "2", // FULL
		"foreign_keys": "1",
		"busy_timeout": "5000",
	} {
		var got string
		if err := conn.QueryRowContext(ctx, "PRAGMA "+pragma).Scan(&got); err != nil {
			t.Fatal(err)
		}
		if got != want {
			t.Errorf("PRAGMA %s = %s, want %s", pragma, got, want)
		}
	}
}

func TestSchemaTooNew(t *testing.T) {
	path := filepath.Join(t.TempDir(), "parley.db")
	s := openAt(t, path)
	if _, err := s.db.ExecContext(t.Context(), `INSERT INTO goose_db_version (version_id, is_applied) VALUES (9999, 1)`); err != nil {
		t.Fatal(err)
	}
	if err := s.Close(); err != nil {
		t.Fatal(err)
	}
	_, err := Open(t.Context(), path)
	if !errors.Is(err, ErrSchemaTooNew) {
		t.Fatalf("Open of a database from a newer parley: err = %v, want ErrSchemaTooNew", err)
	}
	for _, want := range []string{path, "9999", "upgrade parley", "--db"} {
		if !strings.Contains(err.Error(), want) {
			t.Errorf("error %q does not mention %q", err, want)
		}
	}
}

func TestOpenErrors(t *testing.T) {
	dir := t.TempDir()
	blocker := filepath.Join(dir, "file")
	if err := os.WriteFile(blocker, []byte("not a directory"), 0o600); err != nil {
		t.Fatal(err)
	}
	garbage := filepath.Join(dir, "garbage.db")
	if err := os.WriteFile(garbage, []byte(strings.Repeat("this is not a SQLite database\n", 200)), 0o600); err != nil {
		t.Fatal(err)
	}
	for name, path := range map[string]string{
		"parent is a file": filepath.Join(blocker, "parley.db"),
		"path is a dir":    dir,
		"not a database":   garbage,
	} {
		t.Run(name, func(t *testing.T) {
			s, err := Open(t.Context(), path)
			if err == nil {
				s.Close()
				t.Fatal("Open succeeded")
			}
			for _, want := range []string{path, "--db"} {
				if !strings.Contains(err.Error(), want) {
					t.Errorf("error %q does not mention %q", err, want)
				}
			}
		})
	}
	if _, err := Open(t.Context(), ""); err == nil || !strings.Contains(err.Error(), "--db") {
		t.Errorf("Open(\"\"): err = %v, want one suggesting --db", err)
	}
}

func TestOddFileNames(t *testing.T) {
	for _, name := range []string{"with space.db", "what?.db", "hash#tag.db", "100%.db", "ünï.db"} {
		t.Run(name, func(t *testing.T) {
			path := filepath.Join(t.TempDir(), name)
			s := openAt(t, path)
			if _, err := s.Append(t.Context(), "d", storetest.Event(t, "d", time.Now(), debate.Created{Format: "f", Topic: "t"})); err != nil {
				t.Fatal(err)
			}
			if _, err := os.Stat(path); err != nil {
				t.Fatalf("database not at the path given: %v", err)
			}
		})
	}
}

func TestDefaultPath(t *testing.T) {
	home := func() (string, error) { return "/home/ann", nil }
	noHome := func() (string, error) { return "", errors.New("$HOME is not defined") }
	env := func(kv ...string) func(string) string {
		return func(k string) string {
			for i := 0; i < len(kv); i += 2 {
				if kv[i] == k {
					return kv[i+1]
				}
			}
			return ""
		}
	}
	for _, c := range []struct {
		name   string
		goos   string
		getenv func(string) string
		home   func() (string, error)
		want   string // "" = an error
	}{
		{"linux xdg", "linux", env("XDG_DATA_HOME", "/data"), home, filepath.Join("/data", "parley", "parley.db")},
		{"linux default", "linux", env(), home, filepath.Join("/home/ann", ".local", "share", "parley", "parley.db")},
		{"linux relative xdg ignored", "linux", env("XDG_DATA_HOME", "rel"), home, filepath.Join("/home/ann", ".local", "share", "parley", "parley.db")},
		{"linux no home", "linux", env(), noHome, ""},
		{"linux no home but xdg", "linux", env("XDG_DATA_HOME", "/data"), noHome, filepath.Join("/data", "parley", "parley.db")},
		{"freebsd", "freebsd", env(), home, filepath.Join("/home/ann", ".local", "share", "parley", "parley.db")},
		{"macos", "darwin", env("XDG_DATA_HOME", "/data"), home, filepath.Join("/home/ann", "Library", "Application Support", "parley", "parley.db")},
		{"windows", "windows", env("LocalAppData", "/appdata"), home, filepath.Join("/appdata", "parley", "parley.db")},
		{"windows unset", "windows", env(), home, ""},
	} {
		t.Run(c.name, func(t *testing.T) {
			got, err := defaultPath(c.goos, c.getenv, c.home)
			if c.want == "" {
				if err == nil {
					t.Fatalf("got %q, want an error", got)
				}
				return
			}
			if err != nil || got != c.want {
				t.Fatalf("got %q, %v; want %q", got, err, c.want)
			}
		})
	}
	if p, err := DefaultPath(); err != nil || !filepath.IsAbs(p) {
		t.Errorf("DefaultPath() = %q, %v; want an absolute path", p, err)
	}
}

// TestOldSchemaReadOnly: a database of schema version 4 (turns without
// their priced column, summaries without their spend columns) is listed by
// a read-only open, which does not migrate it, as the migration would
// leave it: $0 turns of a model without a built-in price unknown. A
// writable open migrates it, and turns appended then keep the user's $0
// price as free.
func TestOldSchemaReadOnly(t *testing.T) {
	ctx := t.Context()
	path := filepath.Join(t.TempDir(), "parley.db")
	const id = "old"
	ref := func(turn string) debate.TurnRef {
		return debate.TurnRef{ID: turn, Agent: "pro", Role: "advocate", Round: 1}
	}
	u := llm.Usage{InputTokens: 10, OutputTokens: 5}
	evs := []debate.Event{
		storetest.Event(t, id, time.Unix(1, 0), debate.Created{Format: "perspectives", Topic: "t"}),
		storetest.Event(t, id, time.Unix(2, 0), debate.TurnCompleted{Turn: ref("a"), Text: "a", Usage: u, Model: "openai/my-model"}),
		storetest.Event(t, id, time.Unix(3, 0), debate.TurnCompleted{Turn: ref("d"), Text: "d", NoLLM: true, Model: debate.DataOnlyModel}),
	}
	for i := range evs {
		evs[i].Seq = int64(i + 1)
	}
	seedAt(t, path, 4, evs)
	ro, err := OpenReadOnly(ctx, path)
	if err != nil {
		t.Fatal(err)
	}
	list, err := ro.List(ctx, debate.ListFilter{})
	if err != nil || len(list) != 1 || list[0].LLMTurns != 1 || !slices.Equal(list[0].Unpriced, []string{"openai/my-model"}) {
		t.Errorf("read-only list of version 4: %+v, %v; want 1 LLM turn, openai/my-model unknown", list, err)
	}
	if got, err := ro.Get(ctx, id); err != nil || got.LLMTurns != 1 || !slices.Equal(got.Unpriced, []string{"openai/my-model"}) {
		t.Errorf("read-only get of version 4: %+v, %v; want 1 LLM turn, openai/my-model unknown", got, err)
	}
	ro.Close()

	w := openAt(t, path)
	if v, _ := schemaVersion(t, w); v != latestMigration(t) {
		t.Fatalf("schema version %d after a writable open, want %d", v, latestMigration(t))
	}
	if _, err := w.Append(ctx, id, storetest.Event(t, id, time.Unix(4, 0),
		debate.TurnCompleted{Turn: ref("b"), Text: "b", Usage: u, Priced: true, Model: "gateway/free"})); err != nil {
		t.Fatal(err)
	}
	got, err := w.Get(ctx, id)
	if err != nil || got.LLMTurns != 2 || !slices.Equal(got.Unpriced, []string{"openai/my-model"}) {
		t.Errorf("after the migration: %+v, %v; want 2 LLM turns, openai/my-model alone unknown", got, err)
	}
}

// TestOldSchemaReadOnlyCost: a database from before the debates' cost
// column (version 2), read without migrating it, lists each debate at the
// cost its turns recorded, as the migration fills the column; it was read
// as 0, and 'parley list' showed a debate that cost dollars as $0.0000.
func TestOldSchemaReadOnlyCost(t *testing.T) {
	ctx := t.Context()
	path := filepath.Join(t.TempDir(), "parley.db")
	const id = "old"
	ref := func(turn string) debate.TurnRef {
		return debate.TurnRef{ID: turn, Agent: "pro", Role: "advocate", Round: 1}
	}
	u := llm.Usage{InputTokens: 10, OutputTokens: 5}
	evs := []debate.Event{
		storetest.Event(t, id, time.Unix(1, 0), debate.Created{Format: "perspectives", Topic: "t"}),
		storetest.Event(t, id, time.Unix(2, 0), debate.TurnCompleted{Turn: ref("a"), Text: "a", Usage: u, Model: "openai/gpt-4.1", CostUSD: 0.25}),
		storetest.Event(t, id, time.Unix(3, 0), debate.TurnCompleted{Turn: ref("b"), Text: "b", Usage: u, Model: "openai/gpt-4.1", CostUSD: 0.5}),
	}
	for i := range evs {
		evs[i].Seq = int64(i + 1)
	}
	seedAt(t, path, 2, evs)
	ro, err := OpenReadOnly(ctx, path)
	if err != nil {
		t.Fatal(err)
	}
	defer ro.Close()
	if list, err := ro.List(ctx, debate.ListFilter{}); err != nil || len(list) != 1 || list[0].CostUSD != 0.75 {
		t.Errorf("read-only list of version 2: %+v, %v; want a cost of 0.75", list, err)
	}
	if got, err := ro.Get(ctx, id); err != nil || got.CostUSD != 0.75 {
		t.Errorf("read-only get of version 2: %+v, %v; want a cost of 0.75", got, err)
	}
}

// TestSpendMigrationDown: schema version 6 undone leaves version 5's
// schema, turns_spend index included, which migrates up again.
func TestSpendMigrationDown(t *testing.T) {
	ctx := t.Context()
	path := filepath.Join(t.TempDir(), "parley.db")
	openAt(t, path).Close()
	db, err := sql.Open("sqlite", dsn(path, options{busyTimeout: DefaultBusyTimeout, synchronous: "NORMAL"}))
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	p, err := migrator(db)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := p.DownTo(ctx, spendMigration().Version-1); err != nil {
		t.Fatal(err)
	}
	var n int
	if err := db.QueryRowContext(ctx, `SELECT count(*) FROM sqlite_schema WHERE type = 'index' AND name = 'turns_spend'`).Scan(&n); err != nil || n != 1 {
		t.Errorf("turns_spend after the down migration: %d, %v", n, err)
	}
	if _, err := p.Up(ctx); err != nil {
		t.Fatal(err)
	}
}

// TestLeaseOnFullDisk: a lease that cannot be written because the disk is
// full says so, with where and what to do, as an append does: a resume on a
// full disk ended in SQLite's "database or disk is full (13)" alone.
// max_page_count stands in for the full disk: SQLite answers SQLITE_FULL.
func TestLeaseOnFullDisk(t *testing.T) {
	ctx := t.Context()
	path := filepath.Join(t.TempDir(), "parley.db")
	s := openAt(t, path)
	defer s.Close()
	id := "DEB-full"
	if _, err := s.Append(ctx, id, storetest.Event(t, id, time.Unix(1, 0), debate.Created{Format: "council", Topic: "Full?"})); err != nil {
		t.Fatal(err)
	}
	// One connection, so that the pragma holds for the lease's
	// transaction; the file may not grow by a page.
	s.DB().SetMaxOpenConns(1)
	var pages int
	if err := s.DB().QueryRowContext(ctx, `PRAGMA page_count`).Scan(&pages); err != nil {
		t.Fatal(err)
	}
	if _, err := s.DB().ExecContext(ctx, fmt.Sprintf(`PRAGMA max_page_count = %d`, pages)); err != nil {
		t.Fatal(err)
	}
	// A lease too large for the pages the file has.
	owner := debate.LeaseOwner{ID: strings.Repeat("x", 16<<10), Host: "h", PID: 1, Started: time.Unix(1, 0)}
	_, err := s.AcquireLease(ctx, id, owner, time.Minute, "")
	if !errors.Is(err, ErrDiskFull) || !strings.Contains(err.Error(), filepath.Dir(path)) || !strings.Contains(err.Error(), "free some space") {
		t.Fatalf("AcquireLease on a full disk: %v; want ErrDiskFull naming %s and what to do", err, filepath.Dir(path))
	}
}
