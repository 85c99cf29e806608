//! Property tests of Strength & Trump Cyvasse over random legal play, plus an independent reference
//! move generator (written from the rules, sharing no code with the crate's generator) compared with
//! `legal_actions` on many random positions.
#![allow(clippy::unwrap_used, clippy::expect_used)]

use std::collections::BTreeSet;

use cyvasse::trump::{
    Cell, Kind, Occupant, Phase, TrumpAction, TrumpCyvasse, TrumpOptions, check_setup, random_setup,
};
use proptest::prelude::*;
use tabula_core::rand::RngExt;
use tabula_core::{Actor, Game, GameRng, Observer, Seat, ToAct, legal_actions_vec, rng_from_seed};

/// Plays random legal actions (chance drawn from `rng`) and calls `check` before every action.
fn random_game(
    options: &TrumpOptions,
    seed: u64,
    max: usize,
    mut check: impl FnMut(&TrumpCyvasse, &mut GameRng),
) -> TrumpCyvasse {
    let mut g = TrumpCyvasse::new(options).unwrap();
    let mut rng = rng_from_seed(seed);
    for _ in 0..max {
        check(&g, &mut rng);
        match g.to_act() {
            ToAct::Over(_) => break,
            ToAct::Chance => {
                let a = g.sample_chance(&mut rng).unwrap();
                g.apply(Actor::Chance, &a).unwrap();
            }
            to_act => {
                let seats = to_act.seats();
                let seat = seats[rng.random_range(0..seats.len())];
                let actions = if g.phase() == Phase::Setup && rng.random_range(0..2) == 0 {
                    // Any valid setup, not only the listed ones.
                    vec![TrumpAction::Setup(random_setup(seat, &mut rng))]
                } else {
                    legal_actions_vec(&g, seat)
                };
                assert!(
                    !actions.is_empty(),
                    "a seat owes a decision without an action"
                );
                let a = &actions[rng.random_range(0..actions.len())];
                g.apply(Actor::Seat(seat), a).unwrap();
            }
        }
    }
    g
}

/// A generous bound: a King capture ends most random games quickly; the 150-quiet-turn rule bounds
/// the rest (at most 36 captures, so at most 37 × 150 turns of up to 2 actions).
const MAX_ACTIONS: usize = 12_000;

// ------------------------------------------------------------------------------------------------
// Reference move generator.

fn occupant_side(g: &TrumpCyvasse, c: Cell) -> Option<(usize, Kind)> {
    match g.occupant(c) {
        Some(Occupant::Unit { seat, kind }) => Some((seat.index(), kind)),
        _ => None,
    }
}

fn neighbours(c: Cell) -> Vec<Cell> {
    Cell::all().filter(|n| n.distance(c) == 1).collect()
}

/// True Euclidean centre of a pointy-top hex of size 1.
fn centre(q: f64, r: f64) -> (f64, f64) {
    (3f64.sqrt() * (q + r / 2.0), 1.5 * r)
}

/// The hexes a segment between two hex centres crosses, found by dense sampling: the hex containing
/// a point is the one with the nearest centre; a point equidistant from two centres lies on their
/// shared edge (an edge run when neither hex is crossed), from three on a corner (ignored). Returns
/// `(c, c)` for a crossed hex and `(a, b)` for an edge run between `a` and `b`, endpoints excluded.
fn sampled_blockers(from: Cell, to: Cell) -> BTreeSet<(Cell, Cell)> {
    let sqrt3 = 3f64.sqrt();
    let to_axial = |x: f64, y: f64| ((sqrt3 / 3.0 * x - y / 3.0), (2.0 / 3.0 * y));
    let (x0, y0) = centre(from.q() as f64, from.r() as f64);
    let (x1, y1) = centre(to.q() as f64, to.r() as f64);
    let mut sampled: BTreeSet<(Cell, Cell)> = BTreeSet::new();
    let n = 720;
    for i in 1..n {
        let t = i as f64 / n as f64;
        let (x, y) = (x0 + (x1 - x0) * t, y0 + (y1 - y0) * t);
        let (fq, fr) = to_axial(x, y);
        let (bq, br) = (fq.round() as i64, fr.round() as i64);
        let mut near: Vec<(f64, i64, i64)> = Vec::with_capacity(9);
        for dq in -1..=1 {
            for dr in -1..=1 {
                let (q, r) = (bq + dq, br + dr);
                let (cx, cy) = centre(q as f64, r as f64);
                near.push((((cx - x).powi(2) + (cy - y).powi(2)).sqrt(), q, r));
            }
        }
        near.sort_by(|a, b| a.0.total_cmp(&b.0));
        let eps = 1e-9;
        let cell = |k: usize| Cell::from_axial(near[k].1 as i8, near[k].2 as i8);
        let inner = |c: Option<Cell>| c.filter(|c| *c != from && *c != to);
        if near[1].0 - near[0].0 > eps {
            if let Some(c) = inner(cell(0)) {
                sampled.insert((c, c));
            }
        } else if near[2].0 - near[0].0 > eps
            && let (Some(a), Some(b)) = (inner(cell(0)), inner(cell(1)))
        {
            sampled.insert((a.min(b), a.max(b)));
        }
    }
    // A sample landing exactly where the segment crosses an edge transversally is not an edge run:
    // both hexes are crossed anyway.
    let singles = sampled.clone();
    sampled
        .retain(|(a, b)| a == b || !(singles.contains(&(*a, *a)) || singles.contains(&(*b, *b))));
    sampled
}

