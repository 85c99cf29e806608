//! Property tests over random legal play.
#![allow(clippy::unwrap_used, clippy::expect_used)]

use std::collections::HashSet;

use kyo::{Action, ChipKind, Kyo, KyoOptions, LightPawnRows, Order, PawnKind, Sq};
use proptest::prelude::*;
use tabula_core::rand::RngExt;
use tabula_core::{Actor, Game, GameRng, Observer, record::Record, rng_from_seed, tools};

/// No game may need more actions than this (turns are bounded by the quiet-turn draw and the
/// no-revisit rule; random games use a few hundred).
const MAX_ACTIONS: usize = 30_000;

fn options(rows: u8, extra: bool) -> KyoOptions {
    KyoOptions {
        light_pawn_rows: match rows % 3 {
            0 => LightPawnRows::Trench,
            1 => LightPawnRows::OpenField,
            _ => LightPawnRows::Deadlock,
        },
        extra_pieces: extra,
    }
}

/// Chips per (owner, kind).
fn chip_counts(g: &Kyo) -> [[usize; 3]; 2] {
    let mut c = [[0; 3]; 2];
    for cell in &g.board.cells {
        for ch in &cell.chips {
            c[ch.owner as usize][ch.kind as usize] += 1;
        }
    }
    c
}

/// Variations of an action, most of them illegal.
fn perturb(a: &Action, rng: &mut GameRng) -> Vec<Action> {
    let mut v = Vec::new();
    let near = |s: Sq, rng: &mut GameRng| {
        s.offset(rng.random_range(-2..=2), rng.random_range(-2..=2))
            .unwrap_or(s)
    };
    match *a {
        Action::Step {
            from,
            to,
            pawn,
            chips,
        } => {
            v.push(Action::Step {
                from,
                to,
                pawn,
                chips: chips + 1,
            });
            v.push(Action::Step {
                from,
                to,
                pawn,
                chips: chips.saturating_sub(1),
            });
            v.push(Action::Step {
                from,
                to,
                pawn: !pawn,
                chips,
            });
            v.push(Action::Step {
                from,
                to: near(to, rng),
                pawn,
                chips,
            });
            v.push(Action::Step {
                from: near(from, rng),
                to,
                pawn,
                chips,
            });
            v.push(Action::Deploy {
                from,
                to,
                count: chips.max(1),
            });
        }
        Action::Deploy { from, to, count } => {
            v.push(Action::Deploy {
                from,
                to,
                count: count + 1,
            });
            v.push(Action::Deploy {
                from,
                to: near(to, rng),
                count,
            });
            v.push(Action::Step {
                from,
                to,
                pawn: false,
                chips: count,
            });
        }
        Action::Shuffle { at, order } => {
            let kinds: Vec<ChipKind> = order.kinds().collect();
            let mut rev = kinds.clone();
            rev.reverse();
            v.push(Action::Shuffle {
                at,
                order: Order::from_kinds(rev),
            });
            let mut longer = kinds.clone();
            longer.insert(0, ChipKind::Dark);
            v.push(Action::Shuffle {
                at,
                order: Order::from_kinds(longer),
            });
            v.push(Action::Shuffle {
                at,
                order: Order::from_kinds(kinds.iter().skip(1).copied()),
            });
            v.push(Action::Shuffle {
                at: near(at, rng),
                order,
            });
        }
        Action::EndTurn => {}
    }
    // A few random actions anywhere.
    let sq = |rng: &mut GameRng| Sq(rng.random_range(0..100u8));
    for _ in 0..2 {
        v.push(Action::Step {
            from: sq(rng),
            to: sq(rng),
            pawn: rng.random::<bool>(),
            chips: rng.random_range(0..7u8),
        });
    }
    v.push(Action::EndTurn);
    v
}

