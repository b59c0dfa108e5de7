// Package postgres keeps debates in a PostgreSQL database, through pgx v5
// (pgxpool), for several processes on several machines sharing one log.
//
// The tables are those of the sqlite store: events is the source of truth;
// debates (debate.Summary, computed by debate.Project), turns (one row per
// turn.completed) and leases are written in the same transaction as each
// append or lease change. The schema is versioned with goose migrations
// embedded in the binary, in the table parley_goose_db_version, and lives in
// the first schema of the connection's search_path (public unless the URL
// says ?search_path=NAME), so that one database can hold several Parley
// stores, or Parley beside other applications.
//
// Ordering: an append locks its debate's row in debates (SELECT ... FOR
// UPDATE) before it reads the last sequence number, so appends to one debate
// from any number of processes queue on that lock; two processes creating
// the same debate at once collide on the events primary key, and the loser
// gets debate.ErrExists.
//
// Live views: every append sends, inside its transaction, a NOTIFY on the
// store's channel carrying the debate id; PostgreSQL delivers it when the
// transaction commits, to every store LISTENing on that database, in this
// process or another. A store LISTENs on one connection of its own, opened
// by the first Subscribe; subscribers are woken by it, never by polling. If
// that connection drops, the store reconnects and wakes every subscriber to
// read its log again, since appends made meanwhile were not announced.
//
// Durability: a commit is durable when it returns (synchronous_commit as the
// server has it, on by default). A batch of only turn.delta events commits
// with synchronous_commit off, as the debate.Store contract allows: it
// survives a crash of Parley at once, and of the server or the machine from
// the next ordinary commit on, whose WAL flush covers every record before it.
//
// Jobs in the same database: AppendTx appends within a transaction the
// caller began on Pool, so that a job queue in the same database (River) can
// enqueue the next job in the same transaction as the event that calls for
// it; see AppendTx.
package postgres

import (
	"context"
	"crypto/sha256"
	"embed"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"iter"
	"log/slog"
	"slices"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgconn"
	"github.com/jackc/pgx/v5/pgxpool"

	"github.com/parleyhq/parley/internal/debate"
	"github.com/parleyhq/parley/internal/store"
	"github.com/parleyhq/parley/internal/store/internal/sqlsum"
)

//go:embed migrations/*.sql
var migrations embed.FS

// Errors of Open, for callers that explain them (the command line maps the
// first two to its configuration exit code).
var (
	// ErrBadURL: the connection URL does not parse.
	ErrBadURL = errors.New("invalid PostgreSQL URL")
	// ErrConnect: the server cannot be reached or refuses the connection
	// (down, wrong host or port, wrong user or password, no such database).
	ErrConnect = errors.New("cannot connect to PostgreSQL")
	// ErrSchemaTooNew: the database was migrated by a newer Parley.
	ErrSchemaTooNew = errors.New("database schema is newer than this version of parley")
	// ErrNoDatabase: OpenExisting found no Parley tables where the URL
	// points.
	ErrNoDatabase = errors.New("no Parley database")
	// ErrNoSchema: no schema of the URL's search_path exists, so there is
	// nowhere to create the tables: the URL is wrong as configured, as it
	// is when it names a database that does not exist.
	ErrNoSchema = errors.New("no schema of the search path exists")
)

// versionTable is goose's table. Not goose's default name: a database
// shared with another application that uses goose would otherwise mix
// both version histories in one table.
const versionTable = "parley_goose_db_version"

// defaultConnectTimeout bounds a connection attempt when the URL sets no
// connect_timeout: without one, a server behind a firewall that drops
// packets would hang the command for the operating system's TCP timeout.
const defaultConnectTimeout = 10 * time.Second

// Option configures Open.
type Option func(*options)

type options struct {
	log *slog.Logger
}

// WithLogger sets where the store reports what it recovers from by itself (a
// dropped LISTEN connection). Default: slog.Default() when it reports, not
// when the store is opened, so that a program that routes the default
// logger later (the shell, to its transcript, while it owns the screen) has
// these reports too.
func WithLogger(l *slog.Logger) Option {
	return func(o *options) { o.log = l }
}

