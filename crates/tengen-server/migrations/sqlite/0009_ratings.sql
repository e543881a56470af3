-- Seats held by accounts (derived from the log, as the names are), rated games, and ratings.
ALTER TABLE games ADD COLUMN black_account TEXT;
ALTER TABLE games ADD COLUMN white_account TEXT;
ALTER TABLE games ADD COLUMN rated BIGINT NOT NULL DEFAULT 0;
CREATE INDEX games_black_account ON games (black_account);
CREATE INDEX games_white_account ON games (white_account);
-- A player's Glicko-2 rating on one board size.
CREATE TABLE ratings (
    account_id TEXT NOT NULL REFERENCES accounts (id),
    size       BIGINT NOT NULL,
    rating     DOUBLE PRECISION NOT NULL,
    deviation  DOUBLE PRECISION NOT NULL,
    volatility DOUBLE PRECISION NOT NULL,
    games      BIGINT NOT NULL,
    wins       BIGINT NOT NULL,
    losses     BIGINT NOT NULL,
    updated_ms BIGINT NOT NULL,
    PRIMARY KEY (account_id, size)
);
-- Each rated game's change for each player, written in the transaction of the game's last
-- event; the key makes a second rating of one game fail.
CREATE TABLE rating_changes (
    game_id           TEXT NOT NULL REFERENCES games (id),
    account_id        TEXT NOT NULL REFERENCES accounts (id),
    size              BIGINT NOT NULL,
    rating_before     DOUBLE PRECISION NOT NULL,
    deviation_before  DOUBLE PRECISION NOT NULL,
    volatility_before DOUBLE PRECISION NOT NULL,
    rating_after      DOUBLE PRECISION NOT NULL,
    deviation_after   DOUBLE PRECISION NOT NULL,
    volatility_after  DOUBLE PRECISION NOT NULL,
    score             DOUBLE PRECISION NOT NULL,   -- 1 won, 0 lost, 0.5 drawn
    at_ms             BIGINT NOT NULL,
    PRIMARY KEY (game_id, account_id)
);
CREATE INDEX rating_changes_account ON rating_changes (account_id, at_ms);
