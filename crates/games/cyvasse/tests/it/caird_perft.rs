//! Perft regression numbers from fixed setups (White `phalanx`, Black `vanguard` presets), for each
//! board and version and for all optional rules at once. Depth 1 of Basic 8x8 is checked by hand in
//! the comment below; the deeper figures guard against unintended rule changes.
#![allow(clippy::unwrap_used, clippy::expect_used)]

use cyvasse::caird::*;
use tabula_core::{Game, Seat, legal_actions_vec, tools};

fn expert() -> CairdOptions {
    CairdOptions {
        version: Version::Expert,
        ..Default::default()
    }
}

fn perft_of(o: &CairdOptions) -> Vec<u64> {
    let g = CairdCyvasse::from_presets(o, "phalanx", "vanguard").unwrap();
    (1..=3).map(|d| tools::perft(&g, d)).collect()
}

#[test]
fn perft_basic_8x8() {
    // Depth 1 by hand: Rabbles d3-d4, e3-e4, c3-b3, f3-g3 (4); Spears a2/b2/g2/h2 to a3, b3, g3, h3 (8);
    // Light Horses c2-b3, f2-g3 (2); everything else is boxed in by its own pieces: 14.
    assert_eq!(perft_of(&CairdOptions::default()), vec![14, 225, 3378]);
}

#[test]
fn perft_expert_8x8() {
    assert_eq!(perft_of(&expert()), vec![14, 225, 3427]);
}

#[test]
fn perft_expert_10x10() {
    let o = CairdOptions {
        large_board: true,
        ..expert()
    };
    assert_eq!(perft_of(&o), vec![24, 576, 17256]);
}

#[test]
fn perft_hex_basic_and_expert() {
    let basic = CairdOptions {
        board: BoardKind::Hex,
        ..Default::default()
    };
    assert_eq!(perft_of(&basic), vec![42, 1826, 85813]);
    let exp = CairdOptions {
        board: BoardKind::Hex,
        ..expert()
    };
    assert_eq!(perft_of(&exp), vec![36, 1294, 53533]);
}

#[test]
fn perft_with_every_optional_rule() {
    let square = CairdOptions {
        dragon_reserve: true,
        super_trebuchets: true,
        dragonfyre: true,
        castle_storming: true,
        wildfyre: true,
        ..expert()
    };
    assert_eq!(perft_of(&square), vec![23, 554, 12949]);
    let hex = CairdOptions {
        board: BoardKind::Hex,
        dragon_reserve: true,
        dragonfyre: true,
        sea_movement: true,
        ..expert()
    };
    assert_eq!(perft_of(&hex), vec![45, 2289, 105843]);
}

#[test]
fn perft_divide_sums_to_perft_and_matches_legal_actions() {
    let g = CairdCyvasse::from_presets(&CairdOptions::default(), "flanks", "phalanx").unwrap();
    let rows = tools::perft_divide(&g, 2);
    assert_eq!(rows.len(), legal_actions_vec(&g, Seat(0)).len());
    assert_eq!(
        rows.iter().map(|(_, n)| n).sum::<u64>(),
        tools::perft(&g, 2)
    );
    assert!(g.to_act().includes(Seat(0)));
}
