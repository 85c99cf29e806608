//! AI seats: each seat that owes a decision is thought about on the blocking worker pool (never on the
//! network threads), one move per seat at a time, and its choice is committed like a seat's action.
//!
//! A choice made for a position the game has since left is discarded and the AI thinks again. An AI
//! that fails (an error, or an action the game refuses) falls back to a seeded random legal action, so
//! a game never hangs on a broken AI.

use std::sync::Arc;

use serde_json::Value;
use tabula_core::dynamic::DynState;
use tabula_core::{Actor, Seat};

use super::{Room, RoomInner, Shared};
use crate::domain::model::{EventData, SeatKind, Status};

impl Shared {
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
            let live = shared.analyses.live_move();
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
                    action: action.clone(),
                }];
                if let Err(e) = shared.commit_inner(&room, &mut inner, first, None).await {
                    tracing::warn!(
                        "AI action of game {} seat {seat} refused ({e}); playing a random legal action",
                        room.id
                    );
                    if let Some(action) = fallback_action(state.as_ref(), seat, seed) {
                        let first = vec![EventData::Action { actor, action }];
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
