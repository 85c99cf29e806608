//! The agents, by name, and the decision entry point [`decide`].
//!
//! | name | what it does |
//! |---|---|
//! | `random` | a uniformly random legal action |
//! | `greedy` | the action with the best immediate evaluation (one action ahead, chance averaged) |
//! | `uct` | plain UCT with uniformly random playouts to the end of the game, no game knowledge (the general-game-playing baseline); one determinization per decision |
//! | `mcts` | UCT whose playouts stop after a few actions and are scored by the game's evaluation; one determinization per decision |
//! | `ismcts` | `mcts` with a fresh determinization every iteration (information-set MCTS) |
//! | `alphabeta` | iterative-deepening alpha-beta with a transposition table, move ordering and a quiescence search over tactical actions (Kyo captures), on perfect-information two-player states, one action at a time (a Kyo Mana chain step by step: what level 5 did before it planned whole turns); elsewhere it plays as `ismcts` |
//! | `level1`..`level5` | the levels of [`LEVELS`]; level 5 is `alphabeta:60000`, except that in Kyo it plans each turn as a whole ([`alphabeta::plan_turn`]) and plays the plan's steps one by one |
//! | `level6` | level 5's alpha-beta (60,000 nodes) over the game's learned evaluation ([`crate::nnue`]) instead of the hand-written one; two-player perfect-information positions only, and only where a net exists (installed with `tabula tournament --net FILE`, or committed). Not offered to players until its net beats level 5 (issue 41): today a tournament agent only |
//!
//! A name may carry a budget after a colon: `uct:2000` (iterations), `alphabeta:50000` (nodes),
//! `level5:20000` (the level's own kind of budget). A time limit per move, when given, stops any search
//! earlier (and makes its decision depend on the machine's speed).
//!
//! Every agent except `random` and `uct` uses the game's setup policy during a hidden setup.

use std::collections::VecDeque;
use std::fmt;
use std::str::FromStr;
use std::sync::Mutex;
use std::time::{Duration, Instant};

use tabula_core::rand::RngExt;
use tabula_core::rand::seq::SliceRandom;
use tabula_core::{Actor, GameRng, Seat, ToAct};

use crate::alphabeta::{self, AlphaBetaConfig};
use crate::knowledge::{Knowledge, json_hash, stable_hash};
use crate::mcts::{self, MctsConfig};
use crate::{AiError, InfoSet};

/// The kind of an agent.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum AgentKind {
    Random,
    Greedy,
    Uct,
    Mcts,
    Ismcts,
    AlphaBeta,
    /// One of [`LEVELS`] (1..=5).
    Level(u8),
    /// `level6`: level 5's alpha-beta over the learned evaluation ([`crate::nnue`]).
    Learned,
}

/// A level a player picks: its number, the agent behind it and its budget.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Level {
    pub level: u8,
    pub name: &'static str,
    pub description: &'static str,
}

/// The levels 1..=5. Every level is deterministic for a given seed (no time limit is involved).
pub const LEVELS: [Level; 5] = [
    Level {
        level: 1,
        name: "Novice",
        description: "greedy one-action lookahead, but a random legal action 40% of the time",
    },
    Level {
        level: 2,
        name: "Casual",
        description: "greedy: the action with the best immediate evaluation",
    },
    Level {
        level: 3,
        name: "Club",
        description: "information-set MCTS, 600 iterations, playouts cut off after 6 actions and scored by the game's evaluation",
    },
    Level {
        level: 4,
        name: "Expert",
        description: "information-set MCTS, 3000 iterations, evaluation cut-off after 6 actions",
    },
    Level {
        level: 5,
        name: "Master",
        description: "alpha-beta (iterative deepening, transposition table, move ordering, quiescence search over captures) with 60000 nodes on two-player perfect-information positions (Kyo, Cyvasse after setup), planning a Kyo turn as a whole (each reachable end of the turn by its shortest chain); elsewhere information-set MCTS with 10000 iterations and an evaluation cut-off after 6 actions",
    },
];

const LEVEL_ITERATIONS: [u32; 5] = [0, 0, 600, 3000, 10_000];
const LEVEL5_NODES: u64 = 60_000;
const CUTOFF: u32 = 6;
const DEFAULT_MCTS_ITERATIONS: u32 = 1000;
const DEFAULT_AB_NODES: u64 = 20_000;