/// The sampled blockers of every line, by `(from, to)`.
type LineTable = std::collections::HashMap<(Cell, Cell), BTreeSet<(Cell, Cell)>>;

/// Sampled lines of every pair of cells 1..3 apart, computed once.
fn sampled_table() -> &'static LineTable {
    static TABLE: std::sync::OnceLock<LineTable> = std::sync::OnceLock::new();
    TABLE.get_or_init(|| {
        let mut t = std::collections::HashMap::new();
        for from in Cell::all() {
            for to in Cell::all() {
                if (1..=3).contains(&from.distance(to)) {
                    t.insert((from, to), sampled_blockers(from, to));
                }
            }
        }
        t
    })
}

/// Line of sight from the sampled geometry: blocked when a crossed hex is a Mountain or both hexes
/// of an edge run are.
fn reference_blocked(g: &TrumpCyvasse, from: Cell, to: Cell) -> bool {
    let is_m = |c: Cell| g.occupant(c) == Some(Occupant::Mountain);
    sampled_table()
        .get(&(from, to))
        .is_some_and(|set| set.iter().any(|(a, b)| is_m(*a) && is_m(*b)))
}

fn beats(a: Kind, d: Kind) -> bool {
    let trump = |x: Kind, y: Kind| {
        matches!(
            (x, y),
            (Kind::Spearman, Kind::LightHorse)
                | (Kind::Crossbowman, Kind::Elephant)
                | (Kind::Catapult, Kind::Dragon)
                | (Kind::Trebuchet, Kind::Dragon)
        )
    };
    if trump(d, a) {
        return false;
    }
    let def = if matches!(d, Kind::Crossbowman | Kind::Catapult | Kind::Trebuchet) {
        1
    } else {
        d.strength()
    };
    trump(a, d) || a.strength() >= def
}

fn reference_piece(
    g: &TrumpCyvasse,
    from: Cell,
    side: usize,
    kind: Kind,
    movement: u8,
    out: &mut BTreeSet<String>,
) {
    if kind == Kind::Dragon {
        for dir in 0..6 {
            let mut at = from.step(dir);
            while let Some(c) = at {
                match g.occupant(c) {
                    None => {
                        out.insert(format!("{from}-{c}"));
                    }
                    Some(Occupant::Mountain) => {}
                    Some(Occupant::Unit { seat, kind: d }) => {
                        if seat.index() != side {
                            if beats(Kind::Dragon, d) {
                                out.insert(format!("{from}x{c}"));
                            }
                            if d.range() > 0 {
                                break;
                            }
                        }
                    }
                }
                at = c.step(dir);
            }
        }
        return;
    }
    // Breadth-first search over empty hexes.
    let mut dist = std::collections::HashMap::new();
    dist.insert(from, 0u8);
    let mut queue = std::collections::VecDeque::from([from]);
    while let Some(c) = queue.pop_front() {
        let d = dist[&c];
        if d == movement {
            continue;
        }
        for n in neighbours(c) {
            match g.occupant(n) {
                None => {
                    if let std::collections::hash_map::Entry::Vacant(e) = dist.entry(n) {
                        e.insert(d + 1);
                        queue.push_back(n);
                    }
                }
                Some(Occupant::Unit { seat, kind: dk }) => {
                    if seat.index() != side && kind.range() == 0 && beats(kind, dk) {
                        out.insert(format!("{from}x{n}"));
                    }
                }
                Some(Occupant::Mountain) => {}
            }
        }
    }
    for c in dist.keys() {
        if *c != from {
            out.insert(format!("{from}-{c}"));
        }
    }
    if kind.range() > 0 {
        for c in Cell::all() {
            let dd = from.distance(c);
            if dd >= 1
                && dd <= kind.range()
                && let Some((s, dk)) = occupant_side(g, c)
                && s != side
                && beats(kind, dk)
                && !reference_blocked(g, from, c)
            {
                out.insert(format!("{from}*{c}"));
            }
        }
    }
}

