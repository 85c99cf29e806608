//! One or more tests per clause of `docs/rules/kyo.md`, each named after its clause and built from
//! explicit stacks (stack codes: chips bottom to top then the pawn; upper case Gold, lower case Red).
#![allow(clippy::unwrap_used, clippy::expect_used)]

use crate::common::*;
use kyo::{Kyo, KyoOptions, LightPawnRows, Phase};
use tabula_core::{ActionError, Actor, Game, Seat, SeatResult, ToAct, options};

fn sorted(mut v: Vec<String>) -> Vec<String> {
    v.sort();
    v
}

fn extra() -> KyoOptions {
    KyoOptions {
        extra_pieces: true,
        ..KyoOptions::default()
    }
}

// ---------------------------------------------------------------- Board, sides, start position

/// Rules, "Start position": the table of stacks, mirrored for Red; 13 D, 13 L, 8 S per player.
#[test]
fn start_position_matches_the_table() {
    let g = Kyo::new(&KyoOptions::default()).unwrap();
    let row0 = [
        "DDDH", "DDLH", "DLLH", "LLLH", "SSSK", "DLSQ", "LLLH", "DLLH", "DDLH", "DDDH",
    ];
    for (i, code) in row0.iter().enumerate() {
        let c = (b'A' + i as u8) as char;
        assert_eq!(at(&g, &format!("{c}0")), *code);
        assert_eq!(at(&g, &format!("{c}9")), code.to_lowercase());
    }
    for sq in ["E1", "F1"] {
        assert_eq!(at(&g, sq), "SST");
    }
    for sq in ["E8", "F8"] {
        assert_eq!(at(&g, sq), "sst");
    }
    for c in ['A', 'B', 'C', 'D', 'G', 'H', 'I', 'J'] {
        assert_eq!(at(&g, &format!("{c}3")), "P");
        assert_eq!(at(&g, &format!("{c}6")), "p");
    }
    let occupied = g.board.cells.iter().filter(|c| !c.is_empty()).count();
    assert_eq!(occupied, 40);
    for side in 0..2u8 {
        let count = |k: kyo::ChipKind| {
            g.board
                .cells
                .iter()
                .flat_map(|c| c.chips.iter())
                .filter(|ch| ch.owner == side && ch.kind == k)
                .count()
        };
        assert_eq!(count(kyo::ChipKind::Dark), 13);
        assert_eq!(count(kyo::ChipKind::Light), 13);
        assert_eq!(count(kyo::ChipKind::Shield), 8);
    }
    g.validate().unwrap();
}

/// Rules, "Board, sides": Gold moves first; Red may not act on Gold's turn.
#[test]
fn gold_moves_first() {
    let mut g = Kyo::new(&KyoOptions::default()).unwrap();
    assert_eq!(g.to_act(), ToAct::Seat(Seat(0)));
    assert_eq!(g.seat_name(Seat(0)), "Gold");
    assert_eq!(g.seat_name(Seat(1)), "Red");
    let a = legal(&g)[0];
    let before = g.clone();
    assert!(matches!(
        g.apply(Actor::Seat(Seat(1)), &a),
        Err(ActionError::NotYourTurn(_))
    ));
    assert_eq!(g, before);
}

/// Rules, "Start position", option `light_pawn_rows`: open_field rows 1/8, deadlock rows 4/5.
#[test]
fn light_pawn_rows_option_places_the_light_pawns() {
    let open = Kyo::new(&KyoOptions {
        light_pawn_rows: LightPawnRows::OpenField,
        ..KyoOptions::default()
    })
    .unwrap();
    for c in ['A', 'B', 'C', 'D', 'G', 'H', 'I', 'J'] {
        assert_eq!(at(&open, &format!("{c}1")), "P");
        assert_eq!(at(&open, &format!("{c}8")), "p");
        assert_eq!(at(&open, &format!("{c}3")), "");
    }
    assert_eq!(at(&open, "E1"), "SST");
    let dead = Kyo::new(&KyoOptions {
        light_pawn_rows: LightPawnRows::Deadlock,
        ..KyoOptions::default()
    })
    .unwrap();
    for c in ['A', 'B', 'C', 'D', 'G', 'H', 'I', 'J'] {
        assert_eq!(at(&dead, &format!("{c}4")), "P");
        assert_eq!(at(&dead, &format!("{c}5")), "p");
    }
    dead.validate().unwrap();
    open.validate().unwrap();
}

/// Rules, option names: unknown options and values are errors that list the valid ones.
#[test]
fn options_unknown_name_or_value_lists_valid_ones() {
    let e = options::parse_pairs::<KyoOptions, &str>(&["light_pawn_rows=moat"]).unwrap_err();
    assert!(e.to_string().contains("trench|open_field|deadlock"), "{e}");
    let e = options::parse_pairs::<KyoOptions, &str>(&["cannons=true"]).unwrap_err();
    assert!(
        e.to_string().contains("light_pawn_rows, extra_pieces"),
        "{e}"
    );
    let o = options::parse_pairs::<KyoOptions, &str>(&["extra_pieces=true"]).unwrap();
    assert!(o.extra_pieces);
}

/// Rules, "Optional pieces": Knights on C1/H1 (C8/H8) and Cannons on B1/I1 (B8/I8), one row further in
/// when the Light Pawns use those rows; off by default.
#[test]
fn extra_pieces_knight_and_cannon_start_squares() {
    let g = Kyo::new(&KyoOptions::default()).unwrap();
    assert_eq!(at(&g, "C1"), "");
    let g = Kyo::new(&extra()).unwrap();
    for (sq, code) in [
        ("C1", "N"),
        ("H1", "N"),
        ("B1", "C"),
        ("I1", "C"),
        ("C8", "n"),
        ("H8", "n"),
        ("B8", "c"),
        ("I8", "c"),
    ] {
        assert_eq!(at(&g, sq), code, "{sq}");
    }
    let g = Kyo::new(&KyoOptions {
        light_pawn_rows: LightPawnRows::OpenField,
        extra_pieces: true,
    })
    .unwrap();
    for (sq, code) in [
        ("C2", "N"),
        ("H2", "N"),
        ("B2", "C"),
        ("I2", "C"),
        ("C7", "n"),
        ("B7", "c"),
        ("C1", "P"),
        ("B8", "p"),
    ] {
        assert_eq!(at(&g, sq), code, "{sq}");
    }
    g.validate().unwrap();
}

