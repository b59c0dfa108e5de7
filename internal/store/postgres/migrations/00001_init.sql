-- The PostgreSQL schema of Parley's store: the same tables as the SQLite
-- store's (its three migrations in one), with SQL types where SQLite has
-- text. The event log is the source of truth; debates, turns and leases are
-- written in the same transaction as each append or lease change.
--
-- Times are timestamptz (microseconds). Event data is json, not jsonb: json
-- keeps the text exactly as appended (key order, spacing, big numbers),
-- which the store contract requires, and is still queryable with ->>.

-- +goose Up
CREATE TABLE events (
    debate_id text        NOT NULL,
    seq       bigint      NOT NULL CHECK (seq > 0),
    time      timestamptz NOT NULL,
    type      text        NOT NULL,
    data      json        NOT NULL,
    PRIMARY KEY (debate_id, seq)
);

-- One row per debate: debate.Summary as debate.Project computes it. Appends
-- to a debate take this row's lock (SELECT ... FOR UPDATE), which orders
-- them; the events primary key is the backstop against duplicates.
CREATE TABLE debates (
    id       text             NOT NULL PRIMARY KEY,
    format   text             NOT NULL,
    topic    text             NOT NULL,
    status   text             NOT NULL,
    phase    text             NOT NULL,
    round    integer          NOT NULL,
    turns    integer          NOT NULL,
    created  timestamptz      NOT NULL,
    updated  timestamptz      NOT NULL,
    last_seq bigint           NOT NULL,
    cost_usd double precision NOT NULL DEFAULT 0
);
-- List: newest first, ties by id in byte order (as the other stores sort).
CREATE INDEX debates_created ON debates (created DESC, id COLLATE "C" DESC);

-- One row per turn.completed event.
CREATE TABLE turns (
    debate_id          text             NOT NULL,
    seq                bigint           NOT NULL,
    time               timestamptz      NOT NULL,
    turn_id            text             NOT NULL,
    agent              text             NOT NULL,
    role               text             NOT NULL,
    label              text             NOT NULL,
    phase              text             NOT NULL,
    round              integer          NOT NULL,
    text               text             NOT NULL,
    move               json,
    invalid            text             NOT NULL,
    model              text             NOT NULL,
    input_tokens       bigint           NOT NULL,
    output_tokens      bigint           NOT NULL,
    cache_read_tokens  bigint           NOT NULL,
    cache_write_tokens bigint           NOT NULL,
    cost_usd           double precision NOT NULL,
    PRIMARY KEY (debate_id, seq),
    FOREIGN KEY (debate_id, seq) REFERENCES events (debate_id, seq)
);
CREATE INDEX turns_turn ON turns (debate_id, turn_id);

-- One runner per debate. owner is debate.LeaseOwner as JSON, kept verbatim
-- so that its times come back to the nanosecond; since and expires are the
-- database's clock, so that every machine judges expiry alike.
CREATE TABLE leases (
    debate_id text        PRIMARY KEY REFERENCES debates (id),
    owner     json        NOT NULL,
    since     timestamptz NOT NULL,
    expires   timestamptz NOT NULL
);

-- +goose Down
DROP TABLE leases;
DROP TABLE turns;
DROP TABLE debates;
DROP TABLE events;