/// An agent as named on the command line: its kind, an optional budget and an optional time limit.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub struct AgentSpec {
    pub kind: AgentKind,
    /// Iterations (MCTS) or nodes (alpha-beta); `None` is the agent's default.
    pub budget: Option<u64>,
    /// Wall-clock limit per decision.
    pub time: Option<Duration>,
}

impl AgentSpec {
    pub fn new(kind: AgentKind) -> AgentSpec {
        AgentSpec {
            kind,
            budget: None,
            time: None,
        }
    }
    /// Whether the agent searches (so a time limit needs an unlimited count budget to matter).
    pub fn searches(&self) -> bool {
        !matches!(
            self.kind,
            AgentKind::Random | AgentKind::Greedy | AgentKind::Level(1) | AgentKind::Level(2)
        )
    }
    /// Gives the agent a time limit per decision; a searching agent without an explicit budget then
    /// searches until the limit.
    /// Agents that do not search (random, greedy, levels 1–2) are returned unchanged.
    pub fn with_time_limit(mut self, time: Duration) -> AgentSpec {
        if self.searches() {
            self.time = Some(time);
            if self.budget.is_none() {
                self.budget = Some(u64::from(u32::MAX));
            }
        }
        self
    }
    /// Gives a searching agent without an explicit budget the budget `n`: iterations for the MCTS
    /// agents and levels 3–4, nodes for alpha-beta (level 5 in two-player perfect-information
    /// positions, else its ISMCTS iterations). Used for equal-budget tournaments, which are
    /// deterministic for a seed and independent of the machine's speed and load. Agents that do not
    /// search, and agents with an explicit `:N` budget, are returned unchanged.
    pub fn with_budget(mut self, n: u64) -> AgentSpec {
        if self.searches() && self.budget.is_none() {
            self.budget = Some(n);
        }
        self
    }
    /// The level `n` (1..=5).
    pub fn level(n: u8) -> Result<AgentSpec, AiError> {
        if (1..=5).contains(&n) {
            Ok(AgentSpec::new(AgentKind::Level(n)))
        } else {
            Err(AiError::BadLevel(n))
        }
    }
}

impl fmt::Display for AgentSpec {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self.kind {
            AgentKind::Random => write!(f, "random")?,
            AgentKind::Greedy => write!(f, "greedy")?,
            AgentKind::Uct => write!(f, "uct")?,
            AgentKind::Mcts => write!(f, "mcts")?,
            AgentKind::Ismcts => write!(f, "ismcts")?,
            AgentKind::AlphaBeta => write!(f, "alphabeta")?,
            AgentKind::Level(n) => write!(f, "level{n}")?,
            AgentKind::Learned => write!(f, "level6")?,
        }
        match (self.budget, self.time) {
            (Some(b), None) => write!(f, ":{b}")?,
            (Some(b), Some(_)) if b < u64::from(u32::MAX) => write!(f, ":{b}")?,
            _ => {}
        }
        if let Some(t) = self.time {
            write!(f, "@{}ms", t.as_millis())?;
        }
        Ok(())
    }
}

/// The agent names accepted on the command line.
pub const AGENT_NAMES: &str = "random, greedy, uct, mcts, ismcts, alphabeta, level1..level5, level6 (learned evaluation; needs a net) (optionally NAME:BUDGET)";

