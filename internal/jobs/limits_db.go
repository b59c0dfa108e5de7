package jobs

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"time"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgxpool"
)

// pgLimits keeps the limits in PostgreSQL, timed by the database's clock.
type pgLimits struct{ pool *pgxpool.Pool }

func (d pgLimits) init(ctx context.Context) error {
	_, err := d.pool.Exec(ctx, `
CREATE TABLE IF NOT EXISTS parley_limits (provider text PRIMARY KEY, concurrency integer NOT NULL DEFAULT 0, tokens_per_minute integer NOT NULL DEFAULT 0);
CREATE TABLE IF NOT EXISTS parley_slots (provider text NOT NULL, holder text NOT NULL, expires timestamptz NOT NULL, PRIMARY KEY (provider, holder));
CREATE TABLE IF NOT EXISTS parley_tokens (provider text NOT NULL, second bigint NOT NULL, tokens bigint NOT NULL, PRIMARY KEY (provider, second));
CREATE TABLE IF NOT EXISTS parley_rate (name text PRIMARY KEY, next_at timestamptz NOT NULL);`)
	return err
}

func (d pgLimits) get(ctx context.Context, provider string) (Limit, error) {
	l := Limit{Provider: provider}
	err := d.pool.QueryRow(ctx, `SELECT concurrency, tokens_per_minute FROM parley_limits WHERE provider = $1`, provider).Scan(&l.Concurrency, &l.TokensPerMinute)
	if errors.Is(err, pgx.ErrNoRows) {
		err = nil
	}
	return l, err
}

func (d pgLimits) set(ctx context.Context, l Limit) error {
	_, err := d.pool.Exec(ctx, `INSERT INTO parley_limits (provider, concurrency, tokens_per_minute) VALUES ($1, $2, $3)
		ON CONFLICT (provider) DO UPDATE SET concurrency = excluded.concurrency, tokens_per_minute = excluded.tokens_per_minute`,
		l.Provider, l.Concurrency, l.TokensPerMinute)
	return err
}

func (d pgLimits) list(ctx context.Context) ([]Limit, error) {
	rows, err := d.pool.Query(ctx, `SELECT l.provider, l.concurrency, l.tokens_per_minute,
		(SELECT count(*) FROM parley_slots s WHERE s.provider = l.provider AND s.expires >= clock_timestamp()),
		(SELECT COALESCE(sum(t.tokens), 0) FROM parley_tokens t WHERE t.provider = l.provider AND t.second > floor(extract(epoch FROM clock_timestamp())) - 60)
		FROM parley_limits l ORDER BY l.provider`)
	if err != nil {
		return nil, err
	}
	return pgx.CollectRows(rows, func(r pgx.CollectableRow) (Limit, error) {
		var l Limit
		err := r.Scan(&l.Provider, &l.Concurrency, &l.TokensPerMinute, &l.InFlight, &l.LastMinute)
		return l, err
	})
}

func (d pgLimits) tryAcquire(ctx context.Context, provider, holder string, limit int, ttl time.Duration) (bool, error) {
	tx, err := d.pool.Begin(ctx)
	if err != nil {
		return false, err
	}
	defer tx.Rollback(context.WithoutCancel(ctx)) // no-op after Commit
	// Takers of one provider's slots queue on this lock, so that two never
	// both see the last free slot.
	if _, err := tx.Exec(ctx, `SELECT pg_advisory_xact_lock(hashtext('parley_slots:' || $1))`, provider); err != nil {
		return false, err
	}
	var n int
	if err := tx.QueryRow(ctx, `WITH gone AS (DELETE FROM parley_slots WHERE provider = $1 AND expires < clock_timestamp())
		SELECT count(*) FROM parley_slots WHERE provider = $1 AND expires >= clock_timestamp()`, provider).Scan(&n); err != nil {
		return false, err
	}
	if n >= limit {
		return false, nil
	}
	if _, err := tx.Exec(ctx, `INSERT INTO parley_slots (provider, holder, expires) VALUES ($1, $2, clock_timestamp() + $3 * interval '1 millisecond')`,
		provider, holder, ttl.Milliseconds()); err != nil {
		return false, err
	}
	return true, tx.Commit(ctx)
}

func (d pgLimits) renew(ctx context.Context, provider, holder string, ttl time.Duration) error {
	_, err := d.pool.Exec(ctx, `UPDATE parley_slots SET expires = clock_timestamp() + $3 * interval '1 millisecond' WHERE provider = $1 AND holder = $2`,
		provider, holder, ttl.Milliseconds())
	return err
}

