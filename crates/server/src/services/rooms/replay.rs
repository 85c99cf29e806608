//! Replay: the position after any number of actions, as one observer saw it, rebuilt from the log.
//!
//! Positions are those of the game as it stands: the actions of the log minus those a takeback undid
//! ([`crate::domain::model::GameCore::played`]). The log only grows, so states at regular positions
//! ([`Checkpoints`]) stay valid once built, until a takeback undoes actions before one (the
//! checkpoints past the restored position are dropped then, see [`Checkpoints::truncate`]); a
//! request applies at most one stride of actions from the nearest, without holding the game's lock
//! while replaying. The checkpoints are bounded per game ([`MAX_CHECKPOINTS`]): a longer game doubles
//! its stride instead of keeping more.

use crate::wire::api::{Position, PositionLast};
use serde_json::Value;
use tabula_core::dynamic::DynState;
use tabula_core::{Actor, Observer};

use super::Room;
use crate::base::error::Refusal;
use crate::domain::model::Seen;

/// Actions between two replay checkpoints at first: a position is rebuilt with at most this many
/// actions, until a game is longer than [`MAX_CHECKPOINTS`] times it.
pub const REPLAY_STRIDE: u64 = 32;

/// The most replay checkpoints a game keeps: a longer game doubles its stride (drops every other
/// checkpoint) instead of keeping more.
pub const MAX_CHECKPOINTS: usize = 64;

/// States at regular positions of a game: entry `k` is the state after the first `k * stride`
/// actions. Bounded: past `max` entries, every other one is dropped and the stride doubles.
#[derive(Debug)]
pub struct Checkpoints<T> {
    stride: u64,
    max: usize,
    states: Vec<T>,
    /// Bumped by each [`Checkpoints::truncate`]: a state built before it is not offered after it.
    epoch: u64,
}

impl<T> Checkpoints<T> {
    /// No checkpoints yet, `stride` actions apart, at most `max` (at least 2) kept.
    pub fn new(stride: u64, max: usize) -> Checkpoints<T> {
        Checkpoints {
            stride: stride.max(1),
            max: max.max(2),
            states: Vec::new(),
            epoch: 0,
        }
    }
    /// Drops the checkpoints past position `done` (a takeback went back to it).
    pub fn truncate(&mut self, done: u64) {
        let keep = (done / self.stride + 1) as usize;
        self.states.truncate(keep);
        self.epoch += 1;
    }
    /// The count of truncations so far (see [`Checkpoints::offer_in`]).
    pub fn epoch(&self) -> u64 {
        self.epoch
    }
    /// [`Checkpoints::offer`] of a state built from the positions as they were at `epoch`: ignored
    /// once a takeback truncated the checkpoints since.
    pub fn offer_in(&mut self, epoch: u64, done: u64, state: impl FnOnce() -> T) {
        if epoch == self.epoch {
            self.offer(done, state);
        }
    }
    /// The checkpoint to rebuild the position before the `n`-th action from: its position and state
    /// (position 0 and `None` when there is none: start from the game's initial state).
    pub fn base_for(&self, n: u64) -> (u64, Option<&T>) {
        if self.states.is_empty() {
            return (0, None);
        }
        let k = (n.saturating_sub(1) / self.stride).min(self.states.len() as u64 - 1);
        (k * self.stride, self.states.get(k as usize))
    }
    /// Whether the state after `done` actions is the next checkpoint to keep.
    pub fn wants(&self, done: u64) -> bool {
        done.is_multiple_of(self.stride) && self.states.len() as u64 == done / self.stride
    }
    /// Keeps `state`, the state after `done` actions, if it is the next checkpoint.
    pub fn offer(&mut self, done: u64, state: impl FnOnce() -> T) {
        if !self.wants(done) {
            return;
        }
        self.states.push(state());
        if self.states.len() > self.max {
            let mut k = 0;
            self.states.retain(|_| {
                k += 1;
                k % 2 == 1
            });
            self.stride *= 2;
        }
    }
    /// The checkpoints kept.
    pub fn len(&self) -> usize {
        self.states.len()
    }
    /// Whether none is kept.
    pub fn is_empty(&self) -> bool {
        self.states.is_empty()
    }
    /// Actions between two checkpoints now.
    pub fn stride(&self) -> u64 {
        self.stride
    }
}

