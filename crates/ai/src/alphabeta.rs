//! Alpha-beta search for two-player phases with perfect information (Kyo; Cyvasse after the setup).
//!
//! * **Minimax over atomic actions**: a game where the same seat acts several times in a row (Kyo Mana
//!   chains, cavalry legs) is searched as it is: each node maximises or minimises by who acts there, and
//!   the depth counts actions, not turns.
//! * **Iterative deepening** from depth 1 until the node budget, the deadline or `max_depth` is reached;
//!   the decision is the best root action of the deepest completed iteration (a forced win stops early).
//! * **Transposition table** keyed by [`Knowledge::position_key`], with the usual exact/lower/upper
//!   bounds and the best action of each stored node (searched first next time).
//! * **Move ordering**: the table's best action, then the two killer actions of the ply, then the game's
//!   [`Knowledge::action_priority`] (captures first) plus the history heuristic. At the root, the
//!   previous iteration's values order the actions; a seeded shuffle first breaks ties, so different
//!   seeds give different (equally valued) games and the same seed the same decision.
//! * **Chance nodes** (should one occur) are averaged over their listed outcomes (expectimax), or over
//!   one sampled outcome when they cannot be listed.
//! * **Quiescence search**: a leaf is not scored in the middle of an exchange: the side to move may
//!   stand pat (take the evaluation) or play a tactical action ([`Knowledge::is_tactical`]: Kyo's
//!   captures), and so on for up to `quiescence_depth` actions. Without it a search a few actions
//!   deep sees a capture it can make next turn as worth nothing, and never starts a fight it would
//!   win (in Kyo it let quiet games against `random` run into the 100-turn draw).
//! * **Turns of several actions**: a leaf in the middle of a turn ([`Knowledge::closing_action`]:
//!   a Kyo Mana chain that may stop) is scored after the turn is closed there, with the opponent's
//!   quiescence search to follow; scored as it stood, a line where the same side keeps acting up to
//!   the depth never met the opponent's answer, and Kyo's level5 preferred aimless Mana chains at
//!   home to moves that end its turn (games drawn by the 100-turn rule).
//! * **The shortest way** (level 5 played Kyo Mana chains of 24 and 45 steps looping in its
//!   own corner). Two causes, two remedies, both confined to the root seat's own turn (the one the
//!   search decides a step of):
//!   - *The horizon*: the depth counts actions, so each further step of the root's turn left the
//!     opponent's answer one action less deep, and a chain could choose how deep the opponent looked
//!     (the odd/even swing of a quiet position is worth more than a square of progress). The first
//!     [`AlphaBetaConfig::free_turn_actions`] actions of the root's turn after which it still acts
//!     consume no depth: a turn that stops at once and one that goes on for a few more steps meet
//!     the same answer.
//!   - *Ties*: every action of the root's turn, the closing one included, costs
//!     [`AlphaBetaConfig::turn_action_cost`] in the root's score, so among lines of equal outcome
//!     the search takes the one whose turn is shortest, and a turn goes on only while its next
//!     action gains more than it costs (before, a step that changed nothing the evaluation sees —
//!     chips moved about, a sideways step — tied with `EndTurn`, and the tie went to the step,
//!     ordered first). The cost is an edge cost, added where the action is taken, so a stored value
//!     covers only the rest of the turn below its node (Kyo's key includes the turn's state).
//! * **Whole turns** ([`plan_turn`], level 5 in games with [`Knowledge::PLAN_TURNS`]: Kyo). The
//!   remedies above still decide a chain step by step, each step by a search that sees only a few
//!   steps of the turn ahead, so a chain whose end lies beyond that horizon wandered on its way
//!   there (self-play chains of 20 steps over the Mana of the home rows). The planner instead
//!   enumerates the turn breadth first: every position in which the root seat's turn can end, each
//!   reached by its shortest sequence of actions (two sequences that end in the same position count
//!   once, the shorter kept; positions in the middle of the turn are merged by
//!   [`Knowledge::turn_node_key`]), then searches the opponent's answer to each end position by
//!   iterative deepening (same transposition table, quiescence search and move ordering as above),
//!   scores each end less [`AlphaBetaConfig::plan_action_cost`] per action of its sequence, and
//!   returns the chosen sequence whole. The enumeration stops at a share of the node budget
//!   ([`PLAN_ENUMERATION_SHARE`]) and then plans among the ends it found, those of the shortest
//!   sequences (a Queen that may shuffle between her steps can have more ends than that); falling
//!   back to the step-by-step search there, as first tried, brought the wandering chains back.
//! * **Scores**: from the root seat's side; a win is `WIN - ply` (prefer quick wins, slow losses); a
//!   non-final leaf is `(eval[root] - eval[other]) * 10_000` from [`Knowledge::evaluate`] (0 without one).

