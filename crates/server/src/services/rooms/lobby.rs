//! The lobby: an index of the summaries of public unfinished games, and the expiry of waiting games.
//!
//! The index is kept at every change ([`Rooms::index`], called after each commit and load), loaded
//! games or not, so answering the lobby never reads the games in memory or the database: it joins
//! summaries already rendered to JSON text. Waiting games are indexed by their last event's time, and
//! one whose seats are not all joined within [`crate::Limits::waiting_expiry`] ends with no winner. A
//! summary names the accounts holding the seats, with their ratings ([`Rooms::refresh_players`]),
//! refreshed when a seat is bound or a rated game ends.

use std::cmp::Reverse;
use std::collections::BTreeMap;
use std::sync::Arc;

use tabula_core::Seat;

use super::{Room, RoomInner, Rooms, detached};
use crate::domain::model::{EventData, Status};
use crate::wire::api::{LobbyGame, LobbySeat};

/// Public unfinished games' summaries as JSON text (rendered once per change, so answering the lobby
/// only joins texts), newest first (keyed by creation time, then id).
#[derive(Default)]
pub(super) struct LobbyIndex {
    open: BTreeMap<(Reverse<i64>, String), String>,
    live: BTreeMap<(Reverse<i64>, String), String>,
}

/// Games of each kind the lobby lists.
const LOBBY_LIMIT: usize = 200;

impl Rooms {
    /// Files the room's summary in the lobby's index, and its last change in the waiting games'.
    pub(super) fn index(&self, room: &Room, inner: &RoomInner) {
        let summary = room
            .summary
            .lock()
            .unwrap_or_else(|e| e.into_inner())
            .clone();
        let created_at = inner.events.first().map_or(0, |e| e.at);
        let key = (Reverse(created_at), room.id.clone());
        let status = inner.core.status;
        {
            let mut lobby = self.lobby.lock().unwrap_or_else(|e| e.into_inner());
            lobby.open.remove(&key);
            lobby.live.remove(&key);
            if inner.core.config.public {
                match status {
                    Status::Waiting => {
                        lobby.open.insert(key, summary);
                    }
                    Status::Running => {
                        lobby.live.insert(key, summary);
                    }
                    Status::Over | Status::Imported => {}
                }
            }
        }
        let mut waiting = self.waiting.lock().unwrap_or_else(|e| e.into_inner());
        if status == Status::Waiting {
            let last = inner.events.last().map_or(0, |e| e.at);
            waiting.insert(room.id.clone(), last);
        } else {
            waiting.remove(&room.id);
        }
    }

    /// The lobby: public games with an open seat, and public running games, newest first (at most
    /// 200 of each), read from an index kept up to date at every change (loaded games or not).
    /// The answer is JSON text: `{"open": [...], "live": [...]}`.
    pub fn lobby(&self) -> String {
        let lobby = self.lobby.lock().unwrap_or_else(|e| e.into_inner());
        let list = |games: &BTreeMap<(Reverse<i64>, String), String>| {
            let items: Vec<&str> = games
                .values()
                .take(LOBBY_LIMIT)
                .map(String::as_str)
                .collect();
            items.join(",")
        };
        format!(
            r#"{{"open":[{}],"live":[{}]}}"#,
            list(&lobby.open),
            list(&lobby.live)
        )
    }

