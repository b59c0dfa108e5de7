// Package sqlite keeps debates in a SQLite database file, through the pure-Go
// modernc.org/sqlite driver (no cgo).
//
// The events table is the source of truth. Each Append also updates, in the
// same transaction, two projections of the log: debates (one row per debate,
// the fields of debate.Summary computed by debate.Project) and turns (one row
// per turn.completed event, for reports and cost accounting). The schema is
// versioned with goose migrations embedded in the binary.
//
// Durability: the database runs in WAL mode with synchronous=FULL, so every
// committed append is fsynced before Append returns, as the debate.Store
// contract requires. synchronous=NORMAL, SQLite's usual WAL setting, survives
// a crash of the process but may lose the last commits on power loss or an OS
// crash; the cost of FULL is measured by BenchmarkAppend.
//
// Streamed text is the exception the contract allows: a batch of only
// turn.delta events is committed through a second connection pool that runs
// with synchronous=NORMAL, without an fsync of its own. It survives a crash
// of the process at once (the WAL is written before the commit returns), and
// power loss from the next ordinary append on: the WAL is one sequential
// file, so that append's fsync covers every frame before it. Deltas are for
// live display and a turn that did not complete is run again anyway; an
// fsync per delta was most of a turn's CPU time.
//
// Concurrency: appends from one Store are serialized by a mutex; appends from
// several processes take SQLite's write lock up front (BEGIN IMMEDIATE) and
// wait for one another up to the busy timeout, which avoids the SQLITE_BUSY
// deadlock of two deferred transactions both upgrading to write. Readers never
// block writers (WAL).
package sqlite

import (
	"context"
	"database/sql"
	"embed"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"iter"
	"net/url"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/pressly/goose/v3"
	sqlitedrv "modernc.org/sqlite" // registers the "sqlite" database/sql driver
	sqlite3 "modernc.org/sqlite/lib"

	"github.com/parleyhq/parley/internal/debate"
	"github.com/parleyhq/parley/internal/store"
	"github.com/parleyhq/parley/internal/store/internal/sqlsum"
	"github.com/parleyhq/parley/internal/textsafe"
)

//go:embed migrations/*.sql
var migrations embed.FS

// ErrSchemaTooNew reports a database written by a newer version of Parley,
// whose schema this build does not know.
var ErrSchemaTooNew = errors.New("database schema is newer than this version of parley")

// Defaults for the options.
const (
	DefaultPollInterval = 200 * time.Millisecond
	DefaultBusyTimeout  = 5 * time.Second
)

// timeLayout stores times as fixed-width UTC text with nanoseconds, so that
// they round-trip exactly, sort correctly as text, and stay readable in the
// sqlite3 shell.
const timeLayout = "2006-01-02T15:04:05.000000000Z"

// Option configures Open.
type Option func(*options)

type options struct {
	poll        time.Duration
	busyTimeout time.Duration
	synchronous string
}

// WithPollInterval sets how often a subscription looks for events appended by
// other processes (default DefaultPollInterval). Appends made through the same
// Store wake subscribers at once whatever this is. Zero or less disables
// polling: subscribers then see only this Store's appends.
func WithPollInterval(d time.Duration) Option {
	return func(o *options) { o.poll = d }
}

// WithBusyTimeout sets how long an operation waits for another process's write
// lock before failing with SQLITE_BUSY (default DefaultBusyTimeout).
func WithBusyTimeout(d time.Duration) Option {
	return func(o *options) { o.busyTimeout = d }
}

// withSynchronous overrides PRAGMA synchronous. It exists for the benchmark
// that measures what FULL costs; NORMAL breaks the durability promise on power
// loss, so it is not offered to callers.
func withSynchronous(mode string) Option {
	return func(o *options) { o.synchronous = mode }
}

// Store is a debate.Store backed by a SQLite database file.
type Store struct {
	db   *sql.DB
	fast *sql.DB // synchronous=NORMAL, for batches of streamed deltas
	// dbStmts and fastStmts are the append's statements, prepared once per
	// pool: parsing the SQL again for every append cost a quarter of it.
	dbStmts, fastStmts *appendStmts
	// loadEvents and anyEvent are Load's statements, prepared once (nil
	// when opened read-only): a runner loads the log's tail at every step
	// to see what other processes appended.
	loadEvents, anyEvent *sql.Stmt
	path                 string
	readOnly             bool // OpenReadOnly: no appends, no leases
	noLeases             bool // an older schema, opened read-only: no leases table
	noCost               bool // an older schema, opened read-only: no cost column
	noSpend              bool // an older schema, opened read-only: no llm_turns, unpriced_models columns
	noPriced             bool // an older schema, opened read-only: no turns.priced column
	poll                 time.Duration
	notify               store.Notifier

	// writeMu serializes this process's appends so that they queue in Go
	// instead of spinning in SQLite's busy handler.
	writeMu sync.Mutex

	closed    atomic.Bool
	closeOnce sync.Once
	closeErr  error
}

var _ debate.Store = (*Store)(nil)

