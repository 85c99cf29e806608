//! The one path of every change: check on a scratch copy, commit to the log, then install and
//! broadcast.
//!
//! Invariants:
//! * every change goes through [`Rooms::commit_bound`] (or [`Rooms::commit_inner`]) under the room's
//!   lock; the room is changed only after storage acknowledged the events, so the log is the truth and
//!   the room never runs ahead of it;
//! * a refused change (the game refuses an event, storage refuses the commit) leaves the room as it
//!   was;
//! * a commit refused before its `COMMIT` (a lost lease or server lock, a key another writer stored
//!   first, any error inside the transaction) is a definite "not written": it is refused (`503`),
//!   whatever the log holds at its seq, and on a cluster node the room catches up with the log;
//! * only a commit of unknown outcome (the `COMMIT` failed, or its answer was lost) is settled by
//!   reading the log, and by its events, never by its last seq alone: the log holds these very events
//!   (same seqs, times and contents, same writer node and lease epoch), and it is acknowledged; it
//!   holds nothing there, and nothing changed; it holds other events, or cannot be read, and the room
//!   is marked unsure and catches up with its log before any further change (and by itself in the
//!   background meanwhile);
//! * after every change [`Rooms::after_change`] refreshes the lobby summary, files the clock's next
//!   deadline and schedules the AI seats.

use std::sync::Arc;
use std::sync::atomic::Ordering;
use std::time::Duration;

use tabula_core::Seat;

use super::follow::Writer;
use super::{Described, Room, RoomInner, Rooms};
use crate::base::error::Refusal;
use crate::domain::model::{Event, EventData, GameCore, Status, reserve_log};
use crate::domain::ratings::{GameEnd, SeatBinding};
use crate::storage::db::{WriteFailure, WriteRequest};

impl Rooms {
    /// Applies `first` (then the automatic follow-ups) to a scratch copy, commits, then installs and
    /// broadcasts. Returns the seq of the first new event. Runs only on tasks nobody cancels (see the
    /// module documentation): between the commit and the room's update there must be no way out.
    pub(super) async fn commit_inner(
        self: &Arc<Self>,
        room: &Arc<Room>,
        inner: &mut RoomInner,
        first: Vec<EventData>,
        created: Option<Event>,
    ) -> Result<u64, Refusal> {
        self.commit_bound(room, inner, first, created, Vec::new())
            .await
    }

