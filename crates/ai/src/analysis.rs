//! Analysis of a finished game, and hints: the engine's judgement of each decision a seat took.
//!
//! For every decision of a seat in a record, [`analyse`] gives
//! * the acting seat's **winning chance before** its action: the engine's estimate of its preferred
//!   action (win probability, or expected score where results are shared, as in Syba: a win scores 1,
//!   a draw ½, a loss 0, and a shared victory 1 for every winner);
//! * its **winning chance after** the action it took;
//! * the **preferred action** with its notation;
//! * a **mark** by the drop `before − after` ([`THRESHOLDS`]): an *inaccuracy* from 0.10, a *mistake*
//!   from 0.20, a *blunder* from 0.30 (the thresholds lichess uses for its win-chance drops).
//!
//! **How a decision is judged.** The search is the ISMCTS of the levels (evaluation cut-off after 6
//! playout actions, the game's playout policy, MCTS-Solver for immediate wins) over the acting seat's
//! [`InfoSet`]: every iteration starts from `determinize(seat)`, a state drawn from what the seat could
//! know then, never from the real state, so the judgement cannot depend on anything hidden from it
//! (the opponent's hand, the draw pile, the enemy's hidden setup). Three searches, each with a fixed
//! number of iterations ([`AnalysisConfig`]):
//! 1. a search over all the seat's actions picks the preferred one (the most visited, as the AI plays);
//! 2. a search of the preferred action alone at the root estimates it: **before**;
//! 3. a search of the action taken alone at the root estimates it: **after** (when the seat took the
//!    preferred action, `after = before` and the search is not repeated).
//!
//! Searches 2 and 3 run with the same budget and the same seed (the same determinizations), so that
//! the two estimates are measured alike; a drop below zero (the search's noise) counts as no drop.
//!
//! **Not judged**: chance actions (no entry at all); forced decisions (one legal action; the entry says
//! `forced` and carries no estimate); composite decisions whose choices cannot be listed, i.e. hidden
//! setups (`setup`; the entry carries no estimate either).
//!
//! **Reproducible**: budgets are iteration counts, never times, and each decision's searches are driven
//! by an RNG seeded from the analysis seed and the decision's index in the record, so the same record
//! and seed always give the same analysis, on any machine, whatever else runs.
//!
//! [`hint`] is the first search alone, for a seat's current decision in a running game: the preferred
//! action from that seat's information only.

use serde::{Deserialize, Serialize};
use serde_json::Value;
use tabula_core::dynamic::{DynState, Erased};
use tabula_core::record::{JsonRecord, Record, RecordedAction};
use tabula_core::wire::{Config, ExportError};
use tabula_core::{Actor, Game, Observer, Seat, ToAct};
use ts_rs::TS;

use crate::knowledge::Knowledge;
use crate::mcts::{self, MctsConfig};
use crate::{AiError, InfoSet, games};

/// Exports the analysis's and the hint's TypeScript declarations under `ai/` (see `tabula_core::wire`):
/// the server passes them through as it stores them, and the web client reads them with these types.
pub fn export_ts(cfg: &Config) -> Result<(), ExportError> {
    Analysis::export_all(cfg)?;
    Hint::export_all(cfg)?;
    Ok(())
}

/// The drops in winning chance that earn each mark (at least this much).
#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize, TS)]
#[ts(export_to = "ai/")]
pub struct Thresholds {
    pub inaccuracy: f64,
    pub mistake: f64,
    pub blunder: f64,
}

/// The marks' thresholds: a drop of 0.10 is an inaccuracy, 0.20 a mistake, 0.30 a blunder.
pub const THRESHOLDS: Thresholds = Thresholds {
    inaccuracy: 0.10,
    mistake: 0.20,
    blunder: 0.30,
};

impl Thresholds {
    /// The mark a drop in winning chance earns, if any.
    pub fn mark(&self, drop: f64) -> Option<Mark> {
        if drop >= self.blunder {
            Some(Mark::Blunder)
        } else if drop >= self.mistake {
            Some(Mark::Mistake)
        } else if drop >= self.inaccuracy {
            Some(Mark::Inaccuracy)
        } else {
            None
        }
    }
}