// Open opens the database at path, creating it and its parent directories if
// need be, and migrates its schema to the latest version. A database written
// by a newer Parley fails with ErrSchemaTooNew.
func Open(ctx context.Context, path string, opts ...Option) (*Store, error) {
	o := options{poll: DefaultPollInterval, busyTimeout: DefaultBusyTimeout, synchronous: "FULL"}
	for _, opt := range opts {
		opt(&o)
	}
	if path == "" {
		return nil, errors.New("open parley database: empty path (set one with --db)")
	}
	abs, err := filepath.Abs(path)
	if err != nil {
		return nil, fmt.Errorf("open parley database %s: %w (choose another location with --db)", path, err)
	}
	if err := os.MkdirAll(filepath.Dir(abs), 0o700); err != nil {
		return nil, fmt.Errorf("open parley database %s: create its directory: %w (choose another location with --db)", abs, err)
	}
	if err := checkOurs(ctx, abs, o); err != nil {
		return nil, err
	}
	db, err := sql.Open("sqlite", dsn(abs, o))
	if err != nil {
		return nil, fmt.Errorf("open parley database %s: %w (choose another location with --db)", abs, err)
	}
	// Idle connections are kept so that subscribers polling every few hundred
	// milliseconds do not reopen the file (and rerun the pragmas) each time.
	db.SetMaxIdleConns(4)
	if err := db.PingContext(ctx); err != nil {
		db.Close()
		return nil, openError(abs, err)
	}
	if err := migrate(ctx, db, abs); err != nil {
		db.Close()
		if ro := readOnlyPlace(abs); ro != "" {
			return nil, fmt.Errorf("open parley database %s: %s is read-only: %w; choose a writable location with --db or PARLEY_DB", abs, ro, ErrReadOnly)
		}
		return nil, err
	}
	fo := o
	fo.synchronous = "NORMAL"
	fast, err := sql.Open("sqlite", dsn(abs, fo))
	if err != nil {
		db.Close()
		return nil, fmt.Errorf("open parley database %s: %w (choose another location with --db)", abs, err)
	}
	fast.SetMaxIdleConns(1)
	st := &Store{db: db, fast: fast, path: abs, poll: o.poll}
	if st.dbStmts, err = prepareAppend(ctx, db); err == nil {
		st.fastStmts, err = prepareAppend(ctx, fast)
	}
	if err == nil {
		st.loadEvents, err = db.PrepareContext(ctx, loadEventsSQL)
	}
	if err == nil {
		st.anyEvent, err = db.PrepareContext(ctx, anyEventSQL)
	}
	if err != nil {
		fast.Close()
		db.Close()
		return nil, fmt.Errorf("open parley database %s: %w", abs, err)
	}
	return st, nil
}

// ErrReadOnly reports a database that cannot be written where it is.
var ErrReadOnly = errors.New("the database cannot be written there")

// ErrDiskFull reports an append, or the opening of the database, that
// failed because the disk holding the database is full. Nothing of the
// append was stored.
var ErrDiskFull = errors.New("the disk holding the database is full")

// Explain names the cause of a failed write to the database that SQLite
// reports by code (a full disk, a read-only file) and says what to do; other
// errors are returned as they are. It is for the writes the store does not
// make itself, such as a job queue's in the same file.
func (s *Store) Explain(err error) error { return s.explain(err) }

// explain names the cause of a failed write that SQLite reports by code.
func (s *Store) explain(err error) error {
	var se *sqlitedrv.Error
	if errors.As(err, &se) {
		switch se.Code() & 0xff { // the primary result code
		case sqlite3.SQLITE_FULL:
			return fmt.Errorf("%w (%s): free some space and run the command again (a debate that started goes on with parley debate --resume ID); %w", ErrDiskFull, filepath.Dir(s.path), err)
		case sqlite3.SQLITE_READONLY:
			return fmt.Errorf("%w: %s; %w", ErrReadOnly, s.path, err)
		}
	}
	return err
}

// ErrNoDatabase reports that OpenReadOnly found no database file, or a
// file without Parley's tables.
var ErrNoDatabase = errors.New("no database")

// openError explains a failure to open the database file, naming a
// read-only location rather than SQLite's "unable to open database file".
func openError(abs string, err error) error {
	if full := fullDisk(abs, err); full != nil {
		return full
	}
	if ro := readOnlyPlace(abs); ro != "" {
		return fmt.Errorf("open parley database %s: %s is read-only: %w; choose a writable location with --db or PARLEY_DB", abs, ro, ErrReadOnly)
	}
	return fmt.Errorf("open parley database %s: %w (choose another location with --db)", abs, err)
}

// fullDisk explains a failure to open the database at abs as a full disk
// when the file system holding it has no space left, nil otherwise: SQLite
// answers "disk I/O error (4874)" when it cannot grow the shared-memory
// file (-shm) that a database in WAL mode needs, even to be read.
func fullDisk(abs string, err error) error {
	dir := filepath.Dir(abs)
	if !noSpace(dir) {
		return nil
	}
	return fmt.Errorf("open parley database %s: %w (%s): free some space and run the command again; %w", abs, ErrDiskFull, dir, err)
}

// readOnlyPlace names the database file or its directory when the process
// cannot write it, "" otherwise. SQLite in WAL mode needs to write both.
func readOnlyPlace(abs string) string {
	if !writable(filepath.Dir(abs)) {
		return "its directory " + filepath.Dir(abs)
	}
	if _, err := os.Stat(abs); err == nil && !writable(abs) {
		return "the file"
	}
	return ""
}

