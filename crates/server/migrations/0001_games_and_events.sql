-- The schema every Tabula database has had from the start (the same SQL for SQLite and PostgreSQL).
-- `IF NOT EXISTS`: databases created before versioned migrations already have these tables, and open
-- unchanged; sqlx then records this migration as applied.
CREATE TABLE IF NOT EXISTS games (
    id TEXT PRIMARY KEY,
    game TEXT NOT NULL,
    status TEXT NOT NULL,
    created_at BIGINT NOT NULL,
    updated_at BIGINT NOT NULL
);

CREATE TABLE IF NOT EXISTS events (
    game_id TEXT NOT NULL,
    seq BIGINT NOT NULL,
    at_ms BIGINT NOT NULL,
    kind TEXT NOT NULL,
    data TEXT NOT NULL,
    PRIMARY KEY (game_id, seq)
);

CREATE INDEX IF NOT EXISTS games_status ON games (status);
