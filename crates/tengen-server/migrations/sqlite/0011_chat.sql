-- A game's board size as a column (for the ranks of the games in play), and its chat.
ALTER TABLE games ADD COLUMN size BIGINT;
UPDATE games SET size = CAST(json_extract(config, '$.size') AS INTEGER) WHERE json_valid(config);
CREATE INDEX games_in_play ON games (phase, updated_ms);
-- A game's chat: each message with its author (an account, or a guest's seat), the author's
-- role (black, white or watcher), and the moves played when it was written.
CREATE TABLE chat (
    game_id    TEXT NOT NULL REFERENCES games (id),
    seq        BIGINT NOT NULL,
    account_id TEXT REFERENCES accounts (id),
    name       TEXT NOT NULL,
    role       TEXT NOT NULL,
    body       TEXT NOT NULL,
    moves      BIGINT NOT NULL,
    at_ms      BIGINT NOT NULL,
    PRIMARY KEY (game_id, seq)
);