use std::collections::{HashMap, HashSet};
use std::time::Instant;

use tabula_core::rand::seq::SliceRandom;
use tabula_core::{Actor, GameRng, Seat, ToAct};

use crate::knowledge::{Knowledge, stable_hash};

/// The value of a won game at ply 0.
pub const WIN: i32 = 1_000_000;
/// The default [`AlphaBetaConfig::turn_action_cost`]: 1/1000 of the evaluation's range (±10,000), about
/// a twelfth of one Kyo pawn's step nearer the enemy King.
pub const TURN_ACTION_COST: i32 = 10;
/// The default [`AlphaBetaConfig::plan_action_cost`]: four times [`TURN_ACTION_COST`], about a
/// third of one Kyo pawn's step nearer the enemy King. Ends of a planned turn are scored after a
/// shallow search of the answer, whose small differences between two ways of laying the Mana chips
/// of a chain would otherwise buy long detours (self-play: at 10, turns of up to 18 steps in 60;
/// at 40, up to 11).
pub const PLAN_ACTION_COST: i32 = 40;
/// The default [`AlphaBetaConfig::free_turn_actions`].
pub const FREE_TURN_ACTIONS: u32 = 3;
/// The share of the node budget the turn planner ([`plan_turn`]) may spend enumerating the turn's
/// end positions (each position it makes counts one node): a quarter.
pub const PLAN_ENUMERATION_SHARE: u64 = 4;
const INF: i32 = i32::MAX / 2;

/// How the search runs.
#[derive(Debug, Clone, PartialEq)]
pub struct AlphaBetaConfig {
    /// Node budget (each visited state counts one).
    pub max_nodes: u64,
    /// Deepest iteration, in actions.
    pub max_depth: u32,
    /// Wall-clock limit (makes the decision depend on the machine's speed).
    pub deadline: Option<Instant>,
    /// Transposition table size: `2^tt_bits` entries, or fewer for a small node budget (at least
    /// 64 entries per node of `max_nodes`: a search stores at most one entry per node, and
    /// allocating a table far larger than that dominated the cost of searches of a few hundred
    /// nodes, such as the training data's tests).
    pub tt_bits: u32,
    /// Quiescence search: at most this many tactical actions ([`Knowledge::is_tactical`]) past the
    /// nominal depth (0: none).
    pub quiescence_depth: u32,
    /// What each action of the root seat's own turn costs in the root's score (see the module
    /// docs: among lines of equal outcome the search takes the one whose turn is shortest).
    pub turn_action_cost: i32,
    /// What each action of a planned turn costs in its end's score ([`plan_turn`]): among ends
    /// of nearly equal value the planner takes the one reached in fewer actions.
    pub plan_action_cost: i32,
    /// How many actions of the root seat's own turn, after which it still acts, consume no depth
    /// (see the module docs): the opponent's answer is searched to the same depth however long
    /// the turn, up to this many extra actions.
    pub free_turn_actions: u32,
}

impl Default for AlphaBetaConfig {
    fn default() -> Self {
        AlphaBetaConfig {
            max_nodes: 100_000,
            max_depth: 64,
            deadline: None,
            tt_bits: 16,
            quiescence_depth: 6,
            turn_action_cost: TURN_ACTION_COST,
            plan_action_cost: PLAN_ACTION_COST,
            free_turn_actions: FREE_TURN_ACTIONS,
        }
    }
}

