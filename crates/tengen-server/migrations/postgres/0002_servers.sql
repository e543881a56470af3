-- Each running server writes the time here every second. At start, a server that finds
-- no other alive knows since when nobody was keeping the clocks, and does not charge that
-- downtime to the players (record::Action::Restart).
CREATE TABLE servers (
    instance TEXT PRIMARY KEY,
    seen_ms  BIGINT NOT NULL
);