// Store is a debate.Store backed by PostgreSQL.
type Store struct {
	pool    *pgxpool.Pool
	listenC *pgx.ConnConfig // for the LISTEN connection, outside the pool
	loc     string          // the URL without its password, for messages
	channel string          // NOTIFY channel of this schema
	log     *slog.Logger
	notify  store.Notifier

	// The listener: started by the first Subscribe, stopped by Close.
	lmu       sync.Mutex
	listening bool
	lwg       sync.WaitGroup
	bg        context.Context // cancelled by Close
	stopBg    context.CancelFunc

	closed    atomic.Bool
	closeOnce sync.Once
}

var _ debate.Store = (*Store)(nil)

// IsURL reports whether a --db value names a PostgreSQL database rather than
// a SQLite file: a postgres:// or postgresql:// URL.
func IsURL(s string) bool {
	l := strings.ToLower(s)
	return strings.HasPrefix(l, "postgres://") || strings.HasPrefix(l, "postgresql://")
}

// Open connects to the database at url (postgres://USER:PASSWORD@HOST:PORT/DB)
// and migrates Parley's schema to the latest version, creating it if need
// be. A URL that does not parse fails with ErrBadURL, a server that cannot be
// reached or refuses the connection with ErrConnect, a schema migrated by a
// newer Parley with ErrSchemaTooNew; each error says what to fix.
func Open(ctx context.Context, url string, opts ...Option) (*Store, error) {
	return open(ctx, url, true, opts)
}

// OpenExisting is Open for commands that only read: it creates nothing, and
// fails with ErrNoDatabase when Parley's tables are not where url points.
// (A schema of an older Parley is migrated, as Open does.)
func OpenExisting(ctx context.Context, url string, opts ...Option) (*Store, error) {
	return open(ctx, url, false, opts)
}

func open(ctx context.Context, url string, create bool, opts []Option) (*Store, error) {
	var o options
	for _, opt := range opts {
		opt(&o)
	}
	loc := Redact(url)
	cfg, err := pgxpool.ParseConfig(url)
	if err != nil {
		return nil, fmt.Errorf("open parley database %s: %w: %s; the form is postgres://USER:PASSWORD@HOST:PORT/DATABASE (set it with --db or PARLEY_DATABASE_URL)",
			loc, ErrBadURL, parseReason(err))
	}
	if cfg.ConnConfig.ConnectTimeout == 0 {
		cfg.ConnConfig.ConnectTimeout = defaultConnectTimeout
	}
	pool, err := pgxpool.NewWithConfig(ctx, cfg)
	if err != nil {
		return nil, fmt.Errorf("open parley database %s: %w: %w", loc, ErrBadURL, err)
	}
	// pgxpool connects lazily; connect now so that a wrong URL or a server
	// that is down is reported here, by Open, in words.
	if err := pool.Ping(ctx); err != nil {
		pool.Close()
		if ctx.Err() != nil {
			return nil, fmt.Errorf("open parley database %s: %w", loc, ctx.Err())
		}
		return nil, connectError(loc, cfg.ConnConfig, err)
	}
	var schema *string
	if err := pool.QueryRow(ctx, `SELECT current_schema()`).Scan(&schema); err != nil {
		pool.Close()
		return nil, fmt.Errorf("open parley database %s: %w", loc, err)
	}
	if schema == nil {
		pool.Close()
		sp := cfg.ConnConfig.RuntimeParams["search_path"]
		return nil, fmt.Errorf("open parley database %s: %w: search_path %q; create it (CREATE SCHEMA ...) or fix search_path in the URL", loc, ErrNoSchema, sp)
	}
	s := &Store{pool: pool, listenC: cfg.ConnConfig.Copy(), loc: loc, channel: channelName(*schema), log: o.log}
	if err := s.migrate(ctx, create); err != nil {
		pool.Close()
		return nil, err
	}
	s.bg, s.stopBg = context.WithCancel(context.Background())
	return s, nil
}

// channelName is the NOTIFY channel of the store in schema: one per schema,
// so that stores in other schemas of the database are not woken for nothing.
// PostgreSQL limits channel names to 63 bytes; a long schema name is hashed.
func channelName(schema string) string {
	const prefix = "parley_events:"
	if len(prefix)+len(schema) <= 63 {
		return prefix + schema
	}
	h := sha256.Sum256([]byte(schema))
	return prefix + hex.EncodeToString(h[:16])
}

