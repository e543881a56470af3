-- Challenges: open ones in the lobby (to_account NULL) and direct ones to a named player. The
-- terms are JSON (`domain::challenge::Terms`); `state` goes from 'open' to 'accepted',
-- 'cancelled', 'declined' or 'expired' exactly once (each change is a conditional UPDATE).
-- A live challenge stays while its owner is seen in the lobby (`seen_ms`, refreshed by the
-- node that holds the owner's lobby connection); every challenge has a deadline.
CREATE TABLE challenges (
    id          TEXT PRIMARY KEY,
    owner_id    TEXT NOT NULL REFERENCES accounts (id),
    to_id       TEXT REFERENCES accounts (id),
    size        BIGINT NOT NULL,
    terms       TEXT NOT NULL,
    live        BIGINT NOT NULL,
    state       TEXT NOT NULL,
    created_ms  BIGINT NOT NULL,
    expires_ms  BIGINT NOT NULL,
    seen_ms     BIGINT NOT NULL,
    acceptor_id TEXT REFERENCES accounts (id),
    game_id     TEXT,
    changed_ms  BIGINT NOT NULL
);
CREATE INDEX challenges_state ON challenges (state, expires_ms);
CREATE INDEX challenges_owner ON challenges (owner_id, state);
-- A player's blocks: the blocked player cannot challenge them, accept their challenges, or
-- be read by them in a game's chat.
CREATE TABLE blocks (
    account_id TEXT NOT NULL REFERENCES accounts (id),
    blocked_id TEXT NOT NULL REFERENCES accounts (id),
    created_ms BIGINT NOT NULL,
    PRIMARY KEY (account_id, blocked_id)
);
CREATE INDEX blocks_blocked ON blocks (blocked_id);
