-- +goose Up
-- List filtered by status (the dashboard's and the API's filters, the
-- debates a server resumes, /metrics's running ones) reads this index from
-- the newest debate of that status on, instead of every debate's row.
CREATE INDEX debates_status ON debates (status, created DESC, id DESC);

-- +goose Down
DROP INDEX debates_status;