// OpenReadOnly opens an existing database for reading: list, show and
// export. It creates no file and no directory and runs no migration; a
// missing file is ErrNoDatabase. A database in a place this process cannot
// write (a read-only directory, a file of another user) opens too, as an
// immutable snapshot. Appends and leases fail.
func OpenReadOnly(ctx context.Context, path string, opts ...Option) (*Store, error) {
	o := options{poll: DefaultPollInterval, busyTimeout: DefaultBusyTimeout}
	for _, opt := range opts {
		opt(&o)
	}
	abs, err := filepath.Abs(path)
	if err != nil {
		return nil, fmt.Errorf("open parley database %s: %w", path, err)
	}
	if _, err := os.Stat(abs); err != nil {
		if errors.Is(err, fs.ErrNotExist) {
			return nil, fmt.Errorf("open parley database %s: %w", abs, ErrNoDatabase)
		}
		return nil, fmt.Errorf("open parley database %s: %w", abs, err)
	}
	immutable := readOnlyPlace(abs) != ""
	db, err := sql.Open("sqlite", roDSN(abs, o, immutable))
	if err != nil {
		return nil, fmt.Errorf("open parley database %s: %w", abs, err)
	}
	db.SetMaxIdleConns(2)
	var tables int
	if err := db.QueryRowContext(ctx, `SELECT count(*) FROM sqlite_master WHERE type = 'table' AND name = 'debates'`).Scan(&tables); err != nil {
		db.Close()
		if full := fullDisk(abs, err); full != nil {
			return nil, full
		}
		return nil, fmt.Errorf("open parley database %s: %w", abs, err)
	}
	if tables == 0 {
		db.Close()
		// Another program's database, or an empty file: no Parley
		// database is there, as a PostgreSQL schema without Parley's
		// tables is none (an untyped error ended 'parley list --db' on
		// the wrong file with exit 1 and no advice).
		return nil, fmt.Errorf("open parley database %s: %w (the file has no debates table)", abs, ErrNoDatabase)
	}
	var leases, cost, spend, priced int
	_ = db.QueryRowContext(ctx, `SELECT count(*) FROM sqlite_master WHERE type = 'table' AND name = 'leases'`).Scan(&leases)
	_ = db.QueryRowContext(ctx, `SELECT count(*) FROM pragma_table_info('debates') WHERE name = 'cost_usd'`).Scan(&cost)
	_ = db.QueryRowContext(ctx, `SELECT count(*) FROM pragma_table_info('debates') WHERE name = 'llm_turns'`).Scan(&spend)
	_ = db.QueryRowContext(ctx, `SELECT count(*) FROM pragma_table_info('turns') WHERE name = 'priced'`).Scan(&priced)
	return &Store{db: db, fast: db, path: abs, poll: o.poll, readOnly: true,
		noLeases: leases == 0, noCost: cost == 0, noSpend: spend == 0, noPriced: priced == 0}, nil
}

// roDSN is dsn for a read-only connection.
func roDSN(path string, o options, immutable bool) string {
	u := url.URL{Scheme: "file", Path: filepath.ToSlash(path)}
	if !strings.HasPrefix(u.Path, "/") {
		u.Path = "/" + u.Path
	}
	q := url.Values{}
	q.Set("mode", "ro")
	if immutable {
		q.Set("immutable", "1")
	}
	q.Add("_pragma", "busy_timeout("+strconv.FormatInt(o.busyTimeout.Milliseconds(), 10)+")")
	return u.String() + "?" + q.Encode()
}

// appendStmts are the statements an append runs.
type appendStmts struct {
	getSummary, insertEvent, insertTurn, putSummary *sql.Stmt
}

func prepareAppend(ctx context.Context, db *sql.DB) (*appendStmts, error) {
	var st appendStmts
	for _, p := range []struct {
		dst **sql.Stmt
		sql string
	}{
		{&st.getSummary, `SELECT ` + summaryColumns + ` FROM debates WHERE id = ?`},
		{&st.insertEvent, `INSERT INTO events (debate_id, seq, time, type, data) VALUES (?, ?, ?, ?, ?)`},
		{&st.insertTurn, `INSERT INTO turns (debate_id, seq, time, turn_id, agent, role, label, phase, round,
		text, move, invalid, model, input_tokens, output_tokens, cache_read_tokens, cache_write_tokens, cost_usd, priced)
		VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`},
		{&st.putSummary, `INSERT INTO debates (` + summaryColumns + `) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?) ` + sqlsum.OnConflict},
	} {
		stmt, err := db.PrepareContext(ctx, p.sql)
		if err != nil {
			return nil, fmt.Errorf("prepare: %w", err)
		}
		*p.dst = stmt
	}
	return &st, nil
}

// dsn builds the driver's connection string. The path goes in a file: URI,
// percent-encoded, so that file names containing '?' or '#' work; the pragmas
// run on every new connection of the pool.
func dsn(path string, o options) string {
	u := url.URL{Scheme: "file", Path: filepath.ToSlash(path)}
	if !strings.HasPrefix(u.Path, "/") {
		u.Path = "/" + u.Path // Windows: file:///C:/...
	}
	q := url.Values{}
	q.Set("_txlock", "immediate")
	q.Add("_pragma", "busy_timeout("+strconv.FormatInt(o.busyTimeout.Milliseconds(), 10)+")")
	q.Add("_pragma", "foreign_keys(1)")
	q.Add("_pragma", "journal_mode(WAL)")
	q.Add("_pragma", "synchronous("+o.synchronous+")")
	return u.String() + "?" + q.Encode()
}

// migrator is the goose provider of the schema's migrations: the SQL files
// of migrations/ and those in Go (spendMigration).
func migrator(db *sql.DB) (*goose.Provider, error) {
	fsys, err := fs.Sub(migrations, "migrations")
	if err != nil {
		return nil, err
	}
	return goose.NewProvider(goose.DialectSQLite3, db, fsys,
		goose.WithDisableGlobalRegistry(true), // no package state shared with other goose users
		goose.WithLogger(goose.NopLogger()),
		goose.WithGoMigrations(spendMigration()),
	)
}