func (d pgLimits) release(ctx context.Context, provider, holder string) error {
	_, err := d.pool.Exec(ctx, `DELETE FROM parley_slots WHERE provider = $1 AND holder = $2`, provider, holder)
	return err
}

func (d pgLimits) holders(ctx context.Context, provider string) ([]string, error) {
	rows, err := d.pool.Query(ctx, `SELECT holder FROM parley_slots WHERE provider = $1`, provider)
	if err != nil {
		return nil, err
	}
	return pgx.CollectRows(rows, pgx.RowTo[string])
}

func (d pgLimits) tokens(ctx context.Context, provider string, window time.Duration) (int64, error) {
	var n int64
	err := d.pool.QueryRow(ctx, `SELECT COALESCE(sum(tokens), 0) FROM parley_tokens WHERE provider = $1 AND second > floor(extract(epoch FROM clock_timestamp())) - $2`,
		provider, int64(window/time.Second)).Scan(&n)
	return n, err
}

func (d pgLimits) addTokens(ctx context.Context, provider string, n int64) error {
	b := &pgx.Batch{}
	b.Queue(`INSERT INTO parley_tokens (provider, second, tokens) VALUES ($1, floor(extract(epoch FROM clock_timestamp())), $2)
		ON CONFLICT (provider, second) DO UPDATE SET tokens = parley_tokens.tokens + excluded.tokens`, provider, n)
	b.Queue(`DELETE FROM parley_tokens WHERE provider = $1 AND second < floor(extract(epoch FROM clock_timestamp())) - 3600`, provider)
	return d.pool.SendBatch(ctx, b).Close()
}

func (d pgLimits) reserve(ctx context.Context, name string, interval time.Duration) (time.Duration, error) {
	var wait float64
	err := d.pool.QueryRow(ctx, `INSERT INTO parley_rate AS r (name, next_at) VALUES ($1, clock_timestamp() + $2 * interval '1 microsecond')
		ON CONFLICT (name) DO UPDATE SET next_at = GREATEST(r.next_at, clock_timestamp()) + $2 * interval '1 microsecond'
		RETURNING extract(epoch FROM (r.next_at - $2 * interval '1 microsecond' - clock_timestamp()))::float8`,
		name, interval.Microseconds()).Scan(&wait)
	return time.Duration(wait * float64(time.Second)), err
}

// sqliteLimits keeps the limits in the SQLite file, timed by this machine's
// clock (every process using the file runs on it). Its transactions begin
// IMMEDIATE (the store's pool), which serializes the takers of a slot.
type sqliteLimits struct {
	db  *sql.DB
	now func() time.Time
}

func (d sqliteLimits) init(ctx context.Context) error {
	_, err := d.db.ExecContext(ctx, `
CREATE TABLE IF NOT EXISTS parley_limits (provider TEXT PRIMARY KEY, concurrency INTEGER NOT NULL DEFAULT 0, tokens_per_minute INTEGER NOT NULL DEFAULT 0);
CREATE TABLE IF NOT EXISTS parley_slots (provider TEXT NOT NULL, holder TEXT NOT NULL, expires INTEGER NOT NULL, PRIMARY KEY (provider, holder));
CREATE TABLE IF NOT EXISTS parley_tokens (provider TEXT NOT NULL, second INTEGER NOT NULL, tokens INTEGER NOT NULL, PRIMARY KEY (provider, second));
CREATE TABLE IF NOT EXISTS parley_rate (name TEXT PRIMARY KEY, next_at INTEGER NOT NULL);`)
	return err
}

func (d sqliteLimits) get(ctx context.Context, provider string) (Limit, error) {
	l := Limit{Provider: provider}
	err := d.db.QueryRowContext(ctx, `SELECT concurrency, tokens_per_minute FROM parley_limits WHERE provider = ?`, provider).Scan(&l.Concurrency, &l.TokensPerMinute)
	if errors.Is(err, sql.ErrNoRows) {
		err = nil
	}
	return l, err
}

func (d sqliteLimits) set(ctx context.Context, l Limit) error {
	_, err := d.db.ExecContext(ctx, `INSERT INTO parley_limits (provider, concurrency, tokens_per_minute) VALUES (?, ?, ?)
		ON CONFLICT (provider) DO UPDATE SET concurrency = excluded.concurrency, tokens_per_minute = excluded.tokens_per_minute`,
		l.Provider, l.Concurrency, l.TokensPerMinute)
	return err
}

