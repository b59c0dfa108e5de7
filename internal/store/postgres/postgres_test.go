package postgres

import (
	"bytes"
	"context"
	"database/sql"
	"errors"
	"fmt"
	"iter"
	"log/slog"
	"net"
	neturl "net/url"
	"os"
	"regexp"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	"github.com/jackc/pgx/v5"

	"github.com/parleyhq/parley/internal/debate"
	"github.com/parleyhq/parley/internal/store/postgres/pgtest"
	"github.com/parleyhq/parley/internal/store/storetest"
)

func openAt(t testing.TB, url string) *Store {
	t.Helper()
	s, err := Open(context.Background(), url)
	if err != nil {
		t.Fatalf("Open: %v", err)
	}
	t.Cleanup(func() { _ = s.Close() })
	return s
}

func TestConformance(t *testing.T) {
	pgtest.BaseURL(t) // skip here rather than in every subtest
	storetest.Run(t,
		func(t *testing.T) debate.Store { return openAt(t, pgtest.URL(t)) },
		storetest.TimePrecision(time.Microsecond),
		storetest.SharedDatabase(func(t *testing.T) (debate.Store, debate.Store) {
			url := pgtest.URL(t)
			return openAt(t, url), openAt(t, url)
		}),
		storetest.Reopen(func(t *testing.T) func(t *testing.T) debate.Store {
			url := pgtest.URL(t)
			return func(t *testing.T) debate.Store { return openAt(t, url) }
		}),
		storetest.Upgrade(func(t *testing.T, debates ...[]debate.Event) debate.Store {
			url := pgtest.URL(t)
			seedAt(t, url, spendColumnsVersion-1, debates...)
			return openAt(t, url)
		}),
	)
}

// spendColumnsVersion is the schema version that added the debates' spend
// columns.
const spendColumnsVersion = 4

// seedAt makes the schema at url at version (3 or later), with goose as
// Open runs it, and writes there the debates' events (Debate and Seq set)
// and their projections as the store of that version did. Leases are left
// out.
func seedAt(t *testing.T, url string, version int64, debates ...[]debate.Event) {
	t.Helper()
	ctx := t.Context()
	db, err := sql.Open("pgx", url)
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
	tx, err := db.BeginTx(ctx, nil) // one commit: a commit per row made large seeds slow
	if err != nil {
		t.Fatal(err)
	}
	defer tx.Rollback()
	exec := func(q string, args ...any) {
		t.Helper()
		if _, err := tx.ExecContext(ctx, q, args...); err != nil {
			t.Fatalf("%s: %v", q, err)
		}
	}
	for _, evs := range debates {
		var sum debate.Summary
		for _, e := range evs {
			exec(`INSERT INTO events (debate_id, seq, time, type, data) VALUES ($1, $2, $3, $4, $5)`, e.Debate, e.Seq, e.Time, e.Type, []byte(e.Data))
			if e.Type == debate.TypeTurnCompleted {
				var tc debate.TurnCompleted
				if err := e.Decode(&tc); err != nil {
					t.Fatal(err)
				}
				exec(`INSERT INTO turns (debate_id, seq, time, turn_id, agent, role, label, phase, round, text, invalid,
					model, input_tokens, output_tokens, cache_read_tokens, cache_write_tokens, cost_usd, priced)
					VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $14, $15, $16, $17, $18)`,
					e.Debate, e.Seq, e.Time, tc.Turn.ID, tc.Turn.Agent, tc.Turn.Role, tc.Turn.Label, tc.Turn.Phase, tc.Turn.Round,
					tc.Text, tc.Invalid, tc.Model, tc.Usage.InputTokens, tc.Usage.OutputTokens, tc.Usage.CacheReadTokens, tc.Usage.CacheWriteTokens,
					tc.CostUSD, tc.Priced)
			}
			debate.Project(&sum, e)
		}
		exec(`INSERT INTO debates (id, format, topic, status, phase, round, turns, created, updated, last_seq, cost_usd)
			VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11)`,
			sum.ID, sum.Format, sum.Topic, string(sum.Status), sum.Phase, sum.Round, sum.Turns, sum.Created, sum.Updated, sum.LastSeq, sum.CostUSD)
	}
	if err := tx.Commit(); err != nil {
		t.Fatal(err)
	}
}