// parseReason is why pgx could not parse a URL, without its "cannot parse
// `URL`:" prefix, which repeats the URL the message already names.
func parseReason(err error) string {
	msg := err.Error()
	if _, after, ok := strings.Cut(msg, "`: "); ok {
		return after
	}
	return msg
}

// connectError says why the server could not be used and what to do.
func connectError(loc string, cc *pgx.ConnConfig, err error) error {
	where := fmt.Sprintf("%s:%d", cc.Host, cc.Port)
	var pe *pgconn.PgError
	if errors.As(err, &pe) {
		switch pe.Code {
		case "28P01", "28000": // invalid_password, invalid_authorization_specification
			return fmt.Errorf("open parley database %s: %w: the server at %s refused user %q (%s); fix the user or password in the URL (--db or PARLEY_DATABASE_URL)",
				loc, ErrConnect, where, cc.User, pe.Message)
		case "3D000": // invalid_catalog_name
			return fmt.Errorf("open parley database %s: %w: database %q does not exist on %s; create it (createdb %s) or fix the URL (--db or PARLEY_DATABASE_URL)",
				loc, ErrConnect, cc.Database, where, cc.Database)
		}
		return fmt.Errorf("open parley database %s: %w at %s: %s (SQLSTATE %s); check the URL (--db or PARLEY_DATABASE_URL)", loc, ErrConnect, where, pe.Message, pe.Code)
	}
	return fmt.Errorf("open parley database %s: %w at %s (%s); is the server running and reachable there? Check the host and port in the URL (--db or PARLEY_DATABASE_URL)",
		loc, ErrConnect, where, causes(err))
}

// causes are the root causes of a connection failure (connection refused,
// no such host, a timeout), without pgx's wrapping, each said once: pgx
// tries every address of a host, and with sslmode=prefer each twice.
func causes(err error) string {
	var out []string
	var walk func(error)
	walk = func(err error) {
		switch u := err.(type) {
		case interface{ Unwrap() []error }:
			for _, e := range u.Unwrap() {
				walk(e)
			}
			return
		case interface{ Unwrap() error }:
			if inner := u.Unwrap(); inner != nil {
				walk(inner)
				return
			}
		}
		if msg := err.Error(); !slices.Contains(out, msg) {
			out = append(out, msg)
		}
	}
	walk(err)
	return strings.Join(out, "; ")
}

// Pool is the store's connection pool, for work that must share a
// transaction with an append (see AppendTx). Closing the store closes it.
func (s *Store) Pool() *pgxpool.Pool { return s.pool }

// Location is the database's URL without its password.
func (s *Store) Location() string { return s.loc }

// Close implements debate.Store. It ends the subscriptions and closes the
// pool; closing twice is harmless.
func (s *Store) Close() error {
	s.closeOnce.Do(func() {
		s.stopBg() // ends the listener, or its connection under way
		// Under lmu, so that a Subscribe starting the listener either has
		// counted it in lwg already or will see the store closed.
		s.lmu.Lock()
		s.closed.Store(true)
		s.lmu.Unlock()
		s.lwg.Wait()
		s.notify.Close()
		s.pool.Close()
	})
	return nil
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
	if err := ctx.Err(); err != nil {
		return 0, fmt.Errorf("append to debate %q: %w", debateID, err)
	}
	tx, err := s.pool.Begin(ctx)
	if err != nil {
		return 0, fmt.Errorf("append to debate %q: begin: %w", debateID, err)
	}
	defer tx.Rollback(ctx) // a no-op after Commit
	last, err := s.appendIn(ctx, tx, debateID, events, payloads, store.OnlyDeltas(events))
	if err != nil {
		return 0, err
	}
	if err := tx.Commit(ctx); err != nil {
		return 0, fmt.Errorf("append to debate %q: commit: %w", debateID, err)
	}
	if len(events) > 0 {
		// The NOTIFY wakes this store's subscribers too, through the
		// listener; waking them here saves them that round trip.
		s.notify.Notify(debateID)
	}
	return last, nil
}

