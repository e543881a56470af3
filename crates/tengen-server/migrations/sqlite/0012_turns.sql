-- Whose move it is (derived, as the phase is): a player's list of games to move in; and the
-- deadlines, which the clock keeper reads from the database.
ALTER TABLE games ADD COLUMN to_move TEXT;
CREATE INDEX games_deadline ON games (deadline_ms);
CREATE INDEX games_black_turn ON games (black_account, to_move);
CREATE INDEX games_white_turn ON games (white_account, to_move);