    /// [`Rooms::commit_inner`] that also binds seats to accounts, in the same transaction.
    pub(super) async fn commit_bound(
        self: &Arc<Self>,
        room: &Arc<Room>,
        inner: &mut RoomInner,
        first: Vec<EventData>,
        created: Option<Event>,
        bindings: Vec<SeatBinding>,
    ) -> Result<u64, Refusal> {
        self.catch_up(room, inner).await?;
        // On a cluster node: committed here (holding the game's lease, or taking it), or by the
        // game's owner (`rooms::follow`).
        let epoch = match (self.db.node(), &created) {
            (Some(node), Some(_)) => {
                node.note_new_game(&room.id);
                Some(1)
            }
            _ => match self.writer_for(room, inner, &first, &bindings).await? {
                Writer::Here(epoch) => epoch,
                Writer::Forwarded(seq) => return Ok(seq),
            },
        };
        let last_at = inner.events.last().map_or(0, |e| e.at);
        let now = self.clock.now_ms().max(last_at);
        let (scratch, new_events, new_desc) = stage(&inner.core, first, now)?;
        let first_seq = match (&created, new_events.first()) {
            (Some(c), _) => c.seq,
            (None, Some(e)) => e.seq,
            (None, None) => return Ok(inner.core.seq),
        };
        let mut to_write = new_events.clone();
        let new_game = created.is_some();
        // The game ends with these events: the accounts' results and ratings are recorded with them.
        let end = match (&scratch.result, &inner.core.result) {
            (Some(result), None) if scratch.status == Status::Over => Some(GameEnd {
                game: scratch.config.game.clone(),
                rated: scratch.config.rated,
                scores: (0..scratch.seats())
                    .map(|i| result.score(Seat::new(i)))
                    .collect(),
            }),
            _ => None,
        };
        let rated_end = end.as_ref().is_some_and(|e| e.rated);
        // Seats bound to accounts, or the game's end (its ratings' change): the players the
        // messages name change with these events, and are read again before they are broadcast.
        let players_change = end.is_some() || !bindings.is_empty();
        // A new game's `created` event, kept to recognise the commit in the log should its answer
        // be lost.
        let mut created_event = None;
        if let Some(c) = created {
            to_write.insert(0, c.clone());
            created_event = Some(c);
        }
        let written = self
            .writer
            .write(WriteRequest {
                game_id: room.id.clone(),
                game: scratch.config.game.clone(),
                new_game,
                status: scratch.status.as_str(),
                at: now,
                events: to_write,
                bindings,
                end,
                epoch,
            })
            .await;
        if let Err(failure) = written {
            let refused = Refusal::Unavailable(failure.to_string());
            if let Some(node) = self.db.node() {
                // Perhaps the lease was lost: the next change asks the database who owns the game.
                node.forget(&room.id);
            }
            match failure {
                // Refused before its `COMMIT` (a lost lease, a key another writer stored first):
                // nothing was written, whatever the log holds at that seq. On a cluster node another
                // node may be writing the game: the room catches up with the log.
                WriteFailure::NotWritten => {
                    if self.db.node().is_some() {
                        self.mark_unsure(room, inner);
                    }
                    return Err(refused);
                }
                // The commit may have landed although its answer was lost (a connection that broke
                // during `COMMIT`): the log decides, by holding these very events (same writer and
                // epoch, same times and contents), never by its last seq alone.
                WriteFailure::Unknown => {
                    let writer = self.db.node().map(|n| n.id.clone());
                    let ours: Vec<Event> = created_event
                        .into_iter()
                        .chain(new_events.iter().cloned())
                        .collect();
                    match self.landed(&room.id, &ours, writer, epoch).await {
                        Ok(Landed::Yes { more }) => {
                            tracing::warn!(game_id = %room.id, seq = scratch.seq,
                                "the answer to a commit was lost, but the log holds its events: acknowledged");
                            if players_change {
                                self.read_players(room, scratch.seats()).await;
                            }
                            self.install(
                                room,
                                inner,
                                scratch,
                                (first_seq, new_events, new_desc),
                                now,
                            );
                            if more {
                                self.mark_unsure(room, inner);
                            }
                            if rated_end {
                                self.ratings_changed(&room.id);
                            }
                            return Ok(first_seq);
                        }
                        Ok(Landed::No) => return Err(refused),
                        Ok(Landed::Other) => {
                            tracing::error!(game_id = %room.id, memory = inner.core.seq,
                                "after a failed commit the log holds other events than the room's: catching up");
                            self.mark_unsure(room, inner);
                            return Err(refused);
                        }
                        Err(e) => {
                            tracing::error!(game_id = %room.id, error = %e,
                                "storage error: cannot read the log after a failed commit");
                            self.mark_unsure(room, inner);
                            return Err(refused);
                        }
                    }
                }
            }
        }
        if players_change {
            self.read_players(room, scratch.seats()).await;
        }
        self.install(room, inner, scratch, (first_seq, new_events, new_desc), now);
        if rated_end {
            self.ratings_changed(&room.id);
        }
        Ok(first_seq)
    }

    /// Reads again the accounts holding the room's seats and their ratings (after a commit that
    /// bound seats or ended the game, before it is broadcast); on a storage error the room keeps
    /// the players it had.
    async fn read_players(&self, room: &Room, seats: usize) {
        match self.db.seat_players(&room.id, seats).await {
            Ok(players) => *room.players.lock().unwrap_or_else(|e| e.into_inner()) = players,
            Err(e) => {
                tracing::warn!(game_id = %room.id, error = %e, "cannot name the game's players")
            }
        }
    }