/// What a search did.
#[derive(Debug, Clone, Copy, Default, PartialEq)]
pub struct AlphaBetaStats {
    /// States visited.
    pub nodes: u64,
    /// Deepest completed iteration.
    pub depth: u32,
    /// Transposition-table cut-offs.
    pub tt_cuts: u64,
    /// The root value of the deepest completed iteration (from the root seat's side).
    pub value: i32,
}

#[derive(Clone, Copy, PartialEq, Eq)]
enum Bound {
    Exact,
    Lower,
    Upper,
}

#[derive(Clone)]
struct Entry<A> {
    key: u64,
    depth: u32,
    value: i32,
    bound: Bound,
    best: Option<A>,
}

struct Aborted;

/// A leaf evaluation: one expected score per seat (see [`Knowledge::evaluate`]).
pub type Evaluator<'e, G> = &'e dyn Fn(&G) -> Option<Vec<f64>>;

/// A leaf evaluation that follows the search's path, so that it can update what it computes
/// from the parent's (level 6's accumulators, [`crate::nnue::LearnedEval`]). The search calls
/// [`LeafEval::root`] with the root (ply 0) and [`LeafEval::enter`] for every state it makes from
/// a parent at `ply` (the child is at `ply + 1`) before it looks at that child; it evaluates a
/// state only at the ply it entered it, and only while it has not left it (depth first).
pub trait LeafEval<G: Knowledge> {
    /// The search starts at `state` (ply 0).
    fn root(&mut self, state: &G) {
        let _ = state;
    }
    /// The search made `child` (ply `ply + 1`) from `parent` (ply `ply`) by one action.
    fn enter(&mut self, ply: u32, parent: &G, child: &G) {
        let _ = (ply, parent, child);
    }
    /// One expected score per seat of `state`, entered at `ply` (see [`Knowledge::evaluate`]).
    fn evaluate(&mut self, ply: u32, state: &G) -> Option<Vec<f64>>;
}

/// A plain [`Evaluator`] as a [`LeafEval`] (it ignores the path).
struct FnEval<'e, G>(Evaluator<'e, G>);

impl<G: Knowledge> LeafEval<G> for FnEval<'_, G> {
    fn evaluate(&mut self, _ply: u32, state: &G) -> Option<Vec<f64>> {
        (self.0)(state)
    }
}

struct Searcher<'c, 'e, G: Knowledge> {
    root: Seat,
    eval: &'e mut dyn LeafEval<G>,
    cfg: &'c AlphaBetaConfig,
    tt: Vec<Option<Entry<G::Action>>>,
    killers: Vec<[Option<G::Action>; 2]>,
    history: HashMap<u64, i32>,
    stats: AlphaBetaStats,
    rng: GameRng,
}

impl<G: Knowledge> Searcher<'_, '_, G> {
    fn leaf_value(&mut self, state: &G, ply: u32) -> i32 {
        let seats = state.seats();
        let other = Seat::new(if self.root.index() == 0 { 1 } else { 0 });
        if let ToAct::Over(outcome) = state.to_act() {
            let d = outcome.score(self.root) - outcome.score(other);
            return if d > 0.0 {
                WIN - ply as i32
            } else if d < 0.0 {
                -WIN + ply as i32
            } else {
                0
            };
        }
        match self.eval.evaluate(ply, state) {
            Some(v) if v.len() == seats => {
                let d = v.get(self.root.index()).copied().unwrap_or(0.5)
                    - v.get(other.index()).copied().unwrap_or(0.5);
                (d.clamp(-1.0, 1.0) * 10_000.0).round() as i32
            }
            _ => 0,
        }
    }

    /// What an action costs at a node: [`AlphaBetaConfig::turn_action_cost`] while the root seat is
    /// still in the turn the search started in (`root_turn`), else nothing.
    fn turn_cost(&self, root_turn: bool) -> i32 {
        if root_turn {
            self.cfg.turn_action_cost
        } else {
            0
        }
    }