/// How bad a decision was.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize, TS)]
#[ts(export_to = "ai/")]
#[serde(rename_all = "snake_case")]
pub enum Mark {
    Inaccuracy,
    Mistake,
    Blunder,
}

impl Mark {
    /// The mark's name ("inaccuracy", "mistake", "blunder").
    pub fn name(self) -> &'static str {
        match self {
            Mark::Inaccuracy => "inaccuracy",
            Mark::Mistake => "mistake",
            Mark::Blunder => "blunder",
        }
    }
}

/// Whether and why a decision was judged.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, TS)]
#[ts(export_to = "ai/")]
#[serde(rename_all = "snake_case")]
pub enum DecisionKind {
    /// Searched and judged.
    Judged,
    /// The seat had one legal action: nothing to judge.
    Forced,
    /// A composite decision whose choices cannot be listed (a hidden setup): not judged.
    Setup,
}

/// The budget and seed of an analysis.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct AnalysisConfig {
    /// Iterations of the search that picks the preferred action.
    pub iterations: u32,
    /// Iterations of each search that estimates one action (the preferred one, the one taken).
    pub estimate_iterations: u32,
    /// The seed every decision's RNG is derived from.
    pub seed: u64,
}

/// The default budget per decision: 2,000 iterations to choose, 1,000 to estimate each action.
pub const DEFAULT_ITERATIONS: u32 = 2000;
/// See [`DEFAULT_ITERATIONS`].
pub const DEFAULT_ESTIMATE_ITERATIONS: u32 = 1000;

impl Default for AnalysisConfig {
    fn default() -> Self {
        AnalysisConfig {
            iterations: DEFAULT_ITERATIONS,
            estimate_iterations: DEFAULT_ESTIMATE_ITERATIONS,
            seed: 0,
        }
    }
}

/// The engine's judgement of one decision.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, TS)]
#[ts(export_to = "ai/")]
pub struct DecisionAnalysis {
    /// The action's index in the record's action list (the position before it is position `ply`).
    pub ply: usize,
    pub seat: Seat,
    /// The action taken, as recorded.
    #[ts(type = "unknown")]
    pub action: Value,
    /// Its notation as the acting seat saw it.
    pub notation: String,
    /// It in a player's words as the acting seat saw it ([`Game::action_words`]; absent from
    /// analyses stored before words were added).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[ts(optional)]
    pub words: Option<String>,
    /// The board cells and items it involves ([`Game::action_cells`], as clients receive them with
    /// legal actions; empty for an action chosen with a button).
    #[serde(default)]
    pub cells: Vec<String>,
    pub kind: DecisionKind,
    /// The seat's winning chance before the action: the estimate of the preferred action.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[ts(optional)]
    pub before: Option<f64>,
    /// The seat's winning chance after the action taken.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[ts(optional)]
    pub after: Option<f64>,
    /// The engine's preferred action.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[ts(optional, type = "unknown")]
    pub best: Option<Value>,
    /// Its notation as the acting seat would see it.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[ts(optional)]
    pub best_notation: Option<String>,
    /// It in a player's words, as the acting seat would see it.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[ts(optional)]
    pub best_words: Option<String>,
    /// Its cells ([`Game::action_cells`]), for a client to draw it on the board.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[ts(optional)]
    pub best_cells: Option<Vec<String>>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[ts(optional)]
    pub mark: Option<Mark>,
}

impl DecisionAnalysis {
    /// The drop in winning chance (never below zero), for a judged decision.
    pub fn drop(&self) -> Option<f64> {
        Some((self.before? - self.after?).max(0.0))
    }
}

/// One seat's totals.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, TS)]
#[ts(export_to = "ai/")]
pub struct SeatSummary {
    pub seat: Seat,
    pub name: String,
    /// Decisions judged.
    pub judged: u32,
    pub inaccuracies: u32,
    pub mistakes: u32,
    pub blunders: u32,
    /// The mean drop in winning chance over the judged decisions (0 when none).
    pub average_drop: f64,
}