    /// Makes committed events the room's own: its state, log and descriptions (the new events, the
    /// first seq of the change — a new game's `created` event is already in the log — and how each
    /// observer sees them); revokes replaced tokens; broadcasts them; schedules what follows.
    fn install(
        self: &Arc<Self>,
        room: &Arc<Room>,
        inner: &mut RoomInner,
        core: GameCore,
        (first_seq, new_events, new_desc): (u64, Vec<Event>, Vec<Described>),
        now: i64,
    ) {
        // A replaced token (a claimed seat) revokes the sockets that authenticated with the old one:
        // they see the new count before the update for the seat's new holder reaches them.
        for (i, rev) in room.token_revs.iter().enumerate() {
            if inner.core.token_hashes.get(i) != core.token_hashes.get(i) {
                rev.fetch_add(1, Ordering::SeqCst);
            }
        }
        if new_events
            .iter()
            .any(|e| matches!(e.data, EventData::Takeback { .. }))
        {
            // Positions past the restored one are no longer the game's.
            room.lock_checkpoints().truncate(core.actions);
        }
        inner.core = core;
        room.last_change.store(now, Ordering::SeqCst);
        reserve_log(&mut inner.events, new_events.len());
        inner.events.extend(new_events);
        reserve_log(&mut inner.described, new_desc.len());
        inner.described.extend(new_desc);
        if room.tx.receiver_count() > 0 {
            // Rendered once per watched observer, whatever the number of sockets.
            let update = room.render_update(inner, first_seq, self.clock.now_ms());
            let _ = room.tx.send(Arc::new(update));
        }
        self.after_change(room, inner);
    }

    /// Whether the log of game `id` holds `events` (a commit of unknown outcome) as this server
    /// wrote them: at their seqs, with their times and contents, by this writer (`writer`, the
    /// cluster node, and its lease `epoch`; both `None` on a single server).
    async fn landed(
        &self,
        id: &str,
        events: &[Event],
        writer: Option<String>,
        epoch: Option<i64>,
    ) -> Result<Landed, String> {
        self.faults.check_load()?;
        let Some(first) = events.first() else {
            return Ok(Landed::No);
        };
        let stored = self
            .db
            .load_written_after(id, first.seq.saturating_sub(1))
            .await?;
        if stored.is_empty() {
            return Ok(Landed::No);
        }
        let ours = stored.len() >= events.len()
            && stored.iter().zip(events).all(|(s, e)| {
                s.event == *e && s.node == writer && s.epoch == epoch.filter(|_| writer.is_some())
            });
        Ok(if ours {
            Landed::Yes {
                more: stored.len() > events.len(),
            }
        } else {
            Landed::Other
        })
    }

    /// Marks the room as possibly behind its log, and starts catching up in the background (with a
    /// growing pause between tries) until storage answers.
    pub(super) fn mark_unsure(self: &Arc<Self>, room: &Arc<Room>, inner: &mut RoomInner) {
        if inner.unsure {
            return;
        }
        inner.unsure = true;
        let shared = self.clone();
        let room = room.clone();
        tokio::spawn(async move {
            let mut pause = Duration::from_millis(250);
            loop {
                tokio::time::sleep(pause).await;
                let mut inner = room.inner.lock().await;
                if !inner.unsure || shared.catch_up(&room, &mut inner).await.is_ok() {
                    return;
                }
                drop(inner);
                pause = (pause * 2).min(Duration::from_secs(30));
            }
        });
    }

    /// Brings a room marked unsure up to its log: the events storage holds beyond the room's are
    /// applied and broadcast like any commit. Fails (`503`) while storage cannot be read.
    pub(super) async fn catch_up(
        self: &Arc<Self>,
        room: &Arc<Room>,
        inner: &mut RoomInner,
    ) -> Result<(), Refusal> {
        if !inner.unsure {
            return Ok(());
        }
        self.faults.check_load().map_err(Refusal::Unavailable)?;
        let events = self.db.load_events_after(&room.id, inner.core.seq).await.map_err(|e| {
            tracing::error!(game_id = %room.id, error = %e, "storage error: cannot read the log to catch up");
            Refusal::Unavailable(crate::storage::db::WriteError.to_string())
        })?;
        let known = inner.core.seq;
        let behind: Vec<Event> = events.into_iter().filter(|e| e.seq > known).collect();
        let quiet = self.db.node().is_some();
        let mut core = inner.core.clone();
        let desc = match core.apply_logged(&behind) {
            Ok(desc) => desc,
            Err(e) => {
                tracing::error!(game_id = %room.id, error = %e,
                    "the room and its log diverged: reloading the game from the log");
                return self.reload(room, inner).await;
            }
        };
        inner.unsure = false;
        if let (Some(first), Some(last)) = (behind.first(), behind.last()) {
            if !quiet {
                tracing::warn!(game_id = %room.id, events = behind.len(),
                    "caught up with the log: a commit whose answer was lost had landed");
            }
            let (first, now) = (first.seq, last.at);
            // Another node's commit may have bound seats or ended the game.
            self.read_players(room, core.seats()).await;
            self.install(room, inner, core, (first, behind, desc), now);
        }
        Ok(())
    }

