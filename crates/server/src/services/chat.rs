//! In-game chat: two channels per game, stored with the game and pushed over its WebSocket.
//!
//! * **`players`**: the seats' chat. Written and read only with a seat's token (a human seat; AI
//!   seats do not chat), in every state of the game (waiting, running, over). Never shown to a
//!   spectator, during the game or after it.
//! * **`spectators`**: the watchers' chat, as on lichess. Written by signed-in accounts (with the
//!   session's CSRF token) that hold no seat of the game, or by the game's players once it is over;
//!   read by every spectator. The players do not see it while the game runs (no advice from the
//!   audience); once it is over they see it too.
//!
//! Limits ([`ChatLimits`]): a message is trimmed, must not be empty, holds at most
//! [`ChatLimits::max_chars`] characters, no control characters (one line of text) and at least one
//! visible character (not only invisible, spacing, combining or direction-override characters);
//! each sender (a seat, or an account) has a budget per game of [`ChatLimits::burst`] messages, then
//! one per [`ChatLimits::period`], and each channel of a game, all senders together, a budget of
//! [`ChatLimits::channel_burst`], then one per [`ChatLimits::channel_period`] (`governor`). A channel
//! keeps its latest [`ChatLimits::max_per_channel`] messages (older ones are deleted as new ones
//! come): a channel is never closed for good by a flood. A refused message stores nothing.
//!
//! Messages are stored in `chat_messages` (migration `0004_chat.sql`), on their own: a chat line is
//! not an event of the game's log (replay and records do not contain it), but is kept with the game
//! for as long as the game is. A message is sent to the game's sockets only once it is stored:
//! `{"type": "chat", "channel", "message"}` to every socket that may read that channel; after each
//! snapshot a socket gets `{"type": "chat_history", "channels": {…}}` with the recent history of the
//! channels it may read (only when there is any). `GET /api/games/{id}/chat` answers the same history.

use std::collections::{BTreeMap, HashMap};
use std::num::NonZeroU32;
use std::sync::Mutex as StdMutex;
use std::time::Duration;

use crate::base::text::SharedText;
use governor::{DefaultKeyedRateLimiter, Quota, RateLimiter};

use crate::services::limits::ChatLimits;
use crate::wire::game::{ChatChannel, ChatMessage, SocketMsg};
use tabula_core::Observer;
use tokio::sync::{Mutex, broadcast};

use crate::base::error::Refusal;
use crate::base::time::now_ms;
use crate::domain::model::Status;
use crate::services::rooms::Room;
use crate::storage::chat::{Author, NewMessage};
use crate::storage::db::Db;

/// A channel's rules (the type is the wire's).
impl ChatChannel {
    /// Its name on the wire and in storage.
    pub fn as_str(self) -> &'static str {
        match self {
            ChatChannel::Players => "players",
            ChatChannel::Spectators => "spectators",
        }
    }

    pub fn parse(s: &str) -> Result<ChatChannel, Refusal> {
        match s {
            "players" => Ok(ChatChannel::Players),
            "spectators" => Ok(ChatChannel::Spectators),
            other => Err(Refusal::BadRequest(format!(
                "unknown chat channel “{other}”: it is “players” or “spectators”"
            ))),
        }
    }

    /// Whether `obs` may read this channel of a game whose status is `status`.
    pub fn readable_by(self, obs: Observer, status: Status) -> bool {
        match (self, obs) {
            (ChatChannel::Players, Observer::Seat(_)) => true,
            (ChatChannel::Players, Observer::Spectator) => false,
            (ChatChannel::Spectators, Observer::Spectator) => true,
            (ChatChannel::Spectators, Observer::Seat(_)) => finished(status),
        }
    }
}

pub fn finished(status: Status) -> bool {
    matches!(status, Status::Over | Status::Imported)
}

/// A stored message pushed to a game's sockets: its channel and its `chat` message's text.
#[derive(Debug, Clone)]
pub struct Pushed {
    pub channel: ChatChannel,
    pub text: SharedText,
}

/// Who sends a message.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub enum Sender {
    Seat(u8),
    Account(String),
}

/// The server's chat: storage, the senders' budgets and the live channels.
pub struct Chat {
    db: Db,
    pub limits: ChatLimits,
    budgets: DefaultKeyedRateLimiter<(String, Sender)>,
    /// Per game and channel, all senders together.
    channel_budgets: DefaultKeyedRateLimiter<(String, ChatChannel)>,
    /// Per game, the messages for its sockets (created when a socket subscribes).
    channels: StdMutex<HashMap<String, broadcast::Sender<Pushed>>>,
    /// Numbers messages one at a time (a message's number is the channel's last one plus one).
    insert: Mutex<()>,
}