// migrate brings the schema to the latest embedded version.
func migrate(ctx context.Context, db *sql.DB, path string) error {
	p, err := migrator(db)
	if err != nil {
		return fmt.Errorf("migrate parley database %s: %w", path, err)
	}
	current, target, err := p.GetVersions(ctx)
	if err != nil {
		return fmt.Errorf("read schema version of parley database %s: %w (is it a parley database? choose another with --db)", path, err)
	}
	if current > target {
		return fmt.Errorf("parley database %s has schema version %d, this parley knows up to %d: %w; upgrade parley, or choose another database with --db",
			path, current, target, ErrSchemaTooNew)
	}
	if current == target {
		return nil
	}
	if _, err := p.Up(ctx); err != nil {
		// Two processes opening a new database at once both try to migrate;
		// the loser's transaction rolls back whole, and it finds the schema
		// already current.
		if now, _, verr := p.GetVersions(ctx); verr == nil && now == target {
			return nil
		}
		return fmt.Errorf("migrate parley database %s from schema version %d to %d: %w", path, current, target, err)
	}
	return nil
}

// ErrNotParley reports a database file that holds another program's
// tables and none of Parley's.
var ErrNotParley = errors.New("another program's database")

// checkOurs refuses a file that holds tables and none of Parley's (another
// program's SQLite database, given by mistake to --db): creating Parley's
// tables there would write into a file that is not Parley's to change. An
// empty file, or one with no tables, becomes a Parley database. It reads
// the file read-only, before Open's connections set their pragmas (WAL
// mode is written to the file's header).
func checkOurs(ctx context.Context, path string, o options) error {
	if fi, err := os.Stat(path); err != nil || fi.Size() == 0 {
		return nil // none yet, or empty: Open creates it, or says why not
	}
	// A file it cannot read here (not SQLite, a full disk, another
	// user's) is left to Open, whose errors say why and what to do.
	db, err := sql.Open("sqlite", roDSN(path, o, false))
	if err != nil {
		return nil
	}
	defer db.Close()
	rows, err := db.QueryContext(ctx, `SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite\_%' ESCAPE '\' ORDER BY name`)
	if err != nil {
		return nil
	}
	defer rows.Close()
	var others []string
	for rows.Next() {
		var name string
		if err := rows.Scan(&name); err != nil {
			return nil
		}
		if name == "debates" || name == "events" {
			return nil // Parley's, at some schema version
		}
		others = append(others, name)
	}
	if rows.Err() != nil || len(others) == 0 {
		return nil
	}
	shown := others
	if len(shown) > 5 {
		shown = append(shown[:5:5], "…")
	}
	return fmt.Errorf("open parley database %s: %w (its tables: %s), not one of Parley's: nothing was written to it; choose another file with --db or PARLEY_DB",
		path, ErrNotParley, textsafe.Clean(strings.Join(shown, ", ")))
}

// Path returns the absolute path of the database file.
func (s *Store) Path() string { return s.path }

// Close implements debate.Store. It ends the subscriptions; closing twice is
// harmless.
func (s *Store) Close() error {
	s.closeOnce.Do(func() {
		s.closed.Store(true)
		s.notify.Close()
		fastErr := error(nil)
		if s.fast != s.db {
			fastErr = s.fast.Close()
		}
		if err := errors.Join(fastErr, s.db.Close()); err != nil {
			s.closeErr = fmt.Errorf("close parley database %s: %w", s.path, err)
		}
	})
	return s.closeErr
}

func (s *Store) checkOpen() error {
	if s.closed.Load() {
		return store.ErrClosed
	}
	return nil
}

// Append implements debate.Store.
func (s *Store) Append(ctx context.Context, debateID string, events ...debate.Event) (int64, error) {
	payloads, err := store.ValidateDecoded(debateID, events)
	if err != nil {
		return 0, err
	}
	if err := s.checkOpen(); err != nil {
		return 0, fmt.Errorf("append to debate %q: %w", debateID, err)
	}
	if s.readOnly {
		return 0, fmt.Errorf("append to debate %q: the database %s was opened read-only", debateID, s.path)
	}
	s.writeMu.Lock()
	defer s.writeMu.Unlock()
	last, err := s.append(ctx, debateID, events, payloads)
	if err != nil {
		return 0, s.explain(err)
	}
	if len(events) > 0 {
		s.notify.Notify(debateID)
	}
	return last, nil
}

func (s *Store) append(ctx context.Context, debateID string, events []debate.Event, payloads []debate.Payload) (int64, error) {
	db, stmts := s.db, s.dbStmts
	if store.OnlyDeltas(events) {
		db, stmts = s.fast, s.fastStmts
	}
	tx, err := db.BeginTx(ctx, nil) // BEGIN IMMEDIATE, from the DSN
	if err != nil {
		return 0, fmt.Errorf("append to debate %q: begin: %w", debateID, err)
	}
	defer tx.Rollback() // no-op after Commit
	last, err := appendIn(ctx, tx, stmts, debateID, events, payloads)
	if err != nil {
		return 0, err
	}
	if err := tx.Commit(); err != nil {
		return 0, fmt.Errorf("append to debate %q: commit: %w", debateID, err)
	}
	return last, nil
}

// DB is the database the store writes to, for a job queue in the same file
// (River's SQLite driver) and for AppendTx's transactions. Its transactions
// begin IMMEDIATE: they take the write lock up front.
func (s *Store) DB() *sql.DB { return s.db }

