-- One queue for the work that servers and `tengen worker` processes share: the computer's move
-- (or proposal of dead stones) of a game, kind 'move', for its state after `events` events;
-- and a game's review, kind 'review' (its state, progress and result stay in `reviews`). A job
-- waits (lease_until_ms 0), is held by one worker under a lease it renews, and is finished
-- (finished_ms); finished jobs are kept a while, as the turns between clients count them.
CREATE TABLE jobs (
    kind           TEXT NOT NULL,             -- move, review
    game_id        TEXT NOT NULL REFERENCES games (id),
    events         BIGINT NOT NULL,           -- a move's: the game's state it is for; a review's 0
    needs          TEXT NOT NULL,             -- '' (any worker), or the network it needs: network:NAME
    client         TEXT NOT NULL,             -- whose work it is (turns between clients)
    queued_ms      BIGINT NOT NULL,
    lease_owner    TEXT,                      -- the worker holding it
    lease_until_ms BIGINT NOT NULL,           -- 0 while it waits
    attempts       BIGINT NOT NULL,           -- claims so far
    finished_ms    BIGINT,                    -- when it ended
    PRIMARY KEY (kind, game_id)
);
CREATE INDEX jobs_waiting ON jobs (kind, finished_ms, lease_until_ms, queued_ms);
CREATE INDEX jobs_client ON jobs (client, kind);

INSERT INTO jobs (kind, game_id, events, needs, client, queued_ms, lease_owner, lease_until_ms, attempts, finished_ms)
SELECT 'move', game_id, events, '', client, queued_ms, lease_owner, lease_until_ms, 0, NULL FROM computer_jobs;
INSERT INTO jobs (kind, game_id, events, needs, client, queued_ms, lease_owner, lease_until_ms, attempts, finished_ms)
SELECT 'review', game_id, 0, CASE WHEN engine = 'playouts' THEN '' ELSE engine END, client, requested_ms,
       CASE WHEN state = 'running' THEN lease_owner END,
       CASE WHEN state = 'running' THEN COALESCE(lease_until_ms, 0) ELSE 0 END, attempts,
       CASE WHEN state IN ('queued', 'running') THEN NULL ELSE updated_ms END
FROM reviews;
DROP TABLE computer_jobs;
ALTER TABLE reviews DROP COLUMN lease_owner;
ALTER TABLE reviews DROP COLUMN lease_until_ms;
ALTER TABLE reviews DROP COLUMN attempts;
