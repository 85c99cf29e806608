//! **A seat's legal actions follow from its view** (ARCHITECTURE.md, Invariants), checked over every
//! game of the platform's one list (`games::for_each_game`), so a new game is checked without a line
//! here.
//!
//! Over random reachable states (random legal play from each game's standard start, chance drawn
//! from the game's own `sample_chance`), for every seat that owes a decision, several of the
//! engine's own `determinize` samples for that seat — worlds that look the same to it — must give
//! that seat the very same things the true state gives it:
//!
//! * its view (the premise: `determinize` depends only on the view, so a sample the seat could
//!   tell apart is a bug of its own);
//! * its legal actions, in the same order, and whether the list is a sample;
//! * what the platform derives from them for that seat: each action's notation, its plain words
//!   (`action_words` as the seat sees them) and its cells (`action_cells`);
//! * `explain_cells` (through `dynamic::explain_cells`, as the server calls it) on a sample of
//!   cells: single cells and a legal action's first cell followed by another.
//!
//! A difference means the server would send the seat something that depends on what its view hides
//! (the `legal` list goes out with every view): the failure names the game, the seat, the position
//! (its JSON) and what differed.
//!
//! What the look-alikes cannot vary, this test cannot see: Territories' former ask list (issue 34:
//! `ask S` only while the opponent held a Spade) passes it, because the opponent's suits are
//! deducible from the public bank (13 of each suit in all) and `determinize` keeps them. That rule
//! has its own test (`visibility_legal_actions_depend_only_on_what_the_seat_sees_decision` in
//! `crates/games/territories/tests/rules.rs`); this one guards every game against lists that read
//! a hidden setup, hand or deck.
#![allow(clippy::unwrap_used, clippy::expect_used)]

use std::collections::BTreeSet;

use tabula_ai::Knowledge;
use tabula_ai::games::{GameVisitor, for_each_game};
use tabula_core::rand::RngExt;
use tabula_core::{Actor, Game, GameRng, Observer, Seat, ToAct, rng_from_seed};

/// Random games played per game kind, and the decisions checked in each at most.
const GAMES: u64 = 8;
const CHECKS_PER_GAME: usize = 50;
/// Actions per random game at most (the long games are cut; their early and middle game is what
/// random play reaches anyway).
const MAX_ACTIONS: usize = 1500;
/// `determinize` samples compared with the true state at each checked decision.
const SAMPLES: usize = 3;
/// Cell lists given to `explain_cells` at each checked decision.
const CELL_PROBES: usize = 4;

/// Everything the platform derives for `seat` from its legal actions, in one comparable value.
#[derive(Debug, PartialEq)]
struct SeatSees {
    view: serde_json::Value,
    sampled: bool,
    /// (action JSON, notation, words, cells) of each legal action, in list order.
    actions: Vec<(serde_json::Value, String, String, Vec<String>)>,
    /// The answer to each cell probe.
    explanations: Vec<(Vec<String>, Option<String>)>,
}

fn seat_sees<G: Game>(game: &G, seat: Seat, probes: &[Vec<String>]) -> SeatSees {
    let mut legal = Vec::new();
    game.legal_actions(seat, &mut legal);
    SeatSees {
        view: serde_json::to_value(game.view(Observer::Seat(seat))).unwrap(),
        sampled: game.actions_sampled(seat),
        actions: legal
            .iter()
            .map(|a| {
                (
                    serde_json::to_value(a).unwrap(),
                    game.action_notation(a),
                    game.action_words(Actor::Seat(seat), a, Observer::Seat(seat)),
                    game.action_cells(a),
                )
            })
            .collect(),
        explanations: probes
            .iter()
            .map(|cells| {
                (
                    cells.clone(),
                    tabula_core::dynamic::explain_cells(game, seat, cells),
                )
            })
            .collect(),
    }
}

/// The first difference between two `SeatSees`, in words.
fn difference(truth: &SeatSees, sample: &SeatSees) -> String {
    if truth.view != sample.view {
        return "its view differs (determinize is not a look-alike)".into();
    }
    if truth.sampled != sample.sampled {
        return format!(
            "actions_sampled: {} on the true state, {} on the sample",
            truth.sampled, sample.sampled
        );
    }
    let notations = |s: &SeatSees| s.actions.iter().map(|a| a.1.clone()).collect::<Vec<_>>();
    let (t, s) = (notations(truth), notations(sample));
    if t != s {
        let only_t: Vec<&String> = t.iter().filter(|n| !s.contains(n)).collect();
        let only_s: Vec<&String> = s.iter().filter(|n| !t.contains(n)).collect();
        return format!(
            "legal actions differ: only on the true state {only_t:?}, only on the sample {only_s:?} \
             (true list {t:?})"
        );
    }
    for (a, b) in truth.actions.iter().zip(&sample.actions) {
        if a != b {
            return format!("action {} differs: true {a:?}, sample {b:?}", a.1);
        }
    }
    for (a, b) in truth.explanations.iter().zip(&sample.explanations) {
        if a != b {
            return format!(
                "explain_cells({:?}) differs: true {:?}, sample {:?}",
                a.0, a.1, b.1
            );
        }
    }
    "nothing (yet unequal)".into()
}

