-- The computer's work of each game (its move, or the proposal of dead stones) when the servers
-- share it with `tengen worker` processes (`tengen serve --shared-moves`): one row per game,
-- for the state after `events` events; claimed under a lease renewed while the search runs.
-- The game's log decides: a result for an older state is not appended.
CREATE TABLE computer_jobs (
    game_id        TEXT PRIMARY KEY REFERENCES games (id),
    events         BIGINT NOT NULL,
    client         TEXT NOT NULL,             -- whose work it is (fair order between clients)
    queued_ms      BIGINT NOT NULL,
    lease_owner    TEXT,
    lease_until_ms BIGINT NOT NULL
);
CREATE INDEX computer_jobs_waiting ON computer_jobs (lease_until_ms, queued_ms);
