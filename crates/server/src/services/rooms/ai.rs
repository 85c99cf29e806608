//! AI seats: each seat that owes a decision is thought about on the blocking worker pool (never on the
//! network threads), one move per seat at a time, and its choice is committed like a seat's action.
//!
//! A choice made for a position the game has since left is discarded and the AI thinks again. An AI
//! that fails (an error, or an action the game refuses) falls back to a seeded random legal action, so
//! a game never hangs on a broken AI.

use std::sync::Arc;
use std::sync::atomic::{AtomicUsize, Ordering};

use tokio::sync::Notify;

use serde_json::Value;
use tabula_core::dynamic::DynState;
use tabula_core::{Actor, Seat};

use super::{Room, RoomInner, Rooms};
use crate::domain::model::{ActionJson, EventData, SeatKind, Status};

/// How an AI seat chooses its action: `(state, seat, level, seed)` to the action's JSON.
pub type BotFn = Arc<dyn Fn(&dyn DynState, Seat, u8, u64) -> Result<Value, String> + Send + Sync>;

/// Live AI moves in progress (thinking or waiting for a worker); analyses wait while they occupy
/// every AI worker.
pub struct LiveMoves {
    count: AtomicUsize,
    /// The AI workers: an analysis waits while this many live moves are in progress.
    workers: usize,
    idle: Notify,
}

/// Held while a live AI move is queued or thinking.
pub struct LiveMove(Arc<LiveMoves>);

impl Drop for LiveMove {
    fn drop(&mut self) {
        if self.0.count.fetch_sub(1, Ordering::SeqCst) <= self.0.workers {
            self.0.idle.notify_waiters();
        }
    }
}

impl LiveMoves {
    /// No live move yet, with `workers` AI workers.
    pub fn new(workers: usize) -> LiveMoves {
        LiveMoves {
            count: AtomicUsize::new(0),
            workers: workers.max(1),
            idle: Notify::new(),
        }
    }

    /// Marks a live AI move as in progress until the guard is dropped.
    pub fn live_move(self: &Arc<Self>) -> LiveMove {
        self.count.fetch_add(1, Ordering::SeqCst);
        LiveMove(self.clone())
    }

    /// Whether live AI moves occupy every worker (an analysis then waits).
    pub fn saturated(&self) -> bool {
        self.count.load(Ordering::SeqCst) >= self.workers
    }

    /// Waits until live AI moves leave a worker free.
    pub async fn quiet(&self) {
        loop {
            let notified = self.idle.notified();
            if !self.saturated() {
                return;
            }
            notified.await;
        }
    }
}

impl Rooms {
    pub(super) fn schedule_ai(self: &Arc<Self>, room: &Arc<Room>, inner: &mut RoomInner) {
        if inner.core.status != Status::Running || inner.core.result.is_some() {
            return;
        }
        for seat in inner.core.state.to_act().seats() {
            let i = seat.index();
            let SeatKind::Ai { level } = inner.core.config.seats[i] else {
                continue;
            };
            if inner.ai_busy[i] {
                continue;
            }
            inner.ai_busy[i] = true;
            let state = inner.core.state.clone_box();
            let seq = inner.core.seq;
            let seed = inner.core.config.seed ^ seq.wrapping_mul(0x9E37_79B9_7F4A_7C15);
            let shared = self.clone();
            let room = room.clone();
            // Analyses of finished games wait while this move is queued or thinking.
            let live = shared.live_moves.live_move();
            tokio::spawn(async move {
                let bot = shared.bot.clone();
                let permit = shared.ai_pool.clone().acquire_owned().await;
                let choice = tokio::task::spawn_blocking(move || {
                    let _permit = permit;
                    let _live = live;
                    let choice = bot(state.as_ref(), seat, level, seed);
                    (choice, state)
                })
                .await;
                let mut inner = room.inner.lock().await;
                inner.ai_busy[i] = false;
                let (choice, state) = match choice {
                    Ok(c) => c,
                    Err(e) => {
                        tracing::error!("AI task for game {} failed: {e}", room.id);
                        return;
                    }
                };
                if inner.core.seq != seq {
                    // The game moved on while the AI thought: think again about the new position.
                    shared.schedule_ai(&room, &mut inner);
                    return;
                }
                let action = match choice {
                    Ok(a) => a,
                    Err(e) => {
                        tracing::warn!(
                            "AI of game {} seat {seat} failed ({e}); playing a random legal action",
                            room.id
                        );
                        fallback_action(state.as_ref(), seat, seed).unwrap_or(Value::Null)
                    }
                };
                let actor = Actor::Seat(seat);
                let first = vec![EventData::Action {
                    actor,
                    action: ActionJson::new(&action),
                }];
                if let Err(e) = shared.commit_inner(&room, &mut inner, first, None).await {
                    tracing::warn!(
                        "AI action of game {} seat {seat} refused ({e}); playing a random legal action",
                        room.id
                    );
                    if let Some(action) = fallback_action(state.as_ref(), seat, seed) {
                        let first = vec![EventData::Action {
                            actor,
                            action: action.into(),
                        }];
                        if let Err(e) = shared.commit_inner(&room, &mut inner, first, None).await {
                            tracing::error!("game {}: AI fallback refused: {e}", room.id);
                        }
                    }
                }
            });
        }
    }
}

/// A random legal action (when the AI fails), seeded.
fn fallback_action(state: &dyn DynState, seat: Seat, seed: u64) -> Option<Value> {
    use tabula_core::rand::RngExt;
    let legal = state.legal_actions(seat);
    if legal.is_empty() {
        return None;
    }
    let mut rng = tabula_core::rng_from_seed(seed);
    let i = rng.random_range(0..legal.len());
    legal.into_iter().nth(i)
}
