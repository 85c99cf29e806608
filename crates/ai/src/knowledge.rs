//! Game knowledge: what an agent may know about a game beyond its rules (the [`Game`] trait).
//!
//! Every game the AI plays implements [`Knowledge`]. Every method has a default, so a game with no
//! specialised knowledge still gets every agent (the generic fallback): no evaluation (searches then
//! play to the end of the game or score a cut-off as a draw), no setup policy (the setup is searched or
//! picked at random), no alpha-beta (perfect information is never assumed), random playouts.

use std::hash::Hasher;

use tabula_core::rand::RngExt;
use tabula_core::{Game, GameRng, Seat};

/// Game-specific knowledge used by the agents. Implemented in this crate for every game of the platform.
pub trait Knowledge: Game {
    /// A heuristic estimate of each seat's expected score (1 win, ½ draw, 0 loss) from this non-final
    /// state, one value per seat in `0.0..=1.0`. It must use only what is public in the state or what
    /// every determinization shares (agents call it on determinized states only). `None`: no knowledge.
    fn evaluate(&self) -> Option<Vec<f64>> {
        None
    }

    /// Whether every seat now sees the whole state (no hidden information left and none to come from
    /// a hidden simultaneous decision): alpha-beta may then search the real state. Default `false`.
    fn perfect_information(&self) -> bool {
        false
    }

    /// A setup decision for `seat` (the hidden simultaneous setup of Cyvasse) in this state, taken from
    /// the seat's own legal actions. `None` when the game has no setup policy or no setup is owed.
    fn setup_action(&self, seat: Seat, rng: &mut GameRng) -> Option<Self::Action> {
        let _ = (seat, rng);
        None
    }

    /// Drops legal actions that agents should never consider because they only undo an earlier step
    /// of the same decision, so that a search cannot go round in circles without progress (Syba: in a
    /// unit selection, which starts with every unit chosen, re-adding a unit held back), or because a
    /// policy composes the decision in a few steps (Syba: a trade is one proposal of a few
    /// resources). Must keep at least one action of a non-empty list. Default: keeps every action.
    /// `random` ignores it.
    fn prune_actions(&self, actions: &mut Vec<Self::Action>) {
        let _ = actions;
    }

    /// Move ordering for alpha-beta and greedy tie-breaks: a higher priority is searched first
    /// (captures before quiet moves). Default 0 for every action.
    fn action_priority(&self, action: &Self::Action) -> i32 {
        let _ = action;
        0
    }

    /// Whether the game marks tactical actions ([`Knowledge::is_tactical`]); when `false`, alpha-beta
    /// skips the quiescence search (and its move generation at every leaf).
    const HAS_TACTICAL_ACTIONS: bool = false;

    /// Whether `action` is tactical (a capture): alpha-beta's quiescence search follows only such
    /// actions past the nominal depth, so that a leaf is not scored in the middle of an exchange or
    /// with a capture hanging. Default `false` for every action (no quiescence search).
    fn is_tactical(&self, action: &Self::Action) -> bool {
        let _ = action;
        false
    }

    /// The action that ends the current turn here, when the side to move is in the middle of a turn
    /// of several actions and may stop now (Kyo: `EndTurn` after a Mana move). Alpha-beta scores such
    /// a leaf as if the mover stopped there (the opponent then answers with its tactical actions), not
    /// as it stands: otherwise a line in which one side keeps acting up to the depth (a Kyo Mana
    /// chain) never meets the opponent's answer and looks better than a line that ends the turn.
    /// Default `None` (every leaf is scored as it stands).
    fn closing_action(&self) -> Option<Self::Action> {
        None
    }

    /// Whether level 5 plans the root seat's turn as a whole ([`crate::alphabeta::plan_turn`]):
    /// it enumerates the positions in which the turn can end, each by its shortest sequence of
    /// actions, searches the opponent's answer to each and plays the chosen sequence. Worth it
    /// where one turn is a chain of many actions (Kyo's Mana chains). Default `false` (the turn is
    /// searched action by action).
    const PLAN_TURNS: bool = false;

    /// The key of a position in the middle of the mover's turn for the turn planner's enumeration:
    /// two sequences of actions that reach the same key are merged (the shorter is kept), so it must
    /// cover everything that decides the turn's further actions except what only forbids returning
    /// to where the turn has been (Kyo: the turn's history of positions and its step count). The
    /// default is [`Knowledge::position_key`].
    fn turn_node_key(&self) -> u64 {
        self.position_key()
    }