// TestTurnsProjection runs the turns projection's test the SQL stores share.
func TestTurnsProjection(t *testing.T) {
	storetest.TurnsProjection(t, openAt(t, pgtest.URL(t)), time.Microsecond)
}

// TestReopenKeepsEverything: what one store wrote, a store opened later on
// the same schema reads back identically, and reopening migrates nothing.
func TestReopenKeepsEverything(t *testing.T) {
	ctx := t.Context()
	url := pgtest.URL(t)
	s := openAt(t, url)
	t0 := time.Date(2025, 1, 2, 3, 4, 5, 6000, time.UTC)
	evs := []debate.Event{
		storetest.Event(t, "one", t0, debate.Created{Format: "bullbear", Topic: "Is it cheap?"}),
		storetest.Event(t, "one", t0.Add(time.Second), debate.TurnCompleted{Turn: debate.TurnRef{ID: "r1-bull", Agent: "bull", Round: 1}, Text: "Yes.", CostUSD: 0.25}),
		storetest.Event(t, "one", t0.Add(2*time.Second), debate.Completed{}),
	}
	if _, err := s.Append(ctx, "one", evs...); err != nil {
		t.Fatal(err)
	}
	if _, err := s.AcquireLease(ctx, "one", debate.LeaseOwner{ID: "r", Host: "h", PID: 7, Started: t0.Add(123)}, time.Minute, ""); err != nil {
		t.Fatal(err)
	}
	wantEvents, err := s.Load(ctx, "one", 0)
	if err != nil {
		t.Fatal(err)
	}
	wantSum, err := s.Get(ctx, "one")
	if err != nil {
		t.Fatal(err)
	}
	v, rows := schemaVersion(t, s)
	if err := s.Close(); err != nil {
		t.Fatal(err)
	}

	r := openAt(t, url)
	got, err := r.Load(ctx, "one", 0)
	if err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff(wantEvents, got); diff != "" {
		t.Errorf("events after reopen (-before +after):\n%s", diff)
	}
	sum, err := r.Get(ctx, "one")
	if err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff(wantSum, sum); diff != "" {
		t.Errorf("summary after reopen (-before +after):\n%s", diff)
	}
	if v2, rows2 := schemaVersion(t, r); v2 != v || rows2 != rows {
		t.Errorf("reopen changed the version table: version %d→%d, rows %d→%d", v, v2, rows, rows2)
	}
}