/// The analysis of a whole record.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, TS)]
#[ts(export_to = "ai/")]
pub struct Analysis {
    pub game: String,
    /// The analysis seed, as a decimal string (exact in every JSON reader).
    pub seed: String,
    pub iterations: u32,
    pub estimate_iterations: u32,
    pub thresholds: Thresholds,
    /// The number of actions in the record (chance actions included).
    pub plies: usize,
    pub seats: Vec<SeatSummary>,
    /// Every decision of a seat, in the record's order (chance actions have none).
    pub decisions: Vec<DecisionAnalysis>,
}

/// The seed of decision `ply` (SplitMix64 of the analysis seed and the index).
fn decision_seed(seed: u64, ply: usize) -> u64 {
    let mut z = seed ^ (ply as u64).wrapping_mul(0x9e37_79b9_7f4a_7c15);
    z = z.wrapping_add(0x9e37_79b9_7f4a_7c15);
    z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
    z ^ (z >> 31)
}

fn search_config(iterations: u32) -> MctsConfig {
    MctsConfig {
        iterations,
        cutoff: Some(6),
        redeterminize: true,
        playout_policy: true,
        ..MctsConfig::default()
    }
}

fn notation_for<G: Game>(state: &G, seat: Seat, action: &G::Action) -> String {
    state
        .describe_action(Actor::Seat(seat), action, Observer::Seat(seat))
        .unwrap_or_else(|| state.action_notation(action))
}

/// `action` of `seat` in a player's words, as that seat sees them.
fn words_for<G: Game>(state: &G, seat: Seat, action: &G::Action) -> String {
    state.action_words(Actor::Seat(seat), action, Observer::Seat(seat))
}

fn to_value<T: Serialize>(v: &T) -> Result<Value, AiError> {
    serde_json::to_value(v).map_err(|e| AiError::Game(e.to_string()))
}

/// The estimate of `action` for `info`'s seat: a search with that action alone at the root.
fn estimate<G: Knowledge>(
    info: &InfoSet<'_, G>,
    action: &G::Action,
    iterations: u32,
    seed: u64,
) -> Option<f64> {
    let mut rng = tabula_core::rng_from_seed(seed);
    mcts::search_report(info, &search_config(iterations), &mut rng, Some(action))
        .and_then(|r| r.best_edge().map(|e| e.mean))
}

/// Judges `seat`'s decision `played` in `state` (position `ply` of its game) from the seat's
/// information only. `seed` is the analysis seed.
pub fn analyse_decision<G: Knowledge>(
    state: &G,
    ply: usize,
    seat: Seat,
    played: &G::Action,
    cfg: &AnalysisConfig,
) -> Result<DecisionAnalysis, AiError> {
    let info = InfoSet::new(state, seat)?;
    let mut entry = DecisionAnalysis {
        ply,
        seat,
        action: to_value(played)?,
        notation: notation_for(state, seat, played),
        words: Some(words_for(state, seat, played)),
        cells: state.action_cells(played),
        kind: DecisionKind::Judged,
        before: None,
        after: None,
        best: None,
        best_notation: None,
        best_words: None,
        best_cells: None,
        mark: None,
    };
    if matches!(state.to_act(), ToAct::Seats(_)) || state.actions_sampled(seat) {
        entry.kind = DecisionKind::Setup;
        return Ok(entry);
    }
    if tabula_core::legal_actions_vec(state, seat).len() <= 1 {
        entry.kind = DecisionKind::Forced;
        return Ok(entry);
    }
    let seed = decision_seed(cfg.seed, ply);
    let mut rng = tabula_core::rng_from_seed(seed);
    let report = mcts::search_report(&info, &search_config(cfg.iterations), &mut rng, None)
        .ok_or_else(|| AiError::NoLegalAction(format!("seat {seat} has no legal action")))?;
    let best = report
        .best_edge()
        .map(|e| e.action.clone())
        .ok_or_else(|| AiError::NoLegalAction(format!("seat {seat} has no legal action")))?;
    let estimate_seed = decision_seed(seed, usize::MAX);
    let before = estimate(&info, &best, cfg.estimate_iterations, estimate_seed);
    let after = if best == *played {
        before
    } else {
        estimate(&info, played, cfg.estimate_iterations, estimate_seed)
    };
    entry.best_notation = Some(notation_for(state, seat, &best));
    entry.best_words = Some(words_for(state, seat, &best));
    entry.best_cells = Some(state.action_cells(&best));
    entry.best = Some(to_value(&best)?);
    entry.before = before;
    entry.after = after;
    entry.mark = entry.drop().and_then(|d| THRESHOLDS.mark(d));
    Ok(entry)
}