// ---------------------------------------------------------------- Lifting

/// Rules, "Lifting": enemy chips are never lifted; the slice stops at the first enemy chip.
#[test]
fn lifting_never_lifts_enemy_chips() {
    let mut g = pos(&[("C4", "DdDH")], 0);
    let steps: Vec<_> = legal(&g)
        .into_iter()
        .filter_map(|a| match a {
            kyo::Action::Step { from, chips, .. } if from.to_string() == "C4" => Some(chips),
            _ => None,
        })
        .collect();
    assert!(steps.contains(&1) && steps.iter().all(|c| *c <= 1));
    let m = refuse(&mut g, "C4+2-C5");
    assert!(m.contains("unbroken run"), "{m}");
}

/// Rules, "Lifting": nothing under an enemy chip can be lifted.
#[test]
fn lifting_nothing_under_an_enemy_chip() {
    let mut g = pos(&[("C4", "Dd")], 0);
    assert!(legal_from(&g, "C4").is_empty());
    let m = refuse(&mut g, "C4(1)-C5");
    assert!(m.contains("nothing to lift"), "{m}");
}

/// Rules, "Lifting": with a Light Pawn on top, no chips (not even the chips alone).
#[test]
fn lifting_light_pawn_lifts_no_chips() {
    let mut g = pos(&[("C4", "DDP")], 0);
    let l = legal_from(&g, "C4");
    assert_eq!(l.len(), 8);
    assert!(l.iter().all(|n| n.starts_with("C4/2-")), "{l:?}");
    let m = refuse(&mut g, "C4/1-C5");
    assert!(m.contains("Light Pawn lifts no chips"), "{m}");
    refuse(&mut g, "C4(1)-C5");
    refuse(&mut g, "C4~DD");
}

/// Rules, "Lifting": any other pawn lifts at most 5 chips.
#[test]
fn lifting_other_pawn_at_most_five_chips() {
    let mut g = pos(&[("E4", "DDDDDDDH")], 0);
    let l = legal_from(&g, "E4");
    assert!(l.contains(&"E4/2>E5".to_string()), "{l:?}");
    assert!(
        !l.iter()
            .any(|n| n.starts_with("E4/1") || n.starts_with("E4-"))
    );
    let m = refuse(&mut g, "E4-E5");
    assert!(m.contains("at most 5"), "{m}");
    play(&mut g, "E4/2>E5");
    assert_eq!(at(&g, "E5"), "DDDDDH");
}

/// Rules, "Lifting": with no pawn, any number of own chips.
#[test]
fn lifting_pawnless_slice_any_number() {
    let mut g = pos(&[("E4", "DDDDDDD")], 0);
    assert!(legal_from(&g, "E4").contains(&"E4(7)-E5".to_string()));
    play(&mut g, "E4(7)-E5");
    assert_eq!(at(&g, "E5"), "DDDDDDD");
    assert_eq!(g.to_move, red());
}

// ---------------------------------------------------------------- Direct moves

/// Rules, "Direct move": the slice moves one square and the turn ends.
#[test]
fn direct_move_ends_the_turn() {
    let mut g = pos(&[("C4", "DH")], 0);
    play(&mut g, "C4-C5");
    assert_eq!(at(&g, "C4"), "");
    assert_eq!(at(&g, "C5"), "DH");
    assert_eq!(g.to_move, red());
}

/// Rules, "Direct move": the chips alone move, leaving the pawn.
#[test]
fn direct_move_chips_alone_leave_the_pawn() {
    let mut g = pos(&[("C4", "DLH")], 0);
    play(&mut g, "C4(1)-C5");
    assert_eq!(at(&g, "C4"), "DH");
    assert_eq!(at(&g, "C5"), "L");
    assert_eq!(g.to_move, red());
}

/// Rules, "Direct move": the pawn alone; over Mana of the wrong colour the step is direct.
#[test]
fn direct_move_pawn_alone_over_wrong_colour() {
    let mut g = pos(&[("C4", "LH")], 0);
    play(&mut g, "C4/1-C5");
    assert_eq!(at(&g, "C4"), "L");
    assert_eq!(at(&g, "C5"), "H");
    assert_eq!(g.to_move, red());
}

// ---------------------------------------------------------------- Mana moves

/// Rules, "Mana move": Dark Mana left behind allows an orthogonal Mana move; the turn goes on.
#[test]
fn mana_move_dark_for_orthogonal() {
    let mut g = pos(&[("C4", "DH")], 0);
    play(&mut g, "C4/1>C5");
    assert_eq!(g.to_move, gold());
    assert_eq!(g.turn.phase, Phase::Chain);
    assert!(legal(&g).contains(&kyo::Action::EndTurn));
    play(&mut g, "end");
    assert_eq!(g.to_move, red());
}

/// Rules, "Mana move": Light Mana left behind allows a diagonal Mana move.
#[test]
fn mana_move_light_for_diagonal() {
    let mut g = pos(&[("C4", "LH")], 0);
    play(&mut g, "C4/1>D5");
    assert_eq!(g.turn.phase, Phase::Chain);
    assert_eq!(g.to_move, gold());
}

/// Rules, "Mana move": enemy Mana may be used, never lifted.
#[test]
fn mana_move_uses_enemy_mana_never_lifts_it() {
    let mut g = pos(&[("C4", "dH")], 0);
    assert_eq!(
        g.action_notation(&g.parse_action("C4-C5").unwrap()),
        "C4>C5"
    );
    refuse(&mut g, "C4+1-C5");
    play(&mut g, "C4>C5");
    assert_eq!(g.turn.phase, Phase::Chain);
    assert_eq!(at(&g, "C4"), "d");
}

