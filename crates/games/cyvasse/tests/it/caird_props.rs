//! Property tests over random legal play, for every board and version and random option sets.
#![allow(clippy::unwrap_used, clippy::expect_used)]

use cyvasse::caird::*;
use proptest::prelude::*;
use tabula_core::rand::RngExt;
use tabula_core::{
    Actor, Game, GameOptions, Observer, Seat, ToAct, legal_actions_vec, rng_from_seed, tools,
};

fn variant(index: u32, bits: u32) -> CairdOptions {
    let (version, board) = match index % 4 {
        0 => (Version::Basic, BoardKind::Square),
        1 => (Version::Expert, BoardKind::Square),
        2 => (Version::Basic, BoardKind::Hex),
        _ => (Version::Expert, BoardKind::Hex),
    };
    let b = |i: u32| bits & (1 << i) != 0;
    let hex = board == BoardKind::Hex;
    let expert = version == Version::Expert;
    let o = CairdOptions {
        version,
        board,
        large_board: !hex && b(0),
        dragon_reserve: b(1),
        super_trebuchets: !hex && b(2),
        dragonfyre: b(3),
        castle_storming: !hex && expert && b(4),
        wildfyre: !hex && expert && b(5),
        sea_movement: hex && b(6),
    };
    o.validate().unwrap();
    o
}

fn state_json(g: &CairdCyvasse) -> String {
    serde_json::to_string(g).unwrap()
}