func schemaVersion(t *testing.T, s *Store) (version int64, rows int) {
	t.Helper()
	if err := s.pool.QueryRow(t.Context(), `SELECT max(version_id), count(*) FROM `+versionTable).Scan(&version, &rows); err != nil {
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
	// The files and the migrations in Go (spendBackfill) are numbered
	// 00001, 00002, ... without gaps.
	return int64(len(entries)) + 1
}

// TestMigrationsConcurrent: processes opening a new database at once all
// succeed, and the schema is migrated once.
func TestMigrationsConcurrent(t *testing.T) {
	url := pgtest.URL(t)
	const n = 4
	errs := make(chan error, n)
	stores := make(chan *Store, n)
	for range n {
		go func() {
			s, err := Open(t.Context(), url)
			if err == nil {
				stores <- s
			}
			errs <- err
		}()
	}
	for range n {
		if err := <-errs; err != nil {
			t.Errorf("concurrent Open: %v", err)
		}
	}
	close(stores)
	var s *Store
	for st := range stores {
		t.Cleanup(func() { _ = st.Close() })
		s = st
	}
	if s == nil {
		t.FailNow()
	}
	v, rows := schemaVersion(t, s)
	if want := latestMigration(t); v != want || rows != int(want)+1 { // goose's version 0, then one row per migration
		t.Errorf("schema version %d in %d rows, want %d in %d", v, rows, want, want+1)
	}
}

func TestSchemaTooNew(t *testing.T) {
	url := pgtest.URL(t)
	s := openAt(t, url)
	if _, err := s.pool.Exec(t.Context(), `INSERT INTO `+versionTable+` (version_id, is_applied) VALUES (9999, true)`); err != nil {
		t.Fatal(err)
	}
	if err := s.Close(); err != nil {
		t.Fatal(err)
	}
	_, err := Open(t.Context(), url)
	if !errors.Is(err, ErrSchemaTooNew) {
		t.Fatalf("Open of a database from a newer parley: err = %v, want ErrSchemaTooNew", err)
	}
	for _, want := range []string{"9999", "upgrade parley", "--db"} {
		if !strings.Contains(err.Error(), want) {
			t.Errorf("error %q does not mention %q", err, want)
		}
	}
}

// TestOpenExisting: reading commands create nothing in an empty schema.
func TestOpenExisting(t *testing.T) {
	url := pgtest.URL(t)
	if _, err := OpenExisting(t.Context(), url); !errors.Is(err, ErrNoDatabase) {
		t.Fatalf("OpenExisting of an empty schema: err = %v, want ErrNoDatabase", err)
	}
	s := openAt(t, url) // and this shows the schema was still empty: Open creates it
	if v, _ := schemaVersion(t, s); v != latestMigration(t) {
		t.Fatalf("schema version %d after Open", v)
	}
	e, err := OpenExisting(t.Context(), url)
	if err != nil {
		t.Fatalf("OpenExisting of a Parley schema: %v", err)
	}
	_ = e.Close()
}

// TestOpenErrors: each way of pointing at the wrong place is an error that
// says what is wrong and where to fix it, and never shows the password.
func TestOpenErrors(t *testing.T) {
	// A port nobody listens on: bind one, then free it.
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	closedPort := l.Addr().(*net.TCPAddr).Port
	l.Close()
	type openCase struct {
		name, url string
		is        error
		want      []string
	}
	cases := []openCase{
		{"bad port", "postgres://ann:s3cret@localhost:99999/db", ErrBadURL, []string{"invalid PostgreSQL URL", "postgres://USER:PASSWORD@HOST:PORT/DATABASE", "--db", "PARLEY_DATABASE_URL"}},
		{"not a URL", "postgres://ann:s3cret@db:5432%zz/parley", ErrBadURL, []string{"invalid PostgreSQL URL", "5432%zz"}},
		{"bad sslmode", "postgres://ann:s3cret@localhost/db?sslmode=sometimes", ErrBadURL, []string{"sslmode", "--db"}},
		{"nobody listening", fmt.Sprintf("postgres://ann:s3cret@127.0.0.1:%d/db?connect_timeout=5", closedPort), ErrConnect,
			[]string{fmt.Sprintf("127.0.0.1:%d", closedPort), "connection refused", "is the server running", "--db"}},
	}
	if base := os.Getenv(pgtest.EnvVar); base != "" {
		cases = append(cases,
			openCase{"wrong password", withURL(t, base, func(u *neturl.URL) { u.User = neturl.UserPassword(u.User.Username(), "s3cret") }),
				ErrConnect, []string{"refused user", "password", "--db"}},
			openCase{"no such database", withURL(t, base, func(u *neturl.URL) { u.Path = "/parley_no_such_db" }),
				ErrConnect, []string{`database "parley_no_such_db" does not exist`, "createdb parley_no_such_db"}},
			openCase{"no such schema", withURL(t, base, func(u *neturl.URL) {
				q := u.Query()
				q.Set("search_path", "parley_no_such_schema")
				u.RawQuery = q.Encode()
			}),
				ErrNoSchema, []string{"parley_no_such_schema", "CREATE SCHEMA"}},
		)
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			s, err := Open(t.Context(), c.url)
			if err == nil {
				s.Close()
				t.Fatal("Open succeeded")
			}
			if c.is != nil && !errors.Is(err, c.is) {
				t.Errorf("err = %v, want %v", err, c.is)
			}
			for _, w := range c.want {
				if !strings.Contains(err.Error(), w) {
					t.Errorf("error %q does not mention %q", err, w)
				}
			}
			if strings.Contains(err.Error(), "s3cret") {
				t.Errorf("error shows the password: %v", err)
			}
		})
	}
}

