//! Setup rules of Caird's Cyvasse: presets, random setups, the validator and the hidden setup.
#![allow(clippy::unwrap_used, clippy::expect_used)]

use cyvasse::caird::*;
use tabula_core::{
    Actor, Game, GameOptions, Observer, Seat, ToAct, legal_actions_vec, rng_from_seed,
};

/// Every option combination the rules allow.
pub fn all_variants() -> Vec<CairdOptions> {
    let mut out = Vec::new();
    for version in [Version::Basic, Version::Expert] {
        for board in [BoardKind::Square, BoardKind::Hex] {
            for bits in 0..256u32 {
                let b = |i: u32| bits & (1 << i) != 0;
                let o = CairdOptions {
                    version,
                    board,
                    large_board: b(0),
                    dragon_reserve: b(1),
                    super_trebuchets: b(2),
                    dragonfyre: b(3),
                    castle_storming: b(4),
                    wildfyre: b(5),
                    sea_movement: b(6),
                };
                if bits < 128 && o.validate().is_ok() {
                    out.push(o);
                }
            }
        }
    }
    out
}

#[test]
fn presets_are_legal_in_every_variant() {
    let variants = all_variants();
    assert!(variants.len() > 40);
    for o in &variants {
        for seat in 0..2 {
            for name in PRESETS {
                let p = preset(o, seat, name).unwrap_or_else(|e| panic!("{o:?} seat {seat}: {e}"));
                validate_setup(o, seat, &p).unwrap();
            }
        }
    }
}

#[test]
fn random_setups_are_legal_in_every_variant() {
    let mut rng = rng_from_seed(7);
    for o in all_variants() {
        for seat in 0..2 {
            let p = random_setup(&o, seat, &mut rng);
            validate_setup(&o, seat, &p).unwrap_or_else(|e| panic!("{o:?}: {e}"));
        }
    }
}

#[test]
fn hidden_setup_is_simultaneous_and_hidden() {
    let o = CairdOptions::default();
    let mut g = CairdCyvasse::new(&o).unwrap();
    assert_eq!(g.to_act(), ToAct::Seats(vec![Seat(0), Seat(1)]));
    let black = legal_actions_vec(&g, Seat(1))[0].clone();
    g.apply(Actor::Seat(Seat(1)), &black).unwrap();
    assert_eq!(g.to_act(), ToAct::Seats(vec![Seat(0)]));
    let white_view = serde_json::to_string(&g.view(Observer::Seat(Seat(0)))).unwrap();
    let CairdAction::Setup(plan) = &black else {
        panic!()
    };
    assert!(!white_view.contains(&plan.pieces));
    let white = legal_actions_vec(&g, Seat(0))[1].clone();
    g.apply(Actor::Seat(Seat(0)), &white).unwrap();
    assert_eq!(g.to_act(), ToAct::Seat(Seat(0)));
    g.validate().unwrap();
}

#[test]
fn guarded_setup_keeps_the_king_safe_on_move_one() {
    // "a setup generator that keeps its King safe on move one": no enemy piece, placed anywhere in
    // the enemy home, attacks the King.
    let mut rng = rng_from_seed(11);
    for o in [
        CairdOptions::default(),
        CairdOptions {
            version: Version::Expert,
            ..Default::default()
        },
    ] {
        let rules = cyvasse::caird::rules::Rules::new(&o);
        for seat in 0..2 {
            let p = guarded_setup(&o, seat, &mut rng);
            validate_setup(&o, seat, &p).unwrap();
            assert_eq!(king_threats(&o, &rules, seat, &p), 0, "{p:?}");
        }
    }
}

#[test]
fn unknown_preset_lists_the_presets() {
    let e = preset(&CairdOptions::default(), 0, "turtle").unwrap_err();
    assert!(e.contains("phalanx") && e.contains("vanguard") && e.contains("flanks"));
}

#[test]
fn setup_refusals_name_the_rule() {
    let o = CairdOptions::default();
    let mut p = preset(&o, 0, "phalanx").unwrap();
    p.pieces = p.pieces.replacen('K', "X", 1);
    assert!(
        validate_setup(&o, 0, &p)
            .unwrap_err()
            .contains("unknown piece letter")
    );
    let p = SetupPlan {
        terrain: "h".repeat(32),
        pieces: preset(&o, 0, "phalanx").unwrap().pieces,
    };
    assert!(
        validate_setup(&o, 0, &p)
            .unwrap_err()
            .contains("no terrain")
    );
    let e = CairdOptions {
        version: Version::Expert,
        ..Default::default()
    };
    let p = SetupPlan {
        terrain: String::new(),
        pieces: preset(&e, 0, "phalanx").unwrap().pieces,
    };
    assert!(
        validate_setup(&e, 0, &p)
            .unwrap_err()
            .contains("terrain text")
    );
}

