// Package open opens the debate store that a location names: a SQLite file
// (Parley's default, embedded) or a PostgreSQL database, named by a
// postgres:// or postgresql:// URL. Commands take the location from --db or
// the environment and need not know the backends.
package open

import (
	"context"
	"errors"
	"fmt"
	"net/url"
	"strings"

	"github.com/parleyhq/parley/internal/debate"
	"github.com/parleyhq/parley/internal/store/postgres"
	"github.com/parleyhq/parley/internal/store/sqlite"
)

// ErrNoDatabase is OpenExisting's answer when there is no Parley database
// where loc points.
var ErrNoDatabase = errors.New("no Parley database")

// IsPostgres reports whether loc names a PostgreSQL database.
func IsPostgres(loc string) bool { return postgres.IsURL(loc) }

// Describe is loc fit for messages: a URL without its password.
func Describe(loc string) string {
	if IsPostgres(loc) {
		return postgres.Redact(loc)
	}
	// Another scheme's URL (a mistake: sqlite://, mysql://) may carry a
	// password too.
	if strings.Contains(loc, "://") {
		if u, err := url.Parse(loc); err == nil && u.User != nil {
			return u.Redacted()
		}
	}
	return loc
}

// Open opens the store at loc for a command that writes to it, creating the
// database (SQLite) or the schema (PostgreSQL) if need be.
func Open(ctx context.Context, loc string) (debate.Store, error) {
	if IsPostgres(loc) {
		s, err := postgres.Open(ctx, loc)
		if err != nil {
			return nil, err
		}
		return s, nil
	}
	s, err := sqlite.Open(ctx, loc)
	if err != nil {
		return nil, err
	}
	return s, nil
}

// OpenExisting opens the store at loc for a command that only reads it
// (list, show, export): it creates nothing, and answers ErrNoDatabase when
// there is nothing to read.
func OpenExisting(ctx context.Context, loc string) (debate.Store, error) {
	if IsPostgres(loc) {
		s, err := postgres.OpenExisting(ctx, loc)
		if errors.Is(err, postgres.ErrNoDatabase) {
			return nil, fmt.Errorf("%w at %s", ErrNoDatabase, Describe(loc))
		}
		if err != nil {
			return nil, err
		}
		return s, nil
	}
	s, err := sqlite.OpenReadOnly(ctx, loc)
	if errors.Is(err, sqlite.ErrNoDatabase) {
		return nil, fmt.Errorf("%w at %s", ErrNoDatabase, loc)
	}
	if err != nil {
		return nil, err
	}
	return s, nil
}

// IsConfigError reports whether err says that loc is wrong as configured (a
// URL that does not parse, a server that cannot be reached or refuses the
// user, a search_path naming no schema), as opposed to a failure of the
// database itself.
func IsConfigError(err error) bool {
	return errors.Is(err, postgres.ErrBadURL) || errors.Is(err, postgres.ErrConnect) || errors.Is(err, postgres.ErrNoSchema)
}