// withURL is base changed by edit.
func withURL(t *testing.T, base string, edit func(*neturl.URL)) string {
	t.Helper()
	u, err := neturl.Parse(base)
	if err != nil {
		t.Fatal(err)
	}
	edit(u)
	return u.String()
}

// pull ranges over a subscription in a goroutine until the test ends, and
// returns a function that takes the next value, or an error when none comes
// within 20 s (a broken wake-up must fail the test, not hang it).
func pull(t *testing.T, seq iter.Seq2[debate.Event, error]) func() (debate.Event, error) {
	type item struct {
		e   debate.Event
		err error
	}
	ch := make(chan item)
	done := make(chan struct{})
	t.Cleanup(func() { close(done) })
	go func() {
		defer close(ch)
		for e, err := range seq {
			select {
			case ch <- item{e, err}:
			case <-done:
				return
			}
		}
	}()
	return func() (debate.Event, error) {
		select {
		case it, ok := <-ch:
			if !ok {
				return debate.Event{}, errors.New("subscription ended")
			}
			return it.e, it.err
		case <-time.After(20 * time.Second):
			return debate.Event{}, errors.New("subscription yielded nothing within 20s")
		}
	}
}

func TestRedact(t *testing.T) {
	for in, want := range map[string]string{
		"postgres://ann:s3cret@db.example:5432/parley?sslmode=require": "postgres://ann:xxxxx@db.example:5432/parley?sslmode=require",
		"postgresql://ann@db/parley":                                   "postgresql://ann@db/parley",
		"postgres://db/parley?user=ann&password=s3cret":                "postgres://db/parley?password=xxxxx&user=ann",
		"postgres://ann:s3cret@db:5432%zz/parley":                      "postgres://(a URL that does not parse)",
	} {
		if got := Redact(in); got != want {
			t.Errorf("Redact(%q) = %q, want %q", in, got, want)
		}
	}
}

func TestIsURL(t *testing.T) {
	for in, want := range map[string]bool{
		"postgres://localhost/db": true, "postgresql://h/db": true, "POSTGRES://h/db": true,
		"parley.db": false, "/var/lib/parley.db": false, "postgres.db": false, "file:postgres://x": false,
	} {
		if got := IsURL(in); got != want {
			t.Errorf("IsURL(%q) = %v, want %v", in, got, want)
		}
	}
}

// TestNotifyPerAppend: every append sends one notification on the store's
// channel, carrying the debate id, when it commits; a failed append sends
// none. Other processes' live views rely on nothing else.
func TestNotifyPerAppend(t *testing.T) {
	ctx := t.Context()
	url := pgtest.URL(t)
	s := openAt(t, url)
	conn, err := pgx.Connect(ctx, url)
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close(context.Background())
	if _, err := conn.Exec(ctx, `LISTEN `+pgx.Identifier{s.channel}.Sanitize()); err != nil {
		t.Fatal(err)
	}
	t0 := time.Date(2025, 1, 1, 0, 0, 0, 0, time.UTC)
	if _, err := s.Append(ctx, "a", storetest.Event(t, "a", t0, debate.Created{Format: "f", Topic: "t"}), storetest.Event(t, "a", t0, debate.Note{Kind: "k"})); err != nil {
		t.Fatal(err)
	}
	if _, err := s.Append(ctx, "a", storetest.Event(t, "a", t0, debate.Created{Format: "f", Topic: "t"})); !errors.Is(err, debate.ErrExists) {
		t.Fatalf("second created: %v", err)
	}
	if _, err := s.Append(ctx, "b", storetest.Event(t, "b", t0, debate.Created{Format: "f", Topic: "t"})); err != nil {
		t.Fatal(err)
	}
	if _, err := s.Append(ctx, "a", storetest.Event(t, "a", t0, debate.TurnDelta{Turn: "x", Text: "y"})); err != nil {
		t.Fatal(err)
	}
	var got []string
	for range 3 {
		wctx, cancel := context.WithTimeout(ctx, 10*time.Second)
		n, err := conn.WaitForNotification(wctx)
		cancel()
		if err != nil {
			t.Fatalf("after %v: %v", got, err)
		}
		got = append(got, n.Payload)
	}
	if want := []string{"a", "b", "a"}; !cmp.Equal(got, want) {
		t.Errorf("notifications %v, want %v", got, want)
	}
	wctx, cancel := context.WithTimeout(ctx, 200*time.Millisecond)
	defer cancel()
	if n, err := conn.WaitForNotification(wctx); err == nil {
		t.Errorf("an extra notification: %+v", n)
	}
}