    /// Whether `child` (reached by an action of the root's turn when `root_turn`) is still in that
    /// turn: the root seat acts again.
    fn still_root_turn(&self, root_turn: bool, child: &G) -> bool {
        root_turn && child.to_act() == ToAct::Seat(self.root)
    }

    fn tick(&mut self) -> Result<(), Aborted> {
        self.stats.nodes += 1;
        if self.stats.nodes > self.cfg.max_nodes {
            return Err(Aborted);
        }
        if self.stats.nodes.is_multiple_of(512)
            && let Some(d) = self.cfg.deadline
            && Instant::now() >= d
        {
            return Err(Aborted);
        }
        Ok(())
    }

    fn slot(&self, key: u64) -> usize {
        (key as usize) & (self.tt.len() - 1)
    }

    fn order(&self, state: &G, actions: &mut [G::Action], tt_best: Option<&G::Action>, ply: u32) {
        let killers = self.killers.get(ply as usize);
        let mut keyed: Vec<(i64, usize)> = actions
            .iter()
            .enumerate()
            .map(|(i, a)| {
                let mut k = i64::from(state.action_priority(a)) * 1_000_000;
                k += i64::from(*self.history.get(&stable_hash(a)).unwrap_or(&0)).min(999_999);
                if let Some(ks) = killers
                    && ks.iter().any(|x| x.as_ref() == Some(a))
                {
                    k += 1_000_000_000;
                }
                if tt_best == Some(a) {
                    k = i64::MAX;
                }
                (k, i)
            })
            .collect();
        keyed.sort_by(|x, y| y.0.cmp(&x.0).then(x.1.cmp(&y.1)));
        let old: Vec<G::Action> = actions.to_vec();
        for (slot, (_, i)) in actions.iter_mut().zip(keyed) {
            *slot = old[i].clone();
        }
    }

    /// The value of a non-final leaf: its evaluation ("stand pat": the side to move may decline every
    /// capture), or better for the side to move when one of its tactical actions (captures) wins more,
    /// following captures and recaptures for at most `qdepth` actions.
    fn quiesce(
        &mut self,
        state: &G,
        ply: u32,
        mut alpha: i32,
        mut beta: i32,
        qdepth: u32,
        root_turn: bool,
    ) -> Result<i32, Aborted> {
        let ToAct::Seat(mover) = state.to_act() else {
            return Ok(self.leaf_value(state, ply));
        };
        // Each action of the root's own turn costs `cost` (see the module docs).
        let cost = self.turn_cost(root_turn);
        // In the middle of a turn, standing pat means ending the turn there.
        let stand = match state.closing_action() {
            Some(close) => {
                self.tick()?;
                let mut child = state.clone();
                child.apply_trusted(Actor::Seat(mover), &close);
                self.eval.enter(ply, state, &child);
                if matches!(child.to_act(), ToAct::Over(_)) {
                    self.leaf_value(&child, ply + 1) - cost
                } else {
                    let next = self.still_root_turn(root_turn, &child);
                    self.quiesce(&child, ply + 1, alpha + cost, beta + cost, qdepth, next)? - cost
                }
            }
            None => self.leaf_value(state, ply),
        };
        if qdepth == 0 || !G::HAS_TACTICAL_ACTIONS {
            return Ok(stand);
        }
        let maximizing = mover == self.root;
        if maximizing {
            if stand >= beta {
                return Ok(stand);
            }
            alpha = alpha.max(stand);
        } else {
            if stand <= alpha {
                return Ok(stand);
            }
            beta = beta.min(stand);
        }
        let mut actions = Vec::new();
        crate::knowledge::agent_actions(state, mover, &mut actions);
        actions.retain(|a| state.is_tactical(a));
        if actions.is_empty() {
            return Ok(stand);
        }
        actions.sort_by_key(|a| std::cmp::Reverse(state.action_priority(a)));
        let mut best = stand;
        for a in &actions {
            self.tick()?;
            let mut child = state.clone();
            child.apply_trusted(Actor::Seat(mover), a);
            self.eval.enter(ply, state, &child);
            let v = if matches!(child.to_act(), ToAct::Over(_)) {
                self.leaf_value(&child, ply + 1) - cost
            } else {
                let next = self.still_root_turn(root_turn, &child);
                self.quiesce(&child, ply + 1, alpha + cost, beta + cost, qdepth - 1, next)? - cost
            };
            if maximizing {
                best = best.max(v);
                alpha = alpha.max(v);
            } else {
                best = best.min(v);
                beta = beta.min(v);
            }
            if alpha >= beta {
                break;
            }
        }
        Ok(best)
    }