/// Analyses every decision of a record (which is replayed and checked on the way: an illegal action
/// is an error naming it). `progress(done, total)` is called after each decision of a seat; the
/// server waits there for live games' AI moves to go first.
pub fn analyse<G: Knowledge>(
    record: &Record<G>,
    cfg: &AnalysisConfig,
    progress: &mut dyn FnMut(usize, usize),
) -> Result<Analysis, AiError> {
    let start = G::new(&record.options).map_err(|e| AiError::Options(e.to_string()))?;
    analyse_from(start, &record.actions, cfg, progress)
}

/// [`analyse`] of the actions `actions` played from the position `start` (a hand-built position, a
/// lesson's start).
pub fn analyse_from<G: Knowledge>(
    start: G,
    actions: &[RecordedAction<G::Action>],
    cfg: &AnalysisConfig,
    progress: &mut dyn FnMut(usize, usize),
) -> Result<Analysis, AiError> {
    let mut state = start;
    let total = actions
        .iter()
        .filter(|a| matches!(a.actor, Actor::Seat(_)))
        .count();
    let mut decisions = Vec::with_capacity(total);
    for (ply, recorded) in actions.iter().enumerate() {
        if let Actor::Seat(seat) = recorded.actor {
            if !state.to_act().includes(seat) {
                return Err(AiError::Game(format!(
                    "action {}: it is not seat {seat}'s decision",
                    ply + 1
                )));
            }
            decisions.push(analyse_decision(&state, ply, seat, &recorded.action, cfg)?);
        }
        state
            .apply(recorded.actor, &recorded.action)
            .map_err(|e| AiError::Game(format!("action {}: {e}", ply + 1)))?;
        if matches!(recorded.actor, Actor::Seat(_)) {
            progress(decisions.len(), total);
        }
    }
    let seats = (0..state.seats())
        .map(|i| {
            let seat = Seat::new(i);
            let mine: Vec<&DecisionAnalysis> = decisions
                .iter()
                .filter(|d| d.seat == seat && d.kind == DecisionKind::Judged)
                .collect();
            let count = |m: Mark| mine.iter().filter(|d| d.mark == Some(m)).count() as u32;
            let drops: f64 = mine.iter().filter_map(|d| d.drop()).sum();
            SeatSummary {
                seat,
                name: state.seat_name(seat),
                judged: mine.len() as u32,
                inaccuracies: count(Mark::Inaccuracy),
                mistakes: count(Mark::Mistake),
                blunders: count(Mark::Blunder),
                average_drop: if mine.is_empty() {
                    0.0
                } else {
                    drops / mine.len() as f64
                },
            }
        })
        .collect();
    Ok(Analysis {
        game: G::ID.to_string(),
        seed: cfg.seed.to_string(),
        iterations: cfg.iterations,
        estimate_iterations: cfg.estimate_iterations,
        thresholds: THRESHOLDS,
        plies: actions.len(),
        seats,
        decisions,
    })
}

/// [`analyse`] for a record in its JSON form, any game.
pub fn analyse_json(
    record: &JsonRecord,
    cfg: &AnalysisConfig,
    progress: &mut dyn FnMut(usize, usize),
) -> Result<Analysis, AiError> {
    struct Run<'a, 'b> {
        record: &'a JsonRecord,
        cfg: &'a AnalysisConfig,
        progress: &'a mut (dyn FnMut(usize, usize) + 'b),
    }
    impl games::GameFn for Run<'_, '_> {
        type Output = Result<Analysis, AiError>;
        fn call<G: Knowledge>(self) -> Self::Output {
            let record = Record::<G>::from_json(self.record).map_err(AiError::Game)?;
            analyse(&record, self.cfg, self.progress)
        }
    }
    games::with_game(
        &record.game,
        Run {
            record,
            cfg,
            progress,
        },
    )
    .unwrap_or_else(|| Err(AiError::UnknownGame(record.game.clone())))
}

