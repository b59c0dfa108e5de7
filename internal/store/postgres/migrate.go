package postgres

import (
	"context"
	"database/sql"
	"fmt"
	"io/fs"
	"maps"
	"slices"
	"time"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/stdlib"
	"github.com/pressly/goose/v3"

	"github.com/parleyhq/parley/internal/store/internal/sqlsum"
)

// migrate brings the schema to the latest embedded version. Opening a store
// whose schema is current takes two quick queries and no lock; otherwise the
// migration runs under an advisory lock of the schema, so that processes
// opening a new database at once migrate it one after the other. Without
// create, a schema with no Parley tables is ErrNoDatabase.
func (s *Store) migrate(ctx context.Context, create bool) error {
	db := stdlib.OpenDBFromPool(s.pool) // closing it leaves the pool open
	defer db.Close()
	p, err := migrator(db)
	if err != nil {
		return fmt.Errorf("migrate parley database %s: %w", s.loc, err)
	}
	sources := p.ListSources()
	target := sources[len(sources)-1].Version

	var exists bool
	if err := s.pool.QueryRow(ctx, `SELECT EXISTS (SELECT 1 FROM pg_tables WHERE schemaname = current_schema() AND tablename = $1)`,
		versionTable).Scan(&exists); err != nil {
		return fmt.Errorf("read schema version of parley database %s: %w", s.loc, err)
	}
	if !exists && !create {
		return fmt.Errorf("open parley database %s: %w (no %s table in its schema)", s.loc, ErrNoDatabase, versionTable)
	}
	if exists {
		var current *int64
		if err := s.pool.QueryRow(ctx, `SELECT max(version_id) FROM `+versionTable).Scan(&current); err != nil {
			return fmt.Errorf("read schema version of parley database %s: %w", s.loc, err)
		}
		if current != nil {
			if err := tooNew(s.loc, *current, target); err != nil || *current == target {
				return err
			}
		}
	}

	// A connection of its own holds the lock: closing it releases the lock
	// whatever happens, and the pool keeps its connections for goose.
	conn, err := pgx.ConnectConfig(ctx, s.listenC)
	if err != nil {
		return fmt.Errorf("migrate parley database %s: %w", s.loc, err)
	}
	defer conn.Close(context.WithoutCancel(ctx))
	if err := lockSchema(ctx, conn); err != nil {
		return fmt.Errorf("migrate parley database %s: wait for another process migrating it: %w", s.loc, err)
	}
	current, _, err := p.GetVersions(ctx)
	if err != nil {
		return fmt.Errorf("read schema version of parley database %s: %w (is it a parley database? choose another with --db)", s.loc, err)
	}
	if err := tooNew(s.loc, current, target); err != nil || current == target {
		return err // another process migrated it while we waited
	}
	if _, err := p.Up(ctx); err != nil {
		return fmt.Errorf("migrate parley database %s from schema version %d to %d: %w", s.loc, current, target, err)
	}
	return nil
}

// lockPoll is how often a process waiting for another's migration tries
// the lock again.
const lockPoll = 100 * time.Millisecond

// lockSchema takes the schema's migration lock on conn, trying again every
// lockPoll until it is free. Not pg_advisory_lock, which waits inside one
// statement: that statement's snapshot is older than the migrating
// process's CREATE INDEX CONCURRENTLY, which waits for every such snapshot
// to end, while the waiter waits for it (a deadlock). Between tries the
// waiter holds no snapshot.
func lockSchema(ctx context.Context, conn *pgx.Conn) error {
	for {
		var got bool
		if err := conn.QueryRow(ctx, `SELECT pg_try_advisory_lock(hashtextextended('parley migrate ' || current_schema(), 0))`).Scan(&got); err != nil {
			return err
		}
		if got {
			return nil
		}
		select {
		case <-ctx.Done():
			return ctx.Err()
		case <-time.After(lockPoll):
		}
	}
}

// migrator is the goose provider of the schema's migrations: the SQL files
// of migrations/ and those in Go (spendBackfill).
func migrator(db *sql.DB) (*goose.Provider, error) {
	fsys, err := fs.Sub(migrations, "migrations")
	if err != nil {
		return nil, err
	}
	return goose.NewProvider(goose.DialectPostgres, db, fsys,
		goose.WithDisableGlobalRegistry(true), // no package state shared with other goose users
		goose.WithLogger(goose.NopLogger()),
		goose.WithTableName(versionTable),
		goose.WithGoMigrations(spendBackfill()),
	)
}

// backfillBatch is how many debates' rows one transaction of spendBackfill
// updates: each holds their row locks, which appends to those debates wait
// for, only that long.
const backfillBatch = 500

// spendBackfill is schema version 5: it fills the spend columns version 4
// added (llm_turns, unpriced_models) from the turns projection, judging the
// turns as debate.Project does at an append (sqlsum.Spends), by the
// built-in prices SQL cannot read. It runs outside a transaction, in
// batches of backfillBatch debates, so that a large store is not locked
// whole while it runs; each batch is complete or not at all, and running
// it again computes the same values. A function, as goose may keep state
// in what it is given.
func spendBackfill() *goose.Migration {
	return goose.NewGoMigration(5,
		&goose.GoFunc{RunDB: func(ctx context.Context, db *sql.DB) error {
			spends, err := sqlsum.Spends(ctx, db, true)
			if err != nil {
				return err
			}
			ids := slices.Sorted(maps.Keys(spends))
			for len(ids) > 0 {
				n := min(len(ids), backfillBatch)
				if err := backfillSpends(ctx, db, ids[:n], spends); err != nil {
					return err
				}
				ids = ids[n:]
			}
			return nil
		}},
		// The columns go with version 4's down; there is nothing to undo.
		&goose.GoFunc{Mode: goose.TransactionDisabled},
	)
}

func backfillSpends(ctx context.Context, db *sql.DB, ids []string, spends map[string]*sqlsum.Spend) error {
	tx, err := db.BeginTx(ctx, nil)
	if err != nil {
		return fmt.Errorf("fill the spend columns: %w", err)
	}
	defer tx.Rollback() // a no-op after Commit
	for _, id := range ids {
		sp := spends[id]
		if _, err := tx.ExecContext(ctx, `UPDATE debates SET llm_turns = $1, unpriced_models = $2 WHERE id = $3`,
			sp.LLMTurns, sqlsum.EncodeUnpriced(sp.Unpriced), id); err != nil {
			return fmt.Errorf("fill the spend columns of debate %q: %w", id, err)
		}
	}
	if err := tx.Commit(); err != nil {
		return fmt.Errorf("fill the spend columns: %w", err)
	}
	return nil
}

func tooNew(loc string, current, target int64) error {
	if current > target {
		return fmt.Errorf("parley database %s has schema version %d, this parley knows up to %d: %w; upgrade parley, or choose another database with --db",
			loc, current, target, ErrSchemaTooNew)
	}
	return nil
}