/// Plays a random game checking the contracts after every action; returns the number of plies.
fn check_random_game(o: &CairdOptions, seed: u64) -> u32 {
    let mut g = CairdCyvasse::new(o).unwrap();
    let mut rng = rng_from_seed(seed);
    let mut steps = 0u32;
    loop {
        g.validate().unwrap_or_else(|e| {
            panic!("invalid state: {e}\n{}", g.render_text(Observer::Spectator))
        });
        // JSON round trip is the identity.
        let json = state_json(&g);
        let back: CairdCyvasse = serde_json::from_str(&json).unwrap();
        assert_eq!(state_json(&back), json);
        let seats = match g.to_act() {
            ToAct::Over(_) => break,
            t => t.seats(),
        };
        // Views of a seat never show the other seat's setup.
        if g.phase() == Phase::Setup {
            for s in 0..2 {
                let v = g.view(Observer::Seat(Seat(s)));
                assert!(v.state.setups[1 - s as usize].is_none());
            }
            assert!(
                g.view(Observer::Spectator)
                    .state
                    .setups
                    .iter()
                    .all(Option::is_none)
            );
        }
        let seat = seats[rng.random_range(0..seats.len())];
        let legal = legal_actions_vec(&g, seat);
        assert!(
            !legal.is_empty(),
            "a seat owes a decision without a legal action"
        );
        // Other seats have no actions.
        for s in 0..2u8 {
            if !g.to_act().includes(Seat(s)) {
                assert!(legal_actions_vec(&g, Seat(s)).is_empty());
            }
        }
        // The legality shortcut agrees with testing every pseudo-legal action.
        if g.phase() == Phase::Play {
            let side = g.to_move().0;
            let mut pseudo = Vec::new();
            g.rules().pseudo(
                g.pos(),
                side,
                g.dragon_in_reserve(g.to_move()),
                legal.iter().any(|a| matches!(a, CairdAction::Ruin { .. })),
                &mut pseudo,
            );
            let slow: Vec<&CairdAction> = pseudo
                .iter()
                .filter(|a| g.rules().keeps_king_safe(g.pos(), side, a))
                .collect();
            assert_eq!(slow.len(), legal.len());
            // The ray-pruned attack test agrees with asking every enemy piece.
            let (r, pos) = (g.rules(), g.pos());
            for s in 0..2u8 {
                let king = pos.kings[s as usize];
                let brute = (0..r.geo.n as u8).any(|c| {
                    let p = pos.board[c as usize];
                    p != 0
                        && rules::side_of(p) != s
                        && rules::kind_of(p) != rules::MOUNTAIN
                        && r.hits(pos, c, king)
                });
                assert_eq!(r.attacked(pos, king, 1 - s), brute);
            }
            assert!(slow.iter().all(|a| legal.contains(a)));
        }
        if steps.is_multiple_of(7) {
            for a in &legal {
                let mut c = g.clone();
                c.apply(Actor::Seat(seat), a).unwrap();
                // Notation round trip.
                assert_eq!(&g.parse_action(&g.action_notation(a)).unwrap(), a);
            }
        }
        // A perturbed action is rejected without changing the state.
        let a = legal[rng.random_range(0..legal.len())].clone();
        let perturbed = match &a {
            CairdAction::Move { from, to } => CairdAction::Shot {
                from: *from,
                to: *to,
            },
            CairdAction::Shot { from, to } => CairdAction::Move {
                from: *to,
                to: *from,
            },
            CairdAction::Place { to } => CairdAction::Place {
                to: to.wrapping_add(100),
            },
            CairdAction::Ruin { at } => CairdAction::Ruin {
                at: at.wrapping_add(1),
            },
            CairdAction::Setup(p) => CairdAction::Setup(SetupPlan {
                terrain: p.terrain.clone(),
                pieces: p.pieces.replacen('K', "R", 1),
            }),
        };
        if !legal.contains(&perturbed) {
            let before = state_json(&g);
            assert!(g.clone().apply(Actor::Seat(seat), &perturbed).is_err());
            let mut c = g.clone();
            let _ = c.apply(Actor::Seat(seat), &perturbed);
            assert_eq!(state_json(&c), before);
        }
        // The wrong seat is refused.
        if let ToAct::Seat(s) = g.to_act() {
            assert!(g.clone().apply(Actor::Seat(Seat(1 - s.0)), &a).is_err());
        }
        g.apply(Actor::Seat(seat), &a).unwrap();
        steps += 1;
        assert!(steps < 5000, "game did not terminate");
    }
    // Draw limits bound every game.
    assert!(g.quiet_plies() <= QUIET_LIMIT);
    g.ply()
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(32))]

    #[test]
    fn random_play_keeps_every_contract(index in 0u32..4, bits in 0u32..128, seed in any::<u64>()) {
        let o = variant(index, bits);
        check_random_game(&o, seed);
    }

    #[test]
    fn random_record_replays_to_the_same_state(index in 0u32..4, bits in 0u32..128, seed in any::<u64>()) {
        let o = variant(index, bits);
        let (final_state, record) = tools::random_record::<CairdCyvasse>(o, seed, 10_000).unwrap();
        prop_assert!(final_state.to_act().outcome().is_some());
        let replayed = tools::replay(&record, true).unwrap();
        prop_assert_eq!(state_json(&replayed), state_json(&final_state));
    }

    #[test]
    fn determinize_resamples_only_the_hidden_setup(index in 0u32..4, seed in any::<u64>()) {
        let o = variant(index, 0);
        let mut g = CairdCyvasse::new(&o).unwrap();
        let a = legal_actions_vec(&g, Seat(1))[0].clone();
        g.apply(Actor::Seat(Seat(1)), &a).unwrap();
        let mut rng = rng_from_seed(seed);
        let d = g.determinize(Seat(0), &mut rng);
        d.validate().unwrap();
        // Depends only on White's view: the same as determinizing a state with another Black setup.
        let mut g2 = CairdCyvasse::new(&o).unwrap();
        let b = legal_actions_vec(&g2, Seat(1))[2].clone();
        g2.apply(Actor::Seat(Seat(1)), &b).unwrap();
        let mut rng2 = rng_from_seed(seed);
        let d2 = g2.determinize(Seat(0), &mut rng2);
        prop_assert_eq!(state_json(&d), state_json(&d2));
    }
}

#[test]
fn every_board_and_version_plays_to_an_end() {
    for index in 0..4 {
        for seed in 0..3 {
            let o = variant(index, 0);
            check_random_game(&o, seed);
        }
    }
}