    fn search(
        &mut self,
        state: &G,
        depth: u32,
        ply: u32,
        mut alpha: i32,
        mut beta: i32,
        turn: RootTurn,
    ) -> Result<i32, Aborted> {
        self.tick()?;
        let to_act = state.to_act();
        if matches!(to_act, ToAct::Over(_)) {
            return Ok(self.leaf_value(state, ply));
        }
        if depth == 0 {
            return self.quiesce(
                state,
                ply,
                alpha,
                beta,
                self.cfg.quiescence_depth,
                turn.is_some(),
            );
        }
        if to_act == ToAct::Chance {
            let mut outcomes = Vec::new();
            state.chance_outcomes(&mut outcomes);
            if outcomes.is_empty() {
                let Some(a) = state.sample_chance(&mut self.rng) else {
                    return Ok(self.leaf_value(state, ply));
                };
                outcomes.push((a, 1.0));
            }
            let total: f64 = outcomes.iter().map(|(_, p)| *p).sum();
            let mut sum = 0.0;
            for (a, p) in &outcomes {
                let mut child = state.clone();
                child.apply_trusted(Actor::Chance, a);
                self.eval.enter(ply, state, &child);
                sum += p * f64::from(self.search(&child, depth - 1, ply + 1, -INF, INF, None)?);
            }
            return Ok((sum / total.max(f64::MIN_POSITIVE)).round() as i32);
        }
        let Some(&mover) = to_act.seats().first() else {
            return Ok(self.leaf_value(state, ply));
        };
        let maximizing = mover == self.root;
        let key = state.position_key();
        let slot = self.slot(key);
        let mut tt_best = None;
        if let Some(e) = &self.tt[slot]
            && e.key == key
        {
            if e.depth >= depth {
                let cut = match e.bound {
                    Bound::Exact => true,
                    Bound::Lower => e.value >= beta,
                    Bound::Upper => e.value <= alpha,
                };
                if cut {
                    self.stats.tt_cuts += 1;
                    return Ok(e.value);
                }
            }
            tt_best = e.best.clone();
        }
        let mut actions = Vec::new();
        crate::knowledge::agent_actions(state, mover, &mut actions);
        if actions.is_empty() {
            return Ok(self.leaf_value(state, ply));
        }
        self.order(state, &mut actions, tt_best.as_ref(), ply);
        let (alpha0, beta0) = (alpha, beta);
        let mut best = if maximizing { -INF } else { INF };
        let mut best_action = None;
        let cost = self.turn_cost(turn.is_some());
        for a in &actions {
            let mut child = state.clone();
            child.apply_trusted(Actor::Seat(mover), a);
            self.eval.enter(ply, state, &child);
            let next = self.still_root_turn(turn.is_some(), &child);
            let (d, t) = child_depth(depth, next, turn);
            let v = self.search(&child, d, ply + 1, alpha + cost, beta + cost, t)? - cost;
            if (maximizing && v > best) || (!maximizing && v < best) {
                best = v;
                best_action = Some(a.clone());
            }
            if maximizing {
                alpha = alpha.max(v);
            } else {
                beta = beta.min(v);
            }
            if alpha >= beta {
                let ks = &mut self.killers;
                while ks.len() <= ply as usize {
                    ks.push([None, None]);
                }
                let k = &mut ks[ply as usize];
                if k[0].as_ref() != Some(a) {
                    k[1] = k[0].take();
                    k[0] = Some(a.clone());
                }
                *self.history.entry(stable_hash(a)).or_insert(0) += (depth * depth) as i32;
                break;
            }
        }
        let bound = if best <= alpha0 {
            Bound::Upper
        } else if best >= beta0 {
            Bound::Lower
        } else {
            Bound::Exact
        };
        let replace = match &self.tt[slot] {
            Some(e) => e.key != key || e.depth <= depth,
            None => true,
        };
        if replace {
            self.tt[slot] = Some(Entry {
                key,
                depth,
                value: best,
                bound,
                best: best_action,
            });
        }
        Ok(best)
    }
}