/// Plays one random game from `opts`, checking every invariant after every action.
fn check_random_game(opts: KyoOptions, seed: u64) -> Result<(), TestCaseError> {
    let mut g = Kyo::new(&opts).unwrap();
    let mut rng = rng_from_seed(seed);
    let mut counts = chip_counts(&g);
    let mut actions = 0;
    while g.outcome.is_none() {
        prop_assert!(actions < MAX_ACTIONS, "game did not end");
        let seat = g.to_move;
        let other = tabula_core::Seat(1 - seat.0);
        let mut legal = Vec::new();
        g.legal_actions(seat, &mut legal);
        prop_assert!(!legal.is_empty(), "a running game always has an action");
        let mut none = Vec::new();
        g.legal_actions(other, &mut none);
        prop_assert!(none.is_empty());

        // Exactness: every listed action is accepted, with pairwise different results, and its
        // notation round-trips; every perturbed action not listed is refused without any change.
        let mut results = HashSet::new();
        let thorough = actions % 3 == 0;
        for a in legal.iter().filter(|_| thorough) {
            let mut next = g.clone();
            prop_assert!(next.apply(Actor::Seat(seat), a).is_ok(), "{a:?} refused");
            prop_assert!(
                results.insert(next),
                "two actions give the same result: {a:?}"
            );
            let n = g.action_notation(a);
            prop_assert_eq!(g.parse_action(&n).ok(), Some(*a), "notation {}", n);
        }
        let set: HashSet<Action> = legal.iter().copied().collect();
        prop_assert_eq!(set.len(), legal.len(), "duplicate actions");
        let a = legal[rng.random_range(0..legal.len())];
        for p in perturb(&a, &mut rng) {
            if !set.contains(&p) {
                let before = g.clone();
                prop_assert!(g.apply(Actor::Seat(seat), &p).is_err(), "{p:?} accepted");
                prop_assert_eq!(&g, &before);
            }
        }

        g.apply(Actor::Seat(seat), &a).unwrap();
        actions += 1;
        // The whole-position guard: a step within the turn never recreates a position that stood
        // earlier in it; at most one earlier position is kept per action.
        if g.turn.steps > 0 {
            prop_assert!(g.turn.positions.len() <= g.turn.steps as usize);
            if matches!(a, Action::Step { pawn: true, .. }) {
                prop_assert!(
                    !g.turn.positions.contains(&g.board.hash()),
                    "a step recreated a position"
                );
            }
        }

        prop_assert!(g.validate().is_ok(), "{:?}", g.validate());
        let now = chip_counts(&g);
        for side in 0..2 {
            for k in 0..3 {
                prop_assert!(now[side][k] <= counts[side][k], "chip count grew");
            }
        }
        counts = now;
        if let Action::Shuffle { at, order } = a {
            // The shuffled slice never holds one of the mover's Shields under one of its Mana chips.
            let chips = &g.board.cell(at).chips;
            let slice = &chips[chips.len() - order.len()..];
            for (i, c) in slice.iter().enumerate() {
                if c.kind == ChipKind::Shield {
                    prop_assert!(slice[i + 1..].iter().all(|d| !d.kind.is_mana()));
                }
            }
        }
        let json = serde_json::to_string(&g).unwrap();
        let back: Kyo = serde_json::from_str(&json).unwrap();
        prop_assert_eq!(&back, &g);
        prop_assert_eq!(&g.view(Observer::Spectator), &g);
        prop_assert_eq!(&g.view(Observer::Seat(seat)), &g);
    }
    Ok(())
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(8))]

    /// Random legal games: every invariant holds after every action and the game ends.
    #[test]
    fn random_games_keep_every_invariant(seed in any::<u64>(), rows in 0..3u8, extra in any::<bool>()) {
        check_random_game(options(rows, extra), seed)?;
    }
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(32))]

    /// A Match's record replays (with seed audit) to the same final state, also through JSON.
    #[test]
    fn random_record_replays_to_the_same_state(seed in any::<u64>(), rows in 0..3u8, extra in any::<bool>()) {
        let (fin, record) = tools::random_record::<Kyo>(options(rows, extra), seed, MAX_ACTIONS as u64).unwrap();
        prop_assert!(fin.outcome.is_some(), "game did not end");
        let replayed = tools::replay(&record, true).unwrap();
        prop_assert_eq!(&replayed, &fin);
        let json = record.to_json().unwrap();
        let typed = Record::<Kyo>::from_json(&json).unwrap();
        prop_assert_eq!(&tools::replay(&typed, true).unwrap(), &fin);
    }

    /// Random playouts (trusted application) always end, within the action limit.
    #[test]
    fn random_playouts_terminate(seed in any::<u64>(), rows in 0..3u8, extra in any::<bool>()) {
        let mut g = Kyo::new(&options(rows, extra)).unwrap();
        let mut rng = rng_from_seed(seed);
        let r = tools::random_playout(&mut g, &mut rng, MAX_ACTIONS as u64);
        prop_assert!(r.outcome.is_some());
        prop_assert!(g.validate().is_ok());
        prop_assert!(g.quiet_turns <= kyo::QUIET_TURN_LIMIT);
    }
}

/// Determinization of a perfect-information game is the state itself.
#[test]
fn determinize_is_the_state() {
    let g = Kyo::new(&KyoOptions::default()).unwrap();
    let mut rng = rng_from_seed(1);
    assert_eq!(g.determinize(tabula_core::Seat(1), &mut rng), g);
    // Every pawn kind letter appears only as the top of a stack in the JSON form.
    let json = serde_json::to_value(&g).unwrap();
    let board = json["board"].as_object().unwrap();
    for code in board.values() {
        let code = code.as_str().unwrap();
        let pawns = code
            .chars()
            .filter(|c| PawnKind::from_letter(*c).is_some())
            .count();
        assert!(
            pawns <= 1
                && (pawns == 0 || PawnKind::from_letter(code.chars().last().unwrap()).is_some())
        );
    }
}
