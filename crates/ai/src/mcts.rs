//! Monte Carlo tree search: plain UCT, UCT with an evaluation cut-off, and information-set MCTS.
//!
//! One implementation serves the three agents ([`MctsConfig`]):
//! * **Tree**: an arena of nodes reached by action sequences ("open loop" over what varies between
//!   iterations). Statistics live on edges. At a decision node the edges are the acting seat's actions;
//!   an edge's reward is the score of the seat that took it (max^n: any number of players, each seat
//!   maximises its own score). Selection uses UCB1 with **availability counts** (an edge's parent count
//!   is the number of times the edge was legal), so the same tree stays correct when the legal actions
//!   at a node differ between iterations (different determinizations, different dice).
//! * **Chance**: when a chance node's outcomes can be listed and are few (dice), the node branches on
//!   the sampled outcome (closed loop: every outcome has its own subtree, visited in proportion to its
//!   probability). When they cannot be listed (a shuffle) the sampled outcome is applied and the search
//!   stays on the same node (open loop).
//! * **Hidden information**: the search never sees the real state. With `redeterminize` (ISMCTS, the
//!   single-observer variant) every iteration starts from a new `determinize(seat)` sample; otherwise
//!   (plain UCT, "cheap" determinization) one sample is drawn per decision and searched like a perfect-
//!   information game. Perfect-information games make both the same.
//! * **Playouts**: random (or the game's playout policy) to the end of the game; with a cut-off, after
//!   `cutoff` actions the state is scored by the game's evaluation (a cut-off without an evaluation, or
//!   a playout reaching the game's playout limit, scores as a draw for everyone).
//! * **Simultaneous decisions** (`ToAct::Seats`): the root is the deciding seat; deeper, the first seat
//!   that owes a decision is searched first (its choice stays unknown to the others only because every
//!   determinization hides it from them: acceptable inside a search).
//!
//! Determinism: the whole search is driven by one seeded RNG and never iterates a hash map, so the same
//! seed and iteration budget give the same decision.

use std::collections::HashMap;
use std::time::Instant;

use tabula_core::rand::RngExt;
use tabula_core::{Actor, GameRng, Seat, ToAct};

use crate::InfoSet;
use crate::knowledge::Knowledge;

/// How the search runs.
#[derive(Debug, Clone, PartialEq)]
pub struct MctsConfig {
    /// Iterations to run (the decision stops earlier only when `deadline` passes).
    pub iterations: u32,
    /// Wall-clock limit (makes the decision depend on the machine's speed).
    pub deadline: Option<Instant>,
    /// UCB1 exploration constant (rewards are scores in 0..=1).
    pub exploration: f64,
    /// Playout actions before the state is scored by the evaluation; `None` plays to the end.
    pub cutoff: Option<u32>,
    /// Draw a new determinization every iteration (ISMCTS) instead of once per decision.
    pub redeterminize: bool,
    /// Use the game's playout policy ([`Knowledge::playout_choice`]) instead of uniform random playouts.
    pub playout_policy: bool,
    /// Listed chance outcomes up to this many get their own subtrees.
    pub max_chance_branches: usize,
}

impl Default for MctsConfig {
    fn default() -> Self {
        MctsConfig {
            iterations: 1000,
            deadline: None,
            exploration: 0.7,
            cutoff: None,
            redeterminize: true,
            playout_policy: false,
            max_chance_branches: 64,
        }
    }
}

/// What a search did.
#[derive(Debug, Clone, Copy, Default, PartialEq)]
pub struct MctsStats {
    /// Iterations completed.
    pub iterations: u64,
    /// Tree nodes created.
    pub nodes: u64,
    /// Actions taken in playouts (each one a state visited).
    pub playout_actions: u64,
}

struct Edge<A> {
    actor: Actor,
    action: A,
    child: u32,
    visits: u32,
    available: u32,
    reward: f64,
    /// The edge ends the game and wins it for its actor (MCTS-Solver, wins only).
    proven_win: bool,
}

struct Node<A> {
    edges: Vec<Edge<A>>,
    index: HashMap<(Actor, A), u32>,
}

impl<A> Node<A> {
    fn new() -> Self {
        Node {
            edges: Vec::new(),
            index: HashMap::new(),
        }
    }
}