// AppendTx appends events to a debate within tx, a transaction the caller
// began on DB and will commit or roll back: the events are stored if and only
// if tx commits, together with whatever else tx wrote. This is how a job
// queue in the same database file enqueues the next run of a debate in the
// same transaction as the event that calls for it (a checkpoint's answer), so
// that the log stays the single source of truth.
//
// It obeys the rules of Append and returns the last sequence number tx will
// have stored. The caller's transaction holds the database's write lock
// until it ends, so other appends wait for it: keep tx short. Subscribers of
// this store see the events at their next poll, once tx has committed.
func (s *Store) AppendTx(ctx context.Context, tx *sql.Tx, debateID string, events ...debate.Event) (int64, error) {
	payloads, err := store.ValidateDecoded(debateID, events)
	if err != nil {
		return 0, err
	}
	if err := s.checkOpen(); err != nil {
		return 0, fmt.Errorf("append to debate %q: %w", debateID, err)
	}
	if s.readOnly {
		return 0, fmt.Errorf("append to debate %q: the database %s was opened read-only", debateID, s.path)
	}
	last, err := appendIn(ctx, tx, s.dbStmts, debateID, events, payloads)
	if err != nil {
		return 0, s.explain(err)
	}
	return last, nil
}

// appendIn appends within tx, which holds the write lock. payloads are the
// events' payloads store.ValidateDecoded decoded.
func appendIn(ctx context.Context, tx *sql.Tx, stmts *appendStmts, debateID string, events []debate.Event, payloads []debate.Payload) (int64, error) {
	sum, err := scanSummary(tx.StmtContext(ctx, stmts.getSummary).QueryRowContext(ctx, debateID))
	if errors.Is(err, sql.ErrNoRows) {
		err = debate.ErrNotFound
	} else if err != nil {
		err = fmt.Errorf("read summary: %w", err)
	}
	exists := err == nil
	if err != nil && !errors.Is(err, debate.ErrNotFound) {
		return 0, fmt.Errorf("append to debate %q: %w", debateID, err)
	}
	if err := store.CheckCreated(debateID, exists, events); err != nil {
		return 0, err
	}
	if len(events) == 0 {
		if !exists {
			return 0, fmt.Errorf("append to debate %q: %w", debateID, debate.ErrNotFound)
		}
		return sum.LastSeq, nil
	}

	insertEvent := tx.StmtContext(ctx, stmts.insertEvent)
	for i, e := range store.Prepare(debateID, sum.LastSeq, events) {
		ts := e.Time.Format(timeLayout)
		// Data goes in as TEXT (not a BLOB) so that SQLite's JSON functions
		// and the shell read it; SQLite keeps the bytes as given.
		if _, err := insertEvent.ExecContext(ctx, debateID, e.Seq, ts, e.Type, string(e.Data)); err != nil {
			return 0, fmt.Errorf("append to debate %q: insert event %d (%s): %w", debateID, e.Seq, e.Type, err)
		}
		if tc, ok := payloads[i].(*debate.TurnCompleted); ok {
			if err := insertTurn(ctx, tx.StmtContext(ctx, stmts.insertTurn), e, tc, ts); err != nil {
				return 0, fmt.Errorf("append to debate %q: %w", debateID, err)
			}
		}
		debate.ProjectDecoded(&sum, e, payloads[i])
	}
	if err := putSummary(ctx, tx.StmtContext(ctx, stmts.putSummary), sum); err != nil {
		return 0, fmt.Errorf("append to debate %q: %w", debateID, err)
	}
	return sum.LastSeq, nil
}

func insertTurn(ctx context.Context, stmt *sql.Stmt, e debate.Event, tc *debate.TurnCompleted, ts string) error {
	var move any // NULL when the turn has no parsed move
	if len(tc.Move) > 0 {
		move = string(tc.Move)
	}
	_, err := stmt.ExecContext(ctx, e.Debate, e.Seq, ts, tc.Turn.ID, tc.Turn.Agent, tc.Turn.Role, tc.Turn.Label, tc.Turn.Phase, tc.Turn.Round,
		tc.Text, move, tc.Invalid, tc.Model, tc.Usage.InputTokens, tc.Usage.OutputTokens,
		tc.Usage.CacheReadTokens, tc.Usage.CacheWriteTokens, tc.CostUSD, tc.Priced)
	if err != nil {
		return fmt.Errorf("insert turn %q (event %d): %w", tc.Turn.ID, e.Seq, err)
	}
	return nil
}

// querier is what *sql.DB and *sql.Tx share.
type querier interface {
	QueryContext(ctx context.Context, query string, args ...any) (*sql.Rows, error)
	QueryRowContext(ctx context.Context, query string, args ...any) *sql.Row
}

const summaryColumns = sqlsum.Columns

func scanSummary(sc interface{ Scan(...any) error }) (debate.Summary, error) {
	var (
		sum              debate.Summary
		created, updated string
		unpriced         []byte
	)
	if err := sc.Scan(&sum.ID, &sum.Format, &sum.Topic, &sum.Status, &sum.Phase, &sum.Round, &sum.Turns,
		&created, &updated, &sum.LastSeq, &sum.CostUSD, &sum.LLMTurns, &unpriced); err != nil {
		return debate.Summary{}, err
	}
	var err error
	if sum.Unpriced, err = sqlsum.DecodeUnpriced(unpriced); err != nil {
		return debate.Summary{}, err
	}
	if sum.Created, err = parseTime(created); err != nil {
		return debate.Summary{}, err
	}
	if sum.Updated, err = parseTime(updated); err != nil {
		return debate.Summary{}, err
	}
	return sum, nil
}

