-- +goose Up
-- debate.Summary's LLMTurns and Unpriced in the debates projection, kept at
-- each append like the other fields, so that Get and List read one row per
-- debate instead of an aggregate over its turns. Columns with a constant
-- default are added without rewriting the table. The backfill from the
-- turns is version 5, in Go (spendBackfill in migrate.go): it judges old
-- turns by the built-in prices, which SQL cannot read.
ALTER TABLE debates
    ADD COLUMN llm_turns       integer NOT NULL DEFAULT 0,
    ADD COLUMN unpriced_models json    NOT NULL DEFAULT '[]';

-- +goose Down
ALTER TABLE debates DROP COLUMN unpriced_models, DROP COLUMN llm_turns;