// AppendTx appends events to a debate within tx, a transaction the caller
// began on this store's Pool and will commit or roll back: the events are
// stored if and only if tx commits, together with whatever else tx wrote.
// This is how a job queue in the same database (River, say) enqueues the
// next job of a debate in the same transaction as the event that calls for
// it, so that the log stays the single source of truth.
//
// It obeys the rules of Append (validation, created-first, sequence
// numbers, projections) and returns the last sequence number tx will have
// stored. Subscribers, in every process, are woken when tx commits: the
// notification is part of tx. The debate's row stays locked until tx ends,
// so other appends to that debate wait for it: keep tx short. Unlike
// Append, a batch of deltas does not relax the durability of tx, which may
// carry more than deltas.
func (s *Store) AppendTx(ctx context.Context, tx pgx.Tx, debateID string, events ...debate.Event) (int64, error) {
	payloads, err := store.ValidateDecoded(debateID, events)
	if err != nil {
		return 0, err
	}
	if err := s.checkOpen(); err != nil {
		return 0, fmt.Errorf("append to debate %q: %w", debateID, err)
	}
	return s.appendIn(ctx, tx, debateID, events, payloads, false)
}

// summaryColumns are the columns of debates, in scanSummary's order.
const summaryColumns = sqlsum.Columns

const (
	insertEventSQL = `INSERT INTO events (debate_id, seq, time, type, data) VALUES ($1, $2, $3, $4, $5)`
	insertTurnSQL  = `INSERT INTO turns (debate_id, seq, time, turn_id, agent, role, label, phase, round,
		text, move, invalid, model, input_tokens, output_tokens, cache_read_tokens, cache_write_tokens, cost_usd, priced)
		VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $14, $15, $16, $17, $18, $19)`
	putSummarySQL = `INSERT INTO debates (` + summaryColumns + `) VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13) ` +
		sqlsum.OnConflict
	notifySQL = `SELECT pg_notify($1, $2)`
)

// maxPayload keeps a NOTIFY payload under PostgreSQL's 8000-byte limit. A
// longer debate id is announced with an empty payload, which wakes every
// subscriber of the store.
const maxPayload = 1000

func (s *Store) notifyPayload(debateID string) string {
	if len(debateID) > maxPayload {
		return ""
	}
	return debateID
}