struct Tree<A> {
    nodes: Vec<Node<A>>,
}

impl<A: Clone + Eq + std::hash::Hash> Tree<A> {
    fn add_edge(&mut self, node: u32, actor: Actor, action: A) -> usize {
        let child = self.nodes.len() as u32;
        self.nodes.push(Node::new());
        let n = &mut self.nodes[node as usize];
        let e = n.edges.len();
        n.index.insert((actor, action.clone()), e as u32);
        n.edges.push(Edge {
            actor,
            action,
            child,
            visits: 0,
            available: 0,
            reward: 0.0,
            proven_win: false,
        });
        e
    }
}

/// Scores of a finished or cut-off state, one per seat.
fn terminal_or_eval<G: Knowledge>(state: &G, use_eval: bool) -> Vec<f64> {
    let seats = state.seats();
    if let ToAct::Over(outcome) = state.to_act() {
        return (0..seats).map(|i| outcome.score(Seat::new(i))).collect();
    }
    if use_eval
        && let Some(v) = state.evaluate()
        && v.len() == seats
    {
        return v.into_iter().map(|x| x.clamp(0.0, 1.0)).collect();
    }
    vec![0.5; seats]
}

/// Plays from `state` and returns each seat's score.
fn playout<G: Knowledge>(
    state: &mut G,
    cfg: &MctsConfig,
    rng: &mut GameRng,
    buffer: &mut Vec<G::Action>,
    stats: &mut MctsStats,
) -> Vec<f64> {
    let limit = cfg.cutoff.unwrap_or(u32::MAX).min(state.playout_limit());
    let mut taken = 0u32;
    loop {
        match state.to_act() {
            ToAct::Over(_) => return terminal_or_eval(state, false),
            _ if taken >= limit => return terminal_or_eval(state, cfg.cutoff.is_some()),
            ToAct::Chance => match state.sample_chance(rng) {
                Some(a) => state.apply_trusted(Actor::Chance, &a),
                None => return terminal_or_eval(state, cfg.cutoff.is_some()),
            },
            to_act => {
                let seats = to_act.seats();
                let seat = seats[rng.random_range(0..seats.len())];
                buffer.clear();
                crate::knowledge::agent_actions(state, seat, buffer);
                if buffer.is_empty() {
                    return terminal_or_eval(state, cfg.cutoff.is_some());
                }
                let i = if cfg.playout_policy {
                    state
                        .playout_choice(seat, buffer, rng)
                        .min(buffer.len() - 1)
                } else {
                    rng.random_range(0..buffer.len())
                };
                state.apply_trusted(Actor::Seat(seat), &buffer[i]);
            }
        }
        taken += 1;
        stats.playout_actions += 1;
    }
}

/// Runs the search for `info`'s seat and returns the chosen action (the most visited root action) with
/// statistics, or `None` when the seat has no legal action.
pub fn search<G: Knowledge>(
    info: &InfoSet<'_, G>,
    cfg: &MctsConfig,
    rng: &mut GameRng,
) -> Option<(G::Action, MctsStats)> {
    let root_seat = info.seat();
    let first = info.sample(rng);
    let root_actions = crate::knowledge::agent_actions_vec(&first, root_seat);
    if root_actions.is_empty() {
        return None;
    }
    if root_actions.len() == 1 {
        return root_actions
            .into_iter()
            .next()
            .map(|a| (a, MctsStats::default()));
    }
    let report = run(info, cfg, rng, first, root_actions);
    let i = report.best;
    report
        .edges
        .into_iter()
        .nth(i)
        .map(|e| (e.action, report.stats))
}

/// One root action after a search: how often it was tried and its mean score for the deciding seat.
#[derive(Debug, Clone, PartialEq)]
pub struct RootEdge<A> {
    pub action: A,
    /// Iterations that went through this action.
    pub visits: u32,
    /// The deciding seat's mean score over those iterations (1.0 for a proven win); 0.5 when unvisited.
    pub mean: f64,
    /// The action ends the game and wins it for the deciding seat.
    pub proven_win: bool,
}

/// What [`search_report`] found: every root action searched, in the order of the legal list, and
/// the index of the one [`search`] would choose.
#[derive(Debug, Clone, PartialEq)]
pub struct RootReport<A> {
    pub edges: Vec<RootEdge<A>>,
    pub best: usize,
    pub stats: MctsStats,
}

