package postgres

import (
	"context"
	"fmt"
	"io/fs"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/stdlib"
	"github.com/pressly/goose/v3"
)

// migrate brings the schema to the latest embedded version. Opening a store
// whose schema is current takes two quick queries and no lock; otherwise the
// migration runs under an advisory lock of the schema, so that processes
// opening a new database at once migrate it one after the other. Without
// create, a schema with no Parley tables is ErrNoDatabase.
func (s *Store) migrate(ctx context.Context, create bool) error {
	fsys, err := fs.Sub(migrations, "migrations")
	if err != nil {
		return fmt.Errorf("migrate parley database %s: %w", s.loc, err)
	}
	db := stdlib.OpenDBFromPool(s.pool) // closing it leaves the pool open
	defer db.Close()
	p, err := goose.NewProvider(goose.DialectPostgres, db, fsys,
		goose.WithDisableGlobalRegistry(true), // no package state shared with other goose users
		goose.WithLogger(goose.NopLogger()),
		goose.WithTableName(versionTable),
	)
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
	if _, err := conn.Exec(ctx, `SELECT pg_advisory_lock(hashtextextended('parley migrate ' || current_schema(), 0))`); err != nil {
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

func tooNew(loc string, current, target int64) error {
	if current > target {
		return fmt.Errorf("parley database %s has schema version %d, this parley knows up to %d: %w; upgrade parley, or choose another database with --db",
			loc, current, target, ErrSchemaTooNew)
	}
	return nil
}
