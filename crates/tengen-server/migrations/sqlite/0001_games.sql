-- Games and their logs. A game is its configuration plus its log of events; the other
-- columns of `games` are derived from them and kept for listing and scheduling.
CREATE TABLE games (
    id          TEXT PRIMARY KEY,
    created_ms  BIGINT NOT NULL,
    updated_ms  BIGINT NOT NULL,
    config      TEXT NOT NULL,    -- JSON of record::Config
    black_token TEXT,             -- SHA-256 (hex) of Black's seat token; NULL without a seat
    white_token TEXT,
    sgf         TEXT,             -- an imported record (review only)
    events      BIGINT NOT NULL,  -- derived: length of the log
    moves       BIGINT NOT NULL,  -- derived: moves played
    phase       TEXT NOT NULL,    -- derived: placing, playing, counting, ended
    result      TEXT,             -- derived: B+1.5, W+R, ...
    deadline_ms BIGINT            -- derived: when the running clock's flag falls
);
CREATE INDEX games_by_update ON games (updated_ms);
CREATE INDEX games_by_phase ON games (phase);

CREATE TABLE events (
    game_id TEXT NOT NULL REFERENCES games (id),
    seq     BIGINT NOT NULL,      -- 1, 2, 3, ... : a second writer of the same number fails
    color   TEXT,                 -- who acted; NULL for the server
    action  TEXT NOT NULL,        -- JSON of record::Action
    at_ms   BIGINT NOT NULL,
    PRIMARY KEY (game_id, seq)
);
