-- The event log is the source of truth; debates and turns are projections of
-- it, written in the same transaction as each append.
--
-- Times are UTC text in a fixed-width layout with nanoseconds
-- (2006-01-02T15:04:05.000000000Z): they sort as text and stay readable from
-- the sqlite3 shell.

-- +goose Up
CREATE TABLE events (
    debate_id TEXT    NOT NULL,
    seq       INTEGER NOT NULL CHECK (seq > 0),
    time      TEXT    NOT NULL,
    type      TEXT    NOT NULL,
    data      TEXT    NOT NULL,
    PRIMARY KEY (debate_id, seq)
);

CREATE TABLE debates (
    id       TEXT    NOT NULL PRIMARY KEY,
    format   TEXT    NOT NULL,
    topic    TEXT    NOT NULL,
    status   TEXT    NOT NULL,
    phase    TEXT    NOT NULL,
    round    INTEGER NOT NULL,
    turns    INTEGER NOT NULL,
    created  TEXT    NOT NULL,
    updated  TEXT    NOT NULL,
    last_seq INTEGER NOT NULL
);
CREATE INDEX debates_created ON debates (created DESC, id DESC);

-- One row per turn.completed event.
CREATE TABLE turns (
    debate_id          TEXT    NOT NULL,
    seq                INTEGER NOT NULL,
    time               TEXT    NOT NULL,
    turn_id            TEXT    NOT NULL,
    agent              TEXT    NOT NULL,
    role               TEXT    NOT NULL,
    label              TEXT    NOT NULL,
    phase              TEXT    NOT NULL,
    round              INTEGER NOT NULL,
    text               TEXT    NOT NULL,
    move               TEXT,
    invalid            TEXT    NOT NULL,
    model              TEXT    NOT NULL,
    input_tokens       INTEGER NOT NULL,
    output_tokens      INTEGER NOT NULL,
    cache_read_tokens  INTEGER NOT NULL,
    cache_write_tokens INTEGER NOT NULL,
    cost_usd           REAL    NOT NULL,
    PRIMARY KEY (debate_id, seq),
    FOREIGN KEY (debate_id, seq) REFERENCES events (debate_id, seq)
);
CREATE INDEX turns_turn ON turns (debate_id, turn_id);

-- +goose Down
DROP TABLE turns;
DROP TABLE debates;
DROP TABLE events;