func (d sqliteLimits) list(ctx context.Context) ([]Limit, error) {
	now := d.now()
	rows, err := d.db.QueryContext(ctx, `SELECT l.provider, l.concurrency, l.tokens_per_minute,
		(SELECT count(*) FROM parley_slots s WHERE s.provider = l.provider AND s.expires >= ?),
		(SELECT COALESCE(sum(t.tokens), 0) FROM parley_tokens t WHERE t.provider = l.provider AND t.second > ?)
		FROM parley_limits l ORDER BY l.provider`, now.UnixNano(), now.Unix()-60)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	var out []Limit
	for rows.Next() {
		var l Limit
		if err := rows.Scan(&l.Provider, &l.Concurrency, &l.TokensPerMinute, &l.InFlight, &l.LastMinute); err != nil {
			return nil, err
		}
		out = append(out, l)
	}
	return out, rows.Err()
}

func (d sqliteLimits) tryAcquire(ctx context.Context, provider, holder string, limit int, ttl time.Duration) (bool, error) {
	tx, err := d.db.BeginTx(ctx, nil)
	if err != nil {
		return false, err
	}
	defer tx.Rollback() // no-op after Commit
	now := d.now().UnixNano()
	if _, err := tx.ExecContext(ctx, `DELETE FROM parley_slots WHERE provider = ? AND expires < ?`, provider, now); err != nil {
		return false, err
	}
	var n int
	if err := tx.QueryRowContext(ctx, `SELECT count(*) FROM parley_slots WHERE provider = ?`, provider).Scan(&n); err != nil {
		return false, err
	}
	if n >= limit {
		return false, nil
	}
	if _, err := tx.ExecContext(ctx, `INSERT INTO parley_slots (provider, holder, expires) VALUES (?, ?, ?)`, provider, holder, now+ttl.Nanoseconds()); err != nil {
		return false, err
	}
	return true, tx.Commit()
}

func (d sqliteLimits) renew(ctx context.Context, provider, holder string, ttl time.Duration) error {
	_, err := d.db.ExecContext(ctx, `UPDATE parley_slots SET expires = ? WHERE provider = ? AND holder = ?`, d.now().Add(ttl).UnixNano(), provider, holder)
	return err
}

func (d sqliteLimits) release(ctx context.Context, provider, holder string) error {
	_, err := d.db.ExecContext(ctx, `DELETE FROM parley_slots WHERE provider = ? AND holder = ?`, provider, holder)
	return err
}

func (d sqliteLimits) holders(ctx context.Context, provider string) ([]string, error) {
	rows, err := d.db.QueryContext(ctx, `SELECT holder FROM parley_slots WHERE provider = ?`, provider)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	var out []string
	for rows.Next() {
		var h string
		if err := rows.Scan(&h); err != nil {
			return nil, err
		}
		out = append(out, h)
	}
	return out, rows.Err()
}

func (d sqliteLimits) tokens(ctx context.Context, provider string, window time.Duration) (int64, error) {
	var n int64
	err := d.db.QueryRowContext(ctx, `SELECT COALESCE(sum(tokens), 0) FROM parley_tokens WHERE provider = ? AND second > ?`,
		provider, d.now().Unix()-int64(window/time.Second)).Scan(&n)
	return n, err
}

func (d sqliteLimits) addTokens(ctx context.Context, provider string, n int64) error {
	now := d.now().Unix()
	if _, err := d.db.ExecContext(ctx, `INSERT INTO parley_tokens (provider, second, tokens) VALUES (?, ?, ?)
		ON CONFLICT (provider, second) DO UPDATE SET tokens = tokens + excluded.tokens`, provider, now, n); err != nil {
		return err
	}
	_, err := d.db.ExecContext(ctx, `DELETE FROM parley_tokens WHERE provider = ? AND second < ?`, provider, now-3600)
	return err
}

func (d sqliteLimits) reserve(ctx context.Context, name string, interval time.Duration) (time.Duration, error) {
	tx, err := d.db.BeginTx(ctx, nil)
	if err != nil {
		return 0, err
	}
	defer tx.Rollback() // no-op after Commit
	now := d.now()
	var next int64
	err = tx.QueryRowContext(ctx, `SELECT next_at FROM parley_rate WHERE name = ?`, name).Scan(&next)
	if err != nil && !errors.Is(err, sql.ErrNoRows) {
		return 0, err
	}
	slot := max(now.UnixNano(), next)
	if _, err := tx.ExecContext(ctx, `INSERT INTO parley_rate (name, next_at) VALUES (?, ?) ON CONFLICT (name) DO UPDATE SET next_at = excluded.next_at`,
		name, slot+interval.Nanoseconds()); err != nil {
		return 0, err
	}
	if err := tx.Commit(); err != nil {
		return 0, fmt.Errorf("commit: %w", err)
	}
	return time.Duration(slot - now.UnixNano()), nil
}