func getSummary(ctx context.Context, q querier, debateID string) (debate.Summary, error) {
	row := q.QueryRowContext(ctx, `SELECT `+summaryColumns+` FROM debates WHERE id = ?`, debateID)
	sum, err := scanSummary(row)
	if errors.Is(err, sql.ErrNoRows) {
		return debate.Summary{}, debate.ErrNotFound
	}
	if err != nil {
		return debate.Summary{}, fmt.Errorf("read summary: %w", err)
	}
	return sum, nil
}

func putSummary(ctx context.Context, stmt *sql.Stmt, s debate.Summary) error {
	_, err := stmt.ExecContext(ctx, s.ID, s.Format, s.Topic, string(s.Status), s.Phase, s.Round, s.Turns,
		s.Created.UTC().Format(timeLayout), s.Updated.UTC().Format(timeLayout), s.LastSeq, s.CostUSD,
		s.LLMTurns, string(sqlsum.EncodeUnpriced(s.Unpriced)))
	if err != nil {
		return fmt.Errorf("write summary: %w", err)
	}
	return nil
}

func parseTime(s string) (time.Time, error) {
	t, err := time.Parse(timeLayout, s)
	if err != nil {
		return time.Time{}, fmt.Errorf("stored time %q: %w", s, err)
	}
	return t, nil
}

// Load's statements.
const (
	loadEventsSQL = `SELECT seq, time, type, data FROM events WHERE debate_id = ? AND seq > ? ORDER BY seq LIMIT ?`
	anyEventSQL   = `SELECT 1 FROM events WHERE debate_id = ? LIMIT 1`
)

// Load implements debate.Store.
func (s *Store) Load(ctx context.Context, debateID string, afterSeq int64) ([]debate.Event, error) {
	return s.LoadN(ctx, debateID, afterSeq, 0)
}

// LoadN implements debate.Store.
func (s *Store) LoadN(ctx context.Context, debateID string, afterSeq int64, n int) ([]debate.Event, error) {
	if err := s.checkOpen(); err != nil {
		return nil, fmt.Errorf("load debate %q: %w", debateID, err)
	}
	if !debate.ValidID(debateID) {
		return nil, debate.NoSuchID("load debate", debateID)
	}
	limit := int64(n)
	if n <= 0 {
		limit = -1 // SQLite: no limit
	}
	var rows *sql.Rows
	var err error
	if s.loadEvents != nil {
		rows, err = s.loadEvents.QueryContext(ctx, debateID, afterSeq, limit)
	} else {
		rows, err = s.db.QueryContext(ctx, loadEventsSQL, debateID, afterSeq, limit)
	}
	if err != nil {
		return nil, fmt.Errorf("load debate %q: %w", debateID, err)
	}
	defer rows.Close()
	var out []debate.Event
	for rows.Next() {
		e := debate.Event{Debate: debateID}
		var ts string
		if err := rows.Scan(&e.Seq, &ts, &e.Type, (*[]byte)(&e.Data)); err != nil {
			return nil, fmt.Errorf("load debate %q: %w", debateID, err)
		}
		if e.Time, err = parseTime(ts); err != nil {
			return nil, fmt.Errorf("load debate %q event %d: %w", debateID, e.Seq, err)
		}
		out = append(out, e)
	}
	if err := rows.Err(); err != nil {
		return nil, fmt.Errorf("load debate %q: %w", debateID, err)
	}
	if len(out) == 0 {
		// Nothing after afterSeq: tell an unknown debate from a quiet one.
		var one int
		var row *sql.Row
		if s.anyEvent != nil {
			row = s.anyEvent.QueryRowContext(ctx, debateID)
		} else {
			row = s.db.QueryRowContext(ctx, anyEventSQL, debateID)
		}
		err := row.Scan(&one)
		if errors.Is(err, sql.ErrNoRows) {
			return nil, fmt.Errorf("load debate %q: %w", debateID, debate.ErrNotFound)
		}
		if err != nil {
			return nil, fmt.Errorf("load debate %q: %w", debateID, err)
		}
	}
	return out, nil
}

// Subscribe implements debate.Store. Appends through this Store wake the
// subscription at once; appends by other processes are found by polling every
// poll interval (see WithPollInterval).
func (s *Store) Subscribe(ctx context.Context, debateID string, afterSeq int64) iter.Seq2[debate.Event, error] {
	return store.Follow(ctx, s.Load, &s.notify, debateID, afterSeq, s.poll)
}

// Get implements debate.Store.
func (s *Store) Get(ctx context.Context, debateID string) (debate.Summary, error) {
	if err := s.checkOpen(); err != nil {
		return debate.Summary{}, fmt.Errorf("get debate %q: %w", debateID, err)
	}
	if !debate.ValidID(debateID) {
		return debate.Summary{}, debate.NoSuchID("get debate", debateID)
	}
	row := s.db.QueryRowContext(ctx, s.summarySelect()+` WHERE id = ?`, debateID)
	sum, err := scanLeased(row)
	if errors.Is(err, sql.ErrNoRows) {
		err = debate.ErrNotFound
	}
	if err == nil && s.noSpend {
		sums := []debate.Summary{sum}
		err = s.legacySpend(ctx, sums)
		sum = sums[0]
	}
	if err != nil {
		return debate.Summary{}, fmt.Errorf("get debate %q: %w", debateID, err)
	}
	return sum, nil
}