    /// The key of this position in the transposition table. The default hashes the state's JSON
    /// (correct for every game, slow); games override it with a cheaper key when they can.
    fn position_key(&self) -> u64 {
        json_hash(self)
    }

    /// Picks the index of a playout action among `legal` (non-empty) for `seat`. Default: uniform.
    fn playout_choice(&self, seat: Seat, legal: &[Self::Action], rng: &mut GameRng) -> usize {
        let _ = seat;
        rng.random_range(0..legal.len())
    }

    /// How many actions a playout may take before it is scored by [`Knowledge::evaluate`] (or as a draw).
    fn playout_limit(&self) -> u32 {
        3000
    }

    /// The learned evaluation's input features of this game ([`crate::nnue`]); `None`: the game has
    /// no feature set (no net can be trained or used for it).
    const NNUE_FEATURES: Option<crate::nnue::FeatureSet> = None;

    /// Pushes the indices (below [`Knowledge::NNUE_FEATURES`]'s `inputs`) of this state's active
    /// features onto `out`, from the perspective of the returned seat (the side to move); an index
    /// may repeat (a feature active twice). Like [`Knowledge::evaluate`] it must use only what every
    /// determinization shares. `None` when the game has no feature set or nobody is to move.
    fn nnue_features(&self, out: &mut Vec<u16>) -> Option<Seat> {
        let _ = out;
        None
    }

    /// For incremental accumulators ([`crate::nnue::LearnedEval`], two-player games): pushes this
    /// state's features seen from `persp`, exactly what [`Knowledge::nnue_features`] gives when it
    /// returns `persp`; `false` when the game does not support it or nobody is to move.
    fn nnue_features_as(&self, persp: Seat, out: &mut Vec<u16>) -> bool {
        let _ = (persp, out);
        false
    }

    /// For incremental accumulators: pushes, for each seat's perspective (index 0 and 1), the
    /// features of `before` that `self` (a state reached from it by one action) no longer has onto
    /// `removed` and the new ones onto `added`, so that `nnue_features_as(before, p)` minus
    /// `removed[p]` plus `added[p]` is `nnue_features_as(self, p)` as a multiset. `false` when the
    /// game cannot tell (the caller then computes the features afresh).
    fn nnue_delta(
        &self,
        before: &Self,
        removed: &mut [Vec<u16>; 2],
        added: &mut [Vec<u16>; 2],
    ) -> bool {
        let _ = (before, removed, added);
        false
    }
}

/// A 64-bit FNV-1a hasher fed by a serializer (deterministic across runs, unlike `RandomState`).
struct Fnv(u64);

impl Hasher for Fnv {
    fn finish(&self) -> u64 {
        self.0
    }
    fn write(&mut self, bytes: &[u8]) {
        for b in bytes {
            self.0 ^= u64::from(*b);
            self.0 = self.0.wrapping_mul(0x0000_0100_0000_01b3);
        }
    }
}

impl std::io::Write for Fnv {
    fn write(&mut self, buf: &[u8]) -> std::io::Result<usize> {
        Hasher::write(self, buf);
        Ok(buf.len())
    }
    fn flush(&mut self) -> std::io::Result<()> {
        Ok(())
    }
}

/// A deterministic 64-bit hash of any serializable value's JSON form (written straight into the
/// hasher: no allocation).
pub fn json_hash<T: serde::Serialize + ?Sized>(value: &T) -> u64 {
    let mut h = Fnv(0xcbf2_9ce4_8422_2325);
    // Serializing into a hasher cannot fail for the plain data types of game states; a failure would
    // only make the key less precise, never wrong in a way that matters (the TT checks legality).
    let _ = serde_json::to_writer(&mut h, value);
    h.finish()
}

/// A deterministic hash of a value through its `Hash` implementation (FNV-1a, fixed seed).
pub fn stable_hash<T: std::hash::Hash + ?Sized>(value: &T) -> u64 {
    let mut h = Fnv(0xcbf2_9ce4_8422_2325);
    value.hash(&mut h);
    h.finish()
}

/// The actions an agent considers for `seat`: the legal list less what [`Knowledge::prune_actions`] drops.
pub fn agent_actions<G: Knowledge>(state: &G, seat: Seat, out: &mut Vec<G::Action>) {
    state.legal_actions(seat, out);
    state.prune_actions(out);
}

/// [`agent_actions`] into a new vector.
pub fn agent_actions_vec<G: Knowledge>(state: &G, seat: Seat) -> Vec<G::Action> {
    let mut out = Vec::new();
    agent_actions(state, seat, &mut out);
    out
}
