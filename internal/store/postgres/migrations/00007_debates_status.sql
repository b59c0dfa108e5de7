-- +goose NO TRANSACTION
-- Built CONCURRENTLY, outside a transaction, so that appends to a large
-- debates table go on while it runs.

-- +goose Up
-- List filtered by status (the dashboard's and the API's filters, the
-- debates a server resumes, /metrics's running ones) reads this index from
-- the newest debate of that status on, instead of every debate's row. Ties
-- by id in byte order, as debates_created.
-- A build that failed half-way leaves an invalid index of that name:
-- dropped first, so that running the migration again builds it.
DROP INDEX CONCURRENTLY IF EXISTS debates_status;
CREATE INDEX CONCURRENTLY debates_status ON debates (status, created DESC, id COLLATE "C" DESC);

-- +goose Down
DROP INDEX CONCURRENTLY IF EXISTS debates_status;