/// Rules, "Mana move": after a Mana move, another Mana move or the end; never a direct move.
#[test]
fn mana_move_never_followed_by_a_direct_move() {
    let mut g = pos(&[("C4", "DLH")], 0);
    play(&mut g, "C4/1>C5");
    // C5 holds L then the pawn; a step carrying L leaves C5 empty: a direct move.
    let m = refuse(&mut g, "C5-C6");
    assert!(m.contains("only Mana moves"), "{m}");
    refuse(&mut g, "C5(1)-C6");
    assert!(legal(&g).contains(&kyo::Action::EndTurn));
}

/// Rules, "Mana move": consecutive Mana moves over the same colour keep exactly the same direction.
#[test]
fn mana_moves_over_same_colour_keep_the_direction() {
    let mut g = pos(&[("C4", "DH"), ("C5", "D"), ("D6", "D")], 0);
    play(&mut g, "C4/1>C5");
    assert_eq!(legal_from(&g, "C5"), vec!["C5/1>C6".to_string()]);
    let m = refuse(&mut g, "C5/1>D5");
    assert!(m.contains("same direction"), "{m}");
    refuse(&mut g, "C5/1>B5");
}

/// Rules, "Mana move": when the colour changes, any direction of the new kind is allowed.
#[test]
fn mana_move_colour_change_allows_any_direction() {
    let mut g = pos(&[("C4", "DH"), ("C5", "L")], 0);
    play(&mut g, "C4/1>C5");
    assert_eq!(
        sorted(legal_from(&g, "C5")),
        vec!["C5/1>B4", "C5/1>B6", "C5/1>D4", "C5/1>D6"]
    );
}

/// Rules, "Mana move": Light Pawns cannot make Mana moves (the text wins).
#[test]
fn light_pawns_cannot_make_mana_moves() {
    let mut g = pos(&[("C4", "DP")], 0);
    assert_eq!(
        g.action_notation(&g.parse_action("C4/1-C5").unwrap()),
        "C4/1-C5"
    );
    play(&mut g, "C4/1-C5");
    assert_eq!(g.to_move, red());
}

/// Rules, "Mana move" **[decision]**: a Mana move may return the pawn to a square it already stood on
/// this turn (issue 19's example: the chips left on the way changed the board).
#[test]
fn mana_move_may_return_to_a_square_of_the_turn() {
    let mut g = pos(&[("B2", "LDLDH")], 0);
    play(&mut g, "B2/1>C3");
    play(&mut g, "C3/1>C2");
    play(&mut g, "C2/1>B3");
    assert!(
        legal_from(&g, "B3").contains(&"B3/1>B2".to_string()),
        "{:?}",
        legal_from(&g, "B3")
    );
    play(&mut g, "B3/1>B2");
    assert_eq!(g.to_move, gold(), "still a Mana chain");
    assert_eq!(
        (at(&g, "B2"), at(&g, "C3"), at(&g, "C2"), at(&g, "B3")),
        ("LH".into(), "D".into(), "L".into(), "D".into())
    );
    // The chain goes on from the square it came back to (over the Light chip it stands on).
    play(&mut g, "B2/1>C3");
    assert_eq!(at(&g, "C3"), "DH");
    play(&mut g, "end");
    assert_eq!(g.to_move, red());
}

/// Rules, "Mana move" **[decision]**: a step never recreates a whole position that already stood
/// earlier in the same turn, the turn's start included.
#[test]
fn mana_move_never_recreates_a_whole_position_of_the_turn() {
    // A 4-cycle of enemy Mana: N over d, SE over l, S over d, NW over l; nothing is left on the way,
    // so coming back to C4 would recreate the turn's start.
    let mut g = pos(&[("C4", "dH"), ("C5", "l"), ("D4", "d"), ("D3", "l")], 0);
    play(&mut g, "C4>C5");
    play(&mut g, "C5>D4");
    play(&mut g, "D4>D3");
    assert!(!legal_from(&g, "D3").iter().any(|n| n.ends_with("C4")));
    let m = refuse(&mut g, "D3>C4");
    assert!(m.contains("whole position"), "{m}");
    // A position in the middle of the turn counts as well: the chain starts on C3, steps onto C4
    // leaving its Dark chip behind, goes round the cycle, and may not step back onto C4.
    let mut g = pos(
        &[
            ("C3", "DH"),
            ("C4", "d"),
            ("C5", "l"),
            ("D4", "d"),
            ("D3", "l"),
        ],
        0,
    );
    play(&mut g, "C3/1>C4");
    play(&mut g, "C4>C5");
    play(&mut g, "C5>D4");
    play(&mut g, "D4>D3");
    let m = refuse(&mut g, "D3>C4");
    assert!(m.contains("whole position"), "{m}");
    // The turn's start counts after a Tower's deploy too: the Tower deploys its Shield onto C5, goes
    // round the cycle picking the Shield up again, and may not bring it back to C4 (the start); it
    // ends its turn elsewhere.
    let mut g = pos(&[("C4", "dST"), ("C5", "l"), ("D4", "d"), ("D3", "l")], 0);
    let start = g.board.clone();
    play(&mut g, "C4*C5");
    play(&mut g, "C4>C5");
    play(&mut g, "C5>D4");
    play(&mut g, "D4>D3");
    assert_eq!(at(&g, "D3"), "lST");
    let m = refuse(&mut g, "D3>C4");
    assert!(m.contains("whole position"), "{m}");
    assert!(!legal_from(&g, "D3").contains(&"D3>C4".to_string()));
    play(&mut g, "end"); // the Red Light Mana under the Shield it carried to D3 is destroyed
    assert_ne!(g.board, start);
    assert_eq!((at(&g, "C4"), at(&g, "D3")), ("d".into(), "ST".into()));
}

// ---------------------------------------------------------------- Where a pawn may step

/// Rules, "Where a pawn may step": never onto your own pawn.
#[test]
fn pawn_never_steps_onto_its_own_pawn() {
    let mut g = pos(&[("C4", "H"), ("C5", "P")], 0);
    assert!(!legal_from(&g, "C4").iter().any(|n| n.ends_with("C5")));
    let m = refuse(&mut g, "C4-C5");
    assert!(m.contains("own side's pawn"), "{m}");
}