// appendIn runs an append in tx: lock and read the debate's summary, then
// send the inserts, the projections and the NOTIFY in one round trip.
// payloads are the events' payloads store.ValidateDecoded decoded.
func (s *Store) appendIn(ctx context.Context, tx pgx.Tx, debateID string, events []debate.Event, payloads []debate.Payload, async bool) (int64, error) {
	sum, err := scanSummary(tx.QueryRow(ctx, `SELECT `+summaryColumns+` FROM debates WHERE id = $1 FOR UPDATE`, debateID))
	exists := err == nil
	if err != nil && !errors.Is(err, pgx.ErrNoRows) {
		return 0, fmt.Errorf("append to debate %q: read summary: %w", debateID, err)
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
	b := &pgx.Batch{}
	if async {
		// Only this transaction's commit; see the package comment.
		b.Queue(`SET LOCAL synchronous_commit = off`)
	}
	for i, e := range store.Prepare(debateID, sum.LastSeq, events) {
		b.Queue(insertEventSQL, debateID, e.Seq, e.Time, e.Type, []byte(e.Data))
		if tc, ok := payloads[i].(*debate.TurnCompleted); ok {
			var move any // NULL when the turn has no parsed move
			if len(tc.Move) > 0 {
				move = []byte(tc.Move)
			}
			b.Queue(insertTurnSQL, debateID, e.Seq, e.Time, tc.Turn.ID, tc.Turn.Agent, tc.Turn.Role, tc.Turn.Label, tc.Turn.Phase, tc.Turn.Round,
				tc.Text, move, tc.Invalid, tc.Model, tc.Usage.InputTokens, tc.Usage.OutputTokens,
				tc.Usage.CacheReadTokens, tc.Usage.CacheWriteTokens, tc.CostUSD, tc.Priced)
		}
		debate.ProjectDecoded(&sum, e, payloads[i])
	}
	b.Queue(putSummarySQL, sum.ID, sum.Format, sum.Topic, string(sum.Status), sum.Phase, sum.Round, sum.Turns,
		sum.Created, sum.Updated, sum.LastSeq, sum.CostUSD, sum.LLMTurns, sqlsum.EncodeUnpriced(sum.Unpriced))
	b.Queue(notifySQL, s.channel, s.notifyPayload(debateID))
	if err := tx.SendBatch(ctx, b).Close(); err != nil {
		var pe *pgconn.PgError
		if !exists && errors.As(err, &pe) && pe.Code == "23505" { // unique_violation
			// Another process created the debate between our read and our
			// insert.
			return 0, fmt.Errorf("append %s to debate %q: %w", events[0].Type, debateID, debate.ErrExists)
		}
		return 0, fmt.Errorf("append to debate %q: %w", debateID, err)
	}
	return sum.LastSeq, nil
}

func scanSummary(row pgx.Row) (debate.Summary, error) {
	var (
		sum      debate.Summary
		status   string
		unpriced []byte
	)
	if err := row.Scan(&sum.ID, &sum.Format, &sum.Topic, &status, &sum.Phase, &sum.Round, &sum.Turns,
		&sum.Created, &sum.Updated, &sum.LastSeq, &sum.CostUSD, &sum.LLMTurns, &unpriced); err != nil {
		return debate.Summary{}, err
	}
	var err error
	if sum.Unpriced, err = sqlsum.DecodeUnpriced(unpriced); err != nil {
		return debate.Summary{}, err
	}
	sum.Status = debate.Status(status)
	sum.Created, sum.Updated = sum.Created.UTC(), sum.Updated.UTC()
	return sum, nil
}

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
	var limit *int64 // NULL: no limit
	if n > 0 {
		l := int64(n)
		limit = &l
	}
	rows, err := s.pool.Query(ctx, `SELECT seq, time, type, data FROM events WHERE debate_id = $1 AND seq > $2 ORDER BY seq LIMIT $3`, debateID, afterSeq, limit)
	if err != nil {
		return nil, fmt.Errorf("load debate %q: %w", debateID, err)
	}
	var out []debate.Event
	for rows.Next() {
		e := debate.Event{Debate: debateID}
		if err := rows.Scan(&e.Seq, &e.Time, &e.Type, (*[]byte)(&e.Data)); err != nil {
			rows.Close()
			return nil, fmt.Errorf("load debate %q: %w", debateID, err)
		}
		e.Time = e.Time.UTC()
		out = append(out, e)
	}
	if err := rows.Err(); err != nil {
		return nil, fmt.Errorf("load debate %q: %w", debateID, err)
	}
	if len(out) == 0 {
		// Nothing after afterSeq: tell an unknown debate from a quiet one.
		var one int
		err := s.pool.QueryRow(ctx, `SELECT 1 FROM debates WHERE id = $1`, debateID).Scan(&one)
		if errors.Is(err, pgx.ErrNoRows) {
			return nil, fmt.Errorf("load debate %q: %w", debateID, debate.ErrNotFound)
		}
		if err != nil {
			return nil, fmt.Errorf("load debate %q: %w", debateID, err)
		}
	}
	return out, nil
}

// Subscribe implements debate.Store. Appends by any process are announced by
// NOTIFY; the first Subscribe of a store opens its LISTEN connection, and
// fails (yields the error) if it cannot.
func (s *Store) Subscribe(ctx context.Context, debateID string, afterSeq int64) iter.Seq2[debate.Event, error] {
	follow := store.Follow(ctx, s.Load, &s.notify, debateID, afterSeq, 0)
	return func(yield func(debate.Event, error) bool) {
		if err := s.listen(ctx); err != nil {
			if ctx.Err() != nil {
				err = ctx.Err()
			}
			yield(debate.Event{}, fmt.Errorf("subscribe to debate %q: %w", debateID, err))
			return
		}
		follow(yield)
	}
}

// listen starts the listener unless it runs: a connection of its own,
// LISTENing on the store's channel, and a goroutine that wakes subscribers.
// LISTEN is in effect when listen returns, so that a subscriber that then
// reads the log misses no append committed after its read.
func (s *Store) listen(ctx context.Context) error {
	s.lmu.Lock()
	defer s.lmu.Unlock()
	if s.listening {
		return nil
	}
	if err := s.checkOpen(); err != nil {
		return err
	}
	// Close cancels s.bg; connecting must not hold it up.
	cctx, cancel := context.WithCancel(ctx)
	defer cancel()
	stop := context.AfterFunc(s.bg, cancel)
	defer stop()
	conn, err := s.connectListener(cctx)
	if err != nil {
		return err
	}
	s.listening = true
	s.lwg.Go(func() { s.listenLoop(conn) })
	return nil
}

