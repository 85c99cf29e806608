//! The chat's messages (`chat_messages`): each channel of a game numbered from 1, its latest messages
//! kept. Not events of the log: records and replays hold no chat.

use sqlx::Row;

use crate::storage::db::{Db, on_pool};
use crate::wire::game::{ChatChannel, ChatMessage};

/// Who wrote a stored message: a seat of the game, or an account (the spectators' channel).
#[derive(Debug, Clone, Copy)]
pub enum Author<'a> {
    Seat(u8),
    Account(&'a str),
}

/// A message to store.
#[derive(Debug, Clone, Copy)]
pub struct NewMessage<'a> {
    pub at: i64,
    pub by: Author<'a>,
    /// The author's name as shown.
    pub author: &'a str,
    pub text: &'a str,
}

/// Whether a database error is a key's uniqueness violation.
fn is_unique_violation(e: &sqlx::Error) -> bool {
    e.as_database_error()
        .is_some_and(|d| d.is_unique_violation())
}

impl Db {
    /// The latest `limit` messages of a game's channel, oldest first.
    pub async fn chat_history(
        &self,
        id: &str,
        channel: ChatChannel,
        limit: u32,
    ) -> Result<Vec<ChatMessage>, String> {
        let sql = "SELECT n, at_ms, seat, author, body FROM chat_messages \
                   WHERE game_id = $1 AND channel = $2 ORDER BY n DESC LIMIT $3";
        let rows: Vec<ChatMessage> = on_pool!(self, p => {
            match sqlx::query(sql).bind(id).bind(channel.as_str())
                .bind(i64::from(limit)).fetch_all(p).await {
                Ok(rows) => rows.iter().map(|r| Ok::<_, sqlx::Error>(ChatMessage {
                    n: r.try_get(0)?, at: r.try_get(1)?, seat: r.try_get(2)?,
                    author: r.try_get(3)?, text: r.try_get(4)?,
                })).collect::<Result<Vec<_>, _>>(),
                Err(e) => Err(e),
            }
        })
        .map_err(|e| e.to_string())?;
        Ok(rows.into_iter().rev().collect())
    }

    /// The number of the channel's latest message (0 before the first).
    pub async fn chat_last(&self, id: &str, channel: ChatChannel) -> Result<i64, String> {
        on_pool!(self, p => {
            sqlx::query_scalar("SELECT COALESCE(MAX(n), 0) FROM chat_messages WHERE game_id = $1 AND channel = $2")
                .bind(id).bind(channel.as_str()).fetch_one(p).await
        })
        .map_err(|e| e.to_string())
    }

    /// Stores a message as number `after + 1` of its channel (on a cluster another node may number
    /// one at the same moment: the key (game, channel, n) refuses the second, which takes the next
    /// number), then deletes the channel's messages beyond the latest `keep`. Returns the message.
    pub async fn store_chat(
        &self,
        id: &str,
        channel: ChatChannel,
        after: i64,
        message: NewMessage<'_>,
        keep: u32,
    ) -> Result<ChatMessage, String> {
        let (seat, account) = match message.by {
            Author::Seat(s) => (Some(i64::from(s)), None),
            Author::Account(a) => (None, Some(a)),
        };
        let sql = "INSERT INTO chat_messages (game_id, channel, n, at_ms, seat, account_id, author, body) \
                   VALUES ($1, $2, $3, $4, $5, $6, $7, $8)";
        let mut n = after + 1;
        let mut tries = 0;
        loop {
            let inserted = on_pool!(self, p => {
                sqlx::query(sql).bind(id).bind(channel.as_str()).bind(n).bind(message.at).bind(seat)
                    .bind(account).bind(message.author).bind(message.text).execute(p).await.map(|_| ())
            });
            match inserted {
                Ok(()) => break,
                Err(e) if tries < 5 && is_unique_violation(&e) => {
                    tries += 1;
                    n = self.chat_last(id, channel).await? + 1;
                }
                Err(e) => return Err(e.to_string()),
            }
        }
        // The channel keeps its latest messages only: the oldest beyond the cap go.
        let keep_from = n - i64::from(keep.max(1));
        if keep_from > 0 {
            let pruned = on_pool!(self, p => {
                sqlx::query("DELETE FROM chat_messages WHERE game_id = $1 AND channel = $2 AND n <= $3")
                    .bind(id).bind(channel.as_str()).bind(keep_from).execute(p).await.map(|_| ())
            });
            if let Err(e) = pruned {
                // The message is stored; the old ones go with the next message.
                tracing::warn!(game_id = %id, error = %e, "chat: cannot delete the oldest messages");
            }
        }
        Ok(ChatMessage {
            n,
            at: message.at,
            seat,
            author: message.author.to_string(),
            text: message.text.to_string(),
        })
    }

    /// Message `n` of a game's channel, if it is stored.
    pub async fn chat_message(
        &self,
        id: &str,
        channel: ChatChannel,
        n: i64,
    ) -> Result<Option<ChatMessage>, String> {
        let sql = "SELECT at_ms, seat, author, body FROM chat_messages \
                   WHERE game_id = $1 AND channel = $2 AND n = $3";
        on_pool!(self, p => {
            match sqlx::query(sql).bind(id).bind(channel.as_str()).bind(n).fetch_optional(p).await {
                Ok(Some(r)) => (|| Ok(Some(ChatMessage {
                    n, at: r.try_get(0)?, seat: r.try_get(1)?, author: r.try_get(2)?, text: r.try_get(3)?,
                })))(),
                Ok(None) => Ok(None),
                Err(e) => Err(e),
            }
        })
        .map_err(|e: sqlx::Error| e.to_string())
    }

    /// On a cluster node: `NOTIFY channel, payload` (nothing elsewhere).
    pub async fn notify(&self, channel: &str, payload: &str) -> Result<(), String> {
        let Some(pool) = self.pg_pool() else {
            return Ok(());
        };
        sqlx::query("SELECT pg_notify($1, $2)")
            .bind(channel)
            .bind(payload)
            .execute(pool)
            .await
            .map(|_| ())
            .map_err(|e| e.to_string())
    }
}
