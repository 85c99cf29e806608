//! # tabula-ai — agents for every Tabula game
//!
//! Agents play any game through the engine core's [`Game`] trait; the game-specific knowledge that
//! makes them stronger (an evaluation, a setup policy, move ordering, a playout policy, a cheap
//! position key) is the [`Knowledge`] trait, implemented in [`games`] for every game of the platform
//! (`cyvasse-trump`, `cyvasse-caird`, `kyo`, `territories`, `syba`). [`games::for_each_game`] is the
//! one list of those games: the CLI and the server register the games from it
//! ([`games::registry`]), and the AI finds a game's type from its id through it
//! ([`games::with_game`]).
//!
//! * [`agents`]: `random`, `greedy`, `uct`, `mcts`, `ismcts`, `alphabeta` and the levels [`LEVELS`];
//!   [`agents::decide`] is the typed entry point.
//! * [`mcts`]: UCT / MCTS with evaluation cut-off / information-set MCTS (chance nodes, any number of
//!   players, MCTS-Solver for immediate wins).
//! * [`alphabeta`]: iterative-deepening alpha-beta with a transposition table and move ordering.
//! * [`tournament`]: round robins and benchmarks (used by `tabula tournament` and `tabula bench`).
//! * [`choose_action`]: the type-erased entry point used by the server for AI seats.
//! * [`analysis`]: the engine's review of a finished game (winning chance before and after every
//!   decision, the preferred action, inaccuracies / mistakes / blunders) and hints, both from the
//!   acting seat's information only.
//!
//! ## Levels
//! | level | agent | budget |
//! |---|---|---|
//! | 1 | greedy, but a random legal action 40% of the time | one action ahead |
//! | 2 | greedy | one action ahead |
//! | 3 | ISMCTS, evaluation cut-off after 6 playout actions | 600 iterations |
//! | 4 | ISMCTS, evaluation cut-off after 6 playout actions | 3,000 iterations |
//! | 5 | alpha-beta (quiescence search over Kyo captures) on two-player perfect-information positions (Kyo, planning each turn as a whole; Cyvasse after the setup), else ISMCTS with cut-off | 60,000 nodes / 10,000 iterations |
//!
//! Every level uses the game's setup policy during a hidden setup (Cyvasse: a King-safe setup).
//! Budgets are counts, never times, so a level is deterministic for a seed.
//!
//! ## Hidden information
//! An agent never holds the real state: it gets an [`InfoSet`], which hands out only
//! `determinize(seat, rng)` samples, i.e. states that depend on nothing but what the seat may see.
//! Tests give agents two real states that look the same to the deciding seat but differ in what is
//! hidden (the Territories hands and pile, the committed enemy Cyvasse setup) and check that every
//! agent decides the same way. Evaluations use only what every determinization shares (for
//! Territories, the opponent's hand enters only by its size).
//!
//! ## Determinism
//! Every decision is driven by one RNG seeded from the caller's seed; searches never iterate a hash
//! map; with an iteration (or node) budget and no time limit, the same seed gives the same decision.
//! One exception: in the middle of a turn that level 5 planned as a whole (Kyo), the decision is
//! the plan's next step, remembered by the process since the turn's first step (any seed); a
//! process that did not plan the turn (restarted, or another node of a cluster) plans the rest of
//! the turn afresh from the position, which continues the same plan when the search values the
//! turn's ends as before. The memory is keyed by the whole state, so two games that stand in the
//! very same position in the middle of a planned turn (games played in parallel from the same
//! start) follow whichever plan was remembered last: either is a step of a complete plan.
//!
//! ## Decisions and simplifications
//! * Multi-action turns are searched action by action (a Kyo Mana chain is several plies; alpha-beta
//!   minimises or maximises by who acts at each node, so a seat acting twice in a row is fine); a
//!   leaf in the middle of a turn is scored as if the turn ended there
//!   ([`Knowledge::closing_action`]), so that the opponent's answer is never skipped. Level 5
//!   plans the deciding seat's own Kyo turn as a whole instead ([`alphabeta::plan_turn`]): every
//!   position the turn can end in, each by its shortest chain, is searched for the opponent's
//!   answer, and the chosen chain is played step by step.
//! * An AI turn takes the shortest way among equal outcomes: alpha-beta charges a small cost for
//!   each action of its own turn and lets the first few of them consume no depth (so a longer turn
//!   cannot push the opponent's answer past the horizon; see [`alphabeta`]); `greedy` ends a turn
//!   in progress rather than take an action worth no more. Syba trades are composed as one
//!   proposal of a few resources a turn, or none ([`games::syba`]).
//! * Simultaneous decisions (the Cyvasse setup) are answered by the setup policy; inside a search
//!   (only `uct`, which has no knowledge) the first seat owing a decision is expanded first.
//! * Chance nodes with at most 64 listed outcomes branch in the MCTS tree; others (shuffles) are
//!   sampled and stay "open loop". Alpha-beta averages listed outcomes (expectimax).
//! * `uct` draws one determinization per decision (the general-game-playing baseline); `ismcts`
//!   and the levels draw one per iteration (single-observer ISMCTS with availability counts).
//! * Alpha-beta ends every line in a quiescence search over the game's tactical actions
//!   ([`Knowledge::is_tactical`]; Kyo: captures), so a shallow search does not score a position in
//!   the middle of an exchange nor overlook a capture it threatens.
//! * The alpha-beta transposition key is the game's own position hash where it has one (Kyo, Caird
//!   Cyvasse) or a hash of the board (Trump Cyvasse); repetition draws are left to the game's rules
//!   (the search sees the resulting outcome when it reaches it).
//! * In multi-player games (Syba) MCTS is max^n: every seat maximises its own expected score; the
//!   evaluation is a softmax over the seats.
//! * Syba hides nothing that `determinize` resamples (the starting cities are public, their texts are
//!   content data), so its agents search the real state through the same interface.