/// Rules, "Where a pawn may step": onto a Shield-topped stack, Towers only.
#[test]
fn only_towers_step_onto_shields() {
    let mut g = pos(&[("C4", "H"), ("C5", "S")], 0);
    let m = refuse(&mut g, "C4-C5");
    assert!(m.contains("only a Tower"), "{m}");
    let mut g = pos(&[("C4", "T"), ("C5", "s")], 0);
    play(&mut g, "C4-C5");
}

/// Rules, "Where a pawn may step": enemy Shields a Tower moves onto are removed from the game.
#[test]
fn tower_removes_enemy_shields_it_moves_onto() {
    let mut g = pos(&[("C4", "T"), ("C5", "Dss")], 0);
    play(&mut g, "C4-C5");
    assert_eq!(at(&g, "C5"), "DT");
    assert_eq!(g.to_move, red(), "no Shield to deploy: the turn ended");
}

/// Rules, "Where a pawn may step": a Tower on its own Shields may lift them on a later turn.
#[test]
fn tower_relocates_its_own_shields() {
    let mut g = pos(&[("C4", "T"), ("C5", "S")], 0);
    play(&mut g, "C4-C5");
    assert_eq!(at(&g, "C5"), "ST");
    // The Shield it stepped onto is lifted on a later turn, not deployed now: the turn is over.
    assert_eq!(g.to_move, red());
    play(&mut g, "J9-I9");
    play(&mut g, "C5-C6");
    assert_eq!(at(&g, "C6"), "ST");
    assert_eq!(at(&g, "C5"), "");
}

/// Rules, "Where a pawn may step": a chip-only slice lands on an empty square or a pawnless stack,
/// never under a pawn.
#[test]
fn chip_only_slice_never_goes_under_a_pawn() {
    let mut g = pos(&[("C4", "DD"), ("C5", "h"), ("D5", "ss")], 0);
    let m = refuse(&mut g, "C4(1)-C5");
    assert!(m.contains("never move under a pawn"), "{m}");
    play(&mut g, "C4(2)-D5");
    assert_eq!(at(&g, "D5"), "ssDD");
}

// ---------------------------------------------------------------- Captures

/// Rules, "Captures": the enemy pawn goes with the enemy chips under it, down to the first chip that
/// is yours; the capture ends the turn.
#[test]
fn capture_removes_enemy_chips_down_to_your_chip() {
    let mut g = pos(&[("C4", "H"), ("C5", "Dddh")], 0);
    play(&mut g, "C4xC5");
    assert_eq!(at(&g, "C5"), "DH");
    assert_eq!(g.to_move, red());
}

/// Rules, "Captures": removal also stops at a Shield; the slice lands on what is left.
#[test]
fn capture_removal_stops_at_a_shield() {
    let mut g = pos(&[("C4", "DLH"), ("C5", "sdlh")], 0);
    play(&mut g, "C4/1xC5");
    assert_eq!(at(&g, "C5"), "sLH");
    assert_eq!(at(&g, "C4"), "D");
}

/// Rules, "Captures": a Mana chain may end in a capture, which ends the turn.
#[test]
fn capture_may_end_a_mana_chain() {
    let mut g = pos(&[("C4", "DH"), ("C5", "L"), ("D6", "h")], 0);
    play(&mut g, "C4/1>C5");
    play(&mut g, "C5/1xD6");
    assert_eq!(at(&g, "D6"), "H");
    assert_eq!(g.to_move, red());
}

/// Rules, "Light Pawn outnumbering": capture allowed when target-side friends exceed attacker-side
/// enemies.
#[test]
fn light_pawn_outnumbering_allows_capture() {
    // Target C5: friendly-topped neighbours C4 (P), B6 (D), D6 (H) = 3.
    // Attacker C4: enemy-topped neighbours C5 (h), B3 (d) = 2.
    let mut g = pos(
        &[
            ("C4", "P"),
            ("C5", "h"),
            ("B6", "D"),
            ("D6", "H"),
            ("B3", "d"),
        ],
        0,
    );
    play(&mut g, "C4xC5");
    assert_eq!(at(&g, "C5"), "P");
}

/// Rules, "Light Pawn outnumbering": equal numbers are not enough.
#[test]
fn light_pawn_outnumbering_equal_is_refused() {
    let mut g = pos(&[("C4", "P"), ("C5", "h"), ("B6", "D"), ("B3", "d")], 0);
    let m = refuse(&mut g, "C4xC5");
    assert!(m.contains("outnumbering"), "{m}");
}

/// Rules, "Light Pawn outnumbering": shields count for nobody.
#[test]
fn light_pawn_outnumbering_shields_count_for_nobody() {
    // Target side: C4 (P) and D6 topped by a Gold Shield (not counted) = 1; attacker side: C5 = 1,
    // B3 topped by a Red Shield (not counted).
    let mut g = pos(&[("C4", "P"), ("C5", "h"), ("D6", "S"), ("B3", "s")], 0);
    refuse(&mut g, "C4xC5");
    let mut g = pos(
        &[
            ("C4", "P"),
            ("C5", "h"),
            ("D6", "S"),
            ("B3", "s"),
            ("B6", "L"),
        ],
        0,
    );
    play(&mut g, "C4xC5");
}

/// Rules, "Light Pawn outnumbering": moving onto enemy Mana needs no outnumbering.
#[test]
fn light_pawn_onto_enemy_mana_needs_no_outnumbering() {
    let mut g = pos(
        &[
            ("C4", "P"),
            ("C5", "d"),
            ("B5", "h"),
            ("D5", "h"),
            ("B4", "h"),
        ],
        0,
    );
    play(&mut g, "C4-C5");
    // The enemy Mana under the pawn's final square is destroyed at the end of the turn.
    assert_eq!(at(&g, "C5"), "P");
}

// ---------------------------------------------------------------- Destroying Mana