impl FromStr for AgentSpec {
    type Err = AiError;
    fn from_str(s: &str) -> Result<AgentSpec, AiError> {
        let s = s.trim();
        let (name, budget) = match s.split_once(':') {
            Some((n, b)) => {
                let b: u64 = b
                    .trim()
                    .parse()
                    .map_err(|_| AiError::UnknownAgent(s.to_string()))?;
                if b == 0 {
                    return Err(AiError::UnknownAgent(s.to_string()));
                }
                (n.trim(), Some(b))
            }
            None => (s, None),
        };
        let kind = match name {
            "random" => AgentKind::Random,
            "greedy" => AgentKind::Greedy,
            "uct" => AgentKind::Uct,
            "mcts" => AgentKind::Mcts,
            "ismcts" => AgentKind::Ismcts,
            "alphabeta" | "alpha-beta" => AgentKind::AlphaBeta,
            "level6" => AgentKind::Learned,
            _ => match name
                .strip_prefix("level")
                .and_then(|n| n.parse::<u8>().ok())
            {
                Some(n) if (1..=5).contains(&n) => AgentKind::Level(n),
                _ => return Err(AiError::UnknownAgent(s.to_string())),
            },
        };
        if budget.is_some() && matches!(kind, AgentKind::Random | AgentKind::Greedy) {
            return Err(AiError::UnknownAgent(format!(
                "{s} (random and greedy take no budget)"
            )));
        }
        Ok(AgentSpec {
            kind,
            budget,
            time: None,
        })
    }
}

/// What a decision cost.
#[derive(Debug, Clone, Copy, Default, PartialEq)]
pub struct DecisionStats {
    /// MCTS iterations.
    pub iterations: u64,
    /// Tree nodes (MCTS) or searched states (alpha-beta).
    pub nodes: u64,
    /// Alpha-beta: deepest completed iteration.
    pub depth: u32,
}

/// The value of `state` for `seat` one action after a greedy choice: the outcome when the game is over,
/// the average over listed chance outcomes (or one sample), else the evaluation (½ without one).
fn greedy_value<G: Knowledge>(state: &G, seat: Seat, rng: &mut GameRng, chance_depth: u32) -> f64 {
    match state.to_act() {
        ToAct::Over(o) => o.score(seat),
        ToAct::Chance if chance_depth < 2 => {
            let mut outcomes = Vec::new();
            state.chance_outcomes(&mut outcomes);
            if outcomes.is_empty() || outcomes.len() > 64 {
                match state.sample_chance(rng) {
                    Some(a) => {
                        let mut next = state.clone();
                        next.apply_trusted(Actor::Chance, &a);
                        greedy_value(&next, seat, rng, chance_depth + 1)
                    }
                    None => 0.5,
                }
            } else {
                let total: f64 = outcomes.iter().map(|(_, p)| *p).sum();
                let mut sum = 0.0;
                for (a, p) in &outcomes {
                    let mut next = state.clone();
                    next.apply_trusted(Actor::Chance, a);
                    sum += p * greedy_value(&next, seat, rng, chance_depth + 1);
                }
                sum / total.max(f64::MIN_POSITIVE)
            }
        }
        _ => state
            .evaluate()
            .and_then(|v| v.get(seat.index()).copied())
            .unwrap_or(0.5),
    }
}

/// The greedy choice: the best value one action ahead (a turn left in progress scored as if it ended
/// there); among equal values the action that ends a
/// turn in progress ([`Knowledge::closing_action`]: a turn goes on only for a gain), then the highest
/// [`Knowledge::action_priority`], then the seeded shuffle.
fn greedy<G: Knowledge>(state: &G, seat: Seat, rng: &mut GameRng) -> Option<G::Action> {
    let mut actions = crate::knowledge::agent_actions_vec(state, seat);
    actions.shuffle(rng);
    let close = state.closing_action();
    let mut best: Option<(f64, (bool, i32), usize)> = None;
    for (i, a) in actions.iter().enumerate() {
        let mut next = state.clone();
        next.apply_trusted(Actor::Seat(seat), a);
        // A turn left in progress is scored as if it ended there, as alpha-beta scores its leaves
        // (Kyo: ending a turn runs the quiet-turn count, which a position left in the middle of a
        // Mana chain has not yet paid).
        if next.to_act() == ToAct::Seat(seat)
            && let Some(c) = next.closing_action()
        {
            next.apply_trusted(Actor::Seat(seat), &c);
        }
        let v = greedy_value(&next, seat, rng, 0);
        let p = (close.as_ref() == Some(a), state.action_priority(a));
        if best.is_none_or(|(bv, bp, _)| v > bv + 1e-12 || (v > bv - 1e-12 && p > bp)) {
            best = Some((v, p, i));
        }
    }
    let i = best?.2;
    actions.into_iter().nth(i)
}

