-- +goose Up
-- The debate's cost so far in the debates projection, for list and show.
ALTER TABLE debates ADD COLUMN cost_usd REAL NOT NULL DEFAULT 0;
UPDATE debates SET cost_usd = COALESCE((SELECT SUM(cost_usd) FROM turns WHERE turns.debate_id = debates.id), 0);

-- +goose Down
ALTER TABLE debates DROP COLUMN cost_usd;