/// Cell lists to ask `explain_cells` about: single cells seen in any action of this game so far,
/// and a legal action's first cell followed by such a cell.
fn probes<G: Game>(game: &G, seat: Seat, pool: &[String], rng: &mut GameRng) -> Vec<Vec<String>> {
    if pool.is_empty() {
        return Vec::new();
    }
    let mut legal = Vec::new();
    game.legal_actions(seat, &mut legal);
    let firsts: Vec<String> = legal
        .iter()
        .filter_map(|a| game.action_cells(a).into_iter().next())
        .collect();
    (0..CELL_PROBES)
        .map(|i| {
            let cell = pool[rng.random_range(0..pool.len())].clone();
            if i % 2 == 1 && !firsts.is_empty() {
                vec![firsts[rng.random_range(0..firsts.len())].clone(), cell]
            } else {
                vec![cell]
            }
        })
        .collect()
}

/// Plays `GAMES` random games of `G` and checks decisions along the way; returns how many seat
/// decisions were checked, or the first violation.
fn check_game<G: Game>() -> Result<usize, String> {
    let mut checked = 0;
    let mut pool: BTreeSet<String> = BTreeSet::new();
    for seed in 0..GAMES {
        let mut rng = rng_from_seed(0x5eed_0000 + seed);
        let mut game = G::new(&G::Options::default()).map_err(|e| format!("{e:?}"))?;
        let mut checks_left = CHECKS_PER_GAME;
        let mut legal = Vec::new();
        for step in 0..MAX_ACTIONS {
            let seats = match game.to_act() {
                ToAct::Over(_) => break,
                ToAct::Chance => {
                    let Some(a) = game.sample_chance(&mut rng) else {
                        return Err(format!("{}: chance has no outcome", G::ID));
                    };
                    game.apply_trusted(Actor::Chance, &a);
                    continue;
                }
                ToAct::Seat(s) => vec![s],
                ToAct::Seats(seats) => seats,
            };
            // Check about one decision in three (a game checks its early, middle and late play
            // rather than only its first moves), until the game's share is used.
            if checks_left > 0 && rng.random_range(0..3) == 0 {
                checks_left -= 1;
                let pool_vec: Vec<String> = pool.iter().cloned().collect();
                for &seat in &seats {
                    let probes = probes(&game, seat, &pool_vec, &mut rng);
                    let truth = seat_sees(&game, seat, &probes);
                    for _ in 0..SAMPLES {
                        let sample = game.determinize(seat, &mut rng);
                        let seen = seat_sees(&sample, seat, &probes);
                        if seen != truth {
                            return Err(format!(
                                "{} (seed {seed}, action {step}): {} to act; on a determinize sample \
                                 for that seat, {}\nposition: {}",
                                G::ID,
                                game.seat_name(seat),
                                difference(&truth, &seen),
                                truncated(serde_json::to_string(&game).unwrap_or_default())
                            ));
                        }
                    }
                    checked += 1;
                }
            }
            let seat = seats[rng.random_range(0..seats.len())];
            legal.clear();
            game.legal_actions(seat, &mut legal);
            if legal.is_empty() {
                return Err(format!(
                    "{}: {seat:?} owes a decision with no legal action",
                    G::ID
                ));
            }
            let action = legal[rng.random_range(0..legal.len())].clone();
            pool.extend(game.action_cells(&action));
            game.apply_trusted(Actor::Seat(seat), &action);
        }
    }
    Ok(checked)
}

/// A position's JSON, cut for a failure message.
fn truncated(mut s: String) -> String {
    if s.len() > 6000 {
        let mut end = 6000;
        while !s.is_char_boundary(end) {
            end -= 1;
        }
        s.truncate(end);
        s.push_str(" …");
    }
    s
}

#[test]
fn every_game_gives_a_seat_the_same_legal_actions_in_every_world_it_cannot_tell_apart() {
    struct Check(Vec<String>, usize);
    impl GameVisitor for Check {
        fn visit<G: Knowledge>(&mut self) {
            match check_game::<G>() {
                Ok(n) => {
                    eprintln!("{}: {n} decisions checked", G::ID);
                    assert!(n > 0, "{}: no decision was checked", G::ID);
                    self.1 += n;
                }
                Err(e) => self.0.push(e),
            }
        }
    }
    let mut check = Check(Vec::new(), 0);
    for_each_game(&mut check);
    assert!(
        check.0.is_empty(),
        "a seat's legal actions depend on what its view hides:\n{}",
        check.0.join("\n\n")
    );
    assert!(check.1 >= 1000, "only {} decisions checked", check.1);
}
