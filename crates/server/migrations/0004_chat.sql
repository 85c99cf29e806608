-- In-game chat (crates/server/src/chat.rs): each game's messages, per channel ('players' or
-- 'spectators'), numbered from 1 within the channel. `seat` is the sender's seat (players' chat),
-- `account_id` the sender's account (spectators' chat, or a player's bound account); `author` is the
-- name shown (the seat's side, or the account's name at the time). The same SQL for SQLite and
-- PostgreSQL.
CREATE TABLE chat_messages (
    game_id TEXT NOT NULL,
    channel TEXT NOT NULL,
    n BIGINT NOT NULL,
    at_ms BIGINT NOT NULL,
    seat BIGINT,
    account_id TEXT,
    author TEXT NOT NULL,
    body TEXT NOT NULL,
    PRIMARY KEY (game_id, channel, n)
);