func (s *Store) connectListener(ctx context.Context) (*pgx.Conn, error) {
	conn, err := pgx.ConnectConfig(ctx, s.listenC)
	if err != nil {
		return nil, fmt.Errorf("listen for appends: %w", err)
	}
	if _, err := conn.Exec(ctx, `LISTEN `+pgx.Identifier{s.channel}.Sanitize()); err != nil {
		_ = conn.Close(context.Background())
		return nil, fmt.Errorf("listen for appends: %w", err)
	}
	return conn, nil
}

// listenLoop hands notifications to the subscribers until Close, and
// reconnects when the connection drops.
func (s *Store) listenLoop(conn *pgx.Conn) {
	const minWait, maxWait = 50 * time.Millisecond, 5 * time.Second
	for {
		err := s.relay(conn)
		closeCtx, cancel := context.WithTimeout(context.Background(), time.Second)
		_ = conn.Close(closeCtx)
		cancel()
		if s.bg.Err() != nil {
			return
		}
		s.logger().Warn("parley store: lost the LISTEN connection to PostgreSQL; reconnecting", "db", s.loc, "err", err)
		wait := minWait
		for {
			select {
			case <-s.bg.Done():
				return
			case <-time.After(wait):
			}
			if conn, err = s.connectListener(s.bg); err == nil {
				break
			}
			if s.bg.Err() != nil {
				return
			}
			s.logger().Warn("parley store: cannot reconnect the LISTEN connection to PostgreSQL; live views wait", "db", s.loc, "err", err, "retry_in", wait)
			wait = min(2*wait, maxWait)
		}
		// Appends committed while we were not listening were announced to
		// nobody: every subscriber reads its log again.
		s.notify.NotifyAll()
	}
}

// logger is where the store reports: its WithLogger, else the default
// logger of the moment.
func (s *Store) logger() *slog.Logger {
	if s.log != nil {
		return s.log
	}
	return slog.Default()
}

// relay wakes the subscribers of each notified debate until the connection
// fails or Close.
func (s *Store) relay(conn *pgx.Conn) error {
	for {
		n, err := conn.WaitForNotification(s.bg)
		if err != nil {
			return err
		}
		if n.Payload == "" {
			s.notify.NotifyAll()
		} else {
			s.notify.Notify(n.Payload)
		}
	}
}

// Get implements debate.Store.
func (s *Store) Get(ctx context.Context, debateID string) (debate.Summary, error) {
	if err := s.checkOpen(); err != nil {
		return debate.Summary{}, fmt.Errorf("get debate %q: %w", debateID, err)
	}
	if !debate.ValidID(debateID) {
		return debate.Summary{}, debate.NoSuchID("get debate", debateID)
	}
	sum, err := scanLeased(s.pool.QueryRow(ctx, summarySelect+` WHERE id = $1`, debateID))
	if errors.Is(err, pgx.ErrNoRows) {
		err = debate.ErrNotFound
	}
	if err != nil {
		return debate.Summary{}, fmt.Errorf("get debate %q: %w", debateID, err)
	}
	return sum, nil
}

// summarySelect selects summaryColumns and the debate's lease (NULLs when
// none).
const summarySelect = `SELECT ` + summaryColumns + `, owner, since, expires FROM debates LEFT JOIN leases ON debate_id = id`

// scanLeased scans summarySelect's columns.
func scanLeased(row pgx.Row) (debate.Summary, error) {
	var (
		owner          []byte
		since, expires *time.Time
	)
	sum, err := scanSummary(sqlsum.ScanFunc(func(dest ...any) error {
		return row.Scan(append(dest, &owner, &since, &expires)...)
	}))
	if err != nil {
		return sum, err
	}
	if owner != nil {
		l, err := lease(owner, *since, *expires)
		if err != nil {
			return sum, err
		}
		sum.Lease = &l
	}
	return sum, nil
}

func lease(owner []byte, since, expires time.Time) (debate.Lease, error) {
	l := debate.Lease{Since: since.UTC(), Expires: expires.UTC()}
	if err := json.Unmarshal(owner, &l.Owner); err != nil {
		return debate.Lease{}, fmt.Errorf("read lease: %w", err)
	}
	return l, nil
}

