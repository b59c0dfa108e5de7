-- +goose Up
-- Get and List read each debate's LLM turns and the models of its turns
-- recorded at $0 (debate.Summary's LLMTurns and Unpriced) from the turns
-- projection. This index holds all they read, so they need not read the
-- turns' rows, whose text comes before the model and spills over pages.
CREATE INDEX turns_spend ON turns (debate_id, model, cost_usd);

-- +goose Down
DROP INDEX turns_spend;