/// Rules, "Destroying Mana": at the end of the turn the enemy Mana directly under the carried chips is
/// destroyed, down to the first chip that is yours.
#[test]
fn end_of_turn_destroys_enemy_mana_under_carried_chips() {
    let mut g = pos(&[("C4", "LH"), ("C5", "Dd")], 0);
    play(&mut g, "C4-C5");
    assert_eq!(at(&g, "C5"), "DLH");
    assert_eq!(g.quiet_turns, 0);
}

/// Rules, "Destroying Mana": destruction stops at a Shield.
#[test]
fn end_of_turn_destruction_stops_at_a_shield() {
    let mut g = pos(&[("C4", "LH"), ("C5", "dsdd")], 0);
    play(&mut g, "C4-C5");
    assert_eq!(at(&g, "C5"), "dsLH");
}

/// Rules, "Destroying Mana": only on the final square, not on squares passed during a chain.
#[test]
fn mana_destruction_only_on_the_final_square() {
    let mut g = pos(&[("C4", "DH"), ("C5", "d"), ("C6", "d")], 0);
    play(&mut g, "C4/1>C5");
    play(&mut g, "C5>C6");
    play(&mut g, "end");
    assert_eq!(at(&g, "C5"), "d");
    assert_eq!(at(&g, "C6"), "H");
}

/// Rules, "Destroying Mana": own chips directly under the carried chips protect the enemy Mana below.
#[test]
fn mana_destruction_stops_at_your_own_chip() {
    let mut g = pos(&[("C4", "LH"), ("C5", "dD")], 0);
    play(&mut g, "C4-C5");
    assert_eq!(at(&g, "C5"), "dDLH");
    assert_eq!(g.quiet_turns, 1);
}

// ---------------------------------------------------------------- Shuffles

/// Rules, "Shuffle": never legal if it ends with one of your Shields under one of your Mana chips.
#[test]
fn shuffle_never_puts_own_shield_under_own_mana() {
    let mut g = pos(&[("C4", "DLSH")], 0);
    let shuffles: Vec<_> = legal_from(&g, "C4")
        .into_iter()
        .filter(|n| n.contains('~'))
        .collect();
    assert_eq!(shuffles, vec!["C4~LDS".to_string()]);
    let m = refuse(&mut g, "C4~SL");
    assert!(m.contains("Shields under"), "{m}");
    refuse(&mut g, "C4~DSL");
}

/// Rules, "Shuffle": a shuffle must change the order.
#[test]
fn shuffle_must_change_the_order() {
    let mut g = pos(&[("C4", "DLSH")], 0);
    let m = refuse(&mut g, "C4~DLS");
    assert!(m.contains("must change"), "{m}");
}

/// Rules, "Shuffle": a shuffle ends the turn (all pawns but the Queen).
#[test]
fn shuffle_ends_the_turn() {
    let mut g = pos(&[("C4", "DLSH")], 0);
    play(&mut g, "C4~LDS");
    assert_eq!(at(&g, "C4"), "LDSH");
    assert_eq!(g.to_move, red());
}

/// Rules, "Shuffle": the Queen shuffles before, between and after her steps without ending the turn.
#[test]
fn queen_shuffles_freely_before_between_and_after_steps() {
    let mut g = pos(&[("C4", "DDLQ")], 0);
    play(&mut g, "C4~LD"); // before
    assert_eq!(at(&g, "C4"), "DLDQ");
    assert_eq!(g.to_move, gold());
    play(&mut g, "C4/1>C5");
    assert_eq!(at(&g, "C5"), "LDQ");
    play(&mut g, "C5~DL"); // between
    assert_eq!(g.to_move, gold());
    play(&mut g, "C5/1>C6");
    play(&mut g, "end");
    assert_eq!(at(&g, "C6"), "LQ");
    assert_eq!(g.to_move, red());
    // After her steps, and as the whole turn: a Queen shuffle then the end.
    let mut g = pos(&[("C4", "DLSQ")], 0);
    play(&mut g, "C4~LDS");
    play(&mut g, "end");
    assert_eq!(at(&g, "C4"), "LDSQ");
}

/// Rules, "Shuffle": consecutive shuffles count as one.
#[test]
fn queen_consecutive_shuffles_count_as_one() {
    let mut g = pos(&[("C4", "DDLQ")], 0);
    play(&mut g, "C4~LD");
    assert!(!legal_from(&g, "C4").iter().any(|n| n.contains('~')));
    let m = refuse(&mut g, "C4~DL");
    assert!(m.contains("consecutive"), "{m}");
}

/// Rules, "Shuffle": only the Queen may shuffle after a Mana move.
#[test]
fn only_the_queen_shuffles_after_a_mana_move() {
    let mut g = pos(&[("C4", "DDLH")], 0);
    play(&mut g, "C4/1>C5");
    assert_eq!(at(&g, "C5"), "DLH");
    assert!(!legal_from(&g, "C5").iter().any(|n| n.contains('~')));
    let m = refuse(&mut g, "C5~LD");
    assert!(m.contains("only the Queen"), "{m}");
}

/// Rules, "Shuffle": any slice, also a pawnless one, may shuffle as the whole of a turn.
#[test]
fn pawnless_slice_may_shuffle_as_a_turn() {
    let mut g = pos(&[("C4", "DLL")], 0);
    let shuffles: Vec<_> = legal_from(&g, "C4")
        .into_iter()
        .filter(|n| n.contains('~'))
        .collect();
    assert_eq!(sorted(shuffles), vec!["C4~LDL", "C4~LLD"]);
    play(&mut g, "C4~LLD");
    assert_eq!(at(&g, "C4"), "LLD");
    assert_eq!(g.to_move, red());
}

// ---------------------------------------------------------------- Deploys