// summarySelect selects summaryColumns and the debate's lease (NULL when
// none) from debates. A schema older than some columns, opened read-only
// and so not migrated, reads them as their migration would fill them; see
// legacySpend for llm_turns and unpriced_models.
func (s *Store) summarySelect() string {
	cols := summaryColumns
	if s.noCost {
		// As the migration that adds the column fills it: the sum of
		// the costs the turns recorded. Read as 0, a debate that cost
		// dollars was listed as $0.0000.
		cols = strings.Replace(cols, "cost_usd", "COALESCE((SELECT SUM(t.cost_usd) FROM turns t WHERE t.debate_id = debates.id), 0)", 1)
	}
	if s.noSpend {
		cols = strings.Replace(cols, "llm_turns, unpriced_models", "0, '[]'", 1)
	}
	if s.noLeases {
		return `SELECT ` + cols + `, NULL FROM debates`
	}
	return `SELECT ` + cols + `, lease FROM debates LEFT JOIN leases ON debate_id = id`
}

// legacySpend fills the LLM turns and unpriced models of summaries read
// from a schema without those columns (opened read-only, so not migrated),
// as the migration that adds them would: one pass over the turns
// projection. Such a schema lasts until the next command that writes.
func (s *Store) legacySpend(ctx context.Context, sums []debate.Summary) error {
	spends, err := sqlsum.Spends(ctx, s.db, !s.noPriced)
	if err != nil {
		return err
	}
	for i := range sums {
		if sp := spends[sums[i].ID]; sp != nil {
			sums[i].LLMTurns, sums[i].Unpriced = sp.LLMTurns, sp.Unpriced
		}
	}
	return nil
}

// scanLeased scans summaryColumns and a lease column that may be NULL.
func scanLeased(sc interface{ Scan(...any) error }) (debate.Summary, error) {
	var lease sql.NullString
	sum, err := scanSummary(sqlsum.ScanFunc(func(dest ...any) error { return sc.Scan(append(dest, &lease)...) }))
	if err != nil {
		return sum, err
	}
	if lease.Valid {
		var l debate.Lease
		if err := json.Unmarshal([]byte(lease.String), &l); err != nil {
			return sum, fmt.Errorf("read lease: %w", err)
		}
		sum.Lease = &l
	}
	return sum, nil
}

// AcquireLease implements debate.Store.
func (s *Store) AcquireLease(ctx context.Context, debateID string, owner debate.LeaseOwner, ttl time.Duration, steal string) (debate.Lease, error) {
	var l debate.Lease
	err := s.leaseTx(ctx, debateID, func(tx *sql.Tx, held *debate.Lease) error {
		var err error
		if l, err = store.Grant(debateID, held, owner, ttl, steal, time.Now()); err != nil {
			return err
		}
		return putLease(ctx, tx, debateID, l)
	})
	return l, err
}

// RenewLease implements debate.Store.
func (s *Store) RenewLease(ctx context.Context, debateID, ownerID string, ttl time.Duration) (debate.Lease, error) {
	var l debate.Lease
	err := s.leaseTx(ctx, debateID, func(tx *sql.Tx, held *debate.Lease) error {
		var err error
		if l, err = store.Renew(held, ownerID, ttl, time.Now()); err != nil {
			return err
		}
		return putLease(ctx, tx, debateID, l)
	})
	return l, err
}

// Delete implements debate.Store.
func (s *Store) Delete(ctx context.Context, debateID string) error {
	err := s.leaseTx(ctx, debateID, func(tx *sql.Tx, _ *debate.Lease) error {
		for _, q := range []string{`DELETE FROM leases WHERE debate_id = ?`, `DELETE FROM turns WHERE debate_id = ?`,
			`DELETE FROM events WHERE debate_id = ?`, `DELETE FROM debates WHERE id = ?`} {
			if _, err := tx.ExecContext(ctx, q, debateID); err != nil {
				return fmt.Errorf("delete debate %q: %w", debateID, err)
			}
		}
		return nil
	})
	if err == nil {
		s.notify.Notify(debateID)
	}
	return err
}

// ReleaseLease implements debate.Store.
func (s *Store) ReleaseLease(ctx context.Context, debateID, ownerID string) error {
	return s.leaseTx(ctx, debateID, func(tx *sql.Tx, held *debate.Lease) error {
		if held == nil || held.Owner.ID != ownerID {
			return nil
		}
		_, err := tx.ExecContext(ctx, `DELETE FROM leases WHERE debate_id = ?`, debateID)
		return err
	})
}

// leaseTx runs fn in a write transaction with the debate's current lease
// (nil when none); the debate must exist.
func (s *Store) leaseTx(ctx context.Context, debateID string, fn func(tx *sql.Tx, held *debate.Lease) error) error {
	if err := s.checkOpen(); err != nil {
		return fmt.Errorf("lease of debate %q: %w", debateID, err)
	}
	if !debate.ValidID(debateID) {
		return debate.NoSuchID("lease of debate", debateID)
	}
	if s.readOnly {
		return fmt.Errorf("lease of debate %q: the database %s was opened read-only", debateID, s.path)
	}
	s.writeMu.Lock()
	defer s.writeMu.Unlock()
	tx, err := s.db.BeginTx(ctx, nil) // BEGIN IMMEDIATE: the write lock up front
	if err != nil {
		return fmt.Errorf("lease of debate %q: begin: %w", debateID, err)
	}
	defer tx.Rollback()
	var exists int
	var lease sql.NullString
	err = tx.QueryRowContext(ctx, `SELECT 1, lease FROM debates LEFT JOIN leases ON debate_id = id WHERE id = ?`, debateID).Scan(&exists, &lease)
	if errors.Is(err, sql.ErrNoRows) {
		return fmt.Errorf("lease of debate %q: %w", debateID, debate.ErrNotFound)
	}
	if err != nil {
		return fmt.Errorf("lease of debate %q: %w", debateID, err)
	}
	var held *debate.Lease
	if lease.Valid {
		held = &debate.Lease{}
		if err := json.Unmarshal([]byte(lease.String), held); err != nil {
			return fmt.Errorf("lease of debate %q: read lease: %w", debateID, err)
		}
	}
	// A full disk or a read-only file is said as an append says it: with
	// what to do. SQLite's "database or disk is full (13)" alone says not
	// where, nor that a resume goes on once space is freed.
	if err := fn(tx, held); err != nil {
		return s.explain(err)
	}
	if err := tx.Commit(); err != nil {
		return s.explain(fmt.Errorf("lease of debate %q: commit: %w", debateID, err))
	}
	return nil
}