pub mod agents;
pub mod alphabeta;
pub mod analysis;
pub mod games;
pub mod knowledge;
pub mod mcts;
pub mod nnue;
pub mod tournament;

use serde_json::Value;
use tabula_core::dynamic::{DynState, Erased};
use tabula_core::{Game, GameRng, Seat, ToAct};

pub use agents::{AGENT_NAMES, AgentKind, AgentSpec, DecisionStats, LEVELS, Level, decide};
pub use knowledge::Knowledge;

/// Why the AI could not decide.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum AiError {
    #[error("the AI does not know game `{0}`")]
    UnknownGame(String),
    #[error("unknown agent `{0}`; agents: {AGENT_NAMES}")]
    UnknownAgent(String),
    #[error("unknown level {0}; levels are 1..=5")]
    BadLevel(u8),
    #[error("seat {0} owes no decision now")]
    NotYourDecision(Seat),
    #[error("{0}")]
    NoLegalAction(String),
    #[error("the state claims to be `{0}` but is not that game's state")]
    StateMismatch(String),
    #[error("bad options: {0}")]
    Options(String),
    #[error("game error: {0}")]
    Game(String),
    #[error("invalid tournament: {0}")]
    Tournament(String),
    #[error("results file: {0}")]
    Results(String),
    #[error(transparent)]
    Net(#[from] nnue::NetError),
    #[error("training data: {0}")]
    Data(String),
}

/// What one seat may know of a state: the only door an agent has to the game. It hands out
/// determinizations (`Game::determinize(seat, rng)`), never the state itself.
pub struct InfoSet<'a, G: Game> {
    state: &'a G,
    seat: Seat,
}

impl<'a, G: Game> InfoSet<'a, G> {
    /// The information set of `seat` in `state`; `seat` must owe a decision.
    pub fn new(state: &'a G, seat: Seat) -> Result<InfoSet<'a, G>, AiError> {
        match state.to_act() {
            to_act @ (ToAct::Seat(_) | ToAct::Seats(_)) if to_act.includes(seat) => {
                Ok(InfoSet { state, seat })
            }
            _ => Err(AiError::NotYourDecision(seat)),
        }
    }
    /// The deciding seat.
    pub fn seat(&self) -> Seat {
        self.seat
    }
    /// A full state consistent with the seat's view, hidden parts drawn from `rng`.
    pub fn sample(&self, rng: &mut GameRng) -> G {
        self.state.determinize(self.seat, rng)
    }
}

/// Typed form of [`choose_action`].
pub fn choose_typed<G: Knowledge>(
    state: &G,
    seat: Seat,
    level: u8,
    seed: u64,
) -> Result<G::Action, AiError> {
    let spec = AgentSpec::level(level)?;
    let info = InfoSet::new(state, seat)?;
    decide(&spec, &info, seed).map(|(a, _)| a)
}

fn choose_erased<G: Knowledge>(
    state: &dyn DynState,
    seat: Seat,
    level: u8,
    seed: u64,
) -> Result<Value, AiError> {
    let typed = state
        .as_any()
        .downcast_ref::<Erased<G>>()
        .ok_or_else(|| AiError::StateMismatch(G::ID.to_string()))?;
    let action = choose_typed(&typed.0, seat, level, seed)?;
    serde_json::to_value(&action).map_err(|e| AiError::Game(e.to_string()))
}

/// The server's entry point for AI seats: the action `seat` plays at `level` (1..=5, see [`LEVELS`])
/// in `state`, as JSON, deterministic for a given `seed`. The agent sees only what `seat` may see
/// (hidden setups, hands and draw piles are resampled). During the Cyvasse setup it answers with the
/// game's setup policy (levels 2..=5) or a random setup (level 1 sometimes).
pub fn choose_action(
    state: &dyn DynState,
    seat: Seat,
    level: u8,
    seed: u64,
) -> Result<Value, AiError> {
    if !(1..=5).contains(&level) {
        return Err(AiError::BadLevel(level));
    }
    struct Choose<'a> {
        state: &'a dyn DynState,
        seat: Seat,
        level: u8,
        seed: u64,
    }
    impl games::GameFn for Choose<'_> {
        type Output = Result<Value, AiError>;
        fn call<G: Knowledge>(self) -> Self::Output {
            choose_erased::<G>(self.state, self.seat, self.level, self.seed)
        }
    }
    let id = state.game_id();
    games::with_game(
        id,
        Choose {
            state,
            seat,
            level,
            seed,
        },
    )
    .unwrap_or_else(|| Err(AiError::UnknownGame(id.to_string())))
}

/// The ids of the games the AI knows: every game of the platform ([`games::for_each_game`]).
pub fn supported_games() -> Vec<&'static str> {
    games::ids()
}