// List implements debate.Store.
func (s *Store) List(ctx context.Context, f debate.ListFilter) ([]debate.Summary, error) {
	if err := s.checkOpen(); err != nil {
		return nil, fmt.Errorf("list debates: %w", err)
	}
	// Ties broken by id in byte order, as store.Newer and the sqlite store
	// do, whatever the database's collation (the debates_created index's
	// order).
	clauses, args := sqlsum.ListClauses(f, func(n int) string { return "$" + strconv.Itoa(n) }, `id COLLATE "C"`,
		func(t time.Time) any { return t })
	rows, err := s.pool.Query(ctx, summarySelect+clauses, args...)
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
	return out, nil
}

// Count implements debate.Store, the groups in byte order whatever the
// database's collation.
func (s *Store) Count(ctx context.Context) ([]debate.Count, error) {
	if err := s.checkOpen(); err != nil {
		return nil, fmt.Errorf("count debates: %w", err)
	}
	rows, err := s.pool.Query(ctx, sqlsum.CountQuery(`status COLLATE "C"`, `format COLLATE "C"`))
	if err != nil {
		return nil, fmt.Errorf("count debates: %w", err)
	}
	defer rows.Close()
	return sqlsum.ScanCounts(rows.Next, rows.Scan, rows.Err)
}

// AcquireLease implements debate.Store.
func (s *Store) AcquireLease(ctx context.Context, debateID string, owner debate.LeaseOwner, ttl time.Duration, steal string) (debate.Lease, error) {
	var l debate.Lease
	err := s.leaseTx(ctx, debateID, func(tx pgx.Tx, held *debate.Lease, now time.Time) error {
		var err error
		if l, err = store.Grant(debateID, held, owner, ttl, steal, now); err != nil {
			return err
		}
		l = exact(l)
		return putLease(ctx, tx, debateID, l)
	})
	return l, err
}

// RenewLease implements debate.Store.
func (s *Store) RenewLease(ctx context.Context, debateID, ownerID string, ttl time.Duration) (debate.Lease, error) {
	var l debate.Lease
	err := s.leaseTx(ctx, debateID, func(tx pgx.Tx, held *debate.Lease, now time.Time) error {
		var err error
		if l, err = store.Renew(held, ownerID, ttl, now); err != nil {
			return err
		}
		l = exact(l)
		return putLease(ctx, tx, debateID, l)
	})
	return l, err
}

// ReleaseLease implements debate.Store.
func (s *Store) ReleaseLease(ctx context.Context, debateID, ownerID string) error {
	return s.leaseTx(ctx, debateID, func(tx pgx.Tx, held *debate.Lease, _ time.Time) error {
		if held == nil || held.Owner.ID != ownerID {
			return nil
		}
		if _, err := tx.Exec(ctx, `DELETE FROM leases WHERE debate_id = $1`, debateID); err != nil {
			return fmt.Errorf("release lease of debate %q: %w", debateID, err)
		}
		return nil
	})
}

// Delete implements debate.Store.
func (s *Store) Delete(ctx context.Context, debateID string) error {
	err := s.leaseTx(ctx, debateID, func(tx pgx.Tx, _ *debate.Lease, _ time.Time) error {
		b := &pgx.Batch{}
		for _, q := range []string{`DELETE FROM leases WHERE debate_id = $1`, `DELETE FROM turns WHERE debate_id = $1`,
			`DELETE FROM events WHERE debate_id = $1`, `DELETE FROM debates WHERE id = $1`} {
			b.Queue(q, debateID)
		}
		// Subscribers in every process read the log again and find it gone.
		b.Queue(notifySQL, s.channel, s.notifyPayload(debateID))
		if err := tx.SendBatch(ctx, b).Close(); err != nil {
			return fmt.Errorf("delete debate %q: %w", debateID, err)
		}
		return nil
	})
	if err == nil {
		s.notify.Notify(debateID)
	}
	return err
}