/// The engine's preferred action for a seat's current decision.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, TS)]
#[ts(export_to = "ai/")]
pub struct Hint {
    pub seat: Seat,
    #[ts(type = "unknown")]
    pub action: Value,
    /// Its notation as the seat sees it.
    pub notation: String,
    /// It in a player's words, as the seat sees them ([`Game::action_words`]).
    pub words: String,
    /// Its cells ([`Game::action_cells`]), for a client to highlight it on the board.
    #[serde(default)]
    pub cells: Vec<String>,
    /// The seat's winning chance with it (the search's mean for the action); none for a setup, which
    /// the game's setup policy answers.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[ts(optional)]
    pub estimate: Option<f64>,
}

/// The preferred action of `seat` in `state`, searched with `iterations` from the seat's information
/// only (a hidden setup is answered by the game's setup policy). Deterministic for a seed.
pub fn hint<G: Knowledge>(
    state: &G,
    seat: Seat,
    iterations: u32,
    seed: u64,
) -> Result<Hint, AiError> {
    let info = InfoSet::new(state, seat)?;
    let mut rng = tabula_core::rng_from_seed(seed);
    if matches!(state.to_act(), ToAct::Seats(_)) || state.actions_sampled(seat) {
        let sample = info.sample(&mut rng);
        if let Some(a) = sample.setup_action(seat, &mut rng) {
            return Ok(Hint {
                seat,
                action: to_value(&a)?,
                notation: notation_for(state, seat, &a),
                words: words_for(state, seat, &a),
                cells: state.action_cells(&a),
                estimate: None,
            });
        }
    }
    let report = mcts::search_report(&info, &search_config(iterations), &mut rng, None)
        .ok_or_else(|| AiError::NoLegalAction(format!("seat {seat} has no legal action")))?;
    let best = report
        .best_edge()
        .ok_or_else(|| AiError::NoLegalAction(format!("seat {seat} has no legal action")))?;
    Ok(Hint {
        seat,
        action: to_value(&best.action)?,
        notation: notation_for(state, seat, &best.action),
        words: words_for(state, seat, &best.action),
        cells: state.action_cells(&best.action),
        estimate: Some(best.mean),
    })
}

/// [`hint`] for a type-erased state (the server's entry point).
pub fn hint_dyn(
    state: &dyn DynState,
    seat: Seat,
    iterations: u32,
    seed: u64,
) -> Result<Hint, AiError> {
    struct Run<'a> {
        state: &'a dyn DynState,
        seat: Seat,
        iterations: u32,
        seed: u64,
    }
    impl games::GameFn for Run<'_> {
        type Output = Result<Hint, AiError>;
        fn call<G: Knowledge>(self) -> Self::Output {
            let typed = self
                .state
                .as_any()
                .downcast_ref::<Erased<G>>()
                .ok_or_else(|| AiError::StateMismatch(G::ID.to_string()))?;
            hint(&typed.0, self.seat, self.iterations, self.seed)
        }
    }
    let id = state.game_id();
    games::with_game(
        id,
        Run {
            state,
            seat,
            iterations,
            seed,
        },
    )
    .unwrap_or_else(|| Err(AiError::UnknownGame(id.to_string())))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn marks_follow_the_documented_thresholds() {
        assert_eq!(THRESHOLDS.mark(0.0), None);
        assert_eq!(THRESHOLDS.mark(0.099), None);
        assert_eq!(THRESHOLDS.mark(0.10), Some(Mark::Inaccuracy));
        assert_eq!(THRESHOLDS.mark(0.2), Some(Mark::Mistake));
        assert_eq!(THRESHOLDS.mark(0.3), Some(Mark::Blunder));
        assert_eq!(THRESHOLDS.mark(1.0), Some(Mark::Blunder));
    }

    #[test]
    fn decision_seeds_differ_by_index_and_seed() {
        assert_ne!(decision_seed(1, 0), decision_seed(1, 1));
        assert_ne!(decision_seed(1, 0), decision_seed(2, 0));
        assert_eq!(decision_seed(7, 3), decision_seed(7, 3));
    }
}