fn reference_actions(g: &TrumpCyvasse) -> BTreeSet<String> {
    let side = g.side_to_move().index();
    let mut out = BTreeSet::new();
    if let Some(cav) = g.cavalry_turn() {
        let (_, kind) = occupant_side(g, cav.horse).unwrap();
        reference_piece(g, cav.horse, side, kind, 2, &mut out);
        if !g.options().second_leg_mandatory || out.is_empty() {
            out.insert("end".into());
        }
        return out;
    }
    for c in Cell::all() {
        if let Some((s, kind)) = occupant_side(g, c)
            && s == side
        {
            reference_piece(g, c, side, kind, kind.movement(), &mut out);
        }
    }
    if out.is_empty() {
        out.insert("pass".into());
    }
    out
}

fn listed(g: &TrumpCyvasse) -> BTreeSet<String> {
    let seat = g.side_to_move();
    legal_actions_vec(g, seat)
        .iter()
        .map(|a| g.action_notation(a))
        .collect()
}

#[test]
fn reference_generator_agrees_on_random_positions() {
    let mut compared = 0;
    for seed in 0..16u64 {
        for mandatory in [false, true] {
            let options = TrumpOptions {
                second_leg_mandatory: mandatory,
            };
            random_game(&options, seed * 7 + 1, 400, |g, rng| {
                if g.phase() == Phase::Play && rng.random_range(0..2) == 0 {
                    assert_eq!(
                        listed(g),
                        reference_actions(g),
                        "position {}",
                        serde_json::to_string(g).unwrap()
                    );
                    compared += 1;
                }
            });
        }
    }
    assert!(compared > 500, "only {compared} positions compared");
}

// ------------------------------------------------------------------------------------------------
// Properties over random play.