/// Rules, "Deploy": Shields go to an adjacent square with no pawn and no enemy Shield on top.
#[test]
fn deploy_onto_adjacent_square_without_pawn_or_enemy_shield() {
    let g = pos(
        &[
            ("E4", "DSH"),
            ("D5", "s"),
            ("F5", "P"),
            ("D4", "d"),
            ("F4", "S"),
            ("D3", "h"),
            ("E3", "ds"),
            ("F3", "sD"),
        ],
        0,
    );
    let deploys: Vec<_> = legal_from(&g, "E4")
        .into_iter()
        .filter(|n| n.contains('*'))
        .collect();
    assert_eq!(sorted(deploys), vec!["E4*D4", "E4*E5", "E4*F3", "E4*F4"]);
}

/// Rules, "Deploy": for every pawn but the Tower a deploy is a direct move that ends the turn.
#[test]
fn deploy_ends_the_turn_for_other_pawns() {
    let mut g = pos(&[("E4", "DSH")], 0);
    play(&mut g, "E4*E5");
    assert_eq!(at(&g, "E5"), "S");
    assert_eq!(at(&g, "E4"), "DH");
    assert_eq!(g.to_move, red());
}

/// Rules, "Deploy": the Tower deploys at any time of its turn without ending it (rules example
/// `E1*E2*F2`), before and after its steps.
#[test]
fn tower_deploys_without_ending_the_turn() {
    let mut g = Kyo::new(&KyoOptions::default()).unwrap();
    play(&mut g, "E1*E2");
    play(&mut g, "E1*F2");
    assert_eq!(g.to_move, gold());
    assert_eq!(
        (at(&g, "E1"), at(&g, "E2"), at(&g, "F2")),
        ("T".into(), "S".into(), "S".into())
    );
    play(&mut g, "E1-E2"); // onto its own Shield: a direct move, nothing carried to deploy
    assert_eq!(g.to_move, red(), "no Shield carried: the turn ends");
    assert_eq!(at(&g, "E2"), "ST");
    // With a Shield carried, the Tower still deploys after its direct move.
    let mut g = Kyo::new(&KyoOptions::default()).unwrap();
    play(&mut g, "E1*E2");
    play(&mut g, "E1-D2");
    assert_eq!(
        g.to_move,
        gold(),
        "the Tower may still deploy after its direct move"
    );
    assert!(
        legal(&g)
            .iter()
            .all(|a| matches!(a, kyo::Action::Deploy { .. } | kyo::Action::EndTurn))
    );
    play(&mut g, "D2*C2");
    assert_eq!(g.to_move, red(), "no Shield left: the turn ends");
    assert_eq!(at(&g, "C2"), "S");
}

/// Rules, "Where a pawn may step" **[decision]**: a deploy uses only the Shields the pawn has carried
/// since its turn began, never Shields it stepped onto this turn (issue 19's examples).
#[test]
fn tower_deploys_only_shields_carried_since_its_turn_began() {
    // A direct move onto its own Shield carrying nothing ends the turn.
    let mut g = pos(&[("E2", "T"), ("E3", "S")], 0);
    play(&mut g, "E2-E3");
    assert_eq!(g.to_move, red());
    assert_eq!(at(&g, "E3"), "ST");
    // A Mana step onto its own Shield offers no deploy of it, and the deploy is refused.
    let mut g = pos(&[("B2", "DT"), ("B3", "S")], 0);
    play(&mut g, "B2/1>B3");
    assert_eq!(g.to_move, gold(), "a Mana move: the turn goes on");
    assert!(
        !legal(&g)
            .iter()
            .any(|a| matches!(a, kyo::Action::Deploy { .. })),
        "{:?}",
        legal_from(&g, "B3")
    );
    let m = refuse(&mut g, "B3*B4");
    assert!(m.contains("carried since its turn began"), "{m}");
    // A Shield it carried onto its own Shield may be deployed, the one it found there may not.
    let mut g = pos(&[("B2", "DST"), ("B3", "S")], 0);
    play(&mut g, "B2/1>B3");
    assert_eq!(at(&g, "B3"), "SST");
    let deploys: Vec<String> = legal_from(&g, "B3")
        .into_iter()
        .filter(|n| n.contains('*'))
        .collect();
    assert!(deploys.contains(&"B3*B4".to_string()), "{deploys:?}");
    assert!(!deploys.iter().any(|n| n.contains("(2)")), "{deploys:?}");
    refuse(&mut g, "B3(2)*B4");
    play(&mut g, "B3*B4");
    assert!(
        !legal(&g)
            .iter()
            .any(|a| matches!(a, kyo::Action::Deploy { .. }))
    );
    // On a later turn the Shield it stood on is its own slice again (relocation).
    play(&mut g, "end");
    play(&mut g, "J9-I9");
    play(&mut g, "B3*C3");
    assert_eq!(at(&g, "C3"), "S");
}

/// Rules, "Deploy": a deploy of several Shields at once.
#[test]
fn deploy_several_shields_at_once() {
    let mut g = Kyo::new(&KyoOptions::default()).unwrap();
    play(&mut g, "E1(2)*E2");
    assert_eq!(at(&g, "E2"), "SS");
    assert_eq!(g.to_move, gold());
}

// ---------------------------------------------------------------- The end

/// Rules, "The end": the mover wins when the enemy King is captured.
#[test]
fn win_by_capturing_the_king() {
    let mut g = pos(&[("C4", "H"), ("C5", "dk"), ("J9", "d")], 0);
    play(&mut g, "C4xC5");
    let o = g.to_act();
    let ToAct::Over(o) = o else {
        panic!("not over")
    };
    assert_eq!(o.results, vec![SeatResult::Win, SeatResult::Loss]);
    assert_eq!(o.reason, "King captured");
    assert!(legal(&g).is_empty());
}

/// Rules, "The end": the mover wins when the enemy has no Mana chip left.
#[test]
fn win_when_the_enemy_has_no_mana_left() {
    let mut g = pos(&[("C4", "H"), ("C5", "d"), ("J9", "k")], 0);
    play(&mut g, "C4-C5");
    assert_eq!(
        g.to_act().outcome().map(|o| o.reason.as_str()),
        Some("no Mana left")
    );
    assert_eq!(g.to_act().outcome().map(|o| o.score(gold())), Some(1.0));
}

