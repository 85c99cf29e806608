-- The engine's analysis of a finished game (crates/server/src/analysis.rs): computed once, kept with
-- the game. `data` is the analysis JSON as the AI crate writes it. The same SQL for SQLite and
-- PostgreSQL.
CREATE TABLE analyses (
    game_id TEXT PRIMARY KEY,
    created_at BIGINT NOT NULL,
    data TEXT NOT NULL
);
