-- Optional player accounts (issue 24): accounts, their sign-in sessions, the seats they hold, and
-- Glicko-2 ratings per game kind with their history. The same SQL for SQLite and PostgreSQL.

-- `name_key` is the name in lower case: names are unique without regard to case.
CREATE TABLE accounts (
    id TEXT PRIMARY KEY,
    name TEXT NOT NULL,
    name_key TEXT NOT NULL UNIQUE,
    password_hash TEXT NOT NULL,
    created_at BIGINT NOT NULL
);

-- A signed-in browser: only the SHA-256 of its cookie's secret is stored; `csrf` is the token every
-- state-changing request made with the cookie must repeat in its `X-CSRF-Token` header.
CREATE TABLE sessions (
    token_hash TEXT PRIMARY KEY,
    account_id TEXT NOT NULL,
    csrf TEXT NOT NULL,
    created_at BIGINT NOT NULL,
    expires_at BIGINT NOT NULL
);
CREATE INDEX sessions_account ON sessions (account_id);

-- The seats an account holds, with the seat's token (so that the account plays it from any device);
-- `result` ('win', 'draw', 'loss') is set in the transaction that records the game's end.
CREATE TABLE game_seats (
    game_id TEXT NOT NULL,
    seat BIGINT NOT NULL,
    account_id TEXT NOT NULL,
    token TEXT NOT NULL,
    result TEXT,
    PRIMARY KEY (game_id, seat)
);
CREATE INDEX game_seats_account ON game_seats (account_id);

-- An account's Glicko-2 rating in one game kind (a game id: each Cyvasse family is its own).
CREATE TABLE ratings (
    account_id TEXT NOT NULL,
    game TEXT NOT NULL,
    rating DOUBLE PRECISION NOT NULL,
    rd DOUBLE PRECISION NOT NULL,
    volatility DOUBLE PRECISION NOT NULL,
    games BIGINT NOT NULL,
    updated_at BIGINT NOT NULL,
    PRIMARY KEY (account_id, game)
);
CREATE INDEX ratings_board ON ratings (game, rating);

-- The rating after each rated game.
CREATE TABLE rating_history (
    account_id TEXT NOT NULL,
    game TEXT NOT NULL,
    game_id TEXT NOT NULL,
    at_ms BIGINT NOT NULL,
    rating DOUBLE PRECISION NOT NULL,
    rd DOUBLE PRECISION NOT NULL,
    PRIMARY KEY (account_id, game_id)
);