/// Rules, "The end": buried Mana counts as present.
#[test]
fn buried_enemy_mana_still_counts() {
    let mut g = pos(&[("C4", "H"), ("C5", "dD"), ("J9", "k")], 0);
    play(&mut g, "C4-C3");
    assert!(g.outcome.is_none());
    assert_eq!(g.to_move, red());
}

/// Decision: a player with no legal step loses.
#[test]
fn a_player_without_a_legal_step_loses() {
    let mut g = pos(
        &[
            ("C4", "H"),
            ("C5", "dD"),
            ("J9", "k"),
            ("I9", "S"),
            ("I8", "S"),
            ("J8", "S"),
        ],
        0,
    );
    play(&mut g, "C4-C3");
    let o = g.to_act().outcome().cloned().unwrap();
    assert_eq!(o.reason, "no legal step");
    assert_eq!(o.winning_seats(), vec![gold()]);
}

/// Decision: draw by threefold repetition of the same position with the same side to move.
#[test]
fn draw_by_threefold_repetition() {
    let mut g = pos(&[], 0);
    for round in 0..2 {
        for m in ["A0-A1", "J9-J8", "A1-A0", "J8-J9"] {
            assert!(g.outcome.is_none(), "over too early in round {round}");
            play(&mut g, m);
        }
    }
    assert_eq!(
        g.to_act().outcome().map(|o| o.reason.as_str()),
        Some("threefold repetition")
    );
    assert_eq!(g.to_act().outcome().map(|o| o.score(red())), Some(0.5));
}

/// Decision: draw after 100 turns in a row with no capture and no Mana destroyed; a capture resets.
#[test]
fn draw_after_100_quiet_turns() {
    let mut g = pos(&[("C4", "H")], 0);
    g.quiet_turns = 99;
    play(&mut g, "C4-C3");
    assert!(
        g.to_act()
            .outcome()
            .is_some_and(|o| o.reason.contains("100 turns"))
    );
    let mut g = pos(&[("C4", "H"), ("C5", "dh")], 0);
    g.quiet_turns = 99;
    play(&mut g, "C4xC5");
    assert!(g.outcome.is_none());
    assert_eq!(g.quiet_turns, 0);
}

/// Rules, "A turn must contain at least one step".
#[test]
fn a_turn_must_contain_a_step() {
    let mut g = Kyo::new(&KyoOptions::default()).unwrap();
    assert!(!legal(&g).contains(&kyo::Action::EndTurn));
    let m = refuse(&mut g, "end");
    assert!(m.contains("at least one step"), "{m}");
}

/// Crate decision: once a piece has acted, the rest of the turn belongs to it.
#[test]
fn the_rest_of_the_turn_belongs_to_the_piece_that_acted() {
    let mut g = pos(&[("C4", "DH"), ("F4", "DH")], 0);
    play(&mut g, "C4/1>C5");
    let m = refuse(&mut g, "F4/1>F5");
    assert!(m.contains("belongs to the piece on C5"), "{m}");
}

// ---------------------------------------------------------------- Optional pieces

/// Rules, "Knight": a knight's leap over anything onto a square where a pawn may step (capturing).
#[test]
fn knight_leaps_over_anything() {
    let mut stacks = vec![("E4", "N"), ("F6", "h"), ("D6", "S")];
    for sq in ["D3", "E3", "F3", "D4", "F4", "D5", "E5", "F5"] {
        stacks.push((sq, "P"));
    }
    let mut g = pos_with(extra(), &stacks, 0);
    assert_eq!(
        sorted(legal_from(&g, "E4")),
        vec![
            "E4-C3", "E4-C5", "E4-D2", "E4-F2", "E4-G3", "E4-G5", "E4xF6"
        ]
    );
    play(&mut g, "E4xF6");
    assert_eq!(at(&g, "F6"), "N");
    assert_eq!(g.to_move, red());
}

/// Rules, "Knight": carries up to 5 chips and makes Mana moves like a Heavy.
#[test]
fn knight_makes_mana_moves_like_a_heavy() {
    let mut g = pos_with(extra(), &[("E4", "DDDDDDN")], 0);
    play(&mut g, "E4/1>E5");
    assert_eq!(g.turn.phase, Phase::Chain);
    assert_eq!(at(&g, "E5"), "DDDDDN");
}

/// Rules, "Cannon": captures an enemy pawn 2 or 3 squares away in a straight line over exactly one
/// stack, landing on the target; never by an adjacent attack.
#[test]
fn cannon_captures_over_exactly_one_stack() {
    let mut g = pos_with(
        extra(),
        &[
            ("E4", "DC"),
            ("E5", "D"),
            ("E6", "h"),
            ("G4", "D"),
            ("H4", "h"),
            ("D4", "P"),
            ("C4", "d"),
            ("B4", "h"),
            ("E3", "h"),
            ("G6", "h"),
        ],
        0,
    );
    let caps: Vec<_> = legal_from(&g, "E4")
        .into_iter()
        .filter(|n| n.contains('x'))
        .collect();
    assert_eq!(sorted(caps), vec!["E4/1xE6", "E4/1xH4", "E4xE6", "E4xH4"]);
    let m = refuse(&mut g, "E4xE3");
    assert!(m.contains("adjacent"), "{m}");
    let m = refuse(&mut g, "E4xB4");
    assert!(m.contains("exactly one stack"), "{m}");
    refuse(&mut g, "E4xG6");
    play(&mut g, "E4xH4");
    assert_eq!(at(&g, "H4"), "DC");
    assert_eq!(at(&g, "G4"), "D");
    assert_eq!(g.to_move, red());
}

// ---------------------------------------------------------------- Notation

/// Rules, "Notation for records": the example chain `D0>C1>B2` (with chips left behind) and `end`.
#[test]
fn notation_mana_chain_example_from_the_start() {
    let mut g = Kyo::new(&KyoOptions::default()).unwrap();
    play(&mut g, "D0/1>C1");
    play(&mut g, "C1/1>B2");
    play(&mut g, "end");
    assert_eq!(at(&g, "D0"), "L");
    assert_eq!(at(&g, "C1"), "L");
    assert_eq!(at(&g, "B2"), "LH");
    assert_eq!(g.to_move, red());
}

