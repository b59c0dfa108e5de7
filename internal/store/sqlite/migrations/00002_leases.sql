-- +goose Up
-- One runner per debate: the lease its runner holds, as JSON (debate.Lease).
CREATE TABLE leases (
    debate_id TEXT PRIMARY KEY REFERENCES debates (id),
    lease     TEXT NOT NULL
);

-- +goose Down
DROP TABLE leases;
