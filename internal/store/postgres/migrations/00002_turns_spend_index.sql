-- +goose Up
-- Get and List read each debate's LLM turns and the models of its turns
-- recorded at $0 (debate.Summary's LLMTurns and Unpriced) from the turns
-- projection: this index holds all they read (an index-only scan).
CREATE INDEX turns_spend ON turns (debate_id, model, cost_usd);

-- +goose Down
DROP INDEX turns_spend;