fn random_action<G: Knowledge>(state: &G, seat: Seat, rng: &mut GameRng) -> Option<G::Action> {
    let actions = tabula_core::legal_actions_vec(state, seat);
    if actions.is_empty() {
        return None;
    }
    let i = rng.random_range(0..actions.len());
    actions.into_iter().nth(i)
}

fn mcts_config(iterations: u32, deadline: Option<Instant>, kind: AgentKind) -> MctsConfig {
    MctsConfig {
        iterations,
        deadline,
        cutoff: if kind == AgentKind::Uct {
            None
        } else {
            Some(CUTOFF)
        },
        redeterminize: kind != AgentKind::Uct && kind != AgentKind::Mcts,
        playout_policy: kind != AgentKind::Uct,
        ..MctsConfig::default()
    }
}

/// How many planned steps [`PLANS`] remembers (the oldest are forgotten first).
const PLAN_MEMORY: usize = 4096;

/// The rest of the turns level 5 planned ([`alphabeta::plan_turn`]): for each position a planned
/// turn passes through in its middle, the key of the decision there (game, seat, agent, the whole
/// state) and the planned action as JSON. The next decision of the same turn looks its position
/// up and plays the plan's next step; a position no plan expects (the process restarted, the
/// memory forgot it, or the turn was not played as planned) is planned afresh.
static PLANS: Mutex<VecDeque<(u64, serde_json::Value)>> = Mutex::new(VecDeque::new());

fn plan_key<G: Knowledge>(spec: &AgentSpec, state: &G, seat: Seat) -> u64 {
    stable_hash(&(G::ID, seat.0, spec.to_string(), json_hash(state)))
}

/// Level 5's step in a game that plans whole turns: the next step of the plan made earlier in this
/// turn when `state` is where that plan expected to be, else the first step of a new plan (whose
/// later steps are remembered). `None` when the planner finds no way to end the turn: the caller
/// then searches this step alone.
fn planned_step<G: Knowledge>(
    spec: &AgentSpec,
    state: &G,
    seat: Seat,
    nodes: u64,
    deadline: Option<Instant>,
    rng: &mut GameRng,
    stats: &mut DecisionStats,
) -> Option<G::Action> {
    let key = plan_key(spec, state, seat);
    let remembered = PLANS.lock().ok().and_then(|plans| {
        plans
            .iter()
            .rev()
            .find(|(k, _)| *k == key)
            .map(|(_, a)| a.clone())
    });
    if let Some(a) = remembered.and_then(|v| serde_json::from_value::<G::Action>(v).ok())
        && crate::knowledge::agent_actions_vec(state, seat).contains(&a)
    {
        return Some(a);
    }
    let cfg = AlphaBetaConfig {
        max_nodes: nodes,
        deadline,
        ..AlphaBetaConfig::default()
    };
    let (plan, s) = alphabeta::plan_turn(state, seat, &cfg, rng)?;
    stats.nodes = s.nodes;
    stats.depth = s.depth;
    let mut steps = plan.into_iter();
    let first = steps.next()?;
    let mut after = state.clone();
    after.apply_trusted(Actor::Seat(seat), &first);
    let mut remember = Vec::new();
    for a in steps {
        if after.to_act() != ToAct::Seat(seat) {
            break;
        }
        if let Ok(v) = serde_json::to_value(&a) {
            remember.push((plan_key(spec, &after, seat), v));
        }
        after.apply_trusted(Actor::Seat(seat), &a);
    }
    if !remember.is_empty()
        && let Ok(mut plans) = PLANS.lock()
    {
        for entry in remember {
            if plans.len() >= PLAN_MEMORY {
                plans.pop_front();
            }
            plans.push_back(entry);
        }
    }
    Some(first)
}

