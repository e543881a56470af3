-- Imported records in a table of their own: in `games` a record's text lay before the
-- derived columns, so every listing of games read every record through (SQLite stores a
-- row's columns in order).
CREATE TABLE records (
    game_id TEXT PRIMARY KEY REFERENCES games (id),
    sgf     TEXT NOT NULL
);
INSERT INTO records (game_id, sgf) SELECT id, sgf FROM games WHERE sgf IS NOT NULL;
UPDATE games SET sgf = NULL WHERE sgf IS NOT NULL;