func putLease(ctx context.Context, tx *sql.Tx, debateID string, l debate.Lease) error {
	b, err := json.Marshal(l)
	if err != nil {
		return err
	}
	_, err = tx.ExecContext(ctx, `INSERT INTO leases (debate_id, lease) VALUES (?, ?)
		ON CONFLICT (debate_id) DO UPDATE SET lease = excluded.lease`, debateID, string(b))
	if err != nil {
		return fmt.Errorf("write lease of debate %q: %w", debateID, err)
	}
	return nil
}

// List implements debate.Store.
func (s *Store) List(ctx context.Context, f debate.ListFilter) ([]debate.Summary, error) {
	if err := s.checkOpen(); err != nil {
		return nil, fmt.Errorf("list debates: %w", err)
	}
	clauses, args := sqlsum.ListClauses(f, func(int) string { return "?" }, "id",
		func(t time.Time) any { return t.UTC().Format(timeLayout) })
	rows, err := s.db.QueryContext(ctx, s.summarySelect()+clauses, args...)
	if err != nil {
		return nil, fmt.Errorf("list debates: %w", err)
	}
	defer rows.Close()
	var out []debate.Summary
	for rows.Next() {
		sum, err := scanLeased(rows)
		if err != nil {
			return nil, fmt.Errorf("list debates: %w", err)
		}
		out = append(out, sum)
	}
	if err := rows.Err(); err != nil {
		return nil, fmt.Errorf("list debates: %w", err)
	}
	if s.noSpend && len(out) > 0 {
		if err := s.legacySpend(ctx, out); err != nil {
			return nil, fmt.Errorf("list debates: %w", err)
		}
	}
	return out, nil
}

// Count implements debate.Store. Text compares in byte order in SQLite
// (the BINARY collation), as the contract orders the groups.
func (s *Store) Count(ctx context.Context) ([]debate.Count, error) {
	if err := s.checkOpen(); err != nil {
		return nil, fmt.Errorf("count debates: %w", err)
	}
	q := sqlsum.CountQuery("status", "format")
	if s.noCost {
		q = strings.Replace(q, "sum(cost_usd)", "sum(0.0)", 1)
	}
	rows, err := s.db.QueryContext(ctx, q)
	if err != nil {
		return nil, fmt.Errorf("count debates: %w", err)
	}
	defer rows.Close()
	return sqlsum.ScanCounts(rows.Next, rows.Scan, rows.Err)
}

// Turn is one row of the turns projection: a completed turn of a debate.
// Both SQL stores keep the same columns, so the row is one type, sqlsum's.
type Turn = sqlsum.Turn

// Turns returns the completed turns of a debate in log order, from the turns
// projection. An unknown debate is debate.ErrNotFound.
func (s *Store) Turns(ctx context.Context, debateID string) ([]Turn, error) {
	if err := s.checkOpen(); err != nil {
		return nil, fmt.Errorf("turns of debate %q: %w", debateID, err)
	}
	if !debate.ValidID(debateID) {
		return nil, debate.NoSuchID("turns of debate", debateID)
	}
	if _, err := getSummary(ctx, s.db, debateID); err != nil {
		return nil, fmt.Errorf("turns of debate %q: %w", debateID, err)
	}
	rows, err := s.db.QueryContext(ctx, `SELECT seq, time, turn_id, agent, role, label, phase, round, text, move, invalid,
		model, input_tokens, output_tokens, cache_read_tokens, cache_write_tokens, cost_usd
		FROM turns WHERE debate_id = ? ORDER BY seq`, debateID)
	if err != nil {
		return nil, fmt.Errorf("turns of debate %q: %w", debateID, err)
	}
	defer rows.Close()
	var out []Turn
	for rows.Next() {
		t := Turn{Debate: debateID}
		var (
			ts   string
			move sql.NullString
		)
		if err := rows.Scan(&t.Seq, &ts, &t.Ref.ID, &t.Ref.Agent, &t.Ref.Role, &t.Ref.Label, &t.Ref.Phase, &t.Ref.Round,
			&t.Text, &move, &t.Invalid, &t.Model, &t.Usage.InputTokens, &t.Usage.OutputTokens,
			&t.Usage.CacheReadTokens, &t.Usage.CacheWriteTokens, &t.CostUSD); err != nil {
			return nil, fmt.Errorf("turns of debate %q: %w", debateID, err)
		}
		if t.Time, err = parseTime(ts); err != nil {
			return nil, fmt.Errorf("turns of debate %q: %w", debateID, err)
		}
		if move.Valid {
			t.Move = json.RawMessage(move.String)
		}
		out = append(out, t)
	}
	if err := rows.Err(); err != nil {
		return nil, fmt.Errorf("turns of debate %q: %w", debateID, err)
	}
	return out, nil
}