/// Where a node stands in the root seat's own turn: `Some(free)` inside it, with `free` actions left
/// that consume no depth; `None` once the turn has passed.
type RootTurn = Option<u32>;

/// The depth and [`RootTurn`] below an action taken at `depth` in `turn`: an action after which the
/// root seat's turn goes on (`continues`) consumes no depth while free actions are left.
fn child_depth(depth: u32, continues: bool, turn: RootTurn) -> (u32, RootTurn) {
    match turn {
        Some(free) if continues && free > 0 => (depth, Some(free - 1)),
        Some(_) if continues => (depth.saturating_sub(1), Some(0)),
        _ => (depth.saturating_sub(1), None),
    }
}

/// Searches `state` for `root` (which must owe the decision) and returns the chosen action, or `None`
/// when `root` has no legal action. `state` must be a perfect-information two-player state: the caller
/// checks [`Knowledge::perfect_information`].
pub fn search<G: Knowledge>(
    state: &G,
    root: Seat,
    cfg: &AlphaBetaConfig,
    rng: &mut GameRng,
) -> Option<(G::Action, AlphaBetaStats)> {
    search_with(state, root, cfg, rng, &|s: &G| s.evaluate())
}

/// The transposition table's size in bits (see [`AlphaBetaConfig::tt_bits`]).
fn tt_bits(cfg: &AlphaBetaConfig) -> u32 {
    let wanted = cfg
        .max_nodes
        .saturating_mul(64)
        .checked_next_power_of_two()
        .map_or(64, |n| n.trailing_zeros());
    cfg.tt_bits.min(wanted).clamp(4, 26)
}

/// [`search`] with another leaf evaluation than the game's own.
pub fn search_with<G: Knowledge>(
    state: &G,
    root: Seat,
    cfg: &AlphaBetaConfig,
    rng: &mut GameRng,
    eval: Evaluator<'_, G>,
) -> Option<(G::Action, AlphaBetaStats)> {
    search_with_leaf(state, root, cfg, rng, &mut FnEval(eval))
}

/// [`search`] with a leaf evaluation that follows the search's path (level 6: the learned one,
/// with incremental accumulators).
pub fn search_with_leaf<G: Knowledge>(
    state: &G,
    root: Seat,
    cfg: &AlphaBetaConfig,
    rng: &mut GameRng,
    eval: &mut dyn LeafEval<G>,
) -> Option<(G::Action, AlphaBetaStats)> {
    let mut actions = crate::knowledge::agent_actions_vec(state, root);
    if actions.is_empty() {
        return None;
    }
    actions.shuffle(rng);
    if actions.len() == 1 {
        return actions
            .into_iter()
            .next()
            .map(|a| (a, AlphaBetaStats::default()));
    }
    let mut s = Searcher::<G> {
        root,
        eval,
        cfg,
        tt: vec![None; 1usize << tt_bits(cfg)],
        killers: Vec::new(),
        history: HashMap::new(),
        stats: AlphaBetaStats::default(),
        rng: tabula_core::rng_from_seed(tabula_core::rand::RngExt::random::<u64>(rng)),
    };
    s.eval.root(state);
    // Order once by the game's priority (stable: the shuffle breaks ties).
    actions.sort_by_key(|a| std::cmp::Reverse(state.action_priority(a)));
    let mut best = actions[0].clone();
    let mut values: Vec<i32> = vec![0; actions.len()];
    'deepen: for depth in 1..=cfg.max_depth.max(1) {
        let mut alpha = -INF;
        let mut iteration_best: Option<(i32, usize)> = None;
        for (i, a) in actions.iter().enumerate() {
            let mut child = state.clone();
            child.apply_trusted(Actor::Seat(root), a);
            s.eval.enter(0, state, &child);
            let cost = s.turn_cost(true);
            let next = s.still_root_turn(true, &child);
            let (d, t) = child_depth(depth, next, Some(cfg.free_turn_actions));
            let v = match s.search(&child, d, 1, alpha + cost, INF, t) {
                Ok(v) => v - cost,
                Err(Aborted) => break 'deepen,
            };
            values[i] = v;
            if iteration_best.is_none_or(|(b, _)| v > b) {
                iteration_best = Some((v, i));
                alpha = alpha.max(v);
            }
        }
        let Some((v, i)) = iteration_best else {
            break;
        };
        best = actions[i].clone();
        s.stats.depth = depth;
        s.stats.value = v;
        // Next iteration: best first, the rest by this iteration's (bounded) values.
        let mut order: Vec<usize> = (0..actions.len()).collect();
        order.sort_by(|&x, &y| values[y].cmp(&values[x]).then(x.cmp(&y)));
        if let Some(pos) = order.iter().position(|&x| x == i) {
            let b = order.remove(pos);
            order.insert(0, b);
        }
        actions = order.iter().map(|&x| actions[x].clone()).collect();
        values = order.iter().map(|&x| values[x]).collect();
        if v.abs() >= WIN - 1000 {
            break;
        }
    }
    Some((best, s.stats))
}