// TestCrossStoreWake: two stores on one database, as two processes: a
// subscriber on one is woken by appends through the other, with no polling
// to fall back on (Subscribe polls never).
func TestCrossStoreWake(t *testing.T) {
	ctx := t.Context()
	url := pgtest.URL(t)
	a, b := openAt(t, url), openAt(t, url)
	t0 := time.Date(2025, 1, 1, 0, 0, 0, 0, time.UTC)
	if _, err := a.Append(ctx, "d", storetest.Event(t, "d", t0, debate.Created{Format: "f", Topic: "t"})); err != nil {
		t.Fatal(err)
	}
	sctx, cancel := context.WithCancel(ctx)
	defer cancel()
	next := pull(t, b.Subscribe(sctx, "d", 0))
	if e, err := next(); err != nil || e.Seq != 1 {
		t.Fatalf("replay: %+v %v", e, err)
	}
	for i := 2; i <= 20; i++ {
		if _, err := a.Append(ctx, "d", storetest.Event(t, "d", t0, debate.Note{Kind: "k", Text: fmt.Sprint(i)})); err != nil {
			t.Fatal(err)
		}
		e, err := next()
		if err != nil || e.Seq != int64(i) {
			t.Fatalf("event %d: %+v %v", i, e, err)
		}
	}
}

// TestListenerReconnects: when the LISTEN connection is cut (a server
// restart, a proxy timeout), the store reconnects, and subscribers see
// appends made meanwhile and after.
func TestListenerReconnects(t *testing.T) {
	ctx := t.Context()
	url := pgtest.URL(t)
	a, b := openAt(t, url), openAt(t, url)
	t0 := time.Date(2025, 1, 1, 0, 0, 0, 0, time.UTC)
	if _, err := a.Append(ctx, "d", storetest.Event(t, "d", t0, debate.Created{Format: "f", Topic: "t"})); err != nil {
		t.Fatal(err)
	}
	sctx, cancel := context.WithCancel(ctx)
	defer cancel()
	next := pull(t, b.Subscribe(sctx, "d", 0))
	if _, err := next(); err != nil {
		t.Fatal(err)
	}
	// Cut every connection LISTENing on b's channel (only b's listener).
	var killed int
	if err := a.pool.QueryRow(ctx, `SELECT count(pg_terminate_backend(pid)) FROM pg_stat_activity
		WHERE query = $1`, `LISTEN `+pgx.Identifier{b.channel}.Sanitize()).Scan(&killed); err != nil {
		t.Fatal(err)
	}
	if killed != 1 {
		t.Fatalf("terminated %d listener connections, want 1", killed)
	}
	for i := 2; i <= 4; i++ {
		if _, err := a.Append(ctx, "d", storetest.Event(t, "d", t0, debate.Note{Kind: "k"})); err != nil {
			t.Fatal(err)
		}
		if e, err := next(); err != nil || e.Seq != int64(i) {
			t.Fatalf("event %d after the cut: %+v %v", i, e, err)
		}
	}
}