    /// Replaces a room that diverged from its log (its events no longer lead to the log's) by the
    /// game replayed from the whole log. Seat sockets are revoked (their clients reconnect and get
    /// the log's game); positions past the common ones are forgotten.
    async fn reload(
        self: &Arc<Self>,
        room: &Arc<Room>,
        inner: &mut RoomInner,
    ) -> Result<(), Refusal> {
        let events = self.db.load_events(&room.id).await.map_err(|e| {
            tracing::error!(game_id = %room.id, error = %e, "storage error: cannot reload the game");
            Refusal::Unavailable(crate::storage::db::WriteError.to_string())
        })?;
        let fresh = self.rebuild(&room.id, events)?.inner.into_inner();
        room.lock_checkpoints().truncate(0);
        for rev in &room.token_revs {
            rev.fetch_add(1, Ordering::SeqCst);
        }
        inner.core = fresh.core;
        inner.events = fresh.events;
        inner.described = fresh.described;
        inner.unsure = false;
        self.after_change(room, inner);
        Ok(())
    }

    /// Refreshes the lobby summary, files the clock's next deadline, and schedules the AI seats.
    pub(super) fn after_change(self: &Arc<Self>, room: &Arc<Room>, inner: &mut RoomInner) {
        room.refresh_summary(inner);
        self.index(room, inner);
        let deadline = match &inner.core.clock {
            Some(clock) if inner.core.status == Status::Running => {
                clock.next_deadline(self.clock.now_ms())
            }
            _ => None,
        };
        // Clocks and AI seats run only where the game is written (on a cluster node: its lease's
        // holder).
        if !self.drives(&room.id) {
            return;
        }
        // The clock sweeper ends the game on time, in memory or not: a running clock does not hold
        // the room.
        self.file_deadline(&room.id, deadline);
        if inner.core.status != Status::Running {
            return;
        }
        self.schedule_ai(room, inner);
    }
}

/// What the log holds where a commit of unknown outcome would have put its events.
enum Landed {
    /// These very events (`more`: and later ones, by another writer since).
    Yes { more: bool },
    /// Nothing: the commit did not land.
    No,
    /// Other events (another writer's): the commit did not land, and the room is behind its log.
    Other,
}

/// Rounds of follow-ups after which a change is refused as one that never settles (a game whose
/// chance keeps deciding forever).
const MAX_FOLLOWUP_ROUNDS: u32 = 100_000;

/// The change `first` and everything that follows it by itself ([`GameCore::followups`]: the start,
/// chance actions drawn from the game's RNG, the end, AI seats declining a draw offer), applied to a
/// copy of `core` at time `now`. Returns the game after them, the events (numbered on from `core`'s
/// last seq) and how each observer sees them. An event the game refuses refuses the whole change;
/// `core` itself is never touched.
fn stage(
    core: &GameCore,
    first: Vec<EventData>,
    now: i64,
) -> Result<(GameCore, Vec<Event>, Vec<Described>), Refusal> {
    let mut scratch = core.clone();
    let mut events = Vec::new();
    let mut described = Vec::new();
    let mut apply = |scratch: &mut GameCore, data: EventData| -> Result<(), Refusal> {
        let seq = scratch.seq + 1;
        described.push(scratch.apply(&data, now)?);
        events.push(Event { seq, at: now, data });
        Ok(())
    };
    for data in first {
        apply(&mut scratch, data)?;
    }
    let mut rounds = 0u32;
    loop {
        let more = scratch.followups();
        if more.is_empty() {
            break;
        }
        rounds += 1;
        if rounds > MAX_FOLLOWUP_ROUNDS {
            return Err(Refusal::Internal(
                "the game does not settle (endless chance)".into(),
            ));
        }
        for data in more {
            apply(&mut scratch, data)?;
        }
    }
    Ok((scratch, events, described))
}
