-- Review jobs, one per game: queued by any viewer of a finished or imported game, claimed by a
-- worker (a server or `tengen worker`) under a lease that it renews while it works; a
-- worker whose lease ran out has lost the job, and its late results are refused.
CREATE TABLE reviews (
    game_id        TEXT PRIMARY KEY REFERENCES games (id),
    state          TEXT NOT NULL,             -- queued, running, done, failed
    engine         TEXT NOT NULL,             -- playouts, or network:NAME
    strength       BIGINT NOT NULL,           -- simulations (a network's visits) a position
    client         TEXT NOT NULL,             -- who asked (fair order between clients)
    requested_ms   BIGINT NOT NULL,
    updated_ms     BIGINT NOT NULL,
    progress       DOUBLE PRECISION NOT NULL,            -- 0 to 1
    lease_owner    TEXT,                      -- the worker holding it while running
    lease_until_ms BIGINT,
    attempts       BIGINT NOT NULL,           -- claims so far
    partial        TEXT,                      -- JSON: the moves judged so far
    result         TEXT,                      -- JSON of tengen_review::Review when done
    error          TEXT                       -- why it failed
);
CREATE INDEX reviews_waiting ON reviews (state, requested_ms);