/// Notation: every legal action's notation parses back to the same action (start positions).
#[test]
fn notation_round_trips_on_start_positions() {
    for o in [KyoOptions::default(), extra()] {
        let g = Kyo::new(&o).unwrap();
        for a in legal(&g) {
            let n = g.action_notation(&a);
            assert_eq!(g.parse_action(&n).unwrap(), a, "{n}");
        }
    }
}

/// Notation: malformed input is a clear error and changes nothing.
#[test]
fn notation_malformed_input_is_refused() {
    let mut g = Kyo::new(&KyoOptions::default()).unwrap();
    for bad in [
        "", "Z9-A1", "D0", "D0?D1", "D0-K1", "D0(x)-D1", "D0~DQ", "D0/9-D1",
    ] {
        let before = g.clone();
        assert!(act(&mut g, bad).is_err(), "{bad}");
        assert_eq!(g, before);
    }
}

/// Shuffle notation: a longer order than the change is accepted and cut to the lowest changed chip.
#[test]
fn shuffle_notation_accepts_the_whole_slice() {
    let g = pos(&[("C4", "DDLH")], 0);
    let a = g.parse_action("C4~DLD").unwrap();
    assert_eq!(g.action_notation(&a), "C4~LD");
}

/// Crate decision: a direct move of the Queen ends her turn (only the Tower is excepted).
#[test]
fn queen_direct_move_ends_her_turn() {
    let mut g = pos(&[("C4", "LQ")], 0);
    play(&mut g, "C4/1-C5");
    assert_eq!(g.to_move, red());
}

/// Rules, "Deploy" and "Shuffle": a Tower's shuffle ends its turn, but it may still deploy after it.
#[test]
fn tower_shuffle_ends_the_turn_but_deploys_remain() {
    let mut g = pos(&[("C4", "SDT")], 0);
    play(&mut g, "C4~DS");
    assert_eq!(at(&g, "C4"), "DST");
    assert_eq!(g.to_move, gold());
    assert!(
        legal(&g)
            .iter()
            .all(|a| matches!(a, kyo::Action::Deploy { .. } | kyo::Action::EndTurn))
    );
    refuse(&mut g, "C4-C5");
    play(&mut g, "end");
    assert_eq!(g.to_move, red());
}

/// Rules, "Knight": the leap is a direct move, never a Mana move.
#[test]
fn knight_leap_is_a_direct_move() {
    let mut g = pos_with(extra(), &[("E4", "DN")], 0);
    assert_eq!(
        g.action_notation(&g.parse_action("E4/1-F6").unwrap()),
        "E4/1-F6"
    );
    play(&mut g, "E4/1-F6");
    assert_eq!(g.to_move, red());
    assert_eq!(at(&g, "E4"), "D");
}

/// Rules, "Cannon": its long capture is a direct move, so it never ends a Mana chain.
#[test]
fn cannon_capture_never_follows_a_mana_move() {
    let mut g = pos_with(extra(), &[("E3", "DC"), ("E5", "D"), ("E6", "h")], 0);
    play(&mut g, "E3/1>E4");
    assert!(!legal_from(&g, "E4").iter().any(|n| n.contains('x')));
    refuse(&mut g, "E4xE6");
}

/// Decision: a Tower capturing onto enemy Shields removes them too; the enemy Mana under them is
/// then destroyed at the end of the turn.
#[test]
fn tower_capture_removes_enemy_shields_under_the_target() {
    let mut g = pos(&[("C4", "T"), ("C5", "dsh")], 0);
    play(&mut g, "C4xC5");
    assert_eq!(at(&g, "C5"), "T");
    assert_eq!(g.to_move, red());
}

/// Exactness of the legal list, counted by hand on the start position (Gold to move).
/// * Heavy on `DDD` at A0: steps to A1, B1 carrying 0–3 chips (8), chips alone 1–3 to A1, B1 (6) = 14.
/// * Heavy on `DDL` at B0: steps to A1, B1, C1 (12), chips alone (9), shuffles `LD` and `LDD` (2) = 23.
/// * Heavy on `DLL` at C0: 12 + 9 + shuffles `LDL`, `LLD` = 23. D0 (`LLL`, E1 is a Tower): 8 + 6 = 14.
/// * King on `SSS` at E0: steps to D1 carrying 0–3 (4), deploys of 1–3 Shields to D1 (3) = 7.
/// * Queen on `DLS` at F0: steps to G1 (4), chips alone 2–3 to G1 (2), deploy 1 to G1, shuffle `LDS` = 8.
/// * Towers on `SS` at E1/F1: steps to 4 squares carrying 0–2 (12), deploys 1–2 to 4 squares (8) = 20.
/// * Light Pawns A3 4, B3 6, C3 6, D3 7, G3 7, H3 6, I3 6, J3 4 = 46.
///
/// Total 14 + 23 + 23 + 14 + 7 + 8 + 14 + 23 + 23 + 14 + 20 + 20 + 46 = 249.
#[test]
fn start_position_legal_actions_counted_by_hand() {
    let g = Kyo::new(&KyoOptions::default()).unwrap();
    for (sq, n) in [
        ("A0", 14),
        ("B0", 23),
        ("C0", 23),
        ("D0", 14),
        ("E0", 7),
        ("F0", 8),
        ("G0", 14),
        ("H0", 23),
        ("I0", 23),
        ("J0", 14),
        ("E1", 20),
        ("F1", 20),
        ("A3", 4),
        ("B3", 6),
        ("C3", 6),
        ("D3", 7),
        ("G3", 7),
        ("J3", 4),
    ] {
        assert_eq!(
            legal_from(&g, sq).len(),
            n,
            "{sq}: {:?}",
            legal_from(&g, sq)
        );
    }
    assert_eq!(
        sorted(
            legal_from(&g, "B0")
                .into_iter()
                .filter(|n| n.contains('~'))
                .collect()
        ),
        vec!["B0~LD", "B0~LDD"]
    );
    assert_eq!(legal(&g).len(), 249);
}
