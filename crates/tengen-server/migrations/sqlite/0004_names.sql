-- The names shown for the seats, derived: a seat may name itself after the game began
-- (the `name` action), so the list of games reads them here, not from `config`.
ALTER TABLE games ADD COLUMN black_name TEXT;
ALTER TABLE games ADD COLUMN white_name TEXT;