    /// Ends the waiting games whose last event is older than [`crate::Limits::waiting_expiry`] (not every
    /// seat joined in time): each gets an `end` event with no winner. Returns how many expired.
    pub async fn expire_waiting(self: &Arc<Self>) -> usize {
        let Some(before) = self
            .clock
            .now_ms()
            .checked_sub(self.limits.waiting_expiry.as_millis() as i64)
        else {
            return 0;
        };
        let due: Vec<String> = self
            .waiting
            .lock()
            .unwrap_or_else(|e| e.into_inner())
            .iter()
            .filter(|(_, at)| **at <= before)
            .map(|(id, _)| id.clone())
            .collect();
        let mut n = 0;
        for id in due {
            let room = match self.room(&id).await {
                Ok(r) => r,
                Err(e) => {
                    tracing::error!("cannot expire game {id}: {e}");
                    continue;
                }
            };
            let shared = self.clone();
            let days = self.limits.waiting_expiry.as_secs_f64() / 86_400.0;
            let expired = detached(&id, async move {
                let mut inner = room.inner.lock().await;
                let last = inner.events.last().map_or(0, |e| e.at);
                if inner.core.status != Status::Waiting || last > before {
                    return Ok(false);
                }
                let result = tabula_core::Outcome::draw(
                    inner.core.seats(),
                    format!("expired: not every seat joined within {days} days"),
                );
                shared
                    .commit_inner(&room, &mut inner, vec![EventData::End { result }], None)
                    .await?;
                Ok(true)
            })
            .await;
            match expired {
                Ok(true) => n += 1,
                Ok(false) => {}
                Err(e) => tracing::error!("cannot expire game {id}: {e}"),
            }
        }
        n
    }

    /// Names the accounts holding the room's seats, with their ratings, in its lobby summary and its
    /// next messages (after a seat was bound to an account or unbound, or a player's rating changed).
    pub async fn refresh_players(self: &Arc<Self>, room: &Arc<Room>) {
        let inner = room.inner.lock().await;
        match self.db.seat_players(&room.id, inner.core.seats()).await {
            Ok(players) => {
                *room.players.lock().unwrap_or_else(|e| e.into_inner()) = players;
                room.refresh_summary(&inner);
                self.index(room, &inner);
            }
            Err(e) => {
                tracing::warn!(game_id = %room.id, error = %e, "the lobby cannot name the game's players")
            }
        }
    }

    /// Refreshes, in the background, the lobby summaries of the unfinished games of the players of
    /// game `id`, whose rated end changed their ratings.
    pub(super) fn ratings_changed(self: &Arc<Self>, id: &str) {
        let (shared, id) = (self.clone(), id.to_string());
        tokio::spawn(async move {
            match shared.db.games_of_players(&id).await {
                Ok(ids) => shared.refresh_players_of(&ids).await,
                Err(e) => {
                    tracing::warn!(game_id = %id, error = %e, "the lobby cannot refresh ratings")
                }
            }
        });
    }

    /// [`Rooms::refresh_players`] of the given games (loading them if needed).
    pub async fn refresh_players_of(self: &Arc<Self>, ids: &[String]) {
        for id in ids {
            if let Ok(room) = self.room(id).await {
                self.refresh_players(&room).await;
            }
        }
    }
}

impl Room {
    pub(super) fn refresh_summary(&self, inner: &RoomInner) {
        let core = &inner.core;
        let created_at = inner.events.first().map_or(0, |e| e.at);
        let players = self.players.lock().unwrap_or_else(|e| e.into_inner());
        let seats = core
            .config
            .seats
            .iter()
            .enumerate()
            .map(|(i, kind)| LobbySeat {
                seat: i,
                name: core.state.seat_name(Seat::new(i)),
                joined: core.joined.get(i).copied().unwrap_or(false),
                kind: kind.clone().into(),
                player: players.get(i).and_then(|p| p.as_ref().map(|p| p.lobby())),
            })
            .collect();
        drop(players);
        let summary = LobbyGame {
            id: self.id.clone(),
            game: core.config.game.clone(),
            name: self.kind.name().to_string(),
            status: core.status.as_str().to_string(),
            public: core.config.public,
            created_at,
            seats,
            clock: core.config.clock.map(Into::into),
            moves: core.actions,
            seed_commitment: core.seed_commitment.to_string(),
            rated: core.config.rated,
            rating_range: core.config.rating_range.map(Into::into),
        };
        // Rendered once per change: answering the lobby only joins these texts.
        let summary = match serde_json::to_string(&summary) {
            Ok(text) => text,
            Err(e) => {
                tracing::error!(game_id = %self.id, error = %e, "cannot render the lobby summary");
                return;
            }
        };
        *self.summary.lock().unwrap_or_else(|e| e.into_inner()) = summary;
        *self.status.lock().unwrap_or_else(|e| e.into_inner()) = core.status;
    }
}