impl Chat {
    pub fn new(db: Db, limits: ChatLimits) -> Chat {
        let quota = |burst: u32, period: Duration| {
            let burst = NonZeroU32::new(burst.max(1)).unwrap_or(NonZeroU32::MIN);
            Quota::with_period(period.max(Duration::from_millis(1)))
                .unwrap_or_else(|| Quota::per_second(burst))
                .allow_burst(burst)
        };
        Chat {
            db,
            limits,
            budgets: RateLimiter::keyed(quota(limits.burst, limits.period)),
            channel_budgets: RateLimiter::keyed(quota(limits.channel_burst, limits.channel_period)),
            channels: StdMutex::new(HashMap::new()),
            insert: Mutex::new(()),
        }
    }

    /// Forgets the senders whose budget has refilled, and the channels of games nobody watches.
    pub fn tidy(&self) {
        let mut channels = self.channels.lock().unwrap_or_else(|e| e.into_inner());
        channels.retain(|_, tx| tx.receiver_count() > 0);
        channels.shrink_to_fit();
        drop(channels);
        self.budgets.retain_recent();
        self.budgets.shrink_to_fit();
        self.channel_budgets.retain_recent();
        self.channel_budgets.shrink_to_fit();
    }

    /// The chat messages of game `id`, for a socket watching it (filtered by the socket).
    pub fn subscribe(&self, id: &str) -> broadcast::Receiver<Pushed> {
        let mut channels = self.channels.lock().unwrap_or_else(|e| e.into_inner());
        if channels.len() > 1024 {
            channels.retain(|_, tx| tx.receiver_count() > 0);
        }
        channels
            .entry(id.to_string())
            .or_insert_with(|| broadcast::channel(64).0)
            .subscribe()
    }

    fn publish(&self, id: &str, channel: ChatChannel, message: &ChatMessage) {
        let channels = self.channels.lock().unwrap_or_else(|e| e.into_inner());
        if let Some(tx) = channels.get(id) {
            let text = SocketMsg::Chat {
                channel,
                message: message.clone(),
            }
            .to_text();
            let _ = tx.send(Pushed {
                channel,
                text: SharedText::from(text),
            });
        }
    }

    /// The checked text of a message: trimmed, not empty, at most `max_chars`, one line.
    pub fn check_text(&self, text: &str) -> Result<String, Refusal> {
        let text = text.trim();
        if text.is_empty() {
            return Err(Refusal::BadRequest("the message is empty".into()));
        }
        let chars = text.chars().count();
        if chars > self.limits.max_chars {
            return Err(Refusal::BadRequest(format!(
                "the message is too long: {chars} characters, at most {} are allowed",
                self.limits.max_chars
            )));
        }
        if text.chars().any(char::is_control) {
            return Err(Refusal::BadRequest(
                "the message contains control characters (line breaks, tabs…): a chat message is \
                 one line of text"
                    .into(),
            ));
        }
        if text.chars().all(invisible) {
            return Err(Refusal::BadRequest(
                "the message has nothing visible: it is made only of invisible, spacing or \
                 direction-override characters"
                    .into(),
            ));
        }
        Ok(text.to_string())
    }

    /// The latest messages of a game's channel, oldest first.
    async fn history(&self, id: &str, channel: ChatChannel) -> Result<Vec<ChatMessage>, Refusal> {
        self.db
            .chat_history(id, channel, self.limits.history)
            .await
            .map_err(storage(id, channel))
    }

    /// The history of every channel `obs` may read (only the readable channels are present).
    pub async fn histories(
        &self,
        id: &str,
        obs: Observer,
        status: Status,
    ) -> Result<BTreeMap<ChatChannel, Vec<ChatMessage>>, Refusal> {
        let mut out = BTreeMap::new();
        for channel in [ChatChannel::Players, ChatChannel::Spectators] {
            if channel.readable_by(obs, status) {
                out.insert(channel, self.history(id, channel).await?);
            }
        }
        Ok(out)
    }

    /// Checks the budget, numbers and stores a message, then pushes it; returns it.
    pub async fn store(
        &self,
        id: &str,
        channel: ChatChannel,
        sender: Sender,
        author: &str,
        text: &str,
    ) -> Result<ChatMessage, Refusal> {
        let _one = self.insert.lock().await;
        let last = self
            .db
            .chat_last(id, channel)
            .await
            .map_err(storage(id, channel))?;
        // The budgets are spent only by a message that would be stored: the sender's first (a
        // flooder spends its own budget, not the channel's), then the channel's.
        if self
            .budgets
            .check_key(&(id.to_string(), sender.clone()))
            .is_err()
        {
            return Err(Refusal::RateLimited(format!(
                "you are sending chat messages too fast: {} in a row, then one every {} s",
                self.limits.burst,
                self.limits.period.as_secs_f64()
            )));
        }
        if self
            .channel_budgets
            .check_key(&(id.to_string(), channel))
            .is_err()
        {
            return Err(Refusal::RateLimited(format!(
                "this game's {} chat is busy: {} messages in a row, then one every {} s from \
                 everyone together; try again in a moment",
                channel.as_str(),
                self.limits.channel_burst,
                self.limits.channel_period.as_secs_f64()
            )));
        }
        let by = match &sender {
            Sender::Seat(s) => Author::Seat(*s),
            Sender::Account(a) => Author::Account(a),
        };
        let new = NewMessage {
            at: now_ms(),
            by,
            author,
            text,
        };
        let message = self
            .db
            .store_chat(id, channel, last, new, self.limits.max_per_channel)
            .await
            .map_err(storage(id, channel))?;
        let n = message.n;
        self.publish(id, channel, &message);
        self.announce(id, channel, n).await;
        Ok(message)
    }