#[test]
fn setup_notation_accepts_presets() {
    let o = CairdOptions {
        version: Version::Expert,
        ..Default::default()
    };
    let mut g = CairdCyvasse::new(&o).unwrap();
    let a = g.parse_action("setup preset=vanguard seat=black").unwrap();
    assert_eq!(a, CairdAction::Setup(preset(&o, 1, "vanguard").unwrap()));
    g.apply(Actor::Seat(Seat(1)), &a).unwrap();
    // Only White owes a setup now: the seat defaults to White.
    let a = g.parse_action("setup preset=flanks").unwrap();
    assert_eq!(a, CairdAction::Setup(preset(&o, 0, "flanks").unwrap()));
    assert!(g.parse_action("setup preset=turtle").is_err());
    assert!(g.parse_action("setup seat=green preset=flanks").is_err());
}

/// The listed setups name where they come from in their notation (`preset=NAME`, `random=N`), so that
/// a player can tell a preset from a random setup; the label reads back to the same plan, alone stands
/// for that plan, and must not lie next to a plan.
#[test]
fn listed_setups_carry_their_label_in_the_notation() {
    for o in [
        CairdOptions::default(),
        CairdOptions {
            version: Version::Expert,
            board: BoardKind::Hex,
            ..Default::default()
        },
        CairdOptions {
            version: Version::Expert,
            large_board: true,
            ..Default::default()
        },
    ] {
        let g = CairdCyvasse::new(&o).unwrap();
        for seat in [Seat(0), Seat(1)] {
            let listed = listed_setups(&o, seat.index());
            let legal = legal_actions_vec(&g, seat);
            assert_eq!(legal.len(), listed.len());
            let labels: Vec<&str> = listed.iter().map(|l| l.label.as_str()).collect();
            for name in PRESETS {
                assert!(
                    labels.contains(&format!("preset={name}").as_str()),
                    "{o:?}: {name}"
                );
            }
            assert!(labels.contains(&"random=1"));
            for (a, l) in legal.iter().zip(listed.iter()) {
                assert_eq!(a, &CairdAction::Setup(l.plan.clone()));
                let text = g.action_notation(a);
                assert!(
                    text.starts_with(&format!("setup {} pieces=", l.label)),
                    "{text}"
                );
                assert_eq!(&g.parse_action(&text).unwrap(), a);
                let seat_name = if seat.index() == 0 { "white" } else { "black" };
                assert_eq!(
                    g.parse_action(&format!("setup {} seat={seat_name}", l.label))
                        .unwrap(),
                    *a
                );
            }
        }
    }
    let o = CairdOptions::default();
    let g = CairdCyvasse::new(&o).unwrap();
    let phalanx = preset(&o, 0, "phalanx").unwrap();
    let text = g.action_notation(&CairdAction::Setup(phalanx.clone()));
    assert_eq!(
        text,
        format!("setup preset=phalanx pieces={}", phalanx.pieces)
    );
    // A lying label is refused; an edited plan carries no label.
    assert!(
        g.parse_action(&text.replace("preset=phalanx", "preset=flanks"))
            .is_err()
    );
    assert!(
        g.parse_action(&text.replace("preset=phalanx", "random=1"))
            .is_err()
    );
    assert!(g.parse_action("setup preset=phalanx random=1").is_err());
    assert!(g.parse_action("setup random=99").is_err());
    let mut chars: Vec<char> = phalanx.pieces.chars().collect();
    let k = chars.iter().position(|c| *c == 'K').unwrap();
    let other = chars.iter().position(|c| *c != 'K' && *c != '.').unwrap();
    chars.swap(k, other);
    let edited = SetupPlan {
        terrain: String::new(),
        pieces: chars.into_iter().collect(),
    };
    let text = g.action_notation(&CairdAction::Setup(edited.clone()));
    assert_eq!(text, format!("setup pieces={}", edited.pieces));
}