// TestAppendTx: an append in the caller's transaction is stored, with the
// caller's own writes, if and only if the transaction commits; subscribers
// elsewhere are woken on commit.
func TestAppendTx(t *testing.T) {
	ctx := t.Context()
	url := pgtest.URL(t)
	s, other := openAt(t, url), openAt(t, url)
	// A stand-in for a job queue's table in the same database.
	if _, err := s.Pool().Exec(ctx, `CREATE TABLE jobs (debate_id text NOT NULL, after_seq bigint NOT NULL)`); err != nil {
		t.Fatal(err)
	}
	t0 := time.Date(2025, 1, 1, 0, 0, 0, 0, time.UTC)
	if _, err := s.Append(ctx, "d", storetest.Event(t, "d", t0, debate.Created{Format: "f", Topic: "t"})); err != nil {
		t.Fatal(err)
	}
	sctx, cancel := context.WithCancel(ctx)
	defer cancel()
	next := pull(t, other.Subscribe(sctx, "d", 1))

	appendAndEnqueue := func(commit bool) int64 {
		t.Helper()
		tx, err := s.Pool().Begin(ctx)
		if err != nil {
			t.Fatal(err)
		}
		defer tx.Rollback(ctx)
		last, err := s.AppendTx(ctx, tx, "d", storetest.Event(t, "d", t0, debate.CheckpointAnswered{ID: "c1", Action: debate.ActionContinue}))
		if err != nil {
			t.Fatal(err)
		}
		if _, err := tx.Exec(ctx, `INSERT INTO jobs VALUES ($1, $2)`, "d", last); err != nil {
			t.Fatal(err)
		}
		if commit {
			if err := tx.Commit(ctx); err != nil {
				t.Fatal(err)
			}
		}
		return last
	}
	jobs := func() int {
		var n int
		if err := s.Pool().QueryRow(ctx, `SELECT count(*) FROM jobs`).Scan(&n); err != nil {
			t.Fatal(err)
		}
		return n
	}

	if last := appendAndEnqueue(false); last != 2 {
		t.Fatalf("AppendTx returned %d, want 2", last)
	}
	if evs, err := s.Load(ctx, "d", 0); err != nil || len(evs) != 1 || jobs() != 0 {
		t.Fatalf("after a rollback: %d events (%v), %d jobs; want 1 and 0", len(evs), err, jobs())
	}
	if last := appendAndEnqueue(true); last != 2 {
		t.Fatalf("AppendTx after the rollback returned %d, want 2 (no gap)", last)
	}
	if e, err := next(); err != nil || e.Seq != 2 || e.Type != debate.TypeCheckpointAnswer {
		t.Fatalf("subscriber on another store after the commit: %+v %v", e, err)
	}
	if sum, err := other.Get(ctx, "d"); err != nil || sum.LastSeq != 2 || jobs() != 1 {
		t.Fatalf("after the commit: summary %+v (%v), %d jobs", sum, err, jobs())
	}
	// AppendTx checks as Append does.
	tx, err := s.Pool().Begin(ctx)
	if err != nil {
		t.Fatal(err)
	}
	defer tx.Rollback(ctx)
	if _, err := s.AppendTx(ctx, tx, "nope", storetest.Event(t, "nope", t0, debate.Note{Kind: "k"})); !errors.Is(err, debate.ErrNotFound) {
		t.Errorf("AppendTx to an unknown debate: %v, want ErrNotFound", err)
	}
}

// TestLeaseUsesDatabaseClock: lease times come from the server's clock,
// not the caller's, so that machines whose clocks differ agree on expiry.
func TestLeaseUsesDatabaseClock(t *testing.T) {
	ctx := t.Context()
	s := openAt(t, pgtest.URL(t))
	t0 := time.Date(2025, 1, 1, 0, 0, 0, 0, time.UTC)
	if _, err := s.Append(ctx, "d", storetest.Event(t, "d", t0, debate.Created{Format: "f", Topic: "t"})); err != nil {
		t.Fatal(err)
	}
	// Shift this session's view of time? PostgreSQL has no such knob, so
	// compare with the server's clock read just before and after.
	var before, after time.Time
	if err := s.pool.QueryRow(ctx, `SELECT clock_timestamp()`).Scan(&before); err != nil {
		t.Fatal(err)
	}
	l, err := s.AcquireLease(ctx, "d", debate.LeaseOwner{ID: "r"}, time.Hour, "")
	if err != nil {
		t.Fatal(err)
	}
	if err := s.pool.QueryRow(ctx, `SELECT clock_timestamp()`).Scan(&after); err != nil {
		t.Fatal(err)
	}
	if l.Since.Before(before) || l.Since.After(after) || l.Expires.Sub(l.Since) != time.Hour {
		t.Errorf("lease %v..%v, want since within the server's %v..%v and an hour long", l.Since, l.Expires, before, after)
	}
	sum, err := s.Get(ctx, "d")
	if err != nil || sum.Lease == nil || !sum.Lease.Since.Equal(l.Since) || !sum.Lease.Expires.Equal(l.Expires) {
		t.Errorf("Get reads the lease back as %+v (%v), want %+v", sum.Lease, err, l)
	}
}

