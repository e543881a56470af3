-- Players' accounts (optional: guests play with seat links). A name is unique without regard
-- to case (`name_key`: NFKC, lower case); a deleted account keeps its row and name, without
-- its password, so that nobody takes the name of a player whose games remain.
CREATE TABLE accounts (
    id            TEXT PRIMARY KEY,
    name          TEXT NOT NULL,
    name_key      TEXT NOT NULL UNIQUE,
    password_hash TEXT,                 -- Argon2id (PHC string); NULL once deleted
    must_change   BIGINT NOT NULL,      -- 1 after the operator's reset: a one-time password
    created_ms    BIGINT NOT NULL,
    deleted_ms    BIGINT
);
-- Sessions: SHA-256 of the cookie's token; every server node on the database sees them.
CREATE TABLE sessions (
    token_hash TEXT PRIMARY KEY,
    account_id TEXT NOT NULL REFERENCES accounts (id),
    created_ms BIGINT NOT NULL,
    expires_ms BIGINT NOT NULL
);
CREATE INDEX sessions_account ON sessions (account_id);
-- Failed logins and sign-ups, by key ('login-address:IP', 'login-account:NAME-KEY',
-- 'signup-address:IP'): the limits count them over a window, on every node alike.
CREATE TABLE auth_attempts (
    attempt_key TEXT NOT NULL,
    at_ms       BIGINT NOT NULL
);
CREATE INDEX auth_attempts_key ON auth_attempts (attempt_key, at_ms);
