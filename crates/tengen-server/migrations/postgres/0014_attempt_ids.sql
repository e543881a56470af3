-- Each attempt's id: an attempt is recorded and counted before its password is checked (so
-- that guesses sent at once cannot all pass the count), then forgotten under the keys it
-- turned out not to be (a login that succeeds is no failure). Older rows have none.
ALTER TABLE auth_attempts ADD COLUMN attempt_id TEXT;
CREATE INDEX auth_attempts_id ON auth_attempts (attempt_id);