// TestSpendMigrations: the latest schema has no turns_spend index; undone
// to the version before the spend columns, the schema is that version's
// (the columns gone, turns_spend back), and it migrates up again.
func TestSpendMigrations(t *testing.T) {
	ctx := t.Context()
	url := pgtest.URL(t)
	s := openAt(t, url)
	index := func() (n int) {
		t.Helper()
		if err := s.pool.QueryRow(ctx, `SELECT count(*) FROM pg_indexes WHERE schemaname = current_schema() AND indexname = 'turns_spend'`).Scan(&n); err != nil {
			t.Fatal(err)
		}
		return n
	}
	columns := func() (n int) {
		t.Helper()
		if err := s.pool.QueryRow(ctx, `SELECT count(*) FROM information_schema.columns
			WHERE table_schema = current_schema() AND table_name = 'debates' AND column_name IN ('llm_turns', 'unpriced_models')`).Scan(&n); err != nil {
			t.Fatal(err)
		}
		return n
	}
	if i, c := index(), columns(); i != 0 || c != 2 {
		t.Fatalf("latest schema: turns_spend %d, spend columns %d; want 0, 2", i, c)
	}
	db, err := sql.Open("pgx", url)
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	p, err := migrator(db)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := p.DownTo(ctx, spendColumnsVersion-1); err != nil {
		t.Fatal(err)
	}
	if i, c := index(), columns(); i != 1 || c != 0 {
		t.Fatalf("schema version %d: turns_spend %d, spend columns %d; want 1, 0", spendColumnsVersion-1, i, c)
	}
	if _, err := p.Up(ctx); err != nil {
		t.Fatal(err)
	}
	if i, c := index(), columns(); i != 0 || c != 2 {
		t.Fatalf("migrated up again: turns_spend %d, spend columns %d; want 0, 2", i, c)
	}
}

// TestSpendBackfillBatches: the backfill fills every debate when there
// are more of them than one of its transactions updates.
func TestSpendBackfillBatches(t *testing.T) {
	url := pgtest.URL(t)
	n := backfillBatch + 3
	debates := make([][]debate.Event, n)
	for i := range debates {
		id := fmt.Sprintf("d%04d", i)
		debates[i] = []debate.Event{
			storetest.Event(t, id, time.Unix(int64(i), 0), debate.Created{Format: "perspectives", Topic: "t"}),
			storetest.Event(t, id, time.Unix(int64(i), 1000), debate.TurnCompleted{Turn: debate.TurnRef{ID: "a", Agent: "pro"}, Text: "a", Model: fmt.Sprintf("vendor/m-%d", i)}),
		}
		for j := range debates[i] {
			debates[i][j].Seq = int64(j + 1)
		}
	}
	seedAt(t, url, spendColumnsVersion-1, debates...)
	s := openAt(t, url)
	list, err := s.List(t.Context(), debate.ListFilter{})
	if err != nil || len(list) != n {
		t.Fatalf("List: %d debates, %v; want %d", len(list), err, n)
	}
	for _, sum := range list {
		var i int
		if _, err := fmt.Sscanf(sum.ID, "d%04d", &i); err != nil {
			t.Fatal(err)
		}
		if want := fmt.Sprintf("vendor/m-%d", i); sum.LLMTurns != 1 || len(sum.Unpriced) != 1 || sum.Unpriced[0] != want {
			t.Errorf("%s: %d LLM turns, unpriced %q; want 1, [%s]", sum.ID, sum.LLMTurns, sum.Unpriced, want)
		}
	}
}