impl Room {
    /// What `obs` saw right after the first `n` actions of the game (chance included): the replay
    /// object of `GET /api/games/{id}/view/{n}`. The position is rebuilt from the log, starting from the
    /// nearest checkpoint (so at most [`REPLAY_STRIDE`] actions are applied, after the first request
    /// has built the checkpoints, or a multiple of it in a game longer than [`MAX_CHECKPOINTS`] times
    /// it), without holding the game's lock while replaying.
    pub async fn view_at(&self, obs: Observer, n: u64) -> Result<Position, Refusal> {
        let (config, total, actions, end, base, base_state, epoch) = {
            let inner = self.inner.lock().await;
            let total = inner.core.actions;
            if n > total {
                return Err(Refusal::NotFound(format!(
                    "position {n} does not exist: game {} has {total} actions so far (n is 0..={total})",
                    self.id
                )));
            }
            // Start before the n-th action (its description needs the state before it). Read
            // under the game's lock: a takeback truncates the checkpoints under it too.
            let (base, base_state, epoch) = {
                let cps = self.lock_checkpoints();
                let (base, state) = cps.base_for(n);
                (base, state.map(|s| s.clone_box()), cps.epoch())
            };
            let actions: Vec<(u64, Actor, Value)> = inner.core.played[base as usize..n as usize]
                .iter()
                .map(|p| (p.seq, p.actor, p.action.value()))
                .collect();
            // At the last position the server's own knowledge (a result by resignation, time or
            // agreement) overrides the game's.
            let end = (n == total).then(|| (inner.core.to_act(), inner.core.result.clone()));
            (
                inner.core.config.clone(),
                total,
                actions,
                end,
                base,
                base_state,
                epoch,
            )
        };
        let corrupt = |m: String| {
            Refusal::Internal(format!(
                "game {}: stored log cannot be replayed: {m}",
                self.id
            ))
        };
        let mut state = match base_state {
            None => self
                .kind
                .new_state(&config.options)
                .map_err(|e| corrupt(e.to_string()))?,
            Some(s) => s,
        };
        let mut last = None;
        for (done, (seq, actor, action)) in (base..).zip(&actions) {
            {
                let mut cps = self.lock_checkpoints();
                if cps.wants(done) {
                    cps.offer_in(epoch, done, || state.clone_box());
                }
            }
            if done + 1 == n {
                let seen = Seen::of(state.as_ref(), *actor, action, obs);
                last = Some(PositionLast {
                    seq: *seq,
                    actor: *actor,
                    cells: seen.cells(),
                    notation: seen.notation.map(String::from),
                    words: seen.words.into(),
                    turn: seen.turn,
                });
            }
            state
                .apply(*actor, action)
                .map_err(|e| corrupt(format!("event {seq}: {e}")))?;
        }
        let (to_act, result) = match end {
            Some((to_act, result)) => (to_act, result),
            None => (state.to_act(), None),
        };
        Ok(Position {
            id: self.id.clone(),
            game: config.game.clone(),
            n,
            total,
            you: obs,
            view: state.view(obs),
            to_act,
            last,
            result,
        })
    }

    /// The replay checkpoints this game keeps in memory.
    pub fn checkpoint_count(&self) -> usize {
        self.lock_checkpoints().len()
    }

    pub(super) fn lock_checkpoints(
        &self,
    ) -> std::sync::MutexGuard<'_, Checkpoints<Box<dyn DynState>>> {
        self.checkpoints.lock().unwrap_or_else(|e| e.into_inner())
    }
}

#[cfg(test)]
mod tests {
    use super::Checkpoints;

    /// A game of any length keeps at most `max` checkpoints, and each stays the state after
    /// `index * stride` actions (here the state is the number of actions itself).
    #[test]
    fn replay_checkpoints_are_bounded_whatever_the_game_length() {
        let mut cps = Checkpoints::new(4, 8);
        for done in 0..10_000u64 {
            cps.offer(done, || done);
            assert!(
                cps.len() <= 8,
                "{} checkpoints after {done} actions",
                cps.len()
            );
        }
        assert!(cps.stride() > 4);
        for n in [0, 1, 5, 4_000, 9_999, 20_000] {
            let (base, state) = cps.base_for(n);
            assert!(base < n.max(1), "position {n}: base {base}");
            assert_eq!(state.copied().unwrap_or(0), base, "position {n}");
        }
        // The last checkpoint is close to the end: at most two strides behind the log.
        let (base, _) = cps.base_for(10_000);
        assert!(10_000 - base <= 2 * cps.stride(), "{base}");
    }

    /// A takeback back to a position drops the checkpoints past it (they were positions of actions
    /// now undone), and a state built before the takeback is not offered after it.
    #[test]
    fn a_takeback_drops_the_checkpoints_past_the_restored_position() {
        let mut cps = Checkpoints::new(4, 8);
        for done in 0..=20u64 {
            cps.offer(done, || done);
        }
        assert_eq!(cps.len(), 6);
        let epoch = cps.epoch();
        cps.truncate(9);
        // Positions 0, 4 and 8 stand; 12, 16 and 20 are gone.
        assert_eq!(cps.len(), 3);
        assert_eq!(cps.base_for(20), (8, Some(&8)));
        // A replay that began before the takeback offers its stale state for position 12: ignored.
        cps.offer_in(epoch, 12, || 999);
        assert_eq!(cps.len(), 3);
        cps.offer_in(cps.epoch(), 12, || 12);
        assert_eq!(cps.base_for(13), (12, Some(&12)));
    }
}