    /// On a cluster node: tells the other nodes that message `n` of a game's channel was stored
    /// (`NOTIFY tabula_chat`), so that they push it to their own sockets ([`Chat::follow`]). A lost
    /// notification loses no message: it is stored, and every history (snapshots, `GET …/chat`)
    /// reads it.
    async fn announce(&self, id: &str, channel: ChatChannel, n: i64) {
        let Some(node) = self.db.node() else {
            return;
        };
        let payload = format!("{} {} {} {}", node.id, channel.as_str(), n, id);
        if let Err(e) = self.db.notify(CLUSTER_CHANNEL, &payload).await {
            tracing::warn!(game_id = %id, error = %e, "chat: cannot notify the other nodes");
        }
    }

    /// Pushes to this node's sockets a message another node stored (a `tabula_chat` notification:
    /// `node channel n game`): read from storage, never from the notification. Only games with a
    /// socket here are read.
    pub async fn follow(&self, payload: &str) {
        let mut parts = payload.splitn(4, ' ');
        let (Some(from), Some(channel), Some(n), Some(id)) =
            (parts.next(), parts.next(), parts.next(), parts.next())
        else {
            return;
        };
        if self.db.node().is_some_and(|node| node.id == from) {
            return;
        }
        let (Ok(channel), Ok(n)) = (ChatChannel::parse(channel), n.parse::<i64>()) else {
            return;
        };
        let watched = {
            let channels = self.channels.lock().unwrap_or_else(|e| e.into_inner());
            channels.get(id).is_some_and(|tx| tx.receiver_count() > 0)
        };
        if !watched {
            return;
        }
        match self.db.chat_message(id, channel, n).await {
            Ok(Some(message)) => self.publish(id, channel, &message),
            Ok(None) => {}
            Err(e) => {
                tracing::warn!(game_id = %id, error = %e, "chat: cannot read another node's message")
            }
        }
    }
}

/// Whether `c` shows nothing by itself: white space, a format character (zero-width spaces and
/// joiners, direction marks, embeddings, overrides and isolates, …), a combining mark, or one of the
/// letters drawn blank (Hangul fillers, the blank Braille pattern).
fn invisible(c: char) -> bool {
    use unicode_properties::{GeneralCategory as G, UnicodeGeneralCategory};
    c.is_whitespace()
        || matches!(
            c.general_category(),
            G::Format
                | G::Control
                | G::SpaceSeparator
                | G::LineSeparator
                | G::ParagraphSeparator
                | G::NonspacingMark
                | G::EnclosingMark
        )
        || matches!(
            c,
            '\u{115F}' | '\u{1160}' | '\u{3164}' | '\u{FFA0}' | '\u{2800}' | '\u{034F}'
        )
}

/// The `NOTIFY` channel on which cluster nodes announce stored chat messages.
pub const CLUSTER_CHANNEL: &str = "tabula_chat";

/// The refusal of a chat request that storage failed, logged with its game and channel.
fn storage(game_id: &str, channel: ChatChannel) -> impl Fn(String) -> Refusal + '_ {
    move |e| {
        tracing::error!(%game_id, channel = channel.as_str(), error = %e, "storage error in the chat");
        Refusal::Unavailable("storage is unavailable; nothing was sent, try again later".into())
    }
}

/// The `chat_history` message a socket gets after a snapshot, if it may read any message.
pub async fn history_message(chat: &Chat, room: &Room, obs: Observer) -> Option<String> {
    let status = room.inner.lock().await.core.status;
    match chat.histories(&room.id, obs, status).await {
        Ok(channels) => {
            let any = channels.values().any(|messages| !messages.is_empty());
            any.then(|| SocketMsg::ChatHistory { channels }.to_text())
        }
        Err(e) => {
            tracing::warn!(game_id = %room.id, error = %e, "cannot read the chat's history for a socket");
            None
        }
    }
}

/// Whether a socket watching as `obs` gets a pushed message (the game's status decides whether a
/// seat reads the spectators' chat).
pub async fn delivers(room: &Room, obs: Observer, pushed: &Pushed) -> bool {
    match (pushed.channel, obs) {
        (ChatChannel::Spectators, Observer::Seat(_)) => {
            finished(room.inner.lock().await.core.status)
        }
        (channel, obs) => channel.readable_by(obs, Status::Running),
    }
}
