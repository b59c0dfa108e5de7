-- +goose Up
-- Whether a turn's cost came from a known price (debate.TurnCompleted.Priced):
-- a turn recorded at $0 with a price the user gave is free, not unknown.
-- Turns recorded before it have false, and are judged by the built-in
-- prices as before. The spend index gains it so that Get and List keep an
-- index-only scan.
ALTER TABLE turns ADD COLUMN priced boolean NOT NULL DEFAULT false;
DROP INDEX turns_spend;
CREATE INDEX turns_spend ON turns (debate_id, model, cost_usd, priced);

-- +goose Down
DROP INDEX turns_spend;
CREATE INDEX turns_spend ON turns (debate_id, model, cost_usd);
ALTER TABLE turns DROP COLUMN priced;