proptest! {
    #![proptest_config(ProptestConfig::with_cases(24))]

    #[test]
    fn random_play_keeps_every_invariant(seed in any::<u64>(), mandatory in any::<bool>()) {
        let options = TrumpOptions { second_leg_mandatory: mandatory };
        let mut steps = 0usize;
        let end = random_game(&options, seed, MAX_ACTIONS, |g, rng| {
            steps += 1;
            // validate() holds after every action.
            g.validate().unwrap();
            // JSON round trip is identity (sampled: it is the slowest check).
            if steps.is_multiple_of(5) {
                let json = serde_json::to_string(g).unwrap();
                let back: TrumpCyvasse = serde_json::from_str(&json).unwrap();
                assert_eq!(&back, g);
            }
            // Every listed action is accepted; notation round-trips.
            if let Some(&seat) = g.to_act().seats().first() {
                let actions = legal_actions_vec(g, seat);
                for a in actions.iter().take(if steps.is_multiple_of(3) { usize::MAX } else { 4 }) {
                    let mut next = g.clone();
                    next.apply(Actor::Seat(seat), a).unwrap();
                    let mut trusted = g.clone();
                    trusted.apply_trusted(Actor::Seat(seat), a);
                    assert_eq!(next, trusted);
                    assert_eq!(&g.parse_action(&g.action_notation(a)).unwrap(), a);
                }
                // A perturbed action is rejected and changes nothing.
                if g.phase() == Phase::Play {
                    let from = Cell::from_index(rng.random_range(0..121)).unwrap_or(Cell::all().next().unwrap());
                    let to = Cell::all().nth(rng.random_range(0..91)).unwrap();
                    for bad in [TrumpAction::Move { from, to }, TrumpAction::Shoot { from, to }, TrumpAction::Pass, TrumpAction::EndTurn] {
                        if !actions.contains(&bad) {
                            let mut h = g.clone();
                            assert!(h.apply(Actor::Seat(seat), &bad).is_err());
                            assert_eq!(&h, g);
                        }
                    }
                    // The wrong seat may not act.
                    let mut h = g.clone();
                    let other = Seat::new(1 - seat.index());
                    if let Some(a) = actions.first() {
                        assert!(h.apply(Actor::Seat(other), a).is_err());
                        assert_eq!(&h, g);
                    }
                    assert!(legal_actions_vec(g, other).is_empty());
                }
            }
        });
        // Games terminate within the draw limits.
        prop_assert!(matches!(end.to_act(), ToAct::Over(_)), "game did not end");
        end.validate().unwrap();
    }

    #[test]
    fn records_replay_to_the_same_state(seed in any::<u64>()) {
        let (state, record) =
            tabula_core::tools::random_record::<TrumpCyvasse>(TrumpOptions::default(), seed, 20_000).unwrap();
        prop_assert!(matches!(state.to_act(), ToAct::Over(_)));
        let replayed = tabula_core::tools::replay(&record, true).unwrap();
        prop_assert_eq!(replayed, state);
    }

    #[test]
    fn views_never_leak_the_hidden_setup(seed in any::<u64>()) {
        let mut rng = rng_from_seed(seed);
        let mut g = TrumpCyvasse::new(&TrumpOptions::default()).unwrap();
        let first = Seat::new(rng.random_range(0..2));
        let other = Seat::new(1 - first.index());
        let army = random_setup(first, &mut rng);
        g.apply(Actor::Seat(first), &TrumpAction::Setup(army.clone())).unwrap();
        // The other seat and spectators see nothing of it; the committing seat sees all of it.
        prop_assert!(g.view(Observer::Seat(other)).board.is_empty());
        prop_assert!(g.view(Observer::Spectator).board.is_empty());
        prop_assert_eq!(g.view(Observer::Seat(first)).board.len(), 19);
        prop_assert!(g.view(Observer::Seat(other)).committed[first.index()]);
        prop_assert!(g.describe_action(Actor::Seat(first), &TrumpAction::Setup(army), Observer::Seat(other)).is_none());
        // determinize depends only on the view: another hidden army gives the same result.
        let mut g2 = TrumpCyvasse::new(&TrumpOptions::default()).unwrap();
        g2.apply(Actor::Seat(first), &TrumpAction::Setup(random_setup(first, &mut rng))).unwrap();
        prop_assert_eq!(g.view(Observer::Seat(other)), g2.view(Observer::Seat(other)));
        let d1 = g.determinize(other, &mut rng_from_seed(seed ^ 1));
        let d2 = g2.determinize(other, &mut rng_from_seed(seed ^ 1));
        prop_assert_eq!(&d1, &d2);
        d1.validate().unwrap();
        // The determinized army is a legal setup of the right seat.
        let resampled = d1.view(Observer::Seat(first)).board.len();
        prop_assert_eq!(resampled, 19);
        // Once both have committed, everything is public.
        let own = random_setup(other, &mut rng);
        prop_assert!(check_setup(other, &own).is_ok());
        g.apply(Actor::Seat(other), &TrumpAction::Setup(own)).unwrap();
        prop_assert_eq!(g.view(Observer::Spectator).board.len(), 38);
        prop_assert_eq!(g.determinize(other, &mut rng), g.clone());
    }
}

/// The exact mountain lines (integer geometry, `board::line_blockers`) agree with dense sampling of
/// every segment between hex centres 1..3 apart: the hexes whose interior the segment crosses, and
/// the pairs of hexes along whose shared edge it runs.
#[test]
fn mountain_lines_match_sampled_geometry() {
    use cyvasse::trump::board::line_blockers;
    let table = sampled_table();
    // 91 cells, each with the cells 1..3 away that are on the board.
    assert_eq!(table.len(), 2382);
    for ((from, to), sampled) in table {
        let exact: BTreeSet<(Cell, Cell)> = line_blockers(*from, *to).iter().copied().collect();
        assert_eq!(&exact, sampled, "line {from} -> {to}");
    }
    // The rules file's examples: the straight row line f3 -> f6 crosses f4 and f5; the line f6 -> g7
    // runs along the edge between f7 and g6.
    let c = |s: &str| Cell::parse(s).unwrap();
    let row: BTreeSet<(Cell, Cell)> = line_blockers(c("f3"), c("f6")).iter().copied().collect();
    assert_eq!(
        row,
        [(c("f4"), c("f4")), (c("f5"), c("f5"))]
            .into_iter()
            .collect()
    );
    assert_eq!(line_blockers(c("f6"), c("g7")), &[(c("f7"), c("g6"))]);
}
