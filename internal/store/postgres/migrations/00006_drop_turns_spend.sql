-- +goose NO TRANSACTION
-- Index work runs outside a transaction, CONCURRENTLY, so that appends to
-- a large turns table go on while it runs.

-- +goose Up
-- turns_spend served the aggregate over a debate's turns that Get and List
-- ran until the spend columns of version 4; nothing reads it now, and each
-- append paid to keep it up.
DROP INDEX CONCURRENTLY IF EXISTS turns_spend;

-- +goose Down
-- A build that failed half-way leaves an invalid index of that name:
-- dropped first, so that running the migration again builds it.
DROP INDEX CONCURRENTLY IF EXISTS turns_spend;
CREATE INDEX CONCURRENTLY turns_spend ON turns (debate_id, model, cost_usd, priced);
