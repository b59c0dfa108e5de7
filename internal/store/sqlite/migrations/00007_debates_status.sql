-- +goose Up
-- List filtered by status (the dashboard's and the API's filters, the
-- debates a server resumes, /metrics's running ones) reads this index from
-- the newest debate of that status on, instead of every debate's row.
CREATE INDEX debates_status ON debates (status, created DESC, id DESC);
-- Count (/metrics) groups the debates by status and format and sums their
-- turns and cost: from this index alone, already in its order, instead of
-- the table's rows (50,000 debates: 15 ms instead of 100-200 ms).
CREATE INDEX debates_tally ON debates (status, format, turns, cost_usd);

-- +goose Down
DROP INDEX debates_tally;
DROP INDEX debates_status;
