// Package pgtest gives each test a PostgreSQL database of its own: a new
// schema, with a random name, in the database that PARLEY_TEST_POSTGRES
// names, dropped when the test ends. Tests in several packages and
// processes can then run in parallel against one server.
//
// Without PARLEY_TEST_POSTGRES the tests skip, saying how to run them
// (.ci/run sets it). With it set, a server that cannot be reached fails the
// test rather than skipping it, so that CI never passes without them.
package pgtest

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"net/url"
	"os"
	"testing"
	"time"

	"github.com/jackc/pgx/v5"
)

// EnvVar names the environment variable holding the test database's URL.
const EnvVar = "PARLEY_TEST_POSTGRES"

// AltEnvVar is the name the issue tracker uses for the same URL; either
// one will do.
const AltEnvVar = "PARLEY_TEST_DATABASE_URL"

// BaseURL returns the test database's URL, or skips the test when
// PARLEY_TEST_POSTGRES is unset.
func BaseURL(t testing.TB) string {
	t.Helper()
	base := os.Getenv(EnvVar)
	if base == "" {
		base = os.Getenv(AltEnvVar)
	}
	if base == "" {
		t.Skipf("PostgreSQL tests skipped: set %s to a database they may use, e.g. %s=postgres://parley:parley@localhost:5432/parley_test?sslmode=disable (.ci/run starts a server and sets it)", EnvVar, EnvVar)
	}
	return base
}

// URL returns the URL of a new, empty schema for the test (search_path set
// to it), dropped with everything in it when the test ends.
func URL(t testing.TB) string {
	t.Helper()
	base := BaseURL(t)
	u, err := url.Parse(base)
	if err != nil {
		t.Fatalf("%s is not a URL: %v", EnvVar, err)
	}
	var b [6]byte
	_, _ = rand.Read(b[:])
	schema := "parley_test_" + hex.EncodeToString(b[:])
	exec(t, base, `CREATE SCHEMA `+pgx.Identifier{schema}.Sanitize())
	t.Cleanup(func() { exec(t, base, `DROP SCHEMA `+pgx.Identifier{schema}.Sanitize()+` CASCADE`) })
	q := u.Query()
	q.Set("search_path", schema)
	u.RawQuery = q.Encode()
	return u.String()
}

func exec(t testing.TB, dsn, sql string, args ...any) {
	t.Helper()
	// Not t.Context(): cleanups run after it is cancelled.
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	conn, err := pgx.Connect(ctx, dsn)
	if err != nil {
		t.Fatalf("connect to the test database (%s): %v", EnvVar, err)
	}
	defer conn.Close(ctx)
	if _, err := conn.Exec(ctx, sql, args...); err != nil {
		t.Fatalf("%s: %v", sql, err)
	}
}