/// One way to play the root seat's whole turn: its actions and the position they lead to.
struct TurnEnd<G: Knowledge> {
    actions: Vec<G::Action>,
    state: G,
}

/// Every position in which `root`'s turn, in progress in `state`, can end, each with its shortest
/// sequence of actions (breadth first: a position first reached by a sequence of `n` actions is
/// never reached by a shorter one later; among sequences of the same length the first in the
/// game's order of actions is kept). Positions in the middle of the turn are merged by
/// [`Knowledge::turn_node_key`], end positions by [`Knowledge::position_key`]. The enumeration
/// stops once it has made `limit` positions (`made` counts them): the ends then found are those
/// of the shortest sequences (every end within `n` actions, some within `n + 1`).
fn turn_ends<G: Knowledge>(state: &G, root: Seat, limit: u64, made: &mut u64) -> Vec<TurnEnd<G>> {
    let mut inner = HashSet::new();
    let mut ended = HashSet::new();
    inner.insert(state.turn_node_key());
    let mut ends = Vec::new();
    let mut layer: Vec<(G, Vec<G::Action>)> = vec![(state.clone(), Vec::new())];
    let mut actions = Vec::new();
    while !layer.is_empty() {
        let mut next = Vec::new();
        for (s, path) in &layer {
            actions.clear();
            crate::knowledge::agent_actions(s, root, &mut actions);
            for a in &actions {
                *made += 1;
                if *made > limit {
                    return ends;
                }
                let mut child = s.clone();
                child.apply_trusted(Actor::Seat(root), a);
                let mut p = path.clone();
                p.push(a.clone());
                if child.to_act() == ToAct::Seat(root) {
                    if inner.insert(child.turn_node_key()) {
                        next.push((child, p));
                    }
                } else if ended.insert(child.position_key()) {
                    ends.push(TurnEnd {
                        actions: p,
                        state: child,
                    });
                }
            }
        }
        layer = next;
    }
    ends
}

/// Plans `root`'s whole turn from `state` (at its start or in its middle; see the module docs):
/// returns the chosen sequence of actions, to the turn's end, and what the search did. `None` when
/// `root` is not to act or has no legal action. The enumeration of the turn's end positions makes
/// at most a [`PLAN_ENUMERATION_SHARE`] of `cfg.max_nodes` positions (past that, the ends of the
/// shortest sequences found so far are planned); they count in [`AlphaBetaStats::nodes`] and in
/// the budget.
pub fn plan_turn<G: Knowledge>(
    state: &G,
    root: Seat,
    cfg: &AlphaBetaConfig,
    rng: &mut GameRng,
) -> Option<(Vec<G::Action>, AlphaBetaStats)> {
    plan_turn_with_leaf(state, root, cfg, rng, &mut FnEval(&|s: &G| s.evaluate()))
}