// TestIndexWorkConcurrent holds the migrations after 00003 to the rule for
// index work: CREATE INDEX and DROP INDEX CONCURRENTLY, in a migration
// without a transaction (CONCURRENTLY cannot run in one), so that building
// an index on a large turns table does not stop appends. 00003, older than
// the rule and applied, rebuilt one in a transaction.
func TestIndexWorkConcurrent(t *testing.T) {
	entries, err := migrations.ReadDir("migrations")
	if err != nil {
		t.Fatal(err)
	}
	index := regexp.MustCompile(`(?i)\b(CREATE\s+(UNIQUE\s+)?INDEX|DROP\s+INDEX)\b(\s+CONCURRENTLY)?`)
	for _, e := range entries {
		var version int
		if _, err := fmt.Sscanf(e.Name(), "%05d_", &version); err != nil {
			t.Fatalf("%s: %v", e.Name(), err)
		}
		if version <= 3 {
			continue
		}
		b, err := migrations.ReadFile("migrations/" + e.Name())
		if err != nil {
			t.Fatal(err)
		}
		var sql strings.Builder // the statements, without comments
		for line := range strings.Lines(string(b)) {
			if !strings.HasPrefix(strings.TrimSpace(line), "--") {
				sql.WriteString(line)
			}
		}
		found := index.FindAllStringSubmatch(sql.String(), -1)
		if len(found) > 0 && !strings.Contains(string(b), "-- +goose NO TRANSACTION") {
			t.Errorf("%s works on indexes in a transaction; add -- +goose NO TRANSACTION", e.Name())
		}
		for _, m := range found {
			if m[3] == "" {
				t.Errorf("%s: %q without CONCURRENTLY", e.Name(), m[0])
			}
		}
	}
}

// syncBuffer is a bytes.Buffer for a logger and a test reading it at once.
type syncBuffer struct {
	mu sync.Mutex
	b  bytes.Buffer
}

func (w *syncBuffer) Write(p []byte) (int, error) {
	w.mu.Lock()
	defer w.mu.Unlock()
	return w.b.Write(p)
}

func (w *syncBuffer) String() string {
	w.mu.Lock()
	defer w.mu.Unlock()
	return w.b.String()
}

// TestListenerLossReportedToTheDefaultOfTheMoment: a store opened without
// WithLogger reports a lost LISTEN connection to the default logger of the
// moment it is lost, not of the moment it was opened (the shell routes the
// default logger to its transcript after opening the store; a report to
// the earlier one is drawn over its screen).
func TestListenerLossReportedToTheDefaultOfTheMoment(t *testing.T) {
	ctx := t.Context()
	url := pgtest.URL(t)
	// As in the binary: a default logger of its own when the store opens
	// (standard error), another one after (the shell's transcript).
	was := slog.Default()
	t.Cleanup(func() { slog.SetDefault(was) })
	var early, got syncBuffer
	slog.SetDefault(slog.New(slog.NewTextHandler(&early, nil)))
	a, b := openAt(t, url), openAt(t, url)
	slog.SetDefault(slog.New(slog.NewTextHandler(&got, nil)))
	t0 := time.Date(2025, 1, 1, 0, 0, 0, 0, time.UTC)
	if _, err := a.Append(ctx, "d", storetest.Event(t, "d", t0, debate.Created{Format: "f", Topic: "t"})); err != nil {
		t.Fatal(err)
	}
	sctx, cancel := context.WithCancel(ctx)
	defer cancel()
	next := pull(t, b.Subscribe(sctx, "d", 0))
	if _, err := next(); err != nil {
		t.Fatal(err)
	}
	if _, err := a.pool.Exec(ctx, `SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE query = $1`,
		`LISTEN `+pgx.Identifier{b.channel}.Sanitize()); err != nil {
		t.Fatal(err)
	}
	for deadline := time.Now().Add(10 * time.Second); !strings.Contains(got.String(), "lost the LISTEN connection"); time.Sleep(20 * time.Millisecond) {
		if time.Now().After(deadline) {
			t.Fatalf("the lost LISTEN connection was not reported to the default logger set after Open:\n%s\n(to the one before: %s)", got.String(), early.String())
		}
	}
}
