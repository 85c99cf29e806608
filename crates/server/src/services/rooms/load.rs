//! Loading a game into memory and letting it go again.
//!
//! A room is its log replayed ([`Rooms::room`] rebuilds it with [`GameCore::from_log`]; stored events
//! are applied by [`GameCore::apply_logged`] alone: each must follow the last seq, and a log that does
//! not apply is an internal error, never a refusal). Loads of one game are serialised, so a game is never in memory twice (loads
//! of different games go on side by side: a slow log never holds up another game); a loaded room
//! has its deadline and AI seats scheduled before anyone else can see it. A room leaves memory only
//! when nothing but the map holds it (no socket, AI move or request in flight) and it is over or idle:
//! it is loaded again from the log when asked for, so eviction loses nothing.

use std::sync::Arc;
use std::sync::atomic::Ordering;

use super::clock::downtime_note;
use super::{Room, Rooms};
use crate::base::error::Refusal;
use crate::domain::model::{Event, GameCore, Status};

impl Rooms {
    /// The room of game `id`, loading it from the log if needed.
    pub async fn room(self: &Arc<Self>, id: &str) -> Result<Arc<Room>, Refusal> {
        if let Some(r) = self.rooms().get(id) {
            return Ok(r.clone());
        }
        if uuid::Uuid::parse_str(id).is_err() {
            return Err(Refusal::NotFound(format!("no game “{id}”")));
        }
        // Loads of this game wait for each other; other games' loads go on.
        let ticket = LoadingTicket::take(self, id);
        let _guard = ticket.gate.lock().await;
        if let Some(r) = self.rooms().get(id) {
            return Ok(r.clone());
        }
        self.faults.wait_if_load_held(id).await;
        let events = self.db.load_events(id).await.map_err(|e| {
            tracing::error!(game_id = %id, error = %e, "storage error: cannot load the game");
            Refusal::Internal(e)
        })?;
        if events.is_empty() {
            return Err(Refusal::NotFound(format!("no game “{id}”")));
        }
        let room = Arc::new(self.rebuild(id, events)?);
        {
            // Nobody else can see the room yet: its lock is free, and its deadline and AI seats are
            // scheduled before it is shared (a caller that goes away cannot leave it unscheduled).
            let mut inner = room.inner.lock().await;
            // The lobby and the game's messages name the accounts holding the seats.
            match self.db.seat_players(id, inner.core.seats()).await {
                Ok(players) => *room.players.lock().unwrap_or_else(|e| e.into_inner()) = players,
                Err(e) => {
                    tracing::warn!(game_id = %id, error = %e, "cannot name the game's players")
                }
            }
            self.after_change(&room, &mut inner);
        }
        self.rooms().insert(id.to_string(), room.clone());
        Ok(room)
    }

    /// Rebuilds a game by replaying its log.
    pub(super) fn rebuild(&self, id: &str, events: Vec<Event>) -> Result<Room, Refusal> {
        let (kind, core, described) = GameCore::from_log(&self.registry, &events).map_err(|m| {
            Refusal::Internal(format!("game {id}: stored log is inconsistent: {m}"))
        })?;
        Ok(Room::new(id.to_string(), kind, core, events, described))
    }

    /// Resumes every unfinished game (at startup), one at a time: each is replayed so that its clock
    /// and AI seats resume and the lobby's index lists it, then dropped from memory again unless
    /// something holds it (a socket, an AI move) or it changed within [`crate::Limits::room_idle`].
    pub async fn resume_all(self: &Arc<Self>) -> Result<usize, String> {
        let ids = self.db.unfinished_games().await?;
        let mut n = 0;
        for id in ids {
            match self.room(&id).await {
                Ok(room) => {
                    n += 1;
                    let inner = room.inner.lock().await;
                    if let Some(line) = downtime_note(&inner, self.clock.now_ms()) {
                        tracing::warn!(game = %id, "{line}");
                    }
                    drop(inner);
                    drop(room);
                    self.evict_if_idle(&id);
                }
                Err(e) => tracing::error!("cannot resume game {id}: {e}"),
            }
        }
        Ok(n)
    }

    /// Drops from memory the games nobody holds (no socket, AI move or request in flight)
    /// that are over, or have not changed for [`crate::Limits::room_idle`]: they are loaded again from the
    /// log on demand. Returns how many were dropped.
    pub fn evict_idle(&self) -> usize {
        let idle_before = self.idle_before();
        let mut rooms = self.rooms();
        let before = rooms.len();
        rooms.retain(|_, r| !evictable(r, idle_before));
        before - rooms.len()
    }

    /// A room unchanged since this time (ms since the epoch) is idle: [`crate::Limits::room_idle`] ago.
    fn idle_before(&self) -> i64 {
        self.clock
            .now_ms()
            .saturating_sub(self.limits.room_idle.as_millis() as i64)
    }

    /// Drops game `id` from memory if it is evictable (see [`Rooms::evict_idle`]).
    pub(super) fn evict_if_idle(&self, id: &str) {
        let idle_before = self.idle_before();
        let mut rooms = self.rooms();
        if rooms.get(id).is_some_and(|r| evictable(r, idle_before)) {
            rooms.remove(id);
        }
    }
}

/// A caller's share of the lock that serialises loads of one game (see [`Rooms::room`]); the last
/// share let go (also when the caller goes away mid-load) removes the lock. Whoever takes a new one
/// afterwards finds the room in memory, or loads it alone.
struct LoadingTicket<'a> {
    rooms: &'a Rooms,
    id: &'a str,
    gate: Arc<tokio::sync::Mutex<()>>,
}

impl<'a> LoadingTicket<'a> {
    fn take(rooms: &'a Rooms, id: &'a str) -> LoadingTicket<'a> {
        let gate = rooms.loading().entry(id.to_string()).or_default().clone();
        LoadingTicket { rooms, id, gate }
    }
}

impl Drop for LoadingTicket<'_> {
    fn drop(&mut self) {
        let mut loading = self.rooms.loading();
        // Held by the map and this share only: nobody else waits for it.
        if Arc::strong_count(&self.gate) == 2 {
            loading.remove(self.id);
        }
    }
}

/// Whether a room may leave memory: nobody but the map holds it (no socket, AI task or request; a
/// clock timer does not hold it, the clock sweeper brings it back), and it is over or unchanged since
/// `idle_before`.
fn evictable(room: &Arc<Room>, idle_before: i64) -> bool {
    if Arc::strong_count(room) > 1 {
        return false;
    }
    let status = *room.status.lock().unwrap_or_else(|e| e.into_inner());
    matches!(status, Status::Over | Status::Imported)
        || room.last_change.load(Ordering::SeqCst) <= idle_before
}