/// Chooses an action for `info`'s seat with the agent `spec`, deterministically from `seed` (unless a
/// time limit is set). The agent sees only determinizations of the seat's information set.
pub fn decide<G: Knowledge>(
    spec: &AgentSpec,
    info: &InfoSet<'_, G>,
    seed: u64,
) -> Result<(G::Action, DecisionStats), AiError> {
    let seat = info.seat();
    let mut rng = tabula_core::rng_from_seed(seed);
    let deadline = spec.time.map(|t| Instant::now() + t);
    let sample = info.sample(&mut rng);
    let no_action = || AiError::NoLegalAction(format!("seat {seat} has no legal action"));
    let mut stats = DecisionStats::default();
    let uses_knowledge = !matches!(spec.kind, AgentKind::Random | AgentKind::Uct);
    if uses_knowledge
        && matches!(sample.to_act(), ToAct::Seats(_))
        && let Some(a) = sample.setup_action(seat, &mut rng)
    {
        return Ok((a, stats));
    }
    let budget = spec.budget;
    let iterations =
        |default: u32| -> u32 { budget.map_or(default, |b| u32::try_from(b).unwrap_or(u32::MAX)) };
    let run_mcts = |kind: AgentKind, iters: u32, rng: &mut GameRng, stats: &mut DecisionStats| {
        let cfg = mcts_config(iters, deadline, kind);
        mcts::search(info, &cfg, rng).map(|(a, s)| {
            stats.iterations = s.iterations;
            stats.nodes = s.nodes;
            a
        })
    };
    let run_ab = |nodes: u64, rng: &mut GameRng, stats: &mut DecisionStats| {
        let cfg = AlphaBetaConfig {
            max_nodes: nodes,
            deadline,
            ..AlphaBetaConfig::default()
        };
        alphabeta::search(&sample, seat, &cfg, rng).map(|(a, s)| {
            stats.nodes = s.nodes;
            stats.depth = s.depth;
            a
        })
    };
    let ab_ok = sample.seats() == 2 && sample.perfect_information();
    let action = match spec.kind {
        AgentKind::Random => random_action(&sample, seat, &mut rng),
        AgentKind::Greedy | AgentKind::Level(2) => greedy(&sample, seat, &mut rng),
        AgentKind::Level(1) => {
            if rng.random::<f64>() < 0.4 {
                random_action(&sample, seat, &mut rng)
            } else {
                greedy(&sample, seat, &mut rng)
            }
        }
        AgentKind::Uct | AgentKind::Mcts | AgentKind::Ismcts => run_mcts(
            spec.kind,
            iterations(DEFAULT_MCTS_ITERATIONS),
            &mut rng,
            &mut stats,
        ),
        AgentKind::AlphaBeta if ab_ok => {
            run_ab(budget.unwrap_or(DEFAULT_AB_NODES), &mut rng, &mut stats)
        }
        AgentKind::AlphaBeta => run_mcts(
            AgentKind::Ismcts,
            iterations(DEFAULT_MCTS_ITERATIONS),
            &mut rng,
            &mut stats,
        ),
        AgentKind::Level(5) if ab_ok && G::PLAN_TURNS => {
            let nodes = budget.unwrap_or(LEVEL5_NODES);
            match planned_step(spec, &sample, seat, nodes, deadline, &mut rng, &mut stats) {
                Some(a) => Some(a),
                None => run_ab(nodes, &mut rng, &mut stats),
            }
        }
        AgentKind::Level(5) if ab_ok => {
            run_ab(budget.unwrap_or(LEVEL5_NODES), &mut rng, &mut stats)
        }
        AgentKind::Learned if ab_ok => {
            let net = crate::nnue::net_for::<G>()?;
            let mut eval = crate::nnue::LearnedEval::new(&net);
            let cfg = AlphaBetaConfig {
                max_nodes: budget.unwrap_or(LEVEL5_NODES),
                deadline,
                ..AlphaBetaConfig::default()
            };
            alphabeta::search_with_leaf(&sample, seat, &cfg, &mut rng, &mut eval).map(|(a, s)| {
                stats.nodes = s.nodes;
                stats.depth = s.depth;
                a
            })
        }
        AgentKind::Learned => {
            return Err(AiError::Net(crate::nnue::NetError::NoFeatures(format!(
                "{} (level6 searches two-player perfect-information positions only)",
                G::ID
            ))));
        }
        AgentKind::Level(n) => {
            let i = usize::from(n.clamp(1, 5) - 1);
            run_mcts(
                AgentKind::Ismcts,
                iterations(LEVEL_ITERATIONS[i]),
                &mut rng,
                &mut stats,
            )
        }
    };
    action.map(|a| (a, stats)).ok_or_else(no_action)
}
