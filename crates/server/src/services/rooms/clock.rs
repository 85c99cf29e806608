//! Clocks: the clock sweeper and the end of games on time.
//!
//! Every running game's next deadline is filed (by [`Rooms::after_change`] after each change) in one
//! index, loaded or not; the sweeper ([`Rooms::run_clocks`]) sleeps until the earliest and ends on
//! time every game whose seat's clock ran out, loading it from the log if it left memory. A running
//! clock therefore never holds a room in memory. Each request that changes a game also checks its
//! clock first ([`Rooms::flag_if_due`]), so nobody moves after their time ran out.

use std::collections::{BTreeSet, HashMap};
use std::sync::Arc;

use super::{Room, RoomInner, Rooms, detached};
use crate::base::error::Refusal;
use crate::domain::model::{EventData, Status};

/// Running games' next clock deadlines (ms since the epoch), in time order.
#[derive(Default)]
pub(super) struct Deadlines {
    by_time: BTreeSet<(i64, String)>,
    of: HashMap<String, i64>,
}

impl Deadlines {
    /// Files game `id`'s next deadline (`None`: no clock runs). Returns whether it changed.
    fn file(&mut self, id: &str, at: Option<i64>) -> bool {
        let old = self.of.get(id).copied();
        if old == at {
            return false;
        }
        if let Some(old) = old {
            self.by_time.remove(&(old, id.to_string()));
        }
        match at {
            Some(at) => {
                self.by_time.insert((at, id.to_string()));
                self.of.insert(id.to_string(), at);
            }
            None => {
                self.of.remove(id);
            }
        }
        true
    }

    /// Removes and returns the games whose deadline is at or before `now`.
    fn take_due(&mut self, now: i64) -> Vec<String> {
        let mut due = Vec::new();
        while let Some((at, id)) = self.by_time.first().cloned() {
            if at > now {
                break;
            }
            self.by_time.pop_first();
            self.of.remove(&id);
            due.push(id);
        }
        due
    }
}

impl Rooms {
    /// Files game `id`'s next clock deadline in the index the clock sweeper follows.
    pub(super) fn file_deadline(&self, id: &str, at: Option<i64>) {
        let changed = self
            .deadlines
            .lock()
            .unwrap_or_else(|e| e.into_inner())
            .file(id, at);
        if changed && at.is_some() {
            self.deadline_filed.notify_one();
        }
    }

    /// The clock sweeper (runs for the server's life): sleeps until the earliest deadline of the
    /// running games (or until an earlier one is filed), then ends on time every game whose seat's
    /// clock ran out, loading it from the log if it left memory. Games stay in the index, loaded or
    /// not, so a correspondence game costs memory only while someone plays or watches it.
    pub async fn run_clocks(self: Arc<Self>) {
        loop {
            let (due, next) = {
                let mut deadlines = self.deadlines.lock().unwrap_or_else(|e| e.into_inner());
                let due = deadlines.take_due(self.clock.now_ms());
                (due, deadlines.by_time.first().map(|(at, _)| *at))
            };
            for id in due {
                let shared = self.clone();
                tokio::spawn(async move { shared.flag_game(&id).await });
            }
            let notified = self.deadline_filed.notified();
            match next {
                Some(at) => {
                    tokio::select! {
                        () = self.clock.until(at) => {}
                        () = notified => {}
                    }
                }
                None => notified.await,
            }
        }
    }

    /// Ends game `id` on time if a seat's clock ran out (loading it if needed); otherwise files its
    /// next deadline again. On a storage error, tries again in a few seconds.
    async fn flag_game(self: &Arc<Self>, id: &str) {
        if !self.drives(id) {
            // Another cluster node runs this game's clock now.
            return;
        }
        let retry = |e: &Refusal| {
            tracing::error!(game_id = %id, error = %e, "cannot end a game whose clock ran out; retrying");
            self.file_deadline(id, Some(self.clock.now_ms() + 5_000));
        };
        let room = match self.room(id).await {
            Ok(room) => room,
            Err(e) => return retry(&e),
        };
        let shared = self.clone();
        let flagged = detached(id, async move {
            let mut inner = room.inner.lock().await;
            if !shared.flag_if_due(&room, &mut inner).await? {
                // Not due after all (a move came first): follow the clock as it is now.
                shared.after_change(&room, &mut inner);
            }
            Ok(())
        })
        .await;
        if let Err(e) = flagged {
            retry(&e);
        }
    }

    /// Ends the game on time if a seat's clock has run out. Returns whether it did.
    pub(super) async fn flag_if_due(
        self: &Arc<Self>,
        room: &Arc<Room>,
        inner: &mut RoomInner,
    ) -> Result<bool, Refusal> {
        if inner.core.status != Status::Running {
            return Ok(false);
        }
        let out = match &inner.core.clock {
            Some(c) => c.flagged(self.clock.now_ms()),
            None => return Ok(false),
        };
        if out.is_empty() {
            return Ok(false);
        }
        // Every seat whose time is out loses; all of them at once is a draw.
        let result = inner.core.timeout_result(&out);
        let mut events: Vec<EventData> = out
            .iter()
            .map(|&seat| EventData::Timeout { seat })
            .collect();
        events.push(EventData::End { result });
        self.commit_inner(room, inner, events, None).await?;
        Ok(true)
    }
}

/// What the log says about a game's clocks when the server resumes it: time keeps running while the
/// server is down (a seat whose time ran out meanwhile loses at once), so the operator sees how long
/// the clocks ran without the server, and for whom. `None` for a game without running clocks.
pub fn downtime_note(inner: &RoomInner, now: i64) -> Option<String> {
    let clock = inner.core.clock.as_ref()?;
    if inner.core.status != Status::Running {
        return None;
    }
    let running: Vec<usize> = (0..inner.core.seats())
        .filter(|&i| clock.running(i))
        .collect();
    if running.is_empty() {
        return None;
    }
    let last = inner.events.last().map_or(now, |e| e.at);
    let seats: Vec<String> = running
        .iter()
        .map(|&i| format!("seat {i} ({} ms left)", clock.remaining(i, now).max(0)))
        .collect();
    Some(format!(
        "resumed with its clocks running through the server's downtime: {} ms since its last event \
         (seq {}); running: {}",
        (now - last).max(0),
        inner.core.seq,
        seats.join(", ")
    ))
}
