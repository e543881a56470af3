-- When each seat's player was last seen on the game's page (a server holding their socket
-- writes it every few seconds, and when it closes): the opponent of a player away longer than
-- the grace may claim the game.
ALTER TABLE games ADD COLUMN black_seen_ms BIGINT;
ALTER TABLE games ADD COLUMN white_seen_ms BIGINT;