impl<A> RootReport<A> {
    /// The chosen root action's edge.
    pub fn best_edge(&self) -> Option<&RootEdge<A>> {
        self.edges.get(self.best)
    }
}

/// Runs the search like [`search`] but reports every root action's statistics, and with `only`
/// searches that one action alone at the root (the estimate of a given decision: the iterations all go
/// to the replies beneath it). Unlike [`search`], a root with a single action is searched too, so the
/// report always carries an estimate. `None` when the seat has no legal action; `only` must be one of
/// the seat's actions (it is applied to every determinization as the seat's own choice).
pub fn search_report<G: Knowledge>(
    info: &InfoSet<'_, G>,
    cfg: &MctsConfig,
    rng: &mut GameRng,
    only: Option<&G::Action>,
) -> Option<RootReport<G::Action>> {
    let first = info.sample(rng);
    let root_actions = match only {
        Some(a) => vec![a.clone()],
        None => crate::knowledge::agent_actions_vec(&first, info.seat()),
    };
    if root_actions.is_empty() {
        return None;
    }
    Some(run(info, cfg, rng, first, root_actions))
}

/// The search proper, from the first determinization `first` over the root actions `root_actions`
/// (not empty).
fn run<G: Knowledge>(
    info: &InfoSet<'_, G>,
    cfg: &MctsConfig,
    rng: &mut GameRng,
    first: G,
    root_actions: Vec<G::Action>,
) -> RootReport<G::Action> {
    let root_seat = info.seat();
    let mut stats = MctsStats::default();
    let mut tree: Tree<G::Action> = Tree {
        nodes: vec![Node::new()],
    };
    let mut buffer = Vec::new();
    let mut path: Vec<(u32, usize)> = Vec::new();
    for it in 0..cfg.iterations {
        if it % 16 == 0
            && it > 0
            && let Some(d) = cfg.deadline
            && Instant::now() >= d
        {
            break;
        }
        let mut state = if cfg.redeterminize && it > 0 {
            info.sample(rng)
        } else {
            first.clone()
        };
        path.clear();
        let mut node = 0u32;
        let mut depth = 0u32;
        let rewards = loop {
            match state.to_act() {
                ToAct::Over(_) => break terminal_or_eval(&state, false),
                ToAct::Chance => {
                    buffer.clear();
                    let Some(outcome) = state.sample_chance(rng) else {
                        break terminal_or_eval(&state, cfg.cutoff.is_some());
                    };
                    let mut listed = Vec::new();
                    state.chance_outcomes(&mut listed);
                    state.apply_trusted(Actor::Chance, &outcome);
                    if !listed.is_empty() && listed.len() <= cfg.max_chance_branches {
                        let key = (Actor::Chance, outcome);
                        let e = match tree.nodes[node as usize].index.get(&key) {
                            Some(&e) => e as usize,
                            None => tree.add_edge(node, Actor::Chance, key.1),
                        };
                        path.push((node, e));
                        node = tree.nodes[node as usize].edges[e].child;
                    }
                }
                to_act => {
                    let seat = if depth == 0 && to_act.includes(root_seat) {
                        root_seat
                    } else {
                        match to_act.seats().first() {
                            Some(&s) => s,
                            None => break terminal_or_eval(&state, cfg.cutoff.is_some()),
                        }
                    };
                    buffer.clear();
                    if depth == 0 {
                        // The root seat's own actions are the same in every determinization.
                        buffer.extend(root_actions.iter().cloned());
                    } else {
                        crate::knowledge::agent_actions(&state, seat, &mut buffer);
                    }
                    if buffer.is_empty() {
                        break terminal_or_eval(&state, cfg.cutoff.is_some());
                    }
                    let actor = Actor::Seat(seat);
                    let mut untried: Vec<usize> = Vec::new();
                    let mut best: Option<(f64, usize)> = None;
                    {
                        let n = &mut tree.nodes[node as usize];
                        let mut known: Vec<usize> = Vec::with_capacity(buffer.len());
                        for (i, a) in buffer.iter().enumerate() {
                            match n.index.get(&(actor, a.clone())) {
                                Some(&e) => known.push(e as usize),
                                None => untried.push(i),
                            }
                        }
                        for &e in &known {
                            n.edges[e].available += 1;
                        }
                        if let Some(&e) = known.iter().find(|&&e| n.edges[e].proven_win) {
                            best = Some((f64::INFINITY, e));
                            untried.clear();
                        } else if untried.is_empty() {
                            for &e in &known {
                                let edge = &n.edges[e];
                                let v = f64::from(edge.visits.max(1));
                                let score = edge.reward / v
                                    + cfg.exploration
                                        * (f64::from(edge.available.max(1)).ln() / v).sqrt();
                                if best.is_none_or(|(b, _)| score > b) {
                                    best = Some((score, e));
                                }
                            }
                        }
                    }
                    depth += 1;
                    if !untried.is_empty() {
                        let pick = if cfg.playout_policy {
                            // Knowledge: expand the most promising action first (captures).
                            let top = untried
                                .iter()
                                .map(|&i| state.action_priority(&buffer[i]))
                                .max()
                                .unwrap_or(0);
                            let tops: Vec<usize> = untried
                                .iter()
                                .copied()
                                .filter(|&i| state.action_priority(&buffer[i]) == top)
                                .collect();
                            tops[rng.random_range(0..tops.len())]
                        } else {
                            untried[rng.random_range(0..untried.len())]
                        };
                        let action = buffer[pick].clone();
                        state.apply_trusted(actor, &action);
                        let won = state
                            .to_act()
                            .outcome()
                            .is_some_and(|o| o.score(seat) >= 1.0);
                        let e = tree.add_edge(node, actor, action);
                        let edge = &mut tree.nodes[node as usize].edges[e];
                        edge.available += 1;
                        edge.proven_win = won;
                        path.push((node, e));
                        stats.nodes += 1;
                        break playout(&mut state, cfg, rng, &mut buffer, &mut stats);
                    }
                    let Some((_, e)) = best else {
                        break terminal_or_eval(&state, cfg.cutoff.is_some());
                    };
                    let edge = &tree.nodes[node as usize].edges[e];
                    state.apply_trusted(actor, &edge.action);
                    path.push((node, e));
                    node = edge.child;
                }
            }
        };
        for &(n, e) in &path {
            let edge = &mut tree.nodes[n as usize].edges[e];
            edge.visits += 1;
            if let Actor::Seat(s) = edge.actor {
                edge.reward += rewards.get(s.index()).copied().unwrap_or(0.0);
            }
        }
        stats.iterations += 1;
    }
    // The most visited root action; ties go to the higher mean reward, then to the earlier action.
    let root = &tree.nodes[0];
    let mut best: Option<(u32, f64, usize)> = None;
    let mut edges = Vec::with_capacity(root_actions.len());
    for (i, a) in root_actions.into_iter().enumerate() {
        let found = root
            .index
            .get(&(Actor::Seat(root_seat), a.clone()))
            .map(|&e| &root.edges[e as usize]);
        let (visits, mean, proven_win) = match found {
            Some(edge) if edge.proven_win => (edge.visits, 1.0, true),
            Some(edge) if edge.visits > 0 => {
                (edge.visits, edge.reward / f64::from(edge.visits), false)
            }
            _ => (0, 0.5, false),
        };
        if found.is_some() && best.is_none_or(|(v, _, _)| v < u32::MAX) {
            if proven_win {
                best = Some((u32::MAX, 1.0, i));
            } else if best.is_none_or(|(v, m, _)| visits > v || (visits == v && mean > m)) {
                best = Some((visits, mean, i));
            }
        }
        edges.push(RootEdge {
            action: a,
            visits,
            mean,
            proven_win,
        });
    }
    RootReport {
        edges,
        best: best.map_or(0, |(_, _, i)| i),
        stats,
    }
}

/// A random playout count for benchmarks: plays `state` to the end (or the playout limit) and returns
/// the number of actions taken.
pub fn bench_playout<G: Knowledge>(state: &mut G, rng: &mut GameRng) -> u64 {
    let cfg = MctsConfig::default();
    let mut stats = MctsStats::default();
    let mut buffer = Vec::new();
    let _ = playout(state, &cfg, rng, &mut buffer, &mut stats);
    stats.playout_actions
}