// leaseTx runs fn in a transaction that holds the debate's row lock, with
// the lease held (nil when none) and the database's clock read once the lock
// is taken; the debate must exist.
func (s *Store) leaseTx(ctx context.Context, debateID string, fn func(tx pgx.Tx, held *debate.Lease, now time.Time) error) error {
	if err := s.checkOpen(); err != nil {
		return fmt.Errorf("lease of debate %q: %w", debateID, err)
	}
	if !debate.ValidID(debateID) {
		return debate.NoSuchID("lease of debate", debateID)
	}
	tx, err := s.pool.Begin(ctx)
	if err != nil {
		return fmt.Errorf("lease of debate %q: begin: %w", debateID, err)
	}
	defer tx.Rollback(ctx) // a no-op after Commit
	// Both statements go in one round trip; the second runs once the first
	// holds the lock, so that the clock is read after any wait for it.
	b := &pgx.Batch{}
	var (
		found          bool
		owner          []byte
		since, expires *time.Time
		now            time.Time
	)
	b.Queue(`SELECT true FROM debates WHERE id = $1 FOR UPDATE`, debateID).QueryRow(func(row pgx.Row) error {
		err := row.Scan(&found)
		if errors.Is(err, pgx.ErrNoRows) {
			return nil
		}
		return err
	})
	b.Queue(`SELECT clock_timestamp(), owner, since, expires FROM (SELECT 1) AS one LEFT JOIN leases ON debate_id = $1`, debateID).
		QueryRow(func(row pgx.Row) error { return row.Scan(&now, &owner, &since, &expires) })
	if err := tx.SendBatch(ctx, b).Close(); err != nil {
		return fmt.Errorf("lease of debate %q: %w", debateID, err)
	}
	if !found {
		return fmt.Errorf("lease of debate %q: %w", debateID, debate.ErrNotFound)
	}
	var held *debate.Lease
	if owner != nil {
		l, err := lease(owner, *since, *expires)
		if err != nil {
			return fmt.Errorf("lease of debate %q: %w", debateID, err)
		}
		held = &l
	}
	if err := fn(tx, held, now.UTC()); err != nil {
		return err
	}
	if err := tx.Commit(ctx); err != nil {
		return fmt.Errorf("lease of debate %q: commit: %w", debateID, err)
	}
	return nil
}

// exact rounds a lease's times down to what timestamptz keeps, so that the
// lease returned is the lease Get reads back.
func exact(l debate.Lease) debate.Lease {
	l.Since, l.Expires = l.Since.Truncate(time.Microsecond), l.Expires.Truncate(time.Microsecond)
	return l
}

func putLease(ctx context.Context, tx pgx.Tx, debateID string, l debate.Lease) error {
	owner, err := json.Marshal(l.Owner)
	if err != nil {
		return err
	}
	_, err = tx.Exec(ctx, `INSERT INTO leases (debate_id, owner, since, expires) VALUES ($1, $2, $3, $4)
		ON CONFLICT (debate_id) DO UPDATE SET owner = excluded.owner, since = excluded.since, expires = excluded.expires`,
		debateID, owner, l.Since, l.Expires)
	if err != nil {
		return fmt.Errorf("write lease of debate %q: %w", debateID, err)
	}
	return nil
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
	var one int
	if err := s.pool.QueryRow(ctx, `SELECT 1 FROM debates WHERE id = $1`, debateID).Scan(&one); err != nil {
		if errors.Is(err, pgx.ErrNoRows) {
			err = debate.ErrNotFound
		}
		return nil, fmt.Errorf("turns of debate %q: %w", debateID, err)
	}
	rows, err := s.pool.Query(ctx, `SELECT seq, time, turn_id, agent, role, label, phase, round, text, move, invalid,
		model, input_tokens, output_tokens, cache_read_tokens, cache_write_tokens, cost_usd
		FROM turns WHERE debate_id = $1 ORDER BY seq`, debateID)
	if err != nil {
		return nil, fmt.Errorf("turns of debate %q: %w", debateID, err)
	}
	defer rows.Close()
	var out []Turn
	for rows.Next() {
		t := Turn{Debate: debateID}
		var move []byte
		if err := rows.Scan(&t.Seq, &t.Time, &t.Ref.ID, &t.Ref.Agent, &t.Ref.Role, &t.Ref.Label, &t.Ref.Phase, &t.Ref.Round,
			&t.Text, &move, &t.Invalid, &t.Model, &t.Usage.InputTokens, &t.Usage.OutputTokens,
			&t.Usage.CacheReadTokens, &t.Usage.CacheWriteTokens, &t.CostUSD); err != nil {
			return nil, fmt.Errorf("turns of debate %q: %w", debateID, err)
		}
		t.Time = t.Time.UTC()
		if move != nil {
			t.Move = json.RawMessage(move)
		}
		out = append(out, t)
	}
	if err := rows.Err(); err != nil {
		return nil, fmt.Errorf("turns of debate %q: %w", debateID, err)
	}
	return out, nil
}
