package jobs

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"log/slog"
	"time"

	"github.com/riverqueue/river"
	"github.com/riverqueue/river/riverdriver"
	"github.com/riverqueue/river/riverdriver/riversqlite"
	"github.com/riverqueue/river/rivermigrate"
	"github.com/riverqueue/river/rivertype"

	"github.com/parleyhq/parley/internal/debate"
	"github.com/parleyhq/parley/internal/store/sqlite"
)

// backend is River on one kind of database, with the transactions that
// append to a debate's log and enqueue a job together. River's client is
// generic in its transaction type (pgx.Tx on PostgreSQL, *sql.Tx on SQLite);
// this interface hides it from the rest of the package.
type backend interface {
	// inTx runs fn in one transaction of the database: what fn appends and
	// enqueues is stored together or not at all.
	inTx(ctx context.Context, fn func(tx txOps) error) error
	insert(ctx context.Context, args RunDebate, opts *river.InsertOpts) (*rivertype.JobInsertResult, error)
	list(ctx context.Context, params *river.JobListParams) ([]*rivertype.JobRow, error)
	start(ctx context.Context) error
	stop(ctx context.Context) error
	name() string
}

// txOps are what a transaction of inTx can do.
type txOps interface {
	append(ctx context.Context, debateID string, events ...debate.Event) (int64, error)
	enqueue(ctx context.Context, args RunDebate, opts *river.InsertOpts) (*rivertype.JobInsertResult, error)
}

// riverDB is a backend for River's driver of transaction type TTx.
type riverDB[TTx any] struct {
	client   *river.Client[TTx]
	begin    func(ctx context.Context) (TTx, error)
	commit   func(ctx context.Context, tx TTx) error
	rollback func(ctx context.Context, tx TTx) error
	appendTx func(ctx context.Context, tx TTx, debateID string, events ...debate.Event) (int64, error)
	db       string
}

type riverTx[TTx any] struct {
	b  *riverDB[TTx]
	tx TTx
}

func (t riverTx[TTx]) append(ctx context.Context, debateID string, events ...debate.Event) (int64, error) {
	return t.b.appendTx(ctx, t.tx, debateID, events...)
}

func (t riverTx[TTx]) enqueue(ctx context.Context, args RunDebate, opts *river.InsertOpts) (*rivertype.JobInsertResult, error) {
	return t.b.client.InsertTx(ctx, t.tx, args, opts)
}

func (b *riverDB[TTx]) inTx(ctx context.Context, fn func(tx txOps) error) error {
	tx, err := b.begin(ctx)
	if err != nil {
		return fmt.Errorf("begin a transaction on the %s database: %w", b.db, err)
	}
	if err := fn(riverTx[TTx]{b: b, tx: tx}); err != nil {
		_ = b.rollback(context.WithoutCancel(ctx), tx)
		return err
	}
	if err := b.commit(ctx, tx); err != nil {
		return fmt.Errorf("commit on the %s database: %w", b.db, err)
	}
	return nil
}

func (b *riverDB[TTx]) insert(ctx context.Context, args RunDebate, opts *river.InsertOpts) (*rivertype.JobInsertResult, error) {
	return b.client.Insert(ctx, args, opts)
}

func (b *riverDB[TTx]) list(ctx context.Context, params *river.JobListParams) ([]*rivertype.JobRow, error) {
	res, err := b.client.JobList(ctx, params)
	if err != nil {
		return nil, err
	}
	return res.Jobs, nil
}

func (b *riverDB[TTx]) start(ctx context.Context) error { return b.client.Start(ctx) }
func (b *riverDB[TTx]) stop(ctx context.Context) error  { return b.client.Stop(ctx) }
func (b *riverDB[TTx]) name() string                    { return b.db }

// migrateDB brings River's tables in schema to the version this build
// knows, each migration in a transaction of its own; the caller serializes
// migrations.
func migrateDB[TTx any](ctx context.Context, driver riverdriver.Driver[TTx], schema string, log *slog.Logger) error {
	m, err := rivermigrate.New(driver, &rivermigrate.Config{Schema: schema, Logger: slog.New(levelHandler{log.Handler(), slog.LevelWarn})})
	if err != nil {
		return err
	}
	// Without a lock held across River's transactions (SQLite), another
	// process may apply a migration between this one's reading the versions
	// and applying it, which then fails; the next try skips what is done.
	for try := 0; ; try++ {
		if _, err = m.Migrate(ctx, rivermigrate.DirectionUp, nil); err == nil {
			return nil
		}
		if have, verr := m.ExistingVersions(ctx); verr == nil && len(have) == len(m.AllVersions()) {
			return nil
		}
		if try == 20 {
			return err
		}
		select {
		case <-ctx.Done():
			return err
		case <-time.After(50 * time.Millisecond):
		}
	}
}

// newSQLite is River on the SQLite store's own database file, through
// River's SQLite driver on the store's connection pool: a job inserted with
// AppendTx's transaction commits with the event.
func newSQLite(ctx context.Context, st *sqlite.Store, cfg *river.Config, log *slog.Logger) (*riverDB[*sql.Tx], error) {
	db := st.DB()
	driver := riversqlite.New(db)
	if err := migrateDB(ctx, driver, "", log); err != nil {
		return nil, fmt.Errorf("migrate River's tables in %s: %w", st.Path(), st.Explain(err))
	}
	client, err := river.NewClient(driver, cfg)
	if err != nil {
		return nil, fmt.Errorf("start River on %s: %w", st.Path(), err)
	}
	return &riverDB[*sql.Tx]{
		client:   client,
		begin:    func(ctx context.Context) (*sql.Tx, error) { return db.BeginTx(ctx, nil) },
		commit:   func(_ context.Context, tx *sql.Tx) error { return tx.Commit() },
		rollback: func(_ context.Context, tx *sql.Tx) error { return tx.Rollback() },
		appendTx: st.AppendTx,
		db:       "SQLite",
	}, nil
}

// errUnsupported is New's answer for a store River cannot share.
var errUnsupported = errors.New("debates run as jobs only on a SQLite or PostgreSQL database")