/// [`plan_turn`] with a leaf evaluation that follows the search's path.
pub fn plan_turn_with_leaf<G: Knowledge>(
    state: &G,
    root: Seat,
    cfg: &AlphaBetaConfig,
    rng: &mut GameRng,
    eval: &mut dyn LeafEval<G>,
) -> Option<(Vec<G::Action>, AlphaBetaStats)> {
    if state.to_act() != ToAct::Seat(root) {
        return None;
    }
    let mut made = 0u64;
    let limit = cfg.max_nodes / PLAN_ENUMERATION_SHARE.max(1);
    let mut ends = turn_ends(state, root, limit, &mut made);
    if ends.is_empty() {
        return None;
    }
    // A seeded shuffle breaks ties between equally valued ends (different seeds, different games).
    ends.shuffle(rng);
    let mut s = Searcher::<G> {
        root,
        eval,
        cfg,
        tt: vec![None; 1usize << tt_bits(cfg)],
        killers: Vec::new(),
        history: HashMap::new(),
        stats: AlphaBetaStats {
            nodes: made,
            ..AlphaBetaStats::default()
        },
        rng: tabula_core::rng_from_seed(tabula_core::rand::RngExt::random::<u64>(rng)),
    };
    s.eval.root(state);
    let cost = |e: &TurnEnd<G>| {
        cfg.plan_action_cost
            .saturating_mul(i32::try_from(e.actions.len()).unwrap_or(i32::MAX))
    };
    // First order: each end's own evaluation less its cost (stable: the shuffle breaks ties).
    let mut keyed: Vec<(i32, TurnEnd<G>)> = ends
        .into_iter()
        .map(|e| {
            s.eval.enter(0, state, &e.state);
            (s.leaf_value(&e.state, 1) - cost(&e), e)
        })
        .collect();
    keyed.sort_by_key(|(v, _)| std::cmp::Reverse(*v));
    let mut ends: Vec<TurnEnd<G>> = keyed.into_iter().map(|(_, e)| e).collect();
    let mut best = 0usize;
    if ends.len() > 1 {
        let mut values: Vec<i32> = vec![0; ends.len()];
        'deepen: for depth in 1..=cfg.max_depth.max(1) {
            let mut alpha = -INF;
            let mut iteration_best: Option<(i32, usize)> = None;
            for (i, e) in ends.iter().enumerate() {
                let c = cost(e);
                s.eval.enter(0, state, &e.state);
                let v = match s.search(&e.state, depth, 1, alpha + c, INF, None) {
                    Ok(v) => v - c,
                    Err(Aborted) => {
                        // The ends searched so far in this deeper iteration, the previous best
                        // first, are known better than what they beat.
                        if let Some((_, i)) = iteration_best {
                            best = i;
                        }
                        break 'deepen;
                    }
                };
                values[i] = v;
                if iteration_best.is_none_or(|(b, _)| v > b) {
                    iteration_best = Some((v, i));
                    alpha = alpha.max(v);
                }
            }
            let Some((v, i)) = iteration_best else {
                break;
            };
            s.stats.depth = depth;
            s.stats.value = v;
            // Next iteration: best first, the rest by this iteration's (bounded) values.
            let mut order: Vec<usize> = (0..ends.len()).collect();
            order.sort_by(|&x, &y| values[y].cmp(&values[x]).then(x.cmp(&y)));
            if let Some(pos) = order.iter().position(|&x| x == i) {
                let b = order.remove(pos);
                order.insert(0, b);
            }
            let mut taken: Vec<Option<TurnEnd<G>>> = ends.into_iter().map(Some).collect();
            ends = order.iter().filter_map(|&x| taken[x].take()).collect();
            values = order.iter().map(|&x| values[x]).collect();
            best = 0;
            if v.abs() >= WIN - 1000 {
                break;
            }
        }
    }
    let chosen = ends.into_iter().nth(best)?;
    Some((chosen.actions, s.stats))
}
