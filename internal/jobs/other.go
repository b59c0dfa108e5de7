package jobs

import (
	"context"
	"fmt"
	"log/slog"

	"github.com/jackc/pgx/v5"
	"github.com/riverqueue/river"
	"github.com/riverqueue/river/riverdriver/riverpgxv5"

	"github.com/parleyhq/parley/internal/debate"
	"github.com/parleyhq/parley/internal/store/postgres"
)

// newOther is River on a store other than SQLite: PostgreSQL, through
// River's pgx v5 driver on the store's own pool, in the store's schema.
func newOther(ctx context.Context, st debate.Store, cfg *river.Config, log *slog.Logger) (backend, *Limits, error) {
	pg, ok := st.(*postgres.Store)
	if !ok {
		return nil, nil, fmt.Errorf("%T: %w", st, errUnsupported)
	}
	pool := pg.Pool()
	driver := riverpgxv5.New(pool)
	var schema string
	if err := pool.QueryRow(ctx, `SELECT current_schema()`).Scan(&schema); err != nil {
		return nil, nil, fmt.Errorf("start River on %s: %w", pg.Location(), err)
	}
	// River's tables and its notifications live in the store's schema, so
	// that several Parley databases in one PostgreSQL database stay apart.
	cfg.Schema = schema
	// Workers starting together migrate one at a time: a session lock on a
	// connection of its own, since River's migrations each commit on their
	// own (one adds an enum value that the next uses).
	// The connection is not the pool's: waiting for the lock must not hold
	// a connection the migrations of the process that has it need.
	conn, err := pgx.ConnectConfig(ctx, pool.Config().ConnConfig.Copy())
	if err != nil {
		return nil, nil, fmt.Errorf("migrate River's tables in %s: %w", pg.Location(), err)
	}
	defer conn.Close(context.WithoutCancel(ctx)) // ending the session frees the lock
	if _, err := conn.Exec(ctx, `SELECT pg_advisory_lock(hashtext('parley: migrate River in ' || current_schema()))`); err != nil {
		return nil, nil, fmt.Errorf("migrate River's tables in %s: %w", pg.Location(), err)
	}
	limits := newLimits(pgLimits{pool: pool}, log)
	if err := limits.db.init(ctx); err != nil {
		return nil, nil, fmt.Errorf("create the limits' tables in %s: %w", pg.Location(), err)
	}
	if merr := migrateDB(ctx, driver, schema, log); merr != nil {
		return nil, nil, fmt.Errorf("migrate River's tables in %s: %w", pg.Location(), merr)
	}
	client, err := river.NewClient(driver, cfg)
	if err != nil {
		return nil, nil, fmt.Errorf("start River on %s: %w", pg.Location(), err)
	}
	return &riverDB[pgx.Tx]{
		client:   client,
		begin:    func(ctx context.Context) (pgx.Tx, error) { return pool.Begin(ctx) },
		commit:   func(ctx context.Context, tx pgx.Tx) error { return tx.Commit(ctx) },
		rollback: func(ctx context.Context, tx pgx.Tx) error { return tx.Rollback(ctx) },
		appendTx: pg.AppendTx,
		db:       "PostgreSQL",
	}, limits, nil
}
